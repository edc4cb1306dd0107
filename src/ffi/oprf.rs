//! C ABI of the RFC 9497 protocols: a server handle (a key and a mode) and
//! a client batch handle (the blinds of one batch).

use core::any::Any;
use core::ffi::c_int;

use zeroize::Zeroizing;

use super::guard::{
    array_len, catch, catch_or, handle, input, optional_input, out_value, OutBuffer,
};
use super::status::oblivex_status;
use super::suite::{mode_from_c, with_group, Suite};
use crate::group::PrimeOrderGroup;
use crate::oprf::{ClientBatch, KeyPair, Mode, Proof, Server, MAX_INPUT_LEN};
use crate::rng::os_rng;
use crate::Error;

/// An OPRF server: a suite, a mode and a secret key. Immutable: one handle
/// may serve many threads at once. Its key is wiped when it is freed.
pub struct oblivex_oprf_server {
    pub(super) suite: Suite,
    /// A `Server<G>` for the suite's group.
    server: Box<dyn Any + Send + Sync>,
}

/// One client batch: the inputs and their secret blinds, kept between
/// blinding and finalizing. Finalize it once; the blinds are wiped when it
/// is finalized or freed. Not for concurrent use.
pub struct oblivex_oprf_client_batch {
    suite: Suite,
    /// A `ClientBatch<G>`, taken out by finalize.
    batch: Option<Box<dyn Any + Send>>,
}

fn new_server<G: PrimeOrderGroup>(
    suite: Suite,
    mode: Mode,
    key: KeyPair<G>,
) -> oblivex_oprf_server {
    oblivex_oprf_server {
        suite,
        server: Box::new(Server::new(mode, key)),
    }
}

pub(super) fn server_of<G: PrimeOrderGroup>(handle: &oblivex_oprf_server) -> &Server<G> {
    handle
        .server
        .downcast_ref::<Server<G>>()
        .expect("a handle holds a server of its own suite")
}

/// Stores a new server handle in `*out`.
///
/// # Safety
/// `out` is non-NULL and writable (checked by the callers with `out_value`).
unsafe fn emit_server(out: *mut *mut oblivex_oprf_server, server: oblivex_oprf_server) {
    // SAFETY: forwarded from this function's contract.
    unsafe { out.write(Box::into_raw(Box::new(server))) };
}

/// Creates a server of `suite` (an `oblivex_suite`) in `mode` (an
/// `oblivex_oprf_mode`) from an encoded secret key (the suite's
/// SerializeScalar form, `oblivex_suite_scalar_len` bytes).
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_UNKNOWN_SUITE`,
/// `OBLIVEX_ERR_UNKNOWN_MODE`, `OBLIVEX_ERR_INVALID_SCALAR` (wrong length,
/// not canonical, or zero). `*server_out` is set only on success.
///
/// # Safety
/// `secret_key` points to `secret_key_len` readable bytes; `server_out` to a
/// writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_new(
    suite: c_int,
    mode: c_int,
    secret_key: *const u8,
    secret_key_len: usize,
    server_out: *mut *mut oblivex_oprf_server,
) -> oblivex_status {
    catch(|| {
        let (suite, mode) = (Suite::from_c(suite)?, mode_from_c(mode)?);
        // SAFETY: `secret_key` holds `secret_key_len` bytes by the contract.
        let secret_key = unsafe { input(secret_key, secret_key_len) }?;
        let server_out = out_value(server_out)?;
        let server = with_group!(suite, G => new_server::<G>(suite, mode, KeyPair::<G>::from_secret_bytes(secret_key)?));
        // SAFETY: `server_out` is non-NULL and writable by the contract.
        unsafe { emit_server(server_out, server) };
        Ok(())
    })
}

/// Creates a server whose key is RFC 9497 DeriveKeyPair(seed, info) for
/// this suite and mode (the key depends on the mode, as in the RFC).
/// `info` may be NULL when `info_len` is 0.
///
/// Errors: as `oblivex_oprf_server_new`, plus `OBLIVEX_ERR_BAD_LENGTH`
/// (info above 65535 bytes) and `OBLIVEX_ERR_DERIVE_KEY_PAIR`.
///
/// # Safety
/// `seed` points to `seed_len` readable bytes, `info` to `info_len` (or is
/// NULL with 0); `server_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_derive(
    suite: c_int,
    mode: c_int,
    seed: *const u8,
    seed_len: usize,
    info: *const u8,
    info_len: usize,
    server_out: *mut *mut oblivex_oprf_server,
) -> oblivex_status {
    catch(|| {
        let (suite, mode) = (Suite::from_c(suite)?, mode_from_c(mode)?);
        // SAFETY: `seed` holds `seed_len` bytes by the contract.
        let seed = unsafe { input(seed, seed_len) }?;
        // SAFETY: `info` holds `info_len` bytes (or is NULL with 0) by the contract.
        let info = unsafe { optional_input(info, info_len) }?;
        let server_out = out_value(server_out)?;
        let server = with_group!(suite, G => new_server::<G>(suite, mode, KeyPair::<G>::derive(mode, seed, info)?));
        // SAFETY: `server_out` is non-NULL and writable by the contract.
        unsafe { emit_server(server_out, server) };
        Ok(())
    })
}

