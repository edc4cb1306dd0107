//! Argument readers and writers every protocol's C functions share: input
//! arrays, quorums, kappa, the servers' responses and the cheater list, the
//! single-use batch a client handle holds, and the last step of every
//! threshold client.

use super::guard::{array, array_len, optional_input, OutBuffer};
use super::status::CResult;
use super::status::{
    OBLIVEX_ERR_BAD_LENGTH, OBLIVEX_ERR_BATCH_USED, OBLIVEX_ERR_BUFFER_TOO_SMALL,
    OBLIVEX_ERR_INVALID_PARTY_ID, OBLIVEX_ERR_NULL_POINTER, OBLIVEX_ERR_VERIFICATION_FAILED,
};
use crate::bls::SigningBatch;
use crate::elgamal::DecryptionBatch;
use crate::group::PrimeOrderGroup;
use crate::oblivious::Kappa;
use crate::oprf::ThresholdOprfBatch;
use crate::oprf::MAX_INPUT_LEN;
use crate::threshold::{
    check_party_set, check_response_ids, Failure, PartyId, Recovered, Response, MAX_PARTIES,
};
use crate::Error;

/// `count` byte strings given as parallel arrays of pointers and lengths
/// (an empty string may be NULL), each at most `OBLIVEX_MAX_INPUT_LEN`
/// bytes. `OBLIVEX_ERR_EMPTY_INPUT` for none.
///
/// # Safety
/// `items` and `lens` point to `count` entries; each item is readable for
/// its length.
pub(crate) unsafe fn read_inputs<'a>(
    items: *const *const u8,
    lens: *const usize,
    count: usize,
) -> CResult<Vec<&'a [u8]>> {
    if count == 0 {
        return Err(Error::EmptyInput.into());
    }
    // SAFETY: `count` entries of each array by the contract.
    let (pointers, lengths) = unsafe { (array(items, count)?, array(lens, count)?) };
    pointers
        .iter()
        .zip(lengths)
        .map(|(&p, &len)| {
            if len > MAX_INPUT_LEN {
                return Err(OBLIVEX_ERR_BAD_LENGTH);
            }
            // SAFETY: each item is readable for its length (NULL with 0).
            unsafe { optional_input(p, len) }
        })
        .collect()
}

/// `count` fixed-width items in `len` bytes: their width, or
/// `OBLIVEX_ERR_EMPTY_INPUT` / `OBLIVEX_ERR_BAD_LENGTH`.
pub(crate) fn item_width(len: usize, count: usize) -> CResult<usize> {
    if count == 0 || len == 0 {
        return Err(Error::EmptyInput.into());
    }
    if !len.is_multiple_of(count) {
        return Err(OBLIVEX_ERR_BAD_LENGTH);
    }
    Ok(len / count)
}

/// An optional quorum: `quorum_len` party ids, or NULL with 0 for none.
///
/// # Safety
/// `quorum` is NULL or points to `quorum_len` readable ids.
pub(crate) unsafe fn read_quorum<'a>(
    quorum: *const u16,
    quorum_len: usize,
) -> CResult<Option<&'a [PartyId]>> {
    if quorum_len == 0 {
        return Ok(None);
    }
    if quorum_len > MAX_PARTIES {
        return Err(OBLIVEX_ERR_INVALID_PARTY_ID);
    }
    // SAFETY: `quorum_len` readable ids by the contract.
    let ids = unsafe { array(quorum, quorum_len) }?;
    check_party_set(ids)?;
    Ok(Some(ids))
}

/// κ from C: 0 means the default (64).
pub(crate) fn kappa_from_c(kappa: u32) -> CResult<Kappa> {
    if kappa == 0 {
        Ok(Kappa::DEFAULT)
    } else {
        Ok(Kappa::new(kappa)?)
    }
}

/// The single-use batch inside a client handle: taken out by the last
/// step, after which the handle answers `OBLIVEX_ERR_BATCH_USED`.
pub(crate) struct BatchSlot<T>(Option<T>);

impl<T> BatchSlot<T> {
    pub(crate) fn new(batch: T) -> Self {
        BatchSlot(Some(batch))
    }

    /// The batch, if not spent.
    pub(crate) fn get(&self) -> CResult<&T> {
        self.0.as_ref().ok_or(OBLIVEX_ERR_BATCH_USED)
    }

