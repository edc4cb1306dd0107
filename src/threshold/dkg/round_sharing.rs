//! Round 1 (Pedersen-VSS dealing) and its processing: every party deals a
//! random polynomial with Pedersen commitments and checks the pairs dealt
//! to it, complaining against each dealer whose pair fails.

use core::marker::PhantomData;

use rand_core::CryptoRng;

use super::blame::Offence;
use super::checks::pedersen_holds;
use super::messages::{Complaints, PedersenCommitments, Received, SharePair};
use super::params::{pedersen_generator, Role};
use super::polynomial::SecretPolynomial;
use super::round_complaints::Round2State;
use super::view::{slot, state_debug, View};
use super::{DkgError, DkgParams, Purpose};
use crate::group::PrimeOrderGroup;
use crate::threshold::{Commitments, KeyShare, PartyId};

/// The entry point of a DKG run: [`DkgParty::start`] starts one party of
/// a key generation, [`DkgParty::start_refresh`] one of a refresh, and
/// [`DkgParty::start_reshare_dealer`] and
/// [`DkgParty::start_reshare_receiver`] an old and a new party of a
/// resharing.
pub struct DkgParty<G: PrimeOrderGroup>(PhantomData<fn() -> G>);

/// What a party sends in round 1: its Pedersen commitments (broadcast to
/// all) and one [`SharePair`] for every other party, in increasing order
/// of recipient (each sent privately to its recipient).
pub struct Round1Messages<G: PrimeOrderGroup> {
    /// Broadcast.
    pub commitments: PedersenCommitments<G>,
    /// Private: `shares[k]` goes to `shares[k].recipient()` only.
    pub shares: Vec<SharePair<G>>,
}

impl<G: PrimeOrderGroup> core::fmt::Debug for Round1Messages<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Round1Messages")
            .field("commitments", &self.commitments)
            .field("shares", &self.shares)
            .finish()
    }
}

/// A party after round 1, waiting for every other party's round-1
/// messages. Holds its secret and blinding polynomials (wiped on drop).
pub struct Round1State<G: PrimeOrderGroup> {
    view: View<G>,
    polynomial: SecretPolynomial<G>,
    blinding: SecretPolynomial<G>,
}

state_debug!(Round1State);

impl<G: PrimeOrderGroup> DkgParty<G> {
    /// Starts party `me` (1..=n) of a key generation `params`: draws its
    /// secret polynomial `f` and blinding polynomial `f'` (degree t − 1,
    /// uniform), and returns its state and its round-1 messages.
    /// [`DkgError::InvalidPartyId`] for an id outside 1..=n,
    /// [`DkgError::WrongParameters`] for parameters of another purpose.
    pub fn start<R: CryptoRng + ?Sized>(
        params: DkgParams<G>,
        me: PartyId,
        rng: &mut R,
    ) -> Result<(Round1State<G>, Round1Messages<G>), DkgError> {
        if params.purpose() != Purpose::KeyGeneration {
            return Err(DkgError::WrongParameters);
        }
        params.check_id(Role::Receiver, me)?;
        Ok(Self::deal(params, me, None, rng))
    }

    /// Starts the holder of `share` in a refresh `params` of the key that
    /// `commitments` commit to (docs/PROTOCOLS.md §10, "Refresh"): as
    /// [`Self::start`], with both polynomials' constant terms zero; at the
    /// end the party's new share is its old one plus what it received, and
    /// the commitments change except `A_0`. Every party must start from
    /// the same commitments, those `params` were made with.
    /// [`DkgError::WrongParameters`] for parameters of another purpose,
    /// [`DkgError::OldCommitmentsMismatch`] for other commitments,
    /// [`DkgError::InvalidPartyId`] for a share id outside 1..=n,
    /// [`DkgError::ShareMismatch`] if the share fails the commitments.
    pub fn start_refresh<R: CryptoRng + ?Sized>(
        params: DkgParams<G>,
        share: KeyShare<G>,
        commitments: &Commitments<G>,
        rng: &mut R,
    ) -> Result<(Round1State<G>, Round1Messages<G>), DkgError> {
        params.check_start(Purpose::Refresh, commitments)?;
        params.check_id(Role::Receiver, share.id())?;
        if !commitments.verify_share(&share) {
            return Err(DkgError::ShareMismatch);
        }
        let me = share.id();
        Ok(Self::deal(
            params,
            me,
            Some((share, commitments.clone())),
            rng,
        ))
    }

