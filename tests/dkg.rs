//! The distributed key generation (docs/PROTOCOLS.md §10): honest runs on
//! every curve (and FFDHE once), their output used unchanged by the
//! threshold OPRF and blind BLS; every cheating case of issue 30 named
//! alike by every honest party; every malformed message refused with its
//! own error. Every test name starts with `dkg_`.

mod support;

use std::cell::RefCell;

use oblivex::bls::{self, KeySet, PublicKey, SigningClient};
use oblivex::group::{Bls12381G1, Ffdhe2048, PrimeOrderGroup, Ristretto255, P256};
use oblivex::oblivious::Kappa;
use oblivex::threshold::dkg::{
    Complaints, DkgError, DkgOutput, DkgParams, DkgParty, FeldmanCommitments, FeldmanComplaints,
    Justifications, Offence, PedersenCommitments, Received, RevealedShares, SharePair,
};
use oblivex::threshold::{Commitments, KeyShare, PartyId, Response};
use support::dkg::{
    blame, check_agreement, check_oprf, dealt, header_len, honest, random_element_bytes,
    random_scalar_bytes, reconstruct, refresh_header_len, rng, run, run_rounds, scalar_bytes,
    share_answers, with_entries, Step, Tamper, SESSION,
};
use support::threshold::responses_of;

/// Replaces the share `s` of a key generation's [`SharePair`] encoding.
fn corrupt_share<G: PrimeOrderGroup>(message: &mut [u8]) {
    support::dkg::corrupt_share::<G>(message, header_len::<G>());
}

const SIZES: [(usize, usize); 3] = [(2, 3), (3, 5), (5, 9)];

fn honest_runs<G: PrimeOrderGroup>(sizes: &[(usize, usize)]) {
    for &(t, n) in sizes {
        let outputs = run::<G>(t, n, &honest);
        let all: Vec<PartyId> = (1..=n as PartyId).collect();
        let key = check_agreement::<G>(&outputs, &all);
        let first = outputs[0].as_ref().unwrap();
        assert_eq!(first.qualified(), all.as_slice());
        assert!(first.blame().is_empty() && first.exposed().is_empty());
        // The last t servers answer.
        check_oprf::<G>(&outputs, &all[n - t..], &key);
    }
}

#[test]
fn dkg_honest_runs_ristretto255() {
    honest_runs::<Ristretto255>(&SIZES);
}

#[test]
fn dkg_honest_runs_p256() {
    honest_runs::<P256>(&SIZES);
}

#[test]
fn dkg_honest_runs_bls12_381() {
    honest_runs::<Bls12381G1>(&SIZES);
}

#[test]
fn dkg_honest_run_ffdhe2048() {
    honest_runs::<Ffdhe2048>(&[(2, 3)]);
}

/// Each party's published G2 key: `sk_j·G2gen` of its share, encoded.
fn published_g2_keys(outputs: &[DkgOutput<Bls12381G1>]) -> Vec<(PartyId, Vec<u8>)> {
    outputs
        .iter()
        .map(|o| {
            let share = o.share();
            (
                share.id(),
                PublicKey::from_secret(share.secret()).to_bytes().to_vec(),
            )
        })
        .collect()
}

fn as_responses(keys: &[(PartyId, Vec<u8>)]) -> Vec<Response<'_>> {
    keys.iter()
        .map(|(party, bytes)| Response {
            party: *party,
            elements: bytes,
        })
        .collect()
}

/// The parties of the BLS runs (3 of them must sign).
const BLS_PARTIES: usize = 5;

/// An honest 3-of-5 run on BLS12-381: every party's output and the
/// commitments they all hold.
fn bls_run() -> (Vec<DkgOutput<Bls12381G1>>, Commitments<Bls12381G1>) {
    let outputs: Vec<DkgOutput<Bls12381G1>> = run::<Bls12381G1>(3, BLS_PARTIES, &honest)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let commitments = outputs[0].commitments().clone();
    assert!(outputs.iter().all(|o| o.commitments() == &commitments));
    (outputs, commitments)
}

#[test]
fn dkg_bls_signatures_verify_under_the_dkg_key() {
    let (outputs, commitments) = bls_run();
    // No key is reconstructed: the G2 public key comes from the parties'
    // published G2 keys, checked against the commitments.
    let published = published_g2_keys(&outputs);
    let derived =
        KeySet::derive_vartime(commitments, BLS_PARTIES, &as_responses(&published)).unwrap();
    assert!(derived.cheaters.is_empty());
    let key_set = derived.key_set;
    assert_eq!(
        KeySet::from_bytes(&key_set.to_bytes()).unwrap(),
        key_set,
        "the derived key set passes KeySet's own checks"
    );
    let blst_pk = blst::min_sig::PublicKey::from_bytes(&key_set.public_key().to_bytes()).unwrap();
    let messages: [&[u8]; 3] = [b"one", b"two", b""];
    let batch = SigningClient::new(key_set.clone(), Kappa::DEFAULT)
        .blind(&messages, &mut rng())
        .unwrap();
    let answers = share_answers(
        &[2, 4, 5],
        |id| outputs[usize::from(id) - 1].share(),
        batch.request(),
    );
    let responses = responses_of(&answers);
    let signatures = batch.finalize(&responses).unwrap();
    for (message, signature) in messages.iter().zip(&signatures.outputs) {
        assert!(bls::verify(key_set.public_key(), message, signature));
        let signature = blst::min_sig::Signature::from_bytes(signature).unwrap();
        assert_eq!(
            signature.verify(true, message, bls::SIGNATURE_DST, &[], &blst_pk, true),
            blst::BLST_ERROR::BLST_SUCCESS
        );
    }
    assert!(!bls::verify(
        key_set.public_key(),
        b"three",
        &signatures.outputs[0]
    ));
}

