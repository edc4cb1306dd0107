//! C ABI of the threshold layer: key shares and commitment sets (with a
//! dealer), the server's evaluation with its share, the threshold OPRF
//! client, and the helpers every threshold client shares (reading the
//! servers' responses, reporting the cheaters).

use core::any::Any;
use core::ffi::c_int;

use zeroize::Zeroizing;

use super::guard::{
    array_len, catch, catch_or, handle, input, optional_input, out_value, OutBuffer,
};
use super::oprf::read_inputs;
use super::status::oblivex_status;
use super::suite::{with_group, Suite};
use crate::group::PrimeOrderGroup;
use crate::oprf::ThresholdClientBatch;
use crate::rng::os_rng;
use crate::threshold::{
    self, check_party_set, check_threshold, evaluate_share, Commitments, Failure, KeyShare,
    PartyId, Recovered, Response, MAX_PARTIES,
};
use crate::Error;

/// One server's share of a t-of-m key (its party id and secret scalar).
/// Immutable: one handle may serve many threads. Wiped when freed. The
/// server side of every threshold protocol is `oblivex_threshold_server_evaluate`
/// with this handle.
pub struct oblivex_key_share {
    pub(super) suite: Suite,
    /// A `KeyShare<G>`.
    share: Box<dyn Any + Send + Sync>,
}

/// The public Feldman commitments of a t-of-m sharing (t elements; the
/// first is the shared key's public key). Immutable and thread-safe.
pub struct oblivex_commitments {
    pub(super) suite: Suite,
    /// A `Commitments<G>`.
    commitments: Box<dyn Any + Send + Sync>,
}

pub(super) fn share_of<G: PrimeOrderGroup>(handle: &oblivex_key_share) -> &KeyShare<G> {
    handle
        .share
        .downcast_ref()
        .expect("a handle holds its suite's share")
}

pub(super) fn commitments_of<G: PrimeOrderGroup>(handle: &oblivex_commitments) -> &Commitments<G> {
    handle
        .commitments
        .downcast_ref()
        .expect("a handle holds its suite's commitments")
}

pub(super) fn new_share<G: PrimeOrderGroup>(
    suite: Suite,
    share: KeyShare<G>,
) -> *mut oblivex_key_share {
    Box::into_raw(Box::new(oblivex_key_share {
        suite,
        share: Box::new(share),
    }))
}

fn new_commitments<G: PrimeOrderGroup>(
    suite: Suite,
    commitments: Commitments<G>,
) -> *mut oblivex_commitments {
    Box::into_raw(Box::new(oblivex_commitments {
        suite,
        commitments: Box::new(commitments),
    }))
}

/// Writes `m` share handles to `shares_out[0..m]` (all or none: the caller
/// checked every pointer).
///
/// # Safety
/// `shares_out` points to `shares.len()` writable pointers.
pub(super) unsafe fn emit_shares<G: PrimeOrderGroup>(
    suite: Suite,
    shares: Vec<KeyShare<G>>,
    shares_out: *mut *mut oblivex_key_share,
) {
    for (i, share) in shares.into_iter().enumerate() {
        // SAFETY: `i < m` entries are writable by the contract.
        unsafe { shares_out.add(i).write(new_share(suite, share)) };
    }
}

