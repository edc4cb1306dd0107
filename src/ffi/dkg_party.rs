//! C ABI of the distributed key generation (docs/PROTOCOLS.md §10): the
//! per-party handle, the functions that start a party (a new key, or a
//! refresh of a shared one) and those that hand out the messages it sends.
//! The rounds themselves are in `dkg_rounds`.
//!
//! The handle holds the party's typed round state (`Round1State` …
//! `Round6State` of [`crate::threshold::dkg`]) and the messages its last
//! step produced. Every start function, a resharing one included, ends in
//! [`DkgPartyState::started`]; the round functions see only the state.

use core::ffi::c_int;

use super::guard::{catch, catch_or, input, out_pointer, OutBuffer};
use super::handle::{borrow, create, free, Boxed, Handle};
use super::sharing::{oblivex_commitments, oblivex_key_share};
use super::status::{
    oblivex_status, CResult, OBLIVEX_ERR_BAD_LENGTH, OBLIVEX_ERR_INVALID_PARTY_ID,
    OBLIVEX_ERR_SUITE_MISMATCH, OBLIVEX_ERR_WRONG_ROUND,
};
use super::suite::{oblivex_suite, with_group, PerGroup, PerSuite, Suite, SuiteGroup};
use crate::group::PrimeOrderGroup;
use crate::rng::os_rng;
use crate::threshold::dkg::{
    Blame, DkgError, DkgParams, DkgParty, Received, Round1Messages, Round1State, Round2State,
    Round3State, Round4State, Round5State, Round6State, SESSION_ID_LEN,
};
use crate::threshold::{Commitments, KeyShare, PartyId};
use crate::Zeroizing;

/// One party of a DKG run (key generation or refresh), from its start to
/// its key share: its secret polynomials and the shares it received
/// (wiped when freed), and the messages its last step produced. Made by
/// `oblivex_dkg_party_new` or `oblivex_dkg_refresh_new`, driven by
/// `oblivex_dkg_party_round2` … `oblivex_dkg_party_round6` and
/// `oblivex_dkg_party_finalize`, one call per round in that order. Not for
/// concurrent use.
pub struct oblivex_dkg_party {
    _opaque: [u8; 0],
}

impl Handle for oblivex_dkg_party {
    type RustType = PerSuite<DkgPartyStates>;
    type Ownership = Boxed;
}

/// [`DkgPartyState`] for each group.
pub(crate) enum DkgPartyStates {}

impl PerGroup for DkgPartyStates {
    type Of<G: PrimeOrderGroup> = DkgPartyState<G>;
}

/// Where a party is in its run: the typed state that takes the next
/// round's messages, then the run's public result (or nothing, after a
/// failure).
pub(crate) enum Stage<G: PrimeOrderGroup> {
    Round1(Round1State<G>),
    Round2(Round2State<G>),
    Round3(Round3State<G>),
    Round4(Round4State<G>),
    Round5(Round5State<G>),
    Round6(Round6State<G>),
    /// Finalized: QUAL and the blame list (the share and commitments went
    /// to the caller's handles).
    Finalized {
        qualified: Vec<PartyId>,
        blame: Vec<Blame>,
    },
    /// A round failed (the status said why): the run is over.
    Failed,
}

impl<G: PrimeOrderGroup> Stage<G> {
    /// The round whose messages the party waits for (1 to 6), 7 once
    /// finalized, 0 after a failure.
    pub(crate) fn round(&self) -> u8 {
        match self {
            Stage::Round1(_) => 1,
            Stage::Round2(_) => 2,
            Stage::Round3(_) => 3,
            Stage::Round4(_) => 4,
            Stage::Round5(_) => 5,
            Stage::Round6(_) => 6,
            Stage::Finalized { .. } => 7,
            Stage::Failed => 0,
        }
    }
}