#[test]
fn dkg_bls_wrong_g2_keys_are_named() {
    let (outputs, commitments) = bls_run();
    let honest_keys = published_g2_keys(&outputs);
    let expected = KeySet::derive_vartime(
        commitments.clone(),
        BLS_PARTIES,
        &as_responses(&honest_keys),
    )
    .unwrap()
    .key_set;
    // Party 2 publishes another valid G2 point, party 4 a malformed one,
    // party 5 nothing yet.
    let mut keys = honest_keys.clone();
    keys[1].1 = PublicKey::from_secret(&Bls12381G1::random_scalar(&mut rng()))
        .to_bytes()
        .to_vec();
    keys[3].1[95] ^= 1;
    keys.pop();
    keys.push((6, honest_keys[0].1.clone()));
    assert_eq!(
        KeySet::derive_vartime(commitments.clone(), BLS_PARTIES, &as_responses(&keys))
            .unwrap_err()
            .error,
        oblivex::Error::InvalidPartyId,
        "an id above n"
    );
    keys.pop();
    // Parties 1 and 3 alone are fewer than t = 3.
    let failure =
        KeySet::derive_vartime(commitments.clone(), BLS_PARTIES, &as_responses(&keys)).unwrap_err();
    assert_eq!(failure.error, oblivex::Error::NotEnoughResponses);
    assert_eq!(failure.cheaters, vec![2, 4]);
    // With party 5's the key set is whole: parties 2 and 4 get their right
    // keys, interpolated (any order of publication).
    keys.push(honest_keys[4].clone());
    keys.reverse();
    let derived = KeySet::derive_vartime(commitments, BLS_PARTIES, &as_responses(&keys)).unwrap();
    assert_eq!(derived.cheaters, vec![2, 4]);
    assert_eq!(derived.key_set, expected);
    for (id, bytes) in &honest_keys {
        assert_eq!(
            derived
                .key_set
                .signer_key(*id)
                .unwrap()
                .to_bytes()
                .as_slice(),
            bytes.as_slice()
        );
    }
}

// ------------------------------------------------------------ cheating

/// Runs t of n with `tamper`, checks that the parties outside `cheaters`
/// agree, that their output is a working key (threshold OPRF with t honest
/// servers), and returns the first honest party's output.
fn cheating_run<G: PrimeOrderGroup>(
    t: usize,
    n: usize,
    cheaters: &[PartyId],
    tamper: Tamper<'_>,
) -> DkgOutput<G> {
    let mut outputs = run::<G>(t, n, tamper);
    let honest: Vec<PartyId> = (1..=n as PartyId)
        .filter(|id| !cheaters.contains(id))
        .collect();
    let key = check_agreement::<G>(&outputs, &honest);
    check_oprf::<G>(&outputs, &honest[..t], &key);
    outputs.swap_remove(usize::from(honest[0]) - 1).unwrap()
}

