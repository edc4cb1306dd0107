//! C ABI of threshold ElGamal: encryption and KEM encapsulation under a
//! shared key, and the client that has t of m servers decrypt a batch.
//! Servers answer with `oblivex_threshold_server_evaluate` on their key
//! share. Not CCA-secure (see `oblivex::elgamal`).

use core::ffi::c_int;

use super::args::{check_response, item_width, kappa_from_c, read_quorum, BatchSlot, Finalize};
use super::guard::{array_len, catch, catch_or, input, out_pointer, OutBuffer};
use super::handle::{borrow, borrow_mut, create, free, Boxed, Handle};
use super::sharing::oblivex_commitments;
use super::status::{oblivex_status, CResult, OBLIVEX_ERR_BAD_LENGTH, OBLIVEX_ERR_UNKNOWN_TARGET};
use super::suite::{oblivex_suite, with_group, PerGroup, PerSuite, Suite, SuiteGroup};
use crate::elgamal::{encapsulate, encrypt, Ciphertext, DecryptionBatch, DecryptionClient};
use crate::group::{encode_to_vec, PrimeOrderGroup};
use crate::oblivious::Kappa;
use crate::rng::os_rng;
use crate::threshold::{Commitments, PartyId};

/// Encrypts `message` (an element encoding of `suite`, not the identity)
/// under `public_key` (an element encoding, e.g. from
/// `oblivex_commitments_public_key`) and writes the ciphertext `c1 || c2`
/// (two element encodings) to `ciphertext`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_SUITE`, `OBLIVEX_ERR_INVALID_ELEMENT`,
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`, `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// Each (pointer, length) pair is readable or writable as its role says;
/// `ciphertext_written` points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_elgamal_encrypt(
    suite: oblivex_suite,
    public_key: *const u8,
    public_key_len: usize,
    message: *const u8,
    message_len: usize,
    ciphertext: *mut u8,
    ciphertext_capacity: usize,
    ciphertext_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        let suite = Suite::from_c(suite)?;
        // SAFETY: each pair is readable by the contract.
        let (public_key, message) = unsafe {
            (
                input(public_key, public_key_len)?,
                input(message, message_len)?,
            )
        };
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(ciphertext, ciphertext_capacity, ciphertext_written) }?;
        with_group!(suite, G => {
            out.check_fits(Ciphertext::<G>::ENCODED_LEN)?;
            let (key, message) = (G::decode(public_key)?, G::decode(message)?);
            out.put(&encrypt::<G, _>(&key, &message, &mut os_rng()?)?.to_bytes())
        })
    })
}

/// The KEM form: writes a fresh encapsulation (an element encoding) to
/// `encapsulation` and its shared secret (`oblivex_suite_output_len`
/// bytes) to `secret`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_SUITE`, `OBLIVEX_ERR_INVALID_ELEMENT`,
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`, `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// Each (pointer, length) pair is readable or writable as its role says;
/// the `*_written` arguments point to writable `size_t`s.
#[no_mangle]
pub unsafe extern "C" fn oblivex_elgamal_encapsulate(
    suite: oblivex_suite,
    public_key: *const u8,
    public_key_len: usize,
    encapsulation: *mut u8,
    encapsulation_capacity: usize,
    encapsulation_written: *mut usize,
    secret: *mut u8,
    secret_capacity: usize,
    secret_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        let suite = Suite::from_c(suite)?;
        // SAFETY: `public_key` holds `public_key_len` bytes by the contract.
        let public_key = unsafe { input(public_key, public_key_len) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let (c1_out, secret_out) = unsafe {
            (
                OutBuffer::new(encapsulation, encapsulation_capacity, encapsulation_written)?,
                OutBuffer::new(secret, secret_capacity, secret_written)?,
            )
        };
        with_group!(suite, G => {
            c1_out.check_fits(G::ELEMENT_LEN)?;
            secret_out.check_fits(G::HASH_LEN)?;
            let (c1, shared) = encapsulate::<G, _>(&G::decode(public_key)?, &mut os_rng()?)?;
            c1_out.put(&encode_to_vec::<G>(&c1))?;
            secret_out.put(&shared)
        })
    })
}

/// What a decryption batch recovers (`OBLIVEX_ELGAMAL_*`).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct oblivex_elgamal_target(pub c_int);

