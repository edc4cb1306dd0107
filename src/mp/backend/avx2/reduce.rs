//! The Montgomery reduction of column sums (`columns.rs`), word by word:
//! quotient digit `q_i` clears column `i`, and the reduced value is the
//! upper half, carried into digits.
//!
//! Each quotient digit waits for the one before (through the carry and
//! `q_{i−1}·m_1`), a chain of about ten cycles that no amount of
//! multiplier throughput shortens. So the digits are made in blocks of `R`
//! (the chain, with the block's own triangle of `q·m` products), and each
//! block's sweep along the modulus is split: the first columns, which the
//! next block's chain reads, then that chain, then the rest of the sweep.
//! In program order the next chain thus sits beside a long run of
//! independent products, and the core overlaps the two.

use core::arch::x86_64::*;

use super::columns::{add, lanes, mul32, rows_of, sweep, with_rows, Digits};

/// The modulus of each lane, in the form the reduction reads.
pub(super) struct Modulus<'m> {
    /// `m`, `L` digits.
    pub(super) digits: &'m [Digits],
    /// `−m^{−1} mod 2^r` in each lane.
    pub(super) m_prime: Digits,
    /// `r`, the bits of a digit.
    pub(super) digit_bits: usize,
}

/// `out = t·2^(−rL) mod m`, below `2m` when `t < 4m²` and `2^(rL) ≥ 4m`,
/// with every digit below `2^r`. `t` holds `2L` column sums (destroyed),
/// `quotient` is `L` digits of scratch.
#[target_feature(enable = "avx2")]
pub(super) fn reduce<const R: usize>(
    t: &mut [Digits],
    modulus: &Modulus<'_>,
    quotient: &mut [Digits],
    out: &mut [Digits],
) {
    let m = modulus.digits;
    let l = m.len();
    let shift = _mm_cvtsi64_si128(modulus.digit_bits as i64);
    let mask = _mm256_set1_epi64x((1i64 << modulus.digit_bits) - 1);
    with_rows!(R.min(l), K => quotient_block::<K>(t, modulus, quotient, 0, shift, mask));
    for start in (0..l).step_by(R) {
        let rows = R.min(l - start);
        let next = start + rows;
        with_rows!(rows, K => {
            let x = rows_of::<K>(quotient, start);
            if next < l {
                let next_rows = R.min(l - next);
                sweep::<K>(&mut t[start..], &x, m, K..K + next_rows);
                with_rows!(next_rows, N => {
                    quotient_block::<N>(t, modulus, quotient, next, shift, mask)
                });
                sweep::<K>(&mut t[start..], &x, m, K + next_rows..l + K - 1);
            } else {
                sweep::<K>(&mut t[start..], &x, m, K..l + K - 1);
            }
        });
    }
    // The upper half, carried: each column's excess moves to the next.
    let mut carry = _mm256_setzero_si256();
    for (digit, &column) in out.iter_mut().zip(&t[l..2 * l]) {
        let sum = add(column, carry);
        *digit = _mm256_and_si256(sum, mask);
        carry = _mm256_srl_epi64(sum, shift);
    }
    debug_assert!(lanes(carry) == [0; 4], "the result fits L digits");
}

/// Quotient digits `start .. start + K`, each from its column once every
/// earlier digit's products and carries are in it; each clears its column
/// (the carry moves to the next) and adds its products with the block's
/// later columns (`q_i·m_j`, `i + j < start + K`). Unrolled: the block's
/// columns live in registers while the chain runs.
// The unrolled updates of the last columns are read by the rows after them
// only within bounds the compiler folds; it warns about the folded-away
// reads of the block sizes where none follow.
#[allow(unused_assignments)]
#[inline]
#[target_feature(enable = "avx2")]
fn quotient_block<const K: usize>(
    t: &mut [Digits],
    modulus: &Modulus<'_>,
    quotient: &mut [Digits],
    start: usize,
    shift: __m128i,
    mask: Digits,
) {
    let m = &modulus.digits[..K];
    let mut columns = rows_of::<K>(t, start);
    let mut carry = _mm256_setzero_si256();
    let mut q = [_mm256_setzero_si256(); K];
    unrolled!(i < K => {
        let column = add(columns[i], carry);
        q[i] = _mm256_and_si256(mul32(column, modulus.m_prime), mask);
        // Column i + q·m_0 is a multiple of 2^r: its quotient is the carry.
        carry = _mm256_srl_epi64(add(column, mul32(q[i], m[0])), shift);
        unrolled!(j < K => {
            if j >= 1 && i + j < K {
                columns[i + j] = add(columns[i + j], mul32(q[i], m[j]));
            }
        });
    });
    quotient[start..start + K].copy_from_slice(&q);
    t[start + K] = add(t[start + K], carry);
}
