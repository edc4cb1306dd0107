//! A resharing's new party (docs/PROTOCOLS.md §10, "Resharing"): it checks
//! the old parties' dealings against their commitments and the old
//! commitments, complains, and then runs rounds 4 to 6 exactly as in a
//! key generation ([`Round4State`] on), ending with its new share.

use super::messages::{Complaints, Received};
use super::params::{pedersen_generator, Role};
use super::round_feldman::Round4State;
use super::view::{state_debug, View};
use super::{DkgError, DkgParams, DkgParty, Purpose};
use crate::group::PrimeOrderGroup;
use crate::threshold::{Commitments, PartyId};

/// A new party of a resharing, waiting for the old parties' round-1
/// messages.
pub struct ReceiverRound1State<G: PrimeOrderGroup> {
    view: View<G>,
}

/// A new party of a resharing after round 2, waiting for the new parties'
/// [`Complaints`] and the old parties' [`super::Justifications`]. Holds the pairs
/// dealt to it (wiped on drop).
pub struct ReceiverRound2State<G: PrimeOrderGroup> {
    view: View<G>,
    accused: Vec<PartyId>,
}

state_debug!(ReceiverRound1State);
state_debug!(ReceiverRound2State);

impl<G: PrimeOrderGroup> DkgParty<G> {
    /// Starts new party `me` (1..=n′) of a resharing `params` of the key
    /// that `old_commitments` (public; the same at every party) commit to.
    /// A new party sends nothing in round 1. [`DkgError::WrongParameters`]
    /// for parameters of another purpose,
    /// [`DkgError::OldCommitmentsMismatch`] for other commitments than
    /// those `params` were made with, [`DkgError::InvalidPartyId`] for an
    /// id outside 1..=n′.
    pub fn start_reshare_receiver(
        params: DkgParams<G>,
        me: PartyId,
        old_commitments: &Commitments<G>,
    ) -> Result<ReceiverRound1State<G>, DkgError> {
        params.check_start(Purpose::Reshare, old_commitments)?;
        params.check_id(Role::Receiver, me)?;
        let mut view = View::new(params, me, None, pedersen_generator::<G>());
        view.old_commitments = Some(old_commitments.clone());
        Ok(ReceiverRound1State { view })
    }
}

impl<G: PrimeOrderGroup> ReceiverRound1State<G> {
    /// Processes round 1 and returns round 2's broadcast: the old parties'
    /// broadcast [`super::PedersenCommitments`] and the
    /// [`super::SharePair`]s they sent to this party. An old party whose
    /// commitments are missing or do not decode, or whose `C_0` is not the
    /// old commitment to its share ([`super::Offence::WrongConstantTerm`]),
    /// is disqualified; this party complains against every other whose
    /// pair is missing, does not decode, is addressed to another party, or
    /// fails `s·B + s'·H = Σ_k j^k·C_k`. Errors are the caller's:
    /// [`DkgError::InvalidPartyId`] or [`DkgError::DuplicateMessage`] for a
    /// sender outside 1..=n or repeated; [`DkgError::OldCommitmentsMismatch`]
    /// when t or more old parties name other old commitments (this party
    /// started from other ones than an honest party; fewer are
    /// disqualified).
    pub fn round2(
        self,
        commitments: &[Received<'_>],
        shares: &[Received<'_>],
    ) -> Result<(ReceiverRound2State<G>, Complaints<G>), DkgError> {
        let ReceiverRound1State { mut view } = self;
        let accused = view.receive_dealings(commitments, shares)?;
        let complaints = Complaints::new(view.params, view.me, accused.clone());
        Ok((ReceiverRound2State { view, accused }, complaints))
    }
}

impl<G: PrimeOrderGroup> ReceiverRound2State<G> {
    /// Processes rounds 2 and 3 (this party sends nothing in round 3) and
    /// fixes QUAL: the other new parties' [`Complaints`] and the old
    /// parties' [`super::Justifications`], judged as in a key generation (an old
    /// party accused by t′ or more new ones, or leaving a complaint
    /// unanswered or answering it wrongly, or whose justifications are
    /// missing, is disqualified; a new party's missing complaints count as
    /// none). Continue with [`Round4State::round5`] on the old parties'
    /// Feldman commitments. [`DkgError::NoQualifiedParty`] if fewer than t
    /// old parties stay qualified (impossible with at most t − 1 of them
    /// corrupted); other errors as for [`ReceiverRound1State::round2`].
    pub fn round4(
        self,
        complaints: &[Received<'_>],
        justifications: &[Received<'_>],
    ) -> Result<Round4State<G>, DkgError> {
        let ReceiverRound2State { mut view, accused } = self;
        let own = Complaints::new(view.params, view.me, accused);
        let complainers = view.receive_complaints(complaints, Some(own))?;
        let qualified = view.receive_justifications(justifications, None, &complainers)?;
        Ok(Round4State::new(view, qualified))
    }
}
