//! The threshold OPRF: the key is shared among m servers; the client sends
//! one checked request to t or more of them, names every server whose
//! answer fails its check and finalizes from t correct answers. Outputs
//! equal the single-server OPRF's under the shared key; each server runs
//! [`crate::threshold::evaluate_share`].

use rand_core::CryptoRng;

use super::client::{finalize_outputs, Output};
use super::context::{Context, Mode};
use crate::blinding::Blinding;
use crate::group::PrimeOrderGroup;
use crate::message::BlindedElements;
use crate::oblivious::Kappa;
use crate::threshold::{Commitments, Failure, PartyId, Recovered, Response, ThresholdRequest};
use crate::Error;

/// The configuration of threshold OPRF batches: the servers' commitments,
/// κ, and optionally a named quorum.
#[derive(Clone, Debug)]
pub struct ThresholdOprfClient<G: PrimeOrderGroup> {
    context: Context,
    commitments: Commitments<G>,
    quorum: Option<Vec<PartyId>>,
    kappa: Kappa,
}

impl<G: PrimeOrderGroup> ThresholdOprfClient<G> {
    /// Batches for the servers sharing the key of `commitments`; any t of
    /// them may answer.
    pub fn new(commitments: Commitments<G>, kappa: Kappa) -> Self {
        ThresholdOprfClient {
            context: Context::new::<G>(Mode::Oprf),
            commitments,
            quorum: None,
            kappa,
        }
    }

    /// Batches for exactly the named `quorum` (t distinct party ids), whose
    /// servers then pre-multiply their shares by their Lagrange
    /// coefficients (the client saves the Lagrange step, but only those
    /// servers' answers can be combined). [`Error::InvalidPartyId`] for a
    /// quorum of the wrong size or with a zero or repeated id.
    pub fn with_quorum(mut self, quorum: &[PartyId]) -> Result<Self, Error> {
        self.commitments.check_quorum(quorum)?;
        self.quorum = Some(quorum.to_vec());
        Ok(self)
    }

    /// Hashes and blinds `inputs` and builds the one request every server
    /// answers. Errors as [`super::CheckedOprfClient::blind`].
    pub fn blind<R: CryptoRng + ?Sized>(
        &self,
        inputs: &[&[u8]],
        rng: &mut R,
    ) -> Result<ThresholdOprfBatch<G>, Error> {
        let blinding = Blinding::random(&self.context.hash_to_group_dst, inputs, rng)?;
        let request = ThresholdRequest::new(
            &blinding.request,
            &self.commitments,
            self.quorum.as_deref(),
            self.kappa,
            rng,
        )?;
        Ok(ThresholdOprfBatch { blinding, request })
    }
}

/// A threshold OPRF batch: inputs, blinds and one checked request for all
/// servers. Not clonable; [`ThresholdOprfBatch::finalize`] consumes it;
/// secrets are wiped on drop.
pub struct ThresholdOprfBatch<G: PrimeOrderGroup> {
    blinding: Blinding<G>,
    request: ThresholdRequest<G>,
}

impl<G: PrimeOrderGroup> core::fmt::Debug for ThresholdOprfBatch<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ThresholdOprfBatch")
            .field("inputs", &self.len())
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> ThresholdOprfBatch<G> {
    /// The elements every server evaluates: the blinded inputs and the
    /// balancer.
    pub fn request(&self) -> &BlindedElements<G> {
        self.request.message()
    }

    /// The quorum named in the request, if any (the servers pass it to
    /// [`crate::threshold::evaluate_share`]).
    pub fn quorum(&self) -> Option<&[PartyId]> {
        self.request.quorum()
    }

    /// The number of inputs (and of outputs).
    pub fn len(&self) -> usize {
        self.blinding.inputs.len()
    }

    /// Never true: a batch has at least one input.
    pub fn is_empty(&self) -> bool {
        self.blinding.inputs.is_empty()
    }

    /// Checks one server's answer without spending the batch (see
    /// [`ThresholdRequest::check_response`]): check each answer as it
    /// arrives, and finalize with t that passed as soon as they are in.
    pub fn check_response(&self, response: &Response<'_>) -> Result<bool, Error> {
        self.request.check_response(response)
    }

    /// Checks the servers' answers, combines t correct ones and returns
    /// the PRF outputs of the inputs, in order, with the servers caught
    /// cheating; or, with fewer than t correct answers, a [`Failure`]
    /// naming them and no output (see [`ThresholdRequest::combine`]).
    pub fn finalize(self, responses: &[Response<'_>]) -> Result<Recovered<Output>, Failure> {
        let ThresholdOprfBatch { blinding, request } = self;
        let combined = request.combine(responses)?;
        Ok(Recovered {
            outputs: finalize_outputs::<G>(
                &blinding.inputs,
                &blinding.unblind(&combined.outputs),
                None,
            ),
            cheaters: combined.cheaters,
        })
    }
}
