//! C ABI of the distributed key generation (docs/PROTOCOLS.md §10): the
//! per-party handle, the functions that start a party (a new key, or a
//! refresh of a shared one) and those that hand out the messages it sends.
//! The rounds themselves are in `dkg_rounds`, a resharing's start
//! functions in `dkg_reshare`.
//!
//! The handle holds the party's typed round state (`Round1State` …
//! `Round6State` of [`crate::threshold::dkg`], or a resharing's dealer and
//! receiver states) and the messages its last step produced; the round
//! functions see only the state.

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
    Blame, DealerRound1State, DealerRound3State, DkgParams, DkgParty, Received,
    ReceiverRound1State, ReceiverRound2State, Round1Messages, Round1State, Round2State,
    Round3State, Round4State, Round5State, Round6State, SESSION_ID_LEN,
};
use crate::threshold::{Commitments, KeyShare, PartyId};
use crate::Zeroizing;

/// One party of a DKG run (key generation, refresh or resharing), from its
/// start to its key share: its secret polynomials and the shares it
/// received (wiped when freed), and the messages its last step produced.
/// Made by `oblivex_dkg_party_new`, `oblivex_dkg_refresh_new`,
/// `oblivex_dkg_reshare_dealer_new` or `oblivex_dkg_reshare_receiver_new`,
/// driven by `oblivex_dkg_party_round2` … `oblivex_dkg_party_round6` and
/// `oblivex_dkg_party_finalize`, one call per round in that order (a
/// resharing's old party starts at round 3 and ends after round 4).
/// Not for concurrent use.
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
/// failure). A resharing's new party (a receiver) goes `ReceiverRound1`,
/// `ReceiverRound2`, `ReceiverRound3`, then `Round4` on as in a key
/// generation; its old party (a dealer) `DealerRound1`, `DealerRound3`,
/// `Dealt`.
pub(crate) enum Stage<G: PrimeOrderGroup> {
    Round1(Round1State<G>),
    Round2(Round2State<G>),
    Round3(Round3State<G>),
    Round4(Round4State<G>),
    Round5(Round5State<G>),
    Round6(Round6State<G>),
    /// A new party of a resharing, waiting for the old parties' round-1
    /// messages.
    ReceiverRound1(ReceiverRound1State<G>),
    /// A new party of a resharing, waiting for the other new parties'
    /// complaints.
    ReceiverRound2(ReceiverRound2State<G>),
    /// A new party of a resharing, waiting for the old parties'
    /// justifications, with the complaints of round 2 (by sender; the
    /// Rust round takes both lists at once).
    ReceiverRound3(ReceiverRound2State<G>, Vec<(PartyId, Vec<u8>)>),
    /// An old party of a resharing, waiting for the new parties'
    /// complaints.
    DealerRound1(DealerRound1State<G>),
    /// An old party of a resharing, waiting for round 3's deadline to
    /// publish its Feldman commitments.
    DealerRound3(DealerRound3State<G>),
    /// An old party of a resharing after round 4: its part is done (its
    /// last broadcast stays readable), it gets no share.
    Dealt,
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
    /// The round whose messages the party waits for (1 to 6): the step to
    /// call is `oblivex_dkg_party_round<round + 1>` (`_finalize` after 6);
    /// 7 once finalized or dealt, 0 after a failure.
    pub(crate) fn round(&self) -> u8 {
        match self {
            Stage::Round1(_) | Stage::ReceiverRound1(_) => 1,
            Stage::Round2(_) | Stage::ReceiverRound2(_) | Stage::DealerRound1(_) => 2,
            Stage::Round3(_) | Stage::ReceiverRound3(..) | Stage::DealerRound3(_) => 3,
            Stage::Round4(_) => 4,
            Stage::Round5(_) => 5,
            Stage::Round6(_) => 6,
            Stage::Finalized { .. } | Stage::Dealt => 7,
            Stage::Failed => 0,
        }
    }
}

/// Who sends the messages a party's next step takes: the holders of ids
/// `1..=count`, the party itself among them (`own`) or not.
#[derive(Clone, Copy)]
pub(crate) struct Senders {
    pub(crate) count: usize,
    pub(crate) own: Option<PartyId>,
}

/// What an `oblivex_dkg_party` points to for one group.
pub(crate) struct DkgPartyState<G: PrimeOrderGroup> {
    /// This party's id (an old party's old id in a resharing).
    me: PartyId,
    /// The party count n of the set that ends with shares (n′ in a
    /// resharing).
    parties: usize,
    /// In a resharing, the old set's party count (the dealers, ids
    /// 1..=n); none in a key generation or refresh, where one set deals
    /// and receives.
    old_parties: Option<usize>,
    pub(crate) stage: Stage<G>,
    /// The broadcast of the last step, for every other party (empty once
    /// finalized or failed).
    broadcast: Vec<u8>,
    /// Round 1's private share pairs, by recipient (wiped on drop, and
    /// dropped by the next step).
    pairs: Vec<(PartyId, Zeroizing<Vec<u8>>)>,
}

impl<G: PrimeOrderGroup> DkgPartyState<G> {
    /// A party of a key generation or refresh, just started with its
    /// round-1 messages.
    pub(crate) fn started(
        params: &DkgParams<G>,
        me: PartyId,
        (state, messages): (Round1State<G>, Round1Messages<G>),
    ) -> Self {
        Self::dealing(params, me, Stage::Round1(state), messages)
    }

    /// A resharing's old party, just started with its round-1 messages
    /// (commitments for every new party, a pair for each).
    pub(crate) fn reshare_dealer(
        params: &DkgParams<G>,
        me: PartyId,
        (state, messages): (DealerRound1State<G>, Round1Messages<G>),
    ) -> Self {
        DkgPartyState {
            old_parties: Some(params.old_parties()),
            ..Self::dealing(params, me, Stage::DealerRound1(state), messages)
        }
    }

