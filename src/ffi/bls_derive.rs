//! C ABI of a threshold BLS key set without a dealer (docs/PROTOCOLS.md
//! §10, "BLS keys after a DKG"): each signer publishes its share's G2 key,
//! and anyone combines them with the run's G1 commitments into the key set.

use super::args::{read_responses, U16Array};
use super::bls::oblivex_bls_key_set;
use super::guard::{catch, out_pointer, OutBuffer};
use super::handle::{borrow, create};
use super::sharing::{oblivex_commitments, oblivex_key_share};
use super::status::{oblivex_status, OBLIVEX_ERR_SUITE_MISMATCH};
use super::suite::SuiteGroup;
use crate::bls::{KeySet, PublicKey};
use crate::group::Bls12381G1;
use crate::Error;

/// Writes the G2 key of a signer's share (`OBLIVEX_BLS_PUBLIC_KEY_LEN`
/// bytes, `sk_j` times the G2 generator, compressed) to `signer_key` and
/// its length to `*signer_key_written`: what the signer publishes after a
/// DKG so that anyone can build the key set
/// (`oblivex_bls_key_set_derive`). Constant time in the share.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_SUITE_MISMATCH` (a share of another suite than
/// `OBLIVEX_SUITE_BLS12381G1_SHA256`), `OBLIVEX_ERR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `share` is a live handle; `signer_key` points to `signer_key_capacity`
/// writable bytes; `signer_key_written` to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_signer_key(
    share: *const oblivex_key_share,
    signer_key: *mut u8,
    signer_key_capacity: usize,
    signer_key_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `share` is NULL or live by the contract.
        let share = unsafe { borrow(share) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(signer_key, signer_key_capacity, signer_key_written) }?;
        let share = Bls12381G1::project(share).ok_or(OBLIVEX_ERR_SUITE_MISMATCH)?;
        out.put(&PublicKey::from_secret(share.secret()).to_bytes())
    })
}

/// Builds the key set of a t-of-m BLS key shared by a DKG from the G1
/// `commitments` of the run (suite `OBLIVEX_SUITE_BLS12381G1_SHA256`, t
/// their number), `parties` m, and the G2 keys the signers published
/// (`oblivex_bls_signer_key`): `count` of them, signer `party_ids[i]`'s
/// key `signer_keys[i]` of `signer_keys_lens[i]` bytes, from any signers
/// of 1..m. Each key is checked against the signer's public share by a
/// pairing; those that do not decode or fail are written to `cheaters`
/// (capacity at least `count`), their number to `*cheaters_written`. The
/// public key is interpolated from t right keys and checked against the
/// commitments' public key by a pairing; the keys of signers that
/// published none or a wrong one are interpolated too. Stores the key set
/// in `*key_set_out` (release it with `oblivex_bls_key_set_free`). Public
/// data only: variable time. The commitments are only read.
///
/// Errors: two carry the cheater list (as `OBLIVEX_OK` does) but make no
/// key set: `OBLIVEX_ERR_NOT_ENOUGH_RESPONSES` (fewer than t right keys)
/// and `OBLIVEX_ERR_VERIFICATION_FAILED` (the public key fails its check,
/// which t right keys rule out). The others write nothing:
/// `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_SUITE_MISMATCH` (commitments
/// of another suite), `OBLIVEX_ERR_INVALID_THRESHOLD` (not `1 <= t <= m <=
/// OBLIVEX_MAX_PARTIES`), `OBLIVEX_ERR_INVALID_PARTY_ID` (an id zero,
/// repeated or above m, or more than `OBLIVEX_MAX_PARTIES` keys),
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL` (`cheaters`).
///
/// # Safety
/// `commitments` is a live handle; `party_ids`, `signer_keys` and
/// `signer_keys_lens` hold `count` entries, each key readable for its
/// length; `cheaters` points to `cheaters_capacity` writable ids;
/// `cheaters_written` to a writable `size_t`; `key_set_out` to a writable
/// pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_bls_key_set_derive(
    commitments: *const oblivex_commitments,
    parties: usize,
    party_ids: *const u16,
    signer_keys: *const *const u8,
    signer_keys_lens: *const usize,
    count: usize,
    cheaters: *mut u16,
    cheaters_capacity: usize,
    cheaters_written: *mut usize,
    key_set_out: *mut *mut oblivex_bls_key_set,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `commitments` is NULL or live by the contract.
        let commitments = unsafe { borrow(commitments) }?;
        // SAFETY: forwarded from this function's contract.
        let signer_keys =
            unsafe { read_responses(party_ids, signer_keys, signer_keys_lens, count) }?;
        let cheaters = U16Array::new(cheaters, cheaters_capacity, cheaters_written, count)?;
        let key_set_out = out_pointer(key_set_out)?;
        let commitments = Bls12381G1::project(commitments).ok_or(OBLIVEX_ERR_SUITE_MISMATCH)?;
        match KeySet::derive_vartime(commitments.clone(), parties, &signer_keys) {
            Ok(derived) => {
                cheaters.write(&derived.cheaters);
                // SAFETY: `key_set_out` is non-NULL and writable by the
                // contract.
                unsafe { create(key_set_out, derived.key_set) };
                Ok(())
            }
            Err(failure) => {
                if matches!(
                    failure.error,
                    Error::NotEnoughResponses | Error::VerificationFailed
                ) {
                    cheaters.write(&failure.cheaters);
                }
                Err(failure.error.into())
            }
        }
    })
}
