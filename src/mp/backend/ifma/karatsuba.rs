//! One level of Karatsuba for the product `T = a·b` of a Montgomery
//! multiplication: with `X = 2^(52h)`, `h = L/2`, `a = a1·X + a0` and
//! `b = b1·X + b0`,
//!
//! `a·b = P2·X^2 + (P1 - P0 - P2)·X + P0`, `P0 = a0·b0`, `P2 = a1·b1`,
//! `P1 = (a0 + a1)·(b0 + b1)`:
//!
//! three half-size products instead of four (`1.5·L^2` multiply-adds
//! instead of `2·L^2`), for a few `L`-long passes of additions. The sums
//! `a0 + a1` are normalized to `h` digits plus a carry `c ∈ {0, 1}` per
//! lane (IFMA reads only 52 bits of an operand), and the carries enter as
//! masked additions: `(s_a + c_a·X)(s_b + c_b·X) = s_a·s_b + X·(c_a·s_b +
//! c_b·s_a) + c_a·c_b·X^2`. The middle term is formed column by column and
//! may make single columns negative; every later carry pass shifts
//! arithmetically, and no column leaves `(-2^62, 2^62)`.
//!
//! A square (`b = a`) is the same with three half *squares*
//! (`3·(h^2 + h) = 0.75·L^2 + 1.5·L` multiply-adds instead of `L^2 + L`),
//! chosen per size in `tuning.rs` (it pays only where the half squares are
//! long: 80 digits on Zen 4).

use core::arch::x86_64::*;

use super::strip::{load_rows, strip, Span, FULL, HEAD_ABOVE_DIAGONAL};
use super::vectors::{lanes, Workspace};

/// Whether the Karatsuba product applies to `l` digits with strips of `ti`
/// rows (the halves must be whole strips).
pub(super) fn applies(l: usize, ti: usize) -> bool {
    l.is_multiple_of(2 * ti)
}

/// `out[col0..]` (+)= `x[..h] · y[..h]` by strips of `TI` rows; with
/// `SQUARE` (`y = x`), each cross product once and doubled (square strips:
/// the diagonal is left out).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn half_strips<const TI: usize, const SQUARE: bool>(
    h: usize,
    x: &[__m512i],
    y: &[__m512i],
    out: &mut [__m512i],
    col0: usize,
    fresh_from: usize,
) {
    for i0 in (0..h).step_by(TI) {
        let rows = load_rows::<TI>(x, i0);
        // The earlier strips cover columns up to `col0 + i0 + h`.
        let fresh = if i0 == 0 {
            fresh_from
        } else {
            (col0 + i0 + h + 1).max(fresh_from)
        };
        if SQUARE {
            let span = Span {
                y_first: i0,
                steps: h - i0,
                col0: col0 + 2 * i0,
                fresh_from: fresh,
            };
            strip::<TI, HEAD_ABOVE_DIAGONAL, FULL, true>(&rows, y, out, span);
        } else {
            let span = Span {
                y_first: 0,
                steps: h,
                col0: col0 + i0,
                fresh_from: fresh,
            };
            strip::<TI, FULL, FULL, false>(&rows, y, out, span);
        }
    }
}

/// `s = x0 + x1` normalized (`h` digits); returns the carry out (0 or 1
/// per lane) as an all-ones/zero lane mask.
#[inline]
#[target_feature(enable = "avx512f")]
fn half_sum(x: &[__m512i], h: usize, s: &mut [__m512i]) -> __m512i {
    let mask = _mm512_set1_epi64((1 << 52) - 1);
    let mut carry = _mm512_setzero_si512();
    for k in 0..h {
        let sum = _mm512_add_epi64(_mm512_add_epi64(x[k], x[h + k]), carry);
        s[k] = _mm512_and_si512(sum, mask);
        carry = _mm512_srli_epi64::<52>(sum);
    }
    debug_assert!(
        lanes(carry).iter().all(|&c| c <= 1),
        "the half sums' carry is 0 or 1"
    );
    _mm512_sub_epi64(_mm512_setzero_si512(), carry)
}

/// `work.columns = a·b` (redundant, possibly negative columns) for `l`
/// digits, `l` a multiple of `2·TI`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn product<const TI: usize>(
    l: usize,
    work: &mut Workspace,
    a: &[__m512i],
    b: &[__m512i],
) {
    let h = l / 2;
    let (sums, p1) = work.karatsuba.split_at_mut(l);
    let (sa, sb) = sums.split_at_mut(h);
    let columns = &mut work.columns;

    // P0 into columns 0 .. 2h, P2 into columns 2h .. 4h (P0 leaves column 2h
    // zero, so P2 adds there and stores above).
    half_strips::<TI, false>(h, a, b, columns, 0, 0);
    half_strips::<TI, false>(h, &a[h..], &b[h..], columns, 2 * h, 2 * h + 1);

    // P1 = (a0 + a1)(b0 + b1), carries as masked additions.
    let carry_a = half_sum(a, h, sa);
    let carry_b = half_sum(b, h, sb);
    half_strips::<TI, false>(h, sa, sb, p1, 0, 0);
    for k in 0..h {
        let both = _mm512_add_epi64(
            _mm512_and_si512(sb[k], carry_a),
            _mm512_and_si512(sa[k], carry_b),
        );
        p1[h + k] = _mm512_add_epi64(p1[h + k], both);
    }
    let one = _mm512_set1_epi64(1);
    p1[2 * h] = _mm512_add_epi64(
        p1[2 * h],
        _mm512_and_si512(_mm512_and_si512(carry_a, carry_b), one),
    );

    add_middle(columns, p1, h);
}

