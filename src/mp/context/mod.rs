//! The modulus context: an odd modulus with its Montgomery constants,
//! computed once and then only read (like OpenSSL's `BN_MONT_CTX`). This
//! file builds it; its other concerns are one file each: `modular` (single
//! modular operations on residues) and `cache` (room for a backend's
//! precomputation). The context knows no backend; batch exponentiation on
//! it, which does, is `mp::exp`.

mod cache;
mod modular;

pub(crate) use cache::BackendCache;

use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

use crate::mp::limbs::convert::{be_bytes_to_limbs, limbs_for_bytes, limbs_to_be_bytes};
use crate::mp::limbs::masks;
use crate::mp::limbs::montgomery::{mont_mul, mont_sqr, neg_inverse_mod_2_64, WordLoop};
use crate::mp::limits::MAX_MODULUS_BITS;
use crate::secret_marks;
use crate::Error;

/// A precomputed odd modulus `m` (1 ≤ m < 2^8192) for Montgomery arithmetic
/// with `R = 2^(64·n)`, `n` = number of 64-bit limbs of `m`.
///
/// The modulus is usually public, but every operation on it is constant
/// time in its value (only its bit length shapes the work), so a context
/// may hold a secret prime (an RSA key's, [`crate::mp::RsaCrtKey`]). It is
/// immutable after [`MontContext::new`] and can be shared freely between
/// threads (`Send + Sync`). Its memory is wiped on drop, as the C ABI
/// promises for every handle.
#[derive(Clone)]
pub struct MontContext {
    /// `m`, little-endian limbs, exactly `n` of them (top limb non-zero).
    modulus: Vec<u64>,
    /// `-m^{-1} mod 2^64`.
    m_inv_neg: u64,
    /// `R mod m`: the Montgomery form of 1.
    r_mod_m: Vec<u64>,
    /// `R^2 mod m`: multiplying by it enters the Montgomery domain.
    r2_mod_m: Vec<u64>,
    /// Bit length of `m`.
    bits: usize,
    /// What a backend derives from the modulus, made on first use.
    backend_cache: BackendCache,
}

impl Drop for MontContext {
    fn drop(&mut self) {
        self.modulus.zeroize();
        self.m_inv_neg.zeroize();
        self.r_mod_m.zeroize();
        self.r2_mod_m.zeroize();
        self.bits.zeroize();
    }
}

impl core::fmt::Debug for MontContext {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("MontContext")
            .field("bits", &self.bits)
            .finish_non_exhaustive()
    }
}

impl MontContext {
    /// Builds the context of the modulus given as big-endian bytes (leading
    /// zero bytes are allowed and ignored).
    ///
    /// Errors: [`Error::ZeroModulus`] for zero (including no bytes at all),
    /// [`Error::EvenModulus`] for an even modulus, [`Error::ModulusTooLarge`]
    /// beyond [`MAX_MODULUS_BITS`] bits.
    ///
    /// A secret modulus (an RSA prime) is read in constant time but for
    /// what is public by design: its length in bytes and bits (the key's
    /// size) and whether it was refused, which the constant-time check
    /// (`secret_marks`) is told.
    pub fn new(modulus_be: &[u8]) -> Result<Self, Error> {
        let start = secret_marks::public_value(leading_zero_bytes(modulus_be));
        if start == modulus_be.len() {
            return Err(Error::ZeroModulus);
        }
        let significant = &modulus_be[start..];
        if significant.len() > MAX_MODULUS_BITS / 8 {
            return Err(Error::ModulusTooLarge);
        }
        if secret_marks::public_bool(significant[significant.len() - 1] & 1 == 0) {
            return Err(Error::EvenModulus);
        }
        let n = limbs_for_bytes(significant.len());
        let mut modulus = vec![0u64; n];
        be_bytes_to_limbs(significant, &mut modulus);
        // The top byte is not zero: its leading zeros give the length.
        let bits = secret_marks::public_value(
            8 * significant.len() - significant[0].leading_zeros() as usize,
        );

        let m_inv_neg = neg_inverse_mod_2_64(modulus[0]);
        let r_mod_m = r_mod_m_vartime(&modulus, bits);
        let r2_mod_m = pow2_times_r(&modulus, m_inv_neg, &r_mod_m, 64 * n);
        Ok(MontContext {
            modulus,
            m_inv_neg,
            r_mod_m,
            r2_mod_m,
            bits,
            backend_cache: BackendCache::default(),
        })
    }

