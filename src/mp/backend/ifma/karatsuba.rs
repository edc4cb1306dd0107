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
//! A square (`b = a`) is the same with three half *squares* ([`square`]):
//! `3·(h^2 + h) = 0.75·L^2 + 1.5·L` multiply-adds instead of `L^2 + L`.

use core::arch::x86_64::*;

use super::strip::{
    load_rows, strip, strip_instance, Span, FULL, HALF_SQUARE, HEAD_ABOVE_DIAGONAL,
};
use super::tuning::half_square_rows;
use super::vectors::{lanes, Workspace};

/// Whether the Karatsuba product applies to `l` digits with strips of `ti`
/// rows (the halves must be whole strips).
pub(super) fn applies(l: usize, ti: usize) -> bool {
    l.is_multiple_of(2 * ti)
}

/// Where strip `i0` of a half product or half square of `h` digits into
/// `out[col0..]` starts storing instead of adding: the earlier strips
/// cover the columns up to `col0 + i0 + h`; `fresh_from` is where the
/// whole half starts storing.
fn half_fresh_from(i0: usize, h: usize, col0: usize, fresh_from: usize) -> usize {
    if i0 == 0 {
        fresh_from
    } else {
        (col0 + i0 + h + 1).max(fresh_from)
    }
}

/// `out[col0..]` (+)= `x[xi..xi+h] · y[yj..yj+h]` by strips.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn half_product<const TI: usize>(
    h: usize,
    x: &[__m512i],
    y: &[__m512i],
    out: &mut [__m512i],
    col0: usize,
    fresh_from: usize,
) {
    for i0 in (0..h).step_by(TI) {
        let rows = load_rows::<TI>(x, i0);
        let fresh = half_fresh_from(i0, h, col0, fresh_from);
        strip::<TI, FULL, FULL, false>(
            &rows,
            y,
            out,
            Span {
                y_first: 0,
                steps: h,
                col0: col0 + i0,
                fresh_from: fresh,
            },
        );
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
    half_product::<TI>(h, a, b, columns, 0, 0);
    half_product::<TI>(h, &a[h..], &b[h..], columns, 2 * h, 2 * h + 1);

    // P1 = (a0 + a1)(b0 + b1), carries as masked additions.
    let carry_a = half_sum(a, h, sa);
    let carry_b = half_sum(b, h, sb);
    half_product::<TI>(h, sa, sb, p1, 0, 0);
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

    // T += (P1 - P0 - P2)·X. The middle term is formed in P1's buffer
    // first: adding it column by column into T would overwrite P0 or P2
    // columns still to be read.
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

/// Forms `work.columns = a^2` (redundant, possibly negative columns, the
/// diagonal included) by three half squares where the digit count `L` has
/// a half-square width in `tuning.rs` ([`half_square_rows`]); returns
/// whether it did (otherwise nothing is touched). `L` is a constant, so
/// the choice folds and each size's half squares are their own instance.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn square<const L: usize>(work: &mut Workspace, a: &[__m512i]) -> bool {
    match L {
        40 => square_in_halves::<20, { half_square_rows(40) }>(work, a),
        60 => square_in_halves::<30, { half_square_rows(60) }>(work, a),
        80 => square_in_halves::<40, { half_square_rows(80) }>(work, a),
        _ => return false,
    }
    true
}

/// `out[col0..]` (+)= the cross products of `x[..H]^2`, each once and
/// doubled, by square strips of `TI` rows (the half squares' own
/// instance, see `strip::HALF_SQUARE`); the diagonal is left out. Writes
/// the columns `col0 .. col0 + 2H + 1` (the top two hold no cross product).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn half_square_cross<const H: usize, const TI: usize>(
    x: &[__m512i],
    out: &mut [__m512i],
    col0: usize,
    fresh_from: usize,
) {
    for i0 in (0..H).step_by(TI) {
        let rows = load_rows::<TI>(x, i0);
        let span = Span {
            y_first: i0,
            steps: H - i0,
            col0: col0 + 2 * i0,
            fresh_from: half_fresh_from(i0, H, col0, fresh_from),
        };
        strip_instance::<TI, HEAD_ABOVE_DIAGONAL, FULL, true, HALF_SQUARE>(&rows, x, out, span);
    }
}

