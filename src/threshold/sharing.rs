//! Dealer-based t-of-m Shamir sharing of a scalar with Feldman commitments
//! (docs/PROTOCOLS.md §4): key shares, the public commitments, the per-party
//! commitments derived from them, and their byte encodings.

use rand_core::CryptoRng;
use zeroize::Zeroize;

use super::{check_party_id, check_threshold, PartyId, MAX_PARTIES};
use crate::group::PrimeOrderGroup;
use crate::Error;

/// Bytes of a party id in a key share's encoding (big-endian).
const PARTY_ID_LEN: usize = 2;

/// Party `id`'s share `k_id = f(id)` of a secret key. Wiped on drop; not
/// clonable (one copy per server).
pub struct KeyShare<G: PrimeOrderGroup> {
    id: PartyId,
    secret: G::Scalar,
}

impl<G: PrimeOrderGroup> Drop for KeyShare<G> {
    fn drop(&mut self) {
        self.secret.zeroize();
    }
}

impl<G: PrimeOrderGroup> core::fmt::Debug for KeyShare<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyShare")
            .field("group", &G::SUITE_ID)
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> KeyShare<G> {
    /// The length of [`KeyShare::to_bytes`]: the id, then the scalar.
    pub const ENCODED_LEN: usize = PARTY_ID_LEN + G::SCALAR_LEN;

    /// The share of party `id` (1..=[`MAX_PARTIES`]); `secret` must not be
    /// zero.
    pub fn new(id: PartyId, secret: G::Scalar) -> Result<Self, Error> {
        check_party_id(id)?;
        if G::scalar_is_zero(&secret) {
            return Err(Error::InvalidScalar);
        }
        Ok(KeyShare { id, secret })
    }

    /// A second copy, for the C ABI's handles (the type is not `Clone`:
    /// one copy per server is the rule for callers).
    pub(crate) fn copy(&self) -> Self {
        KeyShare {
            id: self.id,
            secret: self.secret.clone(),
        }
    }

    /// The party's id.
    pub fn id(&self) -> PartyId {
        self.id
    }

    /// The secret share.
    pub fn secret(&self) -> &G::Scalar {
        &self.secret
    }

    /// The encoding: the id as 2 bytes big-endian, then the suite's scalar
    /// encoding. Secret: wipe it after use.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = vec![0u8; Self::ENCODED_LEN];
        out[..PARTY_ID_LEN].copy_from_slice(&self.id.to_be_bytes());
        G::encode_scalar(&self.secret, &mut out[PARTY_ID_LEN..]);
        out
    }

    /// Decodes [`KeyShare::to_bytes`]: [`Error::BadLength`],
    /// [`Error::InvalidPartyId`] for id 0, [`Error::InvalidScalar`] for a
    /// zero or non-canonical scalar.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != Self::ENCODED_LEN {
            return Err(Error::BadLength);
        }
        let id = PartyId::from_be_bytes([bytes[0], bytes[1]]);
        check_party_id(id)?;
        let secret = G::decode_scalar(&bytes[PARTY_ID_LEN..])?;
        Ok(KeyShare { id, secret })
    }
}

/// Feldman commitments `A_l = a_l·B` to the coefficients of the sharing
/// polynomial `f(x) = a_0 + a_1·x + … + a_{t-1}·x^{t-1}`: `A_0 = k·B` is the
/// shared key's public key, and party `j`'s commitment is
/// `C_j = Σ_l j^l·A_l = k_j·B`. Public; the threshold `t` is their number.
pub struct Commitments<G: PrimeOrderGroup> {
    coefficients: Vec<G::Element>,
}

impl<G: PrimeOrderGroup> Clone for Commitments<G> {
    fn clone(&self) -> Self {
        Commitments {
            coefficients: self.coefficients.clone(),
        }
    }
}

impl<G: PrimeOrderGroup> PartialEq for Commitments<G> {
    fn eq(&self, other: &Self) -> bool {
        self.coefficients == other.coefficients
    }
}

impl<G: PrimeOrderGroup> core::fmt::Debug for Commitments<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Commitments")
            .field("group", &G::SUITE_ID)
            .field("threshold", &self.threshold())
            .finish()
    }
}

impl<G: PrimeOrderGroup> Commitments<G> {
    /// Commitments to the coefficients `A_0..A_{t-1}` (none the identity,
    /// at most [`MAX_PARTIES`] of them).
    pub fn new(coefficients: Vec<G::Element>) -> Result<Self, Error> {
        if coefficients.is_empty() || coefficients.len() > MAX_PARTIES {
            return Err(Error::InvalidThreshold);
        }
        if coefficients.iter().any(G::is_identity) {
            return Err(Error::InvalidElement);
        }
        Ok(Commitments { coefficients })
    }

    /// The coefficients' commitments `A_0..A_{t−1}`.
    pub(super) fn coefficients(&self) -> &[G::Element] {
        &self.coefficients
    }

    /// The threshold `t`: how many shares reconstruct the key.
    pub fn threshold(&self) -> usize {
        self.coefficients.len()
    }