    /// Length of the modulus in bytes, without leading zeros: every result is
    /// written in exactly this many bytes.
    pub fn modulus_len(&self) -> usize {
        self.bits.div_ceil(8)
    }

    /// Length of the modulus in bits.
    pub fn modulus_bits(&self) -> usize {
        self.bits
    }

    /// The modulus as big-endian bytes, `modulus_len()` of them.
    pub fn modulus_be(&self) -> Vec<u8> {
        let mut out = vec![0u8; self.modulus_len()];
        limbs_to_be_bytes(&self.modulus, &mut out);
        out
    }

    /// `m` as little-endian 64-bit limbs.
    pub(crate) fn modulus(&self) -> &[u64] {
        &self.modulus
    }

    /// Number of 64-bit limbs of `m`.
    pub(crate) fn limbs(&self) -> usize {
        self.modulus.len()
    }

    /// `-m^{-1} mod 2^64`.
    pub(crate) fn m_inv_neg(&self) -> u64 {
        self.m_inv_neg
    }

    /// `R mod m` with `R = 2^(64n)`.
    pub(crate) fn r_mod_m(&self) -> &[u64] {
        &self.r_mod_m
    }

    /// `R^2 mod m`.
    pub(crate) fn r2_mod_m(&self) -> &[u64] {
        &self.r2_mod_m
    }

    /// `2^e mod m` for a public `e`, fully reduced.
    pub(crate) fn pow2_mod_vartime(&self, e: usize) -> Vec<u64> {
        let n = self.limbs();
        let in_mont = Zeroizing::new(pow2_times_r(
            &self.modulus,
            self.m_inv_neg,
            &self.r_mod_m,
            e,
        ));
        let mut one = vec![0u64; n];
        one[0] = 1;
        let mut out = vec![0u64; n];
        mont_mul(&mut out, &in_mont, &one, &self.modulus, self.m_inv_neg);
        out
    }

    /// Room for a backend's precomputation on this modulus.
    pub(crate) fn backend_cache(&self) -> &BackendCache {
        &self.backend_cache
    }
}

/// How many bytes of `bytes` precede its first non-zero one (all of them
/// for zero), with masks over every byte: no branch on a byte's value.
fn leading_zero_bytes(bytes: &[u8]) -> usize {
    let mut still_zero = Choice::from(1);
    let mut count = 0usize;
    for byte in bytes {
        still_zero &= byte.ct_eq(&0);
        count += usize::from(still_zero.unwrap_u8());
    }
    count
}

/// `R mod m`: start from `2^bits mod m = 2^bits - m` (true for m > 1
/// because 2^(bits-1) < m) and double the rest of the way. Variable time in
/// the bit length only; the temporaries, which give the modulus away, are
/// wiped (it may be a secret prime).
fn r_mod_m_vartime(m: &[u64], bits: usize) -> Vec<u64> {
    let n = m.len();
    if bits == 1 {
        return vec![0u64; n]; // m = 1: every residue is 0
    }
    let mut two_pow_bits = vec![0u64; n + 1];
    two_pow_bits[bits / 64] = 1u64 << (bits % 64);
    let mut x = Zeroizing::new(vec![0u64; n + 1]);
    let mut m_ext = Zeroizing::new(vec![0u64; n + 1]);
    m_ext[..n].copy_from_slice(m);
    masks::sub_with_borrow(&mut x, &two_pow_bits, &m_ext);
    let mut x = Zeroizing::new(x[..n].to_vec());
    let mut doubled = Zeroizing::new(vec![0u64; n]);
    for _ in bits..64 * n {
        masks::add_mod(&mut doubled, &x, &x, m);
        x.copy_from_slice(&doubled);
    }
    x.to_vec()
}

