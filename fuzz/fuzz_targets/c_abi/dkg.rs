//! The DKG's message decoding through the C ABI: party 1 of a 2-of-3 key
//! generation on ristretto255, or new party 1 of a resharing of such a
//! key to another 2-of-3 set, steps through every round on what the other
//! parties sent it in a recorded honest run, one message replaced by
//! fuzzer edits of the honest bytes or by fuzzer bytes. Every step must
//! return `OBLIVEX_OK` (a message that does not decode is no error of the
//! call: the round blames its sender) or a run failure its step documents,
//! never a panic; a failed finalize writes no handle; and the blame list
//! names only the edited message's sender, with a documented status when
//! a broadcast did not decode.

use core::ptr;

use std::any::TypeId;

use oblivex::ffi::*;
use oblivex_fuzz::{cached, Cursor};

/// Parties (in each set), threshold and session of the recorded runs.
const N: usize = 3;
const T: usize = 2;
const SESSION: [u8; 32] = [0x5d; 32];

/// One message party 1 received: its sender, the bytes, and in round 1
/// the pair the sender dealt it.
#[derive(Clone, Default)]
struct Received {
    from: u16,
    message: Vec<u8>,
    pair: Vec<u8>,
}

/// What party 1 received at each of its six steps (`inboxes[r − 1]`: the
/// messages of round r) in an honest run, and for a resharing the old
/// commitments its new party 1 starts from (kept for the process).
struct Transcript {
    inboxes: Vec<Vec<Received>>,
    old_commitments: *mut oblivex_commitments,
}

/// One party's step after round `round` (1..=6, 6 the finalize).
///
/// # Safety
/// `party` is a live handle; the outputs are writable.
unsafe fn step(
    party: *mut oblivex_dkg_party,
    round: usize,
    inbox: &[Received],
    share_out: &mut *mut oblivex_key_share,
    commitments_out: &mut *mut oblivex_commitments,
) -> oblivex_status {
    let ids: Vec<u16> = inbox.iter().map(|r| r.from).collect();
    let (m, l) = arrays(inbox.iter().map(|r| r.message.as_slice()));
    let (p, pl) = arrays(inbox.iter().map(|r| r.pair.as_slice()));
    let (ids, count, m, l) = (ids.as_ptr(), ids.len(), m.as_ptr(), l.as_ptr());
    // SAFETY: every array holds `count` entries, each message its length.
    unsafe {
        match round {
            1 => oblivex_dkg_party_round2(party, ids, m, l, p.as_ptr(), pl.as_ptr(), count),
            2 => oblivex_dkg_party_round3(party, ids, m, l, count),
            3 => oblivex_dkg_party_round4(party, ids, m, l, count),
            4 => oblivex_dkg_party_round5(party, ids, m, l, count),
            5 => oblivex_dkg_party_round6(party, ids, m, l, count),
            _ => oblivex_dkg_party_finalize(party, ids, m, l, count, share_out, commitments_out),
        }
    }
}

/// C pointer and length arrays (NULL for an empty message: missing).
fn arrays<'a>(messages: impl Iterator<Item = &'a [u8]>) -> (Vec<*const u8>, Vec<usize>) {
    messages
        .map(|m| {
            (
                if m.is_empty() {
                    ptr::null()
                } else {
                    m.as_ptr()
                },
                m.len(),
            )
        })
        .unzip()
}

/// A party's current broadcast (empty if it sends nothing).
fn broadcast(party: *mut oblivex_dkg_party) -> Vec<u8> {
    // SAFETY: a live handle; the buffer holds its capacity.
    unsafe {
        let mut out = vec![0u8; oblivex_dkg_party_broadcast_len(party)];
        if !out.is_empty() {
            let mut written = 0;
            let status =
                oblivex_dkg_party_broadcast(party, out.as_mut_ptr(), out.len(), &mut written);
            assert_eq!(status, OBLIVEX_OK);
        }
        out
    }
}

