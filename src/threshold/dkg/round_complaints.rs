//! Rounds 2 and 3: the complaints are broadcast, each accused dealer
//! answers in public with the pairs it dealt to its complainers, and the
//! qualified set QUAL follows, the same at every honest party (GJKR,
//! New-DKG steps 1(b)–(c) and 2).

use super::blame::Offence;
use super::checks::pedersen_holds;
use super::messages::{Complaints, FeldmanCommitments, Justifications, Received, RevealedPair};
use super::params::Role;
use super::polynomial::SecretPolynomial;
use super::round_feldman::Round4State;
use super::view::{slot, state_debug, View};
use super::DkgError;
use crate::group::PrimeOrderGroup;
use crate::threshold::PartyId;

/// A party after round 2, waiting for every other party's
/// [`Complaints`]. Holds its polynomials (wiped on drop).
pub struct Round2State<G: PrimeOrderGroup> {
    view: View<G>,
    polynomial: SecretPolynomial<G>,
    blinding: SecretPolynomial<G>,
    accused: Vec<PartyId>,
}

/// A party after round 3, waiting for every other party's
/// [`Justifications`]. Holds its secret polynomial (wiped on drop).
pub struct Round3State<G: PrimeOrderGroup> {
    view: View<G>,
    polynomial: SecretPolynomial<G>,
    /// Who complained against each dealer (by dealer slot).
    complainers: Vec<Vec<PartyId>>,
    answers: Vec<RevealedPair<G>>,
}

state_debug!(Round2State);
state_debug!(Round3State);

impl<G: PrimeOrderGroup> Round2State<G> {
    pub(super) fn new(
        view: View<G>,
        polynomial: SecretPolynomial<G>,
        blinding: SecretPolynomial<G>,
        accused: Vec<PartyId>,
    ) -> Self {
        Round2State {
            view,
            polynomial,
            blinding,
            accused,
        }
    }

