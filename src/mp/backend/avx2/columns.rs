//! Column sums of products, the part of a Montgomery product that has no
//! carries: 4 values per ymm register (one per 64-bit lane, word-sliced as
//! in the IFMA backend), digits below 2^32 so that VPMULUDQ's 32×32→64-bit
//! products are exact, and every column a plain 64-bit sum (the digit size,
//! `constants::digit_bits_for`, keeps the sums below 2^64).
//!
//! Everything is built on one kernel, [`sweep`]: `R` row digits held in
//! registers, swept along an operand in memory, one column at a time (each
//! column loaded and stored once per `R` products). A product is row blocks
//! of one operand swept along the other; a square is the same on the upper
//! triangle with the other operand doubled; the Montgomery reduction
//! (`reduce.rs`) sweeps its quotient digits along the modulus.

use core::arch::x86_64::*;
use core::ops::Range;

/// One digit of 4 values.
pub(super) type Digits = __m256i;

/// The 4 lanes of a digit vector (debug checks).
pub(super) fn lanes(v: Digits) -> [u64; 4] {
    // SAFETY: __m256i and [u64; 4] have the same size and every bit
    // pattern is valid for both.
    unsafe { core::mem::transmute(v) }
}

/// Checked builds: every digit of `a` below `2^digit_bits` in each lane,
/// the operand bound the column sums' room rests on
/// (`constants::layout_for_bits`).
#[inline]
pub(super) fn debug_assert_digits(a: &[Digits], digit_bits: usize) {
    if cfg!(debug_assertions) {
        for (i, &digit) in a.iter().enumerate() {
            assert!(
                lanes(digit).iter().all(|&d| d >> digit_bits == 0),
                "digit {i} is wider than {digit_bits} bits"
            );
        }
    }
}

/// Checked builds: every column of a product or square of `l`-digit
/// operands (`2l` columns) at most `(l + 2)·2^(2·digit_bits)`: at most `l`
/// products below `2^(2r)` in a column of `a·b`, or half as many below
/// `2^(2r+1)` (the doubled operand) and a diagonal term in a square's.
/// What the reduction adds on top is the layout's proven room.
#[inline]
pub(super) fn debug_assert_product_columns(t: &[Digits], l: usize, digit_bits: usize) {
    if cfg!(debug_assertions) {
        let bound = ((l as u128 + 2) << (2 * digit_bits)).min(u128::from(u64::MAX)) as u64;
        for (k, &column) in t[..2 * l].iter().enumerate() {
            assert!(
                lanes(column).iter().all(|&c| c <= bound),
                "column {k} of a {l}-digit product is above (l + 2)·2^(2·{digit_bits})"
            );
        }
    }
}

/// `a·b` in each lane, from the low 32 bits of each.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn mul32(a: Digits, b: Digits) -> Digits {
    _mm256_mul_epu32(a, b)
}

/// `a + b` in each lane.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn add(a: Digits, b: Digits) -> Digits {
    _mm256_add_epi64(a, b)
}

/// `t[s] += Σ x[r]·y[s − r]` over the rows `r < R` with `0 ≤ s − r <
/// y.len()`, for each column `s` in `columns`.
///
/// The columns where all `R` rows take part run unrolled, `y[s − R + 1 ..=
/// s]` read straight into the multiplications. The ramps at either end,
/// where some rows fall outside `y`, are unrolled too when the sweep covers
/// them whole (the rows taking part in each of their columns are then
/// constants); a sweep that starts or stops inside a ramp tests each row
/// (public indices only).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn sweep<const R: usize>(
    t: &mut [Digits],
    x: &[Digits; R],
    y: &[Digits],
    columns: Range<usize>,
) {
    let n = y.len();
    let Range { start, end } = columns;
    assert!(
        end <= t.len() && end < n + R,
        "the columns lie in t and meet y"
    );
    let steady_start = start.max(R - 1).min(end);
    let steady_end = end.min(n).max(steady_start);
    if start == 0 && steady_start == R - 1 && n >= R - 1 {
        ramp_up(t, x, y);
    } else {
        for s in start..steady_start {
            ramp_column(t, x, y, s);
        }
    }
    for (column, window) in t[steady_start..steady_end]
        .iter_mut()
        .zip(y[steady_start + 1 - R..].windows(R))
    {
        let mut acc = *column;
        unrolled!(r < R => {
            acc = add(acc, mul32(x[r], window[R - 1 - r]));
        });
        *column = acc;
    }
    if steady_end == n && end == n + R - 1 && n >= R - 1 {
        ramp_down(&mut t[n..end], x, &y[n + 1 - R..]);
    } else {
        for s in steady_end..end {
            ramp_column(t, x, y, s);
        }
    }
}

