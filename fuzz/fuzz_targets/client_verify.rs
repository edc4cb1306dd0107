//! The clients' checks against arbitrary server answers: the checked OPRF
//! (both checks), the threshold OPRF and threshold ElGamal decryption
//! (blinded or not; 2 of 3 servers) on the three curve groups, and
//! threshold blind BLS signing (2 of 3 signers) (FFDHE runs the same
//! generic checks; its 8-lane batches
//! make one run take seconds under coverage instrumentation, so its
//! cheating servers are left to `tests/cheating.rs` and `tests/threshold.rs`).
//! The fuzzer edits honest answers (flipped bytes, a valid element raised
//! to a wrong key, swapped or repeated elements, truncation, extension,
//! a missing server). Whatever it does, the client must not panic, must
//! return the honest outputs whenever it accepts, must accept only answers
//! equal to the honest ones (a wrong answer passes with probability
//! 2^-64 at κ = 64), and in the threshold cases must name exactly the
//! servers whose answers were changed. On ristretto255 with the IFMA
//! backend the checked client hashes, blinds, checks and unblinds on the
//! 8-lane engine (partial vectors: 1 to 4 inputs), so its accept and
//! reject decisions are held to the same rules.

#![no_main]

use std::any::TypeId;

use libfuzzer_sys::fuzz_target;
use oblivex::bls;
use oblivex::elgamal::{encrypt, Ciphertext, DecryptionClient};
use oblivex::group::{Bls12381G1, PrimeOrderGroup, Ristretto255, P256};
use oblivex::message::{BlindedElements, EvaluatedElements};
use oblivex::oblivious::{Check, Kappa};
use oblivex::oprf::{CheckedOprfClient, KeyPair, ThresholdOprfClient};
use oblivex::threshold::{
    deal, evaluate_share, Commitments, Failure, KeyShare, Recovered, Response,
};
use oblivex::Error;
use oblivex_fuzz::{cached, Cursor, FuzzRng};

const SERVERS: usize = 3;
const THRESHOLD: usize = 2;

fuzz_target!(|data: &[u8]| {
    let mut input = Cursor::new(data);
    let selector = input.byte();
    let count = 1 + usize::from(input.byte() % 4);
    let names: Vec<Vec<u8>> = (0..count)
        .map(|i| format!("input {i}").into_bytes())
        .collect();
    let inputs: Vec<&[u8]> = names.iter().map(Vec::as_slice).collect();
    let flow = selector / 4;
    match selector % 4 {
        0 => run::<Ristretto255>(flow, &inputs, &mut input),
        1 => run::<P256>(flow, &inputs, &mut input),
        2 => run::<Bls12381G1>(flow, &inputs, &mut input),
        // Blind BLS signs on BLS12-381 G1 only.
        _ => threshold_bls(&inputs, &mut input),
    }
});

fn run<G: PrimeOrderGroup>(flow: u8, inputs: &[&[u8]], edits: &mut Cursor<'_>) {
    match flow % 5 {
        0 => checked::<G>(inputs, Check::CommittedKey, edits),
        1 => checked::<G>(inputs, Check::KeyFree, edits),
        2 => threshold_oprf::<G>(inputs, edits),
        3 => threshold_elgamal::<G>(inputs, false, edits),
        _ => threshold_elgamal::<G>(inputs, true, edits),
    }
}

fn checked<G: PrimeOrderGroup>(inputs: &[&[u8]], check: Check, edits: &mut Cursor<'_>) {
    // The key and the honest run depend only on (group, check, inputs):
    // computed once.
    let key = cached((TypeId::of::<G>(), 3, 0), || {
        KeyPair::<G>::from_secret(G::scalar_from_u64(0x5eed))
    });
    let client = match check {
        Check::CommittedKey => {
            CheckedOprfClient::committed_key(key.public_key().clone(), Kappa::DEFAULT)
                .expect("a valid key")
        }
        Check::KeyFree => CheckedOprfClient::key_free(Kappa::DEFAULT),
    };
    let batch = || {
        client
            .blind(inputs, &mut FuzzRng::new(b"client"))
            .expect("valid inputs")
    };
    // The client decodes the answer as it comes off the wire.
    let finalize = |answer: &[u8]| {
        let answer = EvaluatedElements::from_bytes(answer)?;
        batch().finalize(&answer)
    };
    let tag = u8::from(check == Check::KeyFree);
    let honest_run = cached((TypeId::of::<G>(), tag, inputs.len()), || {
        let answer = evaluate::<G>(key.secret(), batch().request());
        let outputs = finalize(&answer).expect("an honest answer passes");
        (answer, outputs)
    });
    let (honest_answer, honest) = &*honest_run;

    let mut answer = honest_answer.clone();
    let mut rng = FuzzRng::new(edits.field(1));
    while let Some(edit) = Edit::read(edits) {
        edit.apply::<G>(&mut answer, &mut rng);
    }
    match finalize(&answer) {
        Ok(outputs) => {
            assert_eq!(&answer, honest_answer, "a changed answer was accepted");
            assert_eq!(&outputs, honest);
        }
        Err(error) => {
            assert_ne!(&answer, honest_answer);
            assert!(
                matches!(
                    error,
                    Error::VerificationFailed | Error::BadLength | Error::InvalidElement
                ),
                "{error:?}"
            );
        }
    }
}

