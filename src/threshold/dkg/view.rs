//! What one party has learned so far, carried from round to round: the
//! dealers' commitments, its own pairs from each dealer, who is
//! disqualified and the blame list. Its received shares wipe themselves
//! on drop (the scalars do).

use super::blame::{Blame, Offence};
use super::messages::Received;
use super::{DkgError, DkgParams};
use crate::group::PrimeOrderGroup;
use crate::threshold::{Commitments, KeyShare, PartyId};

/// A pair `(s_ij, s'_ij)` party `j` holds from dealer `i`.
pub(super) type Pair<G> = (
    <G as PrimeOrderGroup>::Scalar,
    <G as PrimeOrderGroup>::Scalar,
);

/// Per-dealer knowledge of party `me`, every vector indexed by `id − 1`.
pub(super) struct View<G: PrimeOrderGroup> {
    pub(super) params: DkgParams<G>,
    pub(super) me: PartyId,
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
    pub(super) disqualified: Vec<bool>,
    pub(super) blame: Vec<Blame>,
    /// In a refresh: this party's old share and the old commitments.
    pub(super) previous: Option<(KeyShare<G>, Commitments<G>)>,
}

impl<G: PrimeOrderGroup> View<G> {
    pub(super) fn new(params: DkgParams<G>, me: PartyId, h: G::Element) -> Self {
        let n = params.parties();
        View {
            params,
            me,
            h,
            pedersen: vec![None; n],
            feldman: vec![None; n],
            received: (0..n).map(|_| None).collect(),
            disqualified: vec![false; n],
            blame: Vec::new(),
            previous: None,
        }
    }

    /// Records `offence` against `party`, disqualifying it if the offence
    /// does.
    pub(super) fn blame(&mut self, party: PartyId, offence: Offence) {
        if offence.disqualifies() {
            self.disqualified[slot(party)] = true;
        }
        self.blame.push(Blame { party, offence });
    }

    /// The dealers not disqualified (QUAL once round 3 is processed).
    pub(super) fn qualified(&self) -> Vec<PartyId> {
        self.params
            .ids()
            .filter(|&id| !self.disqualified[slot(id)])
            .collect()
    }

    /// One round's messages by sender: `own` in this party's slot, each
    /// other sender's message decoded (`None`: it did not arrive; an error:
    /// it did not decode, or names another sender than the authenticated
    /// one). [`DkgError::InvalidPartyId`] for a sender outside 1..=n and
    /// [`DkgError::DuplicateMessage`] for two messages from one sender or
    /// one from this party: the caller's mistakes, not a party's.
    pub(super) fn sort<M>(
        &self,
        received: &[Received<'_>],
        own: Option<M>,
        decode: impl Fn(&[u8], &DkgParams<G>) -> Result<M, DkgError>,
        sender: impl Fn(&M) -> PartyId,
    ) -> Result<Vec<Option<Result<M, DkgError>>>, DkgError> {
        let mut slots: Vec<Option<Result<M, DkgError>>> =
            (0..self.params.parties()).map(|_| None).collect();
        for message in received {
            self.params.check_id(message.from)?;
            if message.from == self.me || slots[slot(message.from)].is_some() {
                return Err(DkgError::DuplicateMessage);
            }
            let decoded = decode(message.bytes, &self.params).and_then(|m| {
                if sender(&m) == message.from {
                    Ok(m)
                } else {
                    Err(DkgError::WrongSender)
                }
            });
            slots[slot(message.from)] = Some(decoded);
        }
        slots[slot(self.me)] = own.map(Ok);
        Ok(slots)
    }

    /// Records a missing or undecodable broadcast of `round` from each
    /// sender that has one, and returns the decoded messages by sender.
    pub(super) fn accept<M>(
        &mut self,
        round: u8,
        slots: Vec<Option<Result<M, DkgError>>>,
        concerns: impl Fn(&Self, PartyId) -> bool,
    ) -> Vec<Option<M>> {
        let ids: Vec<PartyId> = self.params.ids().collect();
        ids.into_iter()
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

/// `Debug` for a round's state: the suite and the party, nothing secret.
macro_rules! state_debug {
    ($name:ident) => {
        impl<G: PrimeOrderGroup> core::fmt::Debug for $name<G> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("group", &G::SUITE_ID)
                    .field("party", &self.view.me)
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
