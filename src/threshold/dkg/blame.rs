//! What the DKG says about each party that misbehaved, and its result.
//! Every entry follows from broadcast messages only, so every honest party
//! records the same list (docs/PROTOCOLS.md §10). In a resharing an entry
//! names an old party (a dealer) or a new one (a receiver):
//! [`Offence::by_dealer`] says which.

use super::DkgError;
use crate::group::PrimeOrderGroup;
use crate::threshold::{Commitments, KeyShare, PartyId};

/// What a party did. [`Offence::disqualifies`] says which offences remove
/// the party's polynomial from the key (the qualified set QUAL excludes
/// it); the others are recorded only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Offence {
    /// Its broadcast of round `round` did not arrive. Disqualifies in
    /// rounds 1 to 3 (commitments, complaints, justifications), except a
    /// new party's complaints in a resharing (it deals nothing: its
    /// complaints count as none).
    BroadcastMissing {
        /// The round (1..=6).
        round: u8,
    },
    /// Its broadcast of round `round` did not decode (the error says why).
    /// Disqualifies as [`Offence::BroadcastMissing`] does.
    BroadcastInvalid {
        /// The round (1..=6).
        round: u8,
        /// Why it was refused.
        error: DkgError,
    },
    /// At least t parties complained against it: at least one of them is
    /// honest, so it dealt a bad share (or none) to an honest party, and
    /// answering t complaints would publish its polynomial. Disqualifies.
    TooManyComplaints {
        /// How many complained.
        complaints: usize,
    },
    /// It did not answer `complainer`'s complaint. Disqualifies.
    ComplaintUnanswered {
        /// The complaining party.
        complainer: PartyId,
    },
    /// Its answer to `complainer`'s complaint fails the Pedersen check
    /// against its own commitments. Disqualifies.
    WrongJustification {
        /// The complaining party.
        complainer: PartyId,
    },
    /// Its complaint against `dealer` was answered by a valid
    /// justification. Not disqualifying (GJKR): either this party
    /// complained falsely or the dealer sent it a bad share and then
    /// published a good one; nobody else can tell which. The complainer
    /// uses the published pair.
    ComplaintRefuted {
        /// The dealer whose justification refuted it.
        dealer: PartyId,
    },
    /// A qualified dealer whose Feldman commitments fail the share of
    /// `complainer` (the smallest such id), who proved it with a pair that
    /// passes the Pedersen check. Stays in QUAL, *exposed*: its polynomial
    /// is rebuilt from the revealed shares, so its part of the key stays
    /// the one it committed to in round 1. (A qualified dealer whose
    /// Feldman broadcast is missing or invalid, round 4, is exposed the
    /// same way.)
    FeldmanInconsistent {
        /// The first complainer whose evidence convicted it.
        complainer: PartyId,
    },
    /// Its Feldman complaint against `dealer` carried a pair that fails
    /// the Pedersen check or passes the Feldman check: ignored, recorded.
    FalseFeldmanComplaint {
        /// The dealer it accused.
        dealer: PartyId,
    },
    /// It revealed a pair of `dealer`'s that fails the Pedersen check:
    /// ignored, recorded.
    WrongRevealedShare {
        /// The exposed dealer.
        dealer: PartyId,
    },
    /// In a resharing, an old party whose round-1 commitment to its
    /// polynomial's constant term is not the commitment to its old share
    /// (`C_0 ≠ Σ_k i^k·A_k` over the old commitments `A_k`): it dealt
    /// something else than its share. Disqualifies.
    WrongConstantTerm,
}

impl Offence {
    /// Whether the offence removes the party from the qualified set.
    pub fn disqualifies(&self) -> bool {
        match self {
            Offence::BroadcastMissing { round } | Offence::BroadcastInvalid { round, .. } => {
                *round <= 3
            }
            Offence::TooManyComplaints { .. }
            | Offence::ComplaintUnanswered { .. }
            | Offence::WrongJustification { .. }
            | Offence::WrongConstantTerm => true,
            Offence::ComplaintRefuted { .. }
            | Offence::FeldmanInconsistent { .. }
            | Offence::FalseFeldmanComplaint { .. }
            | Offence::WrongRevealedShare { .. } => false,
        }
    }

