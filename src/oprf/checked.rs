//! The batch OPRF secure against a malicious server (PROTOCOLS.md §2 + §3):
//! RFC 9497 OPRF-mode hashing, blinding, unblinding and finalization around
//! one checked oblivious exponentiation ([`crate::oblivious`]). Same inputs
//! and key give the same outputs as the semi-honest OPRF; the server runs
//! its plain batch evaluation ([`super::Server::evaluate`]) on one more
//! element, and no proof is exchanged.

use rand_core::CryptoRng;
use zeroize::Zeroizing;

use super::client::{blind_oprf_mode, copy_inputs, unblind_and_finalize, Blinded};
use crate::group::PrimeOrderGroup;
use crate::oblivious::{Check, Kappa, Request};
use crate::Error;

/// A client batch of the checked OPRF: the inputs, their blinds and the
/// checked request. Not clonable; [`CheckedClientBatch::verify_finalize`]
/// consumes it; blinds and check coins are wiped on drop. So a batch's
/// secrets serve one answer only — neither of these compiles:
///
/// ```compile_fail
/// # use oblivex::{group::Ristretto255, oprf::CheckedClientBatch};
/// fn keep_a_copy(batch: &CheckedClientBatch<Ristretto255>) {
///     let _copy: CheckedClientBatch<Ristretto255> = batch.clone();
/// }
/// ```
///
/// ```compile_fail
/// # use oblivex::{group::Ristretto255, oprf::CheckedClientBatch};
/// fn verify_twice(batch: CheckedClientBatch<Ristretto255>, answer: &[u8]) {
///     let _ = batch.verify_finalize(answer, None);
///     let _ = batch.verify_finalize(answer, None);
/// }
/// ```
pub struct CheckedClientBatch<G: PrimeOrderGroup> {
    inputs: Zeroizing<Vec<Vec<u8>>>,
    blinds: Zeroizing<Vec<G::Scalar>>,
    request: Request<G>,
}

impl<G: PrimeOrderGroup> core::fmt::Debug for CheckedClientBatch<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CheckedClientBatch")
            .field("suite", &G::SUITE_ID)
            .field("inputs", &self.inputs.len())
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> CheckedClientBatch<G> {
    /// Hashes and blinds `inputs` and builds the checked request (`check`
    /// and `kappa` as in [`crate::oblivious`]). The elements to send are
    /// [`CheckedClientBatch::blinded_elements`]: the blinded inputs, the
    /// balancer at a random position and, for the key-free check, padding.
    /// Errors: [`Error::EmptyInput`] for no input, [`Error::BadLength`] for
    /// more than 65535 inputs or an input above 65535 bytes,
    /// [`Error::InvalidInput`] if an input hashes to the identity.
    pub fn blind<R: CryptoRng + ?Sized>(
        inputs: &[&[u8]],
        check: Check,
        kappa: Kappa,
        rng: &mut R,
    ) -> Result<Self, Error> {
        let Blinded {
            blinds,
            elements,
            encoded,
        } = blind_oprf_mode::<G, R>(inputs, rng)?;
        let request = Request::new(&elements, &encoded, check, kappa, rng)?;
        Ok(CheckedClientBatch {
            inputs: copy_inputs(inputs),
            blinds,
            request,
        })
    }

    /// The elements to send to the server, `ELEMENT_LEN` bytes each
    /// ([`CheckedClientBatch::request_len`] of them).
    pub fn blinded_elements(&self) -> &[u8] {
        self.request.elements()
    }

    /// How many elements the server evaluates: the inputs, the balancer and
    /// any padding.
    pub fn request_len(&self) -> usize {
        self.request.len()
    }

    /// The check this batch carries.
    pub fn check(&self) -> Check {
        self.request.check()
    }

    /// The number of inputs (and of outputs).
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// Never true: a batch has at least one input.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// Checks the server's answer (`evaluated`: one encoded element per
    /// element sent) and returns the PRF outputs of the inputs, in order —
    /// all of them, or none: [`Error::VerificationFailed`] when the server
    /// did not apply its key (the one `public_key` commits to, for the
    /// committed-key check; [`Error::MissingPublicKey`] without it) to every
    /// element; [`Error::BadLength`] / [`Error::InvalidElement`] for a
    /// malformed answer.
    pub fn verify_finalize(
        self,
        evaluated: &[u8],
        public_key: Option<&G::Element>,
    ) -> Result<Vec<Zeroizing<Vec<u8>>>, Error> {
        let CheckedClientBatch {
            inputs,
            blinds,
            request,
        } = self;
        let answers = request.verify(evaluated, public_key)?;
        Ok(unblind_and_finalize::<G>(&inputs, None, &blinds, &answers))
    }
}