    /// Round 1 of party `me`, with its old share and the old commitments
    /// in a refresh.
    fn deal<R: CryptoRng + ?Sized>(
        params: DkgParams<G>,
        me: PartyId,
        previous: Option<(KeyShare<G>, Commitments<G>)>,
        rng: &mut R,
    ) -> (Round1State<G>, Round1Messages<G>) {
        let dealing = Dealing::new(params, me, None, rng);
        let mut view = View::new(params, me, Some(me), dealing.h.clone());
        view.pedersen[slot(me)] = Some(dealing.commitments.clone());
        view.received[slot(me)] = Some((dealing.polynomial.at(me), dealing.blinding.at(me)));
        if let Some((share, commitments)) = previous {
            view.old_share = Some(share);
            view.old_commitments = Some(commitments);
        }
        let messages = dealing.messages(Some(me));
        (
            Round1State {
                view,
                polynomial: dealing.polynomial,
                blinding: dealing.blinding,
            },
            messages,
        )
    }
}

/// One dealer's round 1: its secret and blinding polynomials, their
/// Pedersen commitments, and the generator `H` they use.
pub(super) struct Dealing<G: PrimeOrderGroup> {
    pub(super) params: DkgParams<G>,
    pub(super) sender: PartyId,
    pub(super) h: G::Element,
    pub(super) polynomial: SecretPolynomial<G>,
    pub(super) blinding: SecretPolynomial<G>,
    pub(super) commitments: Vec<G::Element>,
}

impl<G: PrimeOrderGroup> Dealing<G> {
    /// Draws dealer `sender`'s polynomials of degree t − 1: uniform (with
    /// constant terms zero in a refresh), or in a resharing with the
    /// secret's constant term `constant` (the old share) and the blinding
    /// one zero, so that `C_0 = constant·B` is the old share's public
    /// commitment.
    pub(super) fn new<R: CryptoRng + ?Sized>(
        params: DkgParams<G>,
        sender: PartyId,
        constant: Option<&G::Scalar>,
        rng: &mut R,
    ) -> Self {
        let h = pedersen_generator::<G>();
        let (t, first) = (params.threshold(), params.first_coefficient());
        // A commitment equal to the identity could not be sent (decoding
        // refuses it); its probability is about t/q, and redrawing reveals
        // only that it happened.
        loop {
            let (polynomial, blinding) = match constant {
                Some(constant) => (
                    SecretPolynomial::<G>::with_constant(constant, t, rng),
                    SecretPolynomial::<G>::random(t, 1, rng),
                ),
                None => (
                    SecretPolynomial::<G>::random(t, first, rng),
                    SecretPolynomial::<G>::random(t, first, rng),
                ),
            };
            let commitments = polynomial.pedersen(&blinding, &h);
            if !commitments.iter().any(G::is_identity) {
                return Dealing {
                    params,
                    sender,
                    h,
                    polynomial,
                    blinding,
                    commitments,
                };
            }
        }
    }

    /// The round-1 messages: the commitments, and a pair for every
    /// receiver but `skip` (the dealer itself, where it is one). The pairs'
    /// vector is allocated once, at its full length: grown pair by pair,
    /// it would move, and hand back a block still holding the first pairs'
    /// secrets unwiped.
    pub(super) fn messages(&self, skip: Option<PartyId>) -> Round1Messages<G> {
        let (params, sender) = (self.params, self.sender);
        let mut shares = Vec::with_capacity(params.count(Role::Receiver));
        shares.extend(
            params
                .ids(Role::Receiver)
                .filter(|&id| Some(id) != skip)
                .map(|id| {
                    let (share, blinding) = (self.polynomial.at(id), self.blinding.at(id));
                    SharePair::new(params, sender, id, share, blinding)
                }),
        );
        Round1Messages {
            commitments: PedersenCommitments::new(params, sender, self.commitments.clone()),
            shares,
        }
    }
}