/// A dealer's t-of-m sharing (`1 <= t <= m <= 1024`) of a key of `suite`:
/// `secret` is the key to share (a scalar encoding) or NULL for a fresh
/// random key. Writes the shares of parties 1..m, in order, to
/// `shares_out[0..m]` and the commitments to `*commitments_out`. Give each
/// server its share over a private channel and publish the commitments;
/// the shared public key is `oblivex_commitments_public_key`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_SUITE`, `OBLIVEX_ERR_INVALID_THRESHOLD`,
/// `OBLIVEX_ERR_INVALID_SCALAR`, `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `secret` is NULL or points to `secret_len` readable bytes; `shares_out`
/// to `parties` writable pointers; `commitments_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_threshold_deal(
    suite: c_int,
    secret: *const u8,
    secret_len: usize,
    threshold: usize,
    parties: usize,
    shares_out: *mut *mut oblivex_key_share,
    commitments_out: *mut *mut oblivex_commitments,
) -> oblivex_status {
    catch(|| {
        let suite = Suite::from_c(suite)?;
        check_threshold(threshold, parties)?;
        let shares_out = out_value(shares_out)?;
        let commitments_out = out_value(commitments_out)?;
        let mut rng = os_rng()?;
        with_group!(suite, G => {
            let mut key = if secret.is_null() {
                G::random_scalar(&mut rng)
            } else {
                // SAFETY: `secret` holds `secret_len` bytes by the contract.
                G::decode_scalar(unsafe { input(secret, secret_len) }?)?
            };
            let dealt = threshold::deal::<G, _>(&key, threshold, parties, &mut rng);
            zeroize::Zeroize::zeroize(&mut key);
            let (shares, commitments) = dealt?;
            // SAFETY: `shares_out` has `parties` writable entries and
            // `commitments_out` is writable, by the contract.
            unsafe {
                emit_shares(suite, shares, shares_out);
                commitments_out.write(new_commitments(suite, commitments));
            }
            Ok(())
        })
    })
}

/// Decodes a key share of `suite` (2-byte big-endian party id, then the
/// scalar: `oblivex_key_share_encoded_len` bytes) into `*share_out`.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_UNKNOWN_SUITE`,
/// `OBLIVEX_ERR_BAD_LENGTH`, `OBLIVEX_ERR_INVALID_PARTY_ID` (0 or above
/// 1024), `OBLIVEX_ERR_INVALID_SCALAR`.
///
/// # Safety
/// `bytes` points to `len` readable bytes; `share_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_key_share_from_bytes(
    suite: c_int,
    bytes: *const u8,
    len: usize,
    share_out: *mut *mut oblivex_key_share,
) -> oblivex_status {
    catch(|| {
        let suite = Suite::from_c(suite)?;
        // SAFETY: `bytes` holds `len` bytes by the contract.
        let bytes = unsafe { input(bytes, len) }?;
        let share_out = out_value(share_out)?;
        let share = with_group!(suite, G => new_share(suite, KeyShare::<G>::from_bytes(bytes)?));
        // SAFETY: `share_out` is non-NULL and writable by the contract.
        unsafe { share_out.write(share) };
        Ok(())
    })
}

/// Bytes of an encoded key share of `suite` (0 for an unknown suite).
#[no_mangle]
pub extern "C" fn oblivex_key_share_encoded_len(suite: c_int) -> usize {
    catch_or(0, || {
        Suite::from_c(suite).map_or(0, |s| with_group!(s, G => KeyShare::<G>::ENCODED_LEN))
    })
}

/// Writes the share's encoding (secret: wipe it after use).
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `share` is a live handle; `out` has `capacity` writable bytes;
/// `written` points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_key_share_to_bytes(
    share: *const oblivex_key_share,
    out: *mut u8,
    capacity: usize,
    written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `share` is NULL or live by the contract.
        let share = unsafe { handle(share) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(out, capacity, written) }?;
        with_group!(share.suite, G => {
            let bytes = Zeroizing::new(share_of::<G>(share).to_bytes());
            out.put(&bytes)
        })
    })
}

/// The share's party id (0 for NULL).
///
/// # Safety
/// `share` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn oblivex_key_share_id(share: *const oblivex_key_share) -> u16 {
    catch_or(0, || {
        // SAFETY: `share` is NULL or live by the contract.
        match unsafe { share.as_ref() } {
            Some(share) => with_group!(share.suite, G => share_of::<G>(share).id()),
            None => 0,
        }
    })
}