fn cheating_cases<G: PrimeOrderGroup>() {
    let (t, n) = (3, 5);
    let header = header_len::<G>();

    // A bad share to party 4, then the same bad share as justification.
    let bad: RefCell<Option<Vec<u8>>> = RefCell::new(None);
    let output = cheating_run::<G>(t, n, &[2], &|step, from, to, message| {
        let Some(bytes) = message else { return };
        if step == Step::Share && from == 2 && to == 4 {
            corrupt_share::<G>(bytes);
            let at = header + 2;
            *bad.borrow_mut() = Some(bytes[at..at + 2 * G::SCALAR_LEN].to_vec());
        }
        if step == Step::Justifications && from == 2 {
            let mut entry = 4u16.to_be_bytes().to_vec();
            entry.extend_from_slice(bad.borrow().as_ref().unwrap());
            *bytes = with_entries(bytes.clone(), header, 1, &entry);
        }
    });
    assert_eq!(output.disqualified(), [2]);
    assert_eq!(output.qualified(), [1, 3, 4, 5]);
    assert_eq!(
        output.blame(),
        [blame(2, Offence::WrongJustification { complainer: 4 })]
    );

    // A bad share to party 4, its complaint left unanswered.
    let output = cheating_run::<G>(t, n, &[2], &|step, from, to, message| {
        let Some(bytes) = message else { return };
        if step == Step::Share && from == 2 && to == 4 {
            corrupt_share::<G>(bytes);
        }
        if step == Step::Justifications && from == 2 {
            *bytes = with_entries(bytes.clone(), header, 0, &[]);
        }
    });
    assert_eq!(output.disqualified(), [2]);
    assert_eq!(
        output.blame(),
        [blame(2, Offence::ComplaintUnanswered { complainer: 4 })]
    );

    // A bad share to party 4, corrected in public: recorded, nobody
    // disqualified, party 4 uses the published pair (its share works).
    let output = cheating_run::<G>(t, n, &[], &|step, from, to, message| {
        if let (Step::Share, 2, 4, Some(bytes)) = (step, from, to, message) {
            corrupt_share::<G>(bytes);
        }
    });
    assert!(output.disqualified().is_empty());
    assert_eq!(
        output.blame(),
        [blame(4, Offence::ComplaintRefuted { dealer: 2 })]
    );

    // A share withheld from party 1, then the complaint left unanswered.
    let output = cheating_run::<G>(t, n, &[3], &|step, from, to, message| {
        if step == Step::Share && from == 3 && to == 1 {
            *message = None;
        }
        if let (Step::Justifications, 3, Some(bytes)) = (step, from, message.as_mut()) {
            *bytes = with_entries(bytes.clone(), header, 0, &[]);
        }
    });
    assert_eq!(output.disqualified(), [3]);
    assert_eq!(
        output.blame(),
        [blame(3, Offence::ComplaintUnanswered { complainer: 1 })]
    );

    // Withheld, then answered: recorded only (GJKR).
    let output = cheating_run::<G>(t, n, &[], &|step, from, to, message| {
        if step == Step::Share && from == 3 && to == 1 {
            *message = None;
        }
    });
    assert!(output.disqualified().is_empty());
    assert_eq!(
        output.blame(),
        [blame(1, Offence::ComplaintRefuted { dealer: 3 })]
    );

    // A false complaint by party 5 against party 1: refuted and recorded,
    // nobody disqualified.
    let output = cheating_run::<G>(t, n, &[5], &|step, from, _, message| {
        if let (Step::Complaints, 5, Some(bytes)) = (step, from, message) {
            *bytes = with_entries(bytes.clone(), header, 1, &1u16.to_be_bytes());
        }
    });
    assert_eq!(output.qualified(), [1, 2, 3, 4, 5]);
    assert_eq!(
        output.blame(),
        [blame(5, Offence::ComplaintRefuted { dealer: 1 })]
    );

    // Pedersen commitments inconsistent with the shares dealt (one
    // commitment replaced): every other party complains, t or more.
    let other = random_element_bytes::<G>();
    let output = cheating_run::<G>(t, n, &[2], &|step, from, _, message| {
        if let (Step::Commitments, 2, Some(bytes)) = (step, from, message) {
            bytes[header + G::ELEMENT_LEN..header + 2 * G::ELEMENT_LEN].copy_from_slice(&other);
        }
    });
    assert_eq!(output.disqualified(), [2]);
    assert_eq!(
        output.blame(),
        [blame(2, Offence::TooManyComplaints { complaints: 4 })]
    );

    // Invalid commitments (an element that does not decode).
    let output = cheating_run::<G>(t, n, &[2], &|step, from, _, message| {
        if let (Step::Commitments, 2, Some(bytes)) = (step, from, message) {
            bytes[header..header + G::ELEMENT_LEN].fill(0xff);
        }
    });
    assert_eq!(output.disqualified(), [2]);
    assert_eq!(
        output.blame(),
        [blame(
            2,
            Offence::BroadcastInvalid {
                round: 1,
                error: DkgError::InvalidElement
            }
        )]
    );

    // Feldman commitments inconsistent with the shares: dealer 2 stays in
    // QUAL, exposed; every honest party's complaint is valid, the first
    // (party 1) is named; the key is still a sharing everyone agrees on.
    let output = cheating_run::<G>(t, n, &[2], &|step, from, _, message| {
        if let (Step::Feldman, 2, Some(bytes)) = (step, from, message) {
            bytes[header + G::ELEMENT_LEN..header + 2 * G::ELEMENT_LEN].copy_from_slice(&other);
        }
    });
    assert_eq!(output.qualified(), [1, 2, 3, 4, 5]);
    assert_eq!(output.exposed(), [2]);
    assert_eq!(
        output.blame(),
        [blame(2, Offence::FeldmanInconsistent { complainer: 1 })]
    );

    // Feldman commitments withheld: exposed the same way.
    let output = cheating_run::<G>(t, n, &[2], &|step, from, _, message| {
        if step == Step::Feldman && from == 2 {
            *message = None;
        }
    });
    assert_eq!(output.exposed(), [2]);
    assert_eq!(
        output.blame(),
        [blame(2, Offence::BroadcastMissing { round: 4 })]
    );

    // A false Feldman complaint (a made-up pair): recorded, ignored.
    let mut entry = 1u16.to_be_bytes().to_vec();
    entry.extend_from_slice(&random_scalar_bytes::<G>());
    entry.extend_from_slice(&random_scalar_bytes::<G>());
    let output = cheating_run::<G>(t, n, &[5], &|step, from, _, message| {
        if let (Step::FeldmanComplaints, 5, Some(bytes)) = (step, from, message) {
            *bytes = with_entries(bytes.clone(), header, 1, &entry);
        }
    });
    assert!(output.exposed().is_empty());
    assert_eq!(
        output.blame(),
        [blame(5, Offence::FalseFeldmanComplaint { dealer: 1 })]
    );

    // Two cheaters at once (t − 1 = 2): a missing round-2 broadcast and a
    // wrong Feldman value; both named, the key still works. Party 1, out of
    // QUAL as a dealer, still holds a share, and its evidence convicts.
    let output = cheating_run::<G>(t, n, &[1, 4], &|step, from, _, message| {
        if step == Step::Complaints && from == 1 {
            *message = None;
        }
        if let (Step::Feldman, 4, Some(bytes)) = (step, from, message.as_mut()) {
            bytes[header..header + G::ELEMENT_LEN].copy_from_slice(&other);
        }
    });
    assert_eq!(output.qualified(), [2, 3, 4, 5]);
    assert_eq!(output.exposed(), [4]);
    assert_eq!(
        output.blame(),
        [
            blame(1, Offence::BroadcastMissing { round: 2 }),
            blame(4, Offence::FeldmanInconsistent { complainer: 1 }),
        ]
    );
}