impl<G: PrimeOrderGroup> Round1State<G> {
    /// Processes round 1 and returns round 2's broadcast: the other
    /// parties' broadcast [`PedersenCommitments`] and the [`SharePair`]s
    /// sent to this party, as received. A dealer whose commitments are
    /// missing or do not decode is disqualified (every party sees the same
    /// broadcast); this party complains against every other dealer whose
    /// pair is missing, does not decode, is addressed to another party, or
    /// fails `s·B + s'·H = Σ_k j^k·C_k`. Errors are the caller's:
    /// [`DkgError::InvalidPartyId`] or [`DkgError::DuplicateMessage`] for a
    /// sender outside the run, repeated, or this party; in a refresh,
    /// [`DkgError::OldCommitmentsMismatch`] when t or more dealers name
    /// other old commitments (this party started from other ones than an
    /// honest party; fewer are disqualified).
    pub fn round2(
        self,
        commitments: &[Received<'_>],
        shares: &[Received<'_>],
    ) -> Result<(Round2State<G>, Complaints<G>), DkgError> {
        let Round1State {
            mut view,
            polynomial,
            blinding,
        } = self;
        let accused = view.receive_dealings(commitments, shares)?;
        let complaints = Complaints::new(view.params, view.me, accused.clone());
        Ok((
            Round2State::new(view, polynomial, blinding, accused),
            complaints,
        ))
    }
}

impl<G: PrimeOrderGroup> View<G> {
    /// Round 1 at a receiver: takes the dealers' broadcast
    /// [`PedersenCommitments`] (a dealer whose commitments are missing or
    /// do not decode is disqualified, and in a resharing one whose `C_0` is
    /// not its old share's commitment, [`Offence::WrongConstantTerm`]) and
    /// the [`SharePair`]s sent to this party, keeping each that passes
    /// `s·B + s'·H = Σ_k j^k·C_k`. Returns the other dealers whose pair is
    /// missing, does not decode, is addressed to another party, or fails:
    /// this party's complaints.
    pub(super) fn receive_dealings(
        &mut self,
        commitments: &[Received<'_>],
        shares: &[Received<'_>],
    ) -> Result<Vec<PartyId>, DkgError> {
        let broadcasts = self.sort(
            Role::Dealer,
            commitments,
            None,
            PedersenCommitments::from_bytes,
            PedersenCommitments::sender,
        )?;
        let pairs = self.sort(
            Role::Dealer,
            shares,
            None,
            SharePair::from_bytes,
            SharePair::sender,
        )?;
        let own = self.dealer;
        let broadcasts = self.accept(1, broadcasts, |_, id| Some(id) != own);
        for (index, message) in broadcasts.into_iter().enumerate() {
            let Some(message) = message else { continue };
            let elements = message.into_elements();
            if !self.params.one_set() && !self.is_old_commitment(index, &elements[0]) {
                self.blame(index as PartyId + 1, Offence::WrongConstantTerm);
            }
            self.pedersen[index] = Some(elements);
        }
        let me = self.me;
        let mut accused = Vec::new();
        // By reference: moving a pair out would leave its scalars in
        // `pairs`' buffer, freed unwiped; each pair wipes itself when
        // `pairs` drops, and what is kept is a copy.
        for (index, pair) in pairs.iter().enumerate() {
            let dealer = index as PartyId + 1;
            if Some(dealer) == own || self.disqualified[index] {
                continue;
            }
            let commitments = self.pedersen[index].as_deref().unwrap_or_default();
            match pair {
                Some(Ok(pair))
                    if pair.recipient() == me
                        && pedersen_holds::<G>(
                            commitments,
                            self.params.first_coefficient(),
                            &self.h,
                            me,
                            pair.share(),
                            pair.blinding(),
                        ) =>
                {
                    self.received[index] = Some((pair.share().clone(), pair.blinding().clone()));
                }
                _ => accused.push(dealer),
            }
        }
        Ok(accused)
    }

    /// Whether `element` is the old commitment to the share of the dealer
    /// in `index` (public values: variable time).
    fn is_old_commitment(&self, index: usize, element: &G::Element) -> bool {
        let expected = self
            .old_commitments
            .as_ref()
            .and_then(|old| old.party_commitment(index as PartyId + 1).ok());
        expected.as_ref() == Some(element)
    }
}
