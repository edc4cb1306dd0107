//! What one party has learned so far, carried from round to round: the
//! dealers' commitments, its own pairs from each dealer, who is
//! disqualified and the blame list. Its received shares wipe themselves
//! on drop (the scalars do).

use super::blame::{Blame, Offence};
use super::messages::Received;
use super::params::Role;
use super::{DkgError, DkgParams};
use crate::group::PrimeOrderGroup;
use crate::threshold::{Commitments, KeyShare, PartyId};

/// A pair `(s_ij, s'_ij)` party `j` holds from dealer `i`.
pub(super) type Pair<G> = (
    <G as PrimeOrderGroup>::Scalar,
    <G as PrimeOrderGroup>::Scalar,
);

/// Per-dealer knowledge of receiver `me`, every vector indexed by the
/// dealer's `id − 1`.
pub(super) struct View<G: PrimeOrderGroup> {
    pub(super) params: DkgParams<G>,
    /// This party's id as a receiver: the id of the share it ends with.
    pub(super) me: PartyId,
    /// This party's id as a dealer: `me` in a key generation or refresh,
    /// none for a new party of a resharing (whose old self, if any, deals
    /// through its own dealer state).
    pub(super) dealer: Option<PartyId>,
    /// The second Pedersen generator.
    pub(super) h: G::Element,
    /// Each dealer's Pedersen commitments, once received and decoded.
    pub(super) pedersen: Vec<Option<Vec<G::Element>>>,
    /// Each qualified dealer's Feldman commitments, once received (or
    /// rebuilt, for an exposed dealer).
    pub(super) feldman: Vec<Option<Vec<G::Element>>>,
    /// The pair `me` holds from each dealer that passed its check (or was
    /// justified in public).
    pub(super) received: Vec<Option<Pair<G>>>,
    /// Which dealers are disqualified.
    pub(super) disqualified: Vec<bool>,
    pub(super) blame: Vec<Blame>,
    /// In a refresh: this party's old share.
    pub(super) old_share: Option<KeyShare<G>>,
    /// In a refresh or a resharing: the old commitments.
    pub(super) old_commitments: Option<Commitments<G>>,
}

impl<G: PrimeOrderGroup> View<G> {
    pub(super) fn new(
        params: DkgParams<G>,
        me: PartyId,
        dealer: Option<PartyId>,
        h: G::Element,
    ) -> Self {
        let n = params.count(Role::Dealer);
        View {
            params,
            me,
            dealer,
            h,
            pedersen: vec![None; n],
            feldman: vec![None; n],
            received: (0..n).map(|_| None).collect(),
            disqualified: vec![false; n],
            blame: Vec::new(),
            old_share: None,
            old_commitments: None,
        }
    }

    /// This party's id in `role`, if it holds it.
    fn id_as(&self, role: Role) -> Option<PartyId> {
        match role {
            Role::Dealer => self.dealer,
            Role::Receiver => Some(self.me),
        }
    }

    /// Records `offence` against `party`, disqualifying it if the offence
    /// does and `party` is a dealer (in a resharing a receiver's offence
    /// names a new party, who deals nothing).
    pub(super) fn blame(&mut self, party: PartyId, offence: Offence) {
        if offence.disqualifies() && (offence.by_dealer() || self.params.one_set()) {
            self.disqualified[slot(party)] = true;
        }
        self.blame.push(Blame { party, offence });
    }

    /// The dealers not disqualified (QUAL once round 3 is processed).
    pub(super) fn qualified(&self) -> Vec<PartyId> {
        self.params
            .ids(Role::Dealer)
            .filter(|&id| !self.disqualified[slot(id)])
            .collect()
    }

    /// The disqualified dealers, increasing.
    pub(super) fn disqualified_ids(&self) -> Vec<PartyId> {
        self.params
            .ids(Role::Dealer)
            .filter(|&id| self.disqualified[slot(id)])
            .collect()
    }

