//! Rounds 2 and 3: the complaints are broadcast, each accused dealer
//! answers in public with the pairs it dealt to its complainers, and the
//! qualified set QUAL follows, the same at every honest party (GJKR,
//! New-DKG steps 1(b)–(c) and 2).

use super::blame::Offence;
use super::checks::pedersen_holds;
use super::messages::{Complaints, FeldmanCommitments, Justifications, Received, RevealedPair};
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
        let lists = view.sort(
            complaints,
            Some(own),
            Complaints::from_bytes,
            Complaints::sender,
        )?;
        let lists = view.accept(2, lists, |_, _| true);
        let mut complainers = vec![Vec::new(); view.params.parties()];
        for list in lists.iter().flatten() {
            for &dealer in list.accused() {
                complainers[slot(dealer)].push(list.sender());
            }
        }
        for dealer in view.params.ids() {
            let count = complainers[slot(dealer)].len();
            if !view.disqualified[slot(dealer)] && count >= view.params.threshold() {
                view.blame(dealer, Offence::TooManyComplaints { complaints: count });
            }
        }
        let me = view.me;
        // Disqualified, this party keeps its pairs to itself: t of them
        // would publish its polynomial, and they would no longer count.
        let answers: Vec<RevealedPair<G>> = if view.disqualified[slot(me)] {
            Vec::new()
        } else {
            complainers[slot(me)]
                .iter()
                .map(|&complainer| RevealedPair {
                    party: complainer,
                    share: polynomial.at(complainer),
                    blinding: blinding.at(complainer),
                })
                .collect()
        };
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
        let messages = view.sort(
            justifications,
            Some(own),
            Justifications::from_bytes,
            Justifications::sender,
        )?;
        let messages = view.accept(3, messages, |_, _| true);
        for (index, message) in messages.iter().enumerate() {
            let dealer = index as PartyId + 1;
            let Some(message) = message else { continue };
            if view.disqualified[index] {
                continue;
            }
            for &complainer in &complainers[index] {
                let answer = message.pairs().iter().find(|p| p.party == complainer);
                let Some(answer) = answer else {
                    view.blame(dealer, Offence::ComplaintUnanswered { complainer });
                    continue;
                };
                let commitments = view.pedersen[index].as_deref().unwrap_or_default();
                if pedersen_holds::<G>(
                    commitments,
                    view.params.first_coefficient(),
                    &view.h,
                    complainer,
                    &answer.share,
                    &answer.blinding,
                ) {
                    view.blame(complainer, Offence::ComplaintRefuted { dealer });
                    if complainer == view.me {
                        view.received[index] =
                            Some((answer.share.clone(), answer.blinding.clone()));
                    }
                } else {
                    view.blame(dealer, Offence::WrongJustification { complainer });
                }
            }
        }
        let qualified = view.qualified();
        if qualified.is_empty() {
            return Err(DkgError::NoQualifiedParty);
        }
        let feldman = polynomial.feldman();
        view.feldman[slot(view.me)] = Some(feldman.clone());
        let message = FeldmanCommitments::new(view.params, view.me, feldman);
        Ok((Round4State::new(view, qualified), message))
    }
}
