//! C ABI of the threshold OPRF client: one checked request to t or more
//! servers (each answers with `oblivex_threshold_server_evaluate`), every
//! answer checked, the cheaters named, the outputs finalized.

use super::args::{check_response, kappa_from_c, read_inputs, read_quorum, BatchSlot, Finalize};
use super::guard::{array_len, catch, out_pointer, OutBuffer};
use super::handle::{borrow, borrow_mut, create, free, Boxed, Handle};
use super::sharing::oblivex_commitments;
use super::status::{oblivex_status, CResult};
use super::suite::{with_group, PerGroup, PerSuite, SuiteGroup};
use crate::group::PrimeOrderGroup;
use crate::oblivious::Kappa;
use crate::oprf::{ThresholdOprfBatch, ThresholdOprfClient};
use crate::rng::os_rng;
use crate::threshold::{Commitments, PartyId};

/// A threshold OPRF batch: inputs, blinds and the one checked request for
/// every server, kept between `oblivex_threshold_oprf_batch_blind` and
/// `oblivex_threshold_oprf_batch_finalize`. Finalize it once; secrets are
/// wiped when it is finalized or freed. Not for concurrent use.
pub struct oblivex_threshold_oprf_batch {
    _opaque: [u8; 0],
}

impl Handle for oblivex_threshold_oprf_batch {
    type RustType = SuiteThresholdOprfBatch;
    type Ownership = Boxed;
}

/// What an `oblivex_threshold_oprf_batch` points to: the number of inputs
/// and the batch, of the commitments' group.
pub(crate) struct SuiteThresholdOprfBatch {
    count: usize,
    batch: PerSuite<ThresholdOprfBatchSlots>,
}

/// The [`BatchSlot`] of a [`ThresholdOprfBatch`], for each group.
enum ThresholdOprfBatchSlots {}

impl PerGroup for ThresholdOprfBatchSlots {
    type Of<G: PrimeOrderGroup> = BatchSlot<ThresholdOprfBatch<G>>;
}

fn blind<G: PrimeOrderGroup>(
    commitments: &Commitments<G>,
    quorum: Option<&[PartyId]>,
    kappa: Kappa,
    inputs: &[&[u8]],
    request: OutBuffer,
) -> CResult<ThresholdOprfBatch<G>> {
    let mut client = ThresholdOprfClient::new(commitments.clone(), kappa);
    if let Some(quorum) = quorum {
        client = client.with_quorum(quorum)?;
    }
    request.check_fits(array_len(inputs.len() + 1, G::ELEMENT_LEN)?)?;
    let batch = client.blind(inputs, &mut os_rng()?)?;
    request.put(batch.request().as_bytes())?;
    Ok(batch)
}

/// The client's first step: hashes and blinds `count` inputs (`inputs[i]`
/// of `inputs_lens[i]` bytes, at most `OBLIVEX_MAX_INPUT_LEN` each) for
/// the servers sharing the key of `commitments`, hides the balancer among
/// them and writes the one request every server evaluates (`count + 1`
/// element encodings) to `request`; stores the batch handle in
/// `*batch_out` (release it with `oblivex_threshold_oprf_batch_free`). With
/// a `quorum` (exactly t party ids; NULL/0 for none) its servers
/// pre-multiply by their Lagrange coefficients (pass the same quorum to
/// `oblivex_threshold_server_evaluate`) and only their answers combine.
/// `kappa` 0 means 64.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_INVALID_KAPPA`, `OBLIVEX_ERR_EMPTY_INPUT`,
/// `OBLIVEX_ERR_BAD_LENGTH`, `OBLIVEX_ERR_INVALID_PARTY_ID` (a malformed
/// quorum), `OBLIVEX_ERR_INVALID_INPUT`, `OBLIVEX_ERR_BUFFER_TOO_SMALL`,
/// `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `commitments` is a live handle; `inputs` and `inputs_lens` point to
/// `count` entries, each input readable for its length; `quorum` is NULL
/// with 0 or holds `quorum_len` ids; `request` points to `request_capacity`
/// writable bytes; `request_written` to a writable `size_t`; `batch_out` to
/// a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_threshold_oprf_batch_blind(
    commitments: *const oblivex_commitments,
    inputs: *const *const u8,
    inputs_lens: *const usize,
    count: usize,
    quorum: *const u16,
    quorum_len: usize,
    kappa: u32,
    request: *mut u8,
    request_capacity: usize,
    request_written: *mut usize,
    batch_out: *mut *mut oblivex_threshold_oprf_batch,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `commitments` is NULL or live by the contract.
        let commitments = unsafe { borrow(commitments) }?;
        let kappa = kappa_from_c(kappa)?;
        // SAFETY: the input pointers hold their lengths by the contract.
        let (inputs, quorum) = unsafe {
            (
                read_inputs(inputs, inputs_lens, count)?,
                read_quorum(quorum, quorum_len)?,
            )
        };
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let request = unsafe { OutBuffer::new(request, request_capacity, request_written) }?;
        let batch_out = out_pointer(batch_out)?;
        let batch = with_group!(match commitments, G(commitments) => {
            G::wrap(BatchSlot::new(blind::<G>(commitments, quorum, kappa, &inputs, request)?))
        });
        // SAFETY: `batch_out` is non-NULL and writable by the contract.
        unsafe { create(batch_out, SuiteThresholdOprfBatch { count, batch }) };
        Ok(())
    })
}