    /// The batch, taken out: from here the handle is spent.
    pub(crate) fn take(&mut self) -> CResult<T> {
        self.0.take().ok_or(OBLIVEX_ERR_BATCH_USED)
    }
}

/// The servers' responses as given by C: `count` party ids, response
/// pointers and lengths.
///
/// # Safety
/// `party_ids`, `responses` and `responses_lens` point to `count` entries;
/// each response is readable for its length.
pub(crate) unsafe fn read_responses<'a>(
    party_ids: *const u16,
    responses: *const *const u8,
    responses_lens: *const usize,
    count: usize,
) -> CResult<Vec<Response<'a>>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if count > MAX_PARTIES {
        return Err(OBLIVEX_ERR_INVALID_PARTY_ID);
    }
    // SAFETY: `count` entries of each array by the contract.
    let (ids, pointers, lengths) = unsafe {
        (
            array(party_ids, count)?,
            array(responses, count)?,
            array(responses_lens, count)?,
        )
    };
    ids.iter()
        .zip(pointers)
        .zip(lengths)
        .map(|((&party, &p), &len)| {
            // SAFETY: each response is readable for its length (NULL with 0).
            let elements = unsafe { optional_input(p, len) }?;
            Ok(Response { party, elements })
        })
        .collect()
}

/// A caller's array of `u16`s (`noun`, `noun_capacity`, `noun_written`):
/// where a threshold client reports the servers caught cheating, and a DKG
/// party its qualified set and blame list.
pub(crate) struct U16Array {
    ptr: *mut u16,
    capacity: usize,
    written: *mut usize,
}

impl U16Array {
    /// Checks the pointers; the capacity must hold `needed` values.
    pub(crate) fn new(
        ptr: *mut u16,
        capacity: usize,
        written: *mut usize,
        needed: usize,
    ) -> CResult<Self> {
        if ptr.is_null() || written.is_null() {
            return Err(OBLIVEX_ERR_NULL_POINTER);
        }
        if capacity < needed {
            return Err(OBLIVEX_ERR_BUFFER_TOO_SMALL);
        }
        Ok(U16Array {
            ptr,
            capacity,
            written,
        })
    }

    /// Writes `values` (at most the `needed` count checked by `new`) and
    /// their count.
    pub(crate) fn write(self, values: &[u16]) {
        assert!(values.len() <= self.capacity, "checked by new");
        // SAFETY: `capacity` values are writable at `ptr` and `written` is
        // a writable size_t (the callers' contracts); the list fits.
        unsafe {
            core::ptr::copy_nonoverlapping(values.as_ptr(), self.ptr, values.len());
            self.written.write(values.len());
        }
    }
}

/// The failures of a threshold client's last step that come after every
/// answer was checked, and so report the servers caught cheating: too few
/// correct answers, a cheater in a named quorum, and (ElGamal) a ciphertext
/// that decrypts to the identity.
fn carries_cheaters(error: Error) -> bool {
    matches!(
        error,
        Error::VerificationFailed | Error::NotEnoughResponses | Error::InvalidInput
    )
}

/// What every threshold client's last step reads and writes, checked
/// before anything is spent: the servers' responses, the output buffer and
/// the cheater list.
pub(crate) struct Finalize<'a> {
    responses: Vec<Response<'a>>,
    outputs: OutBuffer,
    cheaters: U16Array,
}

