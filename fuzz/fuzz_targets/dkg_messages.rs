//! The DKG's message decoders (docs/PROTOCOLS.md §10) on ristretto255,
//! P-256 and BLS12-381, for each purpose (a key generation and a refresh
//! of 2 of 3, a resharing from 2 of 3 to 3 of 5) and each of the seven
//! kinds. The first input byte picks group, purpose and kind; the rest is
//! the message. A decoder must never panic; whatever it accepts must
//! re-encode to exactly the input (one encoding per message), name a
//! sender and ids inside their sets, list ids strictly increasing (and,
//! where senders and listed parties are one set, never the sender), and
//! be refused under the two other purposes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use oblivex::group::{Bls12381G1, PrimeOrderGroup, Ristretto255, P256};
use oblivex::threshold::dkg::{
    Complaints, DkgError, DkgParams, FeldmanCommitments, FeldmanComplaints, Justifications,
    PedersenCommitments, RevealedShares, SharePair,
};
use oblivex::threshold::PartyId;
use oblivex_fuzz::dkg::{old_sharing, SESSION};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let (purpose, kind) = (usize::from(selector / 3 % 3), selector / 9 % 7);
    match selector % 3 {
        0 => decode::<Ristretto255>(purpose, kind, bytes),
        1 => decode::<P256>(purpose, kind, bytes),
        _ => decode::<Bls12381G1>(purpose, kind, bytes),
    }
});

/// The three runs' parameters: key generation, refresh, resharing (the
/// last two from the seeds' old sharing).
fn runs<G: PrimeOrderGroup>() -> [DkgParams<G>; 3] {
    let (_, old) = old_sharing::<G>();
    [
        DkgParams::new(2, 3, SESSION).expect("valid"),
        DkgParams::refresh(&old, 3, SESSION).expect("valid"),
        DkgParams::reshare(&old, 3, 3, 5, SESSION).expect("valid"),
    ]
}

/// What a decoded message says about its parties: the sender, and the ids
/// it lists (the recipient of a pair).
struct Parties {
    sender: PartyId,
    listed: Vec<PartyId>,
}

/// Decodes `bytes` as message kind `kind` under `params`; on success
/// checks that it re-encodes to `bytes` and returns its parties.
fn accept<G: PrimeOrderGroup>(kind: u8, bytes: &[u8], params: &DkgParams<G>) -> Option<Parties> {
    fn check(encoded: &[u8], bytes: &[u8]) {
        assert_eq!(encoded, bytes, "one encoding per message");
    }
    let ids = |pairs: &[oblivex::threshold::dkg::RevealedPair<G>]| {
        pairs.iter().map(|pair| pair.party).collect::<Vec<_>>()
    };
    let decoded: Result<Parties, DkgError> = match kind {
        0 => PedersenCommitments::from_bytes(bytes, params).map(|m| {
            check(&m.to_bytes(), bytes);
            assert_eq!(m.commitments().len(), expected_commitments(params));
            Parties {
                sender: m.sender(),
                listed: Vec::new(),
            }
        }),
        1 => SharePair::from_bytes(bytes, params).map(|m| {
            check(&m.to_bytes(), bytes);
            Parties {
                sender: m.sender(),
                listed: vec![m.recipient()],
            }
        }),
        2 => Complaints::from_bytes(bytes, params).map(|m| {
            check(&m.to_bytes(), bytes);
            Parties {
                sender: m.sender(),
                listed: m.accused().to_vec(),
            }
        }),
        3 => Justifications::from_bytes(bytes, params).map(|m| {
            check(&m.to_bytes(), bytes);
            Parties {
                sender: m.sender(),
                listed: ids(m.pairs()),
            }
        }),
        4 => FeldmanCommitments::from_bytes(bytes, params).map(|m| {
            check(&m.to_bytes(), bytes);
            assert_eq!(m.commitments().len(), expected_commitments(params));
            Parties {
                sender: m.sender(),
                listed: Vec::new(),
            }
        }),
        5 => FeldmanComplaints::from_bytes(bytes, params).map(|m| {
            check(&m.to_bytes(), bytes);
            Parties {
                sender: m.sender(),
                listed: ids(m.pairs()),
            }
        }),
        _ => RevealedShares::from_bytes(bytes, params).map(|m| {
            check(&m.to_bytes(), bytes);
            Parties {
                sender: m.sender(),
                listed: ids(m.pairs()),
            }
        }),
    };
    decoded.ok()
}

/// `t` commitments, `t − 1` in a refresh.
fn expected_commitments<G: PrimeOrderGroup>(params: &DkgParams<G>) -> usize {
    match params.purpose() {
        oblivex::threshold::dkg::Purpose::Refresh => params.threshold() - 1,
        _ => params.threshold(),
    }
}

fn decode<G: PrimeOrderGroup>(purpose: usize, kind: u8, bytes: &[u8]) {
    let runs = runs::<G>();
    let params = &runs[purpose];
    let Some(parties) = accept(kind, bytes, params) else {
        return;
    };
    // Dealers send kinds 0, 1, 3 and 4; a pair names its recipient and a
    // justification its complainers, the others list dealers. In a
    // resharing the dealers are the old set (1..=3), the receivers the new
    // one (1..=5); elsewhere both are 1..=n.
    let old = params.old_parties() as PartyId;
    let new = params.parties() as PartyId;
    let sender_set = if matches!(kind, 0 | 1 | 3 | 4) {
        old
    } else {
        new
    };
    let listed_set = if matches!(kind, 1 | 3) { new } else { old };
    assert!((1..=sender_set).contains(&parties.sender));
    assert!(parties
        .listed
        .iter()
        .all(|id| (1..=listed_set).contains(id)));
    assert!(parties.listed.windows(2).all(|pair| pair[0] < pair[1]));
    if purpose != 2 {
        assert!(!parties.listed.contains(&parties.sender));
    }
    for (other, other_params) in runs.iter().enumerate() {
        if other != purpose {
            assert!(
                accept(kind, bytes, other_params).is_none(),
                "a message of one purpose is refused by the others"
            );
        }
    }
}
