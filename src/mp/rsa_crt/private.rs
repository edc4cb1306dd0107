//! The batch private operation of an [`RsaCrtKey`]: for each ciphertext
//! `c`, the residues `c mod p` and `c mod q`, the two half exponentiations
//! `c^dp mod p` and `c^dq mod q` (all of them, every ciphertext's two
//! halves, in one engine batch, so both halves share the lanes of a group),
//! and Garner's recombination `h = qinv·(m_p − m_q) mod p`,
//! `m = m_q + h·q`.
//!
//! Constant time in the key and the results: the reductions, the
//! exponentiations and the recombination are the engine's and the limbs'
//! constant-time code; the only branches are on the ciphertexts (public)
//! and their count.

use zeroize::Zeroizing;

use super::RsaCrtKey;
use crate::backend::Backend;
use crate::mp::context::MontContext;
use crate::mp::limbs::convert::limbs_to_be_bytes;
use crate::mp::limbs::masks;
use crate::mp::limbs::montgomery::{mont_mul, mul_add_wide};
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

    fn private_batch_with(
        &self,
        backend: Option<Backend>,
        ciphertexts: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        let width = self.modulus_len();
        if ciphertexts.is_empty() {
            return Err(Error::EmptyInput);
        }
        if !ciphertexts.len().is_multiple_of(width) {
            return Err(Error::BadLength);
        }
        // Ciphertexts and n are public: an ordinary comparison (equal
        // widths, so the byte order is the numeric order).
        if ciphertexts
            .chunks_exact(width)
            .any(|c| c >= self.modulus_be())
        {
            return Err(Error::CiphertextOutOfRange);
        }
        let backend = Backend::resolve(backend)?;
        let halves = self.half_powers(backend, ciphertexts);
        let mut results = Zeroizing::new(vec![0u8; ciphertexts.len()]);
        for (pair, result) in halves.chunks_exact(2).zip(results.chunks_exact_mut(width)) {
            self.recombine(&pair[0], &pair[1], result);
        }
        Ok(results)
    }

    /// `c^dp mod p` and `c^dq mod q` of every ciphertext, in that order
    /// (value `2i` is ciphertext `i`'s p half, `2i + 1` its q half), in one
    /// batch of the engine.
    fn half_powers(&self, backend: Backend, ciphertexts: &[u8]) -> Vec<Zeroizing<Vec<u64>>> {
        // c < p·q, below p·R and q·R: one Montgomery reduction each.
        let residue = |prime: &MontContext, c: &[u8]| {
            let mut r = Zeroizing::new(vec![0u64; prime.limbs()]);
            prime.reduce_below_m_r(c, &mut r);
            r
        };
        let residues: Vec<Zeroizing<Vec<u64>>> = ciphertexts
            .chunks_exact(self.modulus_len())
            .flat_map(|c| [residue(&self.p, c), residue(&self.q, c)])
            .collect();
        let bases: Vec<&[u64]> = residues.iter().map(|r| r.as_slice()).collect();
        // dp < p and dq < q, of the same (public) bit length, which the
        // trace harness may cut (`mp::trace_cut`).
        let exponent_bits = secret_exponent_bits(self.p.modulus_bits());
        let exponents: Vec<&[u64]> = (0..bases.len())
            .map(|i| &(if i % 2 == 0 { &self.dp } else { &self.dq })[..exponent_bits.div_ceil(64)])
            .collect();
        let operands = Operands::Limbs {
            bases: &bases,
            exponents: &exponents,
            exponent_bits,
        };
        run_powers(
            backend,
            &|i| if i % 2 == 0 { &self.p } else { &self.q },
            operands,
        )
    }

    /// Garner's recombination of one ciphertext's halves into `result`
    /// (big-endian, `modulus_len` bytes): `h = qinv·(m_p − m_q) mod p`,
    /// `m = m_q + h·q`, which is below `n`.
    fn recombine(&self, m_p: &[u64], m_q: &[u64], result: &mut [u8]) {
        let (p, q) = (self.p.modulus(), self.q.modulus());
        let n = p.len();
        // m_q < q < 2p (same bit length): one masked subtraction.
        let mut m_q_mod_p = Zeroizing::new(vec![0u64; n]);
        masks::reduce_below_2m(&mut m_q_mod_p, m_q, 0, p);
        let difference = Zeroizing::new(self.p.sub_mod(m_p, &m_q_mod_p));
        // (m_p − m_q)·(qinv·R)/R = (m_p − m_q)·qinv mod p.
        let mut h = Zeroizing::new(vec![0u64; n]);
        mont_mul(&mut h, &difference, &self.qinv_mont, p, self.p.m_inv_neg());
        let mut m = Zeroizing::new(vec![0u64; 2 * n]);
        mul_add_wide(&mut m, &h, q, m_q);
        limbs_to_be_bytes(&m, result);
    }
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

    /// `c^d mod n` by square-and-multiply on u64 (n < 2^20), d = 65537^{-1}
    /// mod lcm(1008, 1012).
    fn reference(c: u64) -> u64 {
        let n = 1009u64 * 1013;
        let d = 67_121u64; // 65537·67121 ≡ 1 mod lcm(1008, 1012) = 255024
        assert_eq!(65537 * d % 255_024, 1);
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
                let got = u32::from_be_bytes([0, result[0], result[1], result[2]]);
                assert_eq!(
                    u64::from(got),
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