/// Releases a key share, wiping it. NULL is ignored.
///
/// # Safety
/// `share` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_key_share_free(share: *mut oblivex_key_share) {
    catch_or((), || {
        if !share.is_null() {
            // SAFETY: a live handle from `Box::into_raw`; the share wipes
            // itself on drop.
            drop(unsafe { Box::from_raw(share) });
        }
    })
}

/// Decodes a commitment set of `suite` (t element encodings, concatenated)
/// with full validation into `*commitments_out`.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_UNKNOWN_SUITE`,
/// `OBLIVEX_ERR_BAD_LENGTH`, `OBLIVEX_ERR_INVALID_THRESHOLD` (more than
/// 1024), `OBLIVEX_ERR_INVALID_ELEMENT`.
///
/// # Safety
/// `bytes` points to `len` readable bytes; `commitments_out` to a writable
/// pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_commitments_from_bytes(
    suite: c_int,
    bytes: *const u8,
    len: usize,
    commitments_out: *mut *mut oblivex_commitments,
) -> oblivex_status {
    catch(|| {
        let suite = Suite::from_c(suite)?;
        // SAFETY: `bytes` holds `len` bytes by the contract.
        let bytes = unsafe { input(bytes, len) }?;
        let commitments_out = out_value(commitments_out)?;
        let commitments =
            with_group!(suite, G => new_commitments(suite, Commitments::<G>::from_bytes(bytes)?));
        // SAFETY: `commitments_out` is non-NULL and writable by the contract.
        unsafe { commitments_out.write(commitments) };
        Ok(())
    })
}

/// Writes the commitments' encoding (t element encodings).
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `commitments` is a live handle; `out` has `capacity` writable bytes;
/// `written` points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_commitments_to_bytes(
    commitments: *const oblivex_commitments,
    out: *mut u8,
    capacity: usize,
    written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `commitments` is NULL or live by the contract.
        let commitments = unsafe { handle(commitments) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(out, capacity, written) }?;
        with_group!(commitments.suite, G => {
            let bytes = commitments_of::<G>(commitments).to_bytes();
            out.put(&bytes)
        })
    })
}

/// The threshold t of a commitment set (0 for NULL).
///
/// # Safety
/// `commitments` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn oblivex_commitments_threshold(
    commitments: *const oblivex_commitments,
) -> usize {
    catch_or(0, || {
        // SAFETY: `commitments` is NULL or live by the contract.
        match unsafe { commitments.as_ref() } {
            Some(c) => with_group!(c.suite, G => commitments_of::<G>(c).threshold()),
            None => 0,
        }
    })
}

/// Writes the shared key's public key `A_0` (an element encoding): the
/// key ElGamal encrypts to and the single-key OPRF's public key.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// As `oblivex_commitments_to_bytes`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_commitments_public_key(
    commitments: *const oblivex_commitments,
    out: *mut u8,
    capacity: usize,
    written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `commitments` is NULL or live by the contract.
        let commitments = unsafe { handle(commitments) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(out, capacity, written) }?;
        with_group!(commitments.suite, G => {
            let key = crate::group::encode_to_vec::<G>(commitments_of::<G>(commitments).public_key());
            out.put(&key)
        })
    })
}

/// Checks a share against the commitments (`k_id·B = C_id`): `OBLIVEX_OK`
/// if it is consistent, `OBLIVEX_ERR_VERIFICATION_FAILED` if not,
/// `OBLIVEX_ERR_UNKNOWN_SUITE` if the two are of different suites,
/// `OBLIVEX_ERR_NULL_POINTER`. Run it when a share is received.
///
/// # Safety
/// Both are live handles.
#[no_mangle]
pub unsafe extern "C" fn oblivex_commitments_verify_share(
    commitments: *const oblivex_commitments,
    share: *const oblivex_key_share,
) -> oblivex_status {
    catch(|| {
        // SAFETY: both are NULL or live by the contract.
        let (commitments, share) = unsafe { (handle(commitments)?, handle(share)?) };
        if commitments.suite != share.suite {
            return Err(Error::UnknownSuite);
        }
        with_group!(share.suite, G => {
            if commitments_of::<G>(commitments).verify_share(share_of::<G>(share)) {
                Ok(())
            } else {
                Err(Error::VerificationFailed)
            }
        })
    })
}

