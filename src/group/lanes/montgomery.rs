//! Montgomery arithmetic modulo a generic prime (no special form) on 8
//! field elements at once, written once for every limb count `N`: radix
//! 2^52, limb `i` of the 8 elements in one zmm register (lane `j` is
//! element `j`), products by VPMADD52LUQ/VPMADD52HUQ, `R = 2^(52N)`. A
//! field of 8 lanes for a prime of another size wraps these functions with
//! its own [`Modulus`] and limb count (BLS12-381's base field: `N = 8`).
//! Every function is constant time: the same instructions whatever the
//! values.
//!
//! Bounds, for a modulus with `16p < R`. An element has limbs below 2^52
//! (what an IFMA multiplier reads) and a value below `2p`, and every
//! function returns such elements, except [`add_lazy`] and
//! [`combination`], whose results (below the sum of the operands' bounds
//! and the bias) only feed a product. A product of operands `a`, `b` with `a·b < R·p` (both
//! below `4p`, say) is below `a·b/R + p < 2p`, so it needs no final
//! subtraction; a sum or a difference takes one conditional subtraction of
//! `2p`, both candidates carried side by side.
//!
//! The product sums the `N²` low and high halves per column (`2N`
//! columns, each below `2N·2^52`), then `N` Montgomery steps each add
//! `m·p` shifted to clear the lowest column (`m = c·(−p^{-1}) mod 2^52`),
//! then one ripple of carries: `2N²` multiply-adds for a product and `2N`
//! per step of the reduction (256 for a product of 8 limbs, 200 for a
//! square). The steps are a chain (each `m` waits for the column the one
//! before completed), so [`reduce`] keeps its links short: the cleared
//! column's carry comes from an addition, not from the low half of
//! `m·p₀`, and the high half of `m·p₀` accumulates beside the next
//! column rather than after it.

use core::arch::x86_64::*;

use super::toolkit::{bitselect, opaque_lanes, LANES};

/// `2^52 − 1`.
pub(crate) const LOW_52: u64 = (1 << 52) - 1;

/// A prime modulus of `N` limbs of 52 bits, with `16p < 2^(52N)`.
pub(crate) struct Modulus<const N: usize> {
    /// p.
    pub(crate) p: [u64; N],
    /// 2p (the bias of a subtraction, and what a sum sheds).
    pub(crate) two_p: [u64; N],
    /// `−p^{-1} mod 2^52`.
    pub(crate) n0: u64,
}

/// Limbs broadcast to the 8 lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(crate) fn broadcast<const N: usize>(limbs: &[u64; N]) -> [__m512i; N] {
    limbs.map(|l| _mm512_set1_epi64(l as i64))
}

/// One ripple of signed carries: every limb but the top one brought below
/// 2^52, the top one keeping the sign of the value.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn carry<const N: usize>(mut l: [__m512i; N]) -> [__m512i; N] {
    let mask = _mm512_set1_epi64(LOW_52 as i64);
    for i in 0..N - 1 {
        let c = _mm512_srai_epi64::<52>(l[i]);
        l[i] = _mm512_and_si512(l[i], mask);
        l[i + 1] = _mm512_add_epi64(l[i + 1], c);
    }
    l
}

/// `smaller` in the lanes where it is non-negative, `larger` elsewhere
/// (both carried; the lane mask may be secret: chosen bit by bit).
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn select_non_negative<const N: usize>(
    smaller: [__m512i; N],
    larger: [__m512i; N],
) -> [__m512i; N] {
    let negative = _mm512_cmplt_epi64_mask(smaller[N - 1], _mm512_setzero_si512());
    let lanes = opaque_lanes(negative);
    core::array::from_fn(|i| bitselect(lanes, larger[i], smaller[i]))
}