/// Creates a server with a fresh key from the operating system's random
/// source (`OBLIVEX_ERR_RNG_FAILURE` if it fails).
///
/// # Safety
/// `server_out` points to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_generate(
    suite: c_int,
    mode: c_int,
    server_out: *mut *mut oblivex_oprf_server,
) -> oblivex_status {
    catch(|| {
        let (suite, mode) = (Suite::from_c(suite)?, mode_from_c(mode)?);
        let server_out = out_value(server_out)?;
        let mut rng = os_rng()?;
        let server =
            with_group!(suite, G => new_server::<G>(suite, mode, KeyPair::<G>::generate(&mut rng)));
        // SAFETY: `server_out` is non-NULL and writable by the contract.
        unsafe { emit_server(server_out, server) };
        Ok(())
    })
}

/// Releases a server (its key is wiped first). NULL is ignored.
///
/// # Safety
/// `server` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_free(server: *mut oblivex_oprf_server) {
    catch_or((), || {
        if !server.is_null() {
            // SAFETY: a live handle from `Box::into_raw`; the server's
            // KeyPair wipes its secret on drop.
            drop(unsafe { Box::from_raw(server) });
        }
    })
}

/// Writes the server's public key `k·B` (the suite's element encoding) and
/// its length.
///
/// # Safety
/// `server` is a live handle; `out` points to `out_capacity` writable bytes;
/// `out_written` to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_public_key(
    server: *const oblivex_oprf_server,
    out: *mut u8,
    out_capacity: usize,
    out_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `server` is NULL or live by the contract.
        let server = unsafe { handle(server) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(out, out_capacity, out_written) }?;
        with_group!(server.suite, G => {
            let s = server_of::<G>(server);
            out.fill(G::ELEMENT_LEN, |buf| {
                if buf.len() < G::ELEMENT_LEN {
                    return Err(Error::BufferTooSmall);
                }
                G::encode(s.key().public_key(), &mut buf[..G::ELEMENT_LEN]);
                Ok(G::ELEMENT_LEN)
            })
        })
    })
}

/// Writes the server's secret key (the suite's scalar encoding) and its
/// length, for storing it. Handle the bytes as the secret they are.
///
/// # Safety
/// As `oblivex_oprf_server_public_key`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_secret_key(
    server: *const oblivex_oprf_server,
    out: *mut u8,
    out_capacity: usize,
    out_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `server` is NULL or live by the contract.
        let server = unsafe { handle(server) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(out, out_capacity, out_written) }?;
        with_group!(server.suite, G => {
            let s = server_of::<G>(server);
            out.fill(G::SCALAR_LEN, |buf| {
                if buf.len() < G::SCALAR_LEN {
                    return Err(Error::BufferTooSmall);
                }
                G::encode_scalar(s.key().secret(), &mut buf[..G::SCALAR_LEN]);
                Ok(G::SCALAR_LEN)
            })
        })
    })
}

