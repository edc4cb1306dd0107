//! C ABI of the DKG's rounds: one step function per round, each taking
//! the messages of the round before (docs/PROTOCOLS.md §10), and the run's
//! public result (the qualified set and the blame list).
//!
//! Each step takes `count` entries of (sender, message): `party_ids[i]`
//! sent `messages[i]` (the transport authenticated the sender); an empty
//! entry (NULL and 0) is a message that did not arrive. A message that
//! does not decode is no error of the call: the round blames its sender.

use super::args::{read_responses, U16Array};
use super::dkg_party::{oblivex_dkg_party, DkgPartyState, Stage};
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
/// commitment to its old share: it dealt something else. Disqualifies
/// (the resharing has no C entry point yet; Rust's
/// `DkgParty::start_reshare_dealer`).
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
    /// outside 1..n, `OBLIVEX_ERR_DUPLICATE_MESSAGE` for a repeated id or
    /// the party's own.
    fn check_senders<G: PrimeOrderGroup>(&self, party: &DkgPartyState<G>) -> CResult {
        let mut seen = vec![false; party.parties];
        for message in &self.0 {
            let index = usize::from(message.party).wrapping_sub(1);
            if index >= party.parties {
                return Err(OBLIVEX_ERR_INVALID_PARTY_ID);
            }
            if message.party == party.me || seen[index] {
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

/// Round 2 at `party` (which waits for round 1): takes every other party's
/// round-1 messages, `count` entries by sender: `commitments[i]` is the
/// broadcast and `shares[i]` the private share pair that party
/// `party_ids[i]` sent this party (either may be empty: it did not
/// arrive). The party's complaints are then its broadcast
/// (`oblivex_dkg_party_broadcast`).
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_INVALID_PARTY_ID` (a
/// sender outside 1..n, or more than `OBLIVEX_MAX_PARTIES` entries),
/// `OBLIVEX_ERR_DUPLICATE_MESSAGE` (a repeated sender, or the party
/// itself), `OBLIVEX_ERR_WRONG_ROUND`: the party is unchanged.
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
        with_group!(match party, G(state) => {
            commitments.check_senders(state)?;
            // The Err hands the stage back untouched, moved once: no box needed.
            #[allow(clippy::result_large_err)]
            let take = |stage: Stage<G>| match stage {
                Stage::Round1(state) => Ok(state),
                other => Err(other),
            };
            state.advance(take, |round1| {
                let (next, complaints) = round1.round2(&commitments.received(), &shares.received())?;
                Ok((Stage::Round2(next), complaints.to_bytes()))
            })
        })
    })
}

/// The body of the step function of broadcast round `$round` (3 to 6):
/// reads the messages, checks their senders and runs the round on the
/// `$from` state, which becomes the `$to` state.
macro_rules! broadcast_round {
    ($party:ident, $ids:ident, $messages:ident, $lens:ident, $count:ident:
     $from:ident => $to:ident by $round:ident) => {
        catch(|| {
            // SAFETY: `party` is NULL or live and unshared by the contract.
            let party = unsafe { borrow_mut($party) }?;
            // SAFETY: the arrays hold `count` entries by the contract.
            let messages = unsafe { Messages::read($ids, $messages, $lens, $count) }?;
            with_group!(match party, G(state) => {
                messages.check_senders(state)?;
                // The Err hands the stage back untouched, moved once: no box needed.
                #[allow(clippy::result_large_err)]
                let take = |stage: Stage<G>| match stage {
                    Stage::$from(state) => Ok(state),
                    other => Err(other),
                };
                state.advance(take, |state| {
                    let (next, broadcast) = state.$round(&messages.received())?;
                    Ok((Stage::$to(next), broadcast.to_bytes()))
                })
            })
        })
    };
}

/// Round 3 at `party` (which waits for round 2): takes every other
/// party's complaint list (`complaints[i]` from `party_ids[i]`; empty: it
/// did not arrive). The party's answers to the complaints against it are
/// then its broadcast (`oblivex_dkg_party_broadcast`).
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_INVALID_PARTY_ID` (a
/// sender outside 1..n, or more than `OBLIVEX_MAX_PARTIES` entries),
/// `OBLIVEX_ERR_DUPLICATE_MESSAGE` (a repeated sender, or the party
/// itself), `OBLIVEX_ERR_WRONG_ROUND`: the party is unchanged.
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
    broadcast_round!(party, party_ids, complaints, complaints_lens, count: Round2 => Round3 by round3)
}

/// Round 4 at `party` (which waits for round 3): takes every other
/// party's justifications (`justifications[i]` from `party_ids[i]`; empty:
/// it did not arrive) and fixes the qualified set. The party's Feldman
/// commitments are then its broadcast.
///
/// A failed run: `OBLIVEX_ERR_NO_QUALIFIED_PARTY` (every party was
/// disqualified); the party is spent (`OBLIVEX_ERR_WRONG_ROUND` from then
/// on).
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
    broadcast_round!(party, party_ids, justifications, justifications_lens, count: Round3 => Round4 by round4)
}

/// Round 5 at `party` (which waits for round 4): takes every other
/// party's Feldman commitments (`commitments[i]` from `party_ids[i]`;
/// empty: it did not arrive). The party's Feldman complaints (its pairs as
/// evidence) are then its broadcast.
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
    broadcast_round!(party, party_ids, commitments, commitments_lens, count: Round4 => Round5 by round5)
}

/// Round 6 at `party` (which waits for round 5): takes every other
/// party's Feldman complaints (`complaints[i]` from `party_ids[i]`; empty:
/// it did not arrive). The pairs the party reveals of the exposed dealers
/// are then its broadcast.
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
    broadcast_round!(party, party_ids, complaints, complaints_lens, count: Round5 => Round6 by round6)
}

/// The last step at `party` (which waits for round 6): takes every other
/// party's revealed pairs (`reveals[i]` from `party_ids[i]`; empty: it did
/// not arrive), and stores the party's key share in `*share_out` (release
/// it with `oblivex_key_share_free`) and the joint commitments in
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
            reveals.check_senders(state)?;
            let (share, commitments) = state.finalize(&reveals.received())?;
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
/// `OBLIVEX_ERR_WRONG_ROUND` (not finalized),
/// `OBLIVEX_ERR_BUFFER_TOO_SMALL` (n ids always fit).
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
/// broadcast; else 0). Every honest party writes the same list. Its
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
