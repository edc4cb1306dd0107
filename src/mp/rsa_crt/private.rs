//! The batch private operation of an [`RsaCrtKey`]: for each ciphertext
//! `c`, the residues `c mod p` and `c mod q`, the two half exponentiations
//! `c^dp mod p` and `c^dq mod q` (all of them, every ciphertext's two
//! halves, in one engine batch, so both halves share the lanes of a group),
//! and Garner's recombination `h = qinv·(m_p − m_q) mod p`,
//! `m = m_q + h·q`.
//!
//! The work around the batch (the residues and Garner's step, one value at
//! a time) runs on the MULX/ADX kernels where they serve
//! (`schedule::mulx_serves`): on the IFMA engine at RSA-2048 the portable
//! loops there were a few per cent of a signature's time
//! (docs/PERFORMANCE.md, "Fewer operations, less code").
//!
//! Constant time in the key and the results: the reductions, the
//! exponentiations and the recombination are the engine's and the limbs'
//! constant-time code; the only branches are on the ciphertexts (public),
//! their count and the CPU.

use zeroize::Zeroizing;

use super::RsaCrtKey;
use crate::backend::Backend;
#[cfg(target_arch = "x86_64")]
use crate::mp::backend::mulx::MulxKernel;
use crate::mp::context::MontContext;
use crate::mp::limbs::convert::limbs_to_be_bytes;
use crate::mp::limbs::masks;
use crate::mp::limbs::montgomery::{mont_mul_by_rows, mul_add_wide, WordKernel, WordLoop};
#[cfg(target_arch = "x86_64")]
use crate::mp::schedule::mulx_serves;
use crate::mp::schedule::{run_powers, Operands};
use crate::mp::trace_cut::secret_exponent_bits;
use crate::Error;

impl RsaCrtKey {
    /// The raw RSA private operation `c^d mod n` on every ciphertext (or
    /// message to sign) of `ciphertexts`: `count` big-endian integers of
    /// exactly [`RsaCrtKey::modulus_len`] bytes each, each below `n`. On the
    /// backend chosen by `OBLIVEX_BACKEND`.
    ///
    /// Returns the results in the same order and width, wiped on drop.
    ///
    /// Errors: [`Error::EmptyInput`] for no ciphertext,
    /// [`Error::BadLength`] unless the length is a whole number of
    /// ciphertexts, [`Error::CiphertextOutOfRange`] for a ciphertext `>= n`,
    /// [`Error::UnsupportedBackend`].
    pub fn private_batch(&self, ciphertexts: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.private_batch_with(None, ciphertexts)
    }

    /// [`RsaCrtKey::private_batch`] on an explicit backend
    /// ([`Error::UnsupportedBackend`] if this CPU cannot run it).
    pub fn private_batch_on(
        &self,
        backend: Backend,
        ciphertexts: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.private_batch_with(Some(backend), ciphertexts)
    }

    /// This key for each whole ciphertext of `ciphertexts`.
    fn private_batch_with(
        &self,
        backend: Option<Backend>,
        ciphertexts: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        if !ciphertexts.len().is_multiple_of(self.modulus_len()) {
            return Err(Error::BadLength);
        }
        let keys = vec![self; ciphertexts.len() / self.modulus_len()];
        run_keyed_batch(backend, &keys, ciphertexts)
    }

    /// The private operation with one key per ciphertext (a server holding
    /// several certificates batches its callers together): ciphertext `i`
    /// is raised to the private exponent of `keys[i]`. The keys' primes all
    /// have the same bit length (so every key has the same
    /// [`RsaCrtKey::modulus_len`] `L`, and every ciphertext the same work);
    /// `ciphertexts` is `keys.len()` big-endian integers of `L` bytes, each
    /// below its key's `n`.
    ///
    /// Errors: those of [`RsaCrtKey::private_batch`] (with
    /// [`Error::BadLength`] unless there are `keys.len()` ciphertexts), and
    /// [`Error::UnsupportedKeySize`] for keys whose primes differ in bit
    /// length.
    pub fn private_batch_keys(
        keys: &[&RsaCrtKey],
        ciphertexts: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        run_keyed_batch(None, keys, ciphertexts)
    }

