//! Threshold decryption of a batch: the client sends the
//! ciphertexts' `c1` (optionally blinded) with a balancer to t or more
//! servers, checks each against its commitment, combines, unblinds and
//! recovers the plaintexts or KEM secrets.

use rand_core::CryptoRng;
use zeroize::Zeroizing;

use super::encrypt::{kem_secret, Ciphertext};
use crate::group::PrimeOrderGroup;
use crate::message::{BlindedElements, MAX_BATCH};
use crate::oblivious::Kappa;
use crate::threshold::{Commitments, Failure, PartyId, Recovered, Response, ThresholdRequest};
use crate::Error;

/// What a batch recovers.
enum Target<G: PrimeOrderGroup> {
    /// Plaintexts `M_i = c2_i − sk·c1_i` (the ciphertexts' `c2`).
    Plaintexts(Vec<G::Element>),
    /// KEM secrets `Hash(sk·c1_i)`.
    KemSecrets,
}

/// The configuration of decryption batches: the servers' commitments, κ,
/// whether the request is blinded, and optionally a named quorum.
#[derive(Clone, Debug)]
pub struct DecryptionClient<G: PrimeOrderGroup> {
    commitments: Commitments<G>,
    quorum: Option<Vec<PartyId>>,
    blinded: bool,
    kappa: Kappa,
}

impl<G: PrimeOrderGroup> DecryptionClient<G> {
    /// Batches for the servers sharing the key of `commitments` (any t of
    /// them may answer). With `blinded`, the servers see `r_i·c1_i` for
    /// fresh secret `r_i`, so they cannot link a request to the
    /// ciphertexts.
    pub fn new(commitments: Commitments<G>, blinded: bool, kappa: Kappa) -> Self {
        DecryptionClient {
            commitments,
            quorum: None,
            blinded,
            kappa,
        }
    }

    /// Batches for exactly the named `quorum` (t distinct party ids), whose
    /// servers then pre-multiply by their Lagrange coefficients.
    /// [`Error::InvalidPartyId`] for a quorum of the wrong size or with a
    /// zero or repeated id.
    pub fn with_quorum(mut self, quorum: &[PartyId]) -> Result<Self, Error> {
        self.commitments.check_quorum(quorum)?;
        self.quorum = Some(quorum.to_vec());
        Ok(self)
    }

    /// A batch that recovers the plaintexts of `ciphertexts`.
    /// [`Error::EmptyInput`] for none, [`Error::BadLength`] for a request
    /// above [`crate::message::MAX_BATCH`] elements.
    pub fn blind_ciphertexts<R: CryptoRng + ?Sized>(
        &self,
        ciphertexts: &[Ciphertext<G>],
        rng: &mut R,
    ) -> Result<DecryptionBatch<G>, Error> {
        let c1: Vec<G::Element> = ciphertexts.iter().map(|c| c.c1.clone()).collect();
        let c2 = ciphertexts.iter().map(|c| c.c2.clone()).collect();
        self.batch(&c1, Target::Plaintexts(c2), rng)
    }

    /// A batch that recovers the shared secrets of KEM encapsulations
    /// (their `c1`); errors as [`DecryptionClient::blind_ciphertexts`], and
    /// [`Error::InvalidElement`] for an identity encapsulation.
    pub fn blind_encapsulations<R: CryptoRng + ?Sized>(
        &self,
        encapsulations: &[G::Element],
        rng: &mut R,
    ) -> Result<DecryptionBatch<G>, Error> {
        self.batch(encapsulations, Target::KemSecrets, rng)
    }

    fn batch<R: CryptoRng + ?Sized>(
        &self,
        c1: &[G::Element],
        target: Target<G>,
        rng: &mut R,
    ) -> Result<DecryptionBatch<G>, Error> {
        if c1.is_empty() {
            return Err(Error::EmptyInput);
        }
        if c1.len() > MAX_BATCH {
            return Err(Error::BadLength);
        }
        if c1.iter().any(G::is_identity) {
            return Err(Error::InvalidElement);
        }
        let mut encoded = vec![0u8; c1.len() * G::ELEMENT_LEN];
        let (sent, blinds) = if self.blinded {
            let blinds: Zeroizing<Vec<G::Scalar>> =
                Zeroizing::new((0..c1.len()).map(|_| G::random_scalar(rng)).collect());
            let sent = G::mul_each_encode(&blinds, c1, &mut encoded);
            // The blinded request is sent: public from here.
            G::declassify_elements(&sent);
            crate::secret_marks::declassify(encoded.as_slice());
            (sent, Some(blinds))
        } else {
            G::encode_batch(c1, &mut encoded);
            (c1.to_vec(), None)
        };
        let sent = BlindedElements::from_parts(sent, encoded);
        let request = ThresholdRequest::new(
            &sent,
            &self.commitments,
            self.quorum.as_deref(),
            self.kappa,
            rng,
        )?;
        Ok(DecryptionBatch {
            blinds,
            target,
            request,
        })
    }
}

