//! The DKG tests' network and checks (tests/dkg.rs, tests/dkg_reshare.rs):
//! every message of a run passes a tamper hook on its way; the outputs
//! are checked for agreement, as a sharing of one key, and against the
//! single-key OPRF.

use oblivex::group::PrimeOrderGroup;
use oblivex::message::BlindedElements;
use oblivex::oblivious::Kappa;
use oblivex::oprf::{KeyPair, OprfClient, OprfServer, Output, ThresholdOprfClient};
use oblivex::threshold::dkg::{
    Blame, DkgError, DkgOutput, DkgParams, DkgParty, Offence, Received, Round1Messages,
    Round1State, Round4State,
};
use oblivex::threshold::{evaluate_share, lagrange_at_zero, Commitments, KeyShare, PartyId};

use super::threshold::responses_of;
use rand_core::UnwrapErr;

pub fn rng() -> UnwrapErr<getrandom::SysRng> {
    UnwrapErr(getrandom::SysRng)
}

pub const SESSION: [u8; 32] = [0x5e; 32];

/// The message of each round, as the transport sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Commitments,
    Share,
    Complaints,
    Justifications,
    Feldman,
    FeldmanComplaints,
    Reveals,
}

/// What the network does to the message `from` sends to `to` in `step`:
/// deliver it as it is, change it, or drop it (`None`).
pub type Tamper<'a> = &'a dyn Fn(Step, PartyId, PartyId, &mut Option<Vec<u8>>);

pub fn honest(_: Step, _: PartyId, _: PartyId, _: &mut Option<Vec<u8>>) {}

/// Messages on the wire: sender, recipient, bytes.
pub type Outgoing = Vec<(PartyId, PartyId, Vec<u8>)>;

/// The copies of `outgoing` addressed to `to`, through `tamper`.
pub fn deliver(
    step: Step,
    to: PartyId,
    outgoing: &Outgoing,
    tamper: Tamper<'_>,
) -> Vec<(PartyId, Vec<u8>)> {
    outgoing
        .iter()
        .filter(|(_, recipient, _)| *recipient == to)
        .filter_map(|(from, _, bytes)| {
            let mut message = Some(bytes.clone());
            tamper(step, *from, to, &mut message);
            message.map(|m| (*from, m))
        })
        .collect()
}

pub fn received(messages: &[(PartyId, Vec<u8>)]) -> Vec<Received<'_>> {
    messages
        .iter()
        .map(|(from, bytes)| Received { from: *from, bytes })
        .collect()
}

/// A broadcast as one copy per recipient.
pub fn broadcast(recipients: &[PartyId], from: PartyId, bytes: &[u8]) -> Outgoing {
    recipients
        .iter()
        .map(|&to| (from, to, bytes.to_vec()))
        .collect()
}

/// Ids 1..=n.
pub fn all(n: usize) -> Vec<PartyId> {
    (1..=n as PartyId).collect()
}

/// Ids 1..=n but `me`.
pub fn others(n: usize, me: PartyId) -> Vec<PartyId> {
    (1..=n as PartyId).filter(|&id| id != me).collect()
}

/// Runs one round at every party: `$states` holds each party's state and
/// its message of the previous round (`(sender, bytes)`), which goes to
/// the parties `$recipients(sender)`; each state then takes its inbox.
macro_rules! round {
    ($states:expr, $step:expr, $recipients:expr, $tamper:expr, $method:ident) => {{
        let recipients = $recipients;
        let (states, messages): (Vec<_>, Vec<_>) = $states.into_iter().unzip();
        let outgoing: $crate::support::dkg::Outgoing = messages
            .iter()
            .flat_map(|(from, bytes): &(oblivex::threshold::PartyId, Vec<u8>)| {
                $crate::support::dkg::broadcast(&recipients(*from), *from, bytes)
            })
            .collect();
        states
            .into_iter()
            .enumerate()
            .map(|(index, state)| {
                let me = (index as oblivex::threshold::PartyId) + 1;
                let inbox = $crate::support::dkg::deliver($step, me, &outgoing, $tamper);
                let (next, message) = state
                    .$method(&$crate::support::dkg::received(&inbox))
                    .unwrap();
                (next, (me, message.to_bytes()))
            })
            .collect::<Vec<_>>()
    }};
}
#[allow(unused_imports)] // used by tests/dkg.rs only
pub(crate) use round;