/// Releases a commitment set. NULL is ignored.
///
/// # Safety
/// `commitments` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_commitments_free(commitments: *mut oblivex_commitments) {
    catch_or((), || {
        if !commitments.is_null() {
            // SAFETY: a live handle from `Box::into_raw`.
            drop(unsafe { Box::from_raw(commitments) });
        }
    })
}

/// Reads an optional quorum (`quorum_len` party ids; NULL with 0 for none).
///
/// # Safety
/// `quorum` is NULL or points to `quorum_len` readable ids.
pub(super) unsafe fn read_quorum<'a>(
    quorum: *const u16,
    quorum_len: usize,
) -> Result<Option<&'a [PartyId]>, Error> {
    if quorum_len == 0 {
        return Ok(None);
    }
    if quorum.is_null() {
        return Err(Error::NullPointer);
    }
    if quorum_len > MAX_PARTIES {
        return Err(Error::InvalidPartyId);
    }
    // SAFETY: `quorum_len` ids are readable by the contract.
    let ids = unsafe { core::slice::from_raw_parts(quorum, quorum_len) };
    check_party_set(ids)?;
    Ok(Some(ids))
}

/// A server's whole part in every threshold protocol (OPRF evaluation,
/// blind signing, decryption): raises each element of `request`
/// (`request_len` bytes of element encodings) to its share — times its
/// Lagrange coefficient when the client names a `quorum` (`quorum_len`
/// party ids that include this server; NULL/0 for none) — and writes
/// `request_len` bytes to `response`.
///
/// Limits: a server cannot tell the balancer from a real input, so every
/// element is an evaluation, a signature or a decryption the client can
/// use: issuance and rate limits must count the elements of `request`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BAD_LENGTH`, `OBLIVEX_ERR_INVALID_ELEMENT`,
/// `OBLIVEX_ERR_INVALID_PARTY_ID` (a quorum without this server, or with a
/// zero or repeated id), `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `share` is a live handle; each (pointer, length) pair is readable or
/// writable as its role says; `response_written` points to a writable
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_threshold_server_evaluate(
    share: *const oblivex_key_share,
    quorum: *const u16,
    quorum_len: usize,
    request: *const u8,
    request_len: usize,
    response: *mut u8,
    response_capacity: usize,
    response_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `share` is NULL or live by the contract.
        let share = unsafe { handle(share) }?;
        // SAFETY: `quorum` holds `quorum_len` ids (or is NULL with 0).
        let quorum = unsafe { read_quorum(quorum, quorum_len) }?;
        // SAFETY: `request` holds `request_len` bytes by the contract.
        let request = unsafe { input(request, request_len) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let response = unsafe { OutBuffer::new(response, response_capacity, response_written) }?;
        response.check_fits(request.len())?;
        with_group!(share.suite, G => {
            let mut out = Zeroizing::new(vec![0u8; request.len()]);
            evaluate_share(share_of::<G>(share), quorum, request, &mut out)?;
            response.write(&out);
            Ok(())
        })
    })
}

/// The servers' responses as given by C: `count` party ids, response
/// pointers and lengths.
///
/// # Safety
/// `party_ids`, `responses` and `response_lens` point to `count` entries;
/// each response is readable for its length.
pub(super) unsafe fn read_responses<'a>(
    party_ids: *const u16,
    responses: *const *const u8,
    response_lens: *const usize,
    count: usize,
) -> Result<Vec<Response<'a>>, Error> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if party_ids.is_null() || responses.is_null() || response_lens.is_null() {
        return Err(Error::NullPointer);
    }
    if count > MAX_PARTIES {
        return Err(Error::InvalidPartyId);
    }
    // SAFETY: `count` entries of each array are readable by the contract.
    let (ids, pointers, lengths) = unsafe {
        (
            core::slice::from_raw_parts(party_ids, count),
            core::slice::from_raw_parts(responses, count),
            core::slice::from_raw_parts(response_lens, count),
        )
    };
    ids.iter()
        .zip(pointers)
        .zip(lengths)
        .map(|((&party, &p), &len)| {
            // SAFETY: each response is readable for its length by the
            // contract (NULL is allowed with length 0).
            let elements = unsafe { optional_input(p, len) }?;
            Ok(Response { party, elements })
        })
        .collect()
}

