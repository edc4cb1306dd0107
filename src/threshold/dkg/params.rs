//! A run's public parameters (threshold, party count, session id) and the
//! second Pedersen generator `H`.

use core::marker::PhantomData;

use super::DkgError;
use crate::group::PrimeOrderGroup;
use crate::threshold::{check_threshold, PartyId};

/// Bytes of a session id.
/// cbindgen:ignore
pub const SESSION_ID_LEN: usize = 32;

/// The domain-separation tag of the second Pedersen generator
/// `H = hash_to_group(suite id, DST)` (docs/PROTOCOLS.md §10). Nobody knows
/// `log_B H`: it is the output of the suite's hash-to-group on a fixed,
/// public input, so the Pedersen commitments bind.
pub const PEDERSEN_GENERATOR_DST: &[u8] = b"oblivex-DKG-v1-Pedersen-generator";

/// What a run makes: a new key, or new shares of a key the parties
/// already share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A new key (each dealer's polynomial has a random constant term).
    KeyGeneration,
    /// New shares of the same key (each dealer's polynomials have constant
    /// term zero, and the parties add what they receive to their old
    /// shares): the public key and every output stay, old shares stop
    /// combining with new ones.
    Refresh,
}

/// What every party of one DKG run agrees on before it starts: the
/// threshold t (t shares reconstruct the key, polynomials have degree
/// t − 1), the number of parties n (ids 1..=n), and a session id that the
/// parties choose together and never reuse (every message carries it, so
/// a message of another run is refused). Public.
pub struct DkgParams<G: PrimeOrderGroup> {
    threshold: u16,
    parties: u16,
    session: [u8; SESSION_ID_LEN],
    purpose: Purpose,
    group: PhantomData<fn() -> G>,
}

impl<G: PrimeOrderGroup> Clone for DkgParams<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: PrimeOrderGroup> Copy for DkgParams<G> {}

impl<G: PrimeOrderGroup> PartialEq for DkgParams<G> {
    fn eq(&self, other: &Self) -> bool {
        (self.threshold, self.parties, self.session, self.purpose)
            == (other.threshold, other.parties, other.session, other.purpose)
    }
}

impl<G: PrimeOrderGroup> core::fmt::Debug for DkgParams<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DkgParams")
            .field("group", &G::SUITE_ID)
            .field("threshold", &self.threshold)
            .field("parties", &self.parties)
            .field("purpose", &self.purpose)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> DkgParams<G> {
    /// Parameters for a new key, t of n. [`DkgError::InvalidThreshold`] unless
    /// `1 <= t`, `2 <= n <= MAX_PARTIES` and `n >= 2t − 1`: GJKR's
    /// guarantees need the at most t − 1 corrupted parties to be a
    /// minority, so that the honest ones alone are at least t.
    pub fn new(
        threshold: usize,
        parties: usize,
        session: [u8; SESSION_ID_LEN],
    ) -> Result<Self, DkgError> {
        Self::with_purpose(threshold, parties, session, Purpose::KeyGeneration)
    }

    /// Parameters for a refresh of a t-of-n key (docs/PROTOCOLS.md §10,
    /// "Refresh"): as [`Self::new`], and [`DkgError::InvalidThreshold`]
    /// for t = 1 too (every share is then the key itself: there is nothing
    /// to refresh).
    pub fn refresh(
        threshold: usize,
        parties: usize,
        session: [u8; SESSION_ID_LEN],
    ) -> Result<Self, DkgError> {
        if threshold < 2 {
            return Err(DkgError::InvalidThreshold);
        }
        Self::with_purpose(threshold, parties, session, Purpose::Refresh)
    }

    fn with_purpose(
        threshold: usize,
        parties: usize,
        session: [u8; SESSION_ID_LEN],
        purpose: Purpose,
    ) -> Result<Self, DkgError> {
        check_threshold(threshold, parties).map_err(|_| DkgError::InvalidThreshold)?;
        if parties < 2 || parties < 2 * threshold - 1 {
            return Err(DkgError::InvalidThreshold);
        }
        Ok(DkgParams {
            threshold: threshold as u16,
            parties: parties as u16,
            session,
            purpose,
            group: PhantomData,
        })
    }

    /// The threshold t.
    pub fn threshold(&self) -> usize {
        usize::from(self.threshold)
    }

    /// The number of parties n.
    pub fn parties(&self) -> usize {
        usize::from(self.parties)
    }

    /// The session id.
    pub fn session(&self) -> &[u8; SESSION_ID_LEN] {
        &self.session
    }

    /// What the run makes.
    pub fn purpose(&self) -> Purpose {
        self.purpose
    }

    /// The index of the first coefficient a dealer commits to: 0, or 1
    /// for a refresh, whose constant terms are zero by construction (their
    /// commitments, the identity, are neither sent nor accepted).
    pub(super) fn first_coefficient(&self) -> usize {
        match self.purpose {
            Purpose::KeyGeneration => 0,
            Purpose::Refresh => 1,
        }
    }

    /// How many commitments each dealer sends: `t`, or `t − 1` for a
    /// refresh.
    pub(super) fn committed(&self) -> usize {
        self.threshold() - self.first_coefficient()
    }

    /// The party ids 1..=n.
    pub(super) fn ids(&self) -> impl Iterator<Item = PartyId> {
        1..=self.parties
    }

    /// [`DkgError::InvalidPartyId`] unless `id` is in 1..=n.
    pub(super) fn check_id(&self, id: PartyId) -> Result<(), DkgError> {
        if id == 0 || id > self.parties {
            return Err(DkgError::InvalidPartyId);
        }
        Ok(())
    }
}

/// The second Pedersen generator `H` of the suite.
pub(super) fn pedersen_generator<G: PrimeOrderGroup>() -> G::Element {
    G::hash_to_group(&[G::SUITE_ID.as_bytes()], PEDERSEN_GENERATOR_DST)
}