/// Rounds 5, 6 and the end at receivers 1..=n (`states` in order), from
/// the dealers' Feldman commitments as sent (`feldman`); each receiver's
/// later broadcasts go to `peers(sender)`.
pub fn feldman_rounds<G: PrimeOrderGroup>(
    states: Vec<Round4State<G>>,
    feldman: &Outgoing,
    peers: &dyn Fn(PartyId) -> Vec<PartyId>,
    tamper: Tamper<'_>,
) -> Vec<Result<DkgOutput<G>, DkgError>> {
    let round5: Vec<_> = states
        .into_iter()
        .enumerate()
        .map(|(index, state)| {
            let me = index as PartyId + 1;
            let inbox = deliver(Step::Feldman, me, feldman, tamper);
            let (next, message) = state.round5(&received(&inbox)).unwrap();
            (next, (me, message.to_bytes()))
        })
        .collect();
    let round6 = round!(round5, Step::FeldmanComplaints, peers, tamper, round6);
    let (states, messages): (Vec<_>, Vec<_>) = round6.into_iter().unzip();
    let outgoing: Outgoing = messages
        .iter()
        .flat_map(|(from, bytes)| broadcast(&peers(*from), *from, bytes))
        .collect();
    states
        .into_iter()
        .enumerate()
        .map(|(index, state)| {
            let inbox = deliver(Step::Reveals, index as PartyId + 1, &outgoing, tamper);
            state.finish(&received(&inbox))
        })
        .collect()
}

/// A full key generation of t of n; every party's output.
pub fn run<G: PrimeOrderGroup>(
    t: usize,
    n: usize,
    tamper: Tamper<'_>,
) -> Vec<Result<DkgOutput<G>, DkgError>> {
    let params = DkgParams::<G>::new(t, n, SESSION).unwrap();
    let starts = (1..=n as PartyId)
        .map(|id| DkgParty::start(params, id, &mut rng()).unwrap())
        .collect();
    run_rounds(starts, tamper)
}

/// The rounds after every party's start (parties 1..=n in order).
pub fn run_rounds<G: PrimeOrderGroup>(
    starts: Vec<(Round1State<G>, Round1Messages<G>)>,
    tamper: Tamper<'_>,
) -> Vec<Result<DkgOutput<G>, DkgError>> {
    let n = starts.len();
    let peers = |from: PartyId| others(n, from);
    let mut states = Vec::new();
    let mut commitments = Outgoing::new();
    let mut shares = Outgoing::new();
    for (index, (state, messages)) in starts.into_iter().enumerate() {
        let id = index as PartyId + 1;
        states.push(state);
        commitments.extend(broadcast(&peers(id), id, &messages.commitments.to_bytes()));
        for pair in &messages.shares {
            shares.push((id, pair.recipient(), pair.to_bytes().to_vec()));
        }
    }
    let round2: Vec<_> = states
        .into_iter()
        .enumerate()
        .map(|(index, state)| {
            let me = index as PartyId + 1;
            let c = deliver(Step::Commitments, me, &commitments, tamper);
            let s = deliver(Step::Share, me, &shares, tamper);
            let (state, message) = state.round2(&received(&c), &received(&s)).unwrap();
            (state, (me, message.to_bytes()))
        })
        .collect();
    let round3 = round!(round2, Step::Complaints, peers, tamper, round3);
    let round4 = round!(round3, Step::Justifications, peers, tamper, round4);
    let (states, messages): (Vec<_>, Vec<_>) = round4.into_iter().unzip();
    let feldman: Outgoing = messages
        .iter()
        .flat_map(|(from, bytes)| broadcast(&peers(*from), *from, bytes))
        .collect();
    feldman_rounds(states, &feldman, &peers, tamper)
}

/// `Σ λ_j·x_j` over the given shares (tests only: nobody does this).
pub fn reconstruct<G: PrimeOrderGroup>(shares: &[&KeyShare<G>]) -> G::Scalar {
    let ids: Vec<PartyId> = shares.iter().map(|s| s.id()).collect();
    let weights = lagrange_at_zero::<G>(&ids).unwrap();
    shares
        .iter()
        .zip(&weights)
        .fold(G::scalar_from_u64(0), |sum, (share, weight)| {
            G::scalar_add(&sum, &G::scalar_mul(weight, share.secret()))
        })
}

/// The honest parties' outputs agree (QUAL, blame, exposed, commitments),
/// every share matches the commitments, and every run of t consecutive
/// honest shares reconstructs the public key. Returns the key.
pub fn check_agreement<G: PrimeOrderGroup>(
    outputs: &[Result<DkgOutput<G>, DkgError>],
    honest: &[PartyId],
) -> G::Scalar {
    let first = outputs[usize::from(honest[0]) - 1].as_ref().unwrap();
    let t = first.commitments().threshold();
    let mut shares = Vec::new();
    for &id in honest {
        let output = outputs[usize::from(id) - 1].as_ref().unwrap();
        assert_eq!(output.qualified(), first.qualified(), "party {id}");
        assert_eq!(output.blame(), first.blame(), "party {id}");
        assert_eq!(output.exposed(), first.exposed(), "party {id}");
        assert_eq!(output.disqualified(), first.disqualified(), "party {id}");
        assert_eq!(output.commitments(), first.commitments(), "party {id}");
        assert_eq!(output.share().id(), id);
        assert!(output.commitments().verify_share(output.share()));
        shares.push(output.share());
    }
    let key = reconstruct::<G>(&shares[..t]);
    assert_eq!(&G::mul_base(&key), first.public_key());
    for window in shares.windows(t) {
        let other = reconstruct::<G>(window);
        assert_eq!(G::mul_base(&other), G::mul_base(&key));
    }
    if t > 1 {
        // t − 1 shares give another value.
        let short = reconstruct::<G>(&shares[..t - 1]);
        assert_ne!(G::mul_base(&short), G::mul_base(&key));
    }
    key
}