/// Where a threshold client reports the servers caught cheating.
pub(super) struct CheaterList {
    ptr: *mut u16,
    capacity: usize,
    written: *mut usize,
}

impl CheaterList {
    /// Checks the pointers; the capacity must hold one id per response.
    pub(super) fn new(
        ptr: *mut u16,
        capacity: usize,
        written: *mut usize,
        responses: usize,
    ) -> Result<Self, Error> {
        if ptr.is_null() || written.is_null() {
            return Err(Error::NullPointer);
        }
        if capacity < responses {
            return Err(Error::BufferTooSmall);
        }
        Ok(CheaterList {
            ptr,
            capacity,
            written,
        })
    }

    fn write(self, cheaters: &[PartyId]) {
        assert!(
            cheaters.len() <= self.capacity,
            "one id per response at most"
        );
        // SAFETY: `capacity` ids are writable at `ptr` and `written` is a
        // writable size_t (the callers' contracts); the list fits.
        unsafe {
            core::ptr::copy_nonoverlapping(cheaters.as_ptr(), self.ptr, cheaters.len());
            self.written.write(cheaters.len());
        }
    }
}

/// What every threshold client's last step reads and writes, checked
/// before anything is spent: the servers' responses, the output buffer and
/// the cheater list.
pub(super) struct Finish<'a> {
    responses: Vec<Response<'a>>,
    outputs: OutBuffer,
    cheaters: CheaterList,
}

