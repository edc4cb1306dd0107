//! Threshold protocols (docs/PROTOCOLS.md §4–6) on every group: sharing and
//! Lagrange over every t-subset, the threshold OPRF / blind BLS / ElGamal
//! flows with honest servers (outputs equal the single-key protocol's),
//! and with cheating servers (each named; the batch still recovered with at
//! most m − t of them, a clean failure with more). Every test name starts
//! with `threshold_`.

mod support;

use oblivex::bls::{self, KeySet, PublicKey, SigningClient};
use oblivex::elgamal::{encapsulate, encrypt, DecryptionClient};
use oblivex::group::{encode_to_vec, Bls12381G1, Ffdhe2048, PrimeOrderGroup, Ristretto255, P256};
use oblivex::message::BlindedElements;
use oblivex::oblivious::Kappa;
use oblivex::oprf::{KeyPair, OprfClient, OprfServer, ThresholdOprfClient};
use oblivex::threshold::{
    deal, evaluate_share, lagrange_at_zero, Commitments, Failure, KeyShare, PartyId, Recovered,
    Response,
};
use oblivex::Error;
use rand_core::{Rng, UnwrapErr};
use support::threshold::responses_of;
use zeroize::Zeroizing;

fn rng() -> UnwrapErr<getrandom::SysRng> {
    UnwrapErr(getrandom::SysRng)
}

/// Every subset of `1..=m` with `size` elements.
fn subsets(m: PartyId, size: usize) -> Vec<Vec<PartyId>> {
    (0u32..1 << m)
        .filter(|mask| mask.count_ones() as usize == size)
        .map(|mask| (1..=m).filter(|id| mask & (1 << (id - 1)) != 0).collect())
        .collect()
}

/// How a server answers a request.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Behaviour {
    Honest,
    /// A key of its own instead of its share, on every element.
    OtherKey,
    /// Its share, with one element replaced by a random one.
    OneWrong,
    /// Its share, with two answers swapped.
    Swap,
    /// Another server's answer under its own id.
    Copies,
    /// Bytes that do not decode.
    Garbage,
    /// One element short.
    Truncated,
}

const CHEATS: [Behaviour; 6] = [
    Behaviour::OtherKey,
    Behaviour::OneWrong,
    Behaviour::Swap,
    Behaviour::Copies,
    Behaviour::Garbage,
    Behaviour::Truncated,
];

/// Server `share`'s answer to `request` under `behaviour`.
fn answer<G: PrimeOrderGroup>(
    share: &KeyShare<G>,
    other: &KeyShare<G>,
    quorum: Option<&[PartyId]>,
    request: &[u8],
    behaviour: Behaviour,
) -> Vec<u8> {
    let width = G::ELEMENT_LEN;
    let mut out = vec![0u8; request.len()];
    let request = BlindedElements::<G>::from_bytes(request).unwrap();
    let honest = |s: &KeyShare<G>, out: &mut [u8]| {
        out.copy_from_slice(evaluate_share(s, quorum, &request).unwrap().as_bytes())
    };
    match behaviour {
        Behaviour::Honest => honest(share, &mut out),
        Behaviour::OtherKey => {
            let fake = KeyShare::new(share.id(), G::random_scalar(&mut rng())).unwrap();
            honest(&fake, &mut out)
        }
        Behaviour::OneWrong => {
            honest(share, &mut out);
            let slot = (rng().next_u64() as usize) % request.len();
            let wrong = G::mul_base(&G::random_scalar(&mut rng()));
            G::encode(&wrong, &mut out[slot * width..(slot + 1) * width]);
        }
        Behaviour::Swap => {
            honest(share, &mut out);
            let (a, b) = out.split_at_mut(width);
            a.swap_with_slice(&mut b[..width]);
        }
        Behaviour::Copies => honest(other, &mut out),
        Behaviour::Garbage => out.fill(0xff),
        Behaviour::Truncated => {
            honest(share, &mut out);
            out.truncate(out.len() - width);
        }
    }
    out
}

/// The responses of `servers` (ids), server `id` behaving as `behaviour(id)`.
fn respond<G: PrimeOrderGroup>(
    shares: &[KeyShare<G>],
    servers: &[PartyId],
    quorum: Option<&[PartyId]>,
    request: &[u8],
    behaviour: impl Fn(PartyId) -> Behaviour,
) -> Vec<(PartyId, Vec<u8>)> {
    servers
        .iter()
        .map(|&id| {
            let share = &shares[usize::from(id) - 1];
            let other = &shares[usize::from(id) % shares.len()];
            (id, answer(share, other, quorum, request, behaviour(id)))
        })
        .collect()
}

// ---------------------------------------------------------------- sharing

