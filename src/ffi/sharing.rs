//! C ABI of t-of-m key sharing: the dealer, key shares and commitment sets
//! (with their encodings), and the server's evaluation with its share — the
//! whole server side of every threshold protocol.

use super::args::read_quorum;
use super::guard::{catch, catch_or, input, optional_input, out_pointer, OutBuffer};
use super::handle::{borrow, create, free, Boxed, Handle};
use super::status::{
    oblivex_status, CResult, OBLIVEX_ERR_INVALID_PARTY_ID, OBLIVEX_ERR_SUITE_MISMATCH,
    OBLIVEX_ERR_VERIFICATION_FAILED,
};
use super::suite::{oblivex_suite, with_group, PerGroup, PerSuite, Suite, SuiteGroup};
use crate::group::{encode_to_vec, PrimeOrderGroup};
use crate::message::BlindedElements;
use crate::rng::os_rng;
use crate::threshold::{
    self, check_party_set, check_threshold, evaluate_share, Commitments, KeyShare,
};
use crate::Zeroizing;
use rand_core::CryptoRng;

/// One server's share of a t-of-m key (its party id and secret scalar).
/// Immutable: one handle may serve many threads. Wiped when freed. The
/// server side of every threshold protocol is
/// `oblivex_threshold_server_evaluate` with this handle.
pub struct oblivex_key_share {
    _opaque: [u8; 0],
}

impl Handle for oblivex_key_share {
    type RustType = PerSuite<KeyShares>;
    type Ownership = Boxed;
}

/// The public Feldman commitments of a t-of-m sharing (t elements; the
/// first is the shared key's public key). Immutable and thread-safe.
pub struct oblivex_commitments {
    _opaque: [u8; 0],
}

impl Handle for oblivex_commitments {
    type RustType = PerSuite<CommitmentSets>;
    type Ownership = Boxed;
}

/// [`KeyShare`] for each group.
pub(crate) enum KeyShares {}

impl PerGroup for KeyShares {
    type Of<G: PrimeOrderGroup> = KeyShare<G>;
}

/// [`Commitments`] for each group.
pub(crate) enum CommitmentSets {}

impl PerGroup for CommitmentSets {
    type Of<G: PrimeOrderGroup> = Commitments<G>;
}

/// The dealer's arguments, checked before any work: `t` and `m`, the secret
/// (an encoding, or none for a fresh random key) and the output pointers.
pub(super) struct Dealing<'a> {
    parties: usize,
    secret: Option<&'a [u8]>,
    shares_out: *mut *mut oblivex_key_share,
}

impl<'a> Dealing<'a> {
    /// Checks a dealer's arguments (`OBLIVEX_ERR_INVALID_THRESHOLD` unless
    /// `1 <= t <= m <= OBLIVEX_MAX_PARTIES`).
    ///
    /// # Safety
    /// `secret` is NULL or points to `secret_len` readable bytes;
    /// `shares_out` is NULL or points to `parties` writable pointers.
    pub(super) unsafe fn new(
        secret: *const u8,
        secret_len: usize,
        threshold: usize,
        parties: usize,
        shares_out: *mut *mut oblivex_key_share,
    ) -> CResult<Self> {
        check_threshold(threshold, parties)?;
        // SAFETY: forwarded from this function's contract.
        let secret = unsafe { optional_input(secret, secret_len) }?;
        Ok(Dealing {
            parties,
            secret: (!secret.is_empty()).then_some(secret),
            shares_out: out_pointer(shares_out)?,
        })
    }

    /// The key to share: the caller's (decoded) or a fresh random one.
    pub(super) fn key<G: PrimeOrderGroup, R: CryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> CResult<G::Scalar> {
        Ok(match self.secret {
            Some(secret) => G::decode_scalar(secret)?,
            None => G::random_scalar(rng),
        })
    }

    /// Hands the shares to C, one handle per party in `shares_out[0..m]`.
    pub(super) fn emit_shares<G: SuiteGroup>(self, shares: Vec<KeyShare<G>>) {
        debug_assert_eq!(shares.len(), self.parties);
        // Each handle gets a copy: moving a share out would leave its
        // scalar in `shares`' buffer, freed unwiped; `shares` wipes its own
        // when it drops.
        for (i, share) in shares.iter().enumerate() {
            // SAFETY: `parties` writable entries by `new`'s contract.
            unsafe { create(self.shares_out.add(i), G::wrap(share.copy())) };
        }
    }
}

