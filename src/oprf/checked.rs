//! The batch OPRF secure against a malicious server: RFC 9497 OPRF-mode
//! hashing, blinding, unblinding and finalization around one checked
//! oblivious exponentiation ([`crate::oblivious`]). Same inputs and key give
//! the same outputs as the semi-honest OPRF; the server runs its plain
//! batch evaluation ([`super::OprfServer::evaluate`]) on one more element,
//! and no proof is exchanged.

use std::sync::Arc;

use rand_core::CryptoRng;

use super::client::{finalize_outputs, finalize_received, Output};
use super::context::{Context, Mode};
use crate::blinding::Blinding;
use crate::group::offset::FixedBases;
use crate::group::PrimeOrderGroup;
use crate::message::{BlindedElements, EvaluatedElements};
use crate::oblivious::{Check, Kappa, Request};
use crate::Error;

/// The configuration of checked batches: which check, and κ. Build it with
/// [`CheckedOprfClient::committed_key`] (the default check, against the
/// server's public key) or [`CheckedOprfClient::key_free`].
#[derive(Clone, Debug)]
pub struct CheckedOprfClient<G: PrimeOrderGroup> {
    context: Context,
    /// The server's public key (committed-key check), or none (key-free).
    public_key: Option<G::Element>,
    /// The engine's tables of the generator and the public key, where it
    /// has them: the committed-key check's batches are then blinded
    /// additively (docs/PROTOCOLS.md §3), else multiplicatively.
    bases: Option<Arc<FixedBases<G>>>,
    kappa: Kappa,
}

impl<G: PrimeOrderGroup> CheckedOprfClient<G> {
    /// Batches checked against the server's public key `C = k·B`: every
    /// answer must use that key ([`Error::InvalidElement`] for the
    /// identity). Where the group's 8-lane engine runs and multiplies fixed
    /// points by tables (P-256), the batches are blinded additively,
    /// `H(x) + r·B`, and unblinded as `Y − r·C`, by tables of `B` and `C`
    /// computed here (half a millisecond to a millisecond each, and
    /// cached per process for the generator and the four keys most
    /// recently used; the client holds its key's, 330 to 600 KB);
    /// elsewhere as RFC 9497 blinds, `r·H(x)`. The outputs are the same
    /// either way, and so is what the server sees: uniformly random
    /// elements.
    pub fn committed_key(public_key: G::Element, kappa: Kappa) -> Result<Self, Error> {
        let public_key = super::client::usable_key::<G>(public_key)?;
        Ok(CheckedOprfClient {
            context: Context::new::<G>(Mode::Oprf),
            bases: FixedBases::new(&public_key),
            public_key: Some(public_key),
            kappa,
        })
    }

    /// Batches checked without a public key: the server must apply one key,
    /// whichever, to the whole batch (weaker: see [`crate::oblivious`]).
    pub fn key_free(kappa: Kappa) -> Self {
        CheckedOprfClient {
            context: Context::new::<G>(Mode::Oprf),
            public_key: None,
            bases: None,
            kappa,
        }
    }

    /// The check the batches carry.
    pub fn check(&self) -> Check {
        match self.public_key {
            Some(_) => Check::CommittedKey,
            None => Check::KeyFree,
        }
    }

    /// Hashes and blinds `inputs` and hides the balancer (and, for the
    /// key-free check, padding) among them. Errors: [`Error::EmptyInput`]
    /// for no input, [`Error::BadLength`] for an input above 65535 bytes or
    /// a request above [`crate::message::MAX_BATCH`] elements,
    /// [`Error::InvalidInput`] if an input hashes to the identity.
    pub fn blind<R: CryptoRng + ?Sized>(
        &self,
        inputs: &[&[u8]],
        rng: &mut R,
    ) -> Result<CheckedOprfBatch<G>, Error> {
        let dst = &self.context.hash_to_group_dst;
        let blinding = match &self.bases {
            Some(bases) => Blinding::random_offset(dst, inputs, bases, rng)?,
            None => Blinding::random(dst, inputs, rng)?,
        };
        let request = match &self.public_key {
            Some(key) => Request::committed_key(&blinding.request, key, self.kappa, rng)?,
            None => Request::key_free(&blinding.request, self.kappa, rng)?,
        };
        Ok(CheckedOprfBatch { blinding, request })
    }
}

/// A checked OPRF batch: the inputs, their blinds and the checked request.
/// Not clonable; [`CheckedOprfBatch::finalize`] consumes it; blinds and
/// check coins are wiped on drop. So a batch's secrets serve one answer
/// only — neither of these compiles:
///
/// ```compile_fail
/// # use oblivex::{group::Ristretto255, oprf::CheckedOprfBatch};
/// fn keep_a_copy(batch: &CheckedOprfBatch<Ristretto255>) {
///     let _copy: CheckedOprfBatch<Ristretto255> = batch.clone();
/// }
/// ```
///
/// ```compile_fail
/// # use oblivex::{group::Ristretto255, message::EvaluatedElements, oprf::CheckedOprfBatch};
/// fn finalize_twice(batch: CheckedOprfBatch<Ristretto255>, answer: &EvaluatedElements<Ristretto255>) {
///     let _ = batch.finalize(answer);
///     let _ = batch.finalize(answer);
/// }
/// ```
pub struct CheckedOprfBatch<G: PrimeOrderGroup> {
    blinding: Blinding<G>,
    request: Request<G>,
}

impl<G: PrimeOrderGroup> core::fmt::Debug for CheckedOprfBatch<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CheckedOprfBatch")
            .field("suite", &G::SUITE_ID)
            .field("inputs", &self.len())
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> CheckedOprfBatch<G> {
    /// The elements to send to the server: the blinded inputs, the balancer
    /// at a random position and, for the key-free check, padding.
    pub fn request(&self) -> &BlindedElements<G> {
        self.request.message()
    }

    /// The check this batch carries.
    pub fn check(&self) -> Check {
        self.request.check()
    }

    /// The number of inputs (and of outputs).
    pub fn len(&self) -> usize {
        self.blinding.inputs.len()
    }

    /// Never true: a batch has at least one input.
    pub fn is_empty(&self) -> bool {
        self.blinding.inputs.is_empty()
    }

    /// Checks the server's answer (one element per element sent) and
    /// returns the PRF outputs of the inputs, in order — all of them, or
    /// none: [`Error::VerificationFailed`] when the server did not apply its
    /// key (the committed one, for the committed-key check) to every
    /// element, [`Error::BadLength`] for an answer of the wrong size.
    pub fn finalize(self, response: &EvaluatedElements<G>) -> Result<Vec<Output>, Error> {
        let CheckedOprfBatch { blinding, request } = self;
        if response.received().lanes.is_some() {
            // The engine's points of the answer, kept by its check, serve
            // the unblinding too: not decoded a second time.
            let slots = request.verify_slots(response)?;
            let unblinded = blinding.unblind_among(response, &slots);
            return Ok(finalize_outputs::<G>(&blinding.inputs, &unblinded, None));
        }
        let answers = request.verify_answer(response)?;
        Ok(finalize_received(&blinding, &answers, None))
    }
}