fn sharing_on<G: PrimeOrderGroup>(m: usize) {
    let secret = G::random_scalar(&mut rng());
    for t in 1..=m {
        let (shares, commitments) = deal::<G, _>(&secret, t, m, &mut rng()).unwrap();
        assert_eq!(commitments.threshold(), t);
        assert_eq!(commitments.public_key(), &G::mul_base(&secret));
        for share in &shares {
            assert!(commitments.verify_share(share));
            assert_eq!(
                commitments.party_commitment(share.id()).unwrap(),
                G::mul_base(share.secret())
            );
            let bytes = share.to_bytes();
            let decoded = KeyShare::<G>::from_bytes(&bytes).unwrap();
            assert_eq!(decoded.id(), share.id());
            assert!(commitments.verify_share(&decoded));
        }
        // A share moved to another id, or altered, fails.
        let moved = KeyShare::<G>::new(
            shares[0].id() % m as PartyId + 1,
            shares[0].secret().clone(),
        )
        .unwrap();
        // (With t = 1 every share is the key itself.)
        assert!(t == 1 || !commitments.verify_share(&moved));
        let altered = KeyShare::<G>::new(
            shares[0].id(),
            G::scalar_add(shares[0].secret(), &G::scalar_from_u64(1)),
        )
        .unwrap();
        assert!(!commitments.verify_share(&altered));
        // Every subset of size t (or more) reconstructs the key; fewer do not.
        for size in t.saturating_sub(1).max(1)..=m {
            for ids in subsets(m as PartyId, size) {
                let weights = lagrange_at_zero::<G>(&ids).unwrap();
                let mut sum = G::scalar_from_u64(0);
                for (id, weight) in ids.iter().zip(&weights) {
                    let share = shares[usize::from(*id) - 1].secret();
                    sum = G::scalar_add(&sum, &G::scalar_mul(weight, share));
                }
                let recovered = G::mul_base(&sum) == G::mul_base(&secret);
                assert_eq!(recovered, size >= t, "t={t} ids={ids:?}");
            }
        }
        let encoded = commitments.to_bytes();
        assert_eq!(Commitments::<G>::from_bytes(&encoded).unwrap(), commitments);
    }
}

#[test]
fn threshold_sharing_every_subset_ristretto255() {
    sharing_on::<Ristretto255>(5);
}

#[test]
fn threshold_sharing_every_subset_p256() {
    sharing_on::<P256>(4);
}

#[test]
fn threshold_sharing_every_subset_bls12_381() {
    sharing_on::<Bls12381G1>(4);
}

#[test]
fn threshold_sharing_every_subset_ffdhe2048() {
    sharing_on::<Ffdhe2048>(3);
}

#[test]
fn threshold_sharing_rejects_bad_input() {
    type G = Ristretto255;
    let secret = G::random_scalar(&mut rng());
    for (t, m) in [(0, 3), (4, 3), (1, 0), (2, 1025)] {
        assert_eq!(
            deal::<G, _>(&secret, t, m, &mut rng()).unwrap_err(),
            Error::InvalidThreshold
        );
    }
    let zero = G::scalar_from_u64(0);
    assert_eq!(
        deal::<G, _>(&zero, 2, 3, &mut rng()).unwrap_err(),
        Error::InvalidScalar
    );
    for ids in [&[1, 2, 2][..], &[0, 1], &[1, 1025], &[]] {
        assert!(lagrange_at_zero::<G>(ids).is_err(), "{ids:?}");
    }
    let (shares, commitments) = deal::<G, _>(&secret, 2, 3, &mut rng()).unwrap();
    let bytes = shares[0].to_bytes();
    assert_eq!(
        KeyShare::<G>::from_bytes(&bytes[1..]).unwrap_err(),
        Error::BadLength
    );
    let mut id_zero = bytes.clone();
    id_zero[..2].fill(0);
    assert_eq!(
        KeyShare::<G>::from_bytes(&id_zero).unwrap_err(),
        Error::InvalidPartyId
    );
    let mut zero_scalar = bytes.clone();
    zero_scalar[2..].fill(0);
    assert_eq!(
        KeyShare::<G>::from_bytes(&zero_scalar).unwrap_err(),
        Error::InvalidScalar
    );
    let mut big_scalar = bytes.clone();
    big_scalar[2..].fill(0xff);
    assert_eq!(
        KeyShare::<G>::from_bytes(&big_scalar).unwrap_err(),
        Error::InvalidScalar
    );
    let encoded = commitments.to_bytes();
    assert_eq!(
        Commitments::<G>::from_bytes(&encoded[1..]).unwrap_err(),
        Error::BadLength
    );
    assert_eq!(
        Commitments::<G>::from_bytes(&[]).unwrap_err(),
        Error::BadLength
    );
    let mut identity = encoded.clone();
    identity[..32].fill(0);
    assert_eq!(
        Commitments::<G>::from_bytes(&identity).unwrap_err(),
        Error::InvalidElement
    );
    assert_eq!(
        commitments.party_commitment(0).unwrap_err(),
        Error::InvalidPartyId
    );
}

// ------------------------------------------------------------ threshold OPRF