    /// [`RsaCrtKey::private_batch_keys`] on an explicit backend.
    pub fn private_batch_keys_on(
        backend: Backend,
        keys: &[&RsaCrtKey],
        ciphertexts: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        run_keyed_batch(Some(backend), keys, ciphertexts)
    }

    /// Garner's recombination of one ciphertext's halves into `result`
    /// (big-endian, `modulus_len` bytes): `h = qinv·(m_p − m_q) mod p`,
    /// `m = m_q + h·q`, which is below `n`.
    fn recombine<K: WordKernel>(&self, m_p: &[u64], m_q: &[u64], result: &mut [u8]) {
        let (p, q) = (self.p.modulus(), self.q.modulus());
        let n = p.len();
        // m_q < q < 2p (same bit length): one masked subtraction.
        let mut m_q_mod_p = Zeroizing::new(vec![0u64; n]);
        masks::reduce_below_2m(&mut m_q_mod_p, m_q, 0, p);
        let difference = Zeroizing::new(self.p.sub_mod(m_p, &m_q_mod_p));
        // (m_p − m_q)·(qinv·R)/R = (m_p − m_q)·qinv mod p.
        let mut h = Zeroizing::new(vec![0u64; n]);
        let mut m = Zeroizing::new(vec![0u64; 2 * n]);
        // `m` is the product's scratch until it takes the result.
        mont_mul_by_rows::<K>(
            &mut h,
            &difference,
            &self.qinv_mont,
            p,
            self.p.m_inv_neg(),
            &mut m,
        );
        mul_add_wide(&mut m, &h, q, m_q);
        limbs_to_be_bytes(&m, result);
    }
}

/// Validates a batch with one key per ciphertext and runs it: the half
/// powers of every ciphertext in one engine batch, then each ciphertext's
/// recombination under its own key.
fn run_keyed_batch(
    backend: Option<Backend>,
    keys: &[&RsaCrtKey],
    ciphertexts: &[u8],
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let Some(first) = keys.first() else {
        return Err(Error::EmptyInput);
    };
    // The primes' sizes are public (they are the keys' sizes).
    let prime_bits = first.p.modulus_bits();
    if keys.iter().any(|key| key.p.modulus_bits() != prime_bits) {
        return Err(Error::UnsupportedKeySize);
    }
    let width = first.modulus_len();
    if ciphertexts.len() != keys.len() * width {
        return Err(Error::BadLength);
    }
    // Ciphertexts and n are public: an ordinary comparison (equal widths,
    // so the byte order is the numeric order).
    if ciphertexts
        .chunks_exact(width)
        .zip(keys)
        .any(|(c, key)| c >= key.modulus_be())
    {
        return Err(Error::CiphertextOutOfRange);
    }
    let backend = Backend::resolve(backend)?;
    #[cfg(target_arch = "x86_64")]
    if mulx_serves(backend) {
        return Ok(private_results::<MulxKernel>(backend, keys, ciphertexts));
    }
    Ok(private_results::<WordLoop>(backend, keys, ciphertexts))
}

/// The results of a validated batch: its half powers on `backend`, the
/// residues before them and the recombinations after them on the word
/// kernel `K`.
fn private_results<K: WordKernel>(
    backend: Backend,
    keys: &[&RsaCrtKey],
    ciphertexts: &[u8],
) -> Zeroizing<Vec<u8>> {
    // An assembly kernel's instructions exist here (`mulx_serves`).
    debug_assert!(K::runs_here());
    let width = keys[0].modulus_len();
    let halves = half_powers::<K>(backend, keys, ciphertexts);
    let mut results = Zeroizing::new(vec![0u8; ciphertexts.len()]);
    for ((pair, result), key) in halves
        .chunks_exact(2)
        .zip(results.chunks_exact_mut(width))
        .zip(keys)
    {
        key.recombine::<K>(&pair[0], &pair[1], result);
    }
    results
}