/// Plaintexts of ciphertexts `c1 || c2` (element encodings out).
pub const OBLIVEX_ELGAMAL_PLAINTEXTS: oblivex_elgamal_target = oblivex_elgamal_target(1);
/// Shared secrets of KEM encapsulations (`oblivex_suite_output_len` bytes
/// each out).
pub const OBLIVEX_ELGAMAL_KEM_SECRETS: oblivex_elgamal_target = oblivex_elgamal_target(2);

/// A client's batch of ciphertexts (or KEM encapsulations) being decrypted
/// by t of m servers, kept between `oblivex_elgamal_batch_blind` and
/// `oblivex_elgamal_batch_finalize`. Finalize it once; secrets are wiped
/// when it is finalized or freed. Not for concurrent use.
pub struct oblivex_elgamal_batch {
    _opaque: [u8; 0],
}

impl Handle for oblivex_elgamal_batch {
    type RustType = SuiteDecryptionBatch;
    type Ownership = Boxed;
}

/// What an `oblivex_elgamal_batch` points to: the number of items, the
/// width of an output, and the batch, of the commitments' group.
pub(crate) struct SuiteDecryptionBatch {
    count: usize,
    output_len: usize,
    batch: PerSuite<DecryptionBatchSlots>,
}

/// The [`BatchSlot`] of a [`DecryptionBatch`], for each group.
enum DecryptionBatchSlots {}

impl PerGroup for DecryptionBatchSlots {
    type Of<G: PrimeOrderGroup> = BatchSlot<DecryptionBatch<G>>;
}

#[allow(clippy::too_many_arguments)]
fn blind<G: PrimeOrderGroup>(
    commitments: &Commitments<G>,
    kem: bool,
    items: &[u8],
    count: usize,
    blinded: bool,
    quorum: Option<&[PartyId]>,
    kappa: Kappa,
    request: OutBuffer,
) -> CResult<DecryptionBatch<G>> {
    let width = item_width(items.len(), count)?;
    let expected = if kem {
        G::ELEMENT_LEN
    } else {
        Ciphertext::<G>::ENCODED_LEN
    };
    if width != expected {
        return Err(OBLIVEX_ERR_BAD_LENGTH);
    }
    let mut client = DecryptionClient::new(commitments.clone(), blinded, kappa);
    if let Some(quorum) = quorum {
        client = client.with_quorum(quorum)?;
    }
    request.check_fits(array_len(count + 1, G::ELEMENT_LEN)?)?;
    let rng = &mut os_rng()?;
    let batch = if kem {
        client.blind_encapsulations(&G::decode_batch(items)?, rng)?
    } else {
        let ciphertexts = items
            .chunks_exact(width)
            .map(Ciphertext::<G>::from_bytes)
            .collect::<Result<Vec<_>, _>>()?;
        client.blind_ciphertexts(&ciphertexts, rng)?
    };
    request.put(batch.request().as_bytes())?;
    Ok(batch)
}

