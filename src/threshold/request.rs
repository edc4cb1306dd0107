//! The multi-server oblivious exponentiation (docs/PROTOCOLS.md §4): one checked
//! request for every server, every answer checked against its server's
//! commitment, t correct answers combined, the servers that failed named.

use rand_core::CryptoRng;

use super::integer_weights::combine_at_zero_vartime;
use super::lagrange::{check_party_set, lagrange_at_zero, lagrange_for};
use super::{Commitments, PartyId};
use crate::group::PrimeOrderGroup;
use crate::message::{BlindedElements, EvaluatedElements};
use crate::oblivious::{Kappa, Request};
use crate::Error;

/// One server's answer to a [`ThresholdRequest`]: its party id and the
/// bytes it sent (an [`EvaluatedElements`] encoding, one element per
/// element of the request, in order). Bytes, not a decoded message: an
/// answer that does not even decode condemns its server, so the client
/// decodes it itself.
#[derive(Clone, Copy, Debug)]
pub struct Response<'a> {
    /// The answering server's party id.
    pub party: PartyId,
    /// Its encoded answer.
    pub elements: &'a [u8],
}

/// A recovered batch: one output per element the caller asked for, and the
/// servers whose answers failed their check (or did not decode), in
/// increasing order. The outputs are correct even when cheaters are named.
#[derive(Clone, Debug)]
pub struct Recovered<T> {
    /// The outputs, in the caller's order.
    pub outputs: Vec<T>,
    /// The servers caught cheating.
    pub cheaters: Vec<PartyId>,
}

/// A batch that could not be recovered: the reason, and the servers caught
/// cheating (none for a caller error such as a repeated party id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Why: [`Error::NotEnoughResponses`] (fewer than t correct answers),
    /// [`Error::VerificationFailed`] (a cheater in a named quorum),
    /// [`Error::InvalidPartyId`] (answers from a repeated id, or from a
    /// server outside the named quorum).
    pub error: Error,
    /// The servers caught cheating, in increasing order.
    pub cheaters: Vec<PartyId>,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure {
            error,
            cheaters: Vec::new(),
        }
    }
}

impl core::fmt::Display for Failure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}", self.error)?;
        if !self.cheaters.is_empty() {
            write!(f, " (servers caught cheating: {:?})", self.cheaters)?;
        }
        Ok(())
    }
}

impl std::error::Error for Failure {}

/// A batch of elements to be raised to a t-of-m shared key by any t (or
/// more) of its servers, with the balancer check of [`crate::oblivious`]
/// (committed-key variant: every server's commitment is known). One request
/// serves every server of this batch and is consumed by
/// [`ThresholdRequest::combine`]; it is never reused.
pub struct ThresholdRequest<G: PrimeOrderGroup> {
    request: Request<G>,
    commitments: Commitments<G>,
    quorum: Option<Vec<PartyId>>,
}

impl<G: PrimeOrderGroup> core::fmt::Debug for ThresholdRequest<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ThresholdRequest")
            .field("request", &self.request)
            .field("threshold", &self.commitments.threshold())
            .field("quorum", &self.quorum)
            .finish()
    }
}

impl<G: PrimeOrderGroup> ThresholdRequest<G> {
    /// A request for `elements` to the servers sharing the key of
    /// `commitments`. With `quorum`
    /// (exactly t distinct party ids), each of those servers multiplies its
    /// share by its Lagrange coefficient ([`super::evaluate_share`] with
    /// the same quorum), which saves the client the Lagrange step, but then
    /// only those servers' answers can be combined. Without it any t
    /// servers may answer. [`Error::InvalidPartyId`] for a quorum of the
    /// wrong size or with a zero or repeated id, [`Error::BadLength`] if
    /// the request would exceed [`crate::message::MAX_BATCH`] elements.
    pub fn new<R: CryptoRng + ?Sized>(
        elements: &BlindedElements<G>,
        commitments: &Commitments<G>,
        quorum: Option<&[PartyId]>,
        kappa: Kappa,
        rng: &mut R,
    ) -> Result<Self, Error> {
        if let Some(quorum) = quorum {
            commitments.check_quorum(quorum)?;
        }
        Ok(ThresholdRequest {
            request: Request::committed_key(elements, commitments.public_key(), kappa, rng)?,
            commitments: commitments.clone(),
            quorum: quorum.map(<[PartyId]>::to_vec),
        })
    }

    /// The elements every server evaluates (the caller's elements with the
    /// balancer hidden among them).
    pub fn message(&self) -> &BlindedElements<G> {
        self.request.message()
    }

    /// The number of elements sent (the caller's, plus the balancer).
    pub fn len(&self) -> usize {
        self.request.len()
    }

    /// Never true: a request holds at least one element and the balancer.
    pub fn is_empty(&self) -> bool {
        self.request.is_empty()
    }

