//! ElGamal encryption of group elements and its KEM form (docs/PROTOCOLS.md §6).

use rand_core::CryptoRng;
use zeroize::{Zeroize, Zeroizing};

use crate::group::{encode_to_vec, PrimeOrderGroup};
use crate::Error;

/// Domain separation of the KEM's key derivation.
const KEM_DST: &[u8] = b"oblivex ElGamal KEM v1";

/// An ElGamal ciphertext `(c1, c2) = (ρ·B, M + ρ·PK)`.
pub struct Ciphertext<G: PrimeOrderGroup> {
    /// `ρ·B`: what the decryption servers raise to their shares.
    pub c1: G::Element,
    /// `M + ρ·PK`.
    pub c2: G::Element,
}

impl<G: PrimeOrderGroup> Clone for Ciphertext<G> {
    fn clone(&self) -> Self {
        Ciphertext {
            c1: self.c1.clone(),
            c2: self.c2.clone(),
        }
    }
}

impl<G: PrimeOrderGroup> core::fmt::Debug for Ciphertext<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Ciphertext").finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> Ciphertext<G> {
    /// Bytes of the encoding: `c1 || c2`.
    pub const ENCODED_LEN: usize = 2 * G::ELEMENT_LEN;

    /// The encoding `c1 || c2`.
    pub fn to_bytes(&self) -> Vec<u8> {
        [encode_to_vec::<G>(&self.c1), encode_to_vec::<G>(&self.c2)].concat()
    }

    /// Decodes `c1 || c2` with full validation ([`Error::BadLength`],
    /// [`Error::InvalidElement`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != Self::ENCODED_LEN {
            return Err(Error::BadLength);
        }
        let (c1, c2) = bytes.split_at(G::ELEMENT_LEN);
        Ok(Ciphertext {
            c1: G::decode(c1)?,
            c2: G::decode(c2)?,
        })
    }
}

/// Encrypts `message` (a group element, not the identity) under
/// `public_key`; [`Error::InvalidElement`] for an identity message or key.
/// Constant time in the message and the fresh `ρ`.
pub fn encrypt<G: PrimeOrderGroup, R: CryptoRng + ?Sized>(
    public_key: &G::Element,
    message: &G::Element,
    rng: &mut R,
) -> Result<Ciphertext<G>, Error> {
    if G::is_identity(public_key) || G::is_identity(message) {
        return Err(Error::InvalidElement);
    }
    loop {
        let mut rho = G::random_scalar(rng);
        let c1 = G::mul_base(&rho);
        let mask = G::mul(public_key, &rho);
        rho.zeroize();
        let c2 = G::add(message, &mask);
        // The ciphertext is public.
        G::declassify_elements(core::slice::from_ref(&c1));
        G::declassify_elements(core::slice::from_ref(&c2));
        // c2 is the identity with probability about 1/q; it could not be
        // encoded, so draw ρ again.
        if !G::is_identity(&c2) {
            return Ok(Ciphertext { c1, c2 });
        }
    }
}

/// The KEM form: a fresh encapsulation `c1 = ρ·B` and its shared secret
/// `Hash(DST || suite || ρ·PK)` (the suite's hash, `G::HASH_LEN` bytes).
/// [`Error::InvalidElement`] for an identity key.
pub fn encapsulate<G: PrimeOrderGroup, R: CryptoRng + ?Sized>(
    public_key: &G::Element,
    rng: &mut R,
) -> Result<(G::Element, Zeroizing<Vec<u8>>), Error> {
    if G::is_identity(public_key) {
        return Err(Error::InvalidElement);
    }
    let mut rho = G::random_scalar(rng);
    let c1 = G::mul_base(&rho);
    let shared = G::mul(public_key, &rho);
    rho.zeroize();
    // The encapsulation is public; the shared value is not.
    G::declassify_elements(core::slice::from_ref(&c1));
    Ok((c1, kem_secret::<G>(&shared)))
}

/// The KEM's shared secret from `sk·c1 = ρ·PK`.
pub(crate) fn kem_secret<G: PrimeOrderGroup>(shared: &G::Element) -> Zeroizing<Vec<u8>> {
    let encoded = Zeroizing::new(encode_to_vec::<G>(shared));
    Zeroizing::new(G::hash(&[KEM_DST, G::SUITE_ID.as_bytes(), &encoded]))
}