impl<'a> Finish<'a> {
    /// Checks the arguments of a `*_finish` / `*_finalize` call.
    ///
    /// # Safety
    /// As those functions' contracts: each array holds `response_count`
    /// entries, each (pointer, length) pair is readable or writable as its
    /// role says, the `*_written` pointers point to writable `size_t`s.
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn new(
        party_ids: *const u16,
        responses: *const *const u8,
        response_lens: *const usize,
        response_count: usize,
        outputs: *mut u8,
        outputs_capacity: usize,
        outputs_written: *mut usize,
        cheaters: *mut u16,
        cheaters_capacity: usize,
        cheaters_written: *mut usize,
    ) -> Result<Self, Error> {
        // SAFETY: forwarded from this function's contract.
        let responses =
            unsafe { read_responses(party_ids, responses, response_lens, response_count) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let outputs = unsafe { OutBuffer::new(outputs, outputs_capacity, outputs_written) }?;
        let cheaters = CheaterList::new(
            cheaters,
            cheaters_capacity,
            cheaters_written,
            response_count,
        )?;
        Ok(Finish {
            responses,
            outputs,
            cheaters,
        })
    }

    /// Checks that `count` outputs of `width` bytes fit, then runs `finish`
    /// (which takes the batch out of its handle, spending it) on the
    /// responses and reports its outcome.
    pub(super) fn complete<T: AsRef<[u8]>>(
        self,
        count: usize,
        width: usize,
        finish: impl FnOnce(&[Response<'a>]) -> Result<Result<Recovered<T>, Failure>, Error>,
    ) -> Result<(), Error> {
        self.outputs.check_fits(array_len(count, width)?)?;
        let outcome = finish(&self.responses)?;
        report(outcome, self.outputs, self.cheaters)
    }
}

/// Reports a threshold client's outcome: on success the outputs (one after
/// the other, straight from the items, which wipe themselves where they are
/// secret) and the cheaters; on a failure that comes
/// after the answers were checked ([`carries_cheaters`]) the cheaters only;
/// the error code either way.
pub(super) fn report<T: AsRef<[u8]>>(
    outcome: Result<Recovered<T>, Failure>,
    outputs: OutBuffer,
    cheaters: CheaterList,
) -> Result<(), Error> {
    match outcome {
        Ok(recovered) => {
            outputs.write_items(&recovered.outputs);
            cheaters.write(&recovered.cheaters);
            Ok(())
        }
        Err(failure) => {
            if carries_cheaters(failure.error) {
                cheaters.write(&failure.cheaters);
            }
            Err(failure.error)
        }
    }
}

/// The failures of a threshold client's last step that come after every
/// answer was checked, and so report the servers caught cheating: too few
/// correct answers, a cheater in a named quorum, and (ElGamal) a ciphertext
/// that decrypts to the identity.
pub(super) fn carries_cheaters(error: Error) -> bool {
    matches!(
        error,
        Error::VerificationFailed | Error::NotEnoughResponses | Error::InvalidInput
    )
}

/// A threshold OPRF client batch: inputs, blinds and the one checked
/// request for every server. Finish it once; secrets are wiped when it is
/// finished or freed. Not for concurrent use.
pub struct oblivex_threshold_oprf_client {
    suite: Suite,
    /// A `ThresholdClientBatch<G>`, taken out by finalize.
    batch: Option<Box<dyn Any + Send>>,
    /// Outputs to expect.
    count: usize,
}

/// The threshold OPRF client's first step: hashes and blinds `count`
/// inputs (as `oblivex_checked_oprf_client_blind`) for the servers sharing
/// the key of `commitments` and writes the one request to send to each of
/// them (`count + 1` element encodings). `quorum` (`quorum_len` = t ids,
/// or NULL/0): name the servers that will answer, so that they
/// pre-multiply by their Lagrange coefficients (each must then be given
/// the same quorum). `kappa`: 32..128, 0 for 64.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_INVALID_KAPPA`, `OBLIVEX_ERR_EMPTY_INPUT`,
/// `OBLIVEX_ERR_BAD_LENGTH`, `OBLIVEX_ERR_INVALID_INPUT`,
/// `OBLIVEX_ERR_INVALID_PARTY_ID` (a quorum of the wrong size or with a
/// zero or repeated id), `OBLIVEX_ERR_BUFFER_TOO_SMALL`,
/// `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `commitments` is a live handle; the pointer arguments are readable or
/// writable as their lengths say; `request_written` and `client_out` point
/// to writable values.
#[no_mangle]
pub unsafe extern "C" fn oblivex_threshold_oprf_client_blind(
    commitments: *const oblivex_commitments,
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
    quorum: *const u16,
    quorum_len: usize,
    kappa: u32,
    request: *mut u8,
    request_capacity: usize,
    request_written: *mut usize,
    client_out: *mut *mut oblivex_threshold_oprf_client,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `commitments` is NULL or live by the contract.
        let commitments = unsafe { handle(commitments) }?;
        // SAFETY: forwarded from this function's contract.
        let inputs = unsafe { read_inputs(inputs, input_lens, count) }?;
        // SAFETY: `quorum` holds `quorum_len` ids (or is NULL with 0).
        let quorum = unsafe { read_quorum(quorum, quorum_len) }?;
        let kappa = super::checked::kappa_from_c(kappa)?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let request = unsafe { OutBuffer::new(request, request_capacity, request_written) }?;
        let client_out = out_value(client_out)?;
        let mut rng = os_rng()?;
        let suite = commitments.suite;
        let client = with_group!(suite, G => {
            request.check_fits(array_len(inputs.len() + 1, G::ELEMENT_LEN)?)?;
            let batch = ThresholdClientBatch::<G>::blind(
                &inputs,
                commitments_of::<G>(commitments),
                quorum,
                kappa,
                &mut rng,
            )?;
            request.write(batch.blinded_elements());
            oblivex_threshold_oprf_client { suite, batch: Some(Box::new(batch)), count: inputs.len() }
        });
        // SAFETY: `client_out` is non-NULL and writable by the contract.
        unsafe { client_out.write(Box::into_raw(Box::new(client))) };
        Ok(())
    })
}

/// The threshold OPRF client's last step: checks each server's response
/// (`party_ids[i]` answered `responses[i]` of `response_lens[i]` bytes,
/// `response_count` of them), combines t correct ones and writes the PRF
/// outputs (`oblivex_suite_output_len` bytes each, in input order) to
/// `outputs`, and the ids of the servers caught cheating (a wrong answer,
/// or one that does not decode) to `cheaters` (capacity at least
/// `response_count`), their number to `*cheaters_written`. The outputs
/// equal the single-key OPRF's under the shared key.
///
/// Errors: `OBLIVEX_ERR_NOT_ENOUGH_RESPONSES` (fewer than t correct
/// answers) and `OBLIVEX_ERR_VERIFICATION_FAILED` (a cheater in a named
/// quorum: ask another quorum with a fresh batch) write no output but do
/// write the cheaters; `OBLIVEX_ERR_INVALID_PARTY_ID` (a repeated id, or a
/// server outside the named quorum), `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`, `OBLIVEX_ERR_BATCH_USED` write nothing.
/// So the statuses that carry the cheater list are `OBLIVEX_OK`,
/// `OBLIVEX_ERR_VERIFICATION_FAILED` and `OBLIVEX_ERR_NOT_ENOUGH_RESPONSES`.
/// Blame: every server whose answer is checked on its own and fails is
/// named; when the combined check of t answers passes, their outputs are
/// right, and servers whose wrong answers cancel out in the combination
/// (colluders) change nothing and may go unnamed.
/// The first call that gets as far as checking spends the batch.
///
/// # Safety
/// `client` is a live handle; each array holds `response_count` entries;
/// each (pointer, length) pair is readable or writable as its role says;
/// `outputs_written` and `cheaters_written` point to writable `size_t`s.
#[no_mangle]
pub unsafe extern "C" fn oblivex_threshold_oprf_client_finalize(
    client: *mut oblivex_threshold_oprf_client,
    party_ids: *const u16,
    responses: *const *const u8,
    response_lens: *const usize,
    response_count: usize,
    outputs: *mut u8,
    outputs_capacity: usize,
    outputs_written: *mut usize,
    cheaters: *mut u16,
    cheaters_capacity: usize,
    cheaters_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `client` is NULL or live by the contract; not shared
        // across threads (documented).
        let client = unsafe { client.as_mut() }.ok_or(Error::NullPointer)?;
        // SAFETY: forwarded from this function's contract.
        let finish = unsafe {
            Finish::new(
                party_ids,
                responses,
                response_lens,
                response_count,
                outputs,
                outputs_capacity,
                outputs_written,
                cheaters,
                cheaters_capacity,
                cheaters_written,
            )
        }?;
        with_group!(client.suite, G => {
            finish.complete(client.count, G::HASH_LEN, |responses| {
                let batch = client.batch.take().ok_or(Error::BatchUsed)?;
                let batch = batch
                    .downcast::<ThresholdClientBatch<G>>()
                    .expect("a handle holds a batch of its own suite");
                Ok(batch.finalize(responses))
            })
        })
    })
}

/// Releases a threshold OPRF client (wiping its secrets). NULL is ignored.
///
/// # Safety
/// `client` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_threshold_oprf_client_free(
    client: *mut oblivex_threshold_oprf_client,
) {
    catch_or((), || {
        if !client.is_null() {
            // SAFETY: a live handle from `Box::into_raw`; the batch wipes
            // its secrets on drop.
            drop(unsafe { Box::from_raw(client) });
        }
    })
}