    /// Processes round 2 and returns round 3's broadcast: the other
    /// parties' [`Complaints`]. A party whose complaint list is missing or
    /// does not decode is disqualified. A dealer accused by at least t
    /// parties is disqualified (at least one accuser is honest) and does
    /// not answer; otherwise this party answers every complaint against it
    /// with the pair it dealt to the complainer (now public). Errors as for
    /// [`super::Round1State::round2`].
    pub fn round3(
        self,
        complaints: &[Received<'_>],
    ) -> Result<(Round3State<G>, Justifications<G>), DkgError> {
        let Round2State {
            mut view,
            polynomial,
            blinding,
            accused,
        } = self;
        let own = Complaints::new(view.params, view.me, accused);
        let complainers = view.receive_complaints(complaints, Some(own))?;
        let me = view.me;
        let answers = answer(
            view.params.threshold(),
            &complainers[slot(me)],
            &polynomial,
            &blinding,
        );
        let message = Justifications::new(view.params, me, answers.clone());
        Ok((
            Round3State {
                view,
                polynomial,
                complainers,
                answers,
            },
            message,
        ))
    }
}

/// A dealer's answers to the complaints of `complainers`: the pair it
/// dealt to each, or none if they are t or more (the dealer is then
/// disqualified anyway, and t pairs would publish its polynomial).
pub(super) fn answer<G: PrimeOrderGroup>(
    threshold: usize,
    complainers: &[PartyId],
    polynomial: &SecretPolynomial<G>,
    blinding: &SecretPolynomial<G>,
) -> Vec<RevealedPair<G>> {
    if complainers.len() >= threshold {
        return Vec::new();
    }
    complainers
        .iter()
        .map(|&complainer| RevealedPair {
            party: complainer,
            share: polynomial.at(complainer),
            blinding: blinding.at(complainer),
        })
        .collect()
}

impl<G: PrimeOrderGroup> Round3State<G> {
    /// Processes round 3, fixes QUAL and returns round 4's broadcast, this
    /// party's Feldman commitments `A_k = a_k·B`: the other parties'
    /// [`Justifications`]. A party whose justification message is missing
    /// or does not decode is disqualified; so is a dealer that leaves a
    /// complaint unanswered or answers with a pair that fails the Pedersen
    /// check. A complaint answered by a valid pair is recorded
    /// ([`Offence::ComplaintRefuted`], not disqualifying), and the
    /// complainer takes the published pair as its share. Answers to no
    /// complaint are ignored. [`DkgError::NoQualifiedParty`] if every
    /// party is disqualified; other errors as for
    /// [`super::Round1State::round2`].
    pub fn round4(
        self,
        justifications: &[Received<'_>],
    ) -> Result<(Round4State<G>, FeldmanCommitments<G>), DkgError> {
        let Round3State {
            mut view,
            polynomial,
            complainers,
            answers,
        } = self;
        let own = Justifications::new(view.params, view.me, answers);
        let qualified = view.receive_justifications(justifications, Some(own), &complainers)?;
        let feldman = polynomial.feldman();
        view.feldman[slot(view.me)] = Some(feldman.clone());
        let message = FeldmanCommitments::new(view.params, view.me, feldman);
        Ok((Round4State::new(view, qualified), message))
    }
}

impl<G: PrimeOrderGroup> View<G> {
    /// Round 2 at a receiver: takes the receivers' [`Complaints`] (`own`
    /// among them, where this party sent one) and returns who complained
    /// against each dealer (by dealer slot). A complaint list missing or
    /// not decoding disqualifies its sender (where it is a dealer too: not
    /// in a resharing); a dealer accused by at least t receivers is
    /// disqualified ([`Offence::TooManyComplaints`]).
    pub(super) fn receive_complaints(
        &mut self,
        complaints: &[Received<'_>],
        own: Option<Complaints<G>>,
    ) -> Result<Vec<Vec<PartyId>>, DkgError> {
        let lists = self.sort(
            Role::Receiver,
            complaints,
            own,
            Complaints::from_bytes,
            Complaints::sender,
        )?;
        let lists = self.accept(2, lists, |_, _| true);
        let mut complainers = vec![Vec::new(); self.params.count(Role::Dealer)];
        for list in lists.iter().flatten() {
            for &dealer in list.accused() {
                complainers[slot(dealer)].push(list.sender());
            }
        }
        for dealer in self.params.ids(Role::Dealer) {
            let count = complainers[slot(dealer)].len();
            if !self.disqualified[slot(dealer)] && count >= self.params.threshold() {
                self.blame(dealer, Offence::TooManyComplaints { complaints: count });
            }
        }
        Ok(complainers)
    }

    /// Round 3 at a receiver: takes the dealers' [`Justifications`] (`own`
    /// among them, where this party is a dealer), judges each answer to
    /// the complaints `complainers` (by dealer slot) and returns QUAL. A
    /// dealer whose justifications are missing or do not decode, that
    /// leaves a complaint unanswered or answers it with a pair failing the
    /// Pedersen check is disqualified; a valid answer refutes the
    /// complaint ([`Offence::ComplaintRefuted`]) and, to this party's own
    /// complaint, becomes its pair. [`DkgError::NoQualifiedParty`] if fewer
    /// dealers than needed stay qualified (none, or fewer than the old
    /// threshold in a resharing).
    pub(super) fn receive_justifications(
        &mut self,
        justifications: &[Received<'_>],
        own: Option<Justifications<G>>,
        complainers: &[Vec<PartyId>],
    ) -> Result<Vec<PartyId>, DkgError> {
        let messages = self.sort(
            Role::Dealer,
            justifications,
            own,
            Justifications::from_bytes,
            Justifications::sender,
        )?;
        let messages = self.accept(3, messages, |_, _| true);
        for (index, message) in messages.iter().enumerate() {
            let dealer = index as PartyId + 1;
            let Some(message) = message else { continue };
            if self.disqualified[index] {
                continue;
            }
            for &complainer in &complainers[index] {
                let answer = message.pairs().iter().find(|p| p.party == complainer);
                let Some(answer) = answer else {
                    self.blame(dealer, Offence::ComplaintUnanswered { complainer });
                    continue;
                };
                let commitments = self.pedersen[index].as_deref().unwrap_or_default();
                if pedersen_holds::<G>(
                    commitments,
                    self.params.first_coefficient(),
                    &self.h,
                    complainer,
                    &answer.share,
                    &answer.blinding,
                ) {
                    self.blame(complainer, Offence::ComplaintRefuted { dealer });
                    if complainer == self.me {
                        self.received[index] =
                            Some((answer.share.clone(), answer.blinding.clone()));
                    }
                } else {
                    self.blame(dealer, Offence::WrongJustification { complainer });
                }
            }
        }
        let qualified = self.qualified();
        if qualified.len() < self.params.dealers_needed() {
            return Err(DkgError::NoQualifiedParty);
        }
        Ok(qualified)
    }
}
