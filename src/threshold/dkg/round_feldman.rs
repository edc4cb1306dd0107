//! Rounds 4 to 6, after QUAL is fixed: the qualified dealers' Feldman
//! commitments, complaints against those that fail a share (with the pair
//! as evidence), and the public rebuilding of every exposed dealer's
//! polynomial from the shares the others reveal (GJKR, New-DKG step 4).
//! The key is then `Σ_{i∈QUAL} f_i(0)` whatever the exposed dealers did:
//! their part was fixed by their Pedersen commitments before any Feldman
//! value was seen.

use super::blame::{Blame, DkgOutput, Offence};
use super::checks::{feldman_holds, pedersen_holds};
use super::messages::{
    FeldmanCommitments, FeldmanComplaints, Received, RevealedPair, RevealedShares,
};
use super::params::Role;
use super::polynomial::interpolate;
use super::view::{slot, state_debug, View};
use super::DkgError;
use crate::group::PrimeOrderGroup;
use crate::threshold::{lagrange_at_zero, Commitments, KeyShare, PartyId};

/// A party after round 4 (QUAL fixed), waiting for every other party's
/// [`FeldmanCommitments`]. Holds its received shares (wiped on drop).
pub struct Round4State<G: PrimeOrderGroup> {
    view: View<G>,
    qualified: Vec<PartyId>,
}

/// A party after round 5, waiting for every other party's
/// [`FeldmanComplaints`].
pub struct Round5State<G: PrimeOrderGroup> {
    view: View<G>,
    qualified: Vec<PartyId>,
    exposed: Vec<bool>,
    evidence: Vec<RevealedPair<G>>,
}

/// A party after round 6, waiting for every other party's
/// [`RevealedShares`].
pub struct Round6State<G: PrimeOrderGroup> {
    view: View<G>,
    qualified: Vec<PartyId>,
    exposed: Vec<bool>,
    reveals: Vec<RevealedPair<G>>,
}

state_debug!(Round4State);
state_debug!(Round5State);
state_debug!(Round6State);

impl<G: PrimeOrderGroup> Round4State<G> {
    pub(super) fn new(view: View<G>, qualified: Vec<PartyId>) -> Self {
        Round4State { view, qualified }
    }

    /// QUAL, in increasing order (fixed from here on).
    pub fn qualified(&self) -> &[PartyId] {
        &self.qualified
    }

