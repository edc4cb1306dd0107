//! Word-serial Montgomery arithmetic on 64-bit limbs, for any CPU: the
//! product, the square, the reduction and the inverse `-m^{-1} mod 2^64`
//! they need. The portable backend is these on one value at a time, and the
//! modulus context computes its constants with them. Written as
//! obviously-correct loops (this is the reference the SIMD backend is
//! tested against); constant time: fixed loop bounds, masked final
//! subtraction.
//!
//! The square, the reduction and the two-pass product are written over a
//! [`WordKernel`], the loops they spend their time in: [`WordLoop`] here,
//! the MULX/ADX backend's assembly there.

use zeroize::Zeroize;

use super::masks;
use crate::mp::limits::MAX_LIMBS;

#[inline(always)]
fn mul_add(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    // a·b + acc + carry ≤ (2^64-1)^2 + 2(2^64-1) = 2^128 - 1: never overflows.
    let wide = u128::from(a) * u128::from(b) + u128::from(acc) + u128::from(carry);
    (wide as u64, (wide >> 64) as u64)
}

/// The three loops word-serial Montgomery arithmetic spends its time in:
/// the full product, the full square and the reduction's rounds. The
/// product, square and reduction below are written once over them;
/// [`WordLoop`] implements them as plain loops, the MULX/ADX backend in
/// assembly. Each is constant time in the limbs (its instructions and
/// addresses depend only on the limb count).
pub(crate) trait WordKernel {
    /// `t = a·b`: `a` and `b` have `n` limbs, `t` has `2n`.
    fn product(t: &mut [u64], a: &[u64], b: &[u64]);

    /// `t = a^2`: `a` has `n` limbs, `t` has `2n`.
    fn square(t: &mut [u64], a: &[u64]);

    /// The `n` rounds of Montgomery reduction of a `2n`-limb `t` by the
    /// `n`-limb `m`: round `i` adds `u_i·m·2^(64i)`, `u_i = t_i·m_inv_neg
    /// mod 2^64`, which clears limb `i`. Leaves `(t + U·m)/R` as
    /// `t[n..2n] + top·R` and returns `top` (0 or 1 for `t < m·R`).
    fn reduce_rounds(t: &mut [u64], m: &[u64], m_inv_neg: u64) -> u64;

    /// Whether this CPU runs the kernel (an assembly kernel needs its
    /// instructions); checked once where an arithmetic on it is built.
    fn runs_here() -> bool {
        true
    }
}

/// [`WordKernel`] as plain loops of 128-bit products (MUL and UMULH on
/// aarch64, MUL on x86-64): any CPU.
pub(crate) struct WordLoop;

impl WordLoop {
    /// `acc += x·y` over `acc.len() == x.len()` limbs; returns the carry
    /// limb (the sum is below `2^(64(n+1))`, so it fits).
    #[inline(always)]
    pub(crate) fn add_mul_row(acc: &mut [u64], x: &[u64], y: u64) -> u64 {
        debug_assert_eq!(acc.len(), x.len());
        let mut carry = 0;
        for (a, &xi) in acc.iter_mut().zip(x) {
            (*a, carry) = mul_add(*a, xi, y, carry);
        }
        carry
    }
}

impl WordKernel for WordLoop {
    fn product(t: &mut [u64], a: &[u64], b: &[u64]) {
        let n = a.len();
        assert!(b.len() == n && t.len() == 2 * n);
        t.fill(0);
        for (i, &a_i) in a.iter().enumerate() {
            // Limb i + n is still zero: each row's carry lands in a fresh limb.
            t[i + n] = Self::add_mul_row(&mut t[i..i + n], b, a_i);
        }
    }

    fn square(t: &mut [u64], a: &[u64]) {
        let n = a.len();
        assert!(t.len() == 2 * n);
        t.fill(0);
        // Cross products a[i]·a[j], i < j, row by row.
        for i in 0..n - 1 {
            t[i + n] = Self::add_mul_row(&mut t[2 * i + 1..i + n], &a[i + 1..], a[i]);
        }
        // Double them (a^2 < 2^(128n), so the shift loses nothing) and add
        // the squares a[i]^2 on the diagonal.
        let mut shifted_out = 0;
        for limb in t.iter_mut() {
            let next = *limb >> 63;
            *limb = (*limb << 1) | shifted_out;
            shifted_out = next;
        }
        let mut carry = 0u64;
        for (pair, &ai) in t.chunks_exact_mut(2).zip(a) {
            let square = u128::from(ai) * u128::from(ai);
            let sum = u128::from(pair[0]) | (u128::from(pair[1]) << 64);
            let (sum, c1) = sum.overflowing_add(square);
            let (sum, c2) = sum.overflowing_add(u128::from(carry));
            pair[0] = sum as u64;
            pair[1] = (sum >> 64) as u64;
            carry = u64::from(c1) + u64::from(c2);
        }
        debug_assert_eq!(carry, 0, "a^2 fits in 2n limbs");
    }

