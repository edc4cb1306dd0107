//! C ABI of the RFC 9497 client: a batch handle holding the blinds of one
//! batch between its two steps.

use super::args::{read_inputs, BatchSlot};
use super::guard::{array_len, catch, input, optional_input, out_pointer, OutBuffer};
use super::handle::{borrow_mut, create, free, Boxed, Handle};
use super::status::{
    oblivex_status, CResult, OBLIVEX_ERR_BAD_LENGTH, OBLIVEX_ERR_MISSING_PROOF,
    OBLIVEX_ERR_MISSING_PUBLIC_KEY,
};
use super::suite::{
    mode_from_c, oblivex_oprf_mode, oblivex_suite, with_group, PerGroup, PerSuite, Suite,
    SuiteGroup,
};
use crate::group::PrimeOrderGroup;
use crate::message::EvaluatedElements;
use crate::oprf::{
    Mode, OprfBatch, OprfClient, Output, PoprfBatch, PoprfClient, Proof, VoprfBatch, VoprfClient,
};
use crate::rng::os_rng;

/// One client batch of RFC 9497: its inputs and their secret blinds, kept
/// between `oblivex_oprf_batch_blind` and `oblivex_oprf_batch_finalize`.
/// Finalize it once; the blinds are wiped when it is finalized or freed.
/// Not for concurrent use.
pub struct oblivex_oprf_batch {
    _opaque: [u8; 0],
}

impl Handle for oblivex_oprf_batch {
    type RustType = SuiteOprfBatch;
    type Ownership = Boxed;
}

/// What an `oblivex_oprf_batch` points to: the number of inputs and the
/// batch of its mode, of its suite's group.
pub(crate) struct SuiteOprfBatch {
    count: usize,
    batch: PerSuite<ModeBatchSlots>,
}

/// The [`BatchSlot`] of a [`ModeBatch`], for each group.
enum ModeBatchSlots {}

impl PerGroup for ModeBatchSlots {
    type Of<G: PrimeOrderGroup> = BatchSlot<ModeBatch<G>>;
}

/// The batch of one mode.
enum ModeBatch<G: PrimeOrderGroup> {
    Oprf(OprfBatch<G>),
    Voprf(VoprfBatch<G>),
    Poprf(PoprfBatch<G>),
}

/// The mode's client blinds `inputs`; the encoded request goes to `blinded`.
fn blind<G: PrimeOrderGroup>(
    mode: Mode,
    inputs: &[&[u8]],
    info: &[u8],
    public_key: &[u8],
    blinded: OutBuffer,
) -> CResult<ModeBatch<G>> {
    let rng = &mut os_rng()?;
    let key = || -> CResult<G::Element> {
        if public_key.is_empty() {
            return Err(OBLIVEX_ERR_MISSING_PUBLIC_KEY);
        }
        Ok(G::decode(public_key)?)
    };
    blinded.check_fits(array_len(inputs.len(), G::ELEMENT_LEN)?)?;
    let batch = match mode {
        Mode::Oprf | Mode::Voprf if !info.is_empty() => return Err(OBLIVEX_ERR_BAD_LENGTH),
        Mode::Oprf => ModeBatch::Oprf(OprfClient::<G>::new().blind(inputs, rng)?),
        Mode::Voprf => ModeBatch::Voprf(VoprfClient::new(key()?)?.blind(inputs, rng)?),
        Mode::Poprf => ModeBatch::Poprf(PoprfClient::new(key()?)?.blind(inputs, info, rng)?),
    };
    let request = match &batch {
        ModeBatch::Oprf(b) => b.request().as_bytes(),
        ModeBatch::Voprf(b) => b.request().as_bytes(),
        ModeBatch::Poprf(b) => b.request().as_bytes(),
    };
    blinded.put(request)?;
    Ok(batch)
}