    /// The quorum named in the request, if any.
    pub fn quorum(&self) -> Option<&[PartyId]> {
        self.quorum.as_deref()
    }

    /// Checks one server's answer against that server's own commitment
    /// (times its Lagrange weight, with a named quorum) without spending
    /// the request, so that a client can check each answer as it arrives
    /// and combine as soon as t have passed: [`ThresholdRequest::combine`]
    /// is then given those t. Constant time in the request's coins (they
    /// stay secret for the answers still to come); only the verdict is
    /// public. `Ok(true)`: the answer passes (a wrong one passes with
    /// probability at most 2^-κ); `Ok(false)`: its server cheated (the
    /// answer fails its check, does not decode, or is not one element per
    /// element sent). [`Error::InvalidPartyId`] for an id zero or above
    /// [`super::MAX_PARTIES`], or outside the named quorum: the caller's
    /// mistake, not the server's.
    pub fn check_response(&self, response: &Response<'_>) -> Result<bool, Error> {
        check_response_ids(self.quorum(), core::slice::from_ref(response))?;
        let answer = match EvaluatedElements::<G>::from_bytes(response.elements) {
            Ok(decoded) if decoded.len() == self.request.len() => decoded,
            _ => return Ok(false),
        };
        let weight = match self.quorum() {
            Some(quorum) => Some(lagrange_for::<G>(quorum, response.party)?),
            None => None,
        };
        Ok(self
            .server_key(response.party, weight.as_ref())?
            .is_some_and(|key| self.request.holds_ct(answer.received(), &key)))
    }

