//! C ABI of the batch modular exponentiation (`mp`): a modulus context and
//! the batch calls (one modulus, or one per value; secret or public
//! exponents).

use super::args::item_width;
use super::guard::{array_len, catch, catch_or, input, out_pointer, OutBuffer};
use super::handle::{borrow, borrow_all, create, free, Boxed, Handle};
use super::status::{oblivex_status, CResult};
use zeroize::Zeroizing;

use crate::mp::{mod_exp_batch_multi, mod_exp_batch_multi_vartime, multi_result_len, MontContext};
use crate::Error;

/// A precomputed odd modulus (the role of OpenSSL's `BN_MONT_CTX`): made by
/// `oblivex_mont_ctx_new`, released by `oblivex_mont_ctx_free`. Immutable
/// after creation: one context may be used from many threads at once, and
/// for any number of calls.
pub struct oblivex_mont_ctx {
    _opaque: [u8; 0],
}

impl Handle for oblivex_mont_ctx {
    type RustType = MontContext;
    type Ownership = Boxed;
}

/// Creates the context of an odd modulus `1 <= m < 2^8192`, given as
/// `modulus_len` big-endian bytes at `modulus` (leading zero bytes are
/// ignored). On success stores a new handle in `*ctx_out` (release it with
/// `oblivex_mont_ctx_free`); on error leaves `*ctx_out` untouched.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_ZERO_MODULUS` (also for
/// `modulus_len == 0`), `OBLIVEX_ERR_EVEN_MODULUS`,
/// `OBLIVEX_ERR_MODULUS_TOO_LARGE`.
///
/// # Safety
/// `modulus` points to `modulus_len` readable bytes; `ctx_out` to a writable
/// pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_mont_ctx_new(
    modulus: *const u8,
    modulus_len: usize,
    ctx_out: *mut *mut oblivex_mont_ctx,
) -> oblivex_status {
    catch(|| {
        // SAFETY: forwarded from this function's contract.
        let modulus = unsafe { input(modulus, modulus_len) }?;
        let ctx_out = out_pointer(ctx_out)?;
        let ctx = MontContext::new(modulus)?;
        // SAFETY: `ctx_out` is non-NULL and writable by the contract.
        unsafe { create(ctx_out, ctx) };
        Ok(())
    })
}

/// Length in bytes of the context's modulus (without leading zeros): the
/// size of every result it produces. Returns 0 for NULL.
///
/// # Safety
/// `ctx` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn oblivex_mont_ctx_modulus_len(ctx: *const oblivex_mont_ctx) -> usize {
    catch_or(0, || {
        // SAFETY: `ctx` is NULL or live by the contract.
        unsafe { borrow(ctx) }.map_or(0, MontContext::modulus_len)
    })
}

/// Releases a context (its memory is wiped first). NULL is ignored.
///
/// # Safety
/// `ctx` is NULL or a live handle, not used afterwards (by any thread).
#[no_mangle]
pub unsafe extern "C" fn oblivex_mont_ctx_free(ctx: *mut oblivex_mont_ctx) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free(ctx) }
}

/// The operands of a batch: `count` bases and `count` exponents, each
/// array split into equal widths.
struct Operands<'a> {
    bases: &'a [u8],
    base_len: usize,
    exponents: &'a [u8],
    exponent_len: usize,
}

impl<'a> Operands<'a> {
    /// # Safety
    /// `bases` and `exponents` point to `bases_len` and `exponents_len`
    /// readable bytes that outlive `'a`.
    unsafe fn read(
        bases: *const u8,
        bases_len: usize,
        exponents: *const u8,
        exponents_len: usize,
        count: usize,
    ) -> CResult<Self> {
        // SAFETY: forwarded from this function's contract.
        let (bases, exponents) =
            unsafe { (input(bases, bases_len)?, input(exponents, exponents_len)?) };
        Ok(Operands {
            bases,
            base_len: item_width(bases_len, count)?,
            exponents,
            exponent_len: item_width(exponents_len, count)?,
        })
    }
}

/// Constant-time batch exponentiation under one modulus:
/// `results[i] = bases[i] ^ exponents[i] mod m` for `i < count`.
///
/// `bases` is `count` big-endian bases of equal width (`bases_len / count`
/// bytes each, any value: bases `>= m` are reduced); `exponents` is `count`
/// big-endian exponents of equal width (`exponents_len / count` bytes). The
/// widths are public and set the work, as in OpenSSL's
/// `BN_mod_exp_mont_consttime` (leading zero bytes are processed); the
/// values are secret. Result `i` is written big-endian and left-padded to
/// `L = oblivex_mont_ctx_modulus_len(ctx)` bytes at `results + i·L`;
/// `*results_written` receives `count·L`. Semantics follow `BN_mod_exp`:
/// exponent 0 gives 1 (0 when m = 1), base 0 gives 0.
///
/// Errors (nothing is written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_EMPTY_INPUT` (`count` or a length is 0),
/// `OBLIVEX_ERR_BAD_LENGTH` (a length not a multiple of `count`, an operand
/// longer than `OBLIVEX_MAX_OPERAND_BYTES`), `OBLIVEX_ERR_BUFFER_TOO_SMALL`
/// (`results_capacity < count·L`), `OBLIVEX_ERR_UNSUPPORTED_BACKEND`.
///
/// # Safety
/// `ctx` is a live handle; `bases`, `exponents` point to `bases_len` and
/// `exponents_len` readable bytes; `results` to `results_capacity`
/// writable bytes; `results_written` to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_mod_exp_batch(
    ctx: *const oblivex_mont_ctx,
    bases: *const u8,
    bases_len: usize,
    exponents: *const u8,
    exponents_len: usize,
    count: usize,
    results: *mut u8,
    results_capacity: usize,
    results_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `ctx` is NULL or live by the contract.
        let ctx = unsafe { borrow(ctx) }?;
        // SAFETY: the input pointers hold their lengths by the contract.
        let ops = unsafe { Operands::read(bases, bases_len, exponents, exponents_len, count) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let results = unsafe { OutBuffer::new(results, results_capacity, results_written) }?;
        results.check_fits(array_len(count, ctx.modulus_len())?)?;
        let powers = ctx.mod_exp_batch(ops.bases, ops.base_len, ops.exponents, ops.exponent_len)?;
        results.put(&powers)
    })
}

