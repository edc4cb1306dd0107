//! C ABI of the DKG's rounds: one step function per round, each taking
//! the messages of the round before (docs/PROTOCOLS.md §10), and the run's
//! public result (the qualified set and the blame list).
//!
//! Each step takes `count` entries of (sender, message): `party_ids[i]`
//! sent `messages[i]` (the transport authenticated the sender); an empty
//! entry (NULL and 0) is a message that did not arrive. A message that
//! does not decode is no error of the call: the round blames its sender.

use super::args::{read_responses, U16Array};
use super::dkg_party::{oblivex_dkg_party, DkgPartyState, Senders, Stage};
use super::guard::{catch, catch_or, out_pointer};
use super::handle::{borrow, borrow_mut, create};
use super::sharing::{oblivex_commitments, oblivex_key_share};
use super::status::{
    oblivex_status, CResult, OBLIVEX_ERR_DUPLICATE_MESSAGE, OBLIVEX_ERR_INVALID_PARTY_ID,
    OBLIVEX_ERR_WRONG_ROUND,
};
use super::suite::{with_group, SuiteGroup};
use crate::group::PrimeOrderGroup;
use crate::threshold::dkg::{Blame, Offence, Received};
use crate::threshold::{PartyId, Response};

/// A blame entry's offence (its second value): the party's broadcast of
/// round `detail` did not arrive. Disqualifies in rounds 1 to 3.
pub const OBLIVEX_DKG_OFFENCE_BROADCAST_MISSING: u16 = 1;
/// The party's broadcast of round `detail` did not decode; `error` is the
/// status saying why. Disqualifies in rounds 1 to 3.
pub const OBLIVEX_DKG_OFFENCE_BROADCAST_INVALID: u16 = 2;
/// `detail` parties (at least t) complained against the dealer.
/// Disqualifies.
pub const OBLIVEX_DKG_OFFENCE_TOO_MANY_COMPLAINTS: u16 = 3;
/// The dealer left the complaint of party `detail` unanswered.
/// Disqualifies.
pub const OBLIVEX_DKG_OFFENCE_COMPLAINT_UNANSWERED: u16 = 4;
/// The dealer answered the complaint of party `detail` with a pair that
/// fails its own commitments. Disqualifies.
pub const OBLIVEX_DKG_OFFENCE_WRONG_JUSTIFICATION: u16 = 5;
/// The party's complaint against dealer `detail` was answered with a valid
/// pair (a false complaint, or a dealer that sent a bad pair and then
/// published a good one). Recorded only.
pub const OBLIVEX_DKG_OFFENCE_COMPLAINT_REFUTED: u16 = 6;
/// The qualified dealer's Feldman commitments fail the share of party
/// `detail`, who proved it: its polynomial was rebuilt in public, its part
/// of the key kept. Recorded (the dealer stays qualified).
pub const OBLIVEX_DKG_OFFENCE_FELDMAN_INCONSISTENT: u16 = 7;
/// The party's Feldman complaint against dealer `detail` was false.
/// Recorded only.
pub const OBLIVEX_DKG_OFFENCE_FALSE_FELDMAN_COMPLAINT: u16 = 8;
/// The party revealed a wrong pair of exposed dealer `detail`. Recorded
/// only.
pub const OBLIVEX_DKG_OFFENCE_WRONG_REVEALED_SHARE: u16 = 9;
/// In a resharing, an old party's dealt constant term is not the
/// commitment to its old share: it dealt something else. Disqualifies.
pub const OBLIVEX_DKG_OFFENCE_WRONG_CONSTANT_TERM: u16 = 10;
/// `uint16_t` values per blame entry: the party named, its offence
/// (`OBLIVEX_DKG_OFFENCE_*`), the offence's `detail` (a round, a party id
/// or a count), and `error` (a status, for
/// `OBLIVEX_DKG_OFFENCE_BROADCAST_INVALID`; 0 otherwise).
pub const OBLIVEX_DKG_BLAME_ENTRY_LEN: usize = 4;

