//! Batch exponentiation: the public entry points. Every length is validated
//! before any work; `schedule.rs` then runs the batch and the caller's
//! buffer is written only once every result is ready.

use zeroize::Zeroizing;

use super::backend::Backend;
use super::context::MontContext;
use super::schedule::{run, run_powers, Operands};
use super::MAX_OPERAND_BYTES;
use crate::Error;

/// Validates the operand buffers of a batch.
fn operands<'a>(
    bases: &'a [u8],
    base_len: usize,
    exponents: &'a [u8],
    exponent_len: usize,
) -> Result<Operands<'a>, Error> {
    if base_len == 0 || exponent_len == 0 || bases.is_empty() {
        return Err(Error::EmptyInput);
    }
    if base_len > MAX_OPERAND_BYTES || exponent_len > MAX_OPERAND_BYTES {
        return Err(Error::BadLength);
    }
    let count = bases.len() / base_len;
    if !bases.len().is_multiple_of(base_len) || exponents.len() != count * exponent_len {
        return Err(Error::BadLength);
    }
    Ok(Operands::Bytes {
        bases,
        base_len,
        exponents,
        exponent_len,
        count,
    })
}

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
    /// [`super::MAX_OPERAND_BYTES`] or buffers that are not `count` whole
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
        let operands = operands(bases, base_len, exponents, exponent_len)?;
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
        run(resolve(backend)?, &|_| self, operands, stride, out);
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

/// The width of each result of [`mod_exp_batch_multi`]: the longest
/// modulus among `contexts`.
pub fn multi_result_len(contexts: &[&MontContext]) -> usize {
    contexts
        .iter()
        .map(|ctx| ctx.modulus_len())
        .max()
        .unwrap_or(0)
}

/// Per-value moduli: `base_i ^ exponent_i mod m_i` with `m_i` the modulus of
/// `contexts[i]` (e.g. the p and q halves of several RSA-CRT decryptions in
/// one call), on the backend chosen by `OBLIVEX_BACKEND`.
///
/// Operands as in [`MontContext::mod_exp_batch`], one context per value
/// ([`Error::BadLength`] if the counts differ). Each result takes
/// [`multi_result_len`] bytes (the longest modulus; big-endian,
/// left-padded); the results are wiped on drop.
pub fn mod_exp_batch_multi(
    contexts: &[&MontContext],
    bases: &[u8],
    base_len: usize,
    exponents: &[u8],
    exponent_len: usize,
) -> Result<Zeroizing<Vec<u8>>, Error> {
    multi_collect(None, contexts, bases, base_len, exponents, exponent_len)
}

/// [`mod_exp_batch_multi`] on an explicit backend.
pub fn mod_exp_batch_multi_on(
    backend: Backend,
    contexts: &[&MontContext],
    bases: &[u8],
    base_len: usize,
    exponents: &[u8],
    exponent_len: usize,
) -> Result<Zeroizing<Vec<u8>>, Error> {
    multi_collect(
        Some(backend),
        contexts,
        bases,
        base_len,
        exponents,
        exponent_len,
    )
}

fn multi_collect(
    backend: Option<Backend>,
    contexts: &[&MontContext],
    bases: &[u8],
    base_len: usize,
    exponents: &[u8],
    exponent_len: usize,
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let operands = operands(bases, base_len, exponents, exponent_len)?;
    let len = multi_result_len(contexts) * operands.count();
    let mut out = Zeroizing::new(vec![0u8; len]);
    multi_run_into(backend, contexts, operands, &mut out)?;
    Ok(out)
}

fn multi_run_into(
    backend: Option<Backend>,
    contexts: &[&MontContext],
    operands: Operands<'_>,
    out: &mut [u8],
) -> Result<(), Error> {
    let count = operands.count();
    if contexts.len() != count {
        return Err(Error::BadLength);
    }
    let stride = multi_result_len(contexts);
    if out.len() != stride * count {
        return Err(Error::BadLength);
    }
    run(resolve(backend)?, &|i| contexts[i], operands, stride, out);
    Ok(())
}

/// The explicit backend if this CPU runs it, else the process-wide choice.
fn resolve(backend: Option<Backend>) -> Result<Backend, Error> {
    match backend {
        None => Backend::selected(),
        Some(b) if b.is_available() => Ok(b),
        Some(_) => Err(Error::UnsupportedBackend),
    }
}
