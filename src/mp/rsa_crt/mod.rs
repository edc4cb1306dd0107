//! RSA private-key operations with the Chinese remainder theorem, on the
//! batch engine: a key made once from `(p, q, dp, dq, qinv)`, validated and
//! with every constant precomputed ([`RsaCrtKey::new`], this file), and the
//! batch private operation over many ciphertexts (`private.rs`).
//!
//! The key is secret, the ciphertexts public, the results secret. Every
//! operation on the key is constant time: the primes are the moduli of two
//! [`MontContext`]s (constant time in the modulus), and the checks of the
//! key compute their verdicts with masks before the one branch that refuses
//! a bad key (its status is the only thing it tells, and the constant-time
//! check is told so, as it is that `n` is public).

mod private;

use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

use super::context::MontContext;
use super::limbs::convert::{
    be_bytes_to_limbs, bit_length_vartime, limbs_for_bytes, limbs_to_be_bytes,
};
use super::limbs::masks;
use super::limbs::montgomery::mul_add_wide;
use super::limits::{MAX_MODULUS_BITS, MAX_OPERAND_BYTES};
use crate::secret_marks::{declassify, public_bool};
use crate::Error;

/// Bit lengths accepted for each prime: at least 2 (3 is the smallest odd
/// prime), at most half the largest modulus.
const PRIME_BITS: core::ops::RangeInclusive<usize> = 2..=MAX_MODULUS_BITS / 2;

/// An RSA private key in CRT form, ready for batch private operations
/// ([`RsaCrtKey::private_batch`]).
///
/// Holds the primes `p` and `q` (as Montgomery contexts), the CRT exponents
/// `dp = d mod (p-1)` and `dq = d mod (q-1)`, the coefficient `qinv =
/// q^{-1} mod p` in the Montgomery form Garner's step uses, and the public
/// modulus `n = p·q`. Immutable once made; `Send + Sync`; every secret is
/// wiped on drop.
///
/// ```
/// use oblivex::mp::RsaCrtKey;
/// // p = 1009, q = 1013, e = 65537: dp = 593, dq = 329, qinv = 757.
/// let key = RsaCrtKey::new(&[0x03, 0xf1], &[0x03, 0xf5], &[0x02, 0x51], &[0x01, 0x49], &[0x02, 0xf5])
///     .unwrap();
/// let (n, c) = (1009u64 * 1013, 123_456u64);
/// let m = key.private_batch(&c.to_be_bytes()[5..]).unwrap(); // 3 bytes, like n
/// let m = m.iter().fold(0u64, |acc, &b| acc << 8 | u64::from(b));
/// // The public operation gives c back: m^65537 mod n = c.
/// let (mut power, mut base, mut e) = (1u64, m, 65537u32);
/// while e > 0 {
///     if e & 1 == 1 {
///         power = power * base % n;
///     }
///     base = base * base % n;
///     e >>= 1;
/// }
/// assert_eq!(power, c);
/// ```
pub struct RsaCrtKey {
    p: MontContext,
    q: MontContext,
    /// `dp` in as many limbs as `p`.
    dp: Zeroizing<Vec<u64>>,
    /// `dq` in as many limbs as `q`.
    dq: Zeroizing<Vec<u64>>,
    /// `qinv·R mod p` (`R` of `p`'s context): one Montgomery product by it
    /// multiplies by `qinv`.
    qinv_mont: Zeroizing<Vec<u64>>,
    /// `n = p·q`, big-endian, without leading zeros (public).
    modulus_be: Vec<u8>,
}

impl core::fmt::Debug for RsaCrtKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("RsaCrtKey")
            .field("modulus_len", &self.modulus_be.len())
            .finish_non_exhaustive()
    }
}