/// `R·2^e mod m` (the Montgomery form of `2^e`) for a public `e`. With
/// `f(j) = R·2^j mod m`, a Montgomery product gives `f(a)·f(b)/R = f(a+b)`;
/// so `f(e)` is a short square-and-multiply over the bits of `e`, from
/// `f(0) = R mod m` and `f(1) = 2R mod m`. (`f(64n) = R^2 mod m`.)
fn pow2_times_r(m: &[u64], m_inv_neg: u64, r_mod_m: &[u64], e: usize) -> Vec<u64> {
    let n = m.len();
    let mut two_r = Zeroizing::new(vec![0u64; n]);
    masks::add_mod(&mut two_r, r_mod_m, r_mod_m, m);
    let mut acc = Zeroizing::new(r_mod_m.to_vec());
    let mut tmp = Zeroizing::new(vec![0u64; n]);
    let mut wide = Zeroizing::new(vec![0u64; 2 * n]);
    for bit in (0..usize::BITS - e.leading_zeros()).rev() {
        mont_sqr::<WordLoop>(&mut tmp, &acc, m, m_inv_neg, &mut wide);
        acc.copy_from_slice(&tmp);
        if (e >> bit) & 1 == 1 {
            mont_mul(&mut tmp, &acc, &two_r, m, m_inv_neg);
            acc.copy_from_slice(&tmp);
        }
    }
    acc.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_moduli() {
        assert_eq!(MontContext::new(&[]).unwrap_err(), Error::ZeroModulus);
        assert_eq!(MontContext::new(&[0, 0]).unwrap_err(), Error::ZeroModulus);
        assert_eq!(MontContext::new(&[0x10]).unwrap_err(), Error::EvenModulus);
        let mut too_big = vec![0xffu8; MAX_MODULUS_BITS / 8 + 1];
        too_big[0] = 1;
        assert_eq!(
            MontContext::new(&too_big).unwrap_err(),
            Error::ModulusTooLarge
        );
        let largest = vec![0xffu8; MAX_MODULUS_BITS / 8];
        assert_eq!(
            MontContext::new(&largest).unwrap().modulus_bits(),
            MAX_MODULUS_BITS
        );
    }

    #[test]
    fn constants_small_modulus() {
        // m = 2^64 - 59 (prime): R = 2^64, R mod m = 59, R^2 mod m = 59^2.
        let ctx = MontContext::new(&(u64::MAX - 58).to_be_bytes()).unwrap();
        assert_eq!(ctx.r_mod_m(), &[59]);
        assert_eq!(ctx.r2_mod_m(), &[59 * 59]);
        assert_eq!(ctx.m_inv_neg().wrapping_mul(u64::MAX - 58), u64::MAX);
        assert_eq!(ctx.modulus_len(), 8);
    }

    #[test]
    fn leading_zeros_ignored() {
        let ctx = MontContext::new(&[0, 0, 1, 1]).unwrap();
        assert_eq!(ctx.modulus_be(), vec![1, 1]);
        assert_eq!(ctx.modulus_bits(), 9);
    }

    #[test]
    fn powers_of_two() {
        let ctx = MontContext::new(&1_000_003u64.to_be_bytes()).unwrap();
        for e in [0usize, 1, 5, 63, 64, 65, 200, 1000] {
            let mut expected = 1u64;
            for _ in 0..e {
                expected = expected * 2 % 1_000_003;
            }
            assert_eq!(ctx.pow2_mod_vartime(e), vec![expected], "2^{e}");
        }
    }

    #[test]
    fn modulus_one() {
        let ctx = MontContext::new(&[1]).unwrap();
        assert_eq!(ctx.r_mod_m(), &[0]);
        assert_eq!(ctx.r2_mod_m(), &[0]);
    }
}
