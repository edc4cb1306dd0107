//! `oblivex speed dkg`: the distributed key generation and its refresh
//! (docs/PROTOCOLS.md §10) on ristretto255, t of n = 3 of 5 and 5 of 9, an
//! honest run: each party's time in each round and the bytes it sends.
//!
//! Every party runs in this process, one call after another. A round's
//! time is one party's call for it (decoding and checking the round's
//! messages, then producing and encoding its own), the median over the
//! parties and the runs sharing the time budget. A broadcast counts once
//! per sender (the broadcast channel delivers it to all); a private share
//! pair counts once per recipient.

use std::time::{Duration, Instant};

use oblivex::group::PrimeOrderGroup;
use oblivex::threshold::dkg::{DkgOutput, DkgParams, DkgParty, Received};
use oblivex::threshold::PartyId;

use crate::timing::median;

type G = oblivex::group::Ristretto255;

/// Threshold and party count of each run.
const SIZES: [(usize, usize); 2] = [(3, 5), (5, 9)];

/// The calls of a party, one per round: round 1 deals, rounds 2 to 6
/// process the previous round and send, the end processes round 6.
const CALLS: usize = 7;

/// What one party does in one run: seconds per call, bytes sent per call
/// (broadcast), bytes sent privately (round 1's pairs).
struct Party {
    seconds: [f64; CALLS],
    broadcast: [usize; CALLS],
    private: usize,
}

/// Runs `f`, timed.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let value = f();
    (value, start.elapsed().as_secs_f64())
}

/// The messages of one round from every party but `me`.
fn inbox(me: PartyId, messages: &[(PartyId, Vec<u8>)]) -> Vec<Received<'_>> {
    messages
        .iter()
        .filter(|(from, _)| *from != me)
        .map(|(from, bytes)| Received { from: *from, bytes })
        .collect()
}

/// Runs `$method` at every party on the others' previous messages, timed
/// as call `$call`; returns the next states and messages.
macro_rules! round {
    ($states:expr, $messages:expr, $parties:expr, $call:expr, $method:ident) => {{
        let mut states = Vec::new();
        let mut messages = Vec::new();
        for (index, state) in $states.into_iter().enumerate() {
            let me = index as PartyId + 1;
            let received = inbox(me, &$messages);
            let ((state, bytes), seconds) = timed(|| {
                let (state, message) = state.$method(&received).expect("an honest run");
                (state, message.to_bytes())
            });
            $parties[index].seconds[$call] = seconds;
            $parties[index].broadcast[$call] = bytes.len();
            states.push(state);
            messages.push((me, bytes));
        }
        (states, messages)
    }};
}

/// One honest run of t of n, a key generation or (with `previous`, a key
/// generation's outputs) a refresh: every party's figures and outputs.
fn run(t: usize, n: usize, previous: Option<Vec<DkgOutput<G>>>) -> (Vec<Party>, Vec<DkgOutput<G>>) {
    let mut rng = oblivex::rng::os_rng().expect("OS randomness");
    // A benchmark's runs are independent: one session id serves them all.
    let session = [u8::from(previous.is_some()); 32];
    let mut parties: Vec<Party> = (0..n)
        .map(|_| Party {
            seconds: [0.0; CALLS],
            broadcast: [0; CALLS],
            private: 0,
        })
        .collect();
    let mut states = Vec::new();
    let mut commitments = Vec::new();
    let mut pairs = Vec::new();
    let starts: Vec<_> = match previous {
        Some(outputs) => outputs.into_iter().map(Some).collect(),
        None => (0..n).map(|_| None).collect(),
    };
    for (index, previous) in starts.into_iter().enumerate() {
        let me = index as PartyId + 1;
        let ((state, messages), seconds) = timed(|| {
            let (state, messages) = match previous {
                Some(output) => {
                    let (share, commitments) = output.into_parts();
                    let params = DkgParams::refresh(&commitments, n, session).expect("valid sizes");
                    DkgParty::start_refresh(params, share, &commitments, &mut rng)
                }
                None => {
                    let params = DkgParams::new(t, n, session).expect("valid sizes");
                    DkgParty::start(params, me, &mut rng)
                }
            }
            .expect("an honest party");
            let shares: Vec<_> = messages
                .shares
                .iter()
                .map(|pair| (pair.recipient(), pair.to_bytes()))
                .collect();
            (state, (messages.commitments.to_bytes(), shares))
        });
        let (broadcast, shares) = messages;
        parties[index].seconds[0] = seconds;
        parties[index].broadcast[0] = broadcast.len();
        parties[index].private = shares.iter().map(|(_, bytes)| bytes.len()).sum();
        states.push(state);
        commitments.push((me, broadcast));
        pairs.extend(shares.into_iter().map(|(to, bytes)| (me, to, bytes)));
    }
    let mut next = Vec::new();
    let mut complaints = Vec::new();
    for (index, state) in states.into_iter().enumerate() {
        let me = index as PartyId + 1;
        let received = inbox(me, &commitments);
        let mine: Vec<Received<'_>> = pairs
            .iter()
            .filter(|(_, to, _)| *to == me)
            .map(|(from, _, bytes)| Received { from: *from, bytes })
            .collect();
        let ((state, bytes), seconds) = timed(|| {
            let (state, message) = state.round2(&received, &mine).expect("an honest run");
            (state, message.to_bytes())
        });
        parties[index].seconds[1] = seconds;
        parties[index].broadcast[1] = bytes.len();
        next.push(state);
        complaints.push((me, bytes));
    }
    let (states, messages) = round!(next, complaints, parties, 2, round3);
    let (states, messages) = round!(states, messages, parties, 3, round4);
    let (states, messages) = round!(states, messages, parties, 4, round5);
    let (states, messages) = round!(states, messages, parties, 5, round6);
    let mut outputs = Vec::new();
    for (index, state) in states.into_iter().enumerate() {
        let me = index as PartyId + 1;
        let received = inbox(me, &messages);
        let (output, seconds) = timed(|| state.finish(&received).expect("an honest run"));
        parties[index].seconds[6] = seconds;
        outputs.push(output);
    }
    (parties, outputs)
}

