//! A resharing's old party (docs/PROTOCOLS.md §10, "Resharing"): it deals
//! its own share `x_i` as the constant term of a degree t′ − 1 polynomial
//! to the new parties, answers their complaints, and publishes its Feldman
//! commitments once QUAL is fixed. It ends with nothing: the new parties
//! compute the result, and its old share is wiped with its state.

use rand_core::CryptoRng;

use super::messages::{Complaints, FeldmanCommitments, Justifications, Received};
use super::params::Role;
use super::polynomial::SecretPolynomial;
use super::round_complaints::answer;
use super::round_sharing::{Dealing, Round1Messages};
use super::view::{sort, state_debug};
use super::{DkgError, DkgParams, DkgParty, Purpose};
use crate::group::PrimeOrderGroup;
use crate::threshold::{Commitments, KeyShare, PartyId};

/// An old party of a resharing after round 1, waiting for the new
/// parties' [`Complaints`]. Holds its polynomials, whose constant term is
/// its old share (wiped on drop).
pub struct DealerRound1State<G: PrimeOrderGroup> {
    params: DkgParams<G>,
    me: PartyId,
    polynomial: SecretPolynomial<G>,
    blinding: SecretPolynomial<G>,
}

/// An old party of a resharing after round 3, waiting for the round-4
/// deadline (QUAL fixed) to publish its Feldman commitments. Holds its
/// polynomial (wiped on drop).
pub struct DealerRound3State<G: PrimeOrderGroup> {
    params: DkgParams<G>,
    me: PartyId,
    polynomial: SecretPolynomial<G>,
}

state_debug!(DealerRound1State, me);
state_debug!(DealerRound3State, me);

impl<G: PrimeOrderGroup> DkgParty<G> {
    /// Starts old party `share.id()` (1..=n) of a resharing `params` of the
    /// key that `old_commitments` commit to: draws `f` with `f(0)` its
    /// share and the rest uniform (degree t′ − 1), and a blinding
    /// polynomial `f'` with `f'(0) = 0`, so that its constant term's
    /// commitment `C_0` is the old commitment to its share, which every
    /// new party checks. Returns its state and its round-1 messages: the
    /// commitments (broadcast) and a pair for each new party 1..=n′
    /// (private). [`DkgError::WrongParameters`] for parameters of another
    /// purpose, [`DkgError::OldCommitmentsMismatch`] for other commitments
    /// than those `params` were made with,
    /// [`DkgError::InvalidPartyId`] for a share id outside 1..=n,
    /// [`DkgError::ShareMismatch`] if the share fails the commitments.
    pub fn start_reshare_dealer<R: CryptoRng + ?Sized>(
        params: DkgParams<G>,
        share: KeyShare<G>,
        old_commitments: &Commitments<G>,
        rng: &mut R,
    ) -> Result<(DealerRound1State<G>, Round1Messages<G>), DkgError> {
        params.check_start(Purpose::Reshare, old_commitments)?;
        params.check_id(Role::Dealer, share.id())?;
        if !old_commitments.verify_share(&share) {
            return Err(DkgError::ShareMismatch);
        }
        let dealing = Dealing::new(params, share.id(), Some(share.secret()), rng);
        let messages = dealing.messages(None);
        Ok((
            DealerRound1State {
                params,
                me: share.id(),
                polynomial: dealing.polynomial,
                blinding: dealing.blinding,
            },
            messages,
        ))
    }
}

impl<G: PrimeOrderGroup> DealerRound1State<G> {
    /// Processes round 2 and returns round 3's broadcast: the new parties'
    /// [`Complaints`]. Answers every complaint against this party with the
    /// pair it dealt to the complainer (now public), unless t′ or more
    /// complained (it is then disqualified, and t′ pairs would publish its
    /// polynomial, hence its old share). A complaint list that is missing
    /// or does not decode counts as none here (the new parties record it).
    /// Errors are the caller's: [`DkgError::InvalidPartyId`] or
    /// [`DkgError::DuplicateMessage`] for a sender outside 1..=n′ or
    /// repeated; [`DkgError::OldCommitmentsMismatch`] when t′ or more
    /// complaint lists name other old commitments (this party started from
    /// other ones than an honest party).
    pub fn round3(
        self,
        complaints: &[Received<'_>],
    ) -> Result<(DealerRound3State<G>, Justifications<G>), DkgError> {
        let DealerRound1State {
            params,
            me,
            polynomial,
            blinding,
        } = self;
        let lists = sort(
            &params,
            Role::Receiver,
            None,
            complaints,
            None,
            Complaints::from_bytes,
            Complaints::sender,
        )?;
        let complainers: Vec<PartyId> = lists
            .iter()
            .flatten()
            .flatten()
            .filter(|list| list.accused().contains(&me))
            .map(Complaints::sender)
            .collect();
        let answers = answer(params.threshold(), &complainers, &polynomial, &blinding);
        Ok((
            DealerRound3State {
                params,
                me,
                polynomial,
            },
            Justifications::new(params, me, answers),
        ))
    }
}

impl<G: PrimeOrderGroup> DealerRound3State<G> {
    /// Round 4's broadcast, to send once round 3's deadline has passed
    /// (QUAL is fixed): this party's Feldman commitments `A_k = a_k·B`,
    /// `k = 0..t′−1` (`A_0` is its old share's commitment). Its part is
    /// then done; its polynomial, and with it the old share, is wiped.
    pub fn round4(self) -> FeldmanCommitments<G> {
        FeldmanCommitments::new(self.params, self.me, self.polynomial.feldman())
    }
}