/// The client's last step: checks each server's response (`count` of
/// them: `party_ids[i]` answered `responses[i]` of `responses_lens[i]`
/// bytes) against that server's commitment, combines t correct ones, and
/// writes one PRF output per input (`oblivex_suite_output_len` bytes each,
/// in order) to `outputs`, and the servers caught cheating (an answer that
/// fails its check or does not decode) to `cheaters` (capacity at least
/// `count`), their number to `*cheaters_written`. The outputs equal the
/// single-key OPRF's under the shared key.
///
/// Blame: every server whose answer is checked on its own and fails is
/// named; when the combined check of t answers passes, their outputs are
/// right, and servers whose wrong answers cancel out in the combination
/// (colluders) change nothing and may go unnamed.
///
/// Errors: two carry the cheater list (as `OBLIVEX_OK` does) but write no
/// output: `OBLIVEX_ERR_NOT_ENOUGH_RESPONSES` (fewer than t correct
/// answers) and `OBLIVEX_ERR_VERIFICATION_FAILED` (a cheater in a named
/// quorum: ask another quorum with a fresh batch); both spend the batch.
/// The others write nothing and leave the batch usable:
/// `OBLIVEX_ERR_INVALID_PARTY_ID` (a zero or repeated id, more than
/// `OBLIVEX_MAX_PARTIES` responses, or a server outside the named quorum),
/// `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_BUFFER_TOO_SMALL`; `OBLIVEX_ERR_BATCH_USED` for a batch
/// already spent.
///
/// # Safety
/// `batch` is a live handle used by no other thread; `party_ids`,
/// `responses` and `responses_lens` hold `count` entries, each response
/// readable for its length; `outputs` points to `outputs_capacity` writable
/// bytes and `cheaters` to `cheaters_capacity` writable ids;
/// `outputs_written` and `cheaters_written` to writable `size_t`s.
#[no_mangle]
pub unsafe extern "C" fn oblivex_threshold_oprf_batch_finalize(
    batch: *mut oblivex_threshold_oprf_batch,
    party_ids: *const u16,
    responses: *const *const u8,
    responses_lens: *const usize,
    count: usize,
    outputs: *mut u8,
    outputs_capacity: usize,
    outputs_written: *mut usize,
    cheaters: *mut u16,
    cheaters_capacity: usize,
    cheaters_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `batch` is NULL or live and unshared by the contract.
        let batch = unsafe { borrow_mut(batch) }?;
        // SAFETY: forwarded from this function's contract.
        let finalize = unsafe {
            Finalize::new(
                party_ids,
                responses,
                responses_lens,
                count,
                outputs,
                outputs_capacity,
                outputs_written,
                cheaters,
                cheaters_capacity,
                cheaters_written,
            )
        }?;
        with_group!(match &mut batch.batch, G(slot) => finalize.run(slot, batch.count, G::HASH_LEN))
    })
}

/// Checks one server's answer (`party_id` answered `response`, of
/// `response_len` bytes) against that server's commitment without spending
/// the batch: a client checks each answer as it arrives and, as soon as t
/// have passed, calls `oblivex_threshold_oprf_batch_finalize` with those t.
/// Constant time in the batch's secret coins; each answer checked gives
/// its server one try at passing wrongly, with probability at most 2^-κ.
///
/// Returns `OBLIVEX_OK` if the answer passes and
/// `OBLIVEX_ERR_VERIFICATION_FAILED` if its server cheated (the answer fails
/// its check, does not decode, or is not as long as the request). Errors:
/// `OBLIVEX_ERR_INVALID_PARTY_ID` (zero, above `OBLIVEX_MAX_PARTIES`, or
/// outside the named quorum), `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BATCH_USED` (already finalized). The batch stays usable
/// whatever the status.
///
/// # Safety
/// `batch` is a live handle, not finalized or freed meanwhile by another
/// thread; `response` is NULL with 0 or points to `response_len` readable
/// bytes.
#[no_mangle]
pub unsafe extern "C" fn oblivex_threshold_oprf_batch_check(
    batch: *const oblivex_threshold_oprf_batch,
    party_id: u16,
    response: *const u8,
    response_len: usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `batch` is NULL or live by the contract.
        let batch = unsafe { borrow(batch) }?;
        // SAFETY: `response` holds `response_len` bytes by the contract.
        with_group!(match &batch.batch, G(slot) => unsafe {
            check_response(slot, party_id, response, response_len)
        })
    })
}

/// Releases a threshold OPRF batch (its secrets are wiped). NULL is
/// ignored.
///
/// # Safety
/// `batch` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_threshold_oprf_batch_free(
    batch: *mut oblivex_threshold_oprf_batch,
) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free(batch) }
}