/// The single-key OPRF's outputs for `inputs` under `secret`.
fn single_key_outputs<G: PrimeOrderGroup>(secret: &G::Scalar, inputs: &[&[u8]]) -> Vec<Vec<u8>> {
    let server = OprfServer::<G>::new(KeyPair::from_secret(secret.clone()));
    let batch = OprfClient::<G>::new().blind(inputs, &mut rng()).unwrap();
    let evaluated = server.evaluate(batch.request());
    plain(&batch.finalize(&evaluated).unwrap())
}

/// The threshold OPRF client of `commitments`, for any t servers or a named
/// quorum.
fn threshold_client<G: PrimeOrderGroup>(
    commitments: &Commitments<G>,
    quorum: Option<&[PartyId]>,
) -> Result<ThresholdOprfClient<G>, Error> {
    let client = ThresholdOprfClient::new(commitments.clone(), Kappa::DEFAULT);
    match quorum {
        Some(quorum) => client.with_quorum(quorum),
        None => Ok(client),
    }
}

/// Outputs as plain vectors, to compare (the library wipes its own).
fn plain(outputs: &[Zeroizing<Vec<u8>>]) -> Vec<Vec<u8>> {
    outputs.iter().map(|o| o.to_vec()).collect()
}

fn random_inputs(n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| {
            let mut x = vec![0u8; 1 + i % 40];
            rng().fill_bytes(&mut x);
            x
        })
        .collect()
}

/// One threshold OPRF batch: servers `servers` answer (as `behaviour`
/// says), the client finalizes.
fn oprf_round<G: PrimeOrderGroup>(
    shares: &[KeyShare<G>],
    commitments: &Commitments<G>,
    inputs: &[&[u8]],
    servers: &[PartyId],
    quorum: Option<&[PartyId]>,
    behaviour: impl Fn(PartyId) -> Behaviour,
) -> Result<Recovered<Zeroizing<Vec<u8>>>, Failure> {
    let batch = threshold_client(commitments, quorum)
        .unwrap()
        .blind(inputs, &mut rng())
        .unwrap();
    assert_eq!(batch.request().len(), inputs.len() + 1);
    let answers = respond(
        shares,
        servers,
        quorum,
        batch.request().as_bytes(),
        behaviour,
    );
    batch.finalize(&responses_of(&answers))
}

fn oprf_on<G: PrimeOrderGroup>(m: PartyId, t: usize, n: usize, cheat_trials: usize) {
    let secret = G::random_scalar(&mut rng());
    let (shares, commitments) = deal::<G, _>(&secret, t, usize::from(m), &mut rng()).unwrap();
    let inputs = random_inputs(n);
    let inputs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let expected = single_key_outputs::<G>(&secret, &inputs);
    // Honest: every set of t or more servers, and every named quorum.
    for size in t..=usize::from(m) {
        for servers in subsets(m, size) {
            let got = oprf_round(&shares, &commitments, &inputs, &servers, None, |_| {
                Behaviour::Honest
            })
            .unwrap();
            assert_eq!(plain(&got.outputs), expected, "servers {servers:?}");
            assert!(got.cheaters.is_empty());
        }
    }
    for quorum in subsets(m, t) {
        let got = oprf_round(
            &shares,
            &commitments,
            &inputs,
            &quorum,
            Some(&quorum),
            |_| Behaviour::Honest,
        )
        .unwrap();
        assert_eq!(plain(&got.outputs), expected, "quorum {quorum:?}");
    }
    // Fewer than t honest answers: no output.
    let too_few: Vec<PartyId> = (1..t as PartyId).collect();
    let failure = oprf_round(&shares, &commitments, &inputs, &too_few, None, |_| {
        Behaviour::Honest
    })
    .unwrap_err();
    assert_eq!(failure, Failure::from(Error::NotEnoughResponses));
    // Cheaters among all m servers.
    let all: Vec<PartyId> = (1..=m).collect();
    // With t = 1 every share is the key, so copying another is honest.
    let cheats: Vec<Behaviour> = CHEATS
        .into_iter()
        .filter(|&c| c != Behaviour::Copies || t > 1)
        .collect();
    let tolerated = usize::from(m) - t;
    for trial in (0..cheat_trials).filter(|_| tolerated > 0) {
        for (k, &cheat) in cheats.iter().enumerate() {
            let count = 1 + (trial + k) % tolerated;
            let mut cheaters: Vec<PartyId> = all.clone();
            // A random set of `count` cheaters.
            while cheaters.len() > count {
                let i = (rng().next_u64() as usize) % cheaters.len();
                cheaters.remove(i);
            }
            // "Copies" answers with the next id's share: wrong for its own.
            let behaviour = |id: PartyId| {
                if cheaters.contains(&id) {
                    cheat
                } else {
                    Behaviour::Honest
                }
            };
            let got = oprf_round(&shares, &commitments, &inputs, &all, None, behaviour)
                .unwrap_or_else(|f| panic!("{cheat:?} x{count}: {f}"));
            assert_eq!(plain(&got.outputs), expected, "{cheat:?}");
            assert_eq!(got.cheaters, cheaters, "{cheat:?}");
        }
    }
    // More than m − t cheaters: a clean failure naming them.
    let cheaters: Vec<PartyId> = (1..=(usize::from(m) - t + 1) as PartyId).collect();
    for &cheat in &cheats {
        let behaviour = |id: PartyId| {
            if cheaters.contains(&id) {
                cheat
            } else {
                Behaviour::Honest
            }
        };
        let failure =
            oprf_round(&shares, &commitments, &inputs, &all, None, behaviour).unwrap_err();
        assert_eq!(failure.error, Error::NotEnoughResponses, "{cheat:?}");
        assert_eq!(failure.cheaters, cheaters, "{cheat:?}");
    }
    // Found by the client_verify fuzz target: so many answers fail to
    // decode that fewer than t remain, and one of those is wrong. The
    // client cannot combine, but must still name that one too.
    if t >= 2 {
        let garbage: Vec<PartyId> = (2..=(usize::from(m) - t + 2) as PartyId).collect();
        let behaviour = |id: PartyId| match id {
            1 => Behaviour::OneWrong,
            id if garbage.contains(&id) => Behaviour::Garbage,
            _ => Behaviour::Honest,
        };
        let failure =
            oprf_round(&shares, &commitments, &inputs, &all, None, behaviour).unwrap_err();
        assert_eq!(failure.error, Error::NotEnoughResponses);
        let named: Vec<PartyId> = (1..=(usize::from(m) - t + 2) as PartyId).collect();
        assert_eq!(failure.cheaters, named);
    }
    // A named quorum with one cheater: named, and the batch fails.
    let quorum: Vec<PartyId> = (1..=t as PartyId).collect();
    for &cheat in &cheats {
        let behaviour = |id: PartyId| {
            if id == quorum[0] {
                cheat
            } else {
                Behaviour::Honest
            }
        };
        let failure = oprf_round(
            &shares,
            &commitments,
            &inputs,
            &quorum,
            Some(&quorum),
            behaviour,
        )
        .unwrap_err();
        assert_eq!(failure.error, Error::VerificationFailed, "{cheat:?}");
        assert_eq!(failure.cheaters, vec![quorum[0]], "{cheat:?}");
    }
}