/// One row: the medians per call over every party of every run, and the
/// bytes each party sends (the same at every party of an honest run).
fn report(purpose: &str, t: usize, n: usize, runs: &[Vec<Party>], json: bool) {
    let seconds: Vec<f64> = (0..CALLS)
        .map(|call| {
            median(
                runs.iter()
                    .flatten()
                    .map(|party| party.seconds[call])
                    .collect(),
            )
        })
        .collect();
    let party = &runs[0][0];
    let broadcast: usize = party.broadcast.iter().sum();
    let us: Vec<String> = seconds.iter().map(|s| format!("{:.0}", s * 1e6)).collect();
    let total_us = seconds.iter().sum::<f64>() * 1e6;
    if json {
        println!(
            "{{\"protocol\":\"dkg\",\"purpose\":\"{purpose}\",\"suite\":\"{}\",\"t\":{t},\"n\":{n},\"round_us\":[{}],\"total_us\":{total_us:.0},\"broadcast_bytes\":[{}],\"private_bytes\":{}}}",
            <G as PrimeOrderGroup>::SUITE_ID,
            us.join(","),
            party
                .broadcast
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(","),
            party.private
        );
    } else {
        let cells: String = us.iter().map(|u| format!(" {u:>6}")).collect();
        println!(
            "{purpose:>8} {t:>2} {n:>2} |{cells} | {total_us:>7.0} | {broadcast:>6} {:>7} | {:>6} {:>6}",
            party.private,
            party.broadcast[0],
            party.broadcast[1..].iter().sum::<usize>(),
        );
    }
}

pub fn speed(seconds: f64, json: bool) {
    if !json {
        println!("\nDistributed key generation (ristretto255, honest run): one party's µs per round and bytes sent");
        println!(
            "{:>8} {:>2} {:>2} | {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} | {:>7} | {:>6} {:>7} | {:>6} {:>6}",
            "", "t", "n", "1", "2", "3", "4", "5", "6", "end", "total", "bcast", "private", "r1", "r2-6"
        );
    }
    for (t, n) in SIZES {
        let budget = Duration::from_secs_f64(seconds);
        let start = Instant::now();
        let (mut keygen, mut refresh) = (Vec::new(), Vec::new());
        while keygen.len() < 3 || (start.elapsed() < budget && keygen.len() < 100) {
            let (parties, outputs) = run(t, n, None);
            keygen.push(parties);
            refresh.push(run(t, n, Some(outputs)).0);
        }
        report("keygen", t, n, &keygen, json);
        report("refresh", t, n, &refresh, json);
    }
    if !json {
        println!(
            "1: dealing (commitments and n − 1 share pairs); 2 to 6: processing the previous round\n\
             and sending; end: processing round 6 and combining. bcast: the party's broadcasts,\n\
             each counted once (r1: its Pedersen commitments; r2-6: its complaints,\n\
             justifications, Feldman commitments, Feldman complaints and reveals, the lists empty\n\
             when all are honest); private: its n − 1 share pairs"
        );
    }
}
