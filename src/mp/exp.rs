//! Batch exponentiation on one modulus: the public entry points of a
//! context (methods of [`MontContext`], written here, above `schedule`, so
//! that the context itself knows no backend). Every length is validated
//! before any work; `schedule` then runs the batch, and the caller's buffer
//! is written only once every result is ready.

use zeroize::Zeroizing;

use super::context::MontContext;
use super::schedule::{run, run_powers, Exponents, Operands};
use crate::backend::Backend;
use crate::Error;

impl MontContext {
    /// Computes `base_i ^ exponent_i mod m` for every `i`, on the backend
    /// chosen by `OBLIVEX_BACKEND` (see [`Backend::selected`]).
    ///
    /// `bases` is `count` big-endian bases of `base_len` bytes each (any
    /// value: bases `>= m` are reduced), `exponents` is `count` big-endian
    /// exponents of `exponent_len` bytes each. Both lengths are public and
    /// set the work; the values are secret (constant time). Returns the
    /// results, result `i` at `[i·L, (i+1)·L)` with `L = modulus_len()`,
    /// big-endian and left-padded, wiped on drop (they may be secret).
    ///
    /// Errors: [`Error::EmptyInput`] for no value or a zero length,
    /// [`Error::BadLength`] for an operand above
    /// [`crate::mp::MAX_OPERAND_BYTES`] or buffers that are not `count` whole
    /// operands, [`Error::UnsupportedBackend`].
    pub fn mod_exp_batch(
        &self,
        bases: &[u8],
        base_len: usize,
        exponents: &[u8],
        exponent_len: usize,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.collect(None, bases, base_len, exponents, exponent_len)
    }

    /// [`MontContext::mod_exp_batch`] on an explicit backend
    /// ([`Error::UnsupportedBackend`] if this CPU cannot run it).
    pub fn mod_exp_batch_on(
        &self,
        backend: Backend,
        bases: &[u8],
        base_len: usize,
        exponents: &[u8],
        exponent_len: usize,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        self.collect(Some(backend), bases, base_len, exponents, exponent_len)
    }

    fn collect(
        &self,
        backend: Option<Backend>,
        bases: &[u8],
        base_len: usize,
        exponents: &[u8],
        exponent_len: usize,
    ) -> Result<Zeroizing<Vec<u8>>, Error> {
        let operands =
            Operands::from_bytes(bases, base_len, exponents, exponent_len, Exponents::Secret)?;
        let len = self.modulus_len() * (bases.len() / base_len);
        let mut out = Zeroizing::new(vec![0u8; len]);
        self.run_into(backend, operands, &mut out)?;
        Ok(out)
    }

    fn run_into(
        &self,
        backend: Option<Backend>,
        operands: Operands<'_>,
        out: &mut [u8],
    ) -> Result<(), Error> {
        let stride = self.modulus_len();
        if out.len() != stride * operands.count() {
            return Err(Error::BadLength);
        }
        run(Backend::resolve(backend)?, &|_| self, operands, stride, out);
        Ok(())
    }

    /// `bases[i] ^ exponents[i] mod m` on residues: `bases[i] < m` with as
    /// many limbs as `m`, `exponents[i]` little-endian limbs of which the
    /// low `exponent_bits` (public) count. No byte conversion on either
    /// side: for the FFDHE group, whose elements are residues.
    pub(crate) fn mod_exp_residues(
        &self,
        bases: &[&[u64]],
        exponents: &[&[u64]],
        exponent_bits: usize,
    ) -> Vec<Zeroizing<Vec<u64>>> {
        debug_assert_eq!(bases.len(), exponents.len());
        debug_assert!(bases.iter().all(|b| b.len() == self.limbs()));
        if bases.is_empty() {
            return Vec::new();
        }
        let operands = Operands::Limbs {
            bases,
            exponents,
            exponent_bits,
        };
        let backend = Backend::selected().expect("a group is used only with a working backend");
        run_powers(backend, &|_| self, operands)
    }
}
