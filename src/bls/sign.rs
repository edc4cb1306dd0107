//! Blind threshold signing of a batch (PROTOCOLS.md §5): the client hashes
//! and blinds its messages, any t signers (or a named quorum) raise the
//! batch to their shares, the client checks every signer with the G1
//! balancer check (no pairing per share), combines and unblinds.

use blst::min_sig;
use rand_core::CryptoRng;
use zeroize::Zeroizing;

use super::{KeySet, PublicKey, SIGNATURE_DST};
use crate::group::{Bls12381G1, PrimeOrderGroup};
use crate::oblivious::Kappa;
use crate::threshold::{Failure, PartyId, Recovered, Response, ThresholdRequest};
use crate::Error;

/// Bytes of a signature (a compressed G1 point, blst `min_sig`).
pub const SIGNATURE_LEN: usize = 48;

/// A client's batch of messages being signed blindly. Not clonable;
/// [`BlindSignBatch::finish`] consumes it; blinds and check coins are
/// wiped on drop.
#[derive(Debug)]
pub struct BlindSignBatch {
    blinds: Zeroizing<Vec<<Bls12381G1 as PrimeOrderGroup>::Scalar>>,
    request: ThresholdRequest<Bls12381G1>,
}

impl BlindSignBatch {
    /// `X_i = r_i·H(m_i)` for every message (H: RFC 9380 hash to G1 with
    /// the ciphersuite's DST) and the checked request for the signers of
    /// `key_set` (any t of them, or exactly the named `quorum`, whose
    /// signers then pre-multiply by their Lagrange coefficients).
    /// [`Error::EmptyInput`] for no message, [`Error::BadLength`] for more
    /// than 65535, [`Error::InvalidPartyId`] for a malformed quorum.
    pub fn blind<R: CryptoRng + ?Sized>(
        messages: &[&[u8]],
        key_set: &KeySet,
        quorum: Option<&[PartyId]>,
        kappa: Kappa,
        rng: &mut R,
    ) -> Result<Self, Error> {
        if messages.is_empty() {
            return Err(Error::EmptyInput);
        }
        if messages.len() > usize::from(u16::MAX) {
            return Err(Error::BadLength);
        }
        // The messages are private: their hashes are wiped, and tested in
        // constant time (only whether one hashed to the identity is public).
        let hashed: Zeroizing<Vec<_>> = Zeroizing::new(
            messages
                .iter()
                .map(|m| Bls12381G1::hash_to_group(&[m], SIGNATURE_DST))
                .collect(),
        );
        let any_identity = hashed
            .iter()
            .fold(false, |any, h| any | Bls12381G1::is_identity(h));
        if crate::ct::public_bool(any_identity) {
            return Err(Error::InvalidInput);
        }
        let blinds = Zeroizing::new(
            (0..messages.len())
                .map(|_| Bls12381G1::random_scalar(rng))
                .collect::<Vec<_>>(),
        );
        let mut encoded = vec![0u8; messages.len() * Bls12381G1::ELEMENT_LEN];
        let blinded = Bls12381G1::mul_each_encode(&blinds, &hashed, &mut encoded);
        // The blinded messages are sent: public from here.
        Bls12381G1::declassify_elements(&blinded);
        crate::ct::declassify(encoded.as_slice());
        let request = ThresholdRequest::new(
            &blinded,
            &encoded,
            key_set.commitments(),
            quorum,
            kappa,
            rng,
        )?;
        Ok(BlindSignBatch { blinds, request })
    }

    /// The elements every signer signs (`request_len()` G1 encodings).
    pub fn blinded_elements(&self) -> &[u8] {
        self.request.elements()
    }

    /// How many elements each signer signs: the messages and the balancer.
    pub fn request_len(&self) -> usize {
        self.request.len()
    }

    /// Checks every signer's answer against its G1 commitment, combines t
    /// correct ones and unblinds: `σ_i = r_i^{-1}·Σ λ_j·Y_ij`, the
    /// signature of message i under the key set's public key (standard
    /// `min_sig` signatures, 48 bytes each), with the signers caught
    /// cheating; or a [`Failure`] (see
    /// [`crate::threshold::ThresholdRequest::combine`]).
    pub fn finish(self, responses: &[Response<'_>]) -> Result<Recovered<Vec<u8>>, Failure> {
        let BlindSignBatch { blinds, request } = self;
        let combined = request.combine(responses)?;
        let mut inverses = Zeroizing::new(blinds.to_vec());
        Bls12381G1::batch_invert(&mut inverses);
        let mut signatures = vec![0u8; combined.outputs.len() * SIGNATURE_LEN];
        Bls12381G1::mul_each_encode(&inverses, &combined.outputs, &mut signatures);
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