/// An honest threshold round: every server's answer to the request and
/// the outputs the client recovers from all of them.
struct HonestRound<T> {
    ids: Vec<u16>,
    answers: Vec<Vec<u8>>,
    outputs: Vec<T>,
}

impl<T> HonestRound<T> {
    /// The round in which every holder of `shares` answers `request`
    /// honestly, finalized by `finalize`.
    fn run<G: PrimeOrderGroup>(
        shares: &[KeyShare<G>],
        request: &BlindedElements<G>,
        finalize: impl FnOnce(&[Response<'_>]) -> Result<Recovered<T>, Failure>,
    ) -> HonestRound<T> {
        let answers: Vec<Vec<u8>> = shares
            .iter()
            .map(|share| {
                evaluate_share(share, None, request)
                    .expect("honest evaluation")
                    .to_bytes()
            })
            .collect();
        let ids: Vec<u16> = shares.iter().map(|share| share.id()).collect();
        let all = responses(&ids, &answers, &[true; SERVERS]);
        let outputs = finalize(&all).expect("honest answers pass").outputs;
        HonestRound {
            ids,
            answers,
            outputs,
        }
    }
}

/// The responses of the servers `present`, in order.
fn responses<'a>(ids: &[u16], answers: &'a [Vec<u8>], present: &[bool]) -> Vec<Response<'a>> {
    (0..ids.len())
        .filter(|&j| present[j])
        .map(|j| Response {
            party: ids[j],
            elements: &answers[j],
        })
        .collect()
}

/// A 2-of-3 dealing of a fixed key on `G`.
fn dealing<G: PrimeOrderGroup>() -> (Vec<KeyShare<G>>, Commitments<G>) {
    let secret = G::scalar_from_u64(0x5eed);
    deal::<G, _>(&secret, THRESHOLD, SERVERS, &mut FuzzRng::new(b"dealer")).expect("deal")
}

fn threshold_oprf<G: PrimeOrderGroup>(inputs: &[&[u8]], edits: &mut Cursor<'_>) {
    let batch = |commitments: &Commitments<G>| {
        ThresholdOprfClient::new(commitments.clone(), Kappa::DEFAULT)
            .blind(inputs, &mut FuzzRng::new(b"client"))
            .expect("valid inputs")
    };
    let setup = cached((TypeId::of::<G>(), 2, inputs.len()), || {
        let (shares, commitments) = dealing::<G>();
        let honest = HonestRound::run(&shares, batch(&commitments).request(), |all| {
            batch(&commitments).finalize(all)
        });
        (commitments, honest)
    });
    let (commitments, honest) = &*setup;
    edited_round::<G, _>(honest, |r| batch(commitments).finalize(r), edits);
}

/// Threshold blind BLS: the signers' answers to a signing request.
fn threshold_bls(inputs: &[&[u8]], edits: &mut Cursor<'_>) {
    let batch = |key_set: &bls::KeySet| {
        bls::SigningClient::new(key_set.clone(), Kappa::DEFAULT)
            .blind(inputs, &mut FuzzRng::new(b"client"))
            .expect("valid messages")
    };
    let setup = cached((TypeId::of::<bls::KeySet>(), 0, inputs.len()), || {
        let secret = Bls12381G1::scalar_from_u64(0x5eed);
        let (shares, key_set) =
            bls::deal(&secret, THRESHOLD, SERVERS, &mut FuzzRng::new(b"dealer")).expect("deal");
        let honest = HonestRound::run(&shares, batch(&key_set).request(), |all| {
            batch(&key_set).finalize(all)
        });
        (key_set, honest)
    });
    let (key_set, honest) = &*setup;
    edited_round::<Bls12381G1, _>(honest, |r| batch(key_set).finalize(r), edits);
}

/// Threshold ElGamal: the servers' answers to a decryption request, the
/// ciphertexts blinded or not.
fn threshold_elgamal<G: PrimeOrderGroup>(inputs: &[&[u8]], blinded: bool, edits: &mut Cursor<'_>) {
    let batch = |commitments: &Commitments<G>, ciphertexts: &[Ciphertext<G>]| {
        DecryptionClient::new(commitments.clone(), blinded, Kappa::DEFAULT)
            .blind_ciphertexts(ciphertexts, &mut FuzzRng::new(b"client"))
            .expect("valid ciphertexts")
    };
    let tag = 4 + u8::from(blinded);
    let setup = cached((TypeId::of::<G>(), tag, inputs.len()), || {
        let (shares, commitments) = dealing::<G>();
        let mut rng = FuzzRng::new(b"sender");
        let ciphertexts: Vec<Ciphertext<G>> = inputs
            .iter()
            .map(|x| {
                let message = G::hash_to_group(&[*x], b"fuzz elgamal");
                encrypt(commitments.public_key(), &message, &mut rng).expect("valid key")
            })
            .collect();
        let honest = HonestRound::run(
            &shares,
            batch(&commitments, &ciphertexts).request(),
            |all| batch(&commitments, &ciphertexts).finalize(all),
        );
        (commitments, ciphertexts, honest)
    });
    let (commitments, ciphertexts, honest) = &*setup;
    edited_round::<G, _>(
        honest,
        |r| batch(commitments, ciphertexts).finalize(r),
        edits,
    );
}

