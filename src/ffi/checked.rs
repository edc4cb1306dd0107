//! C ABI of the batch OPRF secure against a malicious server (the balancer
//! check): the client blinds a batch into a request one element longer (or
//! more, for the key-free check on small batches), an OPRF-mode server
//! evaluates it with `oblivex_oprf_server_evaluate`, and the client checks
//! the answer and finalizes. No proof crosses the wire.

use core::ffi::c_int;

use super::args::{kappa_from_c, read_inputs, BatchSlot};
use super::guard::{array_len, catch, catch_or, input, optional_input, out_pointer, OutBuffer};
use super::handle::{borrow_mut, create, free, Boxed, Handle};
use super::status::{
    oblivex_status, CResult, OBLIVEX_ERR_BAD_LENGTH, OBLIVEX_ERR_MISSING_PUBLIC_KEY,
    OBLIVEX_ERR_UNKNOWN_CHECK,
};
use super::suite::{oblivex_suite, with_group, PerGroup, PerSuite, Suite, SuiteGroup};
use crate::group::PrimeOrderGroup;
use crate::message::EvaluatedElements;
use crate::oblivious::{request_len, Check, Kappa};
use crate::oprf::{CheckedOprfBatch, CheckedOprfClient, Output};
use crate::rng::os_rng;

/// Which relation the client hides in its request (`OBLIVEX_CHECK_*`).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct oblivex_check(pub c_int);

/// Every answer must use the key of the server's public key (the default;
/// the batch is made with that key).
pub const OBLIVEX_CHECK_COMMITTED_KEY: oblivex_check = oblivex_check(1);
/// One key, whichever, for the whole batch: needs no public key but proves
/// less (a server may use another key throughout), and pads batches of
/// fewer than 256/kappa inputs.
pub const OBLIVEX_CHECK_KEY_FREE: oblivex_check = oblivex_check(2);

fn check_from_c(check: oblivex_check) -> CResult<Check> {
    match check {
        OBLIVEX_CHECK_COMMITTED_KEY => Ok(Check::CommittedKey),
        OBLIVEX_CHECK_KEY_FREE => Ok(Check::KeyFree),
        _ => Err(OBLIVEX_ERR_UNKNOWN_CHECK),
    }
}

/// One checked batch: its inputs, blinds and the check's secret coins, kept
/// between `oblivex_checked_oprf_batch_blind` and
/// `oblivex_checked_oprf_batch_finalize`. Finalize it once; the secrets are
/// wiped when it is finalized or freed. Not for concurrent use.
pub struct oblivex_checked_oprf_batch {
    _opaque: [u8; 0],
}

impl Handle for oblivex_checked_oprf_batch {
    type RustType = SuiteCheckedBatch;
    type Ownership = Boxed;
}

/// What an `oblivex_checked_oprf_batch` points to: the number of inputs,
/// the number of elements requested, and the batch, of its suite's group.
pub(crate) struct SuiteCheckedBatch {
    count: usize,
    request_len: usize,
    batch: PerSuite<CheckedBatchSlots>,
}

/// The [`BatchSlot`] of a [`CheckedOprfBatch`], for each group.
enum CheckedBatchSlots {}

impl PerGroup for CheckedBatchSlots {
    type Of<G: PrimeOrderGroup> = BatchSlot<CheckedOprfBatch<G>>;
}

/// The number of elements a checked request for `count` inputs holds (the
/// inputs, the balancer, and for the key-free check random padding until
/// the secret factors reach 256 bits: `(elements - 1) * kappa >= 256`):
/// size the request buffer as this times `oblivex_suite_element_len`.
/// `kappa` 0 means the default, 64. Returns 0 for an unknown check, an
/// invalid `kappa`, `count` 0, or a request above 65535 elements.
#[no_mangle]
pub extern "C" fn oblivex_checked_oprf_request_len(
    check: oblivex_check,
    kappa: u32,
    count: usize,
) -> usize {
    catch_or(0, || match (check_from_c(check), kappa_from_c(kappa)) {
        (Ok(check), Ok(kappa)) if count > 0 => {
            let len = request_len(check, kappa, count);
            if len <= crate::message::MAX_BATCH {
                len
            } else {
                0
            }
        }
        _ => 0,
    })
}

fn blind<G: PrimeOrderGroup>(
    check: Check,
    kappa: Kappa,
    public_key: &[u8],
    inputs: &[&[u8]],
    request: OutBuffer,
) -> CResult<(CheckedOprfBatch<G>, usize)> {
    let client = match check {
        Check::CommittedKey if public_key.is_empty() => return Err(OBLIVEX_ERR_MISSING_PUBLIC_KEY),
        Check::CommittedKey => CheckedOprfClient::committed_key(G::decode(public_key)?, kappa)?,
        Check::KeyFree if !public_key.is_empty() => return Err(OBLIVEX_ERR_BAD_LENGTH),
        Check::KeyFree => CheckedOprfClient::key_free(kappa),
    };
    let len = request_len(check, kappa, inputs.len());
    request.check_fits(array_len(len, G::ELEMENT_LEN)?)?;
    let batch = client.blind(inputs, &mut os_rng()?)?;
    request.put(batch.request().as_bytes())?;
    Ok((batch, len))
}