#[test]
fn threshold_oprf_ristretto255() {
    oprf_on::<Ristretto255>(5, 3, 7, 4);
    oprf_on::<Ristretto255>(4, 1, 3, 1);
    oprf_on::<Ristretto255>(3, 3, 1, 1);
}

#[test]
fn threshold_oprf_p256() {
    oprf_on::<P256>(5, 3, 5, 1);
}

#[test]
fn threshold_oprf_bls12_381() {
    oprf_on::<Bls12381G1>(4, 2, 5, 1);
}

#[test]
fn threshold_oprf_ffdhe2048() {
    oprf_on::<Ffdhe2048>(3, 2, 3, 1);
}

#[test]
fn threshold_oprf_rejects_bad_requests() {
    type G = Ristretto255;
    let secret = G::random_scalar(&mut rng());
    let (shares, commitments) = deal::<G, _>(&secret, 2, 3, &mut rng()).unwrap();
    let inputs: [&[u8]; 2] = [b"a", b"b"];
    let quorum_error = |quorum: &[PartyId]| threshold_client(&commitments, Some(quorum)).err();
    assert_eq!(quorum_error(&[1]), Some(Error::InvalidPartyId));
    assert_eq!(quorum_error(&[1, 1]), Some(Error::InvalidPartyId));
    assert_eq!(quorum_error(&[0, 1]), Some(Error::InvalidPartyId));
    assert_eq!(quorum_error(&[1, 2, 3]), Some(Error::InvalidPartyId));
    // Responses under a repeated id, or from outside a named quorum.
    let batch = threshold_client(&commitments, None)
        .unwrap()
        .blind(&inputs, &mut rng())
        .unwrap();
    let request = batch.request().clone();
    let answers = respond(&shares, &[1, 1], None, request.as_bytes(), |_| {
        Behaviour::Honest
    });
    let failure = batch.finalize(&responses_of(&answers)).unwrap_err();
    assert_eq!(failure.error, Error::InvalidPartyId);
    let quorum = [1, 2];
    let batch = threshold_client(&commitments, Some(&quorum))
        .unwrap()
        .blind(&inputs, &mut rng())
        .unwrap();
    let answers = respond(
        &shares,
        &[1, 3],
        Some(&[1, 3]),
        batch.request().as_bytes(),
        |_| Behaviour::Honest,
    );
    assert_eq!(
        batch.finalize(&responses_of(&answers)).unwrap_err().error,
        Error::InvalidPartyId
    );
    // A server asked for a quorum it is not in refuses.
    assert_eq!(
        evaluate_share(&shares[2], Some(&[1, 2]), &request).err(),
        Some(Error::InvalidPartyId)
    );
}