/// `T += (P1 - P0 - P2)·X`, with `P0` in columns `0 .. 2h`, `P2` in columns
/// `2h .. 4h` and `P1` in `p1[..=2h]`. The middle term is formed in P1's
/// buffer first: adding it column by column into T would overwrite P0 or P2
/// columns still to be read.
#[inline]
#[target_feature(enable = "avx512f")]
fn add_middle(columns: &mut [__m512i], p1: &mut [__m512i], h: usize) {
    for c in 0..=2 * h {
        let p0 = if c < 2 * h {
            columns[c]
        } else {
            _mm512_setzero_si512()
        };
        p1[c] = _mm512_sub_epi64(_mm512_sub_epi64(p1[c], p0), columns[2 * h + c]);
    }
    for c in 0..=2 * h {
        columns[h + c] = _mm512_add_epi64(columns[h + c], p1[c]);
    }
}

/// `out[col0..]` (+)= `x[..h]^2`, diagonal included, by square strips of
/// `TI` rows (each cross product once, doubled) and one pass adding the
/// squares `x_i^2` to columns `2i` and `2i + 1`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn half_square<const H: usize, const TI: usize>(
    h: usize,
    x: &[__m512i],
    out: &mut [__m512i],
    col0: usize,
    fresh_from: usize,
) {
    let h = if H == 0 { h } else { H };
    half_strips::<TI, true>(h, x, x, out, col0, fresh_from);
    for (i, &digit) in x[..h].iter().enumerate() {
        let c = col0 + 2 * i;
        out[c] = _mm512_madd52lo_epu64(out[c], digit, digit);
        out[c + 1] = _mm512_madd52hi_epu64(out[c + 1], digit, digit);
    }
}

/// `work.columns = a^2` (redundant, possibly negative columns, the diagonal
/// included) for `l` digits, `l` a multiple of `2·TI`: the product above
/// with `b = a`, each of its three half products a square
/// (`3·(h^2 + h) = 0.75·L^2 + 1.5·L` multiply-adds instead of `L^2 + L`).
/// With `s = a0 + a1 = s' + c·X` (`c` the carry, 0 or 1 per lane),
/// `s^2 = s'^2 + 2c·s'·X + c·X^2`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn square(l: usize, work: &mut Workspace, a: &[__m512i]) {
    debug_assert!(square_applies(l));
    // Rows per strip of the half squares: the narrow strips `tuning.rs`
    // measured for squares of those sizes (any divisor of `h` is correct).
    // The dedicated sizes' halves are constants (loop bounds fold), the
    // others are taken at run time (`H = 0`).
    match l / 2 {
        10 => square_in_halves::<10, 5>(l, work, a),
        20 => square_in_halves::<20, 5>(l, work, a),
        30 => square_in_halves::<30, 6>(l, work, a),
        40 => square_in_halves::<40, 10>(l, work, a),
        h if h.is_multiple_of(4) => square_in_halves::<0, 4>(l, work, a),
        h if h.is_multiple_of(2) => square_in_halves::<0, 2>(l, work, a),
        _ => square_in_halves::<0, 1>(l, work, a),
    }
}

/// Whether [`square`] applies to `l` digits (two halves of `l/2`).
pub(super) fn square_applies(l: usize) -> bool {
    l.is_multiple_of(2)
}

/// [`square`] with half squares of `H` digits (0: `l/2`, at run time) in
/// strips of `TI` rows (`TI` divides `l/2`).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn square_in_halves<const H: usize, const TI: usize>(
    l: usize,
    work: &mut Workspace,
    a: &[__m512i],
) {
    debug_assert!(H == 0 || 2 * H == l);
    let h = if H == 0 { l / 2 } else { H };
    let (sums, p1) = work.karatsuba.split_at_mut(l);
    let s = &mut sums[..h];
    let columns = &mut work.columns;

    half_square::<H, TI>(h, a, columns, 0, 0);
    half_square::<H, TI>(h, &a[h..], columns, 2 * h, 2 * h + 1);

    let carry = half_sum(a, h, s);
    half_square::<H, TI>(h, s, p1, 0, 0);
    for k in 0..h {
        let twice = _mm512_and_si512(_mm512_add_epi64(s[k], s[k]), carry);
        p1[h + k] = _mm512_add_epi64(p1[h + k], twice);
    }
    p1[2 * h] = _mm512_add_epi64(p1[2 * h], _mm512_and_si512(carry, _mm512_set1_epi64(1)));
    add_middle(columns, p1, h);
}