/// A party's round-1 pair for `recipient`.
fn pair(party: *mut oblivex_dkg_party, recipient: u16) -> Vec<u8> {
    // SAFETY: a live handle; the buffer holds its capacity.
    unsafe {
        let mut out = vec![0u8; oblivex_dkg_party_share_pair_len(party)];
        let mut written = 0;
        let status = oblivex_dkg_party_share_pair(
            party,
            recipient,
            out.as_mut_ptr(),
            out.len(),
            &mut written,
        );
        assert_eq!(status, OBLIVEX_OK);
        out
    }
}

/// One set of parties with their finalize outputs.
struct Set {
    parties: [*mut oblivex_dkg_party; N],
    shares: [*mut oblivex_key_share; N],
    commitments: [*mut oblivex_commitments; N],
}

impl Set {
    fn new(start: impl Fn(u16, &mut *mut oblivex_dkg_party) -> oblivex_status) -> Set {
        let mut set = Set {
            parties: [ptr::null_mut(); N],
            shares: [ptr::null_mut(); N],
            commitments: [ptr::null_mut(); N],
        };
        for (id, party) in (1..).zip(set.parties.iter_mut()) {
            assert_eq!(start(id, party), OBLIVEX_OK);
        }
        set
    }

    /// Step `round` at every party of this set on the last broadcasts
    /// (and for round 1 the pairs) of `senders` (the set itself when
    /// `one_set`: each party leaves itself out); party 1's inbox goes to
    /// `record`.
    fn step_all(
        &mut self,
        round: usize,
        senders: &[*mut oblivex_dkg_party; N],
        one_set: bool,
        record: &mut Vec<Vec<Received>>,
    ) {
        // Every message is read before any party steps (a step drops the
        // stepping party's own pairs and broadcast).
        let sent: Vec<Vec<u8>> = senders.iter().map(|&p| broadcast(p)).collect();
        let inboxes: Vec<Vec<Received>> = (1u16..=N as u16)
            .map(|to| {
                (1u16..)
                    .zip(senders)
                    .filter(|(from, _)| !(one_set && *from == to))
                    .map(|(from, &sender)| Received {
                        from,
                        message: sent[usize::from(from) - 1].clone(),
                        pair: if round == 1 {
                            pair(sender, to)
                        } else {
                            Vec::new()
                        },
                    })
                    .collect()
            })
            .collect();
        for ((to, index), inbox) in (1u16..).zip(0..N).zip(inboxes) {
            // SAFETY: a live handle; the outputs are writable.
            let status = unsafe {
                step(
                    self.parties[index],
                    round,
                    &inbox,
                    &mut self.shares[index],
                    &mut self.commitments[index],
                )
            };
            assert_eq!(status, OBLIVEX_OK);
            if to == 1 {
                record.push(inbox);
            }
        }
    }

    fn free(&self) {
        for i in 0..N {
            // SAFETY: NULL or live handles, freed once.
            unsafe {
                oblivex_dkg_party_free(self.parties[i]);
                oblivex_key_share_free(self.shares[i]);
                oblivex_commitments_free(self.commitments[i]);
            }
        }
    }
}

/// A key generation among three parties (its set, and what party 1
/// received).
fn key_generation() -> (Set, Vec<Vec<Received>>) {
    let mut set = Set::new(|id, party| {
        // SAFETY: the session holds its length; `party` is writable.
        unsafe {
            oblivex_dkg_party_new(
                OBLIVEX_SUITE_RISTRETTO255_SHA512,
                T,
                N,
                SESSION.as_ptr(),
                32,
                id,
                party,
            )
        }
    });
    let mut inboxes = Vec::new();
    for round in 1..=6 {
        let senders = set.parties;
        set.step_all(round, &senders, true, &mut inboxes);
    }
    (set, inboxes)
}