/// One blame entry as C reads it (see `OBLIVEX_DKG_BLAME_ENTRY_LEN`).
fn blame_entry(blame: &Blame) -> [u16; OBLIVEX_DKG_BLAME_ENTRY_LEN] {
    let (offence, detail, error) = match blame.offence {
        Offence::BroadcastMissing { round } => {
            (OBLIVEX_DKG_OFFENCE_BROADCAST_MISSING, u16::from(round), 0)
        }
        Offence::BroadcastInvalid { round, error } => (
            OBLIVEX_DKG_OFFENCE_BROADCAST_INVALID,
            u16::from(round),
            oblivex_status::from(error).0 as u16,
        ),
        Offence::TooManyComplaints { complaints } => (
            OBLIVEX_DKG_OFFENCE_TOO_MANY_COMPLAINTS,
            complaints as u16,
            0,
        ),
        Offence::ComplaintUnanswered { complainer } => {
            (OBLIVEX_DKG_OFFENCE_COMPLAINT_UNANSWERED, complainer, 0)
        }
        Offence::WrongJustification { complainer } => {
            (OBLIVEX_DKG_OFFENCE_WRONG_JUSTIFICATION, complainer, 0)
        }
        Offence::ComplaintRefuted { dealer } => (OBLIVEX_DKG_OFFENCE_COMPLAINT_REFUTED, dealer, 0),
        Offence::FeldmanInconsistent { complainer } => {
            (OBLIVEX_DKG_OFFENCE_FELDMAN_INCONSISTENT, complainer, 0)
        }
        Offence::FalseFeldmanComplaint { dealer } => {
            (OBLIVEX_DKG_OFFENCE_FALSE_FELDMAN_COMPLAINT, dealer, 0)
        }
        Offence::WrongRevealedShare { dealer } => {
            (OBLIVEX_DKG_OFFENCE_WRONG_REVEALED_SHARE, dealer, 0)
        }
        Offence::WrongConstantTerm => (OBLIVEX_DKG_OFFENCE_WRONG_CONSTANT_TERM, 0, 0),
    };
    [blame.party, offence, detail, error]
}

/// One round's messages as C gives them, by sender.
struct Messages<'a>(Vec<Response<'a>>);

impl<'a> Messages<'a> {
    /// Reads `count` entries (NULL arrays allowed with 0).
    ///
    /// # Safety
    /// `party_ids`, `messages` and `messages_lens` hold `count` entries,
    /// each message readable for its length (NULL with 0).
    unsafe fn read(
        party_ids: *const u16,
        messages: *const *const u8,
        messages_lens: *const usize,
        count: usize,
    ) -> CResult<Self> {
        // SAFETY: forwarded from this function's contract.
        unsafe { read_responses(party_ids, messages, messages_lens, count) }.map(Messages)
    }

    /// Refuses the senders the round would refuse, before the round
    /// consumes the party's state (so that a caller's mistake leaves the
    /// party where it was): `OBLIVEX_ERR_INVALID_PARTY_ID` for an id
    /// outside the senders' 1..=count, `OBLIVEX_ERR_DUPLICATE_MESSAGE` for
    /// a repeated id or the party's own.
    fn check_senders(&self, senders: Senders) -> CResult {
        let mut seen = vec![false; senders.count];
        for message in &self.0 {
            let index = usize::from(message.party).wrapping_sub(1);
            if index >= senders.count {
                return Err(OBLIVEX_ERR_INVALID_PARTY_ID);
            }
            if Some(message.party) == senders.own || seen[index] {
                return Err(OBLIVEX_ERR_DUPLICATE_MESSAGE);
            }
            seen[index] = true;
        }
        Ok(())
    }

    /// The messages that arrived, as the round takes them.
    fn received(&self) -> Vec<Received<'a>> {
        self.0
            .iter()
            .filter(|message| !message.elements.is_empty())
            .map(|message| Received {
                from: message.party,
                bytes: message.elements,
            })
            .collect()
    }
}

/// Copies of the messages that arrived, for a later round (public
/// broadcasts only).
fn keep(received: &[Received<'_>]) -> Vec<(PartyId, Vec<u8>)> {
    received
        .iter()
        .map(|message| (message.from, message.bytes.to_vec()))
        .collect()
}

/// Kept messages, as a round takes them.
fn kept(messages: &[(PartyId, Vec<u8>)]) -> Vec<Received<'_>> {
    messages
        .iter()
        .map(|(from, bytes)| Received { from: *from, bytes })
        .collect()
}

/// What a step makes: the party's next stage and its broadcast (empty for
/// a step that sends nothing).
type Next<G> = CResult<(Stage<G>, Vec<u8>)>;

