//! The arithmetic backends of the batch engine, in one place: the
//! interface every backend implements ([`LaneArith`]), which backends this
//! build and this CPU have, and which one runs ([`Backend::selected`],
//! chosen once per process). The backends themselves are the children:
//! `portable` (any CPU) and `ifma` (AVX-512 IFMA). The code that maps a
//! [`Backend`] to its `LaneArith` type and runs it is `schedule`.

#[cfg(target_arch = "x86_64")]
pub(crate) mod ifma;
pub(crate) mod portable;

use std::ffi::CStr;
use std::sync::OnceLock;

use crate::mp::context::MontContext;
use crate::mp::limbs::masks::accumulate_masked_words;
use crate::mp::limits::MAX_LANES;
use crate::Error;

/// The environment variable that forces a backend: `portable`, `ifma` or
/// `auto` (the default: the fastest one this CPU runs).
pub const BACKEND_ENV: &str = "OBLIVEX_BACKEND";

/// An arithmetic backend of the batch exponentiation engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// 64-bit limbs, one value at a time; any CPU. The reference.
    Portable,
    /// AVX-512 IFMA, 8 values at once in radix 2^52 (x86-64 CPUs with
    /// AVX-512F and AVX-512 IFMA).
    Ifma,
}

impl Backend {
    /// Every backend this build knows, fastest first.
    pub const ALL: &'static [Backend] = &[Backend::Ifma, Backend::Portable];

    /// The backend's name as `OBLIVEX_BACKEND` spells it.
    pub fn name(self) -> &'static str {
        self.c_name().to_str().expect("names are ASCII")
    }

    /// [`Backend::name`] as a NUL-terminated string (for the C ABI).
    pub const fn c_name(self) -> &'static CStr {
        match self {
            Backend::Portable => c"portable",
            Backend::Ifma => c"ifma",
        }
    }

    /// Whether this CPU can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            Backend::Ifma => ifma_supported(),
        }
    }

    /// The fastest backend this CPU runs.
    pub fn best_available() -> Backend {
        Backend::ALL
            .iter()
            .copied()
            .find(|b| b.is_available())
            .unwrap_or(Backend::Portable)
    }

    /// Parses an `OBLIVEX_BACKEND` value (`auto` or empty = the best
    /// available). A known backend this CPU cannot run, and an unknown name,
    /// are both [`Error::UnsupportedBackend`]: forcing a backend never falls
    /// back silently.
    pub fn from_name(name: &str) -> Result<Backend, Error> {
        match name.trim() {
            "" | "auto" => Ok(Backend::best_available()),
            wanted => Backend::ALL
                .iter()
                .copied()
                .find(|b| b.name() == wanted && b.is_available())
                .ok_or(Error::UnsupportedBackend),
        }
    }

    /// `backend` if this CPU runs it ([`Error::UnsupportedBackend`]
    /// otherwise), or for `None` the process-wide choice.
    pub(crate) fn resolve(backend: Option<Backend>) -> Result<Backend, Error> {
        match backend {
            None => Backend::selected(),
            Some(b) if b.is_available() => Ok(b),
            Some(_) => Err(Error::UnsupportedBackend),
        }
    }

    /// The backend chosen by `OBLIVEX_BACKEND`, read once per process.
    pub fn selected() -> Result<Backend, Error> {
        static SELECTED: OnceLock<Result<Backend, Error>> = OnceLock::new();
        *SELECTED.get_or_init(|| match std::env::var(BACKEND_ENV) {
            Ok(value) => Backend::from_name(&value),
            Err(std::env::VarError::NotPresent) => Ok(Backend::best_available()),
            Err(std::env::VarError::NotUnicode(_)) => Err(Error::UnsupportedBackend),
        })
    }
}

/// Whether this CPU runs the IFMA backend (AVX-512 Foundation + IFMA;
/// only 512-bit registers are used, so AVX512VL is not needed).
pub(crate) fn ifma_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512ifma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Widest window considered (a table of 2^6 entries).
pub(crate) const MAX_WINDOW_BITS: usize = 6;

