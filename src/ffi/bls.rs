//! C ABI of threshold blind BLS signing (BLS12-381, signatures in G1): the
//! key set (dealer, encoding, pairing checks), the client batch, and
//! standard verification. Signers answer with
//! `oblivex_threshold_server_evaluate` on their
//! `OBLIVEX_SUITE_BLS12381G1_SHA256` key share.

use super::args::{check_response, kappa_from_c, read_inputs, read_quorum, BatchSlot, Finalize};
use super::guard::{array_len, catch, input, optional_input, out_pointer, OutBuffer};
use super::handle::{borrow, borrow_mut, create, free, Boxed, Handle};
use super::sharing::{oblivex_key_share, Dealing};
use super::status::{oblivex_status, OBLIVEX_ERR_VERIFICATION_FAILED};
use crate::bls::{self, KeySet, PublicKey, SigningBatch, SigningClient, SIGNATURE_LEN};
use crate::group::{Bls12381G1, PrimeOrderGroup};
use crate::rng::os_rng;

/// A threshold BLS key set: the G2 public key, each signer's G2 key and
/// the G1 commitments, checked against each other by pairings when it was
/// made. Immutable and thread-safe.
pub struct oblivex_bls_key_set {
    _opaque: [u8; 0],
}

impl Handle for oblivex_bls_key_set {
    type RustType = KeySet;
    type Ownership = Boxed;
}

/// A client's batch of messages being signed blindly, kept between
/// `oblivex_bls_batch_blind` and `oblivex_bls_batch_finalize`. Finalize it
/// once; secrets are wiped when it is finalized or freed. Not for
/// concurrent use.
pub struct oblivex_bls_batch {
    _opaque: [u8; 0],
}

impl Handle for oblivex_bls_batch {
    type RustType = BlsBatch;
    type Ownership = Boxed;
}

/// What an `oblivex_bls_batch` points to: the number of messages and the
/// batch.
pub(crate) struct BlsBatch {
    count: usize,
    batch: BatchSlot<SigningBatch>,
}

/// A dealer's t-of-m threshold BLS key (`1 <= t <= m <=
/// OBLIVEX_MAX_PARTIES`): `secret` is the signing key to share (32 bytes
/// big-endian) or NULL/0 for a fresh random key. Writes the signers' shares
/// (parties 1..m, in order, suite `OBLIVEX_SUITE_BLS12381G1_SHA256`) to
/// `shares_out[0..m]` (release each with `oblivex_key_share_free`) and the
/// key set to publish to `*key_set_out` (`oblivex_bls_key_set_free`).
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_INVALID_THRESHOLD`, `OBLIVEX_ERR_INVALID_SCALAR` (the
/// secret), `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `secret` is NULL or points to `secret_len` readable bytes; `shares_out`
/// to `parties` writable pointers; `key_set_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_deal(
    secret: *const u8,
    secret_len: usize,
    threshold: usize,
    parties: usize,
    shares_out: *mut *mut oblivex_key_share,
    key_set_out: *mut *mut oblivex_bls_key_set,
) -> oblivex_status {
    catch(|| {
        // SAFETY: forwarded from this function's contract.
        let dealing = unsafe { Dealing::new(secret, secret_len, threshold, parties, shares_out) }?;
        let key_set_out = out_pointer(key_set_out)?;
        let mut rng = os_rng()?;
        let key = dealing.key::<Bls12381G1, _>(&mut rng)?;
        let (shares, key_set) = bls::deal(&key, threshold, parties, &mut rng)?;
        dealing.emit_shares(shares);
        // SAFETY: `key_set_out` is non-NULL and writable by the contract.
        unsafe { create(key_set_out, key_set) };
        Ok(())
    })
}

