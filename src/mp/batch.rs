//! Batch exponentiation: the public entry points. Validates every length
//! before any work, groups the values into the backend's lanes (padding the
//! last group internally), and writes the caller's buffer only once every
//! result is ready.

use zeroize::Zeroizing;

use super::backend::Backend;
use super::context::MontContext;
use super::lanes::LaneArith;
use super::limbs::{be_bytes_to_limbs, limbs_for_bytes, limbs_to_be_bytes};
use super::portable::{self, PortableArith};
use super::{MAX_LANES, MAX_OPERAND_BYTES};
use crate::Error;

/// A validated batch: `count` bases of `base_len` bytes and as many exponents
/// of `exponent_len` bytes, all big-endian.
#[derive(Clone, Copy)]
struct Operands<'a> {
    bases: &'a [u8],
    base_len: usize,
    exponents: &'a [u8],
    exponent_len: usize,
    count: usize,
}

impl<'a> Operands<'a> {
    fn new(
        bases: &'a [u8],
        base_len: usize,
        exponents: &'a [u8],
        exponent_len: usize,
    ) -> Result<Self, Error> {
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

    fn base(&self, i: usize) -> &'a [u8] {
        &self.bases[i * self.base_len..(i + 1) * self.base_len]
    }

    fn exponent(&self, i: usize) -> &'a [u8] {
        &self.exponents[i * self.exponent_len..(i + 1) * self.exponent_len]
    }
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
        let operands = Operands::new(bases, base_len, exponents, exponent_len)?;
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
    let operands = Operands::new(bases, base_len, exponents, exponent_len)?;
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

/// Runs a validated batch on `backend`; `out` is exactly `count·stride` bytes.
fn run<'c>(
    backend: Backend,
    context_of: &dyn Fn(usize) -> &'c MontContext,
    operands: Operands<'_>,
    stride: usize,
    out: &mut [u8],
) {
    // Results are gathered here and copied out at the end, so a failure half
    // way (a panic, caught at the C boundary) leaves `out` untouched.
    let mut results = Zeroizing::new(vec![0u8; out.len()]);
    match backend {
        Backend::Portable => {
            run_groups::<PortableArith>(context_of, operands, stride, &mut results)
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Ifma => {
            run_groups::<super::ifma::IfmaArith>(context_of, operands, stride, &mut results)
        }
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Ifma => unreachable!("resolve() refuses backends this CPU cannot run"),
    }
    out.copy_from_slice(&results);
}

/// Splits the batch into groups of `A::LANES` values of one size class (the
/// order of the values is public); the last group of a class is padded with
/// zero-base, zero-exponent lanes whose results are dropped.
fn run_groups<'c, A: LaneArith<'c>>(
    context_of: &dyn Fn(usize) -> &'c MontContext,
    operands: Operands<'_>,
    stride: usize,
    results: &mut [u8],
) {
    let mut order: Vec<usize> = (0..operands.count).collect();
    order.sort_by_key(|&i| A::size_class(context_of(i)));
    let same_class =
        |&a: &usize, &b: &usize| A::size_class(context_of(a)) == A::size_class(context_of(b));
    for class in order.chunk_by(same_class) {
        for group in class.chunks(A::LANES) {
            run_group::<A>(context_of, operands, group, stride, results);
        }
    }
}

/// Exponentiates the values `group` (at most `A::LANES` indices) in one pass
/// of the backend and writes their results into `results`.
fn run_group<'c, A: LaneArith<'c>>(
    context_of: &dyn Fn(usize) -> &'c MontContext,
    operands: Operands<'_>,
    group: &[usize],
    stride: usize,
    results: &mut [u8],
) {
    let lanes = A::LANES;
    assert!(lanes <= MAX_LANES && !group.is_empty() && group.len() <= lanes);
    let exponent_bits = 8 * operands.exponent_len;
    let exponent_limbs = limbs_for_bytes(operands.exponent_len);
    // Padding lanes reuse the first value's context with base 0, exponent 0.
    let contexts: Vec<&MontContext> = (0..lanes)
        .map(|j| context_of(group[j.min(group.len() - 1)]))
        .collect();

    let mut residues: Vec<Zeroizing<Vec<u64>>> = contexts
        .iter()
        .map(|ctx| Zeroizing::new(vec![0u64; ctx.limbs()]))
        .collect();
    let mut exponents: Vec<Zeroizing<Vec<u64>>> = (0..lanes)
        .map(|_| Zeroizing::new(vec![0u64; exponent_limbs]))
        .collect();
    for (j, &i) in group.iter().enumerate() {
        portable::reduce_be_bytes(contexts[j], operands.base(i), &mut residues[j]);
        be_bytes_to_limbs(operands.exponent(i), &mut exponents[j]);
    }

    let mut arith = A::new(&contexts);
    let mut powers: Vec<Zeroizing<Vec<u64>>> = contexts
        .iter()
        .map(|ctx| Zeroizing::new(vec![0u64; ctx.limbs()]))
        .collect();
    {
        let residue_refs: Vec<&[u64]> = residues.iter().map(|r| r.as_slice()).collect();
        let exponent_refs: Vec<&[u64]> = exponents.iter().map(|e| e.as_slice()).collect();
        let mut power_refs: Vec<&mut [u64]> = powers.iter_mut().map(|p| p.as_mut_slice()).collect();
        arith.exp(
            &residue_refs,
            &exponent_refs,
            exponent_bits,
            &mut power_refs,
        );
    }
    for (power, &i) in powers.iter().zip(group) {
        limbs_to_be_bytes(power, &mut results[i * stride..(i + 1) * stride]);
    }
}