/// The client's first step: hashes and blinds `count` inputs (`inputs[i]`
/// of `inputs_lens[i]` bytes, at most `OBLIVEX_MAX_INPUT_LEN` each; an
/// empty input may be NULL), hides the balancer among them (and padding,
/// for the key-free check) and writes the request
/// (`oblivex_checked_oprf_request_len` element encodings) to `request`;
/// stores the batch handle in `*batch_out` (release it with
/// `oblivex_checked_oprf_batch_free`). The committed-key check takes the
/// server's `public_key` (`oblivex_oprf_server_public_key`); the key-free
/// check takes none (NULL/0). `kappa` 0 means 64.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_SUITE`, `OBLIVEX_ERR_UNKNOWN_CHECK`,
/// `OBLIVEX_ERR_INVALID_KAPPA`, `OBLIVEX_ERR_EMPTY_INPUT`,
/// `OBLIVEX_ERR_BAD_LENGTH` (an input too long, a request above 65535
/// elements, a public key with the key-free check),
/// `OBLIVEX_ERR_MISSING_PUBLIC_KEY`, `OBLIVEX_ERR_INVALID_ELEMENT` (the
/// public key), `OBLIVEX_ERR_INVALID_INPUT`, `OBLIVEX_ERR_BUFFER_TOO_SMALL`,
/// `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `inputs` and `inputs_lens` point to `count` entries, each input readable
/// for its length; `public_key` is NULL with 0 or readable for its length;
/// `request` points to `request_capacity` writable bytes; `request_written`
/// to a writable `size_t`; `batch_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_checked_oprf_batch_blind(
    suite: oblivex_suite,
    check: oblivex_check,
    kappa: u32,
    public_key: *const u8,
    public_key_len: usize,
    inputs: *const *const u8,
    inputs_lens: *const usize,
    count: usize,
    request: *mut u8,
    request_capacity: usize,
    request_written: *mut usize,
    batch_out: *mut *mut oblivex_checked_oprf_batch,
) -> oblivex_status {
    catch(|| {
        let suite = Suite::from_c(suite)?;
        let (check, kappa) = (check_from_c(check)?, kappa_from_c(kappa)?);
        // SAFETY: the input pointers hold their lengths by the contract.
        let (public_key, inputs) = unsafe {
            (
                optional_input(public_key, public_key_len)?,
                read_inputs(inputs, inputs_lens, count)?,
            )
        };
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let request = unsafe { OutBuffer::new(request, request_capacity, request_written) }?;
        let batch_out = out_pointer(batch_out)?;
        let handle = with_group!(suite, G => {
            let (batch, request_len) = blind::<G>(check, kappa, public_key, &inputs, request)?;
            SuiteCheckedBatch { count, request_len, batch: G::wrap(BatchSlot::new(batch)) }
        });
        // SAFETY: `batch_out` is non-NULL and writable by the contract.
        unsafe { create(batch_out, handle) };
        Ok(())
    })
}

fn finalize<G: PrimeOrderGroup>(
    slot: &mut BatchSlot<CheckedOprfBatch<G>>,
    request_len: usize,
    response: &[u8],
) -> CResult<Vec<Output>> {
    let response = EvaluatedElements::<G>::from_bytes(response)?;
    if response.len() != request_len {
        return Err(OBLIVEX_ERR_BAD_LENGTH);
    }
    Ok(slot.take()?.finalize(&response)?)
}

/// The client's last step: checks the server's answer (`response`, one
/// element per element of the request) and writes one PRF output per input
/// (`oblivex_suite_output_len` bytes each, in order) to `outputs` — all of
/// them, or none.
///
/// The batch is spent by the first call that gets as far as checking the
/// answer; a call refused for a malformed argument leaves it usable.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BATCH_USED`, `OBLIVEX_ERR_BAD_LENGTH` (not one element per
/// element sent), `OBLIVEX_ERR_INVALID_ELEMENT`,
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`, `OBLIVEX_ERR_VERIFICATION_FAILED` (the
/// server did not apply its key to every element: a malicious server).
///
/// # Safety
/// `batch` is a live handle used by no other thread; `response` points to
/// `response_len` readable bytes; `outputs` to `outputs_capacity` writable
/// bytes; `outputs_written` to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_checked_oprf_batch_finalize(
    batch: *mut oblivex_checked_oprf_batch,
    response: *const u8,
    response_len: usize,
    outputs: *mut u8,
    outputs_capacity: usize,
    outputs_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `batch` is NULL or live and unshared by the contract.
        let batch = unsafe { borrow_mut(batch) }?;
        // SAFETY: `response` holds `response_len` bytes by the contract.
        let response = unsafe { input(response, response_len) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let outputs = unsafe { OutBuffer::new(outputs, outputs_capacity, outputs_written) }?;
        with_group!(match &mut batch.batch, G(slot) => {
            outputs.check_fits(array_len(batch.count, G::HASH_LEN)?)?;
            let results = finalize::<G>(slot, batch.request_len, response)?;
            outputs.write_items(&results);
            Ok(())
        })
    })
}

/// Releases a checked batch (its blinds and check secrets are wiped). NULL
/// is ignored.
///
/// # Safety
/// `batch` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_checked_oprf_batch_free(batch: *mut oblivex_checked_oprf_batch) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free(batch) }
}
