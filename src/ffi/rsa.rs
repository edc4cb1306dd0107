//! C ABI of the RSA private key in CRT form (`mp::RsaCrtKey`): the key
//! handle and the batch private operation.

use super::guard::{array_len, catch, catch_or, input, out_pointer, OutBuffer};
use super::handle::{borrow, borrow_all, create, free, Boxed, Handle};
use super::status::{oblivex_status, OBLIVEX_ERR_BAD_LENGTH};
use crate::mp::RsaCrtKey;
use crate::Error;

/// An RSA private key in CRT form with its constants precomputed: made by
/// `oblivex_rsa_crt_key_new`, released by `oblivex_rsa_crt_key_free`
/// (which wipes it). Immutable after creation: one key may be used from
/// many threads at once.
pub struct oblivex_rsa_crt_key {
    _opaque: [u8; 0],
}

impl Handle for oblivex_rsa_crt_key {
    type RustType = RsaCrtKey;
    type Ownership = Boxed;
}

/// Creates an RSA private key from its CRT parameters, each big-endian
/// (leading zero bytes allowed), as in PKCS #1 `RSAPrivateKey`: the primes
/// `p` and `q`, the exponents `dp = d mod (p-1)` and `dq = d mod (q-1)`,
/// the coefficient `qinv = q^-1 mod p`. On success stores a new handle in
/// `*key_out` (release it with `oblivex_rsa_crt_key_free`); on error
/// leaves `*key_out` untouched. The primality of `p` and `q` is not
/// checked.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_ZERO_MODULUS` or
/// `OBLIVEX_ERR_EVEN_MODULUS` (a zero or even prime),
/// `OBLIVEX_ERR_UNSUPPORTED_KEY_SIZE` (`p` and `q` of different bit
/// lengths, or outside 2..4096 bits), `OBLIVEX_ERR_EQUAL_PRIMES`,
/// `OBLIVEX_ERR_INVALID_CRT_EXPONENT` (`dp` or `dq` even or not below its
/// prime), `OBLIVEX_ERR_INVALID_CRT_COEFFICIENT` (`qinv` not below `p` or
/// `qinv·q mod p != 1`), `OBLIVEX_ERR_BAD_LENGTH` (a parameter longer than
/// `OBLIVEX_MAX_OPERAND_BYTES`).
///
/// # Safety
/// Each parameter pointer points to its length in readable bytes;
/// `key_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_rsa_crt_key_new(
    p: *const u8,
    p_len: usize,
    q: *const u8,
    q_len: usize,
    dp: *const u8,
    dp_len: usize,
    dq: *const u8,
    dq_len: usize,
    qinv: *const u8,
    qinv_len: usize,
    key_out: *mut *mut oblivex_rsa_crt_key,
) -> oblivex_status {
    catch(|| {
        // SAFETY: forwarded from this function's contract.
        let (p, q, dp, dq, qinv) = unsafe {
            (
                input(p, p_len)?,
                input(q, q_len)?,
                input(dp, dp_len)?,
                input(dq, dq_len)?,
                input(qinv, qinv_len)?,
            )
        };
        let key_out = out_pointer(key_out)?;
        let key = RsaCrtKey::new(p, q, dp, dq, qinv)?;
        // SAFETY: `key_out` is non-NULL and writable by the contract.
        unsafe { create(key_out, key) };
        Ok(())
    })
}

/// Length in bytes of the key's modulus `n` (without leading zeros): the
/// width of every ciphertext and result. Returns 0 for NULL.
///
/// # Safety
/// `key` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn oblivex_rsa_crt_key_modulus_len(key: *const oblivex_rsa_crt_key) -> usize {
    catch_or(0, || {
        // SAFETY: `key` is NULL or live by the contract.
        unsafe { borrow(key) }.map_or(0, RsaCrtKey::modulus_len)
    })
}

/// Releases a key (its memory is wiped first). NULL is ignored.
///
/// # Safety
/// `key` is NULL or a live handle, not used afterwards (by any thread).
#[no_mangle]
pub unsafe extern "C" fn oblivex_rsa_crt_key_free(key: *mut oblivex_rsa_crt_key) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free(key) }
}

