//! Resharing a DKG's key to another set of parties (docs/PROTOCOLS.md §10,
//! "Resharing"): (3, 5) → (2, 3) and (2, 3) → (5, 9) on ristretto255,
//! P-256 and BLS12-381 keep the key and every threshold OPRF output, and
//! old shares do not combine with new ones; every cheating old party is
//! named alike by every new one; malformed or misplaced messages are
//! refused. Every test name starts with `dkg_reshare_`.

mod support;

use oblivex::group::{Bls12381G1, PrimeOrderGroup, Ristretto255, P256};
use oblivex::threshold::dkg::{
    Complaints, DkgError, DkgOutput, DkgParams, DkgParty, Offence, PedersenCommitments,
    Round4State, SharePair,
};
use oblivex::threshold::{Commitments, KeyShare, PartyId};
use support::dkg::{
    all, blame, broadcast, check_agreement, check_oprf, corrupt_share, dealt, deliver,
    feldman_rounds, honest, others, random_element_bytes, random_scalar_bytes, received,
    reconstruct, refresh_header_len, rng, run, scalar_bytes, threshold_oprf, with_entries,
    Outgoing, Step, Tamper, SESSION,
};

const RESHARE_SESSION: [u8; 32] = [0x3c; 32];

/// The header of a resharing's messages: a refresh's (a key
/// generation's and the old commitments' digest) and the old set's t and
/// n.
fn reshare_header<G: PrimeOrderGroup>() -> usize {
    refresh_header_len::<G>() + 4
}

/// Reshares the old parties' outputs (ids 1..=n, in order) to t′ of n′
/// new parties with `tamper`; every new party's output. The old parties
/// deal, the new ones receive: two id spaces, so a dealer's broadcast goes
/// to every new party and a new party's complaints to every old party and
/// every other new one.
fn run_reshare<G: PrimeOrderGroup>(
    old: Vec<DkgOutput<G>>,
    t: usize,
    n: usize,
    tamper: Tamper<'_>,
) -> Vec<Result<DkgOutput<G>, DkgError>> {
    let old_commitments = old[0].commitments().clone();
    let old_n = old.len();
    let old_t = old_commitments.threshold();
    // One session per resharing of a test (never reused across its runs).
    let mut session = RESHARE_SESSION;
    session[..4].copy_from_slice(&[old_t as u8, old_n as u8, t as u8, n as u8]);
    let params = DkgParams::<G>::reshare(&old_commitments, old_n, t, n, session).unwrap();
    let receivers = all(n);
    let peers = |from: PartyId| others(n, from);
    // Round 1: the old parties deal.
    let mut dealers = Vec::new();
    let mut commitments = Outgoing::new();
    let mut shares = Outgoing::new();
    for output in old {
        let (share, _) = output.into_parts();
        let id = share.id();
        let (state, messages) =
            DkgParty::start_reshare_dealer(params, share, &old_commitments, &mut rng()).unwrap();
        dealers.push(state);
        commitments.extend(broadcast(&receivers, id, &messages.commitments.to_bytes()));
        for pair in &messages.shares {
            shares.push((id, pair.recipient(), pair.to_bytes().to_vec()));
        }
    }
    // Round 2: the new parties check and complain.
    let (receiving, complaints): (Vec<_>, Vec<_>) = receivers
        .iter()
        .map(|&me| {
            let state = DkgParty::start_reshare_receiver(params, me, &old_commitments).unwrap();
            let c = deliver(Step::Commitments, me, &commitments, tamper);
            let s = deliver(Step::Share, me, &shares, tamper);
            let (state, message) = state.round2(&received(&c), &received(&s)).unwrap();
            (state, (me, message.to_bytes()))
        })
        .unzip();
    let to_receivers: Outgoing = complaints
        .iter()
        .flat_map(|(from, bytes)| broadcast(&peers(*from), *from, bytes))
        .collect();
    let to_dealers: Outgoing = complaints
        .iter()
        .flat_map(|(from, bytes)| broadcast(&all(old_n), *from, bytes))
        .collect();
    // Rounds 3 and 4: the old parties answer, then publish their Feldman
    // commitments; the new parties fix QUAL.
    let mut justifications = Outgoing::new();
    let mut feldman = Outgoing::new();
    for (index, state) in dealers.into_iter().enumerate() {
        let me = index as PartyId + 1;
        let inbox = deliver(Step::Complaints, me, &to_dealers, tamper);
        let (state, message) = state.round3(&received(&inbox)).unwrap();
        justifications.extend(broadcast(&receivers, me, &message.to_bytes()));
        feldman.extend(broadcast(&receivers, me, &state.round4().to_bytes()));
    }
    let states: Vec<Round4State<G>> = receiving
        .into_iter()
        .enumerate()
        .map(|(index, state)| {
            let me = index as PartyId + 1;
            let c = deliver(Step::Complaints, me, &to_receivers, tamper);
            let j = deliver(Step::Justifications, me, &justifications, tamper);
            state.round4(&received(&c), &received(&j)).unwrap()
        })
        .collect();
    feldman_rounds(states, &feldman, &peers, tamper)
}

