//! A deterministic RNG shared by the tests and the fuzz targets.

use core::convert::Infallible;

use rand_core::utils::next_word_via_fill;
use rand_core::{TryCryptoRng, TryRng};
use sha2::{Digest, Sha256};

/// SHA-256 of (seed, counter) as one byte stream, however it is read (so
/// a test can replay exactly what a function drew from it). For tests and
/// fuzzing only: a fixed seed is no secret.
pub struct ReplayRng {
    seed: [u8; 32],
    counter: u64,
    block: [u8; 32],
    used: usize,
}

impl ReplayRng {
    /// A stream determined by `seed`.
    pub fn new(seed: &[u8]) -> ReplayRng {
        ReplayRng {
            seed: Sha256::digest(seed).into(),
            counter: 0,
            block: [0; 32],
            used: 32,
        }
    }
}

impl TryRng for ReplayRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        next_word_via_fill(self)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        next_word_via_fill(self)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for byte in dst {
            if self.used == self.block.len() {
                let mut hasher = Sha256::new();
                hasher.update(self.seed);
                hasher.update(self.counter.to_le_bytes());
                self.block = hasher.finalize().into();
                self.counter += 1;
                self.used = 0;
            }
            *byte = self.block[self.used];
            self.used += 1;
        }
        Ok(())
    }
}

impl TryCryptoRng for ReplayRng {}