/// The decryption client's first step for `count` items of `items`
/// (`items_len` bytes): ciphertexts (`c1 || c2`, two element encodings
/// each) for `OBLIVEX_ELGAMAL_PLAINTEXTS`, encapsulations (one element
/// encoding each) for `OBLIVEX_ELGAMAL_KEM_SECRETS`, decrypted by the
/// servers sharing the key of `commitments`. Writes the one request for
/// every server (`count + 1` element encodings) to `request` and stores the
/// batch handle in `*batch_out` (release it with
/// `oblivex_elgamal_batch_free`). With `blinded` the servers see `r_i·c1_i`
/// for fresh secret `r_i` and cannot link the request to the ciphertexts.
/// `quorum` and `kappa` as in `oblivex_threshold_oprf_batch_blind`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_TARGET`, `OBLIVEX_ERR_INVALID_KAPPA`,
/// `OBLIVEX_ERR_EMPTY_INPUT`, `OBLIVEX_ERR_BAD_LENGTH` (items not `count`
/// of the target's width), `OBLIVEX_ERR_INVALID_ELEMENT`,
/// `OBLIVEX_ERR_INVALID_PARTY_ID`, `OBLIVEX_ERR_BUFFER_TOO_SMALL`,
/// `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `commitments` is a live handle; `items` points to `items_len` readable
/// bytes; `quorum` is NULL with 0 or holds `quorum_len` ids; `request`
/// points to `request_capacity` writable bytes; `request_written` to a
/// writable `size_t`; `batch_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_elgamal_batch_blind(
    commitments: *const oblivex_commitments,
    target: oblivex_elgamal_target,
    items: *const u8,
    items_len: usize,
    count: usize,
    blinded: bool,
    quorum: *const u16,
    quorum_len: usize,
    kappa: u32,
    request: *mut u8,
    request_capacity: usize,
    request_written: *mut usize,
    batch_out: *mut *mut oblivex_elgamal_batch,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `commitments` is NULL or live by the contract.
        let commitments = unsafe { borrow(commitments) }?;
        let kem = match target {
            OBLIVEX_ELGAMAL_PLAINTEXTS => false,
            OBLIVEX_ELGAMAL_KEM_SECRETS => true,
            _ => return Err(OBLIVEX_ERR_UNKNOWN_TARGET),
        };
        let kappa = kappa_from_c(kappa)?;
        // SAFETY: the input pointers hold their lengths by the contract.
        let (items, quorum) =
            unsafe { (input(items, items_len)?, read_quorum(quorum, quorum_len)?) };
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let request = unsafe { OutBuffer::new(request, request_capacity, request_written) }?;
        let batch_out = out_pointer(batch_out)?;
        let handle = with_group!(match commitments, G(commitments) => {
            let batch = blind::<G>(commitments, kem, items, count, blinded, quorum, kappa, request)?;
            let output_len = batch.output_len();
            SuiteDecryptionBatch { count, output_len, batch: G::wrap(BatchSlot::new(batch)) }
        });
        // SAFETY: `batch_out` is non-NULL and writable by the contract.
        unsafe { create(batch_out, handle) };
        Ok(())
    })
}

/// The width of each output of `oblivex_elgamal_batch_finalize`: an element
/// encoding for plaintexts, `oblivex_suite_output_len` for KEM secrets (0
/// for NULL).
///
/// # Safety
/// `batch` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn oblivex_elgamal_batch_output_len(
    batch: *const oblivex_elgamal_batch,
) -> usize {
    // SAFETY: `batch` is NULL or live by the contract.
    catch_or(0, || unsafe { borrow(batch) }.map_or(0, |b| b.output_len))
}

/// The decryption client's last step: checks each server's response,
/// combines t correct ones, unblinds, and writes the plaintexts (element
/// encodings) or KEM secrets, in order, to `outputs`
/// (`oblivex_elgamal_batch_output_len` bytes each) and the servers caught
/// cheating to `cheaters`, as `oblivex_threshold_oprf_batch_finalize` does
/// (same arguments, same blame).
///
/// Errors: as `oblivex_threshold_oprf_batch_finalize`, plus
/// `OBLIVEX_ERR_INVALID_INPUT` for a ciphertext whose plaintext is the
/// identity (not a valid encryption): no output for the whole batch, the
/// batch spent, but the servers already caught cheating are written to
/// `cheaters` (it carries the cheater list, as
/// `OBLIVEX_ERR_VERIFICATION_FAILED` and
/// `OBLIVEX_ERR_NOT_ENOUGH_RESPONSES` do).
///
/// # Safety
/// As `oblivex_threshold_oprf_batch_finalize`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_elgamal_batch_finalize(
    batch: *mut oblivex_elgamal_batch,
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
        let (items, width) = (batch.count, batch.output_len);
        with_group!(match &mut batch.batch, G(slot) => finalize.run(slot, items, width))
    })
}

/// Checks one server's answer (`party_id` answered `response`, of
/// `response_len` bytes) against its commitment without spending the
/// batch, so that `oblivex_elgamal_batch_finalize` can be called with the
/// first t that pass. Returns and Errors (the batch usable after
/// each): as `oblivex_threshold_oprf_batch_check`.
///
/// # Safety
/// As `oblivex_threshold_oprf_batch_check`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_elgamal_batch_check(
    batch: *const oblivex_elgamal_batch,
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

/// Releases a decryption batch (its secrets are wiped). NULL is ignored.
///
/// # Safety
/// `batch` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_elgamal_batch_free(batch: *mut oblivex_elgamal_batch) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free(batch) }
}