/// A copy of a share (tests only: shares are not `Clone`).
fn copy<G: PrimeOrderGroup>(share: &KeyShare<G>) -> KeyShare<G> {
    KeyShare::from_bytes(&share.to_bytes()).unwrap()
}

/// A key generation of t of n, then its resharing to t′ of n′ with
/// `tamper` (new parties `cheaters` are not checked); returns the new
/// outputs after checking that the new parties agree, the key, `A_0` and
/// the threshold OPRF's outputs stayed, and no set mixing old and new
/// shares rebuilds the key.
fn reshare_on<G: PrimeOrderGroup>(
    (old_t, old_n): (usize, usize),
    (t, n): (usize, usize),
    cheaters: &[PartyId],
    tamper: Tamper<'_>,
) -> Vec<Result<DkgOutput<G>, DkgError>> {
    let first = run::<G>(old_t, old_n, &honest);
    let key = check_agreement::<G>(&first, &all(old_n));
    let before = threshold_oprf::<G>(&first, &all(old_n)[old_n - old_t..]);
    let first: Vec<DkgOutput<G>> = first.into_iter().map(Result::unwrap).collect();
    let old_commitments = first[0].commitments().clone();
    let old: Vec<KeyShare<G>> = first.iter().map(|o| copy(o.share())).collect();
    let reshared = run_reshare::<G>(first, t, n, tamper);
    let honest: Vec<PartyId> = all(n)
        .into_iter()
        .filter(|id| !cheaters.contains(id))
        .collect();
    let new_key = check_agreement::<G>(&reshared, &honest);
    assert_eq!(scalar_bytes::<G>(&new_key), scalar_bytes::<G>(&key));
    let new_commitments = reshared[usize::from(honest[0]) - 1]
        .as_ref()
        .unwrap()
        .commitments();
    assert_eq!(new_commitments.threshold(), t);
    assert_eq!(new_commitments.public_key(), old_commitments.public_key());
    check_oprf::<G>(&reshared, &honest[..t], &key);
    assert_eq!(
        threshold_oprf::<G>(&reshared, &honest[honest.len() - t..]),
        before
    );
    let new: Vec<&KeyShare<G>> = honest
        .iter()
        .map(|&id| reshared[usize::from(id) - 1].as_ref().unwrap().share())
        .collect();
    no_mix_rebuilds(&old, &old_commitments, &new, new_commitments, &key);
    reshared
}

/// No set of t or t′ shares with distinct ids, some old and some new,
/// rebuilds the key; no new share passes the old commitments at its id,
/// nor an old one the new commitments.
fn no_mix_rebuilds<G: PrimeOrderGroup>(
    old: &[KeyShare<G>],
    old_commitments: &Commitments<G>,
    new: &[&KeyShare<G>],
    new_commitments: &Commitments<G>,
    key: &G::Scalar,
) {
    let old_of = |id: PartyId| old.iter().find(|s| s.id() == id);
    let new_of = |id: PartyId| new.iter().copied().find(|s| s.id() == id);
    for share in new {
        assert!(!old_commitments.verify_share(share));
        if let Some(before) = old_of(share.id()) {
            assert!(!new_commitments.verify_share(before));
        }
    }
    let target = G::mul_base(key);
    let mut mixes = 0;
    for size in [old_commitments.threshold(), new_commitments.threshold()] {
        // Ids 1..=size, each id's share taken from the old set where bit
        // `id − 1` of `mask` is set, from the new set otherwise.
        for mask in 1..(1u32 << size) - 1 {
            let chosen: Option<Vec<&KeyShare<G>>> = (1..=size as PartyId)
                .map(|id| {
                    if mask & (1 << (id - 1)) != 0 {
                        old_of(id)
                    } else {
                        new_of(id)
                    }
                })
                .collect();
            let Some(chosen) = chosen else { continue };
            mixes += 1;
            assert_ne!(
                G::mul_base(&reconstruct::<G>(&chosen)),
                target,
                "mask {mask:b}"
            );
        }
    }
    assert!(mixes > 0);
}

