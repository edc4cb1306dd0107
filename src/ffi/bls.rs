//! C ABI of threshold blind BLS signing (BLS12-381, signatures in G1): the
//! key set (dealer, encoding, pairing checks), the client batch, and
//! standard verification. Signers use `oblivex_threshold_server_evaluate`
//! with their `OBLIVEX_SUITE_BLS12381G1_SHA256` key share.

use super::guard::{
    array_len, catch, catch_or, handle, input, optional_input, out_value, OutBuffer,
};
use super::oprf::read_inputs;
use super::status::oblivex_status;
use super::suite::Suite;
use super::threshold::{emit_shares, oblivex_key_share, read_quorum, Finish};
use crate::bls::{self, BlindSignBatch, KeySet, PublicKey, SIGNATURE_LEN};
use crate::group::Bls12381G1;
use crate::rng::os_rng;
use crate::Error;

/// A threshold BLS key set: the G2 public key, each signer's G2 key and
/// the G1 commitments, checked against each other by pairings when it was
/// made. Immutable and thread-safe.
pub struct oblivex_bls_key_set {
    key_set: KeySet,
}

/// A client's batch of messages being signed blindly. Finish it once;
/// secrets are wiped when it is finished or freed. Not for concurrent use.
pub struct oblivex_bls_client {
    batch: Option<BlindSignBatch>,
    count: usize,
}

/// A dealer's t-of-m threshold BLS key (`1 <= t <= m <= 1024`) from fresh
/// randomness: the signers' shares (parties 1..m, in order, suite
/// `OBLIVEX_SUITE_BLS12381G1_SHA256`) to `shares_out[0..m]` and the key set
/// to publish to `*key_set_out`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_INVALID_THRESHOLD`, `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `shares_out` points to `signers` writable pointers; `key_set_out` to a
/// writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_deal(
    threshold: usize,
    signers: usize,
    shares_out: *mut *mut oblivex_key_share,
    key_set_out: *mut *mut oblivex_bls_key_set,
) -> oblivex_status {
    catch(|| {
        crate::threshold::check_threshold(threshold, signers)?;
        let shares_out = out_value(shares_out)?;
        let key_set_out = out_value(key_set_out)?;
        let (shares, key_set) = bls::deal(threshold, signers, &mut os_rng()?)?;
        // SAFETY: `shares_out` has `signers` writable entries and
        // `key_set_out` is writable, by the contract.
        unsafe {
            emit_shares::<Bls12381G1>(Suite::Bls12381G1, shares, shares_out);
            key_set_out.write(Box::into_raw(Box::new(oblivex_bls_key_set { key_set })));
        }
        Ok(())
    })
}

/// Decodes a key set (t and m as 2 bytes big-endian each, the 96-byte G2
/// public key, the m signers' G2 keys, the t 48-byte G1 commitments),
/// validating every point and checking the pairings that tie them.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_BAD_LENGTH`,
/// `OBLIVEX_ERR_INVALID_THRESHOLD`, `OBLIVEX_ERR_INVALID_ELEMENT`,
/// `OBLIVEX_ERR_VERIFICATION_FAILED` (keys inconsistent with the
/// commitments).
///
/// # Safety
/// `bytes` points to `len` readable bytes; `key_set_out` to a writable
/// pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_key_set_from_bytes(
    bytes: *const u8,
    len: usize,
    key_set_out: *mut *mut oblivex_bls_key_set,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `bytes` holds `len` bytes by the contract.
        let bytes = unsafe { input(bytes, len) }?;
        let key_set_out = out_value(key_set_out)?;
        let key_set = KeySet::from_bytes(bytes)?;
        // SAFETY: `key_set_out` is non-NULL and writable by the contract.
        unsafe { key_set_out.write(Box::into_raw(Box::new(oblivex_bls_key_set { key_set }))) };
        Ok(())
    })
}

/// Writes the key set's encoding (see `oblivex_bls_key_set_from_bytes`).
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `key_set` is a live handle; `out` has `capacity` writable bytes;
/// `written` points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_key_set_to_bytes(
    key_set: *const oblivex_bls_key_set,
    out: *mut u8,
    capacity: usize,
    written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `key_set` is NULL or live by the contract.
        let key_set = unsafe { handle(key_set) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(out, capacity, written) }?;
        let bytes = key_set.key_set.to_bytes();
        out.put(&bytes)
    })
}

/// Writes the 96-byte G2 public key that verifies every signature.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// As `oblivex_bls_key_set_to_bytes`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_key_set_public_key(
    key_set: *const oblivex_bls_key_set,
    out: *mut u8,
    capacity: usize,
    written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `key_set` is NULL or live by the contract.
        let key_set = unsafe { handle(key_set) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(out, capacity, written) }?;
        out.put(&key_set.key_set.public_key().to_bytes())
    })
}