    fn reduce_rounds(t: &mut [u64], m: &[u64], m_inv_neg: u64) -> u64 {
        let n = m.len();
        assert!(t.len() == 2 * n);
        // `top` is the carry out of t[i + n], added in by the next round.
        let mut top = 0u64;
        for i in 0..n {
            let u = t[i].wrapping_mul(m_inv_neg);
            let carry = Self::add_mul_row(&mut t[i..i + n], m, u);
            let (s, c0) = t[i + n].overflowing_add(carry);
            let (s, c1) = s.overflowing_add(top);
            t[i + n] = s;
            top = u64::from(c0) + u64::from(c1);
            debug_assert!(top <= 1, "one carry bit between rounds");
        }
        top
    }
}

/// The plain product `out = a·b + addend` (no reduction), for the RSA
/// recombination `m_q + h·q` and the modulus `p·q`: `a`, `b` and `addend`
/// have `n` limbs, `out` has `2n` (the sum is below `2^(128n)`). Row by row,
/// each row's carry landing in the limb no earlier row has reached.
pub(crate) fn mul_add_wide(out: &mut [u64], a: &[u64], b: &[u64], addend: &[u64]) {
    let n = a.len();
    assert!(b.len() == n && addend.len() == n && out.len() == 2 * n);
    out.fill(0);
    out[..n].copy_from_slice(addend);
    for (i, &a_i) in a.iter().enumerate() {
        out[i + n] = WordLoop::add_mul_row(&mut out[i..i + n], b, a_i);
    }
}

/// Montgomery product `out = a·b·R^{-1} mod m` in two passes: the full
/// product ([`WordKernel::product`]), then [`redc`]. Twice the memory
/// traffic of [`mont_mul`]'s interleaved pass, but each pass is one kernel
/// loop, which is what an assembly kernel needs. Requires `a·b < m·R`; the
/// result is fully reduced. All slices have `m.len()` limbs but the
/// scratch `wide`, of `2·m.len()`, which is left for its owner to wipe.
pub(crate) fn mont_mul_by_rows<K: WordKernel>(
    out: &mut [u64],
    a: &[u64],
    b: &[u64],
    m: &[u64],
    m_inv_neg: u64,
    wide: &mut [u64],
) {
    let n = m.len();
    assert!(a.len() == n && b.len() == n && out.len() == n && (1..=MAX_LIMBS).contains(&n));
    let t = &mut wide[..2 * n];
    K::product(t, a, b);
    redc::<K>(out, t, m, m_inv_neg);
}

/// Montgomery product `out = a·b·R^{-1} mod m`, word by word: for each limb
/// `b_i`, `a·b_i` and `u·m` are added in one pass (two independent carry
/// chains; `u` makes the low limb vanish) and the low limb is dropped.
///
/// Requires `a·b < m·R` (e.g. `a < R` and `b < m`); the result is then fully
/// reduced, `< m`. All slices have `m.len()` limbs.
pub(crate) fn mont_mul(out: &mut [u64], a: &[u64], b: &[u64], m: &[u64], m_inv_neg: u64) {
    let n = m.len();
    assert!(a.len() == n && b.len() == n && out.len() == n && (1..=MAX_LIMBS).contains(&n));
    // Invariant after each step: t + top·R < a + m < 2R, so top <= 1.
    let mut t = [0u64; MAX_LIMBS];
    let t = &mut t[..n];
    let mut top = 0u64;
    for &b_i in b {
        let (low, mut carry_ab) = mul_add(t[0], a[0], b_i, 0);
        let u = low.wrapping_mul(m_inv_neg);
        let (_, mut carry_um) = mul_add(low, u, m[0], 0);
        for j in 1..n {
            let (x, c) = mul_add(t[j], a[j], b_i, carry_ab);
            carry_ab = c;
            (t[j - 1], carry_um) = mul_add(x, u, m[j], carry_um);
        }
        let (s, o1) = top.overflowing_add(carry_ab);
        let (s, o2) = s.overflowing_add(carry_um);
        t[n - 1] = s;
        top = u64::from(o1) + u64::from(o2);
        debug_assert!(top <= 1, "t + top·R < 2R");
    }
    masks::reduce_below_2m(out, t, top, m);
    t.zeroize();
}