/// Window width for an exponent of `exponent_bits` (public) bits, minimising
/// the multiplications: `ceil(bits / w)` window products plus `2^w` to build
/// the table (the squarings, one per bit, do not depend on `w`).
pub(crate) fn default_window_bits(exponent_bits: usize) -> usize {
    (1..=MAX_WINDOW_BITS)
        .min_by_key(|&w| exponent_bits.div_ceil(w) + (1 << w))
        .expect("the range is not empty")
}

/// Montgomery arithmetic on `LANES` residues at once, lane `j` modulo its own
/// modulus `m_j` (all lanes of one group share the backend's size class).
///
/// An element is a slice of [`LaneArith::words`] `u64`s in the backend's own
/// format, with one rule every backend keeps: word `k` belongs to lane
/// `k % LANES`. That lets the shared table select (`fixed_window`) blend lanes
/// without knowing the limb format. Every operation is constant time in the
/// values; only the public sizes shape the work.
pub(crate) trait LaneArith<'a>: Sized {
    /// Values processed together (1 for the portable backend, 8 for IFMA).
    const LANES: usize;

    /// Arithmetic for a group of exactly `LANES` contexts, all of the same
    /// [`LaneArith::size_class`].
    fn new(contexts: &[&'a MontContext]) -> Self;

    /// Contexts that may share a lane group (same element format) have the
    /// same class; batches are grouped by it.
    fn size_class(_context: &MontContext) -> usize {
        0
    }

    /// Number of `u64` words of one element (all lanes).
    fn words(&self) -> usize;

    /// Window width for exponents of `exponent_bits` (public) bits.
    fn window_bits(&self, exponent_bits: usize) -> usize {
        default_window_bits(exponent_bits)
    }

    /// Enters the Montgomery domain: `residues[j] < m_j`, as 64-bit limbs
    /// (as many as `m_j` has).
    fn enter_mont(&mut self, residues: &[&[u64]], out: &mut [u64]);

    /// Leaves the Montgomery domain, writing each lane fully reduced
    /// (`< m_j`) as 64-bit limbs.
    fn leave_mont(&mut self, elem: &[u64], residues: &mut [&mut [u64]]);

    /// The Montgomery form of 1 in every lane.
    fn one(&self, out: &mut [u64]);

    /// Montgomery product of two elements.
    fn mul(&mut self, out: &mut [u64], a: &[u64], b: &[u64]);

    /// Montgomery square of an element.
    fn sqr(&mut self, out: &mut [u64], a: &[u64]);

    /// `out = OR over e of (table entry e & masks[e][lane])` for every
    /// word (word `k` in lane `k % LANES`; `out.len()` words per entry,
    /// `masks.len()` entries): the constant-time table select of
    /// `fixed_window::select_entry`, which makes the masks (all-ones for
    /// the one wanted entry of each lane). Every entry is read whatever the
    /// masks. A SIMD backend overrides it to keep the accumulators in
    /// registers and do each register in one instruction.
    #[inline(always)]
    fn select_masked(out: &mut [u64], table: &[u64], masks: &[[u64; MAX_LANES]]) {
        out.fill(0);
        for (entry, mask) in table.chunks_exact(out.len()).zip(masks) {
            accumulate_masked_words(Self::LANES, out, entry, mask);
        }
    }

    /// `results[j] = residues[j] ^ exponents[j] mod m_j`: every backend
    /// runs the shared `fixed_window::mod_exp` (the algorithm is written
    /// once); a SIMD backend enters its `#[target_feature]` context first.
    fn exp(
        &mut self,
        residues: &[&[u64]],
        exponents: &[&[u64]],
        exponent_bits: usize,
        results: &mut [&mut [u64]],
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse() {
        assert_eq!(Backend::from_name("portable"), Ok(Backend::Portable));
        assert_eq!(Backend::from_name("auto"), Ok(Backend::best_available()));
        assert_eq!(Backend::from_name(""), Ok(Backend::best_available()));
        assert_eq!(
            Backend::from_name("ifma-ish"),
            Err(Error::UnsupportedBackend)
        );
    }

    #[test]
    fn window_widths() {
        let expected = [
            (1, 1),
            (8, 2),
            (64, 3),
            (512, 5),
            (1024, 6),
            (2048, 6),
            (16384, 6),
        ];
        for (bits, w) in expected {
            assert_eq!(default_window_bits(bits), w, "{bits} bits");
        }
    }
}