    /// Checks the servers' answers and combines t correct ones into the
    /// shared key applied to each of the caller's elements. Call it once
    /// every answer to be used is in (the check is variable time and the
    /// request's coins are spent). Without a quorum: the first t answers
    /// that decode are combined and checked once against the shared public
    /// key; only if that fails is each answer checked against its own
    /// server's commitment, and t that pass are combined. Answers beyond
    /// the first t are checked too, so every cheater among the answers is
    /// named. With a quorum: every quorum server must answer; their sum is
    /// checked, and on failure each is checked to name the cheaters, and
    /// the batch fails ([`Error::VerificationFailed`]: ask a new quorum
    /// with a fresh request).
    pub fn combine(self, responses: &[Response<'_>]) -> Result<Recovered<G::Element>, Failure> {
        check_response_ids(self.quorum(), responses)?;
        // Every answer used is in: the coins may be used in variable time.
        self.request.spend_coins();
        // Answers that do not even decode condemn their server.
        let mut cheaters = Vec::new();
        let mut answers: Vec<(PartyId, Vec<G::Element>)> = Vec::new();
        for response in responses {
            match EvaluatedElements::<G>::from_bytes(response.elements) {
                Ok(decoded) if decoded.len() == self.request.len() => {
                    answers.push((response.party, decoded.elements().to_vec()))
                }
                _ => cheaters.push(response.party),
            }
        }
        let result = match &self.quorum {
            Some(quorum) => self.combine_quorum(quorum, answers, &mut cheaters),
            None => self.combine_any(answers, &mut cheaters),
        };
        cheaters.sort_unstable();
        match result {
            Ok(combined) => Ok(Recovered {
                outputs: self.request.callers_answers(combined),
                cheaters,
            }),
            Err(error) => Err(Failure { error, cheaters }),
        }
    }

    /// Any t servers: Lagrange-combine, check once, and fall back to
    /// checking each server if the combination fails.
    fn combine_any(
        &self,
        answers: Vec<(PartyId, Vec<G::Element>)>,
        cheaters: &mut Vec<PartyId>,
    ) -> Result<Vec<G::Element>, Error> {
        let t = self.commitments.threshold();
        let shared_key = self.commitments.public_key();
        if answers.len() >= t {
            let fast = lagrange_combine::<G>(&answers[..t])?;
            if self.request.holds(&fast, Some(shared_key)) {
                // The t combined are right; name any cheater among the rest.
                for (id, extra) in &answers[t..] {
                    if !self.server_passes(*id, extra, None)? {
                        cheaters.push(*id);
                    }
                }
                return Ok(fast);
            }
        }
        // Check each server: to combine t verified answers, and, when there
        // are too few to combine, still to name every cheater among them.
        let mut verified = Vec::new();
        for (id, answer) in answers {
            if self.server_passes(id, &answer, None)? {
                verified.push((id, answer));
            } else {
                cheaters.push(id);
            }
        }
        if verified.len() < t {
            return Err(Error::NotEnoughResponses);
        }
        let combined = lagrange_combine::<G>(&verified[..t])?;
        // Each of the t passed its own check, so this holds unless one of
        // them escaped with probability 2^-κ; checking again costs one MSM.
        if !self.request.holds(&combined, Some(shared_key)) {
            return Err(Error::VerificationFailed);
        }
        Ok(combined)
    }

    /// A named quorum: the answers are already weighted, so they add up.
    fn combine_quorum(
        &self,
        quorum: &[PartyId],
        answers: Vec<(PartyId, Vec<G::Element>)>,
        cheaters: &mut Vec<PartyId>,
    ) -> Result<Vec<G::Element>, Error> {
        if answers.len() == quorum.len() && cheaters.is_empty() {
            let mut sum = answers[0].1.clone();
            for (_, answer) in &answers[1..] {
                for (total, y) in sum.iter_mut().zip(answer) {
                    *total = G::add(total, y);
                }
            }
            if self
                .request
                .holds(&sum, Some(self.commitments.public_key()))
            {
                return Ok(sum);
            }
        }
        let weights = lagrange_at_zero::<G>(quorum)?;
        for (id, answer) in &answers {
            let position = quorum
                .iter()
                .position(|j| j == id)
                .expect("check_response_ids put every id in the quorum");
            if !self.server_passes(*id, answer, Some(&weights[position]))? {
                cheaters.push(*id);
            }
        }
        Err(if cheaters.is_empty() {
            // Nobody cheated, but someone did not answer.
            Error::NotEnoughResponses
        } else {
            Error::VerificationFailed
        })
    }

    /// Whether server `id`'s answer passes the check against its own
    /// commitment `C_id` (times its Lagrange weight, for a named quorum).
    fn server_passes(
        &self,
        id: PartyId,
        answer: &[G::Element],
        weight: Option<&G::Scalar>,
    ) -> Result<bool, Error> {
        Ok(self
            .server_key(id, weight)?
            .is_some_and(|key| self.request.holds(answer, Some(&key))))
    }

    /// The key server `id`'s answer must carry: its commitment `C_id`,
    /// times its Lagrange weight for a named quorum; `None` when no server
    /// can hold that share (its commitment is the identity: whatever it
    /// sent is wrong).
    fn server_key(
        &self,
        id: PartyId,
        weight: Option<&G::Scalar>,
    ) -> Result<Option<G::Element>, Error> {
        let commitment = match self.commitments.party_commitment(id) {
            Ok(c) => c,
            Err(Error::InvalidElement) => return Ok(None),
            Err(e) => return Err(e),
        };
        Ok(Some(match weight {
            Some(w) => G::mul(&commitment, w),
            None => commitment,
        }))
    }
}

/// `Σ_j λ_j·Y_j`, element by element, for the given servers' answers.
fn lagrange_combine<G: PrimeOrderGroup>(
    answers: &[(PartyId, Vec<G::Element>)],
) -> Result<Vec<G::Element>, Error> {
    let ids: Vec<PartyId> = answers.iter().map(|(id, _)| *id).collect();
    let columns: Vec<&[G::Element]> = answers.iter().map(|(_, y)| y.as_slice()).collect();
    combine_at_zero_vartime::<G>(&ids, &columns)
}

/// Checks the party ids of a set of answers before anything is spent:
/// none zero or repeated, at most [`super::MAX_PARTIES`], and with a
/// `quorum` every one inside it ([`Error::InvalidPartyId`] otherwise). No
/// answers at all pass (they are too few, which the combination reports).
/// The batches' `finalize` runs it first; a caller that must not spend a
/// batch on a bad id (the C layer) runs it before.
pub fn check_response_ids(
    quorum: Option<&[PartyId]>,
    responses: &[Response<'_>],
) -> Result<(), Error> {
    let ids: Vec<PartyId> = responses.iter().map(|r| r.party).collect();
    if ids.is_empty() {
        return Ok(());
    }
    check_party_set(&ids)?;
    match quorum {
        Some(quorum) if ids.iter().any(|id| !quorum.contains(id)) => Err(Error::InvalidPartyId),
        _ => Ok(()),
    }
}

/// Server side: `k_j·X_i` (or `λ_j·k_j·X_i` when the request names a
/// quorum) for every element of `request`, in order. The same plain batch
/// evaluation as a single server's; the share's multiplication is constant
/// time. Every element is an evaluation the client can use (the balancer
/// looks like any other): rate and issuance limits must count
/// `request.len()`. [`Error::InvalidPartyId`] if a quorum is named that
/// lacks this server or is malformed.
pub fn evaluate_share<G: PrimeOrderGroup>(
    share: &super::KeyShare<G>,
    quorum: Option<&[PartyId]>,
    request: &BlindedElements<G>,
) -> Result<EvaluatedElements<G>, Error> {
    // The quorum is checked first: a server outside it answers nothing.
    let key = match quorum {
        Some(quorum) => {
            let weight = super::lagrange::lagrange_for::<G>(quorum, share.id())?;
            G::scalar_mul(&weight, share.secret())
        }
        None => share.secret().clone(),
    };
    Ok(request.evaluate_with(&key))
}