/// Releases a key set. NULL is ignored.
///
/// # Safety
/// `key_set` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_key_set_free(key_set: *mut oblivex_bls_key_set) {
    catch_or((), || {
        if !key_set.is_null() {
            // SAFETY: a live handle from `Box::into_raw`.
            drop(unsafe { Box::from_raw(key_set) });
        }
    })
}

/// The client's first step: hashes `count` messages to G1 (ciphersuite
/// `BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_`), blinds them, and writes
/// the one request for every signer (`count + 1` 48-byte encodings).
/// `quorum` and `kappa` as in `oblivex_threshold_oprf_client_blind`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_INVALID_KAPPA`, `OBLIVEX_ERR_EMPTY_INPUT`,
/// `OBLIVEX_ERR_BAD_LENGTH`, `OBLIVEX_ERR_INVALID_PARTY_ID`,
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`, `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `key_set` is a live handle; the pointer arguments are readable or
/// writable as their lengths say; `request_written` and `client_out` point
/// to writable values.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_client_blind(
    key_set: *const oblivex_bls_key_set,
    messages: *const *const u8,
    message_lens: *const usize,
    count: usize,
    quorum: *const u16,
    quorum_len: usize,
    kappa: u32,
    request: *mut u8,
    request_capacity: usize,
    request_written: *mut usize,
    client_out: *mut *mut oblivex_bls_client,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `key_set` is NULL or live by the contract.
        let key_set = unsafe { handle(key_set) }?;
        // SAFETY: forwarded from this function's contract.
        let messages = unsafe { read_inputs(messages, message_lens, count) }?;
        // SAFETY: `quorum` holds `quorum_len` ids (or is NULL with 0).
        let quorum = unsafe { read_quorum(quorum, quorum_len) }?;
        let kappa = super::checked::kappa_from_c(kappa)?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let request = unsafe { OutBuffer::new(request, request_capacity, request_written) }?;
        let client_out = out_value(client_out)?;
        request.check_fits(array_len(messages.len() + 1, SIGNATURE_LEN)?)?;
        let batch =
            BlindSignBatch::blind(&messages, &key_set.key_set, quorum, kappa, &mut os_rng()?)?;
        request.write(batch.blinded_elements());
        let client = oblivex_bls_client {
            batch: Some(batch),
            count: messages.len(),
        };
        // SAFETY: `client_out` is non-NULL and writable by the contract.
        unsafe { client_out.write(Box::into_raw(Box::new(client))) };
        Ok(())
    })
}

/// The client's last step: checks each signer's response with the G1
/// batch check (no pairing), combines t correct ones, unblinds, and writes
/// the signatures (48 bytes each, standard `min_sig`, in message order) to
/// `signatures` and the signers caught cheating to `cheaters` — exactly as
/// `oblivex_threshold_oprf_client_finalize` (same errors, same rules).
///
/// # Safety
/// As `oblivex_threshold_oprf_client_finalize`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_client_finish(
    client: *mut oblivex_bls_client,
    party_ids: *const u16,
    responses: *const *const u8,
    response_lens: *const usize,
    response_count: usize,
    signatures: *mut u8,
    signatures_capacity: usize,
    signatures_written: *mut usize,
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
                signatures,
                signatures_capacity,
                signatures_written,
                cheaters,
                cheaters_capacity,
                cheaters_written,
            )
        }?;
        finish.complete(client.count, SIGNATURE_LEN, |responses| {
            let batch = client.batch.take().ok_or(Error::BatchUsed)?;
            Ok(batch.finish(responses))
        })
    })
}

/// Releases a blind-signing client (wiping its secrets). NULL is ignored.
///
/// # Safety
/// `client` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_client_free(client: *mut oblivex_bls_client) {
    catch_or((), || {
        if !client.is_null() {
            // SAFETY: a live handle from `Box::into_raw`.
            drop(unsafe { Box::from_raw(client) });
        }
    })
}

/// Standard BLS verification (ciphersuite
/// `BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_`, blst `min_sig`) of a
/// 48-byte `signature` on `message` under a 96-byte G2 `public_key`:
/// `OBLIVEX_OK` if valid, `OBLIVEX_ERR_VERIFICATION_FAILED` if not,
/// `OBLIVEX_ERR_INVALID_ELEMENT` / `OBLIVEX_ERR_BAD_LENGTH` for a bad key,
/// `OBLIVEX_ERR_NULL_POINTER`. `message` may be NULL when empty.
///
/// # Safety
/// Each (pointer, length) pair is readable.
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
            Err(Error::VerificationFailed)
        }
    })
}
