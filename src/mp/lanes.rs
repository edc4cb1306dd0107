//! The interface between the shared exponentiation and an arithmetic backend.

use super::context::MontContext;
use super::fixed_window;

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

    /// Arithmetic for a group of exactly `LANES` contexts.
    fn new(contexts: &[&'a MontContext]) -> Self;

    /// Number of `u64` words of one element (all lanes).
    fn words(&self) -> usize;

    /// Window width for exponents of `exponent_bits` (public) bits.
    fn window_bits(&self, exponent_bits: usize) -> usize {
        fixed_window::default_window_bits(exponent_bits)
    }

    /// Enters the Montgomery domain: `residues[j] < m_j`, as 64-bit limbs
    /// (as many as `m_j` has).
    fn enter_mont(&self, residues: &[&[u64]], out: &mut [u64]);

    /// Leaves the Montgomery domain, writing each lane fully reduced
    /// (`< m_j`) as 64-bit limbs.
    fn leave_mont(&self, elem: &[u64], residues: &mut [&mut [u64]]);

    /// The Montgomery form of 1 in every lane.
    fn one(&self, out: &mut [u64]);

    /// Montgomery product of two elements.
    fn mul(&self, out: &mut [u64], a: &[u64], b: &[u64]);

    /// Montgomery square of an element.
    fn sqr(&self, out: &mut [u64], a: &[u64]);
}
