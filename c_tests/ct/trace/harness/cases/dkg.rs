//! One party's whole distributed key generation (docs/PROTOCOLS.md §10),
//! 2 of 3: its dealing (drawing the secret and blinding polynomials, their
//! Pedersen commitments, the share pairs), its checks of the pairs it
//! receives against the dealers' Pedersen and then Feldman commitments,
//! its Feldman commitments, and the sums that make its share.
//!
//! Every party's coins come from the variant's stream, so party 1's
//! polynomials and the pairs it receives are the run's secrets; the
//! dealers' commitments differ between runs too, and only ever meet
//! constant-time arithmetic or variable-time code whose path depends on
//! public values alone (party ids and their powers). Outside the region an
//! honest run of all three parties on the variant's coins records what
//! party 1 receives; inside, party 1 lives its run again from the same
//! coins on those messages, so it deals exactly what the others answered.

use oblivex::group::PrimeOrderGroup;
use oblivex::threshold::dkg::{DkgError, DkgOutput, DkgParams, DkgParty, Received, SESSION_ID_LEN};
use oblivex::threshold::PartyId;
use rand_core::Rng;

use crate::marks::traced;
use crate::variants::PatternRng;

const THRESHOLD: usize = 2;
const PARTIES: usize = 3;
/// The traced party.
const ME: PartyId = 1;

/// One round's messages as sent: (sender, recipient, bytes); a broadcast
/// has one entry per recipient.
type Sent = Vec<(PartyId, PartyId, Vec<u8>)>;

/// What party [`ME`] receives in a run, round by round: the round-1
/// commitments and pairs, then rounds 2 to 6's broadcasts.
#[derive(Clone)]
struct Transcript([Sent; 7]);

fn err(e: DkgError) -> String {
    e.to_string()
}

fn params<G: PrimeOrderGroup>() -> Result<DkgParams<G>, String> {
    DkgParams::new(THRESHOLD, PARTIES, [0x7a; SESSION_ID_LEN]).map_err(err)
}

/// Party `id`'s coins: `stream`'s, moved on by a number of words set by
/// the (public) id, so that the parties of a random variant deal apart.
fn coins(stream: fn() -> PatternRng, id: PartyId) -> PatternRng {
    let mut rng = stream();
    for _ in 0..u64::from(id) * 64 {
        rng.next_u64();
    }
    rng
}

/// `bytes` from `from` to every other party.
fn broadcast(from: PartyId, bytes: &[u8]) -> Sent {
    (1..=PARTIES as PartyId)
        .filter(|&to| to != from)
        .map(|to| (from, to, bytes.to_vec()))
        .collect()
}

/// What `to` receives of `sent`.
fn inbox(sent: &Sent, to: PartyId) -> Vec<Received<'_>> {
    sent.iter()
        .filter(|(_, recipient, _)| *recipient == to)
        .map(|(from, _, bytes)| Received { from: *from, bytes })
        .collect()
}

