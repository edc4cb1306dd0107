//! C ABI of threshold ElGamal: encryption and KEM encapsulation under a
//! shared key, and the client that has t of m servers decrypt a batch.
//! Servers use `oblivex_threshold_server_evaluate` with their key share.
//! Not CCA-secure (see `oblivex::elgamal`).

use core::any::Any;
use core::ffi::c_int;

use super::guard::{array_len, catch, catch_or, handle, input, out_value, OutBuffer};
use super::status::oblivex_status;
use super::suite::{with_group, Suite};
use super::threshold::{commitments_of, oblivex_commitments, read_quorum, Finish};
use crate::elgamal::{encapsulate, encrypt, Ciphertext, DecryptionBatch};
use crate::group::{encode_to_vec, PrimeOrderGroup};
use crate::rng::os_rng;
use crate::Error;

/// A client's batch of ciphertexts (or KEM encapsulations) being
/// decrypted by t of m servers. Finish it once; secrets are wiped when it
/// is finished or freed. Not for concurrent use.
pub struct oblivex_elgamal_client {
    suite: Suite,
    /// A `DecryptionBatch<G>`, taken out by finish.
    batch: Option<Box<dyn Any + Send>>,
    count: usize,
    output_len: usize,
}

/// Encrypts `message` (an element encoding of `suite`, not the identity)
/// under `public_key` (an element encoding, e.g. from
/// `oblivex_commitments_public_key`) and writes the ciphertext `c1 || c2`
/// (two element encodings).
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
    suite: c_int,
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
            out.write(&encrypt::<G, _>(&key, &message, &mut os_rng()?)?.to_bytes());
            Ok(())
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
    suite: c_int,
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
            c1_out.write(&encode_to_vec::<G>(&c1));
            secret_out.write(&shared);
            Ok(())
        })
    })
}

/// What an ElGamal client recovers (pass it as `int`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum oblivex_elgamal_target {
    /// Plaintexts of ciphertexts `c1 || c2` (element encodings out).
    OBLIVEX_ELGAMAL_PLAINTEXTS = 1,
    /// Shared secrets of KEM encapsulations (`oblivex_suite_output_len`
    /// bytes each out).
    OBLIVEX_ELGAMAL_KEM_SECRETS = 2,
}