/// Montgomery square `out = a^2·R^{-1} mod m` for `a < m`: the full square
/// ([`WordKernel::square`], each cross product computed once: about half
/// the multiplications of a product), then [`redc`]. The scratch `wide`
/// has `2·m.len()` limbs and is left for its owner to wipe.
pub(crate) fn mont_sqr<K: WordKernel>(
    out: &mut [u64],
    a: &[u64],
    m: &[u64],
    m_inv_neg: u64,
    wide: &mut [u64],
) {
    let n = m.len();
    assert!(a.len() == n && out.len() == n && (1..=MAX_LIMBS).contains(&n));
    let t = &mut wide[..2 * n];
    K::square(t, a);
    redc::<K>(out, t, m, m_inv_neg);
}

/// Montgomery reduction `out = t·R^{-1} mod m` of a `2n`-limb `t < m·R`
/// (destroys `t`); the result is fully reduced.
pub(crate) fn redc<K: WordKernel>(out: &mut [u64], t: &mut [u64], m: &[u64], m_inv_neg: u64) {
    let n = m.len();
    assert!(t.len() == 2 * n && out.len() == n);
    // (t + U·m)/R = t[n..2n] + top·R < 2m.
    let top = K::reduce_rounds(t, m, m_inv_neg);
    debug_assert!(top <= 1, "one carry bit out of the reduction");
    masks::reduce_below_2m(out, &t[n..], top, m);
}

/// `-m0^{-1} mod 2^64` for odd `m0`, by Newton iteration (each step doubles
/// the number of correct low bits: 1 → 2 → … → 64; `m0` is its own inverse
/// modulo 8, which gives 3 bits to start).
pub(crate) fn neg_inverse_mod_2_64(m0: u64) -> u64 {
    debug_assert!(m0 & 1 == 1);
    let mut inv = m0;
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(inv)));
    }
    debug_assert_eq!(m0.wrapping_mul(inv), 1);
    inv.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mul_and_sqr_agree_with_u128() {
        // m < 2^64: one limb, R = 2^64; check x·y·R^{-1} via x·y ≡ out·R.
        let m: u64 = 0xffff_ffff_0000_0001 | 1;
        let k = neg_inverse_mod_2_64(m);
        for (x, y) in [(3u64, 5u64), (m - 1, m - 1), (0, 7), (12345, m - 2)] {
            let mut out = [0u64];
            mont_mul(&mut out, &[x], &[y], &[m], k);
            let lhs = (u128::from(out[0]) << 64) % u128::from(m);
            assert_eq!(lhs, u128::from(x) * u128::from(y) % u128::from(m));
            let mut sq = [0u64];
            let mut wide = [0u64; 2];
            mont_sqr::<WordLoop>(&mut sq, &[x], &[m], k, &mut wide);
            let mut by_rows = [0u64];
            mont_mul_by_rows::<WordLoop>(&mut by_rows, &[x], &[y], &[m], k, &mut wide);
            assert_eq!(
                (u128::from(by_rows[0]) << 64) % u128::from(m),
                u128::from(x) * u128::from(y) % u128::from(m)
            );
            let mut xx = [0u64];
            mont_mul(&mut xx, &[x], &[x], &[m], k);
            assert_eq!(sq, xx);
        }
    }

    #[test]
    fn wide_product_with_addend() {
        let max = u64::MAX;
        let mut out = [0u64; 4];
        // (2^128 - 1)^2 + (2^128 - 1) = 2^256 - 2^128: the largest sum.
        mul_add_wide(&mut out, &[max, max], &[max, max], &[max, max]);
        assert_eq!(out, [0, 0, max, max]);
        mul_add_wide(&mut out, &[3, 0], &[5, 1], &[7, 0]);
        assert_eq!(out, [22, 3, 0, 0]);
    }

    #[test]
    fn inverse_mod_2_64() {
        for m0 in [1u64, 3, 0xffff_ffff_0000_0001, u64::MAX] {
            assert_eq!(m0.wrapping_mul(neg_inverse_mod_2_64(m0)), u64::MAX);
        }
    }
}