/// Each answer checked on its own as it arrives, the batch unspent: every
/// cheat fails its check, honest answers pass (also weighted for a named
/// quorum), a bad id is the caller's error, and the first t that passed
/// finalize to the single key's outputs, after checks of every answer.
fn check_each_on<G: PrimeOrderGroup>() {
    let (t, m) = (3usize, 5 as PartyId);
    let secret = G::random_scalar(&mut rng());
    let (shares, commitments) = deal::<G, _>(&secret, t, usize::from(m), &mut rng()).unwrap();
    let inputs: [&[u8]; 2] = [b"first", b"second"];
    let expected = single_key_outputs::<G>(&secret, &inputs);
    let all: Vec<PartyId> = (1..=m).collect();
    let cheats: Vec<Behaviour> = CHEATS.into_iter().collect();
    for (k, &cheat) in cheats.iter().enumerate() {
        let cheater = 1 + (k as PartyId) % m;
        let batch = threshold_client(&commitments, None)
            .unwrap()
            .blind(&inputs, &mut rng())
            .unwrap();
        let behaviour = |id| {
            if id == cheater {
                cheat
            } else {
                Behaviour::Honest
            }
        };
        let answers = respond(&shares, &all, None, batch.request().as_bytes(), behaviour);
        let mut passed = Vec::new();
        for response in responses_of(&answers) {
            let passes = batch.check_response(&response).unwrap();
            assert_eq!(
                passes,
                response.party != cheater,
                "{cheat:?} from {cheater}"
            );
            if passes && passed.len() < t {
                passed.push(response);
            }
        }
        let stranger = Response {
            party: 0,
            elements: &answers[0].1,
        };
        assert_eq!(batch.check_response(&stranger), Err(Error::InvalidPartyId));
        let got = batch.finalize(&passed).unwrap();
        assert_eq!(plain(&got.outputs), expected, "{cheat:?}");
        assert!(got.cheaters.is_empty());
    }
    // A named quorum: its servers' weighted answers pass, a cheat fails, a
    // server outside it is the caller's error.
    let quorum: Vec<PartyId> = vec![2, 4, 5];
    let batch = threshold_client(&commitments, Some(&quorum))
        .unwrap()
        .blind(&inputs, &mut rng())
        .unwrap();
    let behaviour = |id| {
        if id == 4 {
            Behaviour::OneWrong
        } else {
            Behaviour::Honest
        }
    };
    let answers = respond(
        &shares,
        &quorum,
        Some(&quorum),
        batch.request().as_bytes(),
        behaviour,
    );
    let verdicts: Vec<bool> = responses_of(&answers)
        .iter()
        .map(|r| batch.check_response(r).unwrap())
        .collect();
    assert_eq!(verdicts, [true, false, true]);
    let outside = Response {
        party: 1,
        elements: &answers[0].1,
    };
    assert_eq!(batch.check_response(&outside), Err(Error::InvalidPartyId));
}

#[test]
fn threshold_check_each_answer_ristretto255() {
    check_each_on::<Ristretto255>();
}

#[test]
fn threshold_check_each_answer_p256() {
    check_each_on::<P256>();
}

#[test]
fn threshold_check_each_answer_bls12_381() {
    check_each_on::<Bls12381G1>();
}

#[test]
fn threshold_check_each_answer_ffdhe2048() {
    check_each_on::<Ffdhe2048>();
}

// -------------------------------------------------------- threshold blind BLS

/// A key set for a known secret (so the unshared signature can be made).
fn bls_setup(t: usize, m: usize) -> (Vec<u8>, Vec<KeyShare<Bls12381G1>>, KeySet) {
    let secret = Bls12381G1::random_scalar(&mut rng());
    let (shares, commitments) = deal::<Bls12381G1, _>(&secret, t, m, &mut rng()).unwrap();
    let signer_keys = shares
        .iter()
        .map(|s| PublicKey::from_secret(s.secret()))
        .collect();
    let key_set = KeySet::new(PublicKey::from_secret(&secret), signer_keys, commitments).unwrap();
    let secret_bytes = oblivex::group::encode_scalar_to_vec::<Bls12381G1>(&secret);
    (secret_bytes, shares, key_set)
}

fn bls_round(
    shares: &[KeyShare<Bls12381G1>],
    key_set: &KeySet,
    messages: &[&[u8]],
    servers: &[PartyId],
    quorum: Option<&[PartyId]>,
    behaviour: impl Fn(PartyId) -> Behaviour,
) -> Result<Recovered<Vec<u8>>, Failure> {
    let mut client = SigningClient::new(key_set.clone(), Kappa::DEFAULT);
    if let Some(quorum) = quorum {
        client = client.with_quorum(quorum).unwrap();
    }
    let batch = client.blind(messages, &mut rng()).unwrap();
    let answers = respond(
        shares,
        servers,
        quorum,
        batch.request().as_bytes(),
        behaviour,
    );
    batch.finalize(&responses_of(&answers))
}

