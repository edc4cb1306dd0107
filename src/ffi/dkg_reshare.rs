//! C ABI of a resharing's start (docs/PROTOCOLS.md §10, "Resharing"): the
//! key of an old t-of-n set moves to a new t′-of-n′ set, possibly of other
//! parties. Each old party (a dealer, with its share) and each new party
//! (a receiver) is an `oblivex_dkg_party`; a party in both sets runs two,
//! one per role, each with its own id. Both then step through the rounds
//! of `dkg_rounds`, where a step with nothing to send leaves an empty
//! broadcast:
//!
//! | step | old party | new party |
//! |---|---|---|
//! | start | commitments (broadcast), a pair per new party | nothing |
//! | `_round2` (old parties' round 1) | — | complaints |
//! | `_round3` (new parties' complaints) | justifications | nothing (kept) |
//! | `_round4` (old parties' justifications) | Feldman commitments, done | nothing (QUAL fixed) |
//! | `_round5`, `_round6`, `_finalize` | — | as in a key generation |

use super::dkg_party::{oblivex_dkg_party, read_session, DkgPartyState};
use super::guard::{catch, out_pointer};
use super::handle::{borrow, create};
use super::sharing::{oblivex_commitments, oblivex_key_share};
use super::status::{oblivex_status, OBLIVEX_ERR_SUITE_MISMATCH};
use super::suite::{with_group, SuiteGroup};
use crate::rng::os_rng;
use crate::threshold::dkg::{DkgParams, DkgParty};
use crate::threshold::KeyShare;

/// Starts the holder of `share`, old party `oblivex_key_share_id(share)`
/// (1..`old_parties`) of the t-of-n key that `commitments` commit to (t is
/// theirs, `old_parties` n), as a dealer in the resharing of that key to
/// a new `threshold`-of-`parties` set (t′ of n′), in the run named by
/// `session` (`OBLIVEX_DKG_SESSION_ID_LEN` bytes the parties chose
/// together, never reused). Both pairs need `1 <= t`, `2 <= n <=
/// OBLIVEX_MAX_PARTIES`, `n >= 2t − 1`. Every party, old and new, starts
/// from the same commitments, n, t′ and n′. Stores the party in
/// `*party_out` (release it with `oblivex_dkg_party_free`); its round-1
/// messages are ready: `oblivex_dkg_party_broadcast` (its commitments, for
/// every new party) and `oblivex_dkg_party_share_pair` (one for each new
/// party 1..n′, privately). It then takes the new parties' complaints
/// (`oblivex_dkg_party_round3`) and, after round 3's deadline, no messages
/// (`oblivex_dkg_party_round4` with `count` 0), which publishes its
/// Feldman commitments and ends its part: it gets no share, and its old
/// share is wiped with it. The share and the commitments are only read;
/// erase the old share once the new parties have theirs.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_SUITE_MISMATCH` (the two are of different suites),
/// `OBLIVEX_ERR_BAD_LENGTH` (the session id),
/// `OBLIVEX_ERR_INVALID_THRESHOLD` (either pair),
/// `OBLIVEX_ERR_INVALID_PARTY_ID` (the share's id is above n),
/// `OBLIVEX_ERR_SHARE_MISMATCH` (the share fails the commitments),
/// `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `share` and `commitments` are live handles; `session` points to
/// `session_len` readable bytes; `party_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_reshare_dealer_new(
    share: *const oblivex_key_share,
    commitments: *const oblivex_commitments,
    old_parties: usize,
    threshold: usize,
    parties: usize,
    session: *const u8,
    session_len: usize,
    party_out: *mut *mut oblivex_dkg_party,
) -> oblivex_status {
    catch(|| {
        // SAFETY: both are NULL or live by the contract.
        let (share, commitments) = unsafe { (borrow(share)?, borrow(commitments)?) };
        // SAFETY: forwarded from this function's contract.
        let session = unsafe { read_session(session, session_len) }?;
        let party_out = out_pointer(party_out)?;
        let mut rng = os_rng()?;
        let party = with_group!(match share, G(share) => {
            let commitments = G::project(commitments).ok_or(OBLIVEX_ERR_SUITE_MISMATCH)?;
            let params = DkgParams::<G>::reshare(
                commitments,
                old_parties,
                threshold,
                parties,
                session,
            )?;
            // The party keeps its own copy (wiped with it): the caller's
            // handle stays immutable.
            let copy = KeyShare::new(share.id(), share.secret().clone())?;
            let started = DkgParty::start_reshare_dealer(params, copy, commitments, &mut rng)?;
            G::wrap(DkgPartyState::reshare_dealer(&params, share.id(), started))
        });
        // SAFETY: `party_out` is non-NULL and writable by the contract.
        unsafe { create(party_out, party) };
        Ok(())
    })
}

/// Starts new party `party_id` (1..`parties`) of the resharing of the
/// t-of-n key that `commitments` commit to (t is theirs, `old_parties` n)
/// to a new `threshold`-of-`parties` set (t′ of n′), in the run named by
/// `session`; parameters as for `oblivex_dkg_reshare_dealer_new`, and the
/// same at every party. Stores the party in `*party_out` (release it with
/// `oblivex_dkg_party_free`). It sends nothing in round 1: it takes the old
/// parties' round-1 messages (`oblivex_dkg_party_round2`, senders 1..n),
/// and ends, through the same steps as a key generation's party, with its
/// share of the same key (`oblivex_dkg_party_finalize`): new commitments
/// of threshold t′ whose public key is the old one, so every threshold
/// OPRF, BLS and ElGamal output stays. Its QUAL and blame list name old
/// parties as dealers. The commitments are only read.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_BAD_LENGTH` (the session id),
/// `OBLIVEX_ERR_INVALID_THRESHOLD` (either pair),
/// `OBLIVEX_ERR_INVALID_PARTY_ID` (not in 1..n′).
///
/// # Safety
/// `commitments` is a live handle; `session` points to `session_len`
/// readable bytes; `party_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_reshare_receiver_new(
    commitments: *const oblivex_commitments,
    old_parties: usize,
    threshold: usize,
    parties: usize,
    session: *const u8,
    session_len: usize,
    party_id: u16,
    party_out: *mut *mut oblivex_dkg_party,
) -> oblivex_status {
    catch(|| {
        // SAFETY: NULL or live by the contract.
        let commitments = unsafe { borrow(commitments) }?;
        // SAFETY: forwarded from this function's contract.
        let session = unsafe { read_session(session, session_len) }?;
        let party_out = out_pointer(party_out)?;
        let party = with_group!(match commitments, G(commitments) => {
            let params = DkgParams::<G>::reshare(
                commitments,
                old_parties,
                threshold,
                parties,
                session,
            )?;
            let started = DkgParty::start_reshare_receiver(params, party_id, commitments)?;
            G::wrap(DkgPartyState::reshare_receiver(&params, party_id, started))
        });
        // SAFETY: `party_out` is non-NULL and writable by the contract.
        unsafe { create(party_out, party) };
        Ok(())
    })
}