/// Decodes a key set (t and m as 2 bytes
/// big-endian each, the 96-byte G2 public key, the m signers' G2 keys, the t
/// 48-byte G1 commitments), validating every point and checking the
/// pairings that tie them, into `*key_set_out` (release it with
/// `oblivex_bls_key_set_free`).
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BAD_LENGTH`, `OBLIVEX_ERR_INVALID_THRESHOLD`,
/// `OBLIVEX_ERR_INVALID_ELEMENT`, `OBLIVEX_ERR_VERIFICATION_FAILED` (keys
/// inconsistent with the commitments).
///
/// # Safety
/// `bytes` points to `bytes_len` readable bytes; `key_set_out` to a
/// writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_key_set_from_bytes(
    bytes: *const u8,
    bytes_len: usize,
    key_set_out: *mut *mut oblivex_bls_key_set,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `bytes` holds `bytes_len` bytes by the contract.
        let bytes = unsafe { input(bytes, bytes_len) }?;
        let key_set_out = out_pointer(key_set_out)?;
        let key_set = KeySet::from_bytes(bytes)?;
        // SAFETY: `key_set_out` is non-NULL and writable by the contract.
        unsafe { create(key_set_out, key_set) };
        Ok(())
    })
}

/// Writes the key set's encoding (see `oblivex_bls_key_set_from_bytes`) to
/// `bytes` and its length to `*bytes_written`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `key_set` is a live handle; `bytes` points to `bytes_capacity` writable
/// bytes; `bytes_written` to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_key_set_to_bytes(
    key_set: *const oblivex_bls_key_set,
    bytes: *mut u8,
    bytes_capacity: usize,
    bytes_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `key_set` is NULL or live by the contract.
        let key_set = unsafe { borrow(key_set) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(bytes, bytes_capacity, bytes_written) }?;
        out.put(&key_set.to_bytes())
    })
}

/// Writes the key set's public key (`OBLIVEX_BLS_PUBLIC_KEY_LEN` bytes, a
/// compressed G2 point), which verifies every signature, to `public_key`
/// and its length to `*public_key_written`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `key_set` is a live handle; `public_key` points to `public_key_capacity`
/// writable bytes; `public_key_written` to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_key_set_public_key(
    key_set: *const oblivex_bls_key_set,
    public_key: *mut u8,
    public_key_capacity: usize,
    public_key_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `key_set` is NULL or live by the contract.
        let key_set = unsafe { borrow(key_set) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(public_key, public_key_capacity, public_key_written) }?;
        out.put(&key_set.public_key().to_bytes())
    })
}

/// Releases a key set. NULL is ignored.
///
/// # Safety
/// `key_set` is NULL or a live handle, not used afterwards (by any thread).
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_key_set_free(key_set: *mut oblivex_bls_key_set) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free(key_set) }
}

/// The client's first step: hashes `count` messages (`messages[i]` of
/// `messages_lens[i]` bytes, at most `OBLIVEX_MAX_INPUT_LEN` each) to G1
/// with the ciphersuite's DST, blinds them, hides the balancer among them
/// and writes the one request every signer signs (`count + 1` G1
/// encodings) to `request`; stores the batch handle in `*batch_out`
/// (release it with `oblivex_bls_batch_free`). With a `quorum` (exactly t
/// party ids; NULL/0 for none) its signers pre-multiply by their Lagrange
/// coefficients. `kappa` 0 means 64.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_INVALID_KAPPA`, `OBLIVEX_ERR_EMPTY_INPUT`,
/// `OBLIVEX_ERR_BAD_LENGTH`, `OBLIVEX_ERR_INVALID_PARTY_ID`,
/// `OBLIVEX_ERR_INVALID_INPUT`, `OBLIVEX_ERR_BUFFER_TOO_SMALL`,
/// `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `key_set` is a live handle; `messages` and `messages_lens` point to
/// `count` entries, each message readable for its length; `quorum` is NULL
/// with 0 or holds `quorum_len` ids; `request` points to
/// `request_capacity` writable bytes; `request_written` to a writable
/// `size_t`; `batch_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_batch_blind(
    key_set: *const oblivex_bls_key_set,
    messages: *const *const u8,
    messages_lens: *const usize,
    count: usize,
    quorum: *const u16,
    quorum_len: usize,
    kappa: u32,
    request: *mut u8,
    request_capacity: usize,
    request_written: *mut usize,
    batch_out: *mut *mut oblivex_bls_batch,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `key_set` is NULL or live by the contract.
        let key_set = unsafe { borrow(key_set) }?;
        let kappa = kappa_from_c(kappa)?;
        // SAFETY: the input pointers hold their lengths by the contract.
        let (messages, quorum) = unsafe {
            (
                read_inputs(messages, messages_lens, count)?,
                read_quorum(quorum, quorum_len)?,
            )
        };
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let request = unsafe { OutBuffer::new(request, request_capacity, request_written) }?;
        let batch_out = out_pointer(batch_out)?;
        let mut client = SigningClient::new(key_set.clone(), kappa);
        if let Some(quorum) = quorum {
            client = client.with_quorum(quorum)?;
        }
        request.check_fits(array_len(count + 1, Bls12381G1::ELEMENT_LEN)?)?;
        let batch = client.blind(&messages, &mut os_rng()?)?;
        request.put(batch.request().as_bytes())?;
        let handle = BlsBatch {
            count,
            batch: BatchSlot::new(batch),
        };
        // SAFETY: `batch_out` is non-NULL and writable by the contract.
        unsafe { create(batch_out, handle) };
        Ok(())
    })
}