#[test]
fn threshold_bls_signatures_verify_with_blst_min_sig() {
    let (t, m) = (3, 5);
    let (secret, shares, key_set) = bls_setup(t, m);
    let unshared = blst::min_sig::SecretKey::from_bytes(&secret).unwrap();
    let blst_pk = blst::min_sig::PublicKey::from_bytes(&key_set.public_key().to_bytes()).unwrap();
    assert_eq!(blst_pk.to_bytes(), unshared.sk_to_pk().to_bytes());
    let messages = random_inputs(6);
    let messages: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let expected: Vec<Vec<u8>> = messages
        .iter()
        .map(|m| {
            unshared
                .sign(m, bls::SIGNATURE_DST, &[])
                .to_bytes()
                .to_vec()
        })
        .collect();
    let mut sets = subsets(m as PartyId, t);
    sets.extend(subsets(m as PartyId, m));
    for servers in &sets {
        for quorum in [None, Some(servers.as_slice())]
            .into_iter()
            .take(1 + (servers.len() == t) as usize)
        {
            let got = bls_round(&shares, &key_set, &messages, servers, quorum, |_| {
                Behaviour::Honest
            })
            .unwrap();
            assert_eq!(got.outputs, expected, "{servers:?} quorum {quorum:?}");
            for (message, signature) in messages.iter().zip(&got.outputs) {
                let signature = blst::min_sig::Signature::from_bytes(signature).unwrap();
                assert_eq!(
                    signature.verify(true, message, bls::SIGNATURE_DST, &[], &blst_pk, true),
                    blst::BLST_ERROR::BLST_SUCCESS
                );
                assert!(bls::verify(
                    key_set.public_key(),
                    message,
                    &signature.to_bytes()
                ));
            }
            assert!(!bls::verify(
                key_set.public_key(),
                b"another message",
                &got.outputs[0]
            ));
        }
    }
}

#[test]
fn threshold_bls_cheating_signers_are_named() {
    let (t, m) = (3, 5);
    let (secret, shares, key_set) = bls_setup(t, m);
    let unshared = blst::min_sig::SecretKey::from_bytes(&secret).unwrap();
    let messages: [&[u8]; 3] = [b"one", b"two", b"three"];
    let expected: Vec<Vec<u8>> = messages
        .iter()
        .map(|m| {
            unshared
                .sign(m, bls::SIGNATURE_DST, &[])
                .to_bytes()
                .to_vec()
        })
        .collect();
    let all: Vec<PartyId> = (1..=m as PartyId).collect();
    for &cheat in &CHEATS {
        let two = |id: PartyId| {
            if id == 2 || id == 5 {
                cheat
            } else {
                Behaviour::Honest
            }
        };
        let got = bls_round(&shares, &key_set, &messages, &all, None, two).unwrap();
        assert_eq!(got.outputs, expected, "{cheat:?}");
        assert_eq!(got.cheaters, vec![2, 5], "{cheat:?}");
        let three = |id: PartyId| if id <= 3 { cheat } else { Behaviour::Honest };
        let failure = bls_round(&shares, &key_set, &messages, &all, None, three).unwrap_err();
        assert_eq!(failure.error, Error::NotEnoughResponses);
        assert_eq!(failure.cheaters, vec![1, 2, 3]);
    }
}

#[test]
fn threshold_bls_key_set_is_checked() {
    let (_, shares, key_set) = bls_setup(2, 3);
    let bytes = key_set.to_bytes();
    assert_eq!(bytes.len(), KeySet::encoded_len(2, 3));
    assert_eq!(KeySet::from_bytes(&bytes).unwrap(), key_set);
    assert_eq!(
        KeySet::from_bytes(&bytes[1..]).unwrap_err(),
        Error::BadLength
    );
    // Signer 2's G2 key replaced by signer 3's: the pairing check fails.
    let mut swapped = bytes.clone();
    let key = |j: usize| 4 + j * PublicKey::ENCODED_LEN..4 + (j + 1) * PublicKey::ENCODED_LEN;
    let third = swapped[key(3)].to_vec();
    swapped[key(2)].copy_from_slice(&third);
    assert_eq!(
        KeySet::from_bytes(&swapped).unwrap_err(),
        Error::VerificationFailed
    );
    // A public key that is not the shared key's.
    let other = PublicKey::from_secret(shares[0].secret());
    let signer_keys = shares
        .iter()
        .map(|s| PublicKey::from_secret(s.secret()))
        .collect();
    assert_eq!(
        KeySet::new(other, signer_keys, key_set.commitments().clone()).unwrap_err(),
        Error::VerificationFailed
    );
    // t > m, and an invalid G2 encoding.
    let mut header = bytes.clone();
    header[1] = 4;
    assert_eq!(
        KeySet::from_bytes(&header).unwrap_err(),
        Error::InvalidThreshold
    );
    let mut invalid = bytes.clone();
    invalid[key(0)].fill(0xff);
    assert_eq!(
        KeySet::from_bytes(&invalid).unwrap_err(),
        Error::InvalidElement
    );
    // The dealer's own key set passes.
    let secret = Bls12381G1::random_scalar(&mut rng());
    let (shares, dealt) = bls::deal(&secret, 3, 5, &mut rng()).unwrap();
    assert!(shares.iter().all(|s| dealt.commitments().verify_share(s)));
}

// ----------------------------------------------------- threshold ElGamal