/// `c^dp mod p` and `c^dq mod q` of every ciphertext under its key, in
/// that order (value `2i` is ciphertext `i`'s p half, `2i + 1` its q
/// half), in one batch of the engine, so that both halves (and every key)
/// share the lanes of a group.
fn half_powers<K: WordKernel>(
    backend: Backend,
    keys: &[&RsaCrtKey],
    ciphertexts: &[u8],
) -> Vec<Zeroizing<Vec<u64>>> {
    // c < p·q, below p·R and q·R: one Montgomery reduction each.
    let residue = |prime: &MontContext, c: &[u8]| {
        let mut r = Zeroizing::new(vec![0u64; prime.limbs()]);
        prime.reduce_below_m_r::<K>(c, &mut r);
        r
    };
    let residues: Vec<Zeroizing<Vec<u64>>> = ciphertexts
        .chunks_exact(keys[0].modulus_len())
        .zip(keys)
        .flat_map(|(c, key)| [residue(&key.p, c), residue(&key.q, c)])
        .collect();
    let bases: Vec<&[u64]> = residues.iter().map(|r| r.as_slice()).collect();
    // dp < p and dq < q, of the same (public) bit length for every key,
    // which the trace harness may cut (`mp::trace_cut`).
    let exponent_bits = secret_exponent_bits(keys[0].p.modulus_bits());
    let half = |i: usize| {
        let key = keys[i / 2];
        if i.is_multiple_of(2) {
            (&key.p, &key.dp)
        } else {
            (&key.q, &key.dq)
        }
    };
    let exponents: Vec<&[u64]> = (0..bases.len())
        .map(|i| &half(i).1[..exponent_bits.div_ceil(64)])
        .collect();
    let operands = Operands::Limbs {
        bases: &bases,
        exponents: &exponents,
        exponent_bits,
    };
    run_powers(backend, &|i| half(i).0, operands)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key of `mod.rs`'s tests: p = 1009, q = 1013, e = 65537.
    fn small_key() -> RsaCrtKey {
        RsaCrtKey::new(
            &[0x03, 0xf1],
            &[0x03, 0xf5],
            &[0x02, 0x51],
            &[0x01, 0x49],
            &[0x02, 0xf5],
        )
        .unwrap()
    }

    /// The second key of the mixed batches, of the same size: p = 1019,
    /// q = 1021, e = 65537.
    fn other_small_key() -> RsaCrtKey {
        RsaCrtKey::new(
            &[0x03, 0xfb],
            &[0x03, 0xfd],
            &[0x01, 0xaf],
            &[0x03, 0x7d],
            &[0x01, 0xfe],
        )
        .unwrap()
    }

    /// `c^d mod n` by square-and-multiply on u64 (n < 2^20).
    fn power(c: u64, d: u64, n: u64) -> u64 {
        let (mut result, mut base, mut e) = (1u64, c % n, d);
        while e > 0 {
            if e & 1 == 1 {
                result = result * base % n;
            }
            base = base * base % n;
            e >>= 1;
        }
        result
    }

    /// `c^d mod n` for [`small_key`], d = 65537^{-1} mod lcm(1008, 1012).
    fn reference(c: u64) -> u64 {
        let d = 67_121u64; // 65537·67121 ≡ 1 mod lcm(1008, 1012) = 255024
        assert_eq!(65537 * d % 255_024, 1);
        power(c, d, 1009 * 1013)
    }

    /// `c^d mod n` for [`other_small_key`], d = 65537^{-1} mod
    /// lcm(1018, 1020).
    fn other_reference(c: u64) -> u64 {
        let d = 284_453u64; // 65537·284453 ≡ 1 mod lcm(1018, 1020) = 519180
        assert_eq!(65537 * d % 519_180, 1);
        power(c, d, 1019 * 1021)
    }

    /// The 3-byte big-endian integer of `bytes`.
    fn be24(bytes: &[u8]) -> u64 {
        u64::from(u32::from_be_bytes([0, bytes[0], bytes[1], bytes[2]]))
    }

    #[test]
    fn keys_mixed_in_one_batch_on_every_backend() {
        let (a, b) = (small_key(), other_small_key());
        // 9 ciphertexts alternating between the keys, and one above a's n
        // but below b's (valid for b only).
        let values: [(u32, bool); 10] = [
            (0, true),
            (1, false),
            (2, true),
            (1009 * 1013 - 1, false),
            (123_456, true),
            (999_999, false),
            (31, true),
            (65_536, false),
            (500_000, true),
            (1009 * 1013 + 5, false),
        ];
        let keys: Vec<&RsaCrtKey> = values
            .iter()
            .map(|&(_, first)| if first { &a } else { &b })
            .collect();
        let ciphertexts: Vec<u8> = values
            .iter()
            .flat_map(|(v, _)| v.to_be_bytes()[1..].to_vec())
            .collect();
        for &backend in Backend::ALL {
            if !backend.is_available() {
                continue;
            }
            let results = RsaCrtKey::private_batch_keys_on(backend, &keys, &ciphertexts).unwrap();
            for (&(value, first), result) in values.iter().zip(results.chunks_exact(3)) {
                let expected = if first {
                    reference(value.into())
                } else {
                    other_reference(value.into())
                };
                assert_eq!(be24(result), expected, "{value} on {backend:?}");
            }
        }
    }

    #[test]
    fn bad_mixed_batches_are_refused() {
        let (a, b) = (small_key(), other_small_key());
        // p = 251, q = 241: primes of 8 bits, not 10.
        let smaller = RsaCrtKey::new(&[0xfb], &[0xf1], &[0xdf], &[0x71], &[0x19]).unwrap();
        assert_eq!(
            RsaCrtKey::private_batch_keys(&[], &[]).unwrap_err(),
            Error::EmptyInput
        );
        assert_eq!(
            RsaCrtKey::private_batch_keys(&[&a, &smaller], &[0; 5]).unwrap_err(),
            Error::UnsupportedKeySize
        );
        assert_eq!(
            RsaCrtKey::private_batch_keys(&[&a, &b], &[0; 3]).unwrap_err(),
            Error::BadLength
        );
        // b's n − 1 is at or above a's n: out of range under a.
        let mut batch = vec![0u8; 3];
        batch.extend_from_slice(&(1019u32 * 1021 - 1).to_be_bytes()[1..]);
        assert_eq!(
            RsaCrtKey::private_batch_keys(&[&b, &a], &batch).unwrap_err(),
            Error::CiphertextOutOfRange
        );
        assert!(RsaCrtKey::private_batch_keys(&[&a, &b], &batch).is_ok());
    }

    #[test]
    fn small_key_on_every_backend() {
        let key = small_key();
        // 0, 1, n − 1, multiples of p and of q, and others: 11 values (a
        // partial lane group on the IFMA engine).
        let n = 1009u32 * 1013;
        let values = [
            0u32,
            1,
            2,
            n - 1,
            1009,
            1013 * 7,
            65_536,
            123_456,
            999_999,
            500_000,
            31,
        ];
        let ciphertexts: Vec<u8> = values
            .iter()
            .flat_map(|v| v.to_be_bytes()[1..].to_vec())
            .collect();
        for &backend in Backend::ALL {
            if !backend.is_available() {
                continue;
            }
            let results = key.private_batch_on(backend, &ciphertexts).unwrap();
            for (value, result) in values.iter().zip(results.chunks_exact(3)) {
                assert_eq!(
                    be24(result),
                    reference(u64::from(*value)),
                    "{value} on {backend:?}"
                );
            }
        }
    }

    #[test]
    fn bad_batches_are_refused() {
        let key = small_key();
        assert_eq!(key.private_batch(&[]).unwrap_err(), Error::EmptyInput);
        assert_eq!(key.private_batch(&[0; 4]).unwrap_err(), Error::BadLength);
        let n = key.modulus_be().to_vec();
        assert_eq!(
            key.private_batch(&n).unwrap_err(),
            Error::CiphertextOutOfRange
        );
        let mut batch = vec![0u8; 3];
        batch.extend_from_slice(&[0xff; 3]);
        assert_eq!(
            key.private_batch(&batch).unwrap_err(),
            Error::CiphertextOutOfRange
        );
    }
}
