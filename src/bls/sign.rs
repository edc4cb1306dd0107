//! Blind threshold signing of a batch: the client hashes
//! and blinds its messages, any t signers (or a named quorum) raise the
//! batch to their shares, the client checks every signer with the G1
//! balancer check (no pairing per share), combines and unblinds.

use blst::min_sig;
use rand_core::CryptoRng;

use super::{KeySet, PublicKey, SIGNATURE_DST};
use crate::blinding::Blinding;
use crate::group::Bls12381G1;
use crate::message::BlindedElements;
use crate::oblivious::Kappa;
use crate::threshold::{Failure, PartyId, Recovered, Response, ThresholdRequest};
use crate::Error;

/// Bytes of a signature (a compressed G1 point, blst `min_sig`).
pub const SIGNATURE_LEN: usize = 48;

/// The configuration of blind signing batches: the key set, κ, and
/// optionally a named quorum of signers.
#[derive(Clone, Debug)]
pub struct SigningClient {
    key_set: KeySet,
    quorum: Option<Vec<PartyId>>,
    kappa: Kappa,
}

impl SigningClient {
    /// Batches for the signers of `key_set`; any t of them may answer.
    pub fn new(key_set: KeySet, kappa: Kappa) -> Self {
        SigningClient {
            key_set,
            quorum: None,
            kappa,
        }
    }

    /// Batches for exactly the named `quorum` (t distinct party ids), whose
    /// signers then pre-multiply by their Lagrange coefficients.
    /// [`Error::InvalidPartyId`] for a quorum of the wrong size or with a
    /// zero or repeated id.
    pub fn with_quorum(mut self, quorum: &[PartyId]) -> Result<Self, Error> {
        self.key_set.commitments().check_quorum(quorum)?;
        self.quorum = Some(quorum.to_vec());
        Ok(self)
    }

    /// `X_i = r_i·H(m_i)` for every message (H: RFC 9380 hash to G1 with
    /// the ciphersuite's DST) and the one checked request for the signers.
    /// [`Error::EmptyInput`] for no message, [`Error::BadLength`] for a
    /// message above 65535 bytes or a request above
    /// [`crate::message::MAX_BATCH`] elements, [`Error::InvalidInput`] if a
    /// message hashes to the identity.
    pub fn blind<R: CryptoRng + ?Sized>(
        &self,
        messages: &[&[u8]],
        rng: &mut R,
    ) -> Result<SigningBatch, Error> {
        let blinding = Blinding::random(SIGNATURE_DST, messages, rng)?;
        let request = ThresholdRequest::new(
            &blinding.request,
            self.key_set.commitments(),
            self.quorum.as_deref(),
            self.kappa,
            rng,
        )?;
        Ok(SigningBatch { blinding, request })
    }
}

/// A client's batch of messages being signed blindly. Not clonable;
/// [`SigningBatch::finalize`] consumes it; blinds and check coins are wiped
/// on drop.
pub struct SigningBatch {
    blinding: Blinding<Bls12381G1>,
    request: ThresholdRequest<Bls12381G1>,
}

impl core::fmt::Debug for SigningBatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SigningBatch")
            .field("messages", &self.len())
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}

impl SigningBatch {
    /// The elements every signer signs: the blinded messages and the
    /// balancer (a signer must count each one: see the module docs).
    pub fn request(&self) -> &BlindedElements<Bls12381G1> {
        self.request.message()
    }

    /// The quorum named in the request, if any.
    pub fn quorum(&self) -> Option<&[PartyId]> {
        self.request.quorum()
    }

    /// The number of messages (and of signatures).
    pub fn len(&self) -> usize {
        self.blinding.inputs.len()
    }

    /// Never true: a batch has at least one message.
    pub fn is_empty(&self) -> bool {
        self.blinding.inputs.is_empty()
    }

    /// Checks one signer's answer without spending the batch (see
    /// [`ThresholdRequest::check_response`]): check each answer as it
    /// arrives, and finalize with t that passed as soon as they are in.
    pub fn check_response(&self, response: &Response<'_>) -> Result<bool, Error> {
        self.request.check_response(response)
    }

    /// Checks every signer's answer against its G1 commitment, combines t
    /// correct ones and unblinds: `σ_i = r_i^{-1}·Σ λ_j·Y_ij`, the
    /// signature of message i under the key set's public key (standard
    /// `min_sig` signatures, [`SIGNATURE_LEN`] bytes each), with the signers
    /// caught cheating; or a [`Failure`] (see
    /// [`crate::threshold::ThresholdRequest::combine`]).
    pub fn finalize(self, responses: &[Response<'_>]) -> Result<Recovered<Vec<u8>>, Failure> {
        let SigningBatch { blinding, request } = self;
        let combined = request.combine(responses)?;
        let signatures = blinding.unblind(&combined.outputs);
        Ok(Recovered {
            outputs: signatures
                .chunks_exact(SIGNATURE_LEN)
                .map(<[u8]>::to_vec)
                .collect(),
            cheaters: combined.cheaters,
        })
    }
}

/// Standard BLS verification (blst `min_sig`, the ciphersuite
/// `BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_`) of `signature` on
/// `message` under `public_key`, with the signature's subgroup check.
pub fn verify(public_key: &PublicKey, message: &[u8], signature: &[u8]) -> bool {
    let Ok(signature) = min_sig::Signature::from_bytes(signature) else {
        return false;
    };
    let Ok(key) = min_sig::PublicKey::from_bytes(&public_key.to_bytes()) else {
        return false;
    };
    signature.verify(true, message, SIGNATURE_DST, &[], &key, true)
        == blst::BLST_ERROR::BLST_SUCCESS
}