/// What an `oblivex_dkg_party` points to for one group.
pub(crate) struct DkgPartyState<G: PrimeOrderGroup> {
    /// This party's id.
    pub(crate) me: PartyId,
    /// The run's party count n.
    pub(crate) parties: usize,
    pub(crate) stage: Stage<G>,
    /// The broadcast of the last step, for every other party (empty once
    /// finalized or failed).
    broadcast: Vec<u8>,
    /// Round 1's private share pairs, by recipient (wiped on drop, and
    /// dropped by the next step).
    pairs: Vec<(PartyId, Zeroizing<Vec<u8>>)>,
}

impl<G: PrimeOrderGroup> DkgPartyState<G> {
    /// A party just started (by any start function) with its round-1
    /// messages.
    pub(crate) fn started(
        params: &DkgParams<G>,
        me: PartyId,
        (state, messages): (Round1State<G>, Round1Messages<G>),
    ) -> Self {
        DkgPartyState {
            me,
            parties: params.parties(),
            stage: Stage::Round1(state),
            broadcast: messages.commitments.to_bytes(),
            pairs: messages
                .shares
                .iter()
                .map(|pair| (pair.recipient(), pair.to_bytes()))
                .collect(),
        }
    }

    /// Takes the round state `take` picks out of the stage, or
    /// `OBLIVEX_ERR_WRONG_ROUND` (the party untouched) if the party is at
    /// another round. Its broadcast and share pairs go: the stage is
    /// `Failed` until the round that takes the state succeeds.
    fn take<S>(&mut self, take: fn(Stage<G>) -> Result<S, Stage<G>>) -> CResult<S> {
        match take(core::mem::replace(&mut self.stage, Stage::Failed)) {
            Ok(state) => {
                self.pairs.clear();
                self.broadcast.clear();
                Ok(state)
            }
            Err(other) => {
                self.stage = other;
                Err(OBLIVEX_ERR_WRONG_ROUND)
            }
        }
    }

    /// Runs one round (2 to 6) on the state `take` picks: on success the
    /// next stage and its broadcast replace the old ones; on a failure the
    /// run is over.
    pub(crate) fn advance<S>(
        &mut self,
        take: fn(Stage<G>) -> Result<S, Stage<G>>,
        run: impl FnOnce(S) -> Result<(Stage<G>, Vec<u8>), DkgError>,
    ) -> CResult {
        let (stage, broadcast) = run(self.take(take)?)?;
        self.stage = stage;
        self.broadcast = broadcast;
        Ok(())
    }

