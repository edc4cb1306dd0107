//! The server side of RFC 9497, batched, one type per mode: evaluate the
//! blinded elements of a batch with the key (and prove it, in VOPRF and
//! POPRF mode).

use rand_core::CryptoRng;
use zeroize::Zeroize;

use super::context::{len2, Context, Mode, MAX_INPUT_LEN};
use super::dleq::{generate_proof, Proof, Relation};
use super::keys::KeyPair;
use crate::group::PrimeOrderGroup;
use crate::message::{BlindedElements, EvaluatedElements};
use crate::Error;

macro_rules! server_common {
    ($name:ident, $mode:expr) => {
        impl<G: PrimeOrderGroup> core::fmt::Debug for $name<G> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("suite", &G::SUITE_ID)
                    .finish_non_exhaustive()
            }
        }

        impl<G: PrimeOrderGroup> $name<G> {
            /// A server with this key.
            pub fn new(key: KeyPair<G>) -> Self {
                $name {
                    key,
                    context: Context::new::<G>($mode),
                }
            }

            /// A server with a fresh random key.
            pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> Self {
                Self::new(KeyPair::generate(rng))
            }

            /// A server whose key is RFC 9497 `DeriveKeyPair(seed, info)`
            /// for this mode (the key depends on the mode, as in the RFC).
            /// [`Error::BadLength`] for `info` above 65535 bytes,
            /// [`Error::DeriveKeyPairFailed`] if no key is found.
            pub fn derive(seed: &[u8], info: &[u8]) -> Result<Self, Error> {
                Ok(Self::new(KeyPair::derive($mode, seed, info)?))
            }

            /// The key pair.
            pub fn key(&self) -> &KeyPair<G> {
                &self.key
            }

            /// The public key `k·B` clients check against.
            pub fn public_key(&self) -> &G::Element {
                self.key.public_key()
            }
        }
    };
}

/// An OPRF-mode server: evaluates batches with its key and proves nothing.
/// Immutable; shareable between threads. It also answers the checked and
/// threshold clients, whose check needs no proof.
pub struct OprfServer<G: PrimeOrderGroup> {
    key: KeyPair<G>,
    context: Context,
}
server_common!(OprfServer, Mode::Oprf);

impl<G: PrimeOrderGroup> OprfServer<G> {
    /// BlindEvaluate of a batch: `k·X_i` for every element, in order.
    /// Every element is an evaluation the client can use (a checked
    /// request's balancer looks like any input): rate limits must count
    /// `request.len()`.
    pub fn evaluate(&self, request: &BlindedElements<G>) -> EvaluatedElements<G> {
        let _ = &self.context;
        request.evaluate_with(self.key.secret())
    }
}

/// A VOPRF-mode server: evaluates batches and proves, with one DLEQ proof
/// per batch, that it used the key of its public key. Immutable; shareable
/// between threads.
pub struct VoprfServer<G: PrimeOrderGroup> {
    key: KeyPair<G>,
    context: Context,
}
server_common!(VoprfServer, Mode::Voprf);

impl<G: PrimeOrderGroup> VoprfServer<G> {
    /// BlindEvaluate of a batch with one proof for the whole batch (its
    /// nonce drawn from `rng`).
    pub fn evaluate<R: CryptoRng + ?Sized>(
        &self,
        request: &BlindedElements<G>,
        rng: &mut R,
    ) -> (EvaluatedElements<G>, Proof<G>) {
        let mut nonce = G::random_scalar(rng);
        let answer = self.evaluate_with_nonce_unchecked(request, &nonce);
        nonce.zeroize();
        answer
    }

    /// [`VoprfServer::evaluate`] with the proof's nonce given: for
    /// reproducing RFC 9497 test vectors only (a repeated or predictable
    /// nonce reveals the key). Compiled only with the non-default feature
    /// `danger`.
    #[cfg(any(test, feature = "danger"))]
    pub fn evaluate_with_nonce(
        &self,
        request: &BlindedElements<G>,
        nonce: &G::Scalar,
    ) -> (EvaluatedElements<G>, Proof<G>) {
        self.evaluate_with_nonce_unchecked(request, nonce)
    }