fn elgamal_on<G: PrimeOrderGroup>(m: PartyId, t: usize, n: usize) {
    let secret = G::random_scalar(&mut rng());
    let (shares, commitments) = deal::<G, _>(&secret, t, usize::from(m), &mut rng()).unwrap();
    let public_key = commitments.public_key().clone();
    let messages: Vec<G::Element> = (0..n)
        .map(|_| G::mul_base(&G::random_scalar(&mut rng())))
        .collect();
    let ciphertexts: Vec<_> = messages
        .iter()
        .map(|msg| encrypt::<G, _>(&public_key, msg, &mut rng()).unwrap())
        .collect();
    let expected: Vec<Vec<u8>> = messages.iter().map(encode_to_vec::<G>).collect();
    let (encapsulations, secrets): (Vec<G::Element>, Vec<Vec<u8>>) = (0..n)
        .map(|_| {
            let (c1, s) = encapsulate::<G, _>(&public_key, &mut rng()).unwrap();
            (c1, s.to_vec())
        })
        .unzip();
    let all: Vec<PartyId> = (1..=m).collect();
    let cheaters: Vec<PartyId> = (1..=(usize::from(m) - t) as PartyId).collect();
    let too_many: Vec<PartyId> = (1..=(usize::from(m) - t + 1) as PartyId).collect();
    for blinded in [false, true] {
        for (kem, expected) in [(false, &expected), (true, &secrets)] {
            let batch = |quorum: Option<&[PartyId]>| {
                let mut client =
                    DecryptionClient::new(commitments.clone(), blinded, Kappa::DEFAULT);
                if let Some(quorum) = quorum {
                    client = client.with_quorum(quorum).unwrap();
                }
                if kem {
                    client.blind_encapsulations(&encapsulations, &mut rng())
                } else {
                    client.blind_ciphertexts(&ciphertexts, &mut rng())
                }
                .unwrap()
            };
            let run = |servers: &[PartyId], quorum: Option<&[PartyId]>, bad: &[PartyId]| {
                let b = batch(quorum);
                assert_eq!(b.request().len(), n + 1);
                if !blinded {
                    // Unblinded requests show the ciphertexts' c1 (in order,
                    // with the balancer somewhere).
                    let first = encode_to_vec::<G>(if kem {
                        &encapsulations[0]
                    } else {
                        &ciphertexts[0].c1
                    });
                    let sent = b.request().as_bytes();
                    assert!(sent.chunks(G::ELEMENT_LEN).any(|e| e == first));
                }
                let answers = respond(&shares, servers, quorum, b.request().as_bytes(), |id| {
                    if bad.contains(&id) {
                        Behaviour::OneWrong
                    } else {
                        Behaviour::Honest
                    }
                });
                b.finalize(&responses_of(&answers))
            };
            for servers in subsets(m, t) {
                let got = run(&servers, None, &[]).unwrap();
                assert_eq!(
                    &plain(&got.outputs),
                    expected,
                    "blinded={blinded} kem={kem}"
                );
                let got = run(&servers, Some(&servers), &[]).unwrap();
                assert_eq!(&plain(&got.outputs), expected);
            }
            let got = run(&all, None, &cheaters).unwrap();
            assert_eq!(&plain(&got.outputs), expected);
            assert_eq!(got.cheaters, cheaters);
            let failure = run(&all, None, &too_many).unwrap_err();
            assert_eq!(failure.error, Error::NotEnoughResponses);
            assert_eq!(failure.cheaters, too_many);
        }
    }
    // Ciphertexts survive their encoding.
    let bytes = ciphertexts[0].to_bytes();
    let decoded = oblivex::elgamal::Ciphertext::<G>::from_bytes(&bytes).unwrap();
    assert_eq!(decoded.c1, ciphertexts[0].c1);
    assert_eq!(decoded.c2, ciphertexts[0].c2);
    assert!(encrypt::<G, _>(&public_key, &G::identity(), &mut rng()).is_err());
}

#[test]
fn threshold_elgamal_ristretto255() {
    elgamal_on::<Ristretto255>(5, 3, 6);
}

#[test]
fn threshold_elgamal_p256() {
    elgamal_on::<P256>(4, 2, 3);
}

#[test]
fn threshold_elgamal_bls12_381() {
    elgamal_on::<Bls12381G1>(3, 2, 3);
}

#[test]
fn threshold_elgamal_ffdhe2048() {
    elgamal_on::<Ffdhe2048>(3, 2, 2);
}

// ------------------------------------------------ what the design promises

