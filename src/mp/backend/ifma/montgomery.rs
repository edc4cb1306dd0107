//! Montgomery multiplication and squaring of word-sliced numbers in radix
//! 2^52, built from strips (see `strip.rs`).
//!
//! Representation: a number is `L` digits; digit `i` of 8 lanes is one zmm
//! register (word-sliced: no carry crosses lanes). Inputs and outputs have normalized
//! digits (`< 2^52`: IFMA reads only the low 52 bits of its operands) and
//! values `< 2m`; with `R = 2^(52L) >= 4m` that set is closed under the
//! Montgomery product, so no subtraction is needed until the very end.
//! (The window's product in half form, `half.rs`, may return up to `3.25m`
//! where `R >= 16m`; a square of such a value is again `< 2m`, and no
//! column bound depends on the value.)
//!
//! `T = a·b` (or `a^2`, cross products once and doubled) is formed in 64-bit
//! columns with redundant digits, then reduced by one of three forms of
//! Montgomery reduction (chosen per size in `tuning.rs`):
//! - [`reduce_truncated`]: `q = (T mod R)·m' mod R` as a low-half product,
//!   and of `q·m` only the columns `>= L-1`: the skipped low columns only
//!   produce the carry into column `L`, which is recovered exactly;
//! - [`reduce_blocks`]: the full form in blocks of `TI` digits;
//! - [`reduce_window`]: the full word-by-word form with every live column in
//!   a register (small `L`).
//!
//! Column bounds (64-bit lanes never wrap): a column collects at most `2L`
//! low or high halves of products, each `< 2^52`, for `a·b` (doubled cross
//! products of a square: the same bound), plus `2L` more from `q·m`, plus a
//! carry `< 2^12`: `< (4L + 1)·2^52 < 2^62` for every `L <= 160` (8192-bit
//! moduli). The Karatsuba product (`karatsuba.rs`) subtracts within that
//! range, so a column may be negative before its carry pass: every carry
//! shift is arithmetic.

use core::arch::x86_64::*;

use super::karatsuba;
use super::strip::{
    load_rows, strip, Span, FULL, HEAD_ABOVE_DIAGONAL, HEAD_ANTI_DIAGONAL, TAIL_ANTI_DIAGONAL,
};
use super::tuning::{karatsuba_square, tuning, Profile, Reduction, MAX_WINDOW_DIGITS};
use super::vectors::{lanes, Workspace};

/// The kernels are instantiated per size by const parameters: `L`, the
/// digit count (0 for the generic path, which takes it at run time), and
/// `TI`, the rows per strip (`L` is a multiple of `TI` and at least `2·TI`);
/// and per tuning profile `P` (`tuning.rs`), whose choices for `L` fold.
/// One source serves every instance;
/// `digits::<L>(l)` picks the constant when there is one, so loop bounds
/// fold at compile time.
#[inline(always)]
fn digits<const L: usize>(runtime: usize) -> usize {
    debug_assert!(L == 0 || L == runtime);
    if L == 0 {
        runtime
    } else {
        L
    }
}

/// The per-lane constants a product needs, word-sliced like the operands.
pub(super) struct Modulus<'a> {
    /// `m`, `L` normalized digits, preceded by one zero digit (strips of the
    /// high half start one digit below `m_0`).
    pub(super) m_padded: &'a [__m512i],
    /// `m' = -m^{-1} mod R`, `L` normalized digits.
    pub(super) m_prime: &'a [__m512i],
}

pub(super) const DIGIT_MASK: i64 = (1 << 52) - 1;

/// Carries through the columns `v[range]` (plus their diagonal terms),
/// starting from `carry`, storing the normalized digits when `STORE`;
/// returns the carry out. One add, mask and shift per column, in sequence.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn carry_through<const STORE: bool>(
    v: &mut [__m512i],
    range: core::ops::Range<usize>,
    mut carry: __m512i,
    diagonal: Option<&[__m512i]>,
) -> __m512i {
    let mask = _mm512_set1_epi64(DIGIT_MASK);
    for c in range {
        let sum = _mm512_add_epi64(add_diagonal(v[c], diagonal, c), carry);
        debug_assert_column_bound(sum);
        if STORE {
            v[c] = _mm512_and_si512(sum, mask);
        }
        carry = _mm512_srai_epi64::<52>(sum);
    }
    carry
}