/// The client's last step: checks each signer's response with the G1
/// batch check (no pairing), combines t correct ones, unblinds, and writes
/// the signatures (`OBLIVEX_BLS_SIGNATURE_LEN` bytes each, standard
/// `min_sig`, in message order) to `signatures` and the signers caught
/// cheating to `cheaters`. Arguments and blame as
/// `oblivex_threshold_oprf_batch_finalize`.
///
/// Errors, and which carry the cheater list: as
/// `oblivex_threshold_oprf_batch_finalize`.
///
/// # Safety
/// As `oblivex_threshold_oprf_batch_finalize`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_batch_finalize(
    batch: *mut oblivex_bls_batch,
    party_ids: *const u16,
    responses: *const *const u8,
    responses_lens: *const usize,
    count: usize,
    signatures: *mut u8,
    signatures_capacity: usize,
    signatures_written: *mut usize,
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
                signatures,
                signatures_capacity,
                signatures_written,
                cheaters,
                cheaters_capacity,
                cheaters_written,
            )
        }?;
        finalize.run(&mut batch.batch, batch.count, SIGNATURE_LEN)
    })
}

/// Checks one signer's answer (`party_id` answered `response`, of
/// `response_len` bytes) against its G1 commitment (no pairing) without
/// spending the batch, so that `oblivex_bls_batch_finalize` can be called
/// with the first t that pass. Returns and Errors (the batch usable
/// after each): as `oblivex_threshold_oprf_batch_check`.
///
/// # Safety
/// As `oblivex_threshold_oprf_batch_check`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_batch_check(
    batch: *const oblivex_bls_batch,
    party_id: u16,
    response: *const u8,
    response_len: usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `batch` is NULL or live by the contract.
        let batch = unsafe { borrow(batch) }?;
        // SAFETY: `response` holds `response_len` bytes by the contract.
        unsafe { check_response(&batch.batch, party_id, response, response_len) }
    })
}

/// Releases a signing batch (its secrets are wiped). NULL is ignored.
///
/// # Safety
/// `batch` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_batch_free(batch: *mut oblivex_bls_batch) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free(batch) }
}

/// Checks a BLS public key received from elsewhere before it is stored:
/// `OBLIVEX_OK` if it is a canonical compressed G2 point in the
/// prime-order subgroup and not the identity, the checks
/// `oblivex_bls_verify` makes.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_BAD_LENGTH` (not
/// `OBLIVEX_BLS_PUBLIC_KEY_LEN` bytes), `OBLIVEX_ERR_INVALID_ELEMENT`.
///
/// # Safety
/// `public_key` points to `public_key_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_check_public_key(
    public_key: *const u8,
    public_key_len: usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `public_key` holds `public_key_len` bytes by the contract.
        let public_key = unsafe { input(public_key, public_key_len) }?;
        PublicKey::from_bytes(public_key)
            .map(drop)
            .map_err(Into::into)
    })
}

/// Standard BLS verification (`BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_`,
/// blst `min_sig`, with the signature's subgroup check) of `signature` on
/// `message` (NULL with 0 for an empty one) under `public_key`: `OBLIVEX_OK`
/// if it holds.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_BAD_LENGTH` /
/// `OBLIVEX_ERR_INVALID_ELEMENT` (a malformed public key),
/// `OBLIVEX_ERR_VERIFICATION_FAILED` (the signature does not verify,
/// including a malformed one).
///
/// # Safety
/// Each (pointer, length) pair is readable for its length.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_verify(
    public_key: *const u8,
    public_key_len: usize,
    message: *const u8,
    message_len: usize,
    signature: *const u8,
    signature_len: usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: each pair is readable by the contract.
        let (public_key, message, signature) = unsafe {
            (
                input(public_key, public_key_len)?,
                optional_input(message, message_len)?,
                input(signature, signature_len)?,
            )
        };
        let public_key = PublicKey::from_bytes(public_key)?;
        if bls::verify(&public_key, message, signature) {
            Ok(())
        } else {
            Err(OBLIVEX_ERR_VERIFICATION_FAILED)
        }
    })
}