    /// Whether the offence is a dealer's (its commitments, pairs,
    /// justifications: rounds 1, 3 and 4) rather than a receiver's (its
    /// complaints and reveals: rounds 2, 5 and 6). In a resharing the
    /// [`Blame::party`] of a dealer's offence is an old party's id, and of
    /// a receiver's a new party's; elsewhere every party is both.
    pub fn by_dealer(&self) -> bool {
        match self {
            Offence::BroadcastMissing { round } | Offence::BroadcastInvalid { round, .. } => {
                matches!(round, 1 | 3 | 4)
            }
            Offence::TooManyComplaints { .. }
            | Offence::ComplaintUnanswered { .. }
            | Offence::WrongJustification { .. }
            | Offence::FeldmanInconsistent { .. }
            | Offence::WrongConstantTerm => true,
            Offence::ComplaintRefuted { .. }
            | Offence::FalseFeldmanComplaint { .. }
            | Offence::WrongRevealedShare { .. } => false,
        }
    }
}

/// One entry of the blame list: who, and what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blame {
    /// The party named.
    pub party: PartyId,
    /// What it did.
    pub offence: Offence,
}

/// A finished DKG at one party: exactly what [`crate::threshold::deal`]
/// gives a server (its [`KeyShare`] and the joint [`Commitments`], whose
/// `A_0` is the public key), plus the qualified set and the blame list,
/// both the same at every honest party. In a resharing the share and
/// commitments are the new set's, and the qualified, exposed and
/// disqualified ids are old parties' (the dealers').
pub struct DkgOutput<G: PrimeOrderGroup> {
    pub(super) share: KeyShare<G>,
    pub(super) commitments: Commitments<G>,
    pub(super) qualified: Vec<PartyId>,
    pub(super) blame: Vec<Blame>,
    pub(super) exposed: Vec<PartyId>,
    pub(super) disqualified: Vec<PartyId>,
}

impl<G: PrimeOrderGroup> core::fmt::Debug for DkgOutput<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DkgOutput")
            .field("share", &self.share)
            .field("commitments", &self.commitments)
            .field("qualified", &self.qualified)
            .field("blame", &self.blame)
            .field("exposed", &self.exposed)
            .finish()
    }
}

impl<G: PrimeOrderGroup> DkgOutput<G> {
    /// This party's key share (secret; wiped on drop).
    pub fn share(&self) -> &KeyShare<G> {
        &self.share
    }

    /// The joint Feldman commitments (public); `public_key()` is the key.
    pub fn commitments(&self) -> &Commitments<G> {
        &self.commitments
    }

    /// The shared key's public key `A_0`.
    pub fn public_key(&self) -> &G::Element {
        self.commitments.public_key()
    }

    /// QUAL: the dealers whose polynomials make up the key, increasing.
    pub fn qualified(&self) -> &[PartyId] {
        &self.qualified
    }

    /// The blame list, by party then by the order of the rounds.
    pub fn blame(&self) -> &[Blame] {
        &self.blame
    }

    /// The qualified dealers whose polynomials were rebuilt in public
    /// (Feldman commitments missing, invalid or shown wrong), increasing.
    pub fn exposed(&self) -> &[PartyId] {
        &self.exposed
    }

    /// The dealers disqualified (not in QUAL), increasing.
    pub fn disqualified(&self) -> Vec<PartyId> {
        self.disqualified.clone()
    }

    /// The share and the commitments, for the threshold OPRF, BLS and
    /// ElGamal.
    pub fn into_parts(self) -> (KeyShare<G>, Commitments<G>) {
        (self.share, self.commitments)
    }
}