/// Debug builds check an element's bounds (limbs below 2^52, the top limb
/// no larger than that of `bound`'s); release builds compile this to
/// nothing.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(crate) fn debug_assert_below<const N: usize>(a: &[__m512i; N], bound: &[u64; N]) {
    if cfg!(debug_assertions) {
        let limb_bound = _mm512_set1_epi64(1 << 52);
        for limb in a {
            let over = _mm512_cmpge_epu64_mask(*limb, limb_bound);
            assert_eq!(over, 0, "limb above 2^52");
        }
        let top = _mm512_set1_epi64(bound[N - 1] as i64);
        let over = _mm512_cmpgt_epu64_mask(a[N - 1], top);
        assert_eq!(over, 0, "value above its bound");
    }
}

/// `a + b`.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(crate) fn add<const N: usize>(
    a: &[__m512i; N],
    b: &[__m512i; N],
    m: &Modulus<N>,
) -> [__m512i; N] {
    let two_p = broadcast(&m.two_p);
    let sum: [__m512i; N] = core::array::from_fn(|i| _mm512_add_epi64(a[i], b[i]));
    let less: [__m512i; N] = core::array::from_fn(|i| _mm512_sub_epi64(sum[i], two_p[i]));
    select_non_negative(carry(less), carry(sum))
}

/// `a + b` without the subtraction of `2p`: only for an operand of
/// [`mul`] or [`square`].
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(crate) fn add_lazy<const N: usize>(a: &[__m512i; N], b: &[__m512i; N]) -> [__m512i; N] {
    carry(core::array::from_fn(|i| _mm512_add_epi64(a[i], b[i])))
}

/// `Σ 2^s·a − Σ 2^t·b + bias` over the terms `(a, s)` of `plus` and `(b, t)`
/// of `minus`, limb by limb, then one ripple of carries: a whole linear
/// step of a point formula for the price of one carry, with no
/// subtraction of `2p`. `bias` (the limbs of a multiple of p) must be at
/// least the bound of `Σ 2^t·b`, so that the value is non-negative and
/// below `bias + Σ 2^s·bound(a)`; such a value only feeds [`mul`] and
/// [`square`] (or a coordinate that only feeds them), which take operands
/// with `a·b < R·p`. A shift's limb stays below 2^56 (`s, t ≤ 3`).
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(crate) fn combination<T: AsRef<[__m512i; N]>, const N: usize>(
    plus: &[(&T, u32)],
    minus: &[(&T, u32)],
    bias: &[u64; N],
) -> [__m512i; N] {
    // Plain loops, not closures passed to `core::array` helpers: those are
    // compiled without this function's target features, so they could not
    // take the closures inline, and every linear step of a formula paid
    // calls.
    let mut limbs = broadcast(bias);
    for (i, limb) in limbs.iter_mut().enumerate() {
        for (a, s) in plus {
            *limb = _mm512_add_epi64(*limb, shifted_left(a.as_ref()[i], *s));
        }
        for (b, t) in minus {
            *limb = _mm512_sub_epi64(*limb, shifted_left(b.as_ref()[i], *t));
        }
    }
    carry(limbs)
}

/// `limb·2^shift` (`shift ≤ 3`: a combination's limbs stay below 2^56).
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn shifted_left(limb: __m512i, shift: u32) -> __m512i {
    debug_assert!(shift <= 3, "limbs stay below 2^56");
    _mm512_sll_epi64(limb, _mm_cvtsi32_si128(shift as i32))
}

/// The limbs of `k·p` (`k·p < 2^(52N)`), at compile time.
pub(crate) const fn times_p<const N: usize>(m: &Modulus<N>, k: u64) -> [u64; N] {
    let mut limbs = [0u64; N];
    let mut carry = 0u128;
    let mut i = 0;
    while i < N {
        let wide = m.p[i] as u128 * k as u128 + carry;
        limbs[i] = (wide as u64) & LOW_52;
        carry = wide >> 52;
        i += 1;
    }
    assert!(carry == 0, "k·p fits in N limbs");
    limbs
}

