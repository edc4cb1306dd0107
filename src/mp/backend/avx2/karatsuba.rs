//! One level of Karatsuba on the column sums of a product or square
//! (`columns.rs`): with `h = ⌊L/2⌋`, `X = 2^(rh)`, `a = a1·X + a0` and
//! `b = b1·X + b0` (`a1`, `b1` the upper `L − h` digits),
//!
//! `a·b = P2·X² + (P1 − P0 − P2)·X + P0`, `P0 = a0·b0`, `P2 = a1·b1`,
//! `P1 = (a0 + a1)·(b0 + b1)`:
//!
//! three products of about `L/2` digits instead of four, `0.75·L²`
//! VPMULUDQ instead of `L²` (a square: three half squares, about
//! `0.75·L(L+1)/2`), for a few passes of additions `L` long.
//!
//! Nothing here carries. The sums `a0 + a1` are digit by digit, below
//! `2^(r+1)`, still exact operands of VPMULUDQ (`r ≤ 29`, and a square
//! doubles them: below `2^(r+2) ≤ 2^31`). Every column of `P1` is below
//! `(L − h)·2^(2r+2)`, which [`fits`] checks against 2^64, and the
//! combination, column by column, is exactly the schoolbook column sum
//! (`P1 − P0 − P2` is the column sum of `a0·b1 + a1·b0`): the result is
//! the same `2L` words `columns::product_columns` gives, so the reduction
//! and its bounds do not change.

use core::arch::x86_64::*;

use super::columns::{
    add, product_columns as schoolbook_product, square_columns as schoolbook_square, Digits,
};

/// Whether every column of the middle product of `l`-digit operands in
/// `digit_bits`-bit digits stays below 2^64: `(l − ⌊l/2⌋)` products, each
/// below `2^(2·digit_bits + 2)`.
pub(super) fn fits(l: usize, digit_bits: usize) -> bool {
    let upper = (l - l / 2) as u128;
    l >= 2 && upper << (2 * digit_bits + 2) <= 1u128 << 64
}

/// Scratch vectors [`product_columns`] and [`square_columns`] need for
/// `l`-digit operands: the two sums and the middle product's columns.
pub(super) fn scratch_len(l: usize) -> usize {
    4 * (l - l / 2)
}

/// `t[0 .. 2L] = a·b` as column sums, the value
/// `columns::product_columns` gives, by three half products of `R`-row
/// blocks. `scratch` holds [`scratch_len`] vectors.
#[target_feature(enable = "avx2")]
pub(super) fn product_columns<const R: usize>(
    t: &mut [Digits],
    a: &[Digits],
    b: &[Digits],
    scratch: &mut [Digits],
) {
    let l = a.len();
    debug_assert_eq!(b.len(), l);
    let (h, upper) = halves(l);
    let (sums, middle) = scratch[..4 * upper].split_at_mut(2 * upper);
    let (sum_a, sum_b) = sums.split_at_mut(upper);
    half_sums(a, h, sum_a);
    half_sums(b, h, sum_b);
    schoolbook_product::<R>(&mut t[..2 * h], &a[..h], &b[..h]);
    schoolbook_product::<R>(&mut t[2 * h..], &a[h..], &b[h..]);
    schoolbook_product::<R>(middle, sum_a, sum_b);
    combine(t, middle, h);
}

/// `t[0 .. 2L] = a²` as column sums, the value `columns::square_columns`
/// gives, by three half squares of `R`-row blocks (`doubled`: `L` vectors
/// of scratch, as there). `scratch` holds [`scratch_len`] vectors.
#[target_feature(enable = "avx2")]
pub(super) fn square_columns<const R: usize>(
    t: &mut [Digits],
    a: &[Digits],
    doubled: &mut [Digits],
    scratch: &mut [Digits],
) {
    let l = a.len();
    let (h, upper) = halves(l);
    let (sum, middle) = scratch[..3 * upper].split_at_mut(upper);
    half_sums(a, h, sum);
    schoolbook_square::<R>(&mut t[..2 * h], &a[..h], doubled);
    schoolbook_square::<R>(&mut t[2 * h..], &a[h..], doubled);
    schoolbook_square::<R>(middle, sum, doubled);
    combine(t, middle, h);
}

/// `h = ⌊l/2⌋` digits below the split and `l − h` above it.
fn halves(l: usize) -> (usize, usize) {
    debug_assert!(l >= 2, "a Karatsuba split needs two digits");
    (l / 2, l - l / 2)
}

/// `sum = a0 + a1` digit by digit (`a0 = a[..h]`, `a1 = a[h..]`, which has
/// `sum.len()` digits, one more than `a0` when `L` is odd).
#[inline]
#[target_feature(enable = "avx2")]
fn half_sums(a: &[Digits], h: usize, sum: &mut [Digits]) {
    let (low, high) = a.split_at(h);
    for (i, (s, &digit)) in sum.iter_mut().zip(high).enumerate() {
        *s = match low.get(i) {
            Some(&low_digit) => add(digit, low_digit),
            None => digit,
        };
    }
}

