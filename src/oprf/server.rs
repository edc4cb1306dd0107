//! The server side of RFC 9497, batched: evaluate blinded elements with the
//! key (and prove it, in VOPRF and POPRF modes).

use rand_core::CryptoRng;
use zeroize::Zeroize;

use super::context::{len2, Context, Mode, MAX_INPUT_LEN};
#[cfg(any(test, feature = "danger"))]
use super::dleq::generate_proof;
use super::dleq::{generate_proof_random, Proof, Relation};
use super::keys::KeyPair;
use crate::group::PrimeOrderGroup;
use crate::Error;

/// An OPRF server: a key and a mode. Immutable; shareable between threads.
pub struct Server<G: PrimeOrderGroup> {
    key: KeyPair<G>,
    context: Context,
}

impl<G: PrimeOrderGroup> core::fmt::Debug for Server<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Server")
            .field("suite", &G::SUITE_ID)
            .field("mode", &self.context.mode)
            .finish_non_exhaustive()
    }
}

/// The key a POPRF server evaluates with: `t = k + HashToScalar(framed info)`
/// (RFC 9497 §3.3.3), and the client's matching public `t·B`.
fn poprf_tweak<G: PrimeOrderGroup>(context: &Context, info: &[u8]) -> Result<G::Scalar, Error> {
    if info.len() > MAX_INPUT_LEN {
        return Err(Error::BadLength);
    }
    Ok(G::hash_to_scalar(
        &[b"Info", &len2(info), info],
        &context.hash_to_scalar_dst,
    ))
}

impl<G: PrimeOrderGroup> Server<G> {
    /// A server for `mode` with this key.
    pub fn new(mode: Mode, key: KeyPair<G>) -> Self {
        Server {
            key,
            context: Context::new::<G>(mode),
        }
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.context.mode
    }

    /// The key pair.
    pub fn key(&self) -> &KeyPair<G> {
        &self.key
    }

    /// OPRF-mode BlindEvaluate of a batch: `k·X_i` for the encoded blinded
    /// elements in `blinded` (validated: any invalid element fails the whole
    /// batch), encoded into `out` (`ELEMENT_LEN` bytes each). This is the
    /// plain batch evaluation with no proof; in the VOPRF/POPRF modes use
    /// [`Server::blind_evaluate`].
    pub fn evaluate(&self, blinded: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let elements = G::decode_batch(blinded)?;
        check_out::<G>(elements.len(), out)?;
        G::mul_batch_encode(self.key.secret(), &elements, out);
        Ok(())
    }

    /// BlindEvaluate of a batch in the server's mode, with one proof for the
    /// batch in VOPRF/POPRF mode (`None` in OPRF mode). `info` is the POPRF
    /// public input (ignored, and should be empty, otherwise).
    pub fn blind_evaluate<R: CryptoRng + ?Sized>(
        &self,
        blinded: &[u8],
        info: &[u8],
        out: &mut [u8],
        rng: &mut R,
    ) -> Result<Option<Proof<G>>, Error> {
        self.blind_evaluate_inner(
            blinded,
            info,
            out,
            &mut |k, public, elements, blinded, evaluated, relation| {
                generate_proof_random::<G, R>(
                    &self.context,
                    relation,
                    k,
                    public,
                    elements,
                    blinded,
                    evaluated,
                    rng,
                )
            },
        )
    }

    /// [`Server::blind_evaluate`] with the proof's random nonce given: for
    /// reproducing RFC 9497 test vectors only (a repeated or predictable
    /// nonce reveals the key). Compiled only with the non-default feature
    /// `danger`.
    #[cfg(any(test, feature = "danger"))]
    pub fn blind_evaluate_with_nonce(
        &self,
        blinded: &[u8],
        info: &[u8],
        out: &mut [u8],
        nonce: &G::Scalar,
    ) -> Result<Option<Proof<G>>, Error> {
        self.blind_evaluate_inner(
            blinded,
            info,
            out,
            &mut |k, public, elements, blinded, evaluated, relation| {
                generate_proof::<G>(
                    &self.context,
                    relation,
                    k,
                    public,
                    elements,
                    blinded,
                    evaluated,
                    nonce,
                )
            },
        )
    }

    #[allow(clippy::type_complexity)]
    fn blind_evaluate_inner(
        &self,
        blinded: &[u8],
        info: &[u8],
        out: &mut [u8],
        prove: &mut dyn FnMut(
            &G::Scalar,
            &G::Element,
            &[G::Element],
            &[u8],
            &[u8],
            Relation,
        ) -> Proof<G>,
    ) -> Result<Option<Proof<G>>, Error> {
        let elements = G::decode_batch(blinded)?;
        check_out::<G>(elements.len(), out)?;
        let out = &mut out[..elements.len() * G::ELEMENT_LEN];
        match self.context.mode {
            Mode::Oprf => {
                G::mul_batch_encode(self.key.secret(), &elements, out);
                Ok(None)
            }
            Mode::Voprf => {
                G::mul_batch_encode(self.key.secret(), &elements, out);
                let proof = prove(
                    self.key.secret(),
                    self.key.public_key(),
                    &elements,
                    blinded,
                    out,
                    Relation::EvaluatedIsKeyTimesBlinded,
                );
                Ok(Some(proof))
            }
            Mode::Poprf => {
                let m = poprf_tweak::<G>(&self.context, info)?;
                let mut t = G::scalar_add(self.key.secret(), &m);
                if G::scalar_is_zero(&t) {
                    return Err(Error::InvalidInput);
                }
                let mut t_inverse = G::scalar_invert(&t);
                G::mul_batch_encode(&t_inverse, &elements, out);
                t_inverse.zeroize();
                let tweaked_key = G::mul_base(&t);
                let proof = prove(
                    &t,
                    &tweaked_key,
                    &elements,
                    blinded,
                    out,
                    Relation::BlindedIsKeyTimesEvaluated,
                );
                t.zeroize();
                Ok(Some(proof))
            }
        }
    }
}

fn check_out<G: PrimeOrderGroup>(count: usize, out: &[u8]) -> Result<(), Error> {
    if out.len() < count * G::ELEMENT_LEN {
        return Err(Error::BufferTooSmall);
    }
    Ok(())
}

/// The client's view of a POPRF key: `tweakedKey = pkS + HashToScalar(info)·B`
/// ([`Error::InvalidInput`] if it is the identity).
pub(crate) fn poprf_tweaked_key<G: PrimeOrderGroup>(
    context: &Context,
    public_key: &G::Element,
    info: &[u8],
) -> Result<G::Element, Error> {
    let m = poprf_tweak::<G>(context, info)?;
    let tweaked = G::add(&G::mul_base(&m), public_key);
    if G::is_identity(&tweaked) {
        return Err(Error::InvalidInput);
    }
    Ok(tweaked)
}
