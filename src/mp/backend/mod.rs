//! The arithmetic backends of the batch engine, in one place: the
//! interface every backend implements ([`LaneArith`]) and the backends
//! themselves, the children: `portable` (any CPU), `mulx` (BMI2 and ADX,
//! the portable arithmetic on an assembly row), `avx2` (AVX2) and `ifma`
//! (AVX-512 IFMA), with `cpu` naming the CPU for the SIMD ones' tuning
//! tables. Which one runs is chosen below `mp`, in `crate::backend`; the
//! code that maps that choice to its `LaneArith` type and runs it is
//! `schedule`.

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
mod cpu;
#[cfg(target_arch = "x86_64")]
pub(crate) mod ifma;
#[cfg(target_arch = "x86_64")]
pub(crate) mod mulx;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
mod sliced;
#[cfg(test)]
pub(crate) mod test_support;

use crate::mp::context::MontContext;
use crate::mp::limbs::masks::{accumulate_masked_words, mask_eq_arith};
use crate::mp::limits::MAX_LANES;

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

    /// Words of one entry of the exponentiation's table: the element (the
    /// power of the base), then whatever the backend keeps beside it for
    /// [`LaneArith::mul_by_entry`] (word `k` still in lane `k % LANES`).
    /// By default the element alone.
    fn entry_words(&self) -> usize {
        self.words()
    }

    /// Fills the rest of a table entry from its element, its first
    /// [`LaneArith::words`] words; by default there is nothing to fill.
    fn complete_entry(&mut self, _entry: &mut [u64]) {}

    /// Montgomery product of `a` and the element of a table entry (an
    /// entry as [`LaneArith::complete_entry`] left it): the window's
    /// product. By default [`LaneArith::mul`]. `a` is a squaring's result,
    /// and what comes out goes to a squaring or out of the domain: a
    /// backend may rely on that for its bounds (the IFMA half form's
    /// result may reach `3.25m`, `ifma/half.rs`).
    fn mul_by_entry(&mut self, out: &mut [u64], a: &[u64], entry: &[u64]) {
        let words = self.words();
        self.mul(out, a, &entry[..words]);
    }

    /// `out = table entry digits[lane]` in every lane (word `k` in lane
    /// `k % LANES`; `out.len()` words per entry): the constant-time table
    /// select of `fixed_window::select_entry`. Every entry is read whatever
    /// the digits, and neither a branch nor an address depends on them.
    /// This default makes a mask per entry and lane in `masks` (scratch,
    /// one row per entry, wiped by the caller), all-ones for the wanted
    /// entry, keeps them in memory behind `black_box`, and ORs in each
    /// entry ANDed with its masks. A SIMD backend overrides it to make the
    /// masks in registers (leaving `masks` untouched) and do each register
    /// of an entry in one instruction.
    #[inline(always)]
    fn select(out: &mut [u64], table: &[u64], digits: &[u64], masks: &mut [[u64; MAX_LANES]]) {
        for (index, entry_masks) in masks.iter_mut().enumerate() {
            for (mask, &digit) in entry_masks.iter_mut().zip(digits) {
                *mask = mask_eq_arith(index as u64, digit);
            }
        }
        // Through black_box by reference: the masks stay data in memory.
        let masks: &[[u64; MAX_LANES]] = core::hint::black_box(masks);
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