/// The honest round with the fuzzer's edits to the answers (and servers
/// dropped): the client must recover exactly the honest outputs whenever
/// t answers are untouched, fail with `NotEnoughResponses` otherwise, and
/// either way name exactly the servers whose answers were changed.
fn edited_round<G: PrimeOrderGroup, T: PartialEq + core::fmt::Debug>(
    honest: &HonestRound<T>,
    finalize: impl FnOnce(&[Response<'_>]) -> Result<Recovered<T>, Failure>,
    edits: &mut Cursor<'_>,
) {
    let mut answers = honest.answers.clone();
    let mut present = [true; SERVERS];
    let mut rng = FuzzRng::new(edits.field(1));
    while let Some(edit) = Edit::read(edits) {
        let server = usize::from(edits.byte()) % SERVERS;
        match edit {
            Edit::Drop => present[server] = false,
            edit => edit.apply::<G>(&mut answers[server], &mut rng),
        }
    }
    let changed: Vec<u16> = (0..SERVERS)
        .filter(|&j| present[j] && answers[j] != honest.answers[j])
        .map(|j| honest.ids[j])
        .collect();
    let good = (0..SERVERS)
        .filter(|&j| present[j] && answers[j] == honest.answers[j])
        .count();
    match finalize(&responses(&honest.ids, &answers, &present)) {
        Ok(recovered) => {
            assert!(
                good >= THRESHOLD,
                "recovered from fewer than t honest answers"
            );
            assert_eq!(recovered.outputs, honest.outputs);
            assert_eq!(recovered.cheaters, changed, "cheaters misnamed");
        }
        Err(failure) => {
            assert!(good < THRESHOLD, "{failure:?} with {good} honest answers");
            assert_eq!(failure.error, Error::NotEnoughResponses);
            assert_eq!(failure.cheaters, changed, "cheaters misnamed");
        }
    }
}

fn evaluate<G: PrimeOrderGroup>(key: &G::Scalar, request: &BlindedElements<G>) -> Vec<u8> {
    let mut out = vec![0u8; request.as_bytes().len()];
    G::encode_batch(&G::mul_batch(key, request.elements()), &mut out);
    out
}

/// One change a cheating server makes to its answer.
enum Edit {
    /// XOR a byte.
    Flip { at: usize, mask: u8 },
    /// Raise one element by a further random scalar: a valid element,
    /// as if computed with a wrong key.
    WrongKey { element: usize },
    /// Exchange two elements.
    Swap { a: usize, b: usize },
    /// Copy one element over another.
    Repeat { from: usize, to: usize },
    /// Cut the answer short.
    Truncate { len: usize },
    /// Append bytes.
    Extend { len: usize },
    /// (Threshold only) the server does not answer.
    Drop,
}

impl Edit {
    /// The next edit, or `None` at the end of the input.
    fn read(input: &mut Cursor<'_>) -> Option<Edit> {
        let op = *input.take(1).first()?;
        let a = usize::from(input.u16());
        let b = usize::from(input.byte());
        Some(match op % 7 {
            0 => Edit::Flip {
                at: a,
                mask: b as u8,
            },
            1 => Edit::WrongKey { element: a },
            2 => Edit::Swap { a, b },
            3 => Edit::Repeat { from: a, to: b },
            4 => Edit::Truncate { len: a },
            5 => Edit::Extend { len: b },
            _ => Edit::Drop,
        })
    }

    fn apply<G: PrimeOrderGroup>(&self, answer: &mut Vec<u8>, rng: &mut FuzzRng) {
        let width = G::ELEMENT_LEN;
        let elements = answer.len() / width;
        let slot = |i: usize| (i % elements.max(1)) * width..(i % elements.max(1) + 1) * width;
        match *self {
            Edit::Flip { at, mask } if !answer.is_empty() => {
                let at = at % answer.len();
                answer[at] ^= mask;
            }
            Edit::WrongKey { element } if elements > 0 => {
                let range = slot(element);
                if let Ok(x) = G::decode(&answer[range.clone()]) {
                    let wrong = G::mul(&x, &G::random_scalar(rng));
                    G::encode(&wrong, &mut answer[range]);
                }
            }
            Edit::Swap { a, b } if elements > 0 => {
                let (ra, rb) = (slot(a), slot(b));
                let first = answer[ra.clone()].to_vec();
                answer.copy_within(rb.clone(), ra.start);
                answer[rb].copy_from_slice(&first);
            }
            Edit::Repeat { from, to } if elements > 0 => {
                let (rf, rt) = (slot(from), slot(to));
                answer.copy_within(rf, rt.start);
            }
            Edit::Truncate { len } => answer.truncate(len % (answer.len() + 1)),
            Edit::Extend { len } => answer.extend(std::iter::repeat_n(0x42, len)),
            _ => {}
        }
    }
}