/// `a − b`: `a − b` where it is non-negative, else `a − b + 2p`.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(crate) fn sub<const N: usize>(
    a: &[__m512i; N],
    b: &[__m512i; N],
    m: &Modulus<N>,
) -> [__m512i; N] {
    let two_p = broadcast(&m.two_p);
    let difference: [__m512i; N] = core::array::from_fn(|i| _mm512_sub_epi64(a[i], b[i]));
    let biased: [__m512i; N] = core::array::from_fn(|i| _mm512_add_epi64(difference[i], two_p[i]));
    select_non_negative(carry(difference), carry(biased))
}

/// `a·b/R` (see the module documentation; `a·b < R·p`).
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(crate) fn mul<const N: usize, const W: usize>(
    a: &[__m512i; N],
    b: &[__m512i; N],
    m: &Modulus<N>,
) -> [__m512i; N] {
    const { assert!(W == 2 * N, "2N product columns") };
    let mut c = [_mm512_setzero_si512(); W];
    accumulate(&mut c, a, b);
    reduce::<N, W>(c, m)
}

/// `(a·b + c·d)/R`, the two products' columns summed and reduced once
/// (lazy reduction: 128 multiply-adds fewer than two products and a sum;
/// columns below 2^58 still); `a·b + c·d < R·p`.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(crate) fn mul_sum<const N: usize, const W: usize>(
    a: &[__m512i; N],
    b: &[__m512i; N],
    c: &[__m512i; N],
    d: &[__m512i; N],
    m: &Modulus<N>,
) -> [__m512i; N] {
    const { assert!(W == 2 * N, "2N product columns") };
    let mut columns = [_mm512_setzero_si512(); W];
    accumulate(&mut columns, a, b);
    accumulate(&mut columns, c, d);
    reduce::<N, W>(columns, m)
}

/// Adds the `N²` low and high halves of `a·b` to their columns.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn accumulate<const N: usize>(c: &mut [__m512i], a: &[__m512i; N], b: &[__m512i; N]) {
    for i in 0..N {
        for j in 0..N {
            c[i + j] = _mm512_madd52lo_epu64(c[i + j], a[i], b[j]);
            c[i + j + 1] = _mm512_madd52hi_epu64(c[i + j + 1], a[i], b[j]);
        }
    }
}

/// `a²/R`: the cross products once, doubled, and the squares; otherwise
/// as [`mul`].
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(crate) fn square<const N: usize, const W: usize>(
    a: &[__m512i; N],
    m: &Modulus<N>,
) -> [__m512i; N] {
    const { assert!(W == 2 * N, "2N product columns") };
    let mut c = [_mm512_setzero_si512(); W];
    for i in 0..N {
        for j in i + 1..N {
            c[i + j] = _mm512_madd52lo_epu64(c[i + j], a[i], a[j]);
            c[i + j + 1] = _mm512_madd52hi_epu64(c[i + j + 1], a[i], a[j]);
        }
    }
    for column in c.iter_mut() {
        *column = _mm512_add_epi64(*column, *column);
    }
    for i in 0..N {
        c[2 * i] = _mm512_madd52lo_epu64(c[2 * i], a[i], a[i]);
        c[2 * i + 1] = _mm512_madd52hi_epu64(c[2 * i + 1], a[i], a[i]);
    }
    reduce::<N, W>(c, m)
}