/// `t += (middle − P0 − P2)·X`, where `t` holds `P0` in its first `2h`
/// columns and `P2` in the rest, and `middle` is `P1`'s `2(L − h)`
/// columns (destroyed). The subtractions wrap, but each column's result is
/// the column sum of `a0·b1 + a1·b0`, which fits: exact. Two passes: the
/// second overwrites columns of `P0` and `P2` the first still reads
/// (fused into one pass, with `P0`'s upper half saved aside, it ran no
/// faster).
#[inline]
#[target_feature(enable = "avx2")]
fn combine(t: &mut [Digits], middle: &mut [Digits], h: usize) {
    let (p0, p2) = t.split_at(2 * h);
    for (j, column) in middle.iter_mut().enumerate() {
        let mut value = _mm256_sub_epi64(*column, p2[j]);
        if let Some(&low) = p0.get(j) {
            value = _mm256_sub_epi64(value, low);
        }
        *column = value;
    }
    // Every column the middle product has lands inside `t`: the last at
    // `h + 2(L − h) − 1 = 2L − h − 1`. (It is 0, the product having
    // `2(L − h) − 1` columns of terms, which the exactness above needs.)
    for (column, &value) in t[h..].iter_mut().zip(middle.iter()) {
        *column = add(*column, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::avx2_supported;
    use crate::mp::backend::avx2::columns::lanes;
    use crate::mp::backend::avx2::columns::tests::{digits, sample};
    use crate::mp::backend::avx2::constants::layout_for_bits;
    use crate::mp::backend::sliced::zero;

    /// Digits of `bits` bits: all ones (the largest columns) for seed 0,
    /// else the columns tests' pseudo-random digits cut to `bits`.
    fn operand(l: usize, bits: usize, seed: u64) -> Vec<Digits> {
        let mask = (1u64 << bits) - 1;
        let values: Vec<[u64; 4]> = if seed == 0 {
            vec![[mask; 4]; l]
        } else {
            sample(l, seed)
                .into_iter()
                .map(|lanes| lanes.map(|v| (v | v << 28) & mask))
                .collect()
        };
        digits(&values)
    }

    /// The Karatsuba columns equal the schoolbook ones word for word, for
    /// even and odd digit counts at each digit size, all-ones digits
    /// included (the largest middle columns [`fits`] allows).
    #[test]
    fn equals_the_schoolbook_columns() {
        if !avx2_supported() {
            return;
        }
        for (l, bits) in [
            (2usize, 29usize),
            (3, 29),
            (31, 29),
            (37, 28),
            (74, 28),
            (75, 28),
            (127, 28),
            (152, 27),
            (304, 27),
        ] {
            assert!(fits(l, bits), "L = {l}, {bits}-bit digits");
            for seed in [0u64, 1, 2] {
                let a = operand(l, bits, seed);
                let b = operand(l, bits, seed + 7);
                let mut expected = vec![zero(); 2 * l];
                let mut got = vec![zero(); 2 * l];
                let mut doubled = vec![zero(); l];
                let mut scratch = vec![zero(); scratch_len(l)];
                // SAFETY: the CPU has AVX2 (checked above).
                unsafe {
                    schoolbook_product::<8>(&mut expected, &a, &b);
                    product_columns::<8>(&mut got, &a, &b, &mut scratch);
                }
                let words = |v: &[Digits]| v.iter().map(|&d| lanes(d)).collect::<Vec<_>>();
                assert_eq!(
                    words(&got),
                    words(&expected),
                    "product, L = {l}, seed {seed}"
                );
                // SAFETY: as above.
                unsafe {
                    schoolbook_square::<6>(&mut expected, &a, &mut doubled);
                    square_columns::<6>(&mut got, &a, &mut doubled, &mut scratch);
                }
                assert_eq!(
                    words(&got),
                    words(&expected),
                    "square, L = {l}, seed {seed}"
                );
            }
        }
    }

    /// [`fits`] refuses what would overflow: one digit, and operands whose
    /// middle columns could reach 2^64.
    #[test]
    fn fits_refuses_overflowing_columns() {
        assert!(!fits(1, 28));
        assert!(fits(128, 28));
        assert!(!fits(130, 28));
        assert!(!fits(34, 29));
    }

    /// Every digit layout the backend makes leaves the middle product room
    /// (its column rule, `2L·2^(2r) < 2^64`, implies [`fits`]): the
    /// fallback to schoolbook in `Avx2Arith::new` is a guard, and a layout
    /// change that broke it would fail here rather than quietly turn
    /// Karatsuba off.
    #[test]
    fn every_layout_fits() {
        for bits in 64..=8192 {
            let layout = layout_for_bits(bits);
            assert!(
                layout.digits < 2 || fits(layout.digits, layout.digit_bits),
                "{bits} bits: {layout:?}"
            );
        }
    }
}