/// A client's batch of ciphertexts (or KEM encapsulations) being decrypted
/// by a t-of-m shared key. Not clonable; [`DecryptionBatch::finalize`]
/// consumes it; blinds and check coins are wiped on drop.
pub struct DecryptionBatch<G: PrimeOrderGroup> {
    blinds: Option<Zeroizing<Vec<G::Scalar>>>,
    target: Target<G>,
    request: ThresholdRequest<G>,
}

impl<G: PrimeOrderGroup> core::fmt::Debug for DecryptionBatch<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DecryptionBatch")
            .field("blinded", &self.blinds.is_some())
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> DecryptionBatch<G> {
    /// The elements every server raises to its share: the batch's `c1`
    /// (blinded or not) and the balancer.
    pub fn request(&self) -> &BlindedElements<G> {
        self.request.message()
    }

    /// The quorum named in the request, if any.
    pub fn quorum(&self) -> Option<&[PartyId]> {
        self.request.quorum()
    }

    /// The width of each output of [`DecryptionBatch::finalize`]: an element
    /// encoding for plaintexts, the suite's hash length for KEM secrets.
    pub fn output_len(&self) -> usize {
        match self.target {
            Target::Plaintexts(_) => G::ELEMENT_LEN,
            Target::KemSecrets => G::HASH_LEN,
        }
    }

    /// Checks one server's answer without spending the batch (see
    /// [`ThresholdRequest::check_response`]): check each answer as it
    /// arrives, and finalize with t that passed as soon as they are in.
    pub fn check_response(&self, response: &Response<'_>) -> Result<bool, Error> {
        self.request.check_response(response)
    }

    /// Checks every server's answer against its commitment, combines t
    /// correct ones and returns, in order, the encoded plaintexts or the
    /// KEM secrets (each wiped on drop, as is every decrypted value on the
    /// way), with the servers caught cheating; or a [`Failure`] (see
    /// [`ThresholdRequest::combine`]). A ciphertext whose plaintext would
    /// be the identity (not a valid encryption) fails the whole batch with
    /// [`Error::InvalidInput`]; the failure still names every server
    /// already caught cheating.
    pub fn finalize(
        self,
        responses: &[Response<'_>],
    ) -> Result<Recovered<Zeroizing<Vec<u8>>>, Failure> {
        let DecryptionBatch {
            blinds,
            target,
            request,
        } = self;
        let combined = request.combine(responses)?;
        // sk·c1_i: the Diffie–Hellman values, secret.
        let shared: Zeroizing<Vec<G::Element>> = Zeroizing::new(match blinds {
            Some(blinds) => {
                let mut inverses = Zeroizing::new(blinds.to_vec());
                G::batch_invert(&mut inverses);
                G::mul_each(&inverses, &combined.outputs)
            }
            None => combined.outputs,
        });
        let outputs = match target {
            Target::Plaintexts(c2) => {
                let plaintexts: Zeroizing<Vec<G::Element>> = Zeroizing::new(
                    c2.iter()
                        .zip(shared.iter())
                        .map(|(c2, d)| G::add(c2, &G::neg(d)))
                        .collect(),
                );
                // Only whether some ciphertext was malformed is public.
                let malformed = plaintexts
                    .iter()
                    .fold(false, |any, m| any | G::is_identity(m));
                if crate::secret_marks::public_bool(malformed) {
                    return Err(Failure {
                        error: Error::InvalidInput,
                        cheaters: combined.cheaters,
                    });
                }
                plaintexts
                    .iter()
                    .map(|m| Zeroizing::new(crate::group::encode_to_vec::<G>(m)))
                    .collect()
            }
            Target::KemSecrets => shared.iter().map(kem_secret::<G>).collect(),
        };
        Ok(Recovered {
            outputs,
            cheaters: combined.cheaters,
        })
    }
}