/// The first `R − 1` columns of a sweep: column `s` takes rows `r ≤ s`.
#[inline]
#[target_feature(enable = "avx2")]
fn ramp_up<const R: usize>(t: &mut [Digits], x: &[Digits; R], y: &[Digits]) {
    let (t, y) = (&mut t[..R - 1], &y[..R - 1]);
    unrolled!(s < R - 1 => {
        let mut acc = t[s];
        unrolled!(r < R => {
            if r <= s {
                acc = add(acc, mul32(x[r], y[s - r]));
            }
        });
        t[s] = acc;
    });
}

/// The last `R − 1` columns of a sweep along `n` digits, `t` from column
/// `n` and `y` its last `R − 1` digits: column `n + u` takes rows `r > u`.
#[inline]
#[target_feature(enable = "avx2")]
fn ramp_down<const R: usize>(t: &mut [Digits], x: &[Digits; R], y_end: &[Digits]) {
    let (t, y_end) = (&mut t[..R - 1], &y_end[..R - 1]);
    unrolled!(u < R - 1 => {
        let mut acc = t[u];
        unrolled!(r < R => {
            if r > u {
                acc = add(acc, mul32(x[r], y_end[R - 1 + u - r]));
            }
        });
        t[u] = acc;
    });
}

/// One column of [`sweep`] where some rows fall outside `y`.
#[inline]
#[target_feature(enable = "avx2")]
fn ramp_column<const R: usize>(t: &mut [Digits], x: &[Digits; R], y: &[Digits], s: usize) {
    let mut acc = t[s];
    for (r, &row) in x.iter().enumerate() {
        if let Some(&digit) = s.checked_sub(r).and_then(|j| y.get(j)) {
            acc = add(acc, mul32(row, digit));
        }
    }
    t[s] = acc;
}

/// Calls `$body` with `$k` bound to the const generic `$rows` for the row
/// counts `1 ..= 10` (the last block of a size not divisible by the block).
macro_rules! with_rows {
    ($rows:expr, $k:ident => $body:expr) => {
        match $rows {
            1 => {
                const $k: usize = 1;
                $body
            }
            2 => {
                const $k: usize = 2;
                $body
            }
            3 => {
                const $k: usize = 3;
                $body
            }
            4 => {
                const $k: usize = 4;
                $body
            }
            5 => {
                const $k: usize = 5;
                $body
            }
            6 => {
                const $k: usize = 6;
                $body
            }
            7 => {
                const $k: usize = 7;
                $body
            }
            8 => {
                const $k: usize = 8;
                $body
            }
            9 => {
                const $k: usize = 9;
                $body
            }
            10 => {
                const $k: usize = 10;
                $body
            }
            rows => unreachable!("row blocks have 1 to 10 rows, not {rows}"),
        }
    };
}
pub(super) use with_rows;

/// Digits `start .. start + K` of `a` as a register array.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn rows_of<const K: usize>(a: &[Digits], start: usize) -> [Digits; K] {
    let mut rows = [_mm256_setzero_si256(); K];
    rows.copy_from_slice(&a[start..start + K]);
    rows
}

/// `t[0 .. 2L] = a·b` as column sums (no carries), `L = a.len() =
/// b.len()`, in blocks of `R` rows of `a`.
#[target_feature(enable = "avx2")]
pub(super) fn product_columns<const R: usize>(t: &mut [Digits], a: &[Digits], b: &[Digits]) {
    let l = a.len();
    debug_assert_eq!(b.len(), l);
    t[..2 * l].fill(_mm256_setzero_si256());
    for start in (0..l).step_by(R) {
        let rows = R.min(l - start);
        with_rows!(rows, K => {
            let x = rows_of::<K>(a, start);
            sweep::<K>(&mut t[start..], &x, b, 0..l + K - 1);
        });
    }
}