/// The recorded honest run: a key generation, or its resharing from its
/// three parties to three new ones.
fn record(reshare: bool) -> Transcript {
    let (old, inboxes) = key_generation();
    if !reshare {
        old.free();
        return Transcript {
            inboxes,
            old_commitments: ptr::null_mut(),
        };
    }
    let dealers = Set::new(|id, party| {
        let i = usize::from(id) - 1;
        // SAFETY: live handles; the session holds its length.
        unsafe {
            oblivex_dkg_reshare_dealer_new(
                old.shares[i],
                old.commitments[i],
                N,
                T,
                N,
                SESSION.as_ptr(),
                32,
                party,
            )
        }
    });
    let mut receivers = Set::new(|id, party| {
        // SAFETY: a live handle; the session holds its length.
        unsafe {
            oblivex_dkg_reshare_receiver_new(
                old.commitments[0],
                N,
                T,
                N,
                SESSION.as_ptr(),
                32,
                id,
                party,
            )
        }
    });
    let mut inboxes = Vec::new();
    let mut unused = Vec::new();
    receivers.step_all(1, &dealers.parties, false, &mut inboxes);
    // The old parties answer the new parties' complaints, then publish
    // their Feldman commitments, taking nothing.
    let mut dealing = Set {
        parties: dealers.parties,
        shares: [ptr::null_mut(); N],
        commitments: [ptr::null_mut(); N],
    };
    dealing.step_all(2, &receivers.parties, false, &mut unused);
    receivers.step_all(2, &receivers.parties.clone(), true, &mut inboxes);
    receivers.step_all(3, &dealers.parties, false, &mut inboxes);
    for &dealer in &dealers.parties {
        // SAFETY: a live handle; no messages.
        let status = unsafe { step(dealer, 3, &[], &mut ptr::null_mut(), &mut ptr::null_mut()) };
        assert_eq!(status, OBLIVEX_OK);
    }
    receivers.step_all(4, &dealers.parties, false, &mut inboxes);
    for round in 5..=6 {
        let senders = receivers.parties;
        receivers.step_all(round, &senders, true, &mut inboxes);
    }
    dealers.free();
    receivers.free();
    // The old commitments of party 1 stay for the process: every input's
    // new party starts from them.
    let old_commitments = old.commitments[0];
    let mut old = old;
    old.commitments[0] = ptr::null_mut();
    old.free();
    Transcript {
        inboxes,
        old_commitments,
    }
}

/// A fresh party 1 of the recorded run (a fresh polynomial, the same
/// session: the others' messages still apply to it).
fn start(transcript: &Transcript, reshare: bool) -> *mut oblivex_dkg_party {
    let mut party = ptr::null_mut();
    // SAFETY: the session holds its length; the commitments are live.
    let status = unsafe {
        if reshare {
            oblivex_dkg_reshare_receiver_new(
                transcript.old_commitments,
                N,
                T,
                N,
                SESSION.as_ptr(),
                32,
                1,
                &mut party,
            )
        } else {
            oblivex_dkg_party_new(
                OBLIVEX_SUITE_RISTRETTO255_SHA512,
                T,
                N,
                SESSION.as_ptr(),
                32,
                1,
                &mut party,
            )
        }
    };
    assert_eq!(status, OBLIVEX_OK);
    party
}

/// The honest bytes with fuzzer edits: (offset, xor) pairs, then a cut or
/// an extension; or, one input in 8, the fuzzer's own bytes.
fn edit(honest: &[u8], input: &mut Cursor<'_>) -> Vec<u8> {
    if input.byte().is_multiple_of(8) {
        return input.sized(64).to_vec();
    }
    let mut bytes = honest.to_vec();
    for _ in 0..input.byte() % 4 {
        let at = usize::from(input.u16());
        let xor = input.byte();
        if let Some(b) = bytes.get_mut(at % honest.len().max(1)) {
            *b ^= xor;
        }
    }
    match input.byte() {
        b @ 0..=31 => bytes.truncate(bytes.len().saturating_sub(usize::from(b % 8) + 1)),
        b @ 32..=47 => bytes.extend_from_slice(input.take(usize::from(b % 8) + 1)),
        _ => {}
    }
    bytes
}