/// The server's step: evaluates a batch of blinded elements (the
/// concatenation of `count` element encodings, `blinded_len` bytes) with
/// its key, writing the evaluated elements (same length) to `evaluated`; in
/// VOPRF and POPRF mode also one proof for the whole batch
/// (`oblivex_suite_proof_len` bytes) to `proof`. `info` is the POPRF public
/// input (NULL/0 otherwise). In OPRF mode `proof` may be NULL; if given,
/// `*proof_written` is set to 0. Every element is an evaluation the client
/// can use: rate limits count elements, not calls.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BAD_LENGTH` (not a whole number of elements, or info too
/// long), `OBLIVEX_ERR_INVALID_ELEMENT` (any element not canonical, not in
/// the group, or the identity), `OBLIVEX_ERR_BUFFER_TOO_SMALL`,
/// `OBLIVEX_ERR_INVALID_INPUT` (POPRF info gives an unusable key),
/// `OBLIVEX_ERR_RNG_FAILURE` (VOPRF/POPRF proof nonce).
///
/// # Safety
/// `server` is a live handle; each (pointer, length) pair is readable or
/// writable as its role says; `*_written` point to writable `size_t`s.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_blind_evaluate(
    server: *const oblivex_oprf_server,
    blinded: *const u8,
    blinded_len: usize,
    info: *const u8,
    info_len: usize,
    evaluated: *mut u8,
    evaluated_capacity: usize,
    evaluated_written: *mut usize,
    proof: *mut u8,
    proof_capacity: usize,
    proof_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `server` is NULL or live by the contract.
        let server = unsafe { handle(server) }?;
        // SAFETY: `blinded` holds `blinded_len` bytes by the contract.
        let blinded = unsafe { input(blinded, blinded_len) }?;
        // SAFETY: `info` holds `info_len` bytes (or is NULL with 0) by the contract.
        let info = unsafe { optional_input(info, info_len) }?;
        // SAFETY: the evaluated output pointers satisfy `OutBuffer::new`.
        let evaluated =
            unsafe { OutBuffer::new(evaluated, evaluated_capacity, evaluated_written) }?;
        with_group!(server.suite, G => {
            let s = server_of::<G>(server);
            let proof_out = if s.mode().is_verifiable() || !proof.is_null() {
                // SAFETY: the proof output pointers satisfy `OutBuffer::new`.
                Some(unsafe { OutBuffer::new(proof, proof_capacity, proof_written) }?)
            } else {
                None
            };
            let mut elements = Zeroizing::new(vec![0u8; blinded.len()]);
            evaluated.check_fits(blinded.len())?;
            let mut rng = os_rng()?;
            let proof = s.blind_evaluate(blinded, info, &mut elements, &mut rng)?;
            let mut proof_bytes = vec![0u8; proof.as_ref().map_or(0, |_| Proof::<G>::LEN)];
            if let Some(p) = &proof {
                p.encode(&mut proof_bytes);
            }
            if let Some(out) = &proof_out {
                out.check_fits(proof_bytes.len())?;
            }
            evaluated.write(&elements);
            if let Some(out) = proof_out {
                out.write(&proof_bytes);
            }
            Ok(())
        })
    })
}

/// Reads `count` inputs given as pointer and length arrays.
///
/// # Safety
/// `inputs` and `input_lens` point to `count` entries; each input pointer is
/// readable for its length (or NULL with length 0).
pub(super) unsafe fn read_inputs<'a>(
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
) -> Result<Vec<&'a [u8]>, Error> {
    if inputs.is_null() || input_lens.is_null() {
        return Err(Error::NullPointer);
    }
    if count == 0 {
        return Err(Error::EmptyInput);
    }
    if count > u16::MAX as usize {
        return Err(Error::BadLength);
    }
    // SAFETY: `count` entries are readable by the contract; `count` is small.
    let (pointers, lengths) = unsafe {
        (
            core::slice::from_raw_parts(inputs, count),
            core::slice::from_raw_parts(input_lens, count),
        )
    };
    pointers
        .iter()
        .zip(lengths)
        .map(|(&p, &len)| {
            if len > MAX_INPUT_LEN {
                return Err(Error::BadLength);
            }
            // SAFETY: each input is readable for its length by the contract.
            unsafe { optional_input(p, len) }
        })
        .collect()
}