impl RsaCrtKey {
    /// Makes the key from its CRT parameters, each a big-endian integer
    /// (leading zero bytes allowed), as in PKCS #1 `RSAPrivateKey`: the
    /// primes `p` and `q`, the exponents `dp` and `dq`, the coefficient
    /// `qinv = q^{-1} mod p`.
    ///
    /// Checked (the primality of `p` and `q` is not: that is the key's
    /// maker's job): [`Error::ZeroModulus`] or [`Error::EvenModulus`] for a
    /// zero or even prime; [`Error::UnsupportedKeySize`] unless `p` and `q`
    /// have the same bit length, 2 to 4096 bits; [`Error::EqualPrimes`];
    /// [`Error::InvalidCrtExponent`] unless `dp` and `dq` are odd and below
    /// their primes; [`Error::InvalidCrtCoefficient`] unless `qinv < p` and
    /// `qinv·q ≡ 1 (mod p)`; [`Error::BadLength`] for a parameter longer
    /// than [`crate::mp::MAX_OPERAND_BYTES`].
    pub fn new(p: &[u8], q: &[u8], dp: &[u8], dq: &[u8], qinv: &[u8]) -> Result<Self, Error> {
        if [p, q, dp, dq, qinv]
            .iter()
            .any(|x| x.len() > MAX_OPERAND_BYTES)
        {
            return Err(Error::BadLength);
        }
        let p = prime_context(p)?;
        let q = prime_context(q)?;
        let bits = p.modulus_bits();
        if bits != q.modulus_bits() || !PRIME_BITS.contains(&bits) {
            return Err(Error::UnsupportedKeySize);
        }
        if public_bool(bool::from(p.modulus().ct_eq(q.modulus()))) {
            return Err(Error::EqualPrimes);
        }
        let dp = crt_exponent(dp, &p)?;
        let dq = crt_exponent(dq, &q)?;
        let qinv_mont = coefficient_mont(qinv, &p, &q)?;
        let n = p.limbs();
        let mut product = Zeroizing::new(vec![0u64; 2 * n]);
        let nothing_added = vec![0u64; n];
        mul_add_wide(&mut product, p.modulus(), q.modulus(), &nothing_added);
        // n is the public key.
        declassify(product.as_slice());
        let mut modulus_be = vec![0u8; bit_length_vartime(&product).div_ceil(8)];
        limbs_to_be_bytes(&product, &mut modulus_be);
        Ok(RsaCrtKey {
            p,
            q,
            dp,
            dq,
            qinv_mont,
            modulus_be,
        })
    }

    /// Length in bytes of the modulus `n` (without leading zeros): the
    /// width of every ciphertext and result.
    pub fn modulus_len(&self) -> usize {
        self.modulus_be.len()
    }

    /// The public modulus `n = p·q`, big-endian, [`RsaCrtKey::modulus_len`]
    /// bytes.
    pub fn modulus_be(&self) -> &[u8] {
        &self.modulus_be
    }
}

/// The context of one prime; the size checks follow in `new`.
fn prime_context(prime: &[u8]) -> Result<MontContext, Error> {
    MontContext::new(prime).map_err(|e| match e {
        // A prime above the context's limit is a key size this engine
        // does not take.
        Error::ModulusTooLarge => Error::UnsupportedKeySize,
        other => other,
    })
}

/// A secret big-endian integer as limbs of `modulus`'s length, and whether
/// it is below `modulus` (computed with masks: the bytes' length is public,
/// the value is not).
fn limbs_below(bytes: &[u8], modulus: &[u64]) -> (Zeroizing<Vec<u64>>, Choice) {
    let n = modulus.len();
    let mut wide = Zeroizing::new(vec![0u64; limbs_for_bytes(bytes.len()).max(n)]);
    be_bytes_to_limbs(bytes, &mut wide);
    let high = wide[n..].iter().fold(0u64, |acc, &limb| acc | limb);
    let mut diff = Zeroizing::new(vec![0u64; n]);
    let borrow = masks::sub_with_borrow(&mut diff, &wide[..n], modulus);
    let below = high.ct_eq(&0) & Choice::from(borrow as u8);
    (Zeroizing::new(wide[..n].to_vec()), below)
}

/// `dp` (or `dq`) checked: odd and below its prime, as `d mod (prime - 1)`
/// is for every valid key (`e·dp ≡ 1` modulo the even `prime - 1`).
fn crt_exponent(bytes: &[u8], prime: &MontContext) -> Result<Zeroizing<Vec<u64>>, Error> {
    let (exponent, below) = limbs_below(bytes, prime.modulus());
    let odd = Choice::from((exponent[0] & 1) as u8);
    if !public_bool(bool::from(below & odd)) {
        return Err(Error::InvalidCrtExponent);
    }
    Ok(exponent)
}

