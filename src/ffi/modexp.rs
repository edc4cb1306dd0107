//! C ABI of the batch modular exponentiation (`mp`).

use super::guard::{array_len, catch, catch_or, handle, input, out_value, OutBuffer};
use super::status::oblivex_status;
use crate::mp::{mod_exp_batch_multi, MontContext};
use crate::Error;

/// A precomputed odd modulus (like OpenSSL's `BN_MONT_CTX`): made by
/// `oblivex_mont_ctx_new`, released by `oblivex_mont_ctx_free`. Immutable
/// after creation: one context may be used from many threads at once.
pub struct oblivex_mont_ctx {
    ctx: MontContext,
}

/// Creates the context of an odd modulus `1 <= m < 2^8192`, given as
/// `modulus_len` big-endian bytes at `modulus` (leading zero bytes are
/// ignored). On success stores a new handle in `*ctx_out`; on error leaves
/// `*ctx_out` untouched.
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
        let ctx_out = out_value(ctx_out)?;
        let ctx = MontContext::new(modulus)?;
        let handle = Box::into_raw(Box::new(oblivex_mont_ctx { ctx }));
        // SAFETY: `ctx_out` is non-NULL and writable by this function's contract.
        unsafe { ctx_out.write(handle) };
        Ok(())
    })
}

/// Releases a context (its memory is wiped first). NULL is accepted and
/// ignored.
///
/// # Safety
/// `ctx` is NULL or a handle from `oblivex_mont_ctx_new` not yet freed; it
/// must not be used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_mont_ctx_free(ctx: *mut oblivex_mont_ctx) {
    catch_or((), || {
        if !ctx.is_null() {
            // SAFETY: a live handle made by `Box::into_raw` in
            // `oblivex_mont_ctx_new`; dropping it runs the zeroizing Drop.
            drop(unsafe { Box::from_raw(ctx) });
        }
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
        // SAFETY: `ctx` is NULL or live by this function's contract.
        unsafe { handle(ctx) }.map_or(0, |h| h.ctx.modulus_len())
    })
}

/// Constant-time batch exponentiation under one modulus:
/// `out[i] = bases[i] ^ exponents[i] mod m` for `i < count`.
///
/// `bases` holds `count` big-endian bases of `base_len` bytes each (any value;
/// bases `>= m` are reduced); `exponents` holds `count` big-endian exponents
/// of `exponent_len` bytes each (every exponent its own). The lengths are
/// public and set the work, as in OpenSSL's `BN_mod_exp_mont_consttime`
/// (leading zero bytes are processed); the values are secret. Result `i` is
/// written big-endian and left-padded to `L = oblivex_mont_ctx_modulus_len(ctx)`
/// bytes at `out + i·L`; `*out_written` receives `count·L`. Semantics follow
/// `BN_mod_exp`: exponent 0 gives 1 (0 when m = 1), base 0 gives 0.
///
/// Errors (nothing is written on any error): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_EMPTY_INPUT` (`count`, `base_len` or `exponent_len` is 0),
/// `OBLIVEX_ERR_BAD_LENGTH` (an operand longer than 2048 bytes, or sizes that
/// overflow), `OBLIVEX_ERR_BUFFER_TOO_SMALL` (`out_capacity < count·L`),
/// `OBLIVEX_ERR_UNSUPPORTED_BACKEND`.
///
/// # Safety
/// `ctx` is a live handle; `bases` and `exponents` point to `count·base_len`
/// and `count·exponent_len` readable bytes; `out` to `out_capacity` writable
/// bytes; `out_written` to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_mod_exp_batch(
    ctx: *const oblivex_mont_ctx,
    bases: *const u8,
    base_len: usize,
    exponents: *const u8,
    exponent_len: usize,
    count: usize,
    out: *mut u8,
    out_capacity: usize,
    out_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `ctx` is NULL or live by this function's contract.
        let ctx = unsafe { handle(ctx) }?;
        // SAFETY: `bases` holds count·base_len readable bytes by the contract.
        let bases = unsafe { input(bases, array_len(count, base_len)?) }?;
        // SAFETY: `exponents` holds count·exponent_len readable bytes by the contract.
        let exponents = unsafe { input(exponents, array_len(count, exponent_len)?) }?;
        // SAFETY: `out` holds `out_capacity` writable bytes and `out_written`
        // is a writable size_t by the contract.
        let out = unsafe { OutBuffer::new(out, out_capacity, out_written) }?;
        if count == 0 {
            return Err(Error::EmptyInput);
        }
        out.fill(array_len(count, ctx.ctx.modulus_len())?, |results| {
            ctx.ctx
                .mod_exp_batch(bases, base_len, exponents, exponent_len, results)
        })
    })
}

/// Constant-time batch exponentiation with one modulus per value:
/// `out[i] = bases[i] ^ exponents[i] mod m_i`, `m_i` the modulus of
/// `ctxs[i]` (e.g. the p and q halves of several RSA-CRT decryptions in one
/// call). Operands as in `oblivex_mod_exp_batch`. Each result takes
/// `result_len` bytes (big-endian, left-padded) at `out + i·result_len`;
/// `result_len` must be at least the longest modulus length.
/// `*out_written` receives `count·result_len`.
///
/// Errors (nothing is written on any error): as `oblivex_mod_exp_batch`, plus
/// `OBLIVEX_ERR_NULL_POINTER` for a NULL entry of `ctxs` and
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL` when `result_len` is shorter than a modulus.
///
/// # Safety
/// `ctxs` points to `count` handle pointers, each NULL or live; the other
/// pointers as in `oblivex_mod_exp_batch`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_mod_exp_batch_multi(
    ctxs: *const *const oblivex_mont_ctx,
    bases: *const u8,
    base_len: usize,
    exponents: *const u8,
    exponent_len: usize,
    count: usize,
    result_len: usize,
    out: *mut u8,
    out_capacity: usize,
    out_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        if ctxs.is_null() {
            return Err(Error::NullPointer);
        }
        if count > isize::MAX as usize / core::mem::size_of::<*const oblivex_mont_ctx>() {
            return Err(Error::BadLength);
        }
        // SAFETY: non-NULL, `count` pointers readable by this function's
        // contract, and the byte size fits `isize` (checked above).
        let handles = unsafe { core::slice::from_raw_parts(ctxs, count) };
        let contexts = handles
            .iter()
            // SAFETY: each entry is NULL or a live handle by the contract.
            .map(|&h| unsafe { handle(h) }.map(|h| &h.ctx))
            .collect::<Result<Vec<&MontContext>, Error>>()?;
        // SAFETY: `bases` holds count·base_len readable bytes by the contract.
        let bases = unsafe { input(bases, array_len(count, base_len)?) }?;
        // SAFETY: `exponents` holds count·exponent_len readable bytes by the contract.
        let exponents = unsafe { input(exponents, array_len(count, exponent_len)?) }?;
        // SAFETY: `out` holds `out_capacity` writable bytes and `out_written`
        // is a writable size_t by the contract.
        let out = unsafe { OutBuffer::new(out, out_capacity, out_written) }?;
        if count == 0 {
            return Err(Error::EmptyInput);
        }
        out.fill(array_len(count, result_len)?, |results| {
            mod_exp_batch_multi(
                &contexts,
                bases,
                base_len,
                exponents,
                exponent_len,
                result_len,
                results,
            )
        })
    })
}
