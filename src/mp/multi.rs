//! Batch exponentiation with one modulus per value (the p and q halves of
//! several RSA-CRT decryptions in one call, say): the values are grouped by
//! size into the backend's lanes like any batch, each lane with its own
//! context.

use zeroize::Zeroizing;

use super::context::MontContext;
use super::schedule::{run, Exponents, Operands};
use crate::backend::Backend;
use crate::Error;

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
    multi_collect(
        None,
        Exponents::Secret,
        contexts,
        bases,
        base_len,
        exponents,
        exponent_len,
    )
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
        Exponents::Secret,
        contexts,
        bases,
        base_len,
        exponents,
        exponent_len,
    )
}

/// [`mod_exp_batch_multi`] for **public** exponents, such as RSA public
/// exponents when a private result is checked (`r^e mod n`):
/// square-and-multiply, 16 squarings and one product for `e = 65537`
/// where the constant-time fixed window spends about twice as many.
///
/// Variable time in the exponents: never pass a secret one. Constant time
/// in the bases (which may be secret, like a signature being checked).
/// Operands, results and errors as in [`mod_exp_batch_multi`].
pub fn mod_exp_batch_multi_vartime(
    contexts: &[&MontContext],
    bases: &[u8],
    base_len: usize,
    exponents: &[u8],
    exponent_len: usize,
) -> Result<Zeroizing<Vec<u8>>, Error> {
    multi_collect(
        None,
        Exponents::PublicVartime,
        contexts,
        bases,
        base_len,
        exponents,
        exponent_len,
    )
}

/// [`mod_exp_batch_multi_vartime`] on an explicit backend.
pub fn mod_exp_batch_multi_vartime_on(
    backend: Backend,
    contexts: &[&MontContext],
    bases: &[u8],
    base_len: usize,
    exponents: &[u8],
    exponent_len: usize,
) -> Result<Zeroizing<Vec<u8>>, Error> {
    multi_collect(
        Some(backend),
        Exponents::PublicVartime,
        contexts,
        bases,
        base_len,
        exponents,
        exponent_len,
    )
}

/// What the four entry points share: validates the operands, runs them
/// with `kind`'s exponentiation and returns the results.
fn multi_collect(
    backend: Option<Backend>,
    kind: Exponents,
    contexts: &[&MontContext],
    bases: &[u8],
    base_len: usize,
    exponents: &[u8],
    exponent_len: usize,
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let operands = Operands::from_bytes(bases, base_len, exponents, exponent_len, kind)?;
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
    run(
        Backend::resolve(backend)?,
        &|i| contexts[i],
        operands,
        stride,
        out,
    );
    Ok(())
}
