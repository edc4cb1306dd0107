//! Server keys: generation, DeriveKeyPair (RFC 9497 §3.2.1), encodings.

use rand_core::CryptoRng;
use zeroize::Zeroize;

use super::context::{len2, Context, Mode, MAX_INPUT_LEN};
use crate::group::PrimeOrderGroup;
use crate::Error;

/// A server's key pair `(k, k·B)`. The secret is wiped on drop and is never
/// printed.
pub struct KeyPair<G: PrimeOrderGroup> {
    secret: G::Scalar,
    public: G::Element,
}

impl<G: PrimeOrderGroup> Clone for KeyPair<G> {
    fn clone(&self) -> Self {
        KeyPair {
            secret: self.secret.clone(),
            public: self.public.clone(),
        }
    }
}

impl<G: PrimeOrderGroup> Drop for KeyPair<G> {
    fn drop(&mut self) {
        self.secret.zeroize();
    }
}

impl<G: PrimeOrderGroup> core::fmt::Debug for KeyPair<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyPair")
            .field("suite", &G::SUITE_ID)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> KeyPair<G> {
    /// A fresh random key.
    pub fn generate<R: CryptoRng + ?Sized>(rng: &mut R) -> Self {
        Self::from_secret(G::random_scalar(rng))
    }

    /// The key with this secret scalar.
    pub fn from_secret(secret: G::Scalar) -> Self {
        let public = G::mul_base(&secret);
        // The public key is published.
        G::declassify_elements(core::slice::from_ref(&public));
        KeyPair { secret, public }
    }

    /// The key whose secret is this encoded scalar (SerializeScalar form;
    /// [`Error::InvalidScalar`] if not canonical or zero).
    pub fn from_secret_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Ok(Self::from_secret(G::decode_scalar(bytes)?))
    }

    /// DeriveKeyPair(seed, info) of RFC 9497 §3.2.1 for `mode`: hash
    /// `seed || I2OSP(len(info), 2) || info || I2OSP(counter, 1)` to a
    /// scalar until it is non-zero (at most 256 tries).
    pub(crate) fn derive(mode: Mode, seed: &[u8], info: &[u8]) -> Result<Self, Error> {
        if info.len() > MAX_INPUT_LEN {
            return Err(Error::BadLength);
        }
        let context = Context::new::<G>(mode);
        for counter in 0..=u8::MAX {
            let secret = G::hash_to_scalar(
                &[seed, &len2(info), info, &[counter]],
                &context.derive_key_pair_dst,
            );
            if !G::scalar_is_zero(&secret) {
                return Ok(Self::from_secret(secret));
            }
        }
        Err(Error::DeriveKeyPairFailed)
    }

    /// The public key `k·B`.
    pub fn public_key(&self) -> &G::Element {
        &self.public
    }

    /// The secret scalar `k` (handle with care).
    pub fn secret(&self) -> &G::Scalar {
        &self.secret
    }
}