/// A dealer's t-of-m sharing (`1 <= t <= m <= OBLIVEX_MAX_PARTIES`) of a key
/// of `suite`: `secret` is the key to share (a scalar encoding) or NULL/0
/// for a fresh random key. Writes the shares of parties 1..m, in order, to
/// `shares_out[0..m]` (release each with `oblivex_key_share_free`) and the
/// commitments to `*commitments_out` (`oblivex_commitments_free`). Give
/// each server its share over a private channel and publish the
/// commitments; the shared public key is `oblivex_commitments_public_key`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_SUITE`, `OBLIVEX_ERR_INVALID_THRESHOLD`,
/// `OBLIVEX_ERR_INVALID_SCALAR` (the secret), `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `secret` is NULL or points to `secret_len` readable bytes; `shares_out`
/// to `parties` writable pointers; `commitments_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_threshold_deal(
    suite: oblivex_suite,
    secret: *const u8,
    secret_len: usize,
    threshold: usize,
    parties: usize,
    shares_out: *mut *mut oblivex_key_share,
    commitments_out: *mut *mut oblivex_commitments,
) -> oblivex_status {
    catch(|| {
        let suite = Suite::from_c(suite)?;
        // SAFETY: forwarded from this function's contract.
        let dealing = unsafe { Dealing::new(secret, secret_len, threshold, parties, shares_out) }?;
        let commitments_out = out_pointer(commitments_out)?;
        let mut rng = os_rng()?;
        with_group!(suite, G => {
            let key = dealing.key::<G, _>(&mut rng)?;
            let (shares, commitments) = threshold::deal::<G, _>(&key, threshold, parties, &mut rng)?;
            dealing.emit_shares(shares);
            // SAFETY: `commitments_out` is non-NULL and writable by the contract.
            unsafe { create(commitments_out, G::wrap(commitments)) };
            Ok(())
        })
    })
}

/// Bytes of an encoded key share of `suite` (0 for an unknown suite): the
/// 2-byte big-endian party id, then the scalar.
#[no_mangle]
pub extern "C" fn oblivex_key_share_encoded_len(suite: oblivex_suite) -> usize {
    catch_or(0, || {
        Suite::from_c(suite).map_or(0, |s| with_group!(s, G => KeyShare::<G>::ENCODED_LEN))
    })
}

/// Decodes a key share of `suite` (`oblivex_key_share_encoded_len` bytes)
/// into `*share_out` (release it with `oblivex_key_share_free`).
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_SUITE`, `OBLIVEX_ERR_BAD_LENGTH`,
/// `OBLIVEX_ERR_INVALID_PARTY_ID` (0 or above `OBLIVEX_MAX_PARTIES`),
/// `OBLIVEX_ERR_INVALID_SCALAR`.
///
/// # Safety
/// `bytes` points to `bytes_len` readable bytes; `share_out` to a writable
/// pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_key_share_from_bytes(
    suite: oblivex_suite,
    bytes: *const u8,
    bytes_len: usize,
    share_out: *mut *mut oblivex_key_share,
) -> oblivex_status {
    catch(|| {
        let suite = Suite::from_c(suite)?;
        // SAFETY: `bytes` holds `bytes_len` bytes by the contract.
        let bytes = unsafe { input(bytes, bytes_len) }?;
        let share_out = out_pointer(share_out)?;
        let share = with_group!(suite, G => G::wrap(KeyShare::<G>::from_bytes(bytes)?));
        // SAFETY: `share_out` is non-NULL and writable by the contract.
        unsafe { create(share_out, share) };
        Ok(())
    })
}

/// Writes the share's encoding (`oblivex_key_share_encoded_len` bytes) to
/// `bytes` and its length to `*bytes_written`. Secret: wipe it after use.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `share` is a live handle; `bytes` points to `bytes_capacity` writable
/// bytes; `bytes_written` to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_key_share_to_bytes(
    share: *const oblivex_key_share,
    bytes: *mut u8,
    bytes_capacity: usize,
    bytes_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `share` is NULL or live by the contract.
        let share = unsafe { borrow(share) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(bytes, bytes_capacity, bytes_written) }?;
        with_group!(match share, G(share) => out.put(&Zeroizing::new(share.to_bytes())))
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
        unsafe { borrow(share) }.map_or(0, |share| with_group!(match share, G(share) => share.id()))
    })
}

/// Releases a key share, wiping it. NULL is ignored.
///
/// # Safety
/// `share` is NULL or a live handle, not used afterwards (by any thread).
#[no_mangle]
pub unsafe extern "C" fn oblivex_key_share_free(share: *mut oblivex_key_share) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free(share) }
}

/// Decodes a commitment set of `suite` (t element encodings, concatenated)
/// with full validation into `*commitments_out` (release it with
/// `oblivex_commitments_free`).
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_SUITE`, `OBLIVEX_ERR_BAD_LENGTH`,
/// `OBLIVEX_ERR_INVALID_THRESHOLD` (more than `OBLIVEX_MAX_PARTIES`),
/// `OBLIVEX_ERR_INVALID_ELEMENT`.
///
/// # Safety
/// `bytes` points to `bytes_len` readable bytes; `commitments_out` to a
/// writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_commitments_from_bytes(
    suite: oblivex_suite,
    bytes: *const u8,
    bytes_len: usize,
    commitments_out: *mut *mut oblivex_commitments,
) -> oblivex_status {
    catch(|| {
        let suite = Suite::from_c(suite)?;
        // SAFETY: `bytes` holds `bytes_len` bytes by the contract.
        let bytes = unsafe { input(bytes, bytes_len) }?;
        let commitments_out = out_pointer(commitments_out)?;
        let commitments = with_group!(suite, G => G::wrap(Commitments::<G>::from_bytes(bytes)?));
        // SAFETY: `commitments_out` is non-NULL and writable by the contract.
        unsafe { create(commitments_out, commitments) };
        Ok(())
    })
}