/// A server cannot tell the balancer from a real input, so it must count
/// every element it evaluates: a client that fills the balancer's slot with
/// a second real message gets two valid signatures from a request the size
/// of a one-message batch.
#[test]
fn threshold_bls_signers_sign_every_element_they_are_sent() {
    type G = Bls12381G1;
    let (t, m) = (2, 3);
    let (_, shares, key_set) = bls_setup(t, m);
    let messages: [&[u8]; 2] = [
        b"the message asked for",
        b"one more, in the balancer's slot",
    ];
    let honest = SigningClient::new(key_set.clone(), Kappa::DEFAULT)
        .blind(&messages[..1], &mut rng())
        .unwrap();
    // The client's own request: both elements real blinded messages.
    let blinds: Vec<_> = messages
        .iter()
        .map(|_| G::random_scalar(&mut rng()))
        .collect();
    let blinded: Vec<_> = messages
        .iter()
        .zip(&blinds)
        .map(|(m, r)| G::mul(&G::hash_to_group(&[m], bls::SIGNATURE_DST), r))
        .collect();
    let mut request = vec![0u8; blinded.len() * G::ELEMENT_LEN];
    G::encode_batch(&blinded, &mut request);
    assert_eq!(request.len(), honest.request().as_bytes().len());
    let request = BlindedElements::<G>::from_bytes(&request).unwrap();
    // Any t signers answer it as they answer every request.
    let ids: Vec<PartyId> = (1..=t as PartyId).collect();
    let answers: Vec<Vec<_>> = ids
        .iter()
        .map(|&id| {
            let answer = evaluate_share(&shares[usize::from(id) - 1], None, &request).unwrap();
            answer.elements().to_vec()
        })
        .collect();
    let weights = lagrange_at_zero::<G>(&ids).unwrap();
    for (i, (message, blind)) in messages.iter().zip(&blinds).enumerate() {
        let shares_of_i: Vec<_> = answers.iter().map(|a| a[i]).collect();
        let combined = G::msm_vartime(&weights, &shares_of_i);
        let signature = G::mul(&combined, &G::scalar_invert(blind));
        let signature = encode_to_vec::<G>(&signature);
        assert!(
            bls::verify(key_set.public_key(), message, &signature),
            "message {i} got a valid signature"
        );
    }
}

/// Blame, exactly: when the combined check passes, two servers whose wrong
/// answers cancel in the Lagrange combination change nothing (the outputs
/// are right) and are not named.
#[test]
fn threshold_cancelling_errors_change_nothing_and_go_unnamed() {
    type G = Ristretto255;
    let secret = G::random_scalar(&mut rng());
    let (shares, commitments) = deal::<G, _>(&secret, 2, 3, &mut rng()).unwrap();
    let inputs: [&[u8]; 3] = [b"one", b"two", b"three"];
    let expected = single_key_outputs::<G>(&secret, &inputs);
    let batch = threshold_client(&commitments, None)
        .unwrap()
        .blind(&inputs, &mut rng())
        .unwrap();
    let ids: [PartyId; 2] = [1, 2];
    let weights = lagrange_at_zero::<G>(&ids).unwrap();
    // Server 1 adds E to its first answer, server 2 subtracts (λ1/λ2)·E.
    let error = G::mul_base(&G::random_scalar(&mut rng()));
    let ratio = G::scalar_mul(&weights[0], &G::scalar_invert(&weights[1]));
    let offsets = [error, G::neg(&G::mul(&error, &ratio))];
    let answers: Vec<(PartyId, Vec<u8>)> = ids
        .iter()
        .zip(&offsets)
        .map(|(&id, offset)| {
            let answer = evaluate_share(&shares[usize::from(id) - 1], None, batch.request());
            let mut out = answer.unwrap().to_bytes();
            let first = &mut out[..G::ELEMENT_LEN];
            let wrong = G::add(&G::decode(first).unwrap(), offset);
            G::encode(&wrong, first);
            (id, out)
        })
        .collect();
    let recovered = batch.finalize(&responses_of(&answers)).unwrap();
    assert_eq!(plain(&recovered.outputs), expected);
    assert!(recovered.cheaters.is_empty());
}

/// A ciphertext that decrypts to the identity fails the batch, and the
/// failure still names the server caught cheating on the way.
#[test]
fn threshold_elgamal_identity_plaintext_still_names_cheaters() {
    type G = P256;
    let secret = G::random_scalar(&mut rng());
    let (shares, commitments) = deal::<G, _>(&secret, 2, 3, &mut rng()).unwrap();
    let mut ciphertexts: Vec<_> = (0..3)
        .map(|_| {
            let message = G::mul_base(&G::random_scalar(&mut rng()));
            encrypt::<G, _>(commitments.public_key(), &message, &mut rng()).unwrap()
        })
        .collect();
    // (c1, sk·c1): the plaintext is the identity.
    ciphertexts[1].c2 = G::mul(&ciphertexts[1].c1, &secret);
    let batch = DecryptionClient::new(commitments.clone(), true, Kappa::DEFAULT)
        .blind_ciphertexts(&ciphertexts, &mut rng())
        .unwrap();
    let all: Vec<PartyId> = vec![1, 2, 3];
    let answers = respond(&shares, &all, None, batch.request().as_bytes(), |id| {
        if id == 2 {
            Behaviour::OneWrong
        } else {
            Behaviour::Honest
        }
    });
    let failure = batch.finalize(&responses_of(&answers)).unwrap_err();
    assert_eq!(failure.error, Error::InvalidInput);
    assert_eq!(failure.cheaters, vec![2]);
}
