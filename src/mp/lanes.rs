//! The interface between the shared exponentiation and an arithmetic backend.

use super::context::MontContext;
use super::fixed_window;
use super::MAX_LANES;

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
        fixed_window::default_window_bits(exponent_bits)
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

    /// `out |= entry & masks[lane]` for every word (word `k` in lane
    /// `k % LANES`): the inner step of the shared constant-time table select
    /// (`fixed_window::select_entry`). A SIMD backend overrides it only to
    /// do each register in one instruction.
    #[inline(always)]
    fn accumulate_masked(out: &mut [u64], entry: &[u64], masks: &[u64; MAX_LANES]) {
        fixed_window::accumulate_masked_words(Self::LANES, out, entry, masks);
    }

    /// `results[j] = residues[j] ^ exponents[j] mod m_j` (see
    /// `fixed_window::mod_exp`). A SIMD backend overrides this only to enter
    /// its `#[target_feature]` context first; the algorithm is shared.
    fn exp(
        &mut self,
        residues: &[&[u64]],
        exponents: &[&[u64]],
        exponent_bits: usize,
        results: &mut [&mut [u64]],
    ) {
        fixed_window::mod_exp(self, residues, exponents, exponent_bits, results);
    }
}