    /// Processes round 4 and returns round 5's broadcast: the other
    /// parties' [`FeldmanCommitments`] (those of parties outside QUAL are
    /// ignored). A qualified dealer whose Feldman commitments are missing
    /// or do not decode is exposed; this party complains, with its pair as
    /// evidence, against every qualified dealer whose Feldman commitments
    /// its share fails (`s·B ≠ Σ_k j^k·A_k`). Errors as for
    /// [`super::Round1State::round2`].
    pub fn round5(
        self,
        commitments: &[Received<'_>],
    ) -> Result<(Round5State<G>, FeldmanComplaints<G>), DkgError> {
        let Round4State {
            mut view,
            qualified,
        } = self;
        let messages = view.sort(
            Role::Dealer,
            commitments,
            None,
            FeldmanCommitments::from_bytes,
            FeldmanCommitments::sender,
        )?;
        let (me, own) = (view.me, view.dealer);
        let messages = view.accept(4, messages, |view, id| {
            Some(id) != own && !view.disqualified[slot(id)]
        });
        let mut exposed = vec![false; view.params.count(Role::Dealer)];
        let mut evidence = Vec::new();
        for (index, message) in messages.into_iter().enumerate() {
            let dealer = index as PartyId + 1;
            if Some(dealer) == own || view.disqualified[index] {
                continue;
            }
            let Some(message) = message else {
                exposed[index] = true;
                continue;
            };
            let feldman = message.into_elements();
            if let Some((share, blinding)) = &view.received[index] {
                if !feldman_holds::<G>(&feldman, view.params.first_coefficient(), me, share) {
                    evidence.push(RevealedPair {
                        party: dealer,
                        share: share.clone(),
                        blinding: blinding.clone(),
                    });
                }
            }
            view.feldman[index] = Some(feldman);
        }
        let message = FeldmanComplaints::new(view.params, me, evidence.clone());
        Ok((
            Round5State {
                view,
                qualified,
                exposed,
                evidence,
            },
            message,
        ))
    }
}

impl<G: PrimeOrderGroup> Round5State<G> {
    /// Processes round 5 and returns round 6's broadcast: the other
    /// parties' [`FeldmanComplaints`]. A complaint whose pair passes the
    /// dealer's Pedersen check and fails its Feldman check exposes the
    /// dealer ([`Offence::FeldmanInconsistent`]); any other is recorded as
    /// false ([`Offence::FalseFeldmanComplaint`]) and ignored. This party
    /// then reveals its pair from every exposed dealer. Errors as for
    /// [`super::Round1State::round2`].
    pub fn round6(
        self,
        complaints: &[Received<'_>],
    ) -> Result<(Round6State<G>, RevealedShares<G>), DkgError> {
        let Round5State {
            mut view,
            qualified,
            mut exposed,
            evidence,
        } = self;
        let own = FeldmanComplaints::new(view.params, view.me, evidence);
        let messages = view.sort(
            Role::Receiver,
            complaints,
            Some(own),
            FeldmanComplaints::from_bytes,
            FeldmanComplaints::sender,
        )?;
        let messages = view.accept(5, messages, |_, _| true);
        let first = view.params.first_coefficient();
        for message in messages.iter().flatten() {
            let complainer = message.sender();
            for pair in message.pairs() {
                let dealer = pair.party;
                if view.disqualified[slot(dealer)] {
                    continue;
                }
                let Some(feldman) = view.feldman[slot(dealer)].as_deref() else {
                    // Missing Feldman commitments: exposed already.
                    continue;
                };
                let pedersen = view.pedersen[slot(dealer)].as_deref().unwrap_or_default();
                let proven = pedersen_holds::<G>(
                    pedersen,
                    first,
                    &view.h,
                    complainer,
                    &pair.share,
                    &pair.blinding,
                ) && !feldman_holds::<G>(feldman, first, complainer, &pair.share);
                if !proven {
                    view.blame(complainer, Offence::FalseFeldmanComplaint { dealer });
                } else if !exposed[slot(dealer)] {
                    exposed[slot(dealer)] = true;
                    view.blame(dealer, Offence::FeldmanInconsistent { complainer });
                }
            }
        }
        let (me, own) = (view.me, view.dealer);
        let reveals: Vec<RevealedPair<G>> = view
            .params
            .ids(Role::Dealer)
            .filter(|&dealer| Some(dealer) != own && exposed[slot(dealer)])
            .filter_map(|dealer| {
                view.received[slot(dealer)]
                    .as_ref()
                    .map(|(share, blinding)| RevealedPair {
                        party: dealer,
                        share: share.clone(),
                        blinding: blinding.clone(),
                    })
            })
            .collect();
        let message = RevealedShares::new(view.params, me, reveals.clone());
        Ok((
            Round6State {
                view,
                qualified,
                exposed,
                reveals,
            },
            message,
        ))
    }
}

impl<G: PrimeOrderGroup> Round6State<G> {
    /// Processes round 6 and finishes: the other parties' [`RevealedShares`].
    /// Each exposed dealer's polynomial is rebuilt from the first t revealed
    /// pairs (by party id) that pass its Pedersen check (a failing one is
    /// recorded, [`Offence::WrongRevealedShare`]), and its Feldman
    /// commitments taken from it. The key share is `x_j = Σ_{i∈QUAL} s_ij`,
    /// the joint commitments `A_k = Σ_{i∈QUAL} A_ik`; in a refresh both are
    /// added to the old share and commitments (`A_0` stays); in a
    /// resharing both are Lagrange combinations over QUAL (`A'_0 = A_0`,
    /// checked).
    /// [`DkgError::NotEnoughRevealedShares`] if fewer than t valid pairs of
    /// an exposed dealer arrived, [`DkgError::DegenerateKey`] for a zero
    /// share or an identity commitment, [`DkgError::ShareMismatch`] if the
    /// share fails the joint commitments (or a resharing changed the
    /// public key); other errors as for
    /// [`super::Round1State::round2`].
    pub fn finish(self, reveals: &[Received<'_>]) -> Result<DkgOutput<G>, DkgError> {
        let Round6State {
            mut view,
            qualified,
            exposed,
            reveals: own,
        } = self;
        let own = RevealedShares::new(view.params, view.me, own);
        let messages = view.sort(
            Role::Receiver,
            reveals,
            Some(own),
            RevealedShares::from_bytes,
            RevealedShares::sender,
        )?;
        let messages = view.accept(6, messages, |_, _| true);
        let t = view.params.threshold();
        let first = view.params.first_coefficient();
        let mut exposed_ids = Vec::new();
        for dealer in view
            .params
            .ids(Role::Dealer)
            .filter(|&id| exposed[slot(id)])
        {
            exposed_ids.push(dealer);
            let pedersen = view.pedersen[slot(dealer)].clone().unwrap_or_default();
            let mut points = Vec::with_capacity(t);
            for message in messages.iter().flatten() {
                let holder = message.sender();
                let Some(pair) = message.pairs().iter().find(|p| p.party == dealer) else {
                    continue;
                };
                if !pedersen_holds::<G>(
                    &pedersen,
                    first,
                    &view.h,
                    holder,
                    &pair.share,
                    &pair.blinding,
                ) {
                    view.blame(holder, Offence::WrongRevealedShare { dealer });
                } else if points.len() < t {
                    points.push((holder, pair.share.clone()));
                }
            }
            if points.len() < t {
                return Err(DkgError::NotEnoughRevealedShares);
            }
            // The rebuilt coefficients are public now.
            let coefficients = interpolate::<G>(&points);
            view.feldman[slot(dealer)] =
                Some(coefficients[first..].iter().map(G::mul_base).collect());
        }
        let (share, commitments) = view.combine(&qualified)?;
        let disqualified = view.disqualified_ids();
        let mut blame: Vec<Blame> = view.blame;
        blame.sort_by_key(|entry| entry.party);
        Ok(DkgOutput {
            share,
            commitments,
            disqualified,
            qualified,
            blame,
            exposed: exposed_ids,
        })
    }
}

impl<G: PrimeOrderGroup> View<G> {
    /// This party's share and the joint commitments from the qualified
    /// dealers' pairs and Feldman commitments: their sums (added to the old
    /// share and commitments in a refresh), or in a resharing their
    /// Lagrange combinations `x'_j = Σ_{i∈QUAL} λ_i·s_ij`,
    /// `A'_k = Σ_{i∈QUAL} λ_i·A_ik` with `λ_i` QUAL's coefficients at zero
    /// (`Σ λ_i·x_i = x` for any t or more old shares). The share is checked
    /// against the commitments, and in a resharing `A'_0` against the old
    /// public key.
    fn combine(&self, qualified: &[PartyId]) -> Result<(KeyShare<G>, Commitments<G>), DkgError> {
        let t = self.params.threshold();
        let first = self.params.first_coefficient();
        let weights = if self.params.one_set() {
            vec![G::scalar_from_u64(1); qualified.len()]
        } else {
            lagrange_at_zero::<G>(qualified).map_err(|_| DkgError::NoQualifiedParty)?
        };
        // A refresh adds to the old share; the other runs start from zero.
        let mut secret = match &self.old_share {
            Some(share) => share.secret().clone(),
            None => G::scalar_from_u64(0),
        };
        let mut feldman = Vec::with_capacity(qualified.len());
        for (&dealer, weight) in qualified.iter().zip(&weights) {
            let commitments = self.feldman[slot(dealer)]
                .as_ref()
                .ok_or(DkgError::ShareMismatch)?;
            feldman.push(commitments);
            let (share, _) = self.received[slot(dealer)]
                .as_ref()
                .ok_or(DkgError::ShareMismatch)?;
            // Constant time in the share; the weight is public.
            secret = G::scalar_add(&secret, &G::scalar_mul(weight, share));
        }
        // Public values: one variable-time multi-scalar multiplication per
        // committed coefficient.
        let sums = (0..t - first).map(|k| {
            let column: Vec<G::Element> = feldman.iter().map(|f| f[k].clone()).collect();
            G::msm_vartime(&weights, &column)
        });
        let joint: Vec<G::Element> = match (&self.old_share, &self.old_commitments) {
            (Some(_), Some(old)) => {
                let (kept, added) = old.coefficients().split_at(first);
                kept.iter()
                    .cloned()
                    .chain(added.iter().zip(sums).map(|(a, sum)| G::add(a, &sum)))
                    .collect()
            }
            _ => sums.collect(),
        };
        let commitments = Commitments::new(joint).map_err(|_| DkgError::DegenerateKey)?;
        let share = KeyShare::new(self.me, secret).map_err(|_| DkgError::DegenerateKey)?;
        if !commitments.verify_share(&share) {
            return Err(DkgError::ShareMismatch);
        }
        let old_key = self.old_commitments.as_ref().map(Commitments::public_key);
        if old_key.is_some_and(|key| key != commitments.public_key()) {
            return Err(DkgError::ShareMismatch);
        }
        Ok((share, commitments))
    }
}