#[test]
fn dkg_cheaters_are_named_ristretto255() {
    cheating_cases::<Ristretto255>();
}

#[test]
fn dkg_cheaters_are_named_p256() {
    cheating_cases::<P256>();
}

#[test]
fn dkg_cheaters_are_named_bls12_381() {
    cheating_cases::<Bls12381G1>();
}

// ------------------------------------------------------------ encodings

/// Every message of an honest run of 3 of 5, as sent.
fn transcript<G: PrimeOrderGroup>() -> Vec<(Step, PartyId, PartyId, Vec<u8>)> {
    let log = RefCell::new(Vec::new());
    run::<G>(3, 5, &|step, from, to, message| {
        if let Some(bytes) = message {
            log.borrow_mut().push((step, from, to, bytes.clone()));
        }
    });
    log.into_inner()
}

/// Decodes `bytes` as the message of `step`; the error if refused.
fn refusal<G: PrimeOrderGroup>(
    step: Step,
    bytes: &[u8],
    params: &DkgParams<G>,
) -> Option<DkgError> {
    match step {
        Step::Commitments => PedersenCommitments::from_bytes(bytes, params).err(),
        Step::Share => SharePair::from_bytes(bytes, params).err(),
        Step::Complaints => Complaints::from_bytes(bytes, params).err(),
        Step::Justifications => Justifications::from_bytes(bytes, params).err(),
        Step::Feldman => FeldmanCommitments::from_bytes(bytes, params).err(),
        Step::FeldmanComplaints => FeldmanComplaints::from_bytes(bytes, params).err(),
        Step::Reveals => RevealedShares::from_bytes(bytes, params).err(),
    }
}

const STEPS: [Step; 7] = [
    Step::Commitments,
    Step::Share,
    Step::Complaints,
    Step::Justifications,
    Step::Feldman,
    Step::FeldmanComplaints,
    Step::Reveals,
];