const SHRINK: ((usize, usize), (usize, usize)) = ((3, 5), (2, 3));
const GROW: ((usize, usize), (usize, usize)) = ((2, 3), (5, 9));

fn honest_reshares<G: PrimeOrderGroup>() {
    for (old, new) in [SHRINK, GROW] {
        let outputs = reshare_on::<G>(old, new, &[], &honest);
        let first = outputs[0].as_ref().unwrap();
        assert_eq!(first.qualified(), all(old.1).as_slice());
        assert!(first.blame().is_empty() && first.exposed().is_empty());
    }
}

#[test]
fn dkg_reshare_keeps_the_key_ristretto255() {
    honest_reshares::<Ristretto255>();
}

#[test]
fn dkg_reshare_keeps_the_key_p256() {
    honest_reshares::<P256>();
}

#[test]
fn dkg_reshare_keeps_the_key_bls12_381() {
    honest_reshares::<Bls12381G1>();
}

#[test]
fn dkg_reshare_twice_back_to_the_first_size() {
    // (2, 3) → (5, 9) → (2, 3): the second resharing deals from the first
    // one's output, its old set larger than its new one.
    type G = Ristretto255;
    let first = run::<G>(2, 3, &honest);
    let key = check_agreement::<G>(&first, &all(3));
    let first: Vec<DkgOutput<G>> = first.into_iter().map(Result::unwrap).collect();
    let middle: Vec<DkgOutput<G>> = run_reshare::<G>(first, 5, 9, &honest)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let last = run_reshare::<G>(middle, 2, 3, &honest);
    let again = check_agreement::<G>(&last, &all(3));
    assert_eq!(scalar_bytes::<G>(&again), scalar_bytes::<G>(&key));
}

// ------------------------------------------------------------ cheating