    /// One round's messages, sent by the holders of `role`, by sender,
    /// with `own` in this party's slot: [`sort`] with this party's id in
    /// `role`.
    pub(super) fn sort<M>(
        &self,
        role: Role,
        received: &[Received<'_>],
        own: Option<M>,
        decode: impl Fn(&[u8], &DkgParams<G>) -> Result<M, DkgError>,
        sender: impl Fn(&M) -> PartyId,
    ) -> Result<Vec<Option<Result<M, DkgError>>>, DkgError> {
        sort(
            &self.params,
            role,
            self.id_as(role),
            received,
            own,
            decode,
            sender,
        )
    }

    /// Records a missing or undecodable broadcast of `round` from each
    /// sender that has one, and returns the decoded messages by sender.
    pub(super) fn accept<M>(
        &mut self,
        round: u8,
        slots: Vec<Option<Result<M, DkgError>>>,
        concerns: impl Fn(&Self, PartyId) -> bool,
    ) -> Vec<Option<M>> {
        (1..=slots.len() as PartyId)
            .zip(slots)
            .map(|(id, message)| match message {
                Some(Ok(message)) => Some(message),
                Some(Err(error)) => {
                    if concerns(self, id) {
                        self.blame(id, Offence::BroadcastInvalid { round, error });
                    }
                    None
                }
                None => {
                    if concerns(self, id) {
                        self.blame(id, Offence::BroadcastMissing { round });
                    }
                    None
                }
            })
            .collect()
    }
}

/// One round's messages, sent by the holders of `role`, by sender: `own`
/// in the slot of `me` (this party's id in `role`, if any), each other
/// sender's message decoded (`None`: it did not arrive; an error: it did
/// not decode, or names another sender than the authenticated one).
/// [`DkgError::InvalidPartyId`] for a sender outside the role's ids and
/// [`DkgError::DuplicateMessage`] for two messages from one sender or one
/// from this party: the caller's mistakes, not a party's. And
/// [`DkgError::OldCommitmentsMismatch`] when at least as many senders as
/// their set's threshold name other old commitments than this party's:
/// more than the corrupted ones can be, so this party started from other
/// commitments than an honest one (fewer are blamed by the round).
pub(super) fn sort<G: PrimeOrderGroup, M>(
    params: &DkgParams<G>,
    role: Role,
    me: Option<PartyId>,
    received: &[Received<'_>],
    own: Option<M>,
    decode: impl Fn(&[u8], &DkgParams<G>) -> Result<M, DkgError>,
    sender: impl Fn(&M) -> PartyId,
) -> Result<Vec<Option<Result<M, DkgError>>>, DkgError> {
    let mut slots: Vec<Option<Result<M, DkgError>>> =
        (0..params.count(role)).map(|_| None).collect();
    for message in received {
        params.check_id(role, message.from)?;
        if Some(message.from) == me || slots[slot(message.from)].is_some() {
            return Err(DkgError::DuplicateMessage);
        }
        let decoded = decode(message.bytes, params).and_then(|m| {
            if sender(&m) == message.from {
                Ok(m)
            } else {
                Err(DkgError::WrongSender)
            }
        });
        slots[slot(message.from)] = Some(decoded);
    }
    let mismatched = slots
        .iter()
        .filter(|m| matches!(m, Some(Err(DkgError::OldCommitmentsMismatch))))
        .count();
    if mismatched >= params.threshold_of(role) {
        return Err(DkgError::OldCommitmentsMismatch);
    }
    if let (Some(id), Some(message)) = (me, own) {
        slots[slot(id)] = Some(Ok(message));
    }
    Ok(slots)
}

/// `Debug` for a round's state: the suite and the party (the field path
/// given, `view.me` by default), nothing secret.
macro_rules! state_debug {
    ($name:ident) => {
        state_debug!($name, view.me);
    };
    ($name:ident, $($party:ident).+) => {
        impl<G: PrimeOrderGroup> core::fmt::Debug for $name<G> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("group", &G::SUITE_ID)
                    .field("party", &self.$($party).+)
                    .finish_non_exhaustive()
            }
        }
    };
}
pub(super) use state_debug;

/// The index of party `id` in the per-party vectors.
pub(super) fn slot(id: PartyId) -> usize {
    usize::from(id) - 1
}