/// `t[0 .. 2L] = a²` as column sums (no carries), `L = a.len()`: each cross
/// product `a_i·a_j` (`i < j`) once, against `doubled = 2a` (digit by
/// digit, below 2^32 still), and the squares `a_i²` on the diagonal.
#[target_feature(enable = "avx2")]
pub(super) fn square_columns<const R: usize>(
    t: &mut [Digits],
    a: &[Digits],
    doubled: &mut [Digits],
) {
    let l = a.len();
    for (d, &digit) in doubled.iter_mut().zip(a) {
        *d = _mm256_slli_epi64::<1>(digit);
    }
    let doubled = &doubled[..l];
    t[..2 * l].fill(_mm256_setzero_si256());
    for start in (0..l).step_by(R) {
        let rows = R.min(l - start);
        let after = start + rows;
        with_rows!(rows, K => {
            let x = rows_of::<K>(a, start);
            // The block's own triangle and diagonal: rows i, columns j ≥ i
            // of the block.
            let block = &doubled[start..after];
            let t_block = &mut t[2 * start..2 * after];
            unrolled!(i < K => {
                t_block[2 * i] = add(t_block[2 * i], mul32(x[i], x[i]));
                unrolled!(j < K => {
                    if j > i {
                        t_block[i + j] = add(t_block[i + j], mul32(x[i], block[j]));
                    }
                });
            });
            // The rectangle right of it: rows of the block, every later
            // column.
            if after < l {
                sweep::<K>(&mut t[start + after..], &x, &doubled[after..], 0..l - after + K - 1);
            }
        });
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::backend::avx2_supported;
    use crate::mp::backend::sliced::zero;

    /// Lane values as digit vectors.
    pub(in super::super) fn digits(values: &[[u64; 4]]) -> Vec<Digits> {
        // SAFETY: same size, every bit pattern valid for both.
        values
            .iter()
            .map(|v| unsafe { core::mem::transmute(*v) })
            .collect()
    }

    /// Column sums by the definition, lane by lane.
    fn reference(a: &[[u64; 4]], b: &[[u64; 4]]) -> Vec<[u64; 4]> {
        let mut t = vec![[0u64; 4]; 2 * a.len()];
        for (i, x) in a.iter().enumerate() {
            for (j, y) in b.iter().enumerate() {
                for lane in 0..4 {
                    t[i + j][lane] += x[lane] * y[lane];
                }
            }
        }
        t
    }

    /// `l` pseudo-random digits of 28 bits per lane.
    pub(in super::super) fn sample(l: usize, seed: u64) -> Vec<[u64; 4]> {
        let mut state = seed;
        (0..l)
            .map(|_| {
                core::array::from_fn(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 33) & ((1 << 28) - 1)
                })
            })
            .collect()
    }

    #[test]
    fn products_and_squares_match_the_definition() {
        if !avx2_supported() {
            return;
        }
        for l in [1usize, 2, 5, 8, 9, 13, 37, 74] {
            let (a, b) = (sample(l, 1 + l as u64), sample(l, 99 + l as u64));
            let mut t = vec![zero(); 2 * l];
            let mut doubled = vec![zero(); l];
            // SAFETY: the CPU has AVX2 (checked above).
            unsafe { product_columns::<8>(&mut t, &digits(&a), &digits(&b)) };
            let got: Vec<[u64; 4]> = t.iter().map(|&v| lanes(v)).collect();
            assert_eq!(got, reference(&a, &b), "product, L = {l}");
            // SAFETY: as above.
            unsafe { square_columns::<6>(&mut t, &digits(&a), &mut doubled) };
            let got: Vec<[u64; 4]> = t.iter().map(|&v| lanes(v)).collect();
            assert_eq!(got, reference(&a, &a), "square, L = {l}");
        }
    }
}