/// The Montgomery reduction of a product's `2N` columns (each below
/// 2^58): step `i` adds `m·p·2^(52i)` with `m = c_i·(−p^{-1}) mod 2^52`,
/// which clears column `i` (its carry moves up); columns `N` to `2N − 1`,
/// carried, are the result.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn reduce<const N: usize, const W: usize>(mut c: [__m512i; W], m: &Modulus<N>) -> [__m512i; N] {
    let n0 = _mm512_set1_epi64(m.n0 as i64);
    let p = broadcast(&m.p);
    let zero = _mm512_setzero_si512();
    let low_52 = _mm512_set1_epi64(LOW_52 as i64);
    for i in 0..N {
        let q = _mm512_madd52lo_epu64(zero, c[i], n0);
        // Column i plus the low half of q·p_0 is a multiple of 2^52: it is
        // `⌊c_i/2^52⌋ + 1` units of 2^52 where c_i's low 52 bits are not
        // zero (the low half is then `2^52` minus them), `⌊c_i/2^52⌋`
        // where they are. `⌊(c_i + 2^52 − 1)/2^52⌋` is both, without the
        // multiply-add (and without waiting for q).
        let carried = _mm512_srli_epi64::<52>(_mm512_add_epi64(c[i], low_52));
        c[i + 1] = _mm512_add_epi64(c[i + 1], carried);
        // The next step's q waits for column i + 1: the high half of
        // q·p_0 goes into its own register, beside the low half of q·p_1,
        // so that the two multiply-adds run side by side.
        let high_0 = _mm512_madd52hi_epu64(zero, q, p[0]);
        for j in 1..N {
            c[i + j] = _mm512_madd52lo_epu64(c[i + j], q, p[j]);
            c[i + j + 1] = _mm512_madd52hi_epu64(c[i + j + 1], q, p[j]);
        }
        c[i + 1] = _mm512_add_epi64(c[i + 1], high_0);
    }
    carry(core::array::from_fn(|k| c[N + k]))
}

/// The canonical plain value (`< p`, out of Montgomery form) of each lane:
/// the Montgomery product by a plain 1 is at most p (`(a + m·p)/R < 2p/R +
/// p`), and p itself becomes 0 by one conditional subtraction.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(crate) fn canonical<const N: usize, const W: usize>(
    a: &[__m512i; N],
    m: &Modulus<N>,
) -> [__m512i; N] {
    // The product by 1 is the reduction of `a`'s limbs as they are (the
    // columns of `a·1`), without the multiply-adds of a product.
    let mut columns = [_mm512_setzero_si512(); W];
    columns[..N].copy_from_slice(a);
    let plain = reduce::<N, W>(columns, m);
    below(&plain, &m.p)
}

/// `a − bound` in the lanes where `a ≥ bound`, `a` elsewhere (`a` below
/// `2·bound`), constant time.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn below<const N: usize>(a: &[__m512i; N], bound: &[u64; N]) -> [__m512i; N] {
    let bound = broadcast(bound);
    let less: [__m512i; N] = core::array::from_fn(|i| _mm512_sub_epi64(a[i], bound[i]));
    select_non_negative(carry(less), *a)
}

/// Lanes where the canonical limbs `a` are at least `bound` (constant
/// time).
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(crate) fn at_least<const N: usize>(a: &[__m512i; N], bound: &[u64; N]) -> __mmask8 {
    let bound = broadcast(bound);
    let less: [__m512i; N] = carry(core::array::from_fn(|i| _mm512_sub_epi64(a[i], bound[i])));
    _mm512_cmpge_epi64_mask(less[N - 1], _mm512_setzero_si512())
}

/// Word-sliced limbs of 8 values (lane `j`: `values[j]`).
#[target_feature(enable = "avx512f")]
pub(crate) fn slice<const N: usize>(values: &[[u64; N]; LANES]) -> [__m512i; N] {
    core::array::from_fn(|i| {
        let lanes: [u64; LANES] = core::array::from_fn(|j| values[j][i]);
        // SAFETY: [u64; 8] and __m512i have the same size; unaligned load.
        unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
    })
}

/// The per-lane values of word-sliced limbs.
#[target_feature(enable = "avx512f")]
pub(crate) fn unslice<const N: usize>(limbs: &[__m512i; N]) -> [[u64; N]; LANES] {
    let mut columns = [[0u64; LANES]; N];
    for (column, limb) in columns.iter_mut().zip(limbs) {
        // SAFETY: [u64; 8] and __m512i have the same size; unaligned store.
        unsafe { _mm512_storeu_si512(column.as_mut_ptr().cast(), *limb) };
    }
    core::array::from_fn(|j| core::array::from_fn(|i| columns[i][j]))
}