impl<'a> Finalize<'a> {
    /// Checks the arguments of a threshold client's `_finalize`.
    ///
    /// # Safety
    /// As those functions' contracts: each array holds `count` entries, each
    /// (pointer, length) pair is readable or writable as its role says, the
    /// `*_written` pointers point to writable `size_t`s.
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn new(
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
    ) -> CResult<Self> {
        // SAFETY: forwarded from this function's contract.
        let responses = unsafe { read_responses(party_ids, responses, responses_lens, count) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let outputs = unsafe { OutBuffer::new(outputs, outputs_capacity, outputs_written) }?;
        // One id per response at most.
        let cheaters = U16Array::new(cheaters, cheaters_capacity, cheaters_written, count)?;
        Ok(Finalize {
            responses,
            outputs,
            cheaters,
        })
    }

    /// Checks that `count` outputs of `width` bytes fit and that the
    /// responses' party ids are usable for the batch in `slot` (a bad id is
    /// the caller's mistake and spends nothing), then takes the batch out
    /// (spending it), finalizes it and reports the outcome: on success the
    /// outputs (one after the other, straight from the items, which wipe
    /// themselves where they are secret) and the cheaters; on a failure
    /// that comes after the answers were checked the cheaters only; the
    /// status either way.
    pub(crate) fn run<T: ThresholdBatch>(
        self,
        slot: &mut BatchSlot<T>,
        count: usize,
        width: usize,
    ) -> CResult {
        self.outputs.check_fits(array_len(count, width)?)?;
        check_response_ids(slot.get()?.quorum(), &self.responses)?;
        let batch = slot.take()?;
        match T::finalize(batch, &self.responses) {
            Ok(recovered) => {
                self.outputs.write_items(&recovered.outputs);
                self.cheaters.write(&recovered.cheaters);
                Ok(())
            }
            Err(failure) => {
                if carries_cheaters(failure.error) {
                    self.cheaters.write(&failure.cheaters);
                }
                Err(failure.error.into())
            }
        }
    }
}

/// A threshold client's check of one server's answer, as the C `_check`
/// functions run it: `Ok` if `response` (from party `party_id`) passes,
/// `OBLIVEX_ERR_VERIFICATION_FAILED` if its server cheated (the answer
/// fails its check, does not decode or has the wrong length),
/// `OBLIVEX_ERR_INVALID_PARTY_ID` for an id the batch cannot take,
/// `OBLIVEX_ERR_BATCH_USED` for a spent batch. The batch is never spent.
///
/// # Safety
/// `response` is NULL with 0, or readable for `response_len` bytes.
pub(crate) unsafe fn check_response<T: ThresholdBatch>(
    slot: &BatchSlot<T>,
    party_id: PartyId,
    response: *const u8,
    response_len: usize,
) -> CResult {
    // SAFETY: forwarded from this function's contract.
    let elements = unsafe { optional_input(response, response_len) }?;
    let response = Response {
        party: party_id,
        elements,
    };
    if slot.get()?.check_response(&response)? {
        Ok(())
    } else {
        Err(OBLIVEX_ERR_VERIFICATION_FAILED)
    }
}

/// A threshold client's batch, as the C `_finalize` functions drive it.
pub(crate) trait ThresholdBatch: Sized {
    /// One output (a PRF output, a signature, a plaintext or KEM secret).
    type Output: AsRef<[u8]>;
    /// The quorum named at `_blind`, if any.
    fn quorum(&self) -> Option<&[PartyId]>;
    /// The batch's own `finalize`.
    fn finalize(self, responses: &[Response<'_>]) -> Result<Recovered<Self::Output>, Failure>;
    /// The batch's own `check_response`.
    fn check_response(&self, response: &Response<'_>) -> Result<bool, Error>;
}

impl<G: PrimeOrderGroup> ThresholdBatch for ThresholdOprfBatch<G> {
    type Output = crate::oprf::Output;
    fn quorum(&self) -> Option<&[PartyId]> {
        ThresholdOprfBatch::quorum(self)
    }
    fn finalize(self, responses: &[Response<'_>]) -> Result<Recovered<Self::Output>, Failure> {
        ThresholdOprfBatch::finalize(self, responses)
    }
    fn check_response(&self, response: &Response<'_>) -> Result<bool, Error> {
        ThresholdOprfBatch::check_response(self, response)
    }
}

impl ThresholdBatch for SigningBatch {
    type Output = Vec<u8>;
    fn quorum(&self) -> Option<&[PartyId]> {
        SigningBatch::quorum(self)
    }
    fn finalize(self, responses: &[Response<'_>]) -> Result<Recovered<Self::Output>, Failure> {
        SigningBatch::finalize(self, responses)
    }
    fn check_response(&self, response: &Response<'_>) -> Result<bool, Error> {
        SigningBatch::check_response(self, response)
    }
}

impl<G: PrimeOrderGroup> ThresholdBatch for DecryptionBatch<G> {
    type Output = crate::Zeroizing<Vec<u8>>;
    fn quorum(&self) -> Option<&[PartyId]> {
        DecryptionBatch::quorum(self)
    }
    fn finalize(self, responses: &[Response<'_>]) -> Result<Recovered<Self::Output>, Failure> {
        DecryptionBatch::finalize(self, responses)
    }
    fn check_response(&self, response: &Response<'_>) -> Result<bool, Error> {
        DecryptionBatch::check_response(self, response)
    }
}