    /// Checks a named quorum for this key: exactly t distinct, non-zero
    /// party ids ([`Error::InvalidPartyId`] otherwise).
    pub fn check_quorum(&self, quorum: &[PartyId]) -> Result<(), Error> {
        super::check_party_set(quorum)?;
        if quorum.len() != self.threshold() {
            return Err(Error::InvalidPartyId);
        }
        Ok(())
    }

    /// The shared key's public key `A_0 = k·B`.
    pub fn public_key(&self) -> &G::Element {
        &self.coefficients[0]
    }

    /// Party `id`'s commitment `C_id = Σ_l id^l·A_l = k_id·B`.
    /// [`Error::InvalidPartyId`] for id 0, [`Error::InvalidElement`] if it
    /// is the identity (then no valid share exists for that id).
    pub fn party_commitment(&self, id: PartyId) -> Result<G::Element, Error> {
        check_party_id(id)?;
        let x = G::scalar_from_u64(u64::from(id));
        let mut powers = Vec::with_capacity(self.threshold());
        let mut power = G::scalar_from_u64(1);
        for _ in 0..self.threshold() {
            powers.push(power.clone());
            power = G::scalar_mul(&power, &x);
        }
        let commitment = G::msm_vartime(&powers, &self.coefficients);
        if G::is_identity(&commitment) {
            return Err(Error::InvalidElement);
        }
        Ok(commitment)
    }

    /// Whether `share` is consistent with these commitments:
    /// `k_id·B = C_id` (its multiplication is constant time in the share).
    pub fn verify_share(&self, share: &KeyShare<G>) -> bool {
        match self.party_commitment(share.id) {
            Ok(expected) => {
                // `k_id·B` is the public `C_id` for a valid share (and
                // worthless for an invalid one): it may be compared in
                // variable time.
                let computed = G::mul_base(&share.secret);
                G::declassify_elements(core::slice::from_ref(&computed));
                computed == expected
            }
            Err(_) => false,
        }
    }

    /// The encoding: the `t` element encodings, concatenated.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = vec![0u8; self.threshold() * G::ELEMENT_LEN];
        G::encode_batch(&self.coefficients, &mut out);
        out
    }

    /// Decodes [`Commitments::to_bytes`] with full validation:
    /// [`Error::BadLength`] for a length that is not a non-zero multiple of
    /// the element width, [`Error::InvalidThreshold`] for more than
    /// [`MAX_PARTIES`] elements, [`Error::InvalidElement`] for any invalid
    /// element.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.is_empty() || !bytes.len().is_multiple_of(G::ELEMENT_LEN) {
            return Err(Error::BadLength);
        }
        if bytes.len() / G::ELEMENT_LEN > MAX_PARTIES {
            return Err(Error::InvalidThreshold);
        }
        Commitments::new(G::decode_batch(bytes)?)
    }
}

/// A dealer's t-of-m sharing of `secret` (non-zero): the shares of parties
/// `1..=m`, in order, and the commitments. The polynomial's coefficients
/// are fresh random non-zero scalars, wiped before returning. Verify each
/// share against the commitments when it is received
/// ([`Commitments::verify_share`]). [`Error::InvalidThreshold`] unless
/// `1 <= t <= m <= MAX_PARTIES`; [`Error::InvalidScalar`] for a zero secret.
pub fn deal<G: PrimeOrderGroup, R: CryptoRng + ?Sized>(
    secret: &G::Scalar,
    threshold: usize,
    parties: usize,
    rng: &mut R,
) -> Result<(Vec<KeyShare<G>>, Commitments<G>), Error> {
    check_threshold(threshold, parties)?;
    // Only whether the secret is usable is public.
    if crate::secret_marks::public_bool(G::scalar_is_zero(secret)) {
        return Err(Error::InvalidScalar);
    }
    loop {
        let mut polynomial: Vec<G::Scalar> = core::iter::once(secret.clone())
            .chain((1..threshold).map(|_| G::random_scalar(rng)))
            .collect();
        let shares: Vec<KeyShare<G>> = (1..=parties)
            .map(|id| KeyShare {
                id: id as PartyId,
                secret: evaluate::<G>(&polynomial, id as u64),
            })
            .collect();
        let coefficients: Vec<G::Element> = polynomial.iter().map(G::mul_base).collect();
        polynomial.iter_mut().for_each(Zeroize::zeroize);
        // The commitments are published.
        G::declassify_elements(&coefficients);
        // A zero share (probability about m/q) could not be encoded; draw
        // the polynomial again (the decision reveals only that).
        let zero = shares
            .iter()
            .fold(false, |any, share| any | G::scalar_is_zero(&share.secret));
        if !crate::secret_marks::public_bool(zero) {
            return Ok((shares, Commitments { coefficients }));
        }
    }
}

/// `f(x)` by Horner's rule (constant time in the coefficients).
pub(super) fn evaluate<G: PrimeOrderGroup>(polynomial: &[G::Scalar], x: u64) -> G::Scalar {
    let x = G::scalar_from_u64(x);
    let mut acc = G::scalar_from_u64(0);
    for coefficient in polynomial.iter().rev() {
        let mut product = G::scalar_mul(&acc, &x);
        acc.zeroize();
        acc = G::scalar_add(&product, coefficient);
        product.zeroize();
    }
    acc
}