/// One broadcast round at every party on the last round's messages.
fn round<S, N>(
    states: Vec<S>,
    last: &Sent,
    step: impl Fn(S, &[Received<'_>]) -> Result<(N, Vec<u8>), DkgError>,
) -> Result<(Vec<N>, Sent), String> {
    let mut next = Vec::with_capacity(states.len());
    let mut sent = Vec::new();
    for (state, id) in states.into_iter().zip(1..) {
        let (state, message) = step(state, &inbox(last, id)).map_err(err)?;
        next.push(state);
        sent.extend(broadcast(id, &message));
    }
    Ok((next, sent))
}

/// An honest run of every party on `stream`'s coins: what [`ME`] receives.
fn record<G: PrimeOrderGroup>(stream: fn() -> PatternRng) -> Result<Transcript, String> {
    let params = params::<G>()?;
    let mut states = Vec::new();
    let (mut commitments, mut pairs) = (Sent::new(), Sent::new());
    for id in 1..=PARTIES as PartyId {
        let (state, messages) = DkgParty::start(params, id, &mut coins(stream, id)).map_err(err)?;
        states.push(state);
        commitments.extend(broadcast(id, &messages.commitments.to_bytes()));
        for pair in &messages.shares {
            pairs.push((id, pair.recipient(), pair.to_bytes().to_vec()));
        }
    }
    let mut states2 = Vec::new();
    let mut complaints = Sent::new();
    for (state, id) in states.into_iter().zip(1..) {
        let (state, message) = state
            .round2(&inbox(&commitments, id), &inbox(&pairs, id))
            .map_err(err)?;
        states2.push(state);
        complaints.extend(broadcast(id, &message.to_bytes()));
    }
    let (states, justifications) = round(states2, &complaints, |s, r| {
        s.round3(r).map(|(s, m)| (s, m.to_bytes()))
    })?;
    let (states, feldman) = round(states, &justifications, |s, r| {
        s.round4(r).map(|(s, m)| (s, m.to_bytes()))
    })?;
    let (states, feldman_complaints) = round(states, &feldman, |s, r| {
        s.round5(r).map(|(s, m)| (s, m.to_bytes()))
    })?;
    let (_, reveals) = round(states, &feldman_complaints, |s, r| {
        s.round6(r).map(|(s, m)| (s, m.to_bytes()))
    })?;
    let mine = |sent: Sent| sent.into_iter().filter(|m| m.1 == ME).collect();
    Ok(Transcript([
        mine(commitments),
        mine(pairs),
        mine(complaints),
        mine(justifications),
        mine(feldman),
        mine(feldman_complaints),
        mine(reveals),
    ]))
}

/// Party [`ME`]'s run on `coins` and the messages of `transcript`.
fn live<G: PrimeOrderGroup>(
    params: DkgParams<G>,
    mut coins: PatternRng,
    transcript: &Transcript,
) -> Result<DkgOutput<G>, DkgError> {
    let [commitments, pairs, complaints, justifications, feldman, feldman_complaints, reveals] =
        &transcript.0;
    let (state, _) = DkgParty::start(params, ME, &mut coins)?;
    let (state, _) = state.round2(&inbox(commitments, ME), &inbox(pairs, ME))?;
    let (state, _) = state.round3(&inbox(complaints, ME))?;
    let (state, _) = state.round4(&inbox(justifications, ME))?;
    let (state, _) = state.round5(&inbox(feldman, ME))?;
    let (state, _) = state.round6(&inbox(feldman_complaints, ME))?;
    state.finish(&inbox(reveals, ME))
}

/// The coins of variant `index` (the same function shape for each, so
/// that [`record`] and [`live`] take them alike).
const STREAMS: [fn() -> PatternRng; 4] = [
    || PatternRng::variant(0),
    || PatternRng::variant(1),
    || PatternRng::variant(2),
    || PatternRng::variant(3),
];

/// Party 1 of a 2-of-3 key generation, its coins and the pairs it
/// receives from variant `variant`'s stream.
pub fn party<G: PrimeOrderGroup>(variant: usize) -> Result<(), String> {
    let params = params::<G>()?;
    let transcripts = STREAMS
        .iter()
        .map(|&stream| record::<G>(stream))
        .collect::<Result<Vec<_>, _>>()?;
    let transcript = transcripts[variant].clone();
    let stream = STREAMS[variant];
    let warm = record::<G>(PatternRng::warm_up)?;
    drop(live(params, coins(PatternRng::warm_up, ME), &warm));
    let output = traced((coins(stream, ME), &transcript), |(coins, t)| {
        live(params, coins, t)
    })
    .map_err(err)?;
    let all: Vec<PartyId> = (1..=PARTIES as PartyId).collect();
    if output.qualified() != all.as_slice() || !output.blame().is_empty() {
        return Err("an honest run blamed someone".into());
    }
    if !output.commitments().verify_share(output.share()) || output.share().id() != ME {
        return Err("the share fails the run's commitments".into());
    }
    Ok(())
}