/// Each server's answer to `request` with its share (`share_of`), as the
/// threshold clients receive it.
pub fn share_answers<'a, G: PrimeOrderGroup>(
    servers: &[PartyId],
    share_of: impl Fn(PartyId) -> &'a KeyShare<G>,
    request: &BlindedElements<G>,
) -> Vec<(PartyId, Vec<u8>)> {
    servers
        .iter()
        .map(|&id| {
            let answer = evaluate_share(share_of(id), None, request).unwrap();
            (id, answer.as_bytes().to_vec())
        })
        .collect()
}

/// The inputs every OPRF check evaluates.
pub fn oprf_inputs() -> Vec<Vec<u8>> {
    (0..5u8).map(|i| vec![i; 1 + usize::from(i)]).collect()
}

/// The threshold OPRF's outputs on [`oprf_inputs`] with the DKG's output
/// at `servers` (no cheater among them).
pub fn threshold_oprf<G: PrimeOrderGroup>(
    outputs: &[Result<DkgOutput<G>, DkgError>],
    servers: &[PartyId],
) -> Vec<Output> {
    let inputs = oprf_inputs();
    let inputs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let commitments = outputs[usize::from(servers[0]) - 1]
        .as_ref()
        .unwrap()
        .commitments()
        .clone();
    let batch = ThresholdOprfClient::new(commitments, Kappa::DEFAULT)
        .blind(&inputs, &mut rng())
        .unwrap();
    let answers = share_answers(
        servers,
        |id| outputs[usize::from(id) - 1].as_ref().unwrap().share(),
        batch.request(),
    );
    let responses = responses_of(&answers);
    let got = batch.finalize(&responses).unwrap();
    assert!(got.cheaters.is_empty());
    got.outputs
}

/// The threshold OPRF on the DKG's output gives the single-key OPRF's
/// outputs under the reconstructed key.
pub fn check_oprf<G: PrimeOrderGroup>(
    outputs: &[Result<DkgOutput<G>, DkgError>],
    servers: &[PartyId],
    key: &G::Scalar,
) {
    let inputs = oprf_inputs();
    let inputs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let server = OprfServer::<G>::new(KeyPair::from_secret(key.clone()));
    let single = OprfClient::<G>::new().blind(&inputs, &mut rng()).unwrap();
    let evaluated = server.evaluate(single.request());
    let expected = single.finalize(&evaluated).unwrap();
    assert_eq!(threshold_oprf(outputs, servers), expected);
}

/// The header's length for suite `G` in a key generation
/// (docs/PROTOCOLS.md §10); a refresh's has the old commitments' digest
/// more ([`refresh_header_len`]), a resharing's also the old t and n.
pub fn header_len<G: PrimeOrderGroup>() -> usize {
    3 + G::SUITE_ID.len() + 2 + 2 + 32 + 2
}

/// Bytes of the old commitments' digest in a refresh or resharing header.
pub const OLD_COMMITMENTS_DIGEST_LEN: usize = 32;

/// The header's length for suite `G` in a refresh.
pub fn refresh_header_len<G: PrimeOrderGroup>() -> usize {
    header_len::<G>() + OLD_COMMITMENTS_DIGEST_LEN
}

/// Commitments of a fresh t-of-n sharing of a random key, and its shares.
pub fn dealt<G: PrimeOrderGroup>(t: usize, n: usize) -> (Vec<KeyShare<G>>, Commitments<G>) {
    oblivex::threshold::deal::<G, _>(&G::random_scalar(&mut rng()), t, n, &mut rng()).unwrap()
}

pub fn scalar_bytes<G: PrimeOrderGroup>(s: &G::Scalar) -> Vec<u8> {
    oblivex::group::encode_scalar_to_vec::<G>(s)
}

pub fn random_scalar_bytes<G: PrimeOrderGroup>() -> Vec<u8> {
    scalar_bytes::<G>(&G::random_scalar(&mut rng()))
}

/// A random element's encoding.
pub fn random_element_bytes<G: PrimeOrderGroup>() -> Vec<u8> {
    oblivex::group::encode_to_vec::<G>(&G::mul_base(&G::random_scalar(&mut rng())))
}

/// Replaces the share `s` of a [`oblivex::threshold::dkg::SharePair`]
/// encoding whose header is `header` bytes long.
pub fn corrupt_share<G: PrimeOrderGroup>(message: &mut [u8], header: usize) {
    let at = header + 2;
    message[at..at + G::SCALAR_LEN].copy_from_slice(&random_scalar_bytes::<G>());
}

/// An empty list message (complaints or pairs) with `entries` appended.
pub fn with_entries(mut message: Vec<u8>, header: usize, count: u16, entries: &[u8]) -> Vec<u8> {
    message.truncate(header);
    message.extend_from_slice(&count.to_be_bytes());
    message.extend_from_slice(entries);
    message
}

pub fn blame(party: PartyId, offence: Offence) -> Blame {
    Blame { party, offence }
}