/// The raw RSA private operation `results[i] = ciphertexts[i]^d mod n` for
/// `i < count`, with the CRT (both halves of every ciphertext in one batch
/// of the engine, Garner's recombination in oblivex's own arithmetic),
/// constant time in the key and the results.
///
/// `ciphertexts` is `count` big-endian integers of exactly `L =
/// oblivex_rsa_crt_key_modulus_len(key)` bytes each, each below `n` (for a
/// signature, the encoded message). Result `i` is written big-endian in `L`
/// bytes at `results + i·L`; `*results_written` receives `count·L`.
///
/// Errors (nothing is written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_EMPTY_INPUT` (`count` is 0), `OBLIVEX_ERR_BAD_LENGTH`
/// (`ciphertexts_len != count·L`), `OBLIVEX_ERR_CIPHERTEXT_OUT_OF_RANGE`
/// (a ciphertext `>= n`), `OBLIVEX_ERR_BUFFER_TOO_SMALL`
/// (`results_capacity < count·L`), `OBLIVEX_ERR_UNSUPPORTED_BACKEND`.
///
/// # Safety
/// `key` is a live handle; `ciphertexts` points to `ciphertexts_len`
/// readable bytes; `results` to `results_capacity` writable bytes;
/// `results_written` to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_rsa_private_batch(
    key: *const oblivex_rsa_crt_key,
    ciphertexts: *const u8,
    ciphertexts_len: usize,
    count: usize,
    results: *mut u8,
    results_capacity: usize,
    results_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `key` is NULL or live by the contract.
        let key = unsafe { borrow(key) }?;
        // SAFETY: `ciphertexts` holds `ciphertexts_len` bytes by the contract.
        let ciphertexts = unsafe { input(ciphertexts, ciphertexts_len) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let results = unsafe { OutBuffer::new(results, results_capacity, results_written) }?;
        if count == 0 {
            return Err(Error::EmptyInput.into());
        }
        if ciphertexts_len != array_len(count, key.modulus_len())? {
            return Err(OBLIVEX_ERR_BAD_LENGTH);
        }
        results.check_fits(ciphertexts_len)?;
        let plaintexts = key.private_batch(ciphertexts)?;
        results.put(&plaintexts)
    })
}

/// The raw RSA private operation with one key per ciphertext:
/// `results[i] = ciphertexts[i]^d_i mod n_i` for `i < count`, where
/// `keys[i]` holds `d_i` and `n_i`. Callers of different keys (a server
/// with several certificates) thus share one batch of the engine. As
/// `oblivex_rsa_private_batch` in every other respect.
///
/// Every key's primes have the same bit length, so every key has the same
/// `L = oblivex_rsa_crt_key_modulus_len(keys[i])`: `ciphertexts` is `count`
/// big-endian integers of `L` bytes, ciphertext `i` below `n_i`; result `i`
/// is written big-endian in `L` bytes at `results + i·L`, and
/// `*results_written` receives `count·L`.
///
/// Errors (nothing is written): those of `oblivex_rsa_private_batch`
/// (`OBLIVEX_ERR_NULL_POINTER` also for a NULL key), and
/// `OBLIVEX_ERR_UNSUPPORTED_KEY_SIZE` for keys whose primes differ in bit
/// length.
///
/// # Safety
/// `keys` points to `count` handle pointers, each NULL or live; the other
/// pointers as in `oblivex_rsa_private_batch`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_rsa_private_batch_keys(
    keys: *const *const oblivex_rsa_crt_key,
    ciphertexts: *const u8,
    ciphertexts_len: usize,
    count: usize,
    results: *mut u8,
    results_capacity: usize,
    results_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        if count == 0 {
            return Err(Error::EmptyInput.into());
        }
        // SAFETY: `keys` holds `count` handle pointers by the contract.
        let keys = unsafe { borrow_all(keys, count) }?;
        // SAFETY: `ciphertexts` holds `ciphertexts_len` bytes by the contract.
        let ciphertexts = unsafe { input(ciphertexts, ciphertexts_len) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let results = unsafe { OutBuffer::new(results, results_capacity, results_written) }?;
        results.check_fits(ciphertexts_len)?;
        let plaintexts = RsaCrtKey::private_batch_keys(&keys, ciphertexts)?;
        results.put(&plaintexts)
    })
}