fn cheating_cases<G: PrimeOrderGroup>() {
    let header = reshare_header::<G>();
    let other = random_element_bytes::<G>();

    // Old party 2 deals its share of another constant term: its C_0 is
    // not its old share's commitment. Disqualified in round 1, before any
    // new party checks its pairs.
    let outputs = reshare_on::<G>(SHRINK.0, SHRINK.1, &[], &|step, from, _, message| {
        if let (Step::Commitments, 2, Some(bytes)) = (step, from, message) {
            bytes[header..header + G::ELEMENT_LEN].copy_from_slice(&other);
        }
    });
    let output = outputs[0].as_ref().unwrap();
    assert_eq!(output.qualified(), [1, 3, 4, 5]);
    assert_eq!(output.disqualified(), [2]);
    assert_eq!(output.blame(), [blame(2, Offence::WrongConstantTerm)]);

    // A bad share to new party 2, then the same bad pair as justification.
    let bad = std::cell::RefCell::new(Vec::new());
    let outputs = reshare_on::<G>(SHRINK.0, SHRINK.1, &[], &|step, from, to, message| {
        let Some(bytes) = message else { return };
        if step == Step::Share && from == 4 && to == 2 {
            corrupt_share::<G>(bytes, header);
            *bad.borrow_mut() = bytes[header + 2..].to_vec();
        }
        if step == Step::Justifications && from == 4 {
            let mut entry = 2u16.to_be_bytes().to_vec();
            entry.extend_from_slice(&bad.borrow());
            *bytes = with_entries(bytes.clone(), header, 1, &entry);
        }
    });
    let output = outputs[0].as_ref().unwrap();
    assert_eq!(output.disqualified(), [4]);
    assert_eq!(
        output.blame(),
        [blame(4, Offence::WrongJustification { complainer: 2 })]
    );

    // A bad share to new party 1, its complaint left unanswered.
    let outputs = reshare_on::<G>(SHRINK.0, SHRINK.1, &[], &|step, from, to, message| {
        let Some(bytes) = message else { return };
        if step == Step::Share && from == 5 && to == 1 {
            corrupt_share::<G>(bytes, header);
        }
        if step == Step::Justifications && from == 5 {
            *bytes = with_entries(bytes.clone(), header, 0, &[]);
        }
    });
    let output = outputs[0].as_ref().unwrap();
    assert_eq!(output.qualified(), [1, 2, 3, 4]);
    assert_eq!(
        output.blame(),
        [blame(5, Offence::ComplaintUnanswered { complainer: 1 })]
    );

    // A share withheld from new party 3 and the complaint answered: the
    // complaint is refuted in public (new party 3 named), nobody
    // disqualified, party 3 uses the published pair.
    let outputs = reshare_on::<G>(SHRINK.0, SHRINK.1, &[], &|step, from, to, message| {
        if step == Step::Share && from == 1 && to == 3 {
            *message = None;
        }
    });
    let output = outputs[0].as_ref().unwrap();
    assert_eq!(output.qualified(), [1, 2, 3, 4, 5]);
    assert_eq!(
        output.blame(),
        [blame(3, Offence::ComplaintRefuted { dealer: 1 })]
    );

    // A share withheld and the complaint left unanswered.
    let outputs = reshare_on::<G>(GROW.0, GROW.1, &[], &|step, from, to, message| {
        if step == Step::Share && from == 3 && to == 7 {
            *message = None;
        }
        if let (Step::Justifications, 3, Some(bytes)) = (step, from, message.as_mut()) {
            *bytes = with_entries(bytes.clone(), header, 0, &[]);
        }
    });
    let output = outputs[0].as_ref().unwrap();
    assert_eq!(output.qualified(), [1, 2]);
    assert_eq!(
        output.blame(),
        [blame(3, Offence::ComplaintUnanswered { complainer: 7 })]
    );

    // Commitments inconsistent with the pairs (a higher coefficient's
    // replaced): every new party complains, t′ or more.
    let outputs = reshare_on::<G>(GROW.0, GROW.1, &[], &|step, from, _, message| {
        if let (Step::Commitments, 1, Some(bytes)) = (step, from, message) {
            let at = header + 2 * G::ELEMENT_LEN;
            bytes[at..at + G::ELEMENT_LEN].copy_from_slice(&other);
        }
    });
    let output = outputs[0].as_ref().unwrap();
    assert_eq!(output.qualified(), [2, 3]);
    assert_eq!(
        output.blame(),
        [blame(1, Offence::TooManyComplaints { complaints: 9 })]
    );

    // A false complaint by new party 2 against old party 5 (the same
    // number as no new party: the ids are another set's): refuted,
    // recorded, nobody disqualified.
    let outputs = reshare_on::<G>(SHRINK.0, SHRINK.1, &[2], &|step, from, _, message| {
        if let (Step::Complaints, 2, Some(bytes)) = (step, from, message) {
            *bytes = with_entries(bytes.clone(), header, 1, &5u16.to_be_bytes());
        }
    });
    let output = outputs[0].as_ref().unwrap();
    assert_eq!(output.qualified(), [1, 2, 3, 4, 5]);
    assert_eq!(
        output.blame(),
        [blame(2, Offence::ComplaintRefuted { dealer: 5 })]
    );

    // Wrong Feldman values: exposed, rebuilt from the new parties'
    // reveals, the key kept.
    let outputs = reshare_on::<G>(GROW.0, GROW.1, &[], &|step, from, _, message| {
        if let (Step::Feldman, 2, Some(bytes)) = (step, from, message) {
            let at = header + G::ELEMENT_LEN;
            bytes[at..at + G::ELEMENT_LEN].copy_from_slice(&other);
        }
    });
    let output = outputs[0].as_ref().unwrap();
    assert_eq!(output.qualified(), [1, 2, 3]);
    assert_eq!(output.exposed(), [2]);
    assert_eq!(
        output.blame(),
        [blame(2, Offence::FeldmanInconsistent { complainer: 1 })]
    );

    // Feldman values withheld: exposed the same way.
    let outputs = reshare_on::<G>(SHRINK.0, SHRINK.1, &[], &|step, from, _, message| {
        if step == Step::Feldman && from == 3 {
            *message = None;
        }
    });
    let output = outputs[0].as_ref().unwrap();
    assert_eq!(output.exposed(), [3]);
    assert_eq!(
        output.blame(),
        [blame(3, Offence::BroadcastMissing { round: 4 })]
    );

    // A false Feldman complaint by new party 3 (a made-up pair of old
    // party 1's): recorded, ignored.
    let mut entry = 1u16.to_be_bytes().to_vec();
    entry.extend_from_slice(&random_scalar_bytes::<G>());
    entry.extend_from_slice(&random_scalar_bytes::<G>());
    let outputs = reshare_on::<G>(SHRINK.0, SHRINK.1, &[3], &|step, from, _, message| {
        if let (Step::FeldmanComplaints, 3, Some(bytes)) = (step, from, message) {
            *bytes = with_entries(bytes.clone(), header, 1, &entry);
        }
    });
    let output = outputs[0].as_ref().unwrap();
    assert!(output.exposed().is_empty());
    assert_eq!(
        output.blame(),
        [blame(3, Offence::FalseFeldmanComplaint { dealer: 1 })]
    );

    // Two old cheaters at once (t − 1 = 2): a wrong constant term and
    // missing justifications; QUAL keeps exactly t old parties. New party
    // 2's missing complaints are recorded without disqualifying old party
    // 2 (the same number, another set).
    let outputs = reshare_on::<G>(SHRINK.0, SHRINK.1, &[2], &|step, from, _, message| {
        if let (Step::Commitments, 1, Some(bytes)) = (step, from, message.as_mut()) {
            bytes[header..header + G::ELEMENT_LEN].copy_from_slice(&other);
        }
        if step == Step::Justifications && from == 4 {
            *message = None;
        }
        if step == Step::Complaints && from == 2 {
            *message = None;
        }
    });
    let output = outputs[0].as_ref().unwrap();
    assert_eq!(output.qualified(), [2, 3, 5]);
    assert_eq!(output.disqualified(), [1, 4]);
    assert_eq!(
        output.blame(),
        [
            blame(1, Offence::WrongConstantTerm),
            blame(2, Offence::BroadcastMissing { round: 2 }),
            blame(4, Offence::BroadcastMissing { round: 3 }),
        ]
    );
    assert!(!output.blame()[1].offence.by_dealer());
    assert!(output.blame()[0].offence.by_dealer() && output.blame()[2].offence.by_dealer());
}