/// The diagonal term of `x^2` in column `c < 2·len(x)`: `lo(x_i^2)` for
/// `c = 2i`, `hi(x_i^2)` for `c = 2i + 1`, added to `v`.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn plus_diagonal(v: __m512i, x: &[__m512i], c: usize) -> __m512i {
    let digit = x[c / 2];
    if c.is_multiple_of(2) {
        _mm512_madd52lo_epu64(v, digit, digit)
    } else {
        _mm512_madd52hi_epu64(v, digit, digit)
    }
}

/// `work.columns = a^2` for `2H` digits from the cross products of
/// `P0 = a0^2`, `P2 = a1^2` and `P1 = s^2`, `s = a0 + a1 = s' + c·X`
/// (`c` the carry, 0 or 1 per lane): `s^2 = s'^2 + 2c·s'·X + c·X^2`.
/// The diagonals of the three half squares, the carry's terms and the
/// middle term `(P1 - P0 - P2)·X` are added in one pass over the columns.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn square_in_halves<const H: usize, const TI: usize>(work: &mut Workspace, a: &[__m512i]) {
    const { assert!(H.is_multiple_of(TI)) };
    let (s, p1) = work.karatsuba.split_at_mut(H);
    let t = &mut work.columns;

    // P0 into columns 0 .. 2H, P2 into 2H .. 4H (P0 leaves column 2H zero,
    // so P2 adds there and stores above), P1 into its own buffer.
    half_square_cross::<H, TI>(a, t, 0, 0);
    half_square_cross::<H, TI>(&a[H..], t, 2 * H, 2 * H + 1);
    let carry = half_sum(a, H, s);
    half_square_cross::<H, TI>(s, p1, 0, 0);

    // Column k of the middle term goes to column H + k. For c < H, the
    // pass reads the columns c, H + c, 2H + c, 3H + c of P0 and P2 and
    // writes the same four, so no column is overwritten before it is read
    // (a later c reads only higher columns of each quarter). The diagonal
    // of a0^2 is that of a^2 in columns < 2H, the one of a1^2 from 2H on.
    for c in 0..H {
        let p0_lo = plus_diagonal(t[c], a, c);
        let p0_hi = plus_diagonal(t[H + c], a, H + c);
        let p2_lo = plus_diagonal(t[2 * H + c], a, 2 * H + c);
        let p2_hi = plus_diagonal(t[3 * H + c], a, 3 * H + c);
        let p1_lo = plus_diagonal(p1[c], s, c);
        let p1_hi = _mm512_add_epi64(
            plus_diagonal(p1[H + c], s, H + c),
            _mm512_and_si512(_mm512_add_epi64(s[c], s[c]), carry),
        );
        let middle_lo = _mm512_sub_epi64(p1_lo, _mm512_add_epi64(p0_lo, p2_lo));
        let middle_hi = _mm512_sub_epi64(p1_hi, _mm512_add_epi64(p0_hi, p2_hi));
        t[c] = p0_lo;
        t[H + c] = _mm512_add_epi64(p0_hi, middle_lo);
        t[2 * H + c] = _mm512_add_epi64(p2_lo, middle_hi);
        t[3 * H + c] = p2_hi;
    }
    // Column 2H of the middle term: P1's top column and c·X^2 (P0 and P2
    // have nothing there).
    let top = _mm512_add_epi64(p1[2 * H], _mm512_and_si512(carry, _mm512_set1_epi64(1)));
    t[3 * H] = _mm512_add_epi64(t[3 * H], top);
}