    /// The last round: the party's share and the joint commitments; the
    /// party keeps QUAL and the blame list.
    pub(crate) fn finalize(
        &mut self,
        reveals: &[Received<'_>],
    ) -> CResult<(KeyShare<G>, Commitments<G>)> {
        // The Err hands the stage back untouched, moved once: no box needed.
        #[allow(clippy::result_large_err)]
        let take = |stage: Stage<G>| match stage {
            Stage::Round6(state) => Ok(state),
            other => Err(other),
        };
        let output = self.take(take)?.finish(reveals)?;
        self.stage = Stage::Finalized {
            qualified: output.qualified().to_vec(),
            blame: output.blame().to_vec(),
        };
        Ok(output.into_parts())
    }

    /// The private share pair for `recipient` (round 1 only).
    fn pair_for(&self, recipient: PartyId) -> CResult<&[u8]> {
        if self.stage.round() != 1 {
            return Err(OBLIVEX_ERR_WRONG_ROUND);
        }
        self.pairs
            .iter()
            .find(|(id, _)| *id == recipient)
            .map(|(_, bytes)| bytes.as_slice())
            .ok_or(OBLIVEX_ERR_INVALID_PARTY_ID)
    }
}

/// The session id from C: exactly `OBLIVEX_DKG_SESSION_ID_LEN` bytes.
///
/// # Safety
/// `session` is NULL or points to `session_len` readable bytes.
unsafe fn read_session(session: *const u8, session_len: usize) -> CResult<[u8; SESSION_ID_LEN]> {
    // SAFETY: forwarded from this function's contract.
    let session = unsafe { input(session, session_len) }?;
    session.try_into().map_err(|_| OBLIVEX_ERR_BAD_LENGTH)
}

/// Starts party `party_id` (1..`parties`) of a new t-of-n key of `suite`
/// (`threshold` t, `parties` n: `1 <= t`, `2 <= n <= OBLIVEX_MAX_PARTIES`,
/// `n >= 2t − 1`), in the run named by `session`
/// (`OBLIVEX_DKG_SESSION_ID_LEN` bytes the parties chose together, never
/// reused). Stores the party in `*party_out` (release it with
/// `oblivex_dkg_party_free`); its round-1 messages are ready:
/// `oblivex_dkg_party_broadcast` (to every other party) and
/// `oblivex_dkg_party_share_pair` (one per other party, privately).
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_UNKNOWN_SUITE`, `OBLIVEX_ERR_BAD_LENGTH` (the session id),
/// `OBLIVEX_ERR_INVALID_THRESHOLD`, `OBLIVEX_ERR_INVALID_PARTY_ID` (not in
/// 1..n), `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `session` points to `session_len` readable bytes; `party_out` to a
/// writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_new(
    suite: oblivex_suite,
    threshold: usize,
    parties: usize,
    session: *const u8,
    session_len: usize,
    party_id: u16,
    party_out: *mut *mut oblivex_dkg_party,
) -> oblivex_status {
    catch(|| {
        let suite = Suite::from_c(suite)?;
        // SAFETY: forwarded from this function's contract.
        let session = unsafe { read_session(session, session_len) }?;
        let party_out = out_pointer(party_out)?;
        let mut rng = os_rng()?;
        let party = with_group!(suite, G => {
            let params = DkgParams::<G>::new(threshold, parties, session)?;
            let started = DkgParty::start(params, party_id, &mut rng)?;
            G::wrap(DkgPartyState::started(&params, party_id, started))
        });
        // SAFETY: `party_out` is non-NULL and writable by the contract.
        unsafe { create(party_out, party) };
        Ok(())
    })
}

/// Starts the holder of `share` in a refresh of the t-of-n key that
/// `commitments` commit to (t is theirs; `parties` n as for
/// `oblivex_dkg_party_new`, t >= 2), in the run named by `session`: at
/// the end the party gets a new share of the same key and new commitments
/// with the same public key; the old shares stop combining with the new
/// ones. Every party starts from the same commitments. Stores the party in
/// `*party_out` (release it with `oblivex_dkg_party_free`), round-1
/// messages ready as for `oblivex_dkg_party_new`. The share and the
/// commitments are only read.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_SUITE_MISMATCH` (the two are of different suites),
/// `OBLIVEX_ERR_BAD_LENGTH` (the session id),
/// `OBLIVEX_ERR_INVALID_THRESHOLD`, `OBLIVEX_ERR_INVALID_PARTY_ID` (the
/// share's id is above n), `OBLIVEX_ERR_SHARE_MISMATCH` (the share fails
/// the commitments), `OBLIVEX_ERR_RNG_FAILURE`.
///
/// # Safety
/// `share` and `commitments` are live handles; `session` points to
/// `session_len` readable bytes; `party_out` to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_refresh_new(
    share: *const oblivex_key_share,
    commitments: *const oblivex_commitments,
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
            let params = DkgParams::<G>::refresh(commitments.threshold(), parties, session)?;
            // The party keeps its own copy (wiped with it): the caller's
            // handle stays immutable.
            let copy = KeyShare::new(share.id(), share.secret().clone())?;
            let started = DkgParty::start_refresh(params, copy, commitments, &mut rng)?;
            G::wrap(DkgPartyState::started(&params, share.id(), started))
        });
        // SAFETY: `party_out` is non-NULL and writable by the contract.
        unsafe { create(party_out, party) };
        Ok(())
    })
}