/// The decryption client's first step for `count` items of `items`
/// (`items_len` bytes): ciphertexts (`c1 || c2`, two element encodings
/// each) for `OBLIVEX_ELGAMAL_PLAINTEXTS`, encapsulations (one element
/// encoding each) for `OBLIVEX_ELGAMAL_KEM_SECRETS`. Writes the one
/// request for every server (`count + 1` element encodings). With `blinded`
/// non-zero the servers see `r_i·c1_i` for fresh secret `r_i` and cannot
/// link the request to the ciphertexts. `quorum` and `kappa` as in
/// `oblivex_threshold_oprf_client_blind`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_MODE` (an unknown target),
/// `OBLIVEX_ERR_INVALID_KAPPA`, `OBLIVEX_ERR_EMPTY_INPUT`,
/// `OBLIVEX_ERR_BAD_LENGTH`, `OBLIVEX_ERR_INVALID_ELEMENT`,
/// `OBLIVEX_ERR_INVALID_PARTY_ID`, `OBLIVEX_ERR_BUFFER_TOO_SMALL`,
/// `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `commitments` is a live handle; the pointer arguments are readable or
/// writable as their lengths say; `request_written` and `client_out` point
/// to writable values.
#[no_mangle]
pub unsafe extern "C" fn oblivex_elgamal_client_new(
    commitments: *const oblivex_commitments,
    target: c_int,
    items: *const u8,
    items_len: usize,
    count: usize,
    blinded: c_int,
    quorum: *const u16,
    quorum_len: usize,
    kappa: u32,
    request: *mut u8,
    request_capacity: usize,
    request_written: *mut usize,
    client_out: *mut *mut oblivex_elgamal_client,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `commitments` is NULL or live by the contract.
        let commitments = unsafe { handle(commitments) }?;
        let kem = match target {
            t if t == oblivex_elgamal_target::OBLIVEX_ELGAMAL_PLAINTEXTS as c_int => false,
            t if t == oblivex_elgamal_target::OBLIVEX_ELGAMAL_KEM_SECRETS as c_int => true,
            _ => return Err(Error::UnknownMode),
        };
        // SAFETY: `items` holds `items_len` bytes by the contract.
        let items = unsafe { input(items, items_len) }?;
        // SAFETY: `quorum` holds `quorum_len` ids (or is NULL with 0).
        let quorum = unsafe { read_quorum(quorum, quorum_len) }?;
        let kappa = super::checked::kappa_from_c(kappa)?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let request = unsafe { OutBuffer::new(request, request_capacity, request_written) }?;
        let client_out = out_value(client_out)?;
        if count == 0 {
            return Err(Error::EmptyInput);
        }
        let suite = commitments.suite;
        let client = with_group!(suite, G => {
            let width = if kem { G::ELEMENT_LEN } else { Ciphertext::<G>::ENCODED_LEN };
            if items.len() != array_len(count, width)? {
                return Err(Error::BadLength);
            }
            request.check_fits(array_len(count + 1, G::ELEMENT_LEN)?)?;
            let commitments = commitments_of::<G>(commitments);
            let mut rng = os_rng()?;
            let blinded = blinded != 0;
            let batch = if kem {
                let c1 = G::decode_batch(items)?;
                DecryptionBatch::for_encapsulations(&c1, commitments, quorum, blinded, kappa, &mut rng)?
            } else {
                let ciphertexts = items
                    .chunks_exact(width)
                    .map(Ciphertext::<G>::from_bytes)
                    .collect::<Result<Vec<_>, _>>()?;
                DecryptionBatch::for_ciphertexts(&ciphertexts, commitments, quorum, blinded, kappa, &mut rng)?
            };
            request.write(batch.elements());
            let output_len = batch.output_len();
            oblivex_elgamal_client { suite, batch: Some(Box::new(batch)), count, output_len }
        });
        // SAFETY: `client_out` is non-NULL and writable by the contract.
        unsafe { client_out.write(Box::into_raw(Box::new(client))) };
        Ok(())
    })
}

/// The decryption client's last step: checks each server's response,
/// combines t correct ones, unblinds, and writes the plaintexts (element
/// encodings) or KEM secrets, in order, to `outputs` and the servers
/// caught cheating to `cheaters` — exactly as
/// `oblivex_threshold_oprf_client_finalize` (same errors, same rules),
/// plus `OBLIVEX_ERR_INVALID_INPUT` for a ciphertext whose plaintext is the
/// identity (not a valid encryption): no output for the whole batch, but the
/// servers already caught cheating are written to `cheaters`. The statuses
/// that carry the cheater list: `OBLIVEX_OK`, `OBLIVEX_ERR_VERIFICATION_FAILED`,
/// `OBLIVEX_ERR_NOT_ENOUGH_RESPONSES`, `OBLIVEX_ERR_INVALID_INPUT`.
///
/// # Safety
/// As `oblivex_threshold_oprf_client_finalize`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_elgamal_client_finish(
    client: *mut oblivex_elgamal_client,
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
        let (count, width) = (client.count, client.output_len);
        with_group!(client.suite, G => {
            finish.complete(count, width, |responses| {
                let batch = client.batch.take().ok_or(Error::BatchUsed)?;
                let batch = batch
                    .downcast::<DecryptionBatch<G>>()
                    .expect("a handle holds a batch of its own suite");
                Ok(batch.finish(responses))
            })
        })
    })
}

/// The width of each output of `oblivex_elgamal_client_finish` (0 for NULL).
///
/// # Safety
/// `client` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn oblivex_elgamal_client_output_len(
    client: *const oblivex_elgamal_client,
) -> usize {
    // SAFETY: `client` is NULL or live by the contract.
    catch_or(0, || unsafe { client.as_ref() }.map_or(0, |c| c.output_len))
}

/// Releases a decryption client (wiping its secrets). NULL is ignored.
///
/// # Safety
/// `client` is NULL or a live handle, not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn oblivex_elgamal_client_free(client: *mut oblivex_elgamal_client) {
    catch_or((), || {
        if !client.is_null() {
            // SAFETY: a live handle from `Box::into_raw`.
            drop(unsafe { Box::from_raw(client) });
        }
    })
}