/// Where strip `i0` of a full or square product starts storing instead of
/// adding: the earlier strips cover columns `0 .. i0 + L + 1`.
fn product_fresh_from(i0: usize, l: usize) -> usize {
    if i0 == 0 {
        0
    } else {
        i0 + l + 1
    }
}

/// `out = a·b·R^{-1} mod m`, `out < 2m`, for `a, b < 2m` (normalized digits).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn mont_mul<const L: usize, const TI: usize, P: Profile>(
    l: usize,
    modulus: &Modulus<'_>,
    work: &mut Workspace,
    out: &mut [__m512i],
    a: &[__m512i],
    b: &[__m512i],
) {
    let l = digits::<L>(l);
    debug_assert_normalized(&a[..l]);
    debug_assert_normalized(&b[..l]);
    if tuning::<P>(l).karatsuba && karatsuba::applies(l, TI) {
        karatsuba::product::<TI>(l, work, a, b);
    } else {
        for i0 in (0..l).step_by(TI) {
            let rows = load_rows::<TI>(a, i0);
            let span = Span {
                y_first: 0,
                steps: l,
                col0: i0,
                fresh_from: product_fresh_from(i0, l),
            };
            strip::<TI, FULL, FULL, false>(&rows, b, &mut work.columns, span);
        }
    }
    reduce::<L, TI, P>(l, modulus, work, out, None);
}

/// `out = a^2·R^{-1} mod m`, `out < 2m`, for `a < 2m` (normalized digits):
/// each cross product `a_i·a_j`, `i < j`, once (doubled as its column is
/// stored); the squares `a_i^2` on the diagonal are added by the reduction
/// while it passes over the columns anyway. Where the profile says so and
/// the size has a half-square width, the square is formed by one level of
/// Karatsuba instead (`karatsuba::square`, the diagonal included).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn mont_sqr<const L: usize, const TI: usize, P: Profile>(
    l: usize,
    modulus: &Modulus<'_>,
    work: &mut Workspace,
    out: &mut [__m512i],
    a: &[__m512i],
) {
    let l = digits::<L>(l);
    debug_assert_normalized(&a[..l]);
    if karatsuba_square::<P, L>() && karatsuba::square::<L>(work, a) {
        reduce::<L, TI, P>(l, modulus, work, out, None);
        return;
    }
    for i0 in (0..l).step_by(TI) {
        let rows = load_rows::<TI>(a, i0);
        let span = Span {
            y_first: i0,
            steps: l - i0,
            col0: 2 * i0,
            fresh_from: product_fresh_from(i0, l),
        };
        strip::<TI, HEAD_ABOVE_DIAGONAL, FULL, true>(&rows, a, &mut work.columns, span);
    }
    reduce::<L, TI, P>(l, modulus, work, out, Some(a));
}

/// Column `c` plus the diagonal term of `diagonal^2` there: `lo(a_i^2)` for
/// `c = 2i`, `hi(a_i^2)` for `c = 2i + 1`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn add_diagonal(v: __m512i, diagonal: Option<&[__m512i]>, c: usize) -> __m512i {
    match diagonal {
        Some(a) if c / 2 < a.len() => {
            let digit = a[c / 2];
            if c.is_multiple_of(2) {
                _mm512_madd52lo_epu64(v, digit, digit)
            } else {
                _mm512_madd52hi_epu64(v, digit, digit)
            }
        }
        _ => v,
    }
}

/// The Montgomery reduction the profile chooses for the digit count
/// (`tuning.rs`).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn reduce<const L: usize, const TI: usize, P: Profile>(
    l: usize,
    modulus: &Modulus<'_>,
    work: &mut Workspace,
    out: &mut [__m512i],
    diagonal: Option<&[__m512i]>,
) {
    let l = digits::<L>(l);
    let columns = &work.columns;
    match (tuning::<P>(l).reduction, l) {
        (Reduction::Window, 8) => reduce_window::<8>(modulus, columns, out, diagonal),
        (Reduction::Window, 12) => reduce_window::<12>(modulus, columns, out, diagonal),
        (Reduction::Window, 16) => reduce_window::<16>(modulus, columns, out, diagonal),
        (Reduction::Window, 20) => reduce_window::<20>(modulus, columns, out, diagonal),
        (Reduction::Window, 24) => reduce_window::<24>(modulus, columns, out, diagonal),
        (Reduction::Blocks, _) => reduce_blocks::<L, TI>(l, modulus, work, out, diagonal),
        _ => reduce_truncated::<L, TI>(l, modulus, work, out, diagonal),
    }
}

