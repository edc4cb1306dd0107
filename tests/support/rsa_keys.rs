//! RSA keys for the tests: random primes (trial division, then
//! Miller–Rabin), e = 65537, and the CRT parameters as big-endian bytes.

use num_bigint::BigUint;
use num_traits::{One, Zero};

/// Deterministic bytes (xorshift; not cryptographic).
pub struct TestRng(pub u64);

impl TestRng {
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                self.0 as u8
            })
            .collect()
    }

    /// A uniform-enough integer below `bound`.
    pub fn below(&mut self, bound: &BigUint) -> BigUint {
        let len = bound.to_bytes_be().len() + 8;
        BigUint::from_bytes_be(&self.bytes(len)) % bound
    }
}

/// Miller–Rabin with fixed bases after trial division: enough for random
/// candidates in a test.
fn is_probable_prime(n: &BigUint) -> bool {
    for small in (3u32..2000).step_by(2) {
        if (n % small).is_zero() {
            return *n == BigUint::from(small);
        }
    }
    let one = BigUint::one();
    let n_minus_1 = n - &one;
    let s = n_minus_1.trailing_zeros().expect("n > 1");
    let d = &n_minus_1 >> s;
    [2u32, 3, 5, 7, 11, 13, 17].iter().all(|&a| {
        let mut x = BigUint::from(a).modpow(&d, n);
        if x == one || x == n_minus_1 {
            return true;
        }
        (1..s).any(|_| {
            x = &x * &x % n;
            x == n_minus_1
        })
    })
}

/// A prime of exactly `bits` bits with its top two bits set (so that a
/// product of two has exactly `2·bits` bits) and `gcd(e, p − 1) = 1`.
fn prime(rng: &mut TestRng, bits: usize, e: &BigUint) -> BigUint {
    loop {
        let mut candidate = BigUint::from_bytes_be(&rng.bytes(bits.div_ceil(8)));
        candidate %= BigUint::one() << bits;
        candidate |= (BigUint::from(3u32) << (bits - 2)) | BigUint::one();
        let p_minus_1 = &candidate - 1u32;
        if is_probable_prime(&candidate) && !(&p_minus_1 % e).is_zero() {
            return candidate;
        }
    }
}

/// An RSA key with e = 65537: two distinct primes of the same size, the
/// private exponent and the modulus.
pub struct RsaTestKey {
    pub p: BigUint,
    pub q: BigUint,
    pub d: BigUint,
    pub n: BigUint,
}

impl RsaTestKey {
    /// A key whose primes have `prime_bits` bits each.
    pub fn generate(rng: &mut TestRng, prime_bits: usize) -> Self {
        let e = BigUint::from(65537u32);
        let p = prime(rng, prime_bits, &e);
        let q = loop {
            let q = prime(rng, prime_bits, &e);
            if q != p {
                break q;
            }
        };
        let phi = (&p - 1u32) * (&q - 1u32);
        let d = e.modinv(&phi).expect("e is prime to φ(n)");
        let n = &p * &q;
        RsaTestKey { p, q, d, n }
    }

    /// The CRT parameters `[p, q, dp, dq, qinv]`, big-endian, with the
    /// primes in the key's order or (`swapped`) the other: both are keys
    /// of the same `n` and `d`.
    pub fn crt_params(&self, swapped: bool) -> [Vec<u8>; 5] {
        let (p, q) = if swapped {
            (&self.q, &self.p)
        } else {
            (&self.p, &self.q)
        };
        let dp = &self.d % (p - 1u32);
        let dq = &self.d % (q - 1u32);
        let qinv = q.modinv(p).expect("p and q are distinct primes");
        [p, q, &dp, &dq, &qinv].map(BigUint::to_bytes_be)
    }

    /// `x` big-endian in as many bytes as `n`.
    pub fn padded(&self, x: &BigUint) -> Vec<u8> {
        let len = self.n.to_bytes_be().len();
        let bytes = x.to_bytes_be();
        let mut out = vec![0u8; len - bytes.len()];
        out.extend_from_slice(&bytes);
        out
    }
}