/// The step after round 1 on the round-1 messages. Other stages are not
/// reached ([`DkgPartyState::advance`] checked the round); they are refused.
fn after_round1<G: PrimeOrderGroup>(
    stage: Stage<G>,
    commitments: &[Received<'_>],
    shares: &[Received<'_>],
) -> Next<G> {
    match stage {
        Stage::Round1(state) => {
            let (next, complaints) = state.round2(commitments, shares)?;
            Ok((Stage::Round2(next), complaints.to_bytes()))
        }
        Stage::ReceiverRound1(state) => {
            let (next, complaints) = state.round2(commitments, shares)?;
            Ok((Stage::ReceiverRound2(next), complaints.to_bytes()))
        }
        _ => Err(OBLIVEX_ERR_WRONG_ROUND),
    }
}

/// The step after round 2 on the complaints: a dealer answers them; a
/// resharing's new party keeps them for the next step, which takes them
/// with the old parties' justifications, and sends nothing.
fn after_round2<G: PrimeOrderGroup>(stage: Stage<G>, complaints: &[Received<'_>]) -> Next<G> {
    match stage {
        Stage::Round2(state) => {
            let (next, answers) = state.round3(complaints)?;
            Ok((Stage::Round3(next), answers.to_bytes()))
        }
        Stage::DealerRound1(state) => {
            let (next, answers) = state.round3(complaints)?;
            Ok((Stage::DealerRound3(next), answers.to_bytes()))
        }
        Stage::ReceiverRound2(state) => {
            Ok((Stage::ReceiverRound3(state, keep(complaints)), Vec::new()))
        }
        _ => Err(OBLIVEX_ERR_WRONG_ROUND),
    }
}

/// The step after round 3 on the justifications: QUAL is fixed, and a
/// dealer publishes its Feldman commitments (a resharing's old party is
/// then done; its new parties send nothing).
fn after_round3<G: PrimeOrderGroup>(stage: Stage<G>, justifications: &[Received<'_>]) -> Next<G> {
    match stage {
        Stage::Round3(state) => {
            let (next, feldman) = state.round4(justifications)?;
            Ok((Stage::Round4(next), feldman.to_bytes()))
        }
        Stage::DealerRound3(state) => Ok((Stage::Dealt, state.round4().to_bytes())),
        Stage::ReceiverRound3(state, complaints) => {
            let next = state.round4(&kept(&complaints), justifications)?;
            Ok((Stage::Round4(next), Vec::new()))
        }
        _ => Err(OBLIVEX_ERR_WRONG_ROUND),
    }
}

/// The step after round 4 on the Feldman commitments.
fn after_round4<G: PrimeOrderGroup>(stage: Stage<G>, feldman: &[Received<'_>]) -> Next<G> {
    match stage {
        Stage::Round4(state) => {
            let (next, complaints) = state.round5(feldman)?;
            Ok((Stage::Round5(next), complaints.to_bytes()))
        }
        _ => Err(OBLIVEX_ERR_WRONG_ROUND),
    }
}

/// The step after round 5 on the Feldman complaints.
fn after_round5<G: PrimeOrderGroup>(stage: Stage<G>, complaints: &[Received<'_>]) -> Next<G> {
    match stage {
        Stage::Round5(state) => {
            let (next, reveals) = state.round6(complaints)?;
            Ok((Stage::Round6(next), reveals.to_bytes()))
        }
        _ => Err(OBLIVEX_ERR_WRONG_ROUND),
    }
}

/// Round 2 at `party` (which waits for round 1): takes the round-1
/// messages, `count` entries by sender: `commitments[i]` is the broadcast
/// and `shares[i]` the private share pair that party `party_ids[i]` sent
/// this party (either may be empty: it did not arrive). The senders are
/// every other party; for a resharing's new party, the old parties (ids
/// 1..n of the old set; its own id is no exception). The party's
/// complaints are then its broadcast (`oblivex_dkg_party_broadcast`).
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_INVALID_PARTY_ID` (a
/// sender outside 1..n, or more than `OBLIVEX_MAX_PARTIES` entries),
/// `OBLIVEX_ERR_DUPLICATE_MESSAGE` (a repeated sender, or the party
/// itself), `OBLIVEX_ERR_WRONG_ROUND`: the party is unchanged. In a
/// refresh or resharing, `OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH` when at
/// least the senders' threshold of messages name other old commitments
/// than the party's (it started from another sharing of the key): the run
/// fails at this party.
///
/// # Safety
/// `party` is a live handle used by no other thread; `party_ids`,
/// `commitments`, `commitments_lens`, `shares` and `shares_lens` hold
/// `count` entries (NULL with 0), each message readable for its length.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_round2(
    party: *mut oblivex_dkg_party,
    party_ids: *const u16,
    commitments: *const *const u8,
    commitments_lens: *const usize,
    shares: *const *const u8,
    shares_lens: *const usize,
    count: usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `party` is NULL or live and unshared by the contract.
        let party = unsafe { borrow_mut(party) }?;
        // SAFETY: the arrays hold `count` entries by the contract.
        let (commitments, shares) = unsafe {
            (
                Messages::read(party_ids, commitments, commitments_lens, count)?,
                Messages::read(party_ids, shares, shares_lens, count)?,
            )
        };
        with_group!(match party, G(state) => state.advance(
            1,
            |senders| commitments.check_senders(senders),
            |stage| after_round1::<G>(stage, &commitments.received(), &shares.received()),
        ))
    })
}

/// The body of the step function after broadcast round `$round` (2 to 5):
/// reads the messages and runs `$step` on them if the party waits for
/// them and their senders are right.
macro_rules! broadcast_step {
    ($party:ident, $ids:ident, $messages:ident, $lens:ident, $count:ident:
     after $round:literal by $step:ident) => {
        catch(|| {
            // SAFETY: `party` is NULL or live and unshared by the contract.
            let party = unsafe { borrow_mut($party) }?;
            // SAFETY: the arrays hold `count` entries by the contract.
            let messages = unsafe { Messages::read($ids, $messages, $lens, $count) }?;
            with_group!(match party, G(state) => state.advance(
                $round,
                |senders| messages.check_senders(senders),
                |stage| $step::<G>(stage, &messages.received()),
            ))
        })
    };
}

/// Round 3 at `party` (which waits for round 2): takes every other
/// party's complaint list (`complaints[i]` from `party_ids[i]`; empty: it
/// did not arrive). The party's answers to the complaints against it are
/// then its broadcast (`oblivex_dkg_party_broadcast`).
///
/// In a resharing the complaints are the new parties' (ids 1..n′): an old
/// party answers them (its broadcast); a new party keeps them for round 4
/// and sends nothing.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_INVALID_PARTY_ID` (a
/// sender outside 1..n, or more than `OBLIVEX_MAX_PARTIES` entries),
/// `OBLIVEX_ERR_DUPLICATE_MESSAGE` (a repeated sender, or the party
/// itself), `OBLIVEX_ERR_WRONG_ROUND`: the party is unchanged. In a
/// refresh or resharing, `OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH` when at
/// least the senders' threshold of messages name other old commitments
/// than the party's (it started from another sharing of the key): the run
/// fails at this party.
///
/// # Safety
/// `party` is a live handle used by no other thread; `party_ids`,
/// `complaints` and `complaints_lens` hold `count` entries (NULL with 0), each
/// message readable for its length.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_round3(
    party: *mut oblivex_dkg_party,
    party_ids: *const u16,
    complaints: *const *const u8,
    complaints_lens: *const usize,
    count: usize,
) -> oblivex_status {
    broadcast_step!(party, party_ids, complaints, complaints_lens, count: after 2 by after_round2)
}

/// Round 4 at `party` (which waits for round 3): takes every other
/// party's justifications (`justifications[i]` from `party_ids[i]`; empty:
/// it did not arrive) and fixes the qualified set. The party's Feldman
/// commitments are then its broadcast.
///
/// In a resharing the justifications are the old parties' (ids 1..n): a
/// new party fixes QUAL from them and the complaints it kept, and sends
/// nothing; an old party takes no messages (`count` 0), publishes its
/// Feldman commitments once round 3's deadline has passed, and is done
/// (`oblivex_dkg_party_round` 7; it gets no share).
///
/// A failed run: `OBLIVEX_ERR_NO_QUALIFIED_PARTY` (every party was
/// disqualified, or fewer than the old threshold in a resharing); the
/// party is spent (`OBLIVEX_ERR_WRONG_ROUND` from then on).
///
/// Errors (the party unchanged): as for `oblivex_dkg_party_round3`.
///
/// # Safety
/// As for `oblivex_dkg_party_round3`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_round4(
    party: *mut oblivex_dkg_party,
    party_ids: *const u16,
    justifications: *const *const u8,
    justifications_lens: *const usize,
    count: usize,
) -> oblivex_status {
    broadcast_step!(party, party_ids, justifications, justifications_lens, count: after 3 by after_round3)
}

/// Round 5 at `party` (which waits for round 4): takes every other
/// party's Feldman commitments (`commitments[i]` from `party_ids[i]`;
/// empty: it did not arrive; in a resharing, the old parties'). The
/// party's Feldman complaints (its pairs as evidence) are then its
/// broadcast.
///
/// Errors (the party unchanged): as for `oblivex_dkg_party_round3`.
///
/// # Safety
/// As for `oblivex_dkg_party_round3`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_round5(
    party: *mut oblivex_dkg_party,
    party_ids: *const u16,
    commitments: *const *const u8,
    commitments_lens: *const usize,
    count: usize,
) -> oblivex_status {
    broadcast_step!(party, party_ids, commitments, commitments_lens, count: after 4 by after_round4)
}

/// Round 6 at `party` (which waits for round 5): takes every other
/// party's Feldman complaints (`complaints[i]` from `party_ids[i]`; empty:
/// it did not arrive; in a resharing, the other new parties'). The pairs
/// the party reveals of the exposed dealers are then its broadcast.
///
/// Errors (the party unchanged): as for `oblivex_dkg_party_round3`.
///
/// # Safety
/// As for `oblivex_dkg_party_round3`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_round6(
    party: *mut oblivex_dkg_party,
    party_ids: *const u16,
    complaints: *const *const u8,
    complaints_lens: *const usize,
    count: usize,
) -> oblivex_status {
    broadcast_step!(party, party_ids, complaints, complaints_lens, count: after 5 by after_round5)
}

/// The last step at `party` (which waits for round 6): takes every other
/// party's revealed pairs (`reveals[i]` from `party_ids[i]`; empty: it did
/// not arrive; in a resharing, the other new parties'), and stores the
/// party's key share in `*share_out` (release it with
/// `oblivex_key_share_free`) and the joint commitments in
/// `*commitments_out` (`oblivex_commitments_free`): exactly what
/// `oblivex_threshold_deal` gives, for the threshold OPRF, BLS and
/// ElGamal functions. The party keeps the qualified set
/// (`oblivex_dkg_party_qualified`) and the blame list
/// (`oblivex_dkg_party_blame`), the same at every honest party.
///
/// Errors (nothing written, the party unchanged):
/// `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_INVALID_PARTY_ID`,
/// `OBLIVEX_ERR_DUPLICATE_MESSAGE`, `OBLIVEX_ERR_WRONG_ROUND`, as for the
/// rounds. A failed run (nothing written, the party spent):
/// `OBLIVEX_ERR_NOT_ENOUGH_REVEALED_SHARES`, `OBLIVEX_ERR_DEGENERATE_KEY`
/// (run again with a new session id), `OBLIVEX_ERR_SHARE_MISMATCH`.
///
/// # Safety
/// `party` is a live handle used by no other thread; `party_ids`,
/// `reveals` and `reveals_lens` hold `count` entries (NULL with 0), each
/// message readable for its length; `share_out` and `commitments_out`
/// point to writable pointers.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_finalize(
    party: *mut oblivex_dkg_party,
    party_ids: *const u16,
    reveals: *const *const u8,
    reveals_lens: *const usize,
    count: usize,
    share_out: *mut *mut oblivex_key_share,
    commitments_out: *mut *mut oblivex_commitments,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `party` is NULL or live and unshared by the contract.
        let party = unsafe { borrow_mut(party) }?;
        // SAFETY: the arrays hold `count` entries by the contract.
        let reveals = unsafe { Messages::read(party_ids, reveals, reveals_lens, count) }?;
        let (share_out, commitments_out) = (out_pointer(share_out)?, out_pointer(commitments_out)?);
        with_group!(match party, G(state) => {
            let (share, commitments) =
                state.finalize(|senders| reveals.check_senders(senders), &reveals.received())?;
            // SAFETY: both are non-NULL and writable by the contract.
            unsafe {
                create(share_out, G::wrap(share));
                create(commitments_out, G::wrap(commitments));
            }
            Ok(())
        })
    })
}

