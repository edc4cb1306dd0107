//! A run's public parameters (threshold, party count, session id) and the
//! second Pedersen generator `H`.

use core::marker::PhantomData;

use sha2::{Digest, Sha256};

use super::DkgError;
use crate::group::PrimeOrderGroup;
use crate::threshold::{check_threshold, Commitments, PartyId};

/// Bytes of a session id.
/// cbindgen:ignore
pub const SESSION_ID_LEN: usize = 32;

/// The domain-separation tag of the second Pedersen generator
/// `H = hash_to_group(suite id, DST)` (docs/PROTOCOLS.md §10). Nobody knows
/// `log_B H`: it is the output of the suite's hash-to-group on a fixed,
/// public input, so the Pedersen commitments bind.
pub const PEDERSEN_GENERATOR_DST: &[u8] = b"oblivex-DKG-v1-Pedersen-generator";

/// Bytes of the digest of the old commitments a refresh or resharing
/// header carries.
pub(super) const OLD_COMMITMENTS_DIGEST_LEN: usize = 32;

/// The domain-separation prefix of that digest (docs/PROTOCOLS.md §10).
const OLD_COMMITMENTS_DST: &[u8] = b"oblivex-DKG-v2-old-commitments";

/// What a run makes: a new key, new shares of a key the parties already
/// share, or a sharing of that key among another set of parties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A new key (each dealer's polynomial has a random constant term).
    KeyGeneration,
    /// New shares of the same key (each dealer's polynomials have constant
    /// term zero, and the parties add what they receive to their old
    /// shares): the public key and every output stay, old shares stop
    /// combining with new ones.
    Refresh,
    /// A t′-of-n′ sharing, among new parties, of the key an old t-of-n set
    /// shares (docs/PROTOCOLS.md §10, "Resharing"): each old party deals
    /// its own share, the new shares are the Lagrange combinations of the
    /// qualified dealings. The public key and every output stay.
    Reshare,
}

/// The two sets a party id can name. In a key generation or refresh they
/// are one set (every party deals and receives, ids 1..=n); in a resharing
/// the dealers are the old parties (ids 1..=n) and the receivers the new
/// ones (ids 1..=n′), two id spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// Deals a polynomial: sends commitments, share pairs, justifications.
    Dealer,
    /// Receives share pairs: sends complaints and reveals, ends with a share.
    Receiver,
}

/// What every party of one DKG run agrees on before it starts: the
/// threshold t (t shares reconstruct the key, polynomials have degree
/// t − 1), the number of parties n (ids 1..=n), and a session id that the
/// parties choose together and never reuse (every message carries it, so
/// a message of another run is refused); in a resharing also the old
/// set's threshold and party count. Public.
pub struct DkgParams<G: PrimeOrderGroup> {
    threshold: u16,
    parties: u16,
    /// The dealers' set: the old one in a resharing, else the same as
    /// `threshold` and `parties`.
    old_threshold: u16,
    old_parties: u16,
    session: [u8; SESSION_ID_LEN],
    purpose: Purpose,
    /// In a refresh or resharing, the digest of the old commitments every
    /// party starts from (every message's header carries it).
    old_commitments: Option<[u8; OLD_COMMITMENTS_DIGEST_LEN]>,
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
        (
            self.threshold,
            self.parties,
            self.old_threshold,
            self.old_parties,
            self.session,
            self.purpose,
            self.old_commitments,
        ) == (
            other.threshold,
            other.parties,
            other.old_threshold,
            other.old_parties,
            other.session,
            other.purpose,
            other.old_commitments,
        )
    }
}

