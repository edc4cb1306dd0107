//! Round 1 (Pedersen-VSS dealing) and its processing: every party deals a
//! random polynomial with Pedersen commitments and checks the pairs dealt
//! to it, complaining against each dealer whose pair fails.

use core::marker::PhantomData;

use rand_core::CryptoRng;

use super::checks::pedersen_holds;
use super::messages::{Complaints, PedersenCommitments, Received, SharePair};
use super::params::pedersen_generator;
use super::polynomial::SecretPolynomial;
use super::round_complaints::Round2State;
use super::view::{slot, state_debug, View};
use super::{DkgError, DkgParams, Purpose};
use crate::group::PrimeOrderGroup;
use crate::threshold::{Commitments, KeyShare, PartyId};

/// The entry point of a DKG run: [`DkgParty::start`] starts one party.
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
    /// [`DkgError::WrongParameters`] for refresh parameters.
    pub fn start<R: CryptoRng + ?Sized>(
        params: DkgParams<G>,
        me: PartyId,
        rng: &mut R,
    ) -> Result<(Round1State<G>, Round1Messages<G>), DkgError> {
        if params.purpose() != Purpose::KeyGeneration {
            return Err(DkgError::WrongParameters);
        }
        params.check_id(me)?;
        Ok(Self::deal(params, me, None, rng))
    }

    /// Starts the holder of `share` in a refresh `params` of the key that
    /// `commitments` commit to (docs/PROTOCOLS.md §10, "Refresh"): as
    /// [`Self::start`], with both polynomials' constant terms zero; at the
    /// end the party's new share is its old one plus what it received, and
    /// the commitments change except `A_0`. Every party must start from
    /// the same commitments. [`DkgError::WrongParameters`] for key
    /// generation parameters or commitments of another threshold,
    /// [`DkgError::InvalidPartyId`] for a share id outside 1..=n,
    /// [`DkgError::ShareMismatch`] if the share fails the commitments.
    pub fn start_refresh<R: CryptoRng + ?Sized>(
        params: DkgParams<G>,
        share: KeyShare<G>,
        commitments: &Commitments<G>,
        rng: &mut R,
    ) -> Result<(Round1State<G>, Round1Messages<G>), DkgError> {
        if params.purpose() != Purpose::Refresh || commitments.threshold() != params.threshold() {
            return Err(DkgError::WrongParameters);
        }
        params.check_id(share.id())?;
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

    /// Round 1 of party `me`, with `previous` (its old share and the old
    /// commitments) in a refresh.
    fn deal<R: CryptoRng + ?Sized>(
        params: DkgParams<G>,
        me: PartyId,
        previous: Option<(KeyShare<G>, Commitments<G>)>,
        rng: &mut R,
    ) -> (Round1State<G>, Round1Messages<G>) {
        let h = pedersen_generator::<G>();
        let (t, first) = (params.threshold(), params.first_coefficient());
        // A commitment equal to the identity could not be sent (decoding
        // refuses it); its probability is about t/q, and redrawing reveals
        // only that it happened.
        let (polynomial, blinding, commitments) = loop {
            let polynomial = SecretPolynomial::<G>::random(t, first, rng);
            let blinding = SecretPolynomial::<G>::random(t, first, rng);
            let commitments = polynomial.pedersen(&blinding, &h);
            if !commitments.iter().any(G::is_identity) {
                break (polynomial, blinding, commitments);
            }
        };
        let shares = params
            .ids()
            .filter(|&id| id != me)
            .map(|id| SharePair::new(params, me, id, polynomial.at(id), blinding.at(id)))
            .collect();
        let mut view = View::new(params, me, h);
        view.pedersen[slot(me)] = Some(commitments.clone());
        view.received[slot(me)] = Some((polynomial.at(me), blinding.at(me)));
        view.previous = previous;
        let messages = Round1Messages {
            commitments: PedersenCommitments::new(params, me, commitments),
            shares,
        };
        (
            Round1State {
                view,
                polynomial,
                blinding,
            },
            messages,
        )
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
    /// sender outside the run, repeated, or this party.
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
        let broadcasts = view.sort(
            commitments,
            None,
            PedersenCommitments::from_bytes,
            PedersenCommitments::sender,
        )?;
        let pairs = view.sort(shares, None, SharePair::from_bytes, SharePair::sender)?;
        let me = view.me;
        let broadcasts = view.accept(1, broadcasts, |_, id| id != me);
        for (index, message) in broadcasts.into_iter().enumerate() {
            if let Some(message) = message {
                view.pedersen[index] = Some(message.into_elements());
            }
        }
        let mut accused = Vec::new();
        for (index, pair) in pairs.into_iter().enumerate() {
            let dealer = index as PartyId + 1;
            if dealer == me || view.disqualified[index] {
                continue;
            }
            let commitments = view.pedersen[index].as_deref().unwrap_or_default();
            match pair {
                Some(Ok(pair))
                    if pair.recipient() == me
                        && pedersen_holds::<G>(
                            commitments,
                            view.params.first_coefficient(),
                            &view.h,
                            me,
                            pair.share(),
                            pair.blinding(),
                        ) =>
                {
                    view.received[index] = Some(pair.into_pair());
                }
                _ => accused.push(dealer),
            }
        }
        let complaints = Complaints::new(view.params, me, accused.clone());
        Ok((
            Round2State::new(view, polynomial, blinding, accused),
            complaints,
        ))
    }
}