/// Montgomery reduction, full word-by-word form with every live column in a
/// register (one group, `L <= 24`): row `i` takes `y = lo(acc_0·m'_0)`, adds
/// `y·m` (which clears the low 52 bits of `acc_0`), carries the cleared
/// column into the next one and slides the window one column up, loading
/// column `i + L + 1`. The cleared column is never formed: `acc_0 +
/// lo(y·m_0)` is a multiple of `2^52`, so its carry is `⌊(acc_0 + 2^52 −
/// 1)/2^52⌋` ([`cleared_carry`]), an addition and a shift that need not
/// wait for `y`. Each row has `2L` multiply-adds (the quotient digit's
/// among them) against a dependency chain from `y` to the next `y` of two
/// multiply-adds side by side (`hi(y·m_0)` into the register of that
/// carry, `lo(y·m_1)` into the next column) and an addition; no column is
/// normalized until the result. Result `< 2m` as for the other forms
/// (`Y = Σ y_i·2^(52i) < R`).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn reduce_window<const L: usize>(
    modulus: &Modulus<'_>,
    columns: &[__m512i],
    out: &mut [__m512i],
    diagonal: Option<&[__m512i]>,
) {
    const { assert!(L <= MAX_WINDOW_DIGITS) };
    let zero = _mm512_setzero_si512();
    let m = &modulus.m_padded[1..L + 1];
    let k0 = modulus.m_prime[0];
    let columns = &columns[..2 * L + 1];
    let mut acc = [zero; MAX_WINDOW_DIGITS + 1];
    unrolled_window!(j < L + 1 => {
        acc[j] = add_diagonal(columns[j], diagonal, j);
    });
    for i in 0..L {
        // Only the low 52 bits of acc_0 matter for y. The next row's y
        // waits for column i + 1: hi(y·m_0) and the cleared column's carry
        // (made before y is known) go in together, beside lo(y·m_1).
        debug_assert_column_bound(acc[0]);
        let y = _mm512_madd52lo_epu64(zero, acc[0], k0);
        let carry_and_high = carry_and_high_0(acc[0], y, m[0]);
        unrolled_window!(j < L => {
            if j >= 1 {
                acc[j] = _mm512_madd52lo_epu64(acc[j], y, m[j]);
                acc[j + 1] = _mm512_madd52hi_epu64(acc[j + 1], y, m[j]);
            }
        });
        acc[1] = _mm512_add_epi64(acc[1], carry_and_high);
        unrolled_window!(j < L => {
            acc[j] = acc[j + 1];
        });
        acc[L] = add_diagonal(columns[i + L + 1], diagonal, i + L + 1);
    }
    let carry = carry_window_out::<L>(&acc, out);
    debug_assert!(
        lanes(_mm512_add_epi64(acc[L], carry))
            .iter()
            .all(|&c| c == 0),
        "result < 2m < R"
    );
}

/// The carry out of a column `c` that the word-by-word reduction clears
/// by adding `lo(y·m_0)` (`y = lo(c·m'_0)`), without that multiply-add:
/// `c + lo(y·m_0) ≡ 0 (mod 2^52)`, so with `c = h·2^52 + r`, `0 <= r <
/// 2^52`, the low half is `2^52 − r` where `r != 0` and 0 where `r = 0`,
/// and the carry `h + [r != 0]` is `⌊(c + 2^52 − 1)/2^52⌋`. Columns may be
/// negative (after a Karatsuba product): `h` is the floor, the shift is
/// arithmetic, and `|c| < 2^62` (asserted by the callers) keeps the sum
/// from wrapping. The value added to the next column is the one the
/// multiply-add gave, so no column bound changes.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn cleared_carry(column: __m512i) -> __m512i {
    _mm512_srai_epi64::<52>(_mm512_add_epi64(column, _mm512_set1_epi64(DIGIT_MASK)))
}

/// What column `i + 1` receives from the column `column` that `y` clears:
/// its carry ([`cleared_carry`], which does not wait for `y`) and
/// `hi(y·m_0)`, in one register, the carry as the multiply-add's
/// accumulator: one addition into column `i + 1` where two were (on
/// Intel's cores every vector addition takes a multiply-add's port). The
/// sum wraps at 64 bits like the additions it replaces, so a negative carry
/// (after a Karatsuba product) comes out the same.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn carry_and_high_0(column: __m512i, y: __m512i, m_0: __m512i) -> __m512i {
    _mm512_madd52hi_epu64(cleared_carry(column), y, m_0)
}

