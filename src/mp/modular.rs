//! Single modular operations on a context's residues (64-bit limbs, `< m`),
//! for the groups built on `mp` (FFDHE elements mod p, their scalars mod q).
//! All constant time: scalars here are keys and blinds.

use zeroize::Zeroizing;

use super::context::MontContext;
use super::{ct, portable, MAX_LIMBS};

impl MontContext {
    /// `a·b mod m` for `a, b < m`: one Montgomery product, then a second by
    /// `R^2` to cancel the `R^{-1}`.
    pub(crate) fn mul_mod(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let (m, k) = (self.modulus(), self.m_inv_neg());
        let mut t = Zeroizing::new(vec![0u64; m.len()]);
        let mut out = vec![0u64; m.len()];
        portable::mont_mul(&mut t, a, b, m, k);
        portable::mont_mul(&mut out, &t, self.r2_mod_m(), m, k);
        out
    }

    /// `a + b mod m` for `a, b < m`.
    pub(crate) fn add_mod(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; self.limbs()];
        ct::add_mod(&mut out, a, b, self.modulus());
        out
    }

    /// `a - b mod m` for `a, b < m`: subtract, then add `m` back under a mask
    /// when the subtraction borrowed.
    pub(crate) fn sub_mod(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let n = self.limbs();
        let mut diff = vec![0u64; n];
        let borrow = ct::sub_with_borrow(&mut diff, a, b);
        let mut masked = [0u64; MAX_LIMBS];
        let mask = 0u64.wrapping_sub(borrow);
        for (x, &mi) in masked[..n].iter_mut().zip(self.modulus()) {
            *x = mi & mask;
        }
        let mut out = vec![0u64; n];
        ct::add_with_carry(&mut out, &diff, &masked[..n]);
        out
    }

    /// A big-endian integer of any length, reduced mod `m`.
    pub(crate) fn reduce(&self, bytes: &[u8]) -> Vec<u64> {
        let mut out = vec![0u64; self.limbs()];
        portable::reduce_be_bytes(self, bytes, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_operations() {
        let m = 1_000_003u64;
        let ctx = MontContext::new(&m.to_be_bytes()).unwrap();
        assert_eq!(
            ctx.mul_mod(&[999_999], &[123_456]),
            vec![999_999 * 123_456 % m]
        );
        assert_eq!(ctx.add_mod(&[999_999], &[10]), vec![6]);
        assert_eq!(ctx.sub_mod(&[3], &[10]), vec![m - 7]);
        assert_eq!(ctx.sub_mod(&[10], &[3]), vec![7]);
        assert_eq!(
            ctx.reduce(&[0x01, 0, 0, 0, 0, 0, 0, 0, 0]),
            vec![((1u128 << 64) % u128::from(m)) as u64]
        );
    }
}
