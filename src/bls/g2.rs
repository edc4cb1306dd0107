//! The few G2 operations the threshold BLS key setup needs (blst): public
//! keys `sk·G2gen` with their 96-byte compressed encoding, and the pairing
//! equation that ties a G1 commitment to a G2 key.

use blst::{
    blst_fp12, blst_fp12_finalverify, blst_miller_loop, blst_p1_affine, blst_p1_affine_generator,
    blst_p1_to_affine, blst_p2, blst_p2_add_or_double, blst_p2_affine, blst_p2_affine_compress,
    blst_p2_affine_in_g2, blst_p2_affine_is_inf, blst_p2_from_affine, blst_p2_generator,
    blst_p2_is_inf, blst_p2_mult, blst_p2_to_affine, blst_p2_uncompress, BLST_ERROR,
};
use zeroize::Zeroize;

use crate::group::bls12_381::{Fr, G1};
use crate::Error;

/// A BLS public key: a point of G2 (`sk·G2gen`), never the identity.
#[derive(Clone, Copy, Debug)]
pub struct PublicKey(pub(crate) blst_p2_affine);

impl PartialEq for PublicKey {
    fn eq(&self, other: &Self) -> bool {
        self.to_bytes() == other.to_bytes()
    }
}

impl PublicKey {
    /// Bytes of the compressed encoding (as blst's `min_sig` public keys).
    /// cbindgen:ignore
    pub const ENCODED_LEN: usize = 96;

    /// `secret·G2gen` (constant time in `secret`).
    pub fn from_secret(secret: &Fr) -> PublicKey {
        let mut scalar = secret.to_blst_scalar();
        let mut point = blst_p2::default();
        let mut affine = blst_p2_affine::default();
        // SAFETY: valid pointers; the generator is a static blst value;
        // `scalar.b` holds 32 little-endian bytes of which 255 bits count.
        unsafe {
            blst_p2_mult(&mut point, blst_p2_generator(), scalar.b.as_ptr(), 255);
            blst_p2_to_affine(&mut affine, &point);
        }
        scalar.b.zeroize();
        // A public key is published.
        crate::secret_marks::declassify(&affine);
        PublicKey(affine)
    }

    /// The 96-byte compressed encoding.
    pub fn to_bytes(&self) -> [u8; Self::ENCODED_LEN] {
        let mut out = [0u8; Self::ENCODED_LEN];
        // SAFETY: `out` has the 96 bytes blst writes; `self.0` is valid.
        unsafe { blst_p2_affine_compress(out.as_mut_ptr(), &self.0) };
        out
    }

    /// Decodes a compressed key with full validation (on the curve, in the
    /// prime-order subgroup, not the identity): [`Error::InvalidElement`]
    /// otherwise, [`Error::BadLength`] for a length other than 96.
    pub fn from_bytes(bytes: &[u8]) -> Result<PublicKey, Error> {
        if bytes.len() != Self::ENCODED_LEN {
            return Err(Error::BadLength);
        }
        if bytes[0] & 0x80 == 0 {
            return Err(Error::InvalidElement);
        }
        let mut affine = blst_p2_affine::default();
        // SAFETY: `bytes` holds the 96 bytes blst reads.
        let status = unsafe { blst_p2_uncompress(&mut affine, bytes.as_ptr()) };
        if status != BLST_ERROR::BLST_SUCCESS {
            return Err(Error::InvalidElement);
        }
        // SAFETY: `affine` is a valid, initialised point.
        let (infinity, in_group) = unsafe {
            (
                blst_p2_affine_is_inf(&affine),
                blst_p2_affine_in_g2(&affine),
            )
        };
        if infinity || !in_group {
            return Err(Error::InvalidElement);
        }
        Ok(PublicKey(affine))
    }
}

/// `Σ_i weights[i]·keys[i]` (Lagrange interpolation in the exponent of
/// published keys with public weights, so variable time is allowed; blst's
/// multiplication is constant time anyway), or `None` for the identity.
pub(crate) fn combine_vartime(keys: &[PublicKey], weights: &[Fr]) -> Option<PublicKey> {
    let mut sum = blst_p2::default();
    for (key, weight) in keys.iter().zip(weights) {
        let scalar = weight.to_blst_scalar();
        let (mut point, mut term, previous) = (blst_p2::default(), blst_p2::default(), sum);
        // SAFETY: valid pointers to initialised blst values, each output
        // distinct from its inputs; `scalar.b` holds 32 little-endian bytes
        // of which 255 bits count.
        unsafe {
            blst_p2_from_affine(&mut point, &key.0);
            blst_p2_mult(&mut term, &point, scalar.b.as_ptr(), 255);
            blst_p2_add_or_double(&mut sum, &previous, &term);
        }
    }
    let mut affine = blst_p2_affine::default();
    // SAFETY: valid pointers to initialised blst values.
    let infinity = unsafe {
        blst_p2_to_affine(&mut affine, &sum);
        blst_p2_is_inf(&sum)
    };
    (!infinity).then_some(PublicKey(affine))
}

/// Whether `e(commitment, G2gen) = e(G1gen, key)`: the G1 commitment and
/// the G2 key carry the same discrete logarithm. Two Miller loops and one
/// final exponentiation (blst's `finalverify`).
pub(crate) fn same_secret(commitment: &G1, key: &PublicKey) -> bool {
    let mut commitment_affine = blst_p1_affine::default();
    let mut g2_affine = blst_p2_affine::default();
    let mut left = blst_fp12::default();
    let mut right = blst_fp12::default();
    // SAFETY: valid pointers to initialised blst values; the generators are
    // static blst values.
    unsafe {
        blst_p1_to_affine(&mut commitment_affine, &commitment.0);
        blst_p2_to_affine(&mut g2_affine, blst_p2_generator());
        blst_miller_loop(&mut left, &g2_affine, &commitment_affine);
        blst_miller_loop(&mut right, &key.0, blst_p1_affine_generator());
        blst_fp12_finalverify(&left, &right)
    }
}