fn bad_encodings<G: PrimeOrderGroup, Other: PrimeOrderGroup>() {
    let params = DkgParams::<G>::new(3, 5, SESSION).unwrap();
    let header = header_len::<G>();
    let log = transcript::<G>();
    let pair_entry = |id: PartyId, scalar: &[u8]| {
        let mut entry = id.to_be_bytes().to_vec();
        entry.extend_from_slice(scalar);
        entry.extend_from_slice(&random_scalar_bytes::<G>());
        entry
    };
    let good_scalar = random_scalar_bytes::<G>();
    let bad_scalar = vec![0xff; G::SCALAR_LEN];
    for step in STEPS {
        let (_, from, _, plain) = log
            .iter()
            .find(|(s, f, _, _)| *s == step && *f == 1)
            .unwrap();
        assert_eq!(*from, 1);
        // The list messages also with entries: ids 3 and 4.
        let message = match step {
            Step::Complaints => with_entries(plain.clone(), header, 2, &[0, 3, 0, 4]),
            Step::Justifications | Step::FeldmanComplaints | Step::Reveals => {
                let mut entries = pair_entry(3, &good_scalar);
                entries.extend(pair_entry(4, &good_scalar));
                with_entries(plain.clone(), header, 2, &entries)
            }
            _ => plain.clone(),
        };
        assert_eq!(refusal(step, &message, &params), None, "{step:?}");
        let refused = |change: &dyn Fn(&mut Vec<u8>), error: DkgError| {
            let mut bytes = message.clone();
            change(&mut bytes);
            assert_eq!(refusal(step, &bytes, &params), Some(error), "{step:?}");
        };
        refused(&|b| b.truncate(0), DkgError::BadLength);
        refused(&|b| b.truncate(header - 1), DkgError::BadLength);
        refused(&|b| b.truncate(b.len() - 1), DkgError::BadLength);
        refused(&|b| b.push(0), DkgError::BadLength);
        refused(&|b| b[0] = 1, DkgError::UnsupportedVersion); // the format before the digest
        refused(&|b| b[1] = 1 + b[1] % 7, DkgError::WrongKind);
        refused(&|b| b[1] = 0, DkgError::WrongKind);
        refused(&|b| b[3] ^= 1, DkgError::WrongSuite);
        refused(&|b| b[2] += 1, DkgError::WrongSuite);
        let at = 3 + G::SUITE_ID.len();
        refused(&|b| b[at + 1] = 2, DkgError::WrongParameters);
        refused(&|b| b[at + 3] = 6, DkgError::WrongParameters);
        refused(&|b| b[at + 4] ^= 1, DkgError::WrongSession);
        refused(&|b| b[header - 1] = 0, DkgError::InvalidPartyId);
        refused(&|b| b[header - 1] = 6, DkgError::InvalidPartyId);
        // The same message read as another suite's.
        let other = DkgParams::<Other>::new(3, 5, SESSION).unwrap();
        let error = match step {
            Step::Commitments => PedersenCommitments::from_bytes(&message, &other).err(),
            Step::Share => SharePair::from_bytes(&message, &other).err(),
            Step::Complaints => Complaints::from_bytes(&message, &other).err(),
            Step::Justifications => Justifications::from_bytes(&message, &other).err(),
            Step::Feldman => FeldmanCommitments::from_bytes(&message, &other).err(),
            Step::FeldmanComplaints => FeldmanComplaints::from_bytes(&message, &other).err(),
            Step::Reveals => RevealedShares::from_bytes(&message, &other).err(),
        };
        assert_eq!(error, Some(DkgError::WrongSuite), "{step:?}");
        match step {
            Step::Commitments | Step::Feldman => {
                let last = message.len() - G::ELEMENT_LEN;
                refused(&|b| b[last..].fill(0xff), DkgError::InvalidElement);
                let identity = oblivex::group::encode_to_vec::<G>(&G::identity());
                refused(
                    &|b| b[header..header + G::ELEMENT_LEN].copy_from_slice(&identity),
                    DkgError::InvalidElement,
                );
            }
            Step::Share => {
                refused(&|b| b[header + 1] = 0, DkgError::InvalidPartyId);
                refused(&|b| b[header + 1] = 9, DkgError::InvalidPartyId);
                refused(&|b| b[header + 1] = 1, DkgError::UnsortedIds);
                refused(
                    &|b| b[header + 2..header + 2 + G::SCALAR_LEN].copy_from_slice(&bad_scalar),
                    DkgError::InvalidScalar,
                );
                let last = message.len() - G::SCALAR_LEN;
                refused(
                    &|b| b[last..].copy_from_slice(&bad_scalar),
                    DkgError::InvalidScalar,
                );
            }
            Step::Complaints => {
                refused(&|b| b[header + 1] = 3, DkgError::BadLength);
                refused(&|b| b[header + 3] = 5, DkgError::UnsortedIds);
                refused(&|b| b[header + 3] = 4, DkgError::UnsortedIds);
                refused(&|b| b[header + 3] = 1, DkgError::UnsortedIds);
                refused(&|b| b[header + 5] = 1, DkgError::UnsortedIds);
                refused(&|b| b[header + 5] = 6, DkgError::InvalidPartyId);
            }
            _ => {
                let second = header + 2 + 2 + 2 * G::SCALAR_LEN;
                refused(&|b| b[header + 1] = 1, DkgError::BadLength);
                refused(&|b| b[header + 3] = 4, DkgError::UnsortedIds);
                refused(&|b| b[second + 1] = 1, DkgError::UnsortedIds);
                refused(&|b| b[second + 1] = 0, DkgError::InvalidPartyId);
                refused(
                    &|b| b[header + 4..header + 4 + G::SCALAR_LEN].copy_from_slice(&bad_scalar),
                    DkgError::InvalidScalar,
                );
                refused(
                    &|b| {
                        let end = b.len();
                        b[end - G::SCALAR_LEN..].copy_from_slice(&bad_scalar)
                    },
                    DkgError::InvalidScalar,
                );
            }
        }
    }
}

#[test]
fn dkg_bad_encodings_are_refused_ristretto255() {
    bad_encodings::<Ristretto255, P256>();
}

#[test]
fn dkg_bad_encodings_are_refused_p256() {
    bad_encodings::<P256, Bls12381G1>();
}

#[test]
fn dkg_bad_encodings_are_refused_bls12_381() {
    bad_encodings::<Bls12381G1, Ristretto255>();
}