/// Writes the commitments' encoding (t element encodings) to `bytes` and
/// its length to `*bytes_written`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `commitments` is a live handle; `bytes` points to `bytes_capacity`
/// writable bytes; `bytes_written` to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_commitments_to_bytes(
    commitments: *const oblivex_commitments,
    bytes: *mut u8,
    bytes_capacity: usize,
    bytes_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `commitments` is NULL or live by the contract.
        let commitments = unsafe { borrow(commitments) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(bytes, bytes_capacity, bytes_written) }?;
        with_group!(match commitments, G(commitments) => out.put(&commitments.to_bytes()))
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
        unsafe { borrow(commitments) }.map_or(0, |c| with_group!(match c, G(c) => c.threshold()))
    })
}

/// Writes the shared key's public key `A_0` (an element encoding) to
/// `public_key` and its length to `*public_key_written`: the key ElGamal
/// encrypts to, and the single-key OPRF's public key.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `commitments` is a live handle; `public_key` points to
/// `public_key_capacity` writable bytes; `public_key_written` to a writable
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_commitments_public_key(
    commitments: *const oblivex_commitments,
    public_key: *mut u8,
    public_key_capacity: usize,
    public_key_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `commitments` is NULL or live by the contract.
        let commitments = unsafe { borrow(commitments) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(public_key, public_key_capacity, public_key_written) }?;
        with_group!(match commitments, G(commitments) => out.put(&encode_to_vec::<G>(commitments.public_key())))
    })
}

/// Checks a share against the commitments (`k_id·B = C_id`): `OBLIVEX_OK`
/// if it is consistent. Run it when a share is received.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_SUITE_MISMATCH` (the
/// two are of different suites), `OBLIVEX_ERR_VERIFICATION_FAILED` (the
/// share does not match).
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
        let (commitments, share) = unsafe { (borrow(commitments)?, borrow(share)?) };
        with_group!(match commitments, G(commitments) => {
            let share = G::project(share).ok_or(OBLIVEX_ERR_SUITE_MISMATCH)?;
            if commitments.verify_share(share) {
                Ok(())
            } else {
                Err(OBLIVEX_ERR_VERIFICATION_FAILED)
            }
        })
    })
}

/// Releases a commitment set. NULL is ignored.
///
/// # Safety
/// `commitments` is NULL or a live handle, not used afterwards (by any
/// thread).
#[no_mangle]
pub unsafe extern "C" fn oblivex_commitments_free(commitments: *mut oblivex_commitments) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free(commitments) }
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
/// `share` is a live handle; `quorum` is NULL with 0 or holds `quorum_len`
/// ids; each other (pointer, length) pair is readable or writable as its
/// role says; `response_written` points to a writable `size_t`.
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
        let share = unsafe { borrow(share) }?;
        // SAFETY: the input pointers hold their lengths by the contract.
        let (quorum, request) = unsafe {
            (
                read_quorum(quorum, quorum_len)?,
                input(request, request_len)?,
            )
        };
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let response = unsafe { OutBuffer::new(response, response_capacity, response_written) }?;
        response.check_fits(request.len())?;
        with_group!(match share, G(share) => {
            // The quorum is checked before any element is decoded.
            if let Some(quorum) = quorum {
                check_party_set(quorum)?;
                if !quorum.contains(&share.id()) {
                    return Err(OBLIVEX_ERR_INVALID_PARTY_ID);
                }
            }
            let request = BlindedElements::<G>::from_bytes(request)?;
            let answer = evaluate_share(share, quorum, &request)?;
            response.put(answer.as_bytes())
        })
    })
}