impl<G: PrimeOrderGroup> core::fmt::Debug for DkgParams<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DkgParams")
            .field("group", &G::SUITE_ID)
            .field("threshold", &self.threshold)
            .field("parties", &self.parties)
            .field("old_threshold", &self.old_threshold)
            .field("old_parties", &self.old_parties)
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

    /// Parameters for a refresh (docs/PROTOCOLS.md §10, "Refresh") of the
    /// t-of-n key that `old_commitments` commit to (t is their number):
    /// every message names them by digest, so a party started from other
    /// ones is refused with [`DkgError::OldCommitmentsMismatch`]. As
    /// [`Self::new`], and [`DkgError::InvalidThreshold`] for t = 1 too
    /// (every share is then the key itself: there is nothing to refresh).
    pub fn refresh(
        old_commitments: &Commitments<G>,
        parties: usize,
        session: [u8; SESSION_ID_LEN],
    ) -> Result<Self, DkgError> {
        let threshold = old_commitments.threshold();
        if threshold < 2 {
            return Err(DkgError::InvalidThreshold);
        }
        Ok(DkgParams {
            old_commitments: Some(digest_of(old_commitments)),
            ..Self::with_purpose(threshold, parties, session, Purpose::Refresh)?
        })
    }

    /// Parameters for resharing the key that `old_commitments` commit to,
    /// shared by an old t-of-`old_parties` set (t is their number), to a
    /// new `threshold`-of-`parties` set (docs/PROTOCOLS.md §10,
    /// "Resharing"); old and new parties are numbered apart (old 1..=n,
    /// new 1..=n′), and one party may be in both. Every message names the
    /// old commitments by digest ([`DkgError::OldCommitmentsMismatch`] for
    /// a party started from other ones). [`DkgError::InvalidThreshold`]
    /// unless both pairs satisfy [`Self::new`]'s conditions: at most t − 1
    /// old and t′ − 1 new parties are corrupted, so at least t old dealers
    /// stay qualified and the honest new parties are at least t′.
    pub fn reshare(
        old_commitments: &Commitments<G>,
        old_parties: usize,
        threshold: usize,
        parties: usize,
        session: [u8; SESSION_ID_LEN],
    ) -> Result<Self, DkgError> {
        let old_threshold = old_commitments.threshold();
        let old = Self::with_purpose(old_threshold, old_parties, session, Purpose::Reshare)?;
        let new = Self::with_purpose(threshold, parties, session, Purpose::Reshare)?;
        Ok(DkgParams {
            old_threshold: old.threshold,
            old_parties: old.parties,
            old_commitments: Some(digest_of(old_commitments)),
            ..new
        })
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
            old_threshold: threshold as u16,
            old_parties: parties as u16,
            session,
            purpose,
            old_commitments: None,
            group: PhantomData,
        })
    }

    /// The threshold t of the sharing the run makes (t′ in a resharing).
    pub fn threshold(&self) -> usize {
        usize::from(self.threshold)
    }

    /// The number n of parties that end with a share (n′ in a resharing).
    pub fn parties(&self) -> usize {
        usize::from(self.parties)
    }

    /// The old set's threshold in a resharing; [`Self::threshold`]
    /// otherwise.
    pub fn old_threshold(&self) -> usize {
        usize::from(self.old_threshold)
    }

    /// The old set's party count (the dealers) in a resharing;
    /// [`Self::parties`] otherwise.
    pub fn old_parties(&self) -> usize {
        usize::from(self.old_parties)
    }

    /// The session id.
    pub fn session(&self) -> &[u8; SESSION_ID_LEN] {
        &self.session
    }

    /// What the run makes.
    pub fn purpose(&self) -> Purpose {
        self.purpose
    }

    /// The digest of the old commitments in a refresh or resharing (every
    /// message's header carries it); none in a key generation.
    pub(super) fn old_commitments_digest(&self) -> Option<&[u8; OLD_COMMITMENTS_DIGEST_LEN]> {
        self.old_commitments.as_ref()
    }

    /// Checks that a party of a run of `purpose` starts from the old
    /// commitments these parameters were made with:
    /// [`DkgError::WrongParameters`] for parameters of another purpose,
    /// [`DkgError::OldCommitmentsMismatch`] for other commitments.
    pub(super) fn check_start(
        &self,
        purpose: Purpose,
        old_commitments: &Commitments<G>,
    ) -> Result<(), DkgError> {
        if self.purpose != purpose {
            return Err(DkgError::WrongParameters);
        }
        if self.old_commitments != Some(digest_of(old_commitments)) {
            return Err(DkgError::OldCommitmentsMismatch);
        }
        Ok(())
    }

    /// The index of the first coefficient a dealer commits to: 0, or 1
    /// for a refresh, whose constant terms are zero by construction (their
    /// commitments, the identity, are neither sent nor accepted).
    pub(super) fn first_coefficient(&self) -> usize {
        match self.purpose {
            Purpose::KeyGeneration | Purpose::Reshare => 0,
            Purpose::Refresh => 1,
        }
    }

    /// Whether dealers and receivers are one set (every run but a
    /// resharing).
    pub(super) fn one_set(&self) -> bool {
        self.purpose != Purpose::Reshare
    }

    /// How many dealers must stay qualified: one, or the old threshold t
    /// in a resharing (the Lagrange combination needs t old shares).
    pub(super) fn dealers_needed(&self) -> usize {
        match self.purpose {
            Purpose::KeyGeneration | Purpose::Refresh => 1,
            Purpose::Reshare => self.old_threshold(),
        }
    }

    /// How many parties hold `role`.
    pub(super) fn count(&self, role: Role) -> usize {
        match role {
            Role::Dealer => self.old_parties(),
            Role::Receiver => self.parties(),
        }
    }

    /// The threshold of the set holding `role`: at most one fewer of its
    /// parties are corrupted.
    pub(super) fn threshold_of(&self, role: Role) -> usize {
        match role {
            Role::Dealer => self.old_threshold(),
            Role::Receiver => self.threshold(),
        }
    }

    /// How many commitments each dealer sends: `t`, or `t − 1` for a
    /// refresh.
    pub(super) fn committed(&self) -> usize {
        self.threshold() - self.first_coefficient()
    }

    /// The ids of the parties holding `role`, 1..=n (or 1..=n′).
    pub(super) fn ids(&self, role: Role) -> impl Iterator<Item = PartyId> {
        1..=self.count(role) as PartyId
    }

    /// [`DkgError::InvalidPartyId`] unless `id` is one of
    /// [`Self::ids`]`(role)`.
    pub(super) fn check_id(&self, role: Role, id: PartyId) -> Result<(), DkgError> {
        if id == 0 || usize::from(id) > self.count(role) {
            return Err(DkgError::InvalidPartyId);
        }
        Ok(())
    }
}

/// The second Pedersen generator `H` of the suite.
pub(super) fn pedersen_generator<G: PrimeOrderGroup>() -> G::Element {
    G::hash_to_group(&[G::SUITE_ID.as_bytes()], PEDERSEN_GENERATOR_DST)
}

/// The digest a refresh or resharing header carries: SHA-256 of a
/// domain-separation prefix, the suite id and the old commitments'
/// encoding (docs/PROTOCOLS.md §10).
fn digest_of<G: PrimeOrderGroup>(
    old_commitments: &Commitments<G>,
) -> [u8; OLD_COMMITMENTS_DIGEST_LEN] {
    let mut hash = Sha256::new();
    hash.update(OLD_COMMITMENTS_DST);
    hash.update([G::SUITE_ID.len() as u8]);
    hash.update(G::SUITE_ID.as_bytes());
    hash.update(old_commitments.to_bytes());
    hash.finalize().into()
}
