//! C ABI of the batch OPRF secure against a malicious server (the balancer
//! check of `oblivious/`): the client blinds a batch into a request one
//! element longer, any server evaluates it with `oblivex_oprf_server_evaluate`,
//! and the client verifies and finalizes. No proof crosses the wire.

use core::any::Any;
use core::ffi::c_int;

use zeroize::Zeroizing;

use super::guard::{array_len, catch, catch_or, handle, input, out_value, OutBuffer};
use super::oprf::{oblivex_oprf_server, read_inputs, server_of};
use super::status::oblivex_status;
use super::suite::{with_group, Suite};
use crate::group::PrimeOrderGroup;
use crate::oblivious::{request_len, Check, Kappa};
use crate::oprf::CheckedClientBatch;
use crate::rng::os_rng;
use crate::Error;

/// Which relation the client hides in its request (pass it as `int`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum oblivex_check {
    /// Every answer must use the key of the server's public key (the
    /// default; `verify_finalize` needs that key).
    OBLIVEX_CHECK_COMMITTED_KEY = 1,
    /// One key, whichever, for the whole batch; needs no public key but
    /// proves less (a server may use another key throughout), and pads
    /// batches of fewer than 256/kappa inputs.
    OBLIVEX_CHECK_KEY_FREE = 2,
}

fn check_from_c(check: c_int) -> Result<Check, Error> {
    use oblivex_check::*;
    match check {
        c if c == OBLIVEX_CHECK_COMMITTED_KEY as c_int => Ok(Check::CommittedKey),
        c if c == OBLIVEX_CHECK_KEY_FREE as c_int => Ok(Check::KeyFree),
        _ => Err(Error::UnknownCheck),
    }
}

/// κ from C: 0 means the default (64).
pub(super) fn kappa_from_c(kappa: u32) -> Result<Kappa, Error> {
    if kappa == 0 {
        Ok(Kappa::DEFAULT)
    } else {
        Kappa::new(kappa)
    }
}

/// One checked client batch: the inputs, their blinds and the check's
/// secret coins, kept between blinding and verifying. Verify it once; the
/// secrets are wiped when it is verified or freed. Not for concurrent use.
pub struct oblivex_checked_oprf_client {
    suite: Suite,
    /// A `CheckedClientBatch<G>`, taken out by verify-finalize.
    batch: Option<Box<dyn Any + Send>>,
}

/// The number of elements a checked request for `count` inputs holds (the
/// inputs, the balancer, and for the key-free check random padding until
/// the secret factors reach 256 bits: `(elements - 1) * kappa >= 256`):
/// size the request buffer as this times `oblivex_suite_element_len`. 0 for
/// an unknown check, an invalid `kappa` or `count` 0.
#[no_mangle]
pub extern "C" fn oblivex_checked_oprf_request_len(
    check: c_int,
    kappa: u32,
    count: usize,
) -> usize {
    catch_or(0, || match (check_from_c(check), kappa_from_c(kappa)) {
        (Ok(check), Ok(kappa)) if count > 0 => request_len(check, kappa, count),
        _ => 0,
    })
}