/// The client's first step: blinds `count` inputs (`inputs[i]` of
/// `input_lens[i]` bytes, each at most 65535; an empty input may be NULL)
/// with fresh random blinds, writes the blinded elements (`count` element
/// encodings) to `blinded`, and stores a batch handle holding the blinds in
/// `*batch_out`. VOPRF and POPRF need the server's public key
/// (`public_key`, an element encoding); OPRF takes NULL/0. `info` is the
/// POPRF public input (NULL/0 otherwise).
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_SUITE`, `OBLIVEX_ERR_UNKNOWN_MODE`,
/// `OBLIVEX_ERR_EMPTY_INPUT` (count 0), `OBLIVEX_ERR_BAD_LENGTH` (count or a
/// length too large, info outside POPRF), `OBLIVEX_ERR_INVALID_ELEMENT`
/// (public key), `OBLIVEX_ERR_INVALID_INPUT` (an input hashing to the
/// identity, or an unusable POPRF info), `OBLIVEX_ERR_BUFFER_TOO_SMALL`,
/// `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// The pointer arguments are readable or writable as their lengths say;
/// `blinded_written` and `batch_out` point to writable values.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_client_blind(
    suite: c_int,
    mode: c_int,
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
    info: *const u8,
    info_len: usize,
    public_key: *const u8,
    public_key_len: usize,
    blinded: *mut u8,
    blinded_capacity: usize,
    blinded_written: *mut usize,
    batch_out: *mut *mut oblivex_oprf_client_batch,
) -> oblivex_status {
    catch(|| {
        let (suite, mode) = (Suite::from_c(suite)?, mode_from_c(mode)?);
        // SAFETY: forwarded from this function's contract.
        let inputs = unsafe { read_inputs(inputs, input_lens, count) }?;
        // SAFETY: `info` holds `info_len` bytes (or is NULL with 0).
        let info = unsafe { optional_input(info, info_len) }?;
        // SAFETY: `public_key` holds `public_key_len` bytes (or is NULL with 0).
        let public_key = unsafe { optional_input(public_key, public_key_len) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let blinded = unsafe { OutBuffer::new(blinded, blinded_capacity, blinded_written) }?;
        let batch_out = out_value(batch_out)?;
        let mut rng = os_rng()?;
        let batch = with_group!(suite, G => {
            let public = match mode {
                Mode::Oprf => None,
                _ if public_key.is_empty() => return Err(Error::NullPointer),
                _ => Some(G::decode(public_key)?),
            };
            blinded.check_fits(array_len(inputs.len(), G::ELEMENT_LEN)?)?;
            let batch = ClientBatch::<G>::blind(mode, &inputs, info, public.as_ref(), &mut rng)?;
            blinded.write(batch.blinded_elements());
            oblivex_oprf_client_batch { suite, batch: Some(Box::new(batch)) }
        });
        // SAFETY: `batch_out` is non-NULL and writable by the contract.
        unsafe { batch_out.write(Box::into_raw(Box::new(batch))) };
        Ok(())
    })
}

/// The client's last step: checks the server's answer (`evaluated`, one
/// element encoding per input; in VOPRF/POPRF mode `proof`, checked once
/// for the batch) and writes the PRF outputs, `oblivex_suite_output_len`
/// bytes each in input order, to `outputs`. A batch finalizes once: its
/// blinds are wiped by the first call that gets as far as checking the
/// answer (whatever the outcome: a failed check is never retried with the
/// same blinds); a call refused for a missing or malformed proof or a
/// short output buffer leaves the batch usable. Further calls return
/// `OBLIVEX_ERR_BATCH_USED`. Free the handle afterwards.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER` (also a missing
/// proof in VOPRF/POPRF mode), `OBLIVEX_ERR_BAD_LENGTH` (wrong number of
/// elements or proof length), `OBLIVEX_ERR_INVALID_ELEMENT`,
/// `OBLIVEX_ERR_INVALID_SCALAR` (proof), `OBLIVEX_ERR_VERIFICATION_FAILED`
/// (the proof does not hold: a malicious server), `OBLIVEX_ERR_BUFFER_TOO_SMALL`,
/// `OBLIVEX_ERR_BATCH_USED`.
///
/// # Safety
/// `batch` is a live handle; the pointer arguments are readable or writable
/// as their lengths say; `outputs_written` points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_client_finalize(
    batch: *mut oblivex_oprf_client_batch,
    evaluated: *const u8,
    evaluated_len: usize,
    proof: *const u8,
    proof_len: usize,
    outputs: *mut u8,
    outputs_capacity: usize,
    outputs_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `batch` is NULL or live by the contract; the handle is not
        // shared across threads (documented).
        let batch = unsafe { batch.as_mut() }.ok_or(Error::NullPointer)?;
        // SAFETY: `evaluated` holds `evaluated_len` bytes by the contract.
        let evaluated = unsafe { input(evaluated, evaluated_len) }?;
        // SAFETY: `proof` holds `proof_len` bytes (or is NULL with 0).
        let proof = unsafe { optional_input(proof, proof_len) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let outputs = unsafe { OutBuffer::new(outputs, outputs_capacity, outputs_written) }?;
        with_group!(batch.suite, G => {
            // Checks that need no secret come first, so a wrong buffer or
            // proof length does not spend the batch.
            let peek = batch.batch.as_ref().ok_or(Error::BatchUsed)?;
            let client = peek.downcast_ref::<ClientBatch<G>>().expect("a handle holds a batch of its own suite");
            let proof = if client.mode().is_verifiable() {
                if proof.is_empty() {
                    return Err(Error::NullPointer);
                }
                Some(Proof::<G>::decode(proof)?)
            } else {
                None
            };
            outputs.check_fits(array_len(client.len(), G::HASH_LEN)?)?;
            let inner = batch.batch.take().ok_or(Error::BatchUsed)?;
            let client = inner.downcast::<ClientBatch<G>>().expect("checked above");
            outputs.write_items(&client.finalize(evaluated, proof.as_ref())?);
            Ok(())
        })
    })
}

/// Releases a client batch (wiping its blinds). NULL is ignored.
///
/// # Safety
/// `batch` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_client_batch_free(batch: *mut oblivex_oprf_client_batch) {
    catch_or((), || {
        if !batch.is_null() {
            // SAFETY: a live handle from `Box::into_raw`; the ClientBatch
            // inside wipes its blinds on drop.
            drop(unsafe { Box::from_raw(batch) });
        }
    })
}