/// The finalized run's public result at one party.
fn finalized<G: PrimeOrderGroup>(state: &DkgPartyState<G>) -> CResult<(&[PartyId], &[Blame])> {
    match &state.stage {
        Stage::Finalized { qualified, blame } => Ok((qualified.as_slice(), blame.as_slice())),
        _ => Err(OBLIVEX_ERR_WRONG_ROUND),
    }
}

/// Writes the qualified set QUAL of the finalized run (the dealers whose
/// polynomials make up the key, increasing) to `qualified` and its length
/// to `*qualified_written`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_WRONG_ROUND` (not finalized; a resharing's old party
/// never is), `OBLIVEX_ERR_BUFFER_TOO_SMALL` (n ids always fit: the old
/// set's n in a resharing, whose QUAL holds old parties).
///
/// # Safety
/// `party` is a live handle used by no other thread; `qualified` points to
/// `qualified_capacity` writable ids; `qualified_written` to a writable
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_qualified(
    party: *const oblivex_dkg_party,
    qualified: *mut u16,
    qualified_capacity: usize,
    qualified_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `party` is NULL or live by the contract.
        let party = unsafe { borrow(party) }?;
        with_group!(match party, G(state) => {
            let (ids, _) = finalized(state)?;
            U16Array::new(qualified, qualified_capacity, qualified_written, ids.len())?.write(ids);
            Ok(())
        })
    })
}