    /// A resharing's new party, just started: it sends nothing in round 1.
    pub(crate) fn reshare_receiver(
        params: &DkgParams<G>,
        me: PartyId,
        state: ReceiverRound1State<G>,
    ) -> Self {
        DkgPartyState {
            me,
            parties: params.parties(),
            old_parties: Some(params.old_parties()),
            stage: Stage::ReceiverRound1(state),
            broadcast: Vec::new(),
            pairs: Vec::new(),
        }
    }

    /// A party at `stage` that deals `messages` in round 1.
    fn dealing(
        params: &DkgParams<G>,
        me: PartyId,
        stage: Stage<G>,
        messages: Round1Messages<G>,
    ) -> Self {
        DkgPartyState {
            me,
            parties: params.parties(),
            old_parties: None,
            stage,
            broadcast: messages.commitments.to_bytes(),
            pairs: messages
                .shares
                .iter()
                .map(|pair| (pair.recipient(), pair.to_bytes()))
                .collect(),
        }
    }

    /// Who sends the messages the party's next step takes. In a key
    /// generation or refresh: the n parties, this one among them. In a
    /// resharing, where old and new parties are numbered apart: the old
    /// parties (their round-1, 3 and 4 broadcasts) to a new party, which
    /// is none of them (its old self, if any, is another handle); the new
    /// parties' complaints to an old party; nobody to an old party's round
    /// 4; the other new parties to a new party in rounds 2, 5 and 6.
    pub(crate) fn senders(&self) -> Senders {
        let everyone = Senders {
            count: self.parties,
            own: Some(self.me),
        };
        let Some(old_parties) = self.old_parties else {
            return everyone;
        };
        match self.stage {
            Stage::ReceiverRound1(_) | Stage::ReceiverRound3(..) | Stage::Round4(_) => Senders {
                count: old_parties,
                own: None,
            },
            Stage::DealerRound1(_) => Senders {
                count: self.parties,
                own: None,
            },
            Stage::DealerRound3(_) => Senders {
                count: 0,
                own: None,
            },
            _ => everyone,
        }
    }

    /// Runs the step that follows round `round` on the stage, once the
    /// caller's `check` of the senders (against [`Self::senders`]) passed:
    /// `OBLIVEX_ERR_WRONG_ROUND` or the check's status leave the party
    /// untouched. Otherwise the party's broadcast and share pairs go, and
    /// `run` makes the next stage and its broadcast; a failure of `run`
    /// ends the run (the stage stays `Failed`).
    pub(crate) fn advance(
        &mut self,
        round: u8,
        check: impl FnOnce(Senders) -> CResult,
        run: impl FnOnce(Stage<G>) -> CResult<(Stage<G>, Vec<u8>)>,
    ) -> CResult {
        if self.stage.round() != round {
            return Err(OBLIVEX_ERR_WRONG_ROUND);
        }
        check(self.senders())?;
        self.pairs.clear();
        self.broadcast.clear();
        let (stage, broadcast) = run(core::mem::replace(&mut self.stage, Stage::Failed))?;
        self.stage = stage;
        self.broadcast = broadcast;
        Ok(())
    }

    /// The last step: the party's share and the joint commitments; the
    /// party keeps QUAL and the blame list. Refused as [`Self::advance`]
    /// refuses.
    pub(crate) fn finalize(
        &mut self,
        check: impl FnOnce(Senders) -> CResult,
        reveals: &[Received<'_>],
    ) -> CResult<(KeyShare<G>, Commitments<G>)> {
        let mut output = None;
        self.advance(6, check, |stage| match stage {
            Stage::Round6(state) => {
                let result = state.finish(reveals)?;
                let stage = Stage::Finalized {
                    qualified: result.qualified().to_vec(),
                    blame: result.blame().to_vec(),
                };
                output = Some(result.into_parts());
                Ok((stage, Vec::new()))
            }
            _ => Err(OBLIVEX_ERR_WRONG_ROUND),
        })?;
        output.ok_or(OBLIVEX_ERR_WRONG_ROUND)
    }

    /// The private share pair for `recipient` (round 1 only).
    fn pair_for(&self, recipient: PartyId) -> CResult<&[u8]> {
        if self.pairs.is_empty() {
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
pub(crate) unsafe fn read_session(
    session: *const u8,
    session_len: usize,
) -> CResult<[u8; SESSION_ID_LEN]> {
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
            let params = DkgParams::<G>::refresh(commitments, parties, session)?;
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
/// 6; a resharing's old party starts at 2), 7 once finalized (or, for a
/// resharing's old party, done after round 4), 0 after a failed round or
/// for NULL.
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
/// finalized, after a failure, after a step that sends nothing, or for
/// NULL).
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
/// step of a key generation or refresh has one, an empty complaint list
/// included; in a resharing, an old party's broadcasts go to every new
/// party (the last, its Feldman commitments, stays readable once it is
/// done), and a new party's complaints to every old and new party, while
/// its start and its steps of rounds 3 and 4 send nothing.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_WRONG_ROUND` (the run is finalized or failed, or the last
/// step sent nothing),
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
/// (0 outside round 1, for a resharing's new party, or for NULL).
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
/// `OBLIVEX_ERR_WRONG_ROUND` (past round 1, or a resharing's new party,
/// which deals nothing), `OBLIVEX_ERR_INVALID_PARTY_ID` (the party itself,
/// or not in 1..n; a resharing's old party deals to every new party
/// 1..n′), `OBLIVEX_ERR_BUFFER_TOO_SMALL` (see
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