pub fn dkg_rounds(input: &mut Cursor<'_>) {
    let reshare = input.byte().is_multiple_of(4);
    let transcript = cached((TypeId::of::<Transcript>(), reshare as u8, 0), || {
        record(reshare)
    });
    let round = usize::from(input.byte() % 6) + 1;
    let mut inbox = transcript.inboxes[round - 1].clone();
    let slot = usize::from(input.byte()) % inbox.len();
    let edit_pair = round == 1 && input.byte().is_multiple_of(2);
    let edited = &mut inbox[slot];
    let sender = edited.from;
    if edit_pair {
        edited.pair = edit(&edited.pair, input);
    } else {
        edited.message = edit(&edited.message, input);
    }
    let party = start(&transcript, reshare);
    let (mut share, mut commitments) = (ptr::null_mut(), ptr::null_mut());
    for r in 1..=6 {
        let messages = if r == round {
            &inbox
        } else {
            &transcript.inboxes[r - 1]
        };
        // SAFETY: a live handle; the outputs are writable.
        let status = unsafe { step(party, r, messages, &mut share, &mut commitments) };
        assert_ne!(status, OBLIVEX_ERR_PANIC, "a panic reached the C ABI");
        if status != OBLIVEX_OK {
            // Only a run failure: the senders were right.
            assert!(
                [
                    OBLIVEX_ERR_NO_QUALIFIED_PARTY,
                    OBLIVEX_ERR_NOT_ENOUGH_REVEALED_SHARES,
                    OBLIVEX_ERR_DEGENERATE_KEY,
                    OBLIVEX_ERR_SHARE_MISMATCH,
                ]
                .contains(&status),
                "round {r}: {status:?}"
            );
            assert!(
                share.is_null() && commitments.is_null(),
                "a failed finalize wrote a handle"
            );
            // SAFETY: a live handle.
            assert_eq!(
                unsafe { oblivex_dkg_party_round(party) },
                0,
                "a failed round spends the party"
            );
            break;
        }
    }
    if !share.is_null() {
        check_blame(party, sender, round);
    }
    // SAFETY: NULL or live handles, freed once.
    unsafe {
        oblivex_key_share_free(share);
        oblivex_commitments_free(commitments);
        oblivex_dkg_party_free(party);
    }
}

/// The finalized party's blame list names a broadcast missing or not
/// decoding only for the edited one (`sender`'s of `round`), with a DKG
/// decoding status. (An edit that decodes may make other parties look
/// guilty at party 1 alone: its complaint no dealer answered in the
/// recording, say; those entries are not checked.)
fn check_blame(party: *mut oblivex_dkg_party, sender: u16, round: usize) {
    // SAFETY: a live, finalized handle; the buffer holds its capacity.
    let values = unsafe {
        let mut values = vec![0u16; oblivex_dkg_party_blame_len(party).max(1)];
        let mut written = 0;
        let status =
            oblivex_dkg_party_blame(party, values.as_mut_ptr(), values.len(), &mut written);
        assert_eq!(status, OBLIVEX_OK);
        values.truncate(written);
        values
    };
    for entry in values.chunks(OBLIVEX_DKG_BLAME_ENTRY_LEN) {
        let offence = entry[1];
        if offence != OBLIVEX_DKG_OFFENCE_BROADCAST_INVALID
            && offence != OBLIVEX_DKG_OFFENCE_BROADCAST_MISSING
        {
            continue;
        }
        assert_eq!(
            (entry[0], usize::from(entry[2])),
            (sender, round),
            "{entry:?}"
        );
        let status = i32::from(entry[3]);
        assert!(
            offence == OBLIVEX_DKG_OFFENCE_BROADCAST_MISSING
                || status == OBLIVEX_ERR_BAD_LENGTH.0
                || status == OBLIVEX_ERR_INVALID_ELEMENT.0
                || status == OBLIVEX_ERR_INVALID_SCALAR.0
                || status == OBLIVEX_ERR_INVALID_PARTY_ID.0
                || status == OBLIVEX_ERR_SUITE_MISMATCH.0
                || (OBLIVEX_ERR_UNSUPPORTED_VERSION.0..=OBLIVEX_ERR_UNSORTED_PARTY_IDS.0)
                    .contains(&status)
                || status == OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH.0,
            "{entry:?}"
        );
    }
}