/// `uint16_t` values of the finalized run's blame list
/// (`OBLIVEX_DKG_BLAME_ENTRY_LEN` per entry; 0 when nobody misbehaved,
/// before finalizing, or for NULL).
///
/// # Safety
/// `party` is NULL or a live handle used by no other thread.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_blame_len(party: *const oblivex_dkg_party) -> usize {
    catch_or(0, || {
        // SAFETY: `party` is NULL or live by the contract.
        unsafe { borrow(party) }.map_or(0, |party| {
            with_group!(match party, G(state) => {
                finalized(state).map_or(0, |(_, blame)| blame.len() * OBLIVEX_DKG_BLAME_ENTRY_LEN)
            })
        })
    })
}

/// Writes the finalized run's blame list to `blame`, by party then by the
/// order of the rounds, `OBLIVEX_DKG_BLAME_ENTRY_LEN` values per entry:
/// the party, its offence (`OBLIVEX_DKG_OFFENCE_*`), the offence's detail
/// (a round, a party id or a count), and a status (for an undecodable
/// broadcast; else 0). Every honest party writes the same list. In a
/// resharing a dealer's offence names an old party (ids 1..n) and a
/// receiver's a new one (1..n′): the dealers' offences are
/// `OBLIVEX_DKG_OFFENCE_TOO_MANY_COMPLAINTS`, `_COMPLAINT_UNANSWERED`,
/// `_WRONG_JUSTIFICATION`, `_FELDMAN_INCONSISTENT`,
/// `_WRONG_CONSTANT_TERM`, and a broadcast of round 1, 3 or 4 missing or
/// invalid; the receivers' the others (a new party's missing complaints
/// count as none and disqualify nobody). Its
/// length (in values) goes to `*blame_written`.
///
/// Errors (nothing written): `OBLIVEX_ERR_NULL_POINTER`,
/// `OBLIVEX_ERR_WRONG_ROUND` (not finalized),
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL` (see `oblivex_dkg_party_blame_len`).
///
/// # Safety
/// `party` is a live handle used by no other thread; `blame` points to
/// `blame_capacity` writable values; `blame_written` to a writable
/// `size_t`.
#[no_mangle]
pub unsafe extern "C" fn oblivex_dkg_party_blame(
    party: *const oblivex_dkg_party,
    blame: *mut u16,
    blame_capacity: usize,
    blame_written: *mut usize,
) -> oblivex_status {
    catch(|| {
        // SAFETY: `party` is NULL or live by the contract.
        let party = unsafe { borrow(party) }?;
        with_group!(match party, G(state) => {
            let (_, entries) = finalized(state)?;
            let values: Vec<u16> = entries.iter().flat_map(blame_entry).collect();
            U16Array::new(blame, blame_capacity, blame_written, values.len())?.write(&values);
            Ok(())
        })
    })
}
