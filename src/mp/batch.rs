//! Batch exponentiation: the public entry points. Every length is validated
//! before any work; `schedule.rs` then runs the batch and the caller's
//! buffer is written only once every result is ready.

use super::backend::Backend;
use super::context::MontContext;
use super::schedule::{run, Operands};
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
    Ok(Operands {
        bases,
        base_len,
        exponents,
        exponent_len,
        count,
    })
}

/// Checks that `out` holds `count` results of `stride` bytes; returns the
/// number of bytes that will be written.
fn output_size(count: usize, stride: usize, out: &[u8]) -> Result<usize, Error> {
    let needed = count.checked_mul(stride).ok_or(Error::BadLength)?;
    if out.len() < needed {
        return Err(Error::BufferTooSmall);
    }
    Ok(needed)
}

impl MontContext {
    /// Computes `base_i ^ exponent_i mod m` for every `i`, on the backend
    /// chosen by `OBLIVEX_BACKEND` (see [`Backend::selected`]).
    ///
    /// `bases` is `count` big-endian bases of `base_len` bytes each (any
    /// value: bases `>= m` are reduced), `exponents` is `count` big-endian
    /// exponents of `exponent_len` bytes each. Both lengths are public and set
    /// the work; the values are secret (constant time). Result `i` is written
    /// to `out[i·L .. (i+1)·L]`, `L = modulus_len()`, big-endian and
    /// left-padded; returns the bytes written (`count·L`). On error nothing
    /// is written.
    pub fn mod_exp_batch(
        &self,
        bases: &[u8],
        base_len: usize,
        exponents: &[u8],
        exponent_len: usize,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        self.mod_exp_batch_with(None, bases, base_len, exponents, exponent_len, out)
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
        out: &mut [u8],
    ) -> Result<usize, Error> {
        self.mod_exp_batch_with(Some(backend), bases, base_len, exponents, exponent_len, out)
    }

    fn mod_exp_batch_with(
        &self,
        backend: Option<Backend>,
        bases: &[u8],
        base_len: usize,
        exponents: &[u8],
        exponent_len: usize,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let operands = operands(bases, base_len, exponents, exponent_len)?;
        let written = output_size(operands.count, self.modulus_len(), out)?;
        let backend = resolve(backend)?;
        run(
            backend,
            &|_| self,
            operands,
            self.modulus_len(),
            &mut out[..written],
        );
        Ok(written)
    }
}

/// Per-value moduli: `base_i ^ exponent_i mod m_i` with `m_i` the modulus of
/// `contexts[i]` (e.g. the p and q halves of several RSA-CRT decryptions in
/// one call), on the backend chosen by `OBLIVEX_BACKEND`.
///
/// Operands as in [`MontContext::mod_exp_batch`], one context per value.
/// Each result takes `result_len` bytes of `out` (big-endian, left-padded),
/// which must be at least the largest modulus length
/// ([`Error::BufferTooSmall`] otherwise). Returns the bytes written
/// (`count·result_len`); on error nothing is written.
pub fn mod_exp_batch_multi(
    contexts: &[&MontContext],
    bases: &[u8],
    base_len: usize,
    exponents: &[u8],
    exponent_len: usize,
    result_len: usize,
    out: &mut [u8],
) -> Result<usize, Error> {
    multi_with(
        None,
        contexts,
        bases,
        base_len,
        exponents,
        exponent_len,
        result_len,
        out,
    )
}

/// [`mod_exp_batch_multi`] on an explicit backend.
#[allow(clippy::too_many_arguments)]
pub fn mod_exp_batch_multi_on(
    backend: Backend,
    contexts: &[&MontContext],
    bases: &[u8],
    base_len: usize,
    exponents: &[u8],
    exponent_len: usize,
    result_len: usize,
    out: &mut [u8],
) -> Result<usize, Error> {
    multi_with(
        Some(backend),
        contexts,
        bases,
        base_len,
        exponents,
        exponent_len,
        result_len,
        out,
    )
}

#[allow(clippy::too_many_arguments)]
fn multi_with(
    backend: Option<Backend>,
    contexts: &[&MontContext],
    bases: &[u8],
    base_len: usize,
    exponents: &[u8],
    exponent_len: usize,
    result_len: usize,
    out: &mut [u8],
) -> Result<usize, Error> {
    let operands = operands(bases, base_len, exponents, exponent_len)?;
    if contexts.len() != operands.count {
        return Err(Error::BadLength);
    }
    if contexts.iter().any(|ctx| ctx.modulus_len() > result_len) {
        return Err(Error::BufferTooSmall);
    }
    let written = output_size(operands.count, result_len, out)?;
    let backend = resolve(backend)?;
    run(
        backend,
        &|i| contexts[i],
        operands,
        result_len,
        &mut out[..written],
    );
    Ok(written)
}

/// The explicit backend if this CPU runs it, else the process-wide choice.
fn resolve(backend: Option<Backend>) -> Result<Backend, Error> {
    match backend {
        None => Backend::selected(),
        Some(b) if b.is_available() => Ok(b),
        Some(_) => Err(Error::UnsupportedBackend),
    }
}