/// Constant-time batch exponentiation with one modulus per value:
/// `results[i] = bases[i] ^ exponents[i] mod m_i`, `m_i` the modulus of
/// `ctxs[i]` (e.g. the p and q halves of several RSA-CRT decryptions in one
/// call). Operands as in `oblivex_mod_exp_batch`. Every result is as long
/// as the longest modulus among `ctxs` (`L`), big-endian and left-padded,
/// at `results + i·L`; `*results_written` receives `count·L`.
///
/// Errors (nothing is written): as `oblivex_mod_exp_batch`, with
/// `OBLIVEX_ERR_NULL_POINTER` also for a NULL entry of `ctxs`.
///
/// # Safety
/// `ctxs` points to `count` handle pointers, each NULL or live; the other
/// pointers as in `oblivex_mod_exp_batch`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_mod_exp_batch_multi(
    ctxs: *const *const oblivex_mont_ctx,
    bases: *const u8,
    bases_len: usize,
    exponents: *const u8,
    exponents_len: usize,
    count: usize,
    results: *mut u8,
    results_capacity: usize,
    results_written: *mut usize,
) -> oblivex_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        multi_call(
            mod_exp_batch_multi,
            ctxs,
            (bases, bases_len),
            (exponents, exponents_len),
            count,
            (results, results_capacity, results_written),
        )
    }
}

/// `oblivex_mod_exp_batch_multi` for **public** exponents, such as RSA
/// public exponents when a private result is checked (`r^e mod n`):
/// square-and-multiply, 16 squarings and one product for `e = 65537`,
/// about half the work of the constant-time call.
///
/// Variable time in the exponents: never pass a secret one. Constant time
/// in the bases (which may be secret, like a signature being checked).
/// Operands and results as in `oblivex_mod_exp_batch_multi`.
///
/// Errors (nothing is written): those of `oblivex_mod_exp_batch_multi`.
///
/// # Safety
/// As `oblivex_mod_exp_batch_multi`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_mod_exp_batch_multi_vartime(
    ctxs: *const *const oblivex_mont_ctx,
    bases: *const u8,
    bases_len: usize,
    exponents: *const u8,
    exponents_len: usize,
    count: usize,
    results: *mut u8,
    results_capacity: usize,
    results_written: *mut usize,
) -> oblivex_status {
    // SAFETY: forwarded from this function's contract.
    unsafe {
        multi_call(
            mod_exp_batch_multi_vartime,
            ctxs,
            (bases, bases_len),
            (exponents, exponents_len),
            count,
            (results, results_capacity, results_written),
        )
    }
}

/// The Rust side of a per-value-modulus call: contexts, bases and their
/// length, exponents and their length.
type MultiExp =
    fn(&[&MontContext], &[u8], usize, &[u8], usize) -> Result<Zeroizing<Vec<u8>>, Error>;

/// The body both per-value-modulus calls share: reads and checks the
/// arguments, runs `exp`, writes the results (or nothing on an error).
///
/// # Safety
/// The contract of `oblivex_mod_exp_batch_multi`.
unsafe fn multi_call(
    exp: MultiExp,
    ctxs: *const *const oblivex_mont_ctx,
    (bases, bases_len): (*const u8, usize),
    (exponents, exponents_len): (*const u8, usize),
    count: usize,
    (results, results_capacity, results_written): (*mut u8, usize, *mut usize),
) -> oblivex_status {
    catch(|| {
        // SAFETY: `ctxs` holds `count` handle pointers by the contract.
        let contexts: Vec<&MontContext> = unsafe { borrow_all(ctxs, count) }?;
        // SAFETY: the input pointers hold their lengths by the contract.
        let ops = unsafe { Operands::read(bases, bases_len, exponents, exponents_len, count) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let results = unsafe { OutBuffer::new(results, results_capacity, results_written) }?;
        results.check_fits(array_len(count, multi_result_len(&contexts))?)?;
        let powers = exp(
            &contexts,
            ops.bases,
            ops.base_len,
            ops.exponents,
            ops.exponent_len,
        )?;
        results.put(&powers)
    })
}