/// The round whose messages `party` waits for: 1 to 6 (the step to call
/// is `oblivex_dkg_party_round2` for 1 … `oblivex_dkg_party_finalize` for
/// 6), 7 once finalized, 0 after a failed round or for NULL.
///
/// # Safety
/// `party` is NULL or a live handle used by no other thread.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_round(party: *const oblivex_dkg_party) -> c_int {
    catch_or(0, || {
        // SAFETY: `party` is NULL or live by the contract.
        unsafe { borrow(party) }.map_or(
            0,
            |party| with_group!(match party, G(state) => c_int::from(state.stage.round())),
        )
    })
}

/// Bytes of the broadcast `oblivex_dkg_party_broadcast` writes now (0 once
/// finalized, after a failure, or for NULL).
///
/// # Safety
/// `party` is NULL or a live handle used by no other thread.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_broadcast_len(party: *const oblivex_dkg_party) -> usize {
    catch_or(0, || {
        // SAFETY: `party` is NULL or live by the contract.
        unsafe { borrow(party) }.map_or(
            0,
            |party| with_group!(match party, G(state) => state.broadcast.len()),
        )
    })
}

/// Writes the broadcast of the party's last step (its start or a round)
/// to `message` and its length to `*message_written`: send it to every
/// other party over the broadcast channel (docs/PROTOCOLS.md §10). Every
/// step has one, an empty complaint list included.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_WRONG_ROUND` (the run is finalized or failed),
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL` (see `oblivex_dkg_party_broadcast_len`).
///
/// # Safety
/// `party` is a live handle used by no other thread; `message` points to
/// `message_capacity` writable bytes; `message_written` to a writable
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_broadcast(
    party: *const oblivex_dkg_party,
    message: *mut u8,
    message_capacity: usize,
    message_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `party` is NULL or live by the contract.
        let party = unsafe { borrow(party) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(message, message_capacity, message_written) }?;
        with_group!(match party, G(state) => {
            if state.broadcast.is_empty() {
                return Err(OBLIVEX_ERR_WRONG_ROUND);
            }
            out.put(&state.broadcast)
        })
    })
}

/// Bytes of each private share pair `oblivex_dkg_party_share_pair` writes
/// (0 outside round 1 or for NULL).
///
/// # Safety
/// `party` is NULL or a live handle used by no other thread.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_share_pair_len(
    party: *const oblivex_dkg_party,
) -> usize {
    catch_or(0, || {
        // SAFETY: `party` is NULL or live by the contract.
        unsafe { borrow(party) }.map_or(0, |party| {
            with_group!(match party, G(state) => {
                state.pairs.first().map_or(0, |(_, bytes)| bytes.len())
            })
        })
    })
}

/// Writes the round-1 share pair for party `recipient` to `message` and its
/// length to `*message_written`. Secret: send it to `recipient` only, over
/// an authenticated and encrypted channel, and wipe it after; the party
/// wipes its copies at its next step.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_WRONG_ROUND` (past round 1), `OBLIVEX_ERR_INVALID_PARTY_ID`
/// (the party itself, or not in 1..n), `OBLIVEX_ERR_BUFFER_TOO_SMALL` (see
/// `oblivex_dkg_party_share_pair_len`).
///
/// # Safety
/// `party` is a live handle used by no other thread; `message` points to
/// `message_capacity` writable bytes; `message_written` to a writable
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_share_pair(
    party: *const oblivex_dkg_party,
    recipient: u16,
    message: *mut u8,
    message_capacity: usize,
    message_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `party` is NULL or live by the contract.
        let party = unsafe { borrow(party) }?;
        // SAFETY: the output pointers satisfy `OutBuffer::new`'s contract.
        let out = unsafe { OutBuffer::new(message, message_capacity, message_written) }?;
        with_group!(match party, G(state) => out.put(state.pair_for(recipient)?))
    })
}

/// Releases a DKG party, wiping its secrets (polynomials, received
/// shares, unsent share pairs). NULL is ignored.
///
/// # Safety
/// `party` is NULL or a live handle, not used afterwards (by any thread).
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_free(party: *mut oblivex_dkg_party) {
    // SAFETY: forwarded from this function's contract.
    unsafe { free(party) }
}