/// The client's first step: hashes and blinds `count` inputs
/// (`inputs[i]` of `input_lens[i]` bytes, at most 65535 each; an empty
/// input may be NULL), hides the balancer among them (and padding, for the
/// key-free check) and writes the request (`oblivex_checked_oprf_request_len`
/// element encodings) to `request`; stores the client handle in
/// `*client_out`. `check` is an `oblivex_check`; `kappa` the bit length of
/// the verification factors, 32..128 (0: the default, 64; a cheating server
/// passes with probability at most 2^-kappa).
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_SUITE`, `OBLIVEX_ERR_UNKNOWN_CHECK`,
/// `OBLIVEX_ERR_INVALID_KAPPA`, `OBLIVEX_ERR_EMPTY_INPUT`,
/// `OBLIVEX_ERR_BAD_LENGTH` (count or an input too long),
/// `OBLIVEX_ERR_INVALID_INPUT` (an input hashing to the identity),
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`, `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// The pointer arguments are readable or writable as their lengths say;
/// `request_written` and `client_out` point to writable values.
#[no_mangle]
pub unsafe extern "C" fn oblivex_checked_oprf_client_blind(
    suite: c_int,
    check: c_int,
    kappa: u32,
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
    request: *mut u8,
    request_capacity: usize,
    request_written: *mut usize,
    client_out: *mut *mut oblivex_checked_oprf_client,
) -> oblivex_status {
    catch(|| {
        let suite = Suite::from_c(suite)?;
        let (check, kappa) = (check_from_c(check)?, kappa_from_c(kappa)?);
        // SAFETY: forwarded from this function's contract.
        let inputs = unsafe { read_inputs(inputs, input_lens, count) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let request = unsafe { OutBuffer::new(request, request_capacity, request_written) }?;
        let client_out = out_value(client_out)?;
        let mut rng = os_rng()?;
        let client = with_group!(suite, G => {
            let elements = request_len(check, kappa, inputs.len());
            request.check_fits(array_len(elements, G::ELEMENT_LEN)?)?;
            let batch = CheckedClientBatch::<G>::blind(&inputs, check, kappa, &mut rng)?;
            request.write(batch.blinded_elements());
            oblivex_checked_oprf_client { suite, batch: Some(Box::new(batch)) }
        });
        // SAFETY: `client_out` is non-NULL and writable by the contract.
        unsafe { client_out.write(Box::into_raw(Box::new(client))) };
        Ok(())
    })
}

/// The client's last step: checks the server's answer to the request
/// (`response`, one element encoding per request element) and writes the
/// PRF outputs of the inputs, `oblivex_suite_output_len` bytes each in
/// input order, to `outputs` — all of them or none. The committed-key check
/// needs the server's public key (`public_key`, an element encoding); the
/// key-free check ignores it (NULL/0 allowed). A client verifies once: the
/// first call that gets as far as checking the answer spends it, whatever
/// the outcome (never retry a failed batch with the same secrets: blind
/// again, and stop using a server that failed); a call refused for a
/// missing key or a short output buffer leaves it usable. Further calls
/// return `OBLIVEX_ERR_BATCH_USED`.
///
/// Errors (nothing written): `OBLIVEX_ERR_VERIFICATION_FAILED` (the server
/// did not apply its key to every element: a malicious or broken server),
/// `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_MISSING_PUBLIC_KEY`,
/// `OBLIVEX_ERR_BAD_LENGTH` (not one answer per request element),
/// `OBLIVEX_ERR_INVALID_ELEMENT` (an answer or the public key),
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`, `OBLIVEX_ERR_BATCH_USED`.
///
/// # Safety
/// `client` is a live handle; the pointer arguments are readable or
/// writable as their lengths say; `outputs_written` points to a writable
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_checked_oprf_client_verify_finalize(
    client: *mut oblivex_checked_oprf_client,
    response: *const u8,
    response_len: usize,
    public_key: *const u8,
    public_key_len: usize,
    outputs: *mut u8,
    outputs_capacity: usize,
    outputs_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `client` is NULL or live by the contract; the handle is
        // not shared across threads (documented).
        let client = unsafe { client.as_mut() }.ok_or(Error::NullPointer)?;
        // SAFETY: `response` holds `response_len` bytes by the contract.
        let response = unsafe { input(response, response_len) }?;
        // SAFETY: `public_key` holds `public_key_len` bytes (or is NULL with 0).
        let public_key = unsafe { super::guard::optional_input(public_key, public_key_len) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let outputs = unsafe { OutBuffer::new(outputs, outputs_capacity, outputs_written) }?;
        with_group!(client.suite, G => {
            // Checks that need no secret come first, so that a missing key
            // or a short buffer does not spend the batch.
            let peek = client.batch.as_ref().ok_or(Error::BatchUsed)?;
            let batch = peek
                .downcast_ref::<CheckedClientBatch<G>>()
                .expect("a handle holds a batch of its own suite");
            let key = match batch.check() {
                Check::CommittedKey if public_key.is_empty() => {
                    return Err(Error::MissingPublicKey)
                }
                Check::CommittedKey => Some(G::decode(public_key)?),
                Check::KeyFree => None,
            };
            outputs.check_fits(array_len(batch.len(), G::HASH_LEN)?)?;
            let inner = client.batch.take().ok_or(Error::BatchUsed)?;
            let batch = inner
                .downcast::<CheckedClientBatch<G>>()
                .expect("checked above");
            outputs.write_items(&batch.verify_finalize(response, key.as_ref())?);
            Ok(())
        })
    })
}

/// Releases a checked client (wiping its blinds and check secrets). NULL
/// is ignored.
///
/// # Safety
/// `client` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_checked_oprf_client_free(
    client: *mut oblivex_checked_oprf_client,
) {
    catch_or((), || {
        if !client.is_null() {
            // SAFETY: a live handle from `Box::into_raw`; the batch inside
            // wipes its secrets on drop.
            drop(unsafe { Box::from_raw(client) });
        }
    })
}

/// The server's evaluation of a checked request (or of any OPRF-mode
/// batch): `k·X_i` for each element of `blinded` with the handle's key,
/// whatever the handle's mode, and no proof. Writes `blinded_len` bytes to
/// `evaluated`.
///
/// Limits: a server cannot tell a checked request's
/// balancer (or key-free padding) from a real input, so a client gets an
/// evaluation for every element it sends: issuance and rate limits must
/// count the elements evaluated, not the inputs a client claims.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BAD_LENGTH` (not a whole, non-zero number of elements),
/// `OBLIVEX_ERR_INVALID_ELEMENT` (any element not canonical, not in the
/// group, or the identity), `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `server` is a live handle; each (pointer, length) pair is readable or
/// writable as its role says; `evaluated_written` points to a writable
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_server_evaluate(
    server: *const oblivex_oprf_server,
    blinded: *const u8,
    blinded_len: usize,
    evaluated: *mut u8,
    evaluated_capacity: usize,
    evaluated_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `server` is NULL or live by the contract.
        let server = unsafe { handle(server) }?;
        // SAFETY: `blinded` holds `blinded_len` bytes by the contract.
        let blinded = unsafe { input(blinded, blinded_len) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let evaluated =
            unsafe { OutBuffer::new(evaluated, evaluated_capacity, evaluated_written) }?;
        evaluated.check_fits(blinded.len())?;
        with_group!(server.suite, G => {
            let mut elements = Zeroizing::new(vec![0u8; blinded.len()]);
            server_of::<G>(server).evaluate(blinded, &mut elements)?;
            evaluated.write(&elements);
            Ok(())
        })
    })
}