#[test]
fn dkg_reshare_cheaters_are_named_ristretto255() {
    cheating_cases::<Ristretto255>();
}

#[test]
fn dkg_reshare_cheaters_are_named_p256() {
    cheating_cases::<P256>();
}

#[test]
fn dkg_reshare_cheaters_are_named_bls12_381() {
    cheating_cases::<Bls12381G1>();
}

// ------------------------------------------------------------ refusals

#[test]
fn dkg_reshare_refuses_what_does_not_fit() {
    type G = Ristretto255;
    let (_, three_of_five) = dealt::<G>(3, 5);
    let (_, two_of_three) = dealt::<G>(2, 3);
    for (old, old_n, new) in [
        (&three_of_five, 4, (2, 3)),
        (&two_of_three, 3, (3, 4)),
        (&two_of_three, 3, (2, 1)),
    ] {
        assert_eq!(
            DkgParams::<G>::reshare(old, old_n, new.0, new.1, SESSION).unwrap_err(),
            DkgError::InvalidThreshold,
            "{} of {old_n} to {new:?}",
            old.threshold()
        );
    }
    let keygen = DkgParams::<G>::new(2, 3, SESSION).unwrap();
    let outputs: Vec<DkgOutput<G>> = run::<G>(2, 3, &honest)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let commitments = outputs[0].commitments().clone();
    let params = DkgParams::<G>::reshare(&commitments, 3, 3, 5, SESSION).unwrap();
    assert_eq!((params.old_threshold(), params.old_parties()), (2, 3));
    assert_eq!((params.threshold(), params.parties()), (3, 5));
    let share = |k: usize| copy(outputs[k].share());
    let start = |params: DkgParams<G>, share: KeyShare<G>| {
        DkgParty::start_reshare_dealer(params, share, &commitments, &mut rng()).map(|_| ())
    };
    assert_eq!(start(keygen, share(0)), Err(DkgError::WrongParameters));
    let wider = DkgParams::<G>::reshare(&three_of_five, 5, 2, 3, SESSION).unwrap();
    assert_eq!(
        start(wider, share(0)),
        Err(DkgError::OldCommitmentsMismatch)
    );
    let moved = KeyShare::<G>::new(2, share(0).secret().clone()).unwrap();
    assert_eq!(start(params, moved), Err(DkgError::ShareMismatch));
    let outside = DkgParams::<G>::reshare(&commitments, 2, 3, 5, SESSION);
    assert_eq!(outside.unwrap_err(), DkgError::InvalidThreshold);
    let receiver = |params: DkgParams<G>, me: PartyId| {
        DkgParty::start_reshare_receiver(params, me, &commitments).map(|_| ())
    };
    assert_eq!(receiver(keygen, 1), Err(DkgError::WrongParameters));
    assert_eq!(receiver(wider, 1), Err(DkgError::OldCommitmentsMismatch));
    assert_eq!(receiver(params, 0), Err(DkgError::InvalidPartyId));
    assert_eq!(receiver(params, 6), Err(DkgError::InvalidPartyId));
    assert_eq!(receiver(params, 5), Ok(()));

    // A resharing's messages: refused in a key generation, and with the
    // old set's t or n changed; ids of the other set may repeat the
    // sender's number, and reach up to that set's size.
    let (_, messages) =
        DkgParty::start_reshare_dealer(params, share(2), &commitments, &mut rng()).unwrap();
    let bytes = messages.commitments.to_bytes();
    let header = reshare_header::<G>();
    assert_eq!(bytes.len(), header + 3 * G::ELEMENT_LEN);
    assert!(PedersenCommitments::from_bytes(&bytes, &params).is_ok());
    assert_eq!(
        PedersenCommitments::from_bytes(&bytes, &keygen).unwrap_err(),
        DkgError::WrongKind
    );
    let at = 3 + G::SUITE_ID.len() + 4;
    for (offset, value) in [(1, 3), (3, 4)] {
        let mut changed = bytes.clone();
        changed[at + offset] = value;
        assert_eq!(
            PedersenCommitments::from_bytes(&changed, &params).unwrap_err(),
            DkgError::WrongParameters
        );
    }
    // Old party 3 deals to new parties 1..=5, itself included by number.
    assert_eq!(messages.shares.len(), 5);
    let to_three = messages.shares.iter().find(|s| s.recipient() == 3).unwrap();
    let pair = SharePair::from_bytes(&to_three.to_bytes(), &params).unwrap();
    assert_eq!((pair.sender(), pair.recipient()), (3, 3));
    // Old party 4 does not exist; new party 5 does.
    let mut from_four = bytes.clone();
    from_four[header - 1] = 4;
    assert_eq!(
        PedersenCommitments::from_bytes(&from_four, &params).unwrap_err(),
        DkgError::InvalidPartyId
    );
    // Only old party 3's commitments arrived, and no pair: old parties 1
    // and 2 are disqualified, new party 5 complains against old party 3.
    let receiver_state = DkgParty::start_reshare_receiver(params, 5, &commitments).unwrap();
    let delivered = [oblivex::threshold::dkg::Received {
        from: 3,
        bytes: &bytes,
    }];
    let (next, complaints) = receiver_state.round2(&delivered, &[]).unwrap();
    assert_eq!((complaints.sender(), complaints.accused()), (5, &[3][..]));
    let decoded = Complaints::from_bytes(&complaints.to_bytes(), &params).unwrap();
    assert_eq!(decoded.accused(), [3]);
    let printed = format!("{next:?}");
    assert!(printed.contains("ReceiverRound2State"));
    // A complaint naming old party 4 is refused.
    let mut wide = complaints.to_bytes();
    let last = wide.len() - 1;
    wide[last] = 4;
    assert_eq!(
        Complaints::from_bytes(&wide, &params).unwrap_err(),
        DkgError::InvalidPartyId
    );
}