/// `qinv` checked (`qinv < p`, `qinv·q ≡ 1 mod p`) and returned as
/// `qinv·R mod p`.
fn coefficient_mont(
    bytes: &[u8],
    p: &MontContext,
    q: &MontContext,
) -> Result<Zeroizing<Vec<u64>>, Error> {
    let n = p.limbs();
    let (qinv, below) = limbs_below(bytes, p.modulus());
    // q < 2p (same bit length): one masked subtraction reduces it.
    let mut q_mod_p = Zeroizing::new(vec![0u64; n]);
    masks::reduce_below_2m(&mut q_mod_p, q.modulus(), 0, p.modulus());
    let product = Zeroizing::new(p.mul_mod(&qinv, &q_mod_p));
    let mut one = vec![0u64; n];
    one[0] = 1;
    if !public_bool(bool::from(below & product.as_slice().ct_eq(&one))) {
        return Err(Error::InvalidCrtCoefficient);
    }
    Ok(Zeroizing::new(p.mul_mod(&qinv, p.r_mod_m())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// p = 1009, q = 1013 (n = 1022117), e = 65537: dp = e^{-1} mod 1008
    /// = 593, dq = e^{-1} mod 1012 = 329, qinv = 1013^{-1} mod 1009 = 757.
    const P: u16 = 1009;
    const Q: u16 = 1013;
    const DP: u16 = 593;
    const DQ: u16 = 329;
    const QINV: u16 = 757;

    fn key(p: u16, q: u16, dp: u16, dq: u16, qinv: u16) -> Result<RsaCrtKey, Error> {
        RsaCrtKey::new(
            &p.to_be_bytes(),
            &q.to_be_bytes(),
            &dp.to_be_bytes(),
            &dq.to_be_bytes(),
            &qinv.to_be_bytes(),
        )
    }

    #[test]
    fn the_parameters_are_consistent() {
        let e = 65537u32;
        assert_eq!(e * u32::from(DP) % (u32::from(P) - 1), 1);
        assert_eq!(e * u32::from(DQ) % (u32::from(Q) - 1), 1);
        assert_eq!(u32::from(QINV) * u32::from(Q) % u32::from(P), 1);
    }

    #[test]
    fn a_good_key_and_its_modulus() {
        let key = key(P, Q, DP, DQ, QINV).unwrap();
        assert_eq!(key.modulus_be(), &1_022_117u32.to_be_bytes()[1..]);
        assert_eq!(key.modulus_len(), 3);
        // Leading zero bytes are allowed in every parameter.
        let padded = RsaCrtKey::new(
            &[0, 0, 0x03, 0xf1],
            &Q.to_be_bytes(),
            &[0, 0x02, 0x51],
            &DQ.to_be_bytes(),
            &[0, 0, 0, 0x02, 0xf5],
        )
        .unwrap();
        assert_eq!(padded.modulus_be(), key.modulus_be());
    }

    #[test]
    fn bad_keys_are_refused_by_cause() {
        assert_eq!(key(0, Q, DP, DQ, QINV).unwrap_err(), Error::ZeroModulus);
        assert_eq!(key(1010, Q, DP, DQ, QINV).unwrap_err(), Error::EvenModulus);
        assert_eq!(key(P, 1014, DP, DQ, QINV).unwrap_err(), Error::EvenModulus);
        // 1009 has 10 bits, 2039 has 11.
        assert_eq!(
            key(P, 2039, DP, DQ, QINV).unwrap_err(),
            Error::UnsupportedKeySize
        );
        assert_eq!(key(1, 1, 1, 1, 1).unwrap_err(), Error::UnsupportedKeySize);
        assert_eq!(key(P, P, DP, DP, 1).unwrap_err(), Error::EqualPrimes);
        assert_eq!(
            key(P, Q, DP + 1, DQ, QINV).unwrap_err(),
            Error::InvalidCrtExponent
        );
        assert_eq!(
            key(P, Q, P, DQ, QINV).unwrap_err(),
            Error::InvalidCrtExponent
        );
        assert_eq!(
            key(P, Q, DP, Q + 2, QINV).unwrap_err(),
            Error::InvalidCrtExponent
        );
        assert_eq!(
            key(P, Q, DP, DQ, QINV + 1).unwrap_err(),
            Error::InvalidCrtCoefficient
        );
        // QINV + P is congruent to the inverse but not below p.
        assert_eq!(
            key(P, Q, DP, DQ, QINV + P).unwrap_err(),
            Error::InvalidCrtCoefficient
        );
        let mut too_large = vec![0xffu8; MAX_MODULUS_BITS / 16 + 1];
        too_large[0] = 1;
        assert_eq!(
            RsaCrtKey::new(&too_large, &too_large, &[1], &[1], &[1]).unwrap_err(),
            Error::UnsupportedKeySize
        );
        let long = vec![0u8; MAX_OPERAND_BYTES + 1];
        assert_eq!(
            RsaCrtKey::new(&long, &[3], &[1], &[1], &[1]).unwrap_err(),
            Error::BadLength
        );
    }
}
