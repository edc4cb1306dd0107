//! Per-modulus constants of the IFMA backend, in radix 2^52, computed once
//! per context and kept in the context's backend cache. Constant time in
//! the modulus (only its bit length shapes the work): an RSA key's primes
//! are moduli too.

use zeroize::{Zeroize, Zeroizing};

use std::sync::Arc;

use crate::mp::context::MontContext;
use crate::mp::limbs::convert::{limbs_to_radix, RADIX52_BITS};

/// Digit counts with a dedicated kernel instance: moduli of up to 1038,
/// 1558, 2078, 3118 and 4158 bits (1024, 1536, 2048, 3072, 4096-bit keys).
pub(crate) const FIXED_DIGITS: [usize; 5] = [20, 30, 40, 60, 80];

/// Digits `L` for a modulus of `bits` bits: the least with `R = 2^(52L) >= 4m`
/// (so values `< 2m` stay closed under the Montgomery product), moved up to
/// a dedicated size when one is a digit away, otherwise to the generic
/// path's shape (a multiple of 4, at least 8).
pub(crate) fn digits_for_bits(bits: usize) -> usize {
    let needed = (bits + 2).div_ceil(RADIX52_BITS);
    match FIXED_DIGITS
        .iter()
        .find(|&&l| l == needed || l == needed + 1)
    {
        Some(&l) => l,
        None => needed.next_multiple_of(4).max(8),
    }
}

/// The radix-2^52 constants of one modulus `m` with `R = 2^(52L)`.
#[derive(Clone)]
pub(crate) struct Radix52Constants {
    /// `L`.
    pub(crate) digits: usize,
    /// `m`, `L` digits.
    pub(crate) modulus: Vec<u64>,
    /// `-m^{-1} mod R`, `L` digits.
    pub(crate) m_prime: Vec<u64>,
    /// `R^2 mod m`, `L` digits (entering the Montgomery domain).
    pub(crate) r2: Vec<u64>,
    /// `R mod m`, `L` digits (the Montgomery form of 1).
    pub(crate) one: Vec<u64>,
}

/// The constants of `ctx`'s modulus, made on first use and then cached
/// with the context.
pub(super) fn constants_of(ctx: &MontContext) -> Arc<Radix52Constants> {
    ctx.backend_cache()
        .get_or_make(|| Radix52Constants::new(ctx))
}

impl Radix52Constants {
    pub(crate) fn new(ctx: &MontContext) -> Self {
        let digits = digits_for_bits(ctx.modulus_bits());
        let to_digits = |limbs: &[u64]| {
            let mut d = vec![0u64; digits];
            limbs_to_radix(limbs, &mut d, RADIX52_BITS);
            d
        };
        let modulus = to_digits(ctx.modulus());
        let m_prime = neg_inverse_mod_r(&modulus, ctx.m_inv_neg());
        // The 64-bit forms are wiped (they give a secret prime away).
        let r2 = to_digits(&Zeroizing::new(
            ctx.pow2_mod_vartime(2 * RADIX52_BITS * digits),
        ));
        let one = to_digits(&Zeroizing::new(ctx.pow2_mod_vartime(RADIX52_BITS * digits)));
        Radix52Constants {
            digits,
            modulus,
            m_prime,
            r2,
            one,
        }
    }
}

impl Drop for Radix52Constants {
    fn drop(&mut self) {
        // Public values, wiped anyway: every handle's memory is.
        self.modulus.zeroize();
        self.m_prime.zeroize();
        self.r2.zeroize();
        self.one.zeroize();
    }
}

/// `-m^{-1} mod 2^(52L)` digit by digit: keep `acc = 1 + m·m'_(<k)`, whose
/// low `k` digits are zero, and choose digit `k` of `m'` to clear digit `k`
/// of `acc` (`m_inv_neg_64` is `-m^{-1} mod 2^64`).
fn neg_inverse_mod_r(m: &[u64], m_inv_neg_64: u64) -> Vec<u64> {
    const MASK: u64 = (1 << RADIX52_BITS) - 1;
    let l = m.len();
    let k0 = m_inv_neg_64 & MASK;
    let mut acc = Zeroizing::new(vec![0u64; 2 * l + 2]);
    acc[0] = 1;
    let mut m_prime = vec![0u64; l];
    for k in 0..l {
        let d = acc[k].wrapping_mul(k0) & MASK;
        m_prime[k] = d;
        let mut carry: u128 = 0;
        for (j, &m_j) in m.iter().enumerate() {
            let sum = u128::from(acc[k + j]) + u128::from(d) * u128::from(m_j) + carry;
            acc[k + j] = (sum as u64) & MASK;
            carry = sum >> RADIX52_BITS;
        }
        // The carry runs to the end whatever its value: the modulus may be
        // a secret prime (an RSA key's), so no loop bound depends on it.
        for digit in &mut acc[k + l..] {
            let sum = u128::from(*digit) + carry;
            *digit = (sum as u64) & MASK;
            carry = sum >> RADIX52_BITS;
        }
        debug_assert_eq!(acc[k], 0);
    }
    m_prime
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_counts() {
        assert_eq!(digits_for_bits(1024), 20);
        assert_eq!(digits_for_bits(1536), 30);
        assert_eq!(digits_for_bits(2048), 40);
        assert_eq!(digits_for_bits(3072), 60);
        assert_eq!(digits_for_bits(4096), 80);
        assert_eq!(digits_for_bits(2), 8);
        assert_eq!(digits_for_bits(8192), 160);
        for bits in 2..=8192 {
            let l = digits_for_bits(bits);
            assert!(52 * l >= bits + 2, "R >= 4m for {bits} bits");
            assert!(FIXED_DIGITS.contains(&l) || (l.is_multiple_of(4) && l >= 8));
        }
    }

    #[test]
    fn m_prime_inverts() {
        let ctx = MontContext::new(&[0xc5, 0x11, 0x3f, 0x99, 0x21, 0x07, 0x45, 0x63, 0x01, 0x8f])
            .unwrap();
        let c = Radix52Constants::new(&ctx);
        // m·m' + 1 ≡ 0 mod 2^(52L): check digit by digit with a schoolbook product.
        let l = c.digits;
        let mut prod = vec![0u128; 2 * l + 1];
        for i in 0..l {
            for j in 0..l {
                let p = u128::from(c.modulus[i]) * u128::from(c.m_prime[j]);
                prod[i + j] += p & ((1 << 52) - 1);
                prod[i + j + 1] += p >> 52;
            }
        }
        prod[0] += 1;
        let mut carry = 0u128;
        for digit in prod.iter().take(l) {
            let v = digit + carry;
            assert_eq!(v & ((1 << 52) - 1), 0);
            carry = v >> 52;
        }
    }
}