#[test]
fn dkg_a_message_under_another_sender_is_blamed_on_its_carrier() {
    let header = header_len::<Ristretto255>();
    let output = cheating_run::<Ristretto255>(2, 3, &[3], &|step, from, _, message| {
        if let (Step::Commitments, 3, Some(bytes)) = (step, from, message) {
            bytes[header - 1] = 2;
        }
    });
    assert_eq!(
        output.blame(),
        [blame(
            3,
            Offence::BroadcastInvalid {
                round: 1,
                error: DkgError::WrongSender
            }
        )]
    );
}

#[test]
fn dkg_caller_mistakes_are_refused() {
    type G = Ristretto255;
    for (t, n) in [(0, 3), (3, 4), (1, 1), (2, 1025), (6, 10)] {
        assert_eq!(
            DkgParams::<G>::new(t, n, SESSION).unwrap_err(),
            DkgError::InvalidThreshold,
            "{t} of {n}"
        );
    }
    let params = DkgParams::<G>::new(2, 3, SESSION).unwrap();
    for id in [0, 4] {
        assert_eq!(
            DkgParty::start(params, id, &mut rng()).unwrap_err(),
            DkgError::InvalidPartyId
        );
    }
    let (_, from_two) = DkgParty::start(params, 2, &mut rng()).unwrap();
    let (_, from_one) = DkgParty::start(params, 1, &mut rng()).unwrap();
    let two = from_two.commitments.to_bytes();
    let one = from_one.commitments.to_bytes();
    let cases: [(Vec<Received<'_>>, DkgError); 3] = [
        (
            vec![
                Received {
                    from: 2,
                    bytes: &two,
                },
                Received {
                    from: 2,
                    bytes: &two,
                },
            ],
            DkgError::DuplicateMessage,
        ),
        (
            vec![Received {
                from: 1,
                bytes: &one,
            }],
            DkgError::DuplicateMessage,
        ),
        (
            vec![Received {
                from: 4,
                bytes: &two,
            }],
            DkgError::InvalidPartyId,
        ),
    ];
    for (messages, error) in cases {
        let (state, _) = DkgParty::start(params, 1, &mut rng()).unwrap();
        assert_eq!(state.round2(&messages, &[]).unwrap_err(), error);
    }
    // A pair addressed to another party is a bad pair: a complaint.
    let (state, _) = DkgParty::start(params, 3, &mut rng()).unwrap();
    let to_three = from_two.shares.iter().find(|s| s.recipient() == 3).unwrap();
    let to_one = from_one.shares.iter().find(|s| s.recipient() == 2).unwrap();
    let (pair_two, pair_one) = (to_three.to_bytes(), to_one.to_bytes());
    let (_, complaints) = state
        .round2(
            &[
                Received {
                    from: 1,
                    bytes: &one,
                },
                Received {
                    from: 2,
                    bytes: &two,
                },
            ],
            &[
                Received {
                    from: 1,
                    bytes: &pair_one,
                },
                Received {
                    from: 2,
                    bytes: &pair_two,
                },
            ],
        )
        .unwrap();
    assert_eq!(complaints.accused(), [1]);
    // Debug never prints a secret.
    let printed = format!("{to_three:?}");
    assert!(printed.contains("SharePair") && !printed.contains("share:"));
}

// ------------------------------------------------------------ refresh

/// A key generation of t of n, then a refresh of its shares with `tamper`
/// (cheaters: `cheaters`); returns the refreshed outputs after checking
/// that the key, `A_0` and the OPRF outputs stayed, every share changed,
/// and no t-set mixing old and new shares rebuilds the key.
fn refresh_on<G: PrimeOrderGroup>(
    t: usize,
    n: usize,
    cheaters: &[PartyId],
    tamper: Tamper<'_>,
) -> Vec<Result<DkgOutput<G>, DkgError>> {
    let first = run::<G>(t, n, &honest);
    let all: Vec<PartyId> = (1..=n as PartyId).collect();
    let key = check_agreement::<G>(&first, &all);
    let first: Vec<DkgOutput<G>> = first.into_iter().map(Result::unwrap).collect();
    let old_commitments = first[0].commitments().clone();
    let old: Vec<KeyShare<G>> = first
        .iter()
        .map(|o| KeyShare::from_bytes(&o.share().to_bytes()).unwrap())
        .collect();
    let params = DkgParams::<G>::refresh(&old_commitments, n, [0x7f; 32]).unwrap();
    let starts = first
        .into_iter()
        .map(|output| {
            let (share, commitments) = output.into_parts();
            DkgParty::start_refresh(params, share, &commitments, &mut rng()).unwrap()
        })
        .collect();
    let refreshed = run_rounds::<G>(starts, tamper);
    let honest: Vec<PartyId> = all
        .iter()
        .copied()
        .filter(|id| !cheaters.contains(id))
        .collect();
    let new_key = check_agreement::<G>(&refreshed, &honest);
    assert_eq!(scalar_bytes::<G>(&new_key), scalar_bytes::<G>(&key));
    let new_commitments = refreshed[usize::from(honest[0]) - 1]
        .as_ref()
        .unwrap()
        .commitments();
    assert_eq!(new_commitments.public_key(), old_commitments.public_key());
    assert_ne!(new_commitments, &old_commitments);
    check_oprf::<G>(&refreshed, &honest[..t], &key);
    let new: Vec<&KeyShare<G>> = honest
        .iter()
        .map(|&id| refreshed[usize::from(id) - 1].as_ref().unwrap().share())
        .collect();
    for share in &new {
        let before = &old[usize::from(share.id()) - 1];
        assert_ne!(
            scalar_bytes::<G>(share.secret()),
            scalar_bytes::<G>(before.secret())
        );
        assert!(!old_commitments.verify_share(share));
        assert!(!new_commitments.verify_share(before));
    }
    // Every t honest parties, every mix of old and new shares among them
    // (at least one of each): never the key.
    let target = G::mul_base(&key);
    for start in 0..=honest.len() - t {
        let set = &new[start..start + t];
        for mask in 1..(1u32 << t) - 1 {
            let mixed: Vec<&KeyShare<G>> = set
                .iter()
                .enumerate()
                .map(|(k, share)| {
                    if mask & (1 << k) != 0 {
                        &old[usize::from(share.id()) - 1]
                    } else {
                        *share
                    }
                })
                .collect();
            assert_ne!(
                G::mul_base(&reconstruct::<G>(&mixed)),
                target,
                "mask {mask:b}"
            );
        }
    }
    refreshed
}

#[test]
fn dkg_refresh_keeps_the_key_and_old_shares_stop_combining() {
    for (t, n) in SIZES {
        refresh_on::<Ristretto255>(t, n, &[], &honest);
    }
    refresh_on::<P256>(3, 5, &[], &honest);
    refresh_on::<Bls12381G1>(2, 3, &[], &honest);
}

#[test]
fn dkg_refresh_with_cheaters_keeps_the_key() {
    type G = Ristretto255;
    let header = refresh_header_len::<G>();
    let other = random_element_bytes::<G>();
    // A wrong Feldman value: exposed, rebuilt, the key kept.
    let refreshed = refresh_on::<G>(3, 5, &[2], &|step, from, _, message| {
        if let (Step::Feldman, 2, Some(bytes)) = (step, from, message) {
            bytes[header..header + G::ELEMENT_LEN].copy_from_slice(&other);
        }
    });
    let output = refreshed[0].as_ref().unwrap();
    assert_eq!(output.exposed(), [2]);
    assert_eq!(
        output.blame(),
        [blame(2, Offence::FeldmanInconsistent { complainer: 1 })]
    );
    // A bad share left unanswered: disqualified, the key kept.
    let refreshed = refresh_on::<G>(3, 5, &[4], &|step, from, to, message| {
        let Some(bytes) = message else { return };
        if step == Step::Share && from == 4 && to == 1 {
            corrupt_share::<G>(bytes);
        }
        if step == Step::Justifications && from == 4 {
            *bytes = with_entries(bytes.clone(), header, 0, &[]);
        }
    });
    let output = refreshed[0].as_ref().unwrap();
    assert_eq!(output.disqualified(), [4]);
}

#[test]
fn dkg_refresh_refuses_what_does_not_fit() {
    type G = Ristretto255;
    assert_eq!(
        DkgParams::<G>::refresh(&dealt::<G>(1, 3).1, 3, SESSION).unwrap_err(),
        DkgError::InvalidThreshold
    );
    let keygen = DkgParams::<G>::new(2, 3, SESSION).unwrap();
    let outputs: Vec<DkgOutput<G>> = run::<G>(2, 3, &honest)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let commitments = outputs[0].commitments().clone();
    let refresh = DkgParams::<G>::refresh(&commitments, 3, SESSION).unwrap();
    assert_eq!(
        DkgParty::start(refresh, 1, &mut rng()).unwrap_err(),
        DkgError::WrongParameters
    );
    let copy = |k: usize| KeyShare::<G>::from_bytes(&outputs[k].share().to_bytes()).unwrap();
    assert_eq!(
        DkgParty::start_refresh(keygen, copy(0), &commitments, &mut rng()).unwrap_err(),
        DkgError::WrongParameters
    );
    let wider = DkgParams::<G>::refresh(&dealt::<G>(3, 5).1, 5, SESSION).unwrap();
    assert_eq!(
        DkgParty::start_refresh(wider, copy(0), &commitments, &mut rng()).unwrap_err(),
        DkgError::OldCommitmentsMismatch
    );
    let moved = KeyShare::<G>::new(2, copy(0).secret().clone()).unwrap();
    assert_eq!(
        DkgParty::start_refresh(refresh, moved, &commitments, &mut rng()).unwrap_err(),
        DkgError::ShareMismatch
    );
    // A refresh's messages are not a key generation's, nor the other way.
    let (_, messages) =
        DkgParty::start_refresh(refresh, copy(1), &commitments, &mut rng()).unwrap();
    let bytes = messages.commitments.to_bytes();
    assert_eq!(bytes.len(), refresh_header_len::<G>() + G::ELEMENT_LEN);
    assert_eq!(
        PedersenCommitments::from_bytes(&bytes, &keygen).unwrap_err(),
        DkgError::WrongKind
    );
    assert!(PedersenCommitments::from_bytes(&bytes, &refresh).is_ok());
    let (_, messages) = DkgParty::start(keygen, 1, &mut rng()).unwrap();
    assert_eq!(
        PedersenCommitments::from_bytes(&messages.commitments.to_bytes(), &refresh).unwrap_err(),
        DkgError::WrongKind
    );
}

/// A party started from other old commitments than the others (an
/// earlier sharing of the same key: a valid share, valid commitments)
/// gets a clear error when their messages arrive, not the honest dealers
/// blamed; the others disqualify it, as one party (at most t − 1) may be
/// corrupted.
#[test]
fn dkg_refresh_names_its_old_commitments() {
    type G = Ristretto255;
    let (t, n) = (2, 3);
    let first: Vec<DkgOutput<G>> = run::<G>(t, n, &honest)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let stale = KeyShare::<G>::from_bytes(&first[0].share().to_bytes()).unwrap();
    let stale_commitments = first[0].commitments().clone();
    let current = refresh_on::<G>(t, n, &[], &honest);
    let current: Vec<DkgOutput<G>> = current.into_iter().map(Result::unwrap).collect();
    let commitments = current[0].commitments().clone();
    assert_ne!(commitments, stale_commitments);
    assert_eq!(
        DkgParty::start_refresh(
            DkgParams::<G>::refresh(&commitments, n, SESSION).unwrap(),
            KeyShare::<G>::from_bytes(&stale.to_bytes()).unwrap(),
            &stale_commitments,
            &mut rng()
        )
        .unwrap_err(),
        DkgError::OldCommitmentsMismatch,
        "commitments other than the parameters'"
    );
    // Party 1 starts from the stale sharing, parties 2 and 3 from the
    // current one.
    let mut starts = Vec::new();
    for (k, output) in current.into_iter().enumerate() {
        let (share, commitments) = output.into_parts();
        let (share, commitments) = if k == 0 {
            (
                KeyShare::<G>::from_bytes(&stale.to_bytes()).unwrap(),
                stale_commitments.clone(),
            )
        } else {
            (share, commitments)
        };
        let params = DkgParams::<G>::refresh(&commitments, n, SESSION).unwrap();
        starts.push(DkgParty::start_refresh(params, share, &commitments, &mut rng()).unwrap());
    }
    let commitment_of = |k: usize| starts[k].1.commitments.to_bytes();
    let pair_to = |k: usize, to: PartyId| {
        let pairs = &starts[k].1.shares;
        pairs
            .iter()
            .find(|p| p.recipient() == to)
            .unwrap()
            .to_bytes()
    };
    let (one, two, three) = (commitment_of(0), commitment_of(1), commitment_of(2));
    let (two_to_one, three_to_one) = (pair_to(1, 1), pair_to(2, 1));
    let (one_to_two, three_to_two) = (pair_to(0, 2), pair_to(2, 2));
    let mut starts = starts.into_iter().map(|(state, _)| state);
    let (first, second) = (starts.next().unwrap(), starts.next().unwrap());
    assert_eq!(
        first
            .round2(
                &[at(2, &two), at(3, &three)],
                &[at(2, &two_to_one), at(3, &three_to_one)],
            )
            .unwrap_err(),
        DkgError::OldCommitmentsMismatch
    );
    let current_params = DkgParams::<G>::refresh(&commitments, n, SESSION).unwrap();
    assert_eq!(
        PedersenCommitments::from_bytes(&one, &current_params).unwrap_err(),
        DkgError::OldCommitmentsMismatch
    );
    // A sharing of other sizes (as before a resharing changed t and n):
    // the commitments' mismatch is named, not the sizes'.
    let (shares, wider) = dealt::<G>(3, 5);
    let wider_params = DkgParams::<G>::refresh(&wider, 5, SESSION).unwrap();
    let share = shares.into_iter().next().unwrap();
    let (_, messages) = DkgParty::start_refresh(wider_params, share, &wider, &mut rng()).unwrap();
    assert_eq!(
        PedersenCommitments::from_bytes(&messages.commitments.to_bytes(), &current_params)
            .unwrap_err(),
        DkgError::OldCommitmentsMismatch
    );
    assert!(
        second
            .round2(
                &[at(1, &one), at(3, &three)],
                &[at(1, &one_to_two), at(3, &three_to_two)],
            )
            .is_ok(),
        "one stale dealer (fewer than t) is disqualified, not an error"
    );
}

/// A message as received from party `from`.
fn at(from: PartyId, bytes: &[u8]) -> Received<'_> {
    Received { from, bytes }
}
