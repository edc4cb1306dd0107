//! The operating system's randomness, for callers that pass no RNG (the C
//! API). Rust callers pass their own `CryptoRng` to every protocol function.

use core::convert::Infallible;

use rand_core::utils::next_word_via_fill;
use rand_core::{TryCryptoRng, TryRng};

use crate::Error;

/// The operating system's random source. Every byte it yields is marked
/// secret for constant-time analysis (`src/secret_marks.rs`; nothing happens on a
/// real CPU), so that under the valgrind CT test every coin drawn from it
/// (blinds, verification factors, keys) is checked like a secret input.
#[derive(Debug)]
pub struct OsRng(());

impl TryRng for OsRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        next_word_via_fill(self)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        next_word_via_fill(self)
    }

    /// Panics if the source fails after [`os_rng`] saw it work (not seen on
    /// supported systems); the C ABI reports it as `OBLIVEX_ERR_PANIC`.
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        getrandom::fill(dst).expect("the OS random source failed after working");
        crate::secret_marks::classify(dst);
        Ok(())
    }
}

impl TryCryptoRng for OsRng {}

/// The OS random source as an infallible `CryptoRng`, after checking it
/// works ([`Error::RngFailure`] otherwise).
pub fn os_rng() -> Result<OsRng, Error> {
    let mut probe = [0u8; 1];
    getrandom::fill(&mut probe).map_err(|_| Error::RngFailure)?;
    Ok(OsRng(()))
}

/// A test source yielding the bytes `start, start + 1, …` (wrapping),
/// however they are asked for: the same bytes whether a caller draws them
/// in one call or in many, so batched and one-by-one draws can be compared.
#[cfg(test)]
pub(crate) struct CountingRng(pub(crate) u8);

#[cfg(test)]
impl TryRng for CountingRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        next_word_via_fill(self)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        next_word_via_fill(self)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for byte in dst {
            *byte = self.0;
            self.0 = self.0.wrapping_add(1);
        }
        Ok(())
    }
}

#[cfg(test)]
impl TryCryptoRng for CountingRng {}