/// The normalized digits of a register window's first `L` columns, carried
/// from the bottom, into `out`; returns the carry out of the top column
/// (zero where the value fits in `L` digits). The last pass of the
/// register-window kernels (`fused.rs`, `half.rs`).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn carry_window_out<const L: usize>(acc: &[__m512i], out: &mut [__m512i]) -> __m512i {
    let mask = _mm512_set1_epi64(DIGIT_MASK);
    let out = &mut out[..L];
    let mut carry = _mm512_setzero_si512();
    unrolled_window!(j < L => {
        debug_assert_column_bound(acc[j]);
        let sum = _mm512_add_epi64(acc[j], carry);
        out[j] = _mm512_and_si512(sum, mask);
        carry = _mm512_srai_epi64::<52>(sum);
    });
    carry
}

/// Montgomery reduction, full form in blocks of `TI` digits (Montgomery
/// with radix `2^(52·TI)`): for each block `b`, normalize the block's
/// columns, take `Y_b = (T_block · m') mod 2^(52·TI)` (a `TI x TI` low
/// triangle), and add `Y_b·m` shifted by the block (one full strip of `TI`
/// rows over all `L` digits of `m`), which clears the block. After `L/TI`
/// blocks `T + Y·m ≡ 0 (mod R)` and the result is the columns from `L` on,
/// with the carry out of the cleared low half. `Y < R`, so the result is
/// `< 4m^2/R + m <= 2m` as in the truncated form.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn reduce_blocks<const L: usize, const TI: usize>(
    l: usize,
    modulus: &Modulus<'_>,
    work: &mut Workspace,
    out: &mut [__m512i],
    diagonal: Option<&[__m512i]>,
) {
    let l = digits::<L>(l);
    let columns = &mut work.columns;
    let block_q = &mut work.quotient;
    let m = &modulus.m_padded[1..];
    let zero = _mm512_setzero_si512();
    for base in (0..l).step_by(TI) {
        // The previous block was cleared by its strip: re-carrying through
        // it gives only the carry into this block (its digits are all 0).
        let carry = carry_through::<false>(columns, base.saturating_sub(TI)..base, zero, None);
        // This block's exact digits (IFMA operands); its own carry goes into
        // the next column, which no later pass re-reads before the strip.
        let carry = carry_through::<true>(columns, base..base + TI, carry, diagonal);
        columns[base + TI] = _mm512_add_epi64(columns[base + TI], carry);

        // Y_b = low TI digits of T_block · m'.
        let rows = load_rows::<TI>(modulus.m_prime, 0);
        let span = Span {
            y_first: base,
            steps: TI,
            col0: 0,
            fresh_from: 0,
        };
        strip::<TI, FULL, TAIL_ANTI_DIAGONAL, false>(&rows, columns, block_q, span);
        carry_through::<true>(block_q, 0..TI, zero, None); // mod 2^(52·TI)

        // T += Y_b · m · 2^(52·base).
        let rows = load_rows::<TI>(block_q, 0);
        let span = Span {
            y_first: 0,
            steps: l,
            col0: base,
            fresh_from: usize::MAX,
        };
        strip::<TI, FULL, FULL, false>(&rows, m, columns, span);
    }
    // The last block is cleared; its carry enters the result.
    let carry = carry_through::<false>(columns, l - TI..l, zero, None);
    finish(l, columns, out, carry, diagonal);
}

