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

use core::arch::x86_64::*;

use super::strip::{load_rows, strip, Span, FULL};
use super::vectors::{lanes, Workspace};

/// Whether the Karatsuba product applies to `l` digits with strips of `ti`
/// rows (the halves must be whole strips).
pub(super) fn applies(l: usize, ti: usize) -> bool {
    l.is_multiple_of(2 * ti)
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
        let fresh = if i0 == 0 {
            fresh_from
        } else {
            (col0 + i0 + h + 1).max(fresh_from)
        };
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