/// The client's first step: blinds `count` inputs (`inputs[i]` of
/// `inputs_lens[i]` bytes, at most `OBLIVEX_MAX_INPUT_LEN` each; an empty
/// input may be NULL) of `suite` in `mode` with fresh random blinds, writes
/// the blinded elements (`count` element encodings) to `blinded`, and
/// stores a batch handle holding the blinds in `*batch_out` (release it
/// with `oblivex_oprf_batch_free`). `public_key` (the server's, from
/// `oblivex_oprf_server_public_key`) is needed in VOPRF and POPRF mode (NULL/0
/// in OPRF mode); `info` is the POPRF public input (NULL/0 otherwise).
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_SUITE`, `OBLIVEX_ERR_UNKNOWN_MODE`,
/// `OBLIVEX_ERR_EMPTY_INPUT` (`count` 0), `OBLIVEX_ERR_BAD_LENGTH` (an input
/// or info too long, more than 65535 inputs, info outside POPRF mode),
/// `OBLIVEX_ERR_MISSING_PUBLIC_KEY`, `OBLIVEX_ERR_INVALID_ELEMENT` (the
/// public key), `OBLIVEX_ERR_INVALID_INPUT` (an input hashes to the
/// identity, or the info gives an unusable key), `OBLIVEX_ERR_BUFFER_TOO_SMALL`,
/// `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `inputs` and `inputs_lens` point to `count` entries, each input readable
/// for its length; `info`, `public_key` are NULL with length 0 or readable
/// for their lengths; `blinded` points to `blinded_capacity` writable
/// bytes; `blinded_written` to a writable `size_t`; `batch_out` to a
/// writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_batch_blind(
    suite: oblivex_suite,
    mode: oblivex_oprf_mode,
    inputs: *const *const u8,
    inputs_lens: *const usize,
    count: usize,
    info: *const u8,
    info_len: usize,
    public_key: *const u8,
    public_key_len: usize,
    blinded: *mut u8,
    blinded_capacity: usize,
    blinded_written: *mut usize,
    batch_out: *mut *mut oblivex_oprf_batch,
) -> oblivex_status {
    catch(|| {
        let (suite, mode) = (Suite::from_c(suite)?, mode_from_c(mode)?);
        // SAFETY: the input pointers hold their lengths by the contract.
        let (inputs, info, public_key) = unsafe {
            (
                read_inputs(inputs, inputs_lens, count)?,
                optional_input(info, info_len)?,
                optional_input(public_key, public_key_len)?,
            )
        };
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let blinded = unsafe { OutBuffer::new(blinded, blinded_capacity, blinded_written) }?;
        let batch_out = out_pointer(batch_out)?;
        let batch = with_group!(suite, G => G::wrap(BatchSlot::new(blind::<G>(mode, &inputs, info, public_key, blinded)?)));
        // SAFETY: `batch_out` is non-NULL and writable by the contract.
        unsafe { create(batch_out, SuiteOprfBatch { count, batch }) };
        Ok(())
    })
}

/// Checks the answer (and the proof) and finalizes, spending the batch.
fn finalize<G: PrimeOrderGroup>(
    slot: &mut BatchSlot<ModeBatch<G>>,
    count: usize,
    evaluated: &[u8],
    proof: &[u8],
) -> CResult<Vec<Output>> {
    let response = EvaluatedElements::<G>::from_bytes(evaluated)?;
    if response.len() != count {
        return Err(OBLIVEX_ERR_BAD_LENGTH);
    }
    let proof = match slot.get()? {
        ModeBatch::Oprf(_) => None,
        _ if proof.is_empty() => return Err(OBLIVEX_ERR_MISSING_PROOF),
        _ => Some(Proof::<G>::from_bytes(proof)?),
    };
    // Everything is well-formed: from here the batch is spent.
    let outputs = match (slot.take()?, proof) {
        (ModeBatch::Oprf(b), _) => b.finalize(&response)?,
        (ModeBatch::Voprf(b), Some(proof)) => b.finalize(&response, &proof)?,
        (ModeBatch::Poprf(b), Some(proof)) => b.finalize(&response, &proof)?,
        (_, None) => unreachable!("checked above"),
    };
    Ok(outputs)
}

/// The client's last step: checks the server's answer (`evaluated`, one
/// element per input) and, in VOPRF and POPRF mode, its `proof` (once for
/// the whole batch), then writes one PRF output per input
/// (`oblivex_suite_output_len` bytes each, in order) to `outputs`. `proof`
/// is NULL/0 in OPRF mode.
///
/// The batch is spent by the first call that gets as far as checking the
/// answer (success or `OBLIVEX_ERR_VERIFICATION_FAILED`: never retry with
/// the same blinds); a call refused for a malformed argument leaves it
/// usable.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BATCH_USED`, `OBLIVEX_ERR_BAD_LENGTH` (not one element per
/// input, a proof of the wrong size), `OBLIVEX_ERR_INVALID_ELEMENT`,
/// `OBLIVEX_ERR_INVALID_SCALAR` (a proof scalar not canonical),
/// `OBLIVEX_ERR_MISSING_PROOF`, `OBLIVEX_ERR_BUFFER_TOO_SMALL`,
/// `OBLIVEX_ERR_VERIFICATION_FAILED` (the proof does not hold: a malicious
/// server).
///
/// # Safety
/// `batch` is a live handle used by no other thread; each (pointer,
/// length) pair is readable or writable as its role says (`proof` may be
/// NULL with 0); `outputs_written` points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_batch_finalize(
    batch: *mut oblivex_oprf_batch,
    evaluated: *const u8,
    evaluated_len: usize,
    proof: *const u8,
    proof_len: usize,
    outputs: *mut u8,
    outputs_capacity: usize,
    outputs_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `batch` is NULL or live and unshared by the contract.
        let batch = unsafe { borrow_mut(batch) }?;
        // SAFETY: the input pointers hold their lengths by the contract.
        let (evaluated, proof) = unsafe {
            (
                input(evaluated, evaluated_len)?,
                optional_input(proof, proof_len)?,
            )
        };
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let outputs = unsafe { OutBuffer::new(outputs, outputs_capacity, outputs_written) }?;
        with_group!(match &mut batch.batch, G(slot) => {
            outputs.check_fits(array_len(batch.count, G::HASH_LEN)?)?;
            let results = finalize::<G>(slot, batch.count, evaluated, proof)?;
            outputs.write_items(&results);
            Ok(())
        })
    })
}

/// Releases a batch (its blinds are wiped). NULL is ignored.
///
/// # Safety
/// `batch` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_oprf_batch_free(batch: *mut oblivex_oprf_batch) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free(batch) }
}
