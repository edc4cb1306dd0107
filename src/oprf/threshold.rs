//! The threshold OPRF (PROTOCOLS.md §4): the key is shared among m
//! servers; the client sends one checked request to t or more of them,
//! names every server that cheated and finalizes from t correct answers.
//! Outputs equal the single-server OPRF's under the shared key; each
//! server runs [`crate::threshold::evaluate_share`].

use rand_core::CryptoRng;
use zeroize::Zeroizing;

use super::client::{blind_oprf_mode, copy_inputs, unblind_and_finalize, Blinded};
use crate::group::PrimeOrderGroup;
use crate::oblivious::Kappa;
use crate::threshold::{Commitments, Failure, PartyId, Recovered, Response, ThresholdRequest};
use crate::Error;

/// A client batch of the threshold OPRF: inputs, blinds and one checked
/// request for all servers. Not clonable; [`ThresholdClientBatch::finalize`]
/// consumes it; secrets are wiped on drop.
pub struct ThresholdClientBatch<G: PrimeOrderGroup> {
    inputs: Zeroizing<Vec<Vec<u8>>>,
    blinds: Zeroizing<Vec<G::Scalar>>,
    request: ThresholdRequest<G>,
}

impl<G: PrimeOrderGroup> core::fmt::Debug for ThresholdClientBatch<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ThresholdClientBatch")
            .field("inputs", &self.inputs.len())
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> ThresholdClientBatch<G> {
    /// Hashes and blinds `inputs` and builds the request for the servers
    /// sharing the key of `commitments` (any t of them, or exactly the
    /// named `quorum`, whose servers then pre-multiply by their Lagrange
    /// coefficients). Errors as [`super::CheckedClientBatch::blind`], and
    /// [`Error::InvalidPartyId`] for a malformed quorum.
    pub fn blind<R: CryptoRng + ?Sized>(
        inputs: &[&[u8]],
        commitments: &Commitments<G>,
        quorum: Option<&[PartyId]>,
        kappa: Kappa,
        rng: &mut R,
    ) -> Result<Self, Error> {
        let Blinded {
            blinds,
            elements,
            encoded,
        } = blind_oprf_mode::<G, R>(inputs, rng)?;
        let request = ThresholdRequest::new(&elements, &encoded, commitments, quorum, kappa, rng)?;
        Ok(ThresholdClientBatch {
            inputs: copy_inputs(inputs),
            blinds,
            request,
        })
    }

    /// The elements every server evaluates (`request_len()` encodings).
    pub fn blinded_elements(&self) -> &[u8] {
        self.request.elements()
    }

    /// How many elements each server evaluates: the inputs and the balancer.
    pub fn request_len(&self) -> usize {
        self.request.len()
    }

    /// The number of inputs (and of outputs).
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// Never true: a batch has at least one input.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// Checks the servers' answers, combines t correct ones and returns
    /// the PRF outputs of the inputs, in order, with the servers caught
    /// cheating; or, with fewer than t correct answers, a [`Failure`]
    /// naming them and no output (see [`ThresholdRequest::combine`]).
    pub fn finalize(
        self,
        responses: &[Response<'_>],
    ) -> Result<Recovered<Zeroizing<Vec<u8>>>, Failure> {
        let ThresholdClientBatch {
            inputs,
            blinds,
            request,
        } = self;
        let combined = request.combine(responses)?;
        Ok(Recovered {
            outputs: unblind_and_finalize::<G>(&inputs, None, &blinds, &combined.outputs),
            cheaters: combined.cheaters,
        })
    }
}
