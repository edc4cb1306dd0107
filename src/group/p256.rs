//! NIST P-256 with SHA-256: the `P256-SHA256` suite of RFC 9497 (§4.3).
//! Arithmetic and RFC 9380 hash-to-curve by RustCrypto's `p256`.

use p256::elliptic_curve::ff::{Field, PrimeField};
use p256::elliptic_curve::group::Group;
use p256::elliptic_curve::ops::LinearCombination;
use p256::elliptic_curve::sec1::{FromSec1Point, ToSec1Point};
use p256::elliptic_curve::BatchNormalize;
use p256::hash2curve::ExpandMsgXmd;
use p256::{AffinePoint, FieldBytes, NistP256, ProjectivePoint, Scalar};
use rand_core::CryptoRng;
use sha2::{Digest, Sha256};

use super::PrimeOrderGroup;
use crate::Error;

/// The NIST P-256 group (`P256-SHA256`).
#[derive(Clone, Copy, Debug)]
pub struct P256;

impl PrimeOrderGroup for P256 {
    type Element = ProjectivePoint;
    type Scalar = Scalar;

    const SUITE_ID: &'static str = "P256-SHA256";
    const ELEMENT_LEN: usize = 33;
    const SCALAR_LEN: usize = 32;
    const HASH_LEN: usize = 32;

    fn hash(parts: &[&[u8]]) -> Vec<u8> {
        let mut h = Sha256::new();
        for part in parts {
            h.update(part);
        }
        h.finalize().to_vec()
    }

    fn generator() -> ProjectivePoint {
        ProjectivePoint::GENERATOR
    }

    fn identity() -> ProjectivePoint {
        ProjectivePoint::IDENTITY
    }

    fn is_identity(element: &ProjectivePoint) -> bool {
        bool::from(element.is_identity())
    }

    fn add(a: &ProjectivePoint, b: &ProjectivePoint) -> ProjectivePoint {
        a + b
    }

    fn neg(a: &ProjectivePoint) -> ProjectivePoint {
        -a
    }

    /// RFC 9380 `P256_XMD:SHA-256_SSWU_RO_`.
    fn hash_to_group(msg: &[&[u8]], dst: &[u8]) -> ProjectivePoint {
        p256::hash2curve::hash_from_bytes::<NistP256, ExpandMsgXmd<Sha256>>(msg, &[dst])
            .expect("expand_message_xmd accepts every DST used here")
    }

    /// RFC 9380 `hash_to_field` with `L = 48` bytes (RFC 9497 §4.3).
    fn hash_to_scalar(msg: &[&[u8]], dst: &[u8]) -> Scalar {
        p256::hash2curve::hash_to_scalar::<
            NistP256,
            ExpandMsgXmd<Sha256>,
            p256::elliptic_curve::consts::U48,
        >(msg, &[dst])
        .expect("expand_message_xmd accepts every DST used here")
    }

    fn random_scalar<R: CryptoRng + ?Sized>(rng: &mut R) -> Scalar {
        loop {
            let s = Scalar::random(rng);
            if !bool::from(s.is_zero()) {
                return s;
            }
        }
    }

    fn scalar_from_u64(v: u64) -> Scalar {
        Scalar::from(v)
    }

    fn scalar_add(a: &Scalar, b: &Scalar) -> Scalar {
        a + b
    }

    fn scalar_sub(a: &Scalar, b: &Scalar) -> Scalar {
        a - b
    }

    fn scalar_mul(a: &Scalar, b: &Scalar) -> Scalar {
        a * b
    }

    fn scalar_invert(s: &Scalar) -> Scalar {
        Option::<Scalar>::from(s.invert()).unwrap_or(Scalar::ZERO)
    }

    fn scalar_is_zero(s: &Scalar) -> bool {
        bool::from(s.is_zero())
    }

    fn mul(element: &ProjectivePoint, s: &Scalar) -> ProjectivePoint {
        element * s
    }

    fn mul_base(s: &Scalar) -> ProjectivePoint {
        ProjectivePoint::mul_by_generator(s)
    }

    fn msm_vartime(scalars: &[Scalar], elements: &[ProjectivePoint]) -> ProjectivePoint {
        let pairs: Vec<(ProjectivePoint, Scalar)> = elements
            .iter()
            .copied()
            .zip(scalars.iter().copied())
            .collect();
        ProjectivePoint::lincomb_vartime(pairs.as_slice())
    }

    /// SEC1 compressed. The identity has no 33-byte form: it encodes as 33
    /// zero bytes, which no decoder accepts.
    fn encode(element: &ProjectivePoint, out: &mut [u8]) {
        Self::encode_batch(core::slice::from_ref(element), out);
    }

    /// One field inversion for the whole batch (projective to affine).
    fn encode_batch(elements: &[ProjectivePoint], out: &mut [u8]) {
        let affine: Vec<AffinePoint> = ProjectivePoint::batch_normalize(elements);
        for (point, slot) in affine.iter().zip(out.chunks_exact_mut(Self::ELEMENT_LEN)) {
            let encoded = point.to_sec1_point(true);
            match encoded.as_bytes() {
                bytes if bytes.len() == Self::ELEMENT_LEN => slot.copy_from_slice(bytes),
                _ => slot.fill(0), // the identity
            }
        }
    }

    /// SEC1 compressed form only (33 bytes, prefix 02 or 03, x < p, on the
    /// curve); the identity has no such encoding.
    fn decode(bytes: &[u8]) -> Result<ProjectivePoint, Error> {
        if bytes.len() != Self::ELEMENT_LEN || !matches!(bytes[0], 0x02 | 0x03) {
            return Err(Error::InvalidElement);
        }
        let point = p256::Sec1Point::from_bytes(bytes).map_err(|_| Error::InvalidElement)?;
        let affine = Option::<AffinePoint>::from(AffinePoint::from_sec1_point(&point))
            .ok_or(Error::InvalidElement)?;
        let projective = ProjectivePoint::from(affine);
        if Self::is_identity(&projective) {
            return Err(Error::InvalidElement);
        }
        Ok(projective)
    }

    fn encode_scalar(s: &Scalar, out: &mut [u8]) {
        out.copy_from_slice(&s.to_repr());
    }

    /// 32 bytes big-endian, `< q`, not zero.
    fn decode_scalar(bytes: &[u8]) -> Result<Scalar, Error> {
        let repr: FieldBytes = FieldBytes::try_from(bytes).map_err(|_| Error::InvalidScalar)?;
        let s = Option::<Scalar>::from(Scalar::from_repr(repr)).ok_or(Error::InvalidScalar)?;
        if Self::scalar_is_zero(&s) {
            return Err(Error::InvalidScalar);
        }
        Ok(s)
    }
}