/// Montgomery reduction, truncated form: of the columns `T` (plus the
/// diagonal terms of `diagonal^2` for a square; value `< 4m^2`),
/// `out = (T + q·m) / R`, exactly, with `q = (T mod R)·m' mod R`.
///
/// Of `q·m` only the columns `>= L-1` are formed. Write `T mod R =
/// t_top·2^(52(L-1)) + t_rest` and let `X = t_top + c` with `c` the formed
/// column `L-1` of `q·m`. The skipped columns `< L-1` hold
/// `D < 2L·2^(52(L-1))`. Since `T + q·m ≡ 0 (mod R)`, the carry into
/// column `L` is the integer `e = (T mod R + c·2^(52(L-1)) + D) / R`, and
/// `e·2^52 = X + δ` with `0 <= δ = (t_rest + D)/2^(52(L-1)) < 2L + 1`.
/// As `2L + 1 < 2^51`, `e = (X + 2^51) >> 52` exactly: the truncation costs
/// no precision, and needs no correction step afterwards.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn reduce_truncated<const L: usize, const TI: usize>(
    l: usize,
    modulus: &Modulus<'_>,
    work: &mut Workspace,
    out: &mut [__m512i],
    diagonal: Option<&[__m512i]>,
) {
    let l = digits::<L>(l);
    let columns = &mut work.columns;
    let quotient = &mut work.quotient;
    let zero = _mm512_setzero_si512();

    // T mod R must be exact digits: it is an IFMA operand for q.
    let carry = carry_through::<true>(columns, 0..l, zero, diagonal);
    columns[l] = _mm512_add_epi64(columns[l], carry);

    // q = low half of (T mod R)·m': rows m'_i, streaming T's digits as they
    // are normalized. Strip 0 covers every column the others touch.
    for i0 in (0..l).step_by(TI) {
        let rows = load_rows::<TI>(modulus.m_prime, i0);
        let fresh_from = if i0 == 0 { 0 } else { usize::MAX };
        let span = Span {
            y_first: 0,
            steps: l - i0,
            col0: i0,
            fresh_from,
        };
        strip::<TI, FULL, TAIL_ANTI_DIAGONAL, false>(&rows, columns, quotient, span);
    }
    carry_through::<true>(quotient, 0..l, zero, None); // mod R: the carry is dropped

    // Columns >= L-1 of q·m, added onto T: rows q_i (the low digits of q are
    // final first), streaming m_j from j0 = L-1-TI-i0 >= -1 (m_padded
    // starts with the zero digit m_{-1}).
    for i0 in (0..l).step_by(TI) {
        let rows = load_rows::<TI>(quotient, i0);
        let span = Span {
            y_first: l - TI - i0,
            steps: TI + 1 + i0,
            col0: l - 1 - TI,
            fresh_from: usize::MAX,
        };
        strip::<TI, HEAD_ANTI_DIAGONAL, FULL, false>(&rows, modulus.m_padded, columns, span);
    }

    // e = carry into column L.
    let x = columns[l - 1];
    // The proof above, checked: X = e·2^52 − δ with 0 <= δ <= 2L, so X is
    // non-negative and its low 52 bits are 0 or within 2L below 2^52.
    debug_assert!(
        lanes(x).iter().all(|&x| {
            let low = x & DIGIT_MASK as u64;
            (x as i64) >= 0 && (low == 0 || (1 << 52) - low <= 2 * l as u64)
        }),
        "truncated reduction: column L-1 outside the proven bound"
    );
    let carry = _mm512_srli_epi64::<52>(_mm512_add_epi64(x, _mm512_set1_epi64(1 << 51)));
    finish(l, columns, out, carry, diagonal);
}

/// The result digits: columns `L .. 2L` (plus their diagonal terms) with
/// `carry` entering column `L`, normalized into `out`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn finish(
    l: usize,
    columns: &mut [__m512i],
    out: &mut [__m512i],
    carry: __m512i,
    diagonal: Option<&[__m512i]>,
) {
    let mask = _mm512_set1_epi64(DIGIT_MASK);
    let mut carry = carry;
    for (k, digit) in out[..l].iter_mut().enumerate() {
        let sum = _mm512_add_epi64(add_diagonal(columns[l + k], diagonal, l + k), carry);
        *digit = _mm512_and_si512(sum, mask);
        carry = _mm512_srai_epi64::<52>(sum);
    }
    debug_assert!(lanes(carry).iter().all(|&c| c == 0), "result < 2m < R");
}

/// Debug check: every lane of every digit is normalized (`< 2^52`), as
/// IFMA operands must be (it reads only their low 52 bits, so a larger
/// digit would be silently truncated).
pub(super) fn debug_assert_normalized(digits: &[__m512i]) {
    if cfg!(debug_assertions) {
        for &digit in digits {
            assert!(
                lanes(digit).iter().all(|&d| d < 1 << 52),
                "digit not normalized"
            );
        }
    }
}

/// Debug check of the column bound in the module documentation: a column
/// (with its carry) stays within `±2^62`, so no 64-bit lane wraps.
pub(super) fn debug_assert_column_bound(column: __m512i) {
    if cfg!(debug_assertions) {
        assert!(
            lanes(column)
                .iter()
                .all(|&c| (c as i64).unsigned_abs() < 1 << 62),
            "column outside ±2^62"
        );
    }
}