    fn evaluate_with_nonce_unchecked(
        &self,
        request: &BlindedElements<G>,
        nonce: &G::Scalar,
    ) -> (EvaluatedElements<G>, Proof<G>) {
        let evaluated = request.evaluate_with(self.key.secret());
        let proof = generate_proof::<G>(
            &self.context,
            Relation::EvaluatedIsKeyTimesBlinded,
            self.key.secret(),
            self.key.public_key(),
            request,
            &evaluated,
            nonce,
        );
        (evaluated, proof)
    }
}

/// A POPRF-mode server: each batch comes with a public `info` string that
/// tweaks the key; proved like VOPRF. Immutable; shareable between threads.
pub struct PoprfServer<G: PrimeOrderGroup> {
    key: KeyPair<G>,
    context: Context,
}
server_common!(PoprfServer, Mode::Poprf);

impl<G: PrimeOrderGroup> PoprfServer<G> {
    /// BlindEvaluate of a batch under the key tweaked by `info`, with one
    /// proof for the whole batch. [`Error::BadLength`] for `info` above
    /// 65535 bytes, [`Error::InvalidInput`] if `info` tweaks the key to
    /// zero (probability about 1/q).
    pub fn evaluate<R: CryptoRng + ?Sized>(
        &self,
        request: &BlindedElements<G>,
        info: &[u8],
        rng: &mut R,
    ) -> Result<(EvaluatedElements<G>, Proof<G>), Error> {
        let mut nonce = G::random_scalar(rng);
        let answer = self.evaluate_with_nonce_unchecked(request, info, &nonce);
        nonce.zeroize();
        answer
    }

    /// [`PoprfServer::evaluate`] with the proof's nonce given: for
    /// reproducing RFC 9497 test vectors only. Compiled only with the
    /// non-default feature `danger`.
    #[cfg(any(test, feature = "danger"))]
    pub fn evaluate_with_nonce(
        &self,
        request: &BlindedElements<G>,
        info: &[u8],
        nonce: &G::Scalar,
    ) -> Result<(EvaluatedElements<G>, Proof<G>), Error> {
        self.evaluate_with_nonce_unchecked(request, info, nonce)
    }

    fn evaluate_with_nonce_unchecked(
        &self,
        request: &BlindedElements<G>,
        info: &[u8],
        nonce: &G::Scalar,
    ) -> Result<(EvaluatedElements<G>, Proof<G>), Error> {
        let tweak = poprf_tweak::<G>(&self.context, info)?;
        // t = k + m, and the server evaluates with t^{-1}.
        let t = G::scalar_add(self.key.secret(), &tweak);
        if crate::secret_marks::public_bool(G::scalar_is_zero(&t)) {
            return Err(Error::InvalidInput);
        }
        let evaluated = request.evaluate_with(&G::scalar_invert(&t));
        let tweaked_key = G::mul_base(&t);
        G::declassify_elements(core::slice::from_ref(&tweaked_key));
        let proof = generate_proof::<G>(
            &self.context,
            Relation::BlindedIsKeyTimesEvaluated,
            &t,
            &tweaked_key,
            request,
            &evaluated,
            nonce,
        );
        Ok((evaluated, proof))
    }
}

/// The POPRF tweak `m = HashToScalar("Info" || len(info) || info)`
/// (RFC 9497 §3.3.3).
fn poprf_tweak<G: PrimeOrderGroup>(context: &Context, info: &[u8]) -> Result<G::Scalar, Error> {
    if info.len() > MAX_INPUT_LEN {
        return Err(Error::BadLength);
    }
    Ok(G::hash_to_scalar(
        &[b"Info", &len2(info), info],
        &context.hash_to_scalar_dst,
    ))
}

/// The client's view of a POPRF key: `tweakedKey = pkS + m·B`
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
