//! NIST P-256 with SHA-256: the `P256-SHA256` suite of RFC 9497 (§4.3).
//! Arithmetic and RFC 9380 hash-to-curve by RustCrypto's `p256` 0.13, whose
//! specialized field arithmetic is 1.5x faster here than 0.14's generic
//! Montgomery code (variable-base multiplication 241 µs against 354 µs);
//! its hash-to-curve takes the `digest` 0.10 SHA-256, hence `sha2_010`.

use p256::elliptic_curve::ff::{Field, PrimeField};
use p256::elliptic_curve::group::Group;
use p256::elliptic_curve::hash2curve::{ExpandMsgXmd, GroupDigest};
use p256::elliptic_curve::point::AffineCoordinates;
use p256::elliptic_curve::sec1::FromEncodedPoint;
use p256::{
    AffinePoint, EncodedPoint, FieldBytes, NistP256, ProjectivePoint, Scalar as P256Scalar,
};
use rand_core::CryptoRng;
use sha2::{Digest, Sha256};
use sha2_010::Sha256 as Sha256ForHashToCurve;
use subtle::{Choice, ConditionallySelectable};
use zeroize::{Zeroize, Zeroizing};

use super::msm::pippenger_vartime;
use super::{CheckedBatch, PrimeOrderGroup, ReceivedBatch, ShortScalar};
use crate::Error;

/// The NIST P-256 group (`P256-SHA256`).
#[derive(Clone, Copy, Debug)]
pub struct P256;

/// A scalar modulo the group order q. Keys, blinds and nonces are scalars,
/// so it is wiped on drop and neither `Copy` nor `Debug`.
#[derive(Clone)]
pub struct Scalar(pub(crate) P256Scalar);

impl Zeroize for Scalar {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Drop for Scalar {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for Scalar {}

/// The scalar of a big-endian encoding and whether it is valid (`< q` and
/// non-zero; 0 when not), computed without branching on the (secret)
/// bytes, which are wiped.
fn nonzero_scalar_from_repr(repr: &mut FieldBytes) -> (Scalar, bool) {
    let candidate = P256Scalar::from_repr(*repr);
    repr[..].zeroize();
    let s = Scalar(candidate.unwrap_or(P256Scalar::ZERO));
    let valid = bool::from(candidate.is_some()) & !bool::from(s.0.is_zero());
    (s, valid)
}

/// The little-endian bytes of a scalar, as the IFMA engine reads them
/// (secret: wiped on drop).
#[cfg(target_arch = "x86_64")]
fn le_bytes(s: &Scalar) -> Zeroizing<[u8; 32]> {
    let mut bytes = Zeroizing::new(<[u8; 32]>::from(s.0.to_repr()));
    bytes.reverse();
    bytes
}

/// The points the IFMA engine decoded for a batch's check, if it did.
#[cfg(target_arch = "x86_64")]
fn engine_points<'a>(
    batch: &ReceivedBatch<'a, ProjectivePoint>,
) -> Option<&'a super::p256_ifma::DecodedBatch> {
    batch.prepared.and_then(|p| p.downcast_ref())
}

/// `s_i·X_i` on the IFMA engine from the points' affine coordinates (one
/// `p256` inversion each, one vector per 8 points), constant time in the
/// scalars and the points (the identity is a masked lane, not a branch);
/// `None` when the engine does not run.
#[cfg(target_arch = "x86_64")]
fn engine_mul_each(
    scalars: &[Scalar],
    elements: &[ProjectivePoint],
) -> Option<Vec<ProjectivePoint>> {
    use p256::elliptic_curve::sec1::ToEncodedPoint;
    if !super::ifma_lanes::engine_selected() {
        return None;
    }
    let mut identity = vec![0u8; elements.len().div_ceil(8)];
    let mut coordinates: Zeroizing<Vec<super::p256_ifma::Coordinates>> =
        Zeroizing::new(Vec::with_capacity(elements.len()));
    for (i, element) in elements.iter().enumerate() {
        let affine = element.to_affine();
        let is_identity = affine.is_identity();
        identity[i / 8] |= is_identity.unwrap_u8() << (i % 8);
        // The identity has no coordinates: its lane takes the generator's
        // and is masked. `finite` is never the identity, so the encoder's
        // test for it always goes the same way.
        let finite = AffinePoint::conditional_select(&affine, &AffinePoint::GENERATOR, is_identity);
        let encoded = finite.to_encoded_point(false);
        let mut xy = [0u8; 64];
        xy[..32].copy_from_slice(encoded.x().expect("a finite point"));
        xy[32..].copy_from_slice(encoded.y().expect("uncompressed"));
        coordinates.push(xy);
    }
    let bytes: Zeroizing<Vec<[u8; 32]>> =
        Zeroizing::new(scalars.iter().map(|s| *le_bytes(s)).collect());
    let products = super::p256_ifma::mul_each_coordinates(&bytes, &coordinates, &identity)?;
    Some(
        products
            .iter()
            .map(|(xy, identity)| point_of_coordinates(xy, *identity))
            .collect(),
    )
}

/// The `p256` point of affine coordinates the engine computed, or the
/// identity where `identity` is 1, in constant time: the coordinates go
/// through the uncompressed form (its tag is a constant, the point's
/// validity a `CtOption`), and the identity is chosen by a mask.
#[cfg(target_arch = "x86_64")]
fn point_of_coordinates(xy: &super::p256_ifma::Coordinates, identity: u8) -> ProjectivePoint {
    let encoded = Zeroizing::new(EncodedPoint::from_affine_coordinates(
        (&xy[..32]).into(),
        (&xy[32..]).into(),
        false,
    ));
    let point = AffinePoint::from_encoded_point(&encoded);
    let finite = ProjectivePoint::from(point.unwrap_or(AffinePoint::GENERATOR));
    ProjectivePoint::conditional_select(&finite, &ProjectivePoint::IDENTITY, Choice::from(identity))
}

/// `Σ d_i·X_i` on the IFMA engine (constant time in the `d_i`,
/// little-endian bytes of which `bits` are read), from the points the
/// batch's check or blinding kept, else its encodings, as a `p256` point
/// (from its coordinates: a secret sum, the balancer's, never meets the
/// decoder of received encodings); `None` when the engine does not run.
#[cfg(target_arch = "x86_64")]
fn engine_msm(
    scalars: &[&[u8]],
    batch: &ReceivedBatch<'_, ProjectivePoint>,
    bits: usize,
) -> Option<ProjectivePoint> {
    let sum = super::p256_ifma::msm_ct(batch.encoded, engine_points(batch), scalars, bits)?;
    Some(point_of_coordinates(&sum.0, sum.1))
}

/// [`engine_msm`] for the balancer's short factors.
#[cfg(target_arch = "x86_64")]
fn engine_short_msm(
    scalars: &[ShortScalar],
    batch: &ReceivedBatch<'_, ProjectivePoint>,
    bits: usize,
) -> Option<ProjectivePoint> {
    let bytes: Vec<&[u8]> = scalars.iter().map(|s| &s.as_le_bytes()[..]).collect();
    engine_msm(&bytes, batch, bits)
}

impl super::sealed::Sealed for P256 {}

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

    fn ct_select(
        choice: Choice,
        if_true: &ProjectivePoint,
        if_false: &ProjectivePoint,
    ) -> ProjectivePoint {
        ProjectivePoint::conditional_select(if_false, if_true, choice)
    }

    /// RFC 9380 `P256_XMD:SHA-256_SSWU_RO_`.
    fn hash_to_group(msg: &[&[u8]], dst: &[u8]) -> ProjectivePoint {
        NistP256::hash_from_bytes::<ExpandMsgXmd<Sha256ForHashToCurve>>(msg, &[dst])
            .expect("expand_message_xmd accepts every DST used here")
    }

    /// RFC 9380 `hash_to_field` with `L = 48` bytes (RFC 9497 §4.3).
    fn hash_to_scalar(msg: &[&[u8]], dst: &[u8]) -> Scalar {
        Scalar(
            NistP256::hash_to_scalar::<ExpandMsgXmd<Sha256ForHashToCurve>>(msg, &[dst])
                .expect("expand_message_xmd accepts every DST used here"),
        )
    }

    /// Rejection sampling of 32 random bytes: uniform on `[1, q)`; a retry
    /// happens with probability about 2^-32 and reveals nothing about the
    /// accepted value.
    fn random_scalar<R: CryptoRng + ?Sized>(rng: &mut R) -> Scalar {
        let mut bytes = FieldBytes::default();
        loop {
            rng.fill_bytes(&mut bytes);
            let (s, valid) = nonzero_scalar_from_repr(&mut bytes);
            // The decision reveals only whether discarded bytes were >= q.
            if crate::secret_marks::public_bool(valid) {
                return s;
            }
        }
    }

    fn scalar_from_u64(v: u64) -> Scalar {
        Scalar(P256Scalar::from(v))
    }

    fn scalar_add(a: &Scalar, b: &Scalar) -> Scalar {
        Scalar(a.0 + b.0)
    }

    fn scalar_sub(a: &Scalar, b: &Scalar) -> Scalar {
        Scalar(a.0 - b.0)
    }

    fn scalar_mul(a: &Scalar, b: &Scalar) -> Scalar {
        Scalar(a.0 * b.0)
    }

    fn scalar_invert(s: &Scalar) -> Scalar {
        // A constant-time select, not a branch on whether `s` is zero.
        Scalar(s.0.invert().unwrap_or(P256Scalar::ZERO))
    }

    fn scalar_is_zero(s: &Scalar) -> bool {
        bool::from(s.0.is_zero())
    }

    fn mul(element: &ProjectivePoint, s: &Scalar) -> ProjectivePoint {
        element * &s.0
    }

    /// The 8-lane IFMA engine when it runs (one vector costs less than one
    /// `p256` multiplication), else `p256` element by element.
    fn mul_each(scalars: &[Scalar], elements: &[ProjectivePoint]) -> Vec<ProjectivePoint> {
        #[cfg(target_arch = "x86_64")]
        if let Some(products) = engine_mul_each(scalars, elements) {
            return products;
        }
        scalars
            .iter()
            .zip(elements)
            .map(|(s, e)| e * &s.0)
            .collect()
    }

    fn mul_base(s: &Scalar) -> ProjectivePoint {
        ProjectivePoint::GENERATOR * s.0
    }

    /// Pippenger's bucket method; a single pair is one multiplication.
    fn msm_vartime(scalars: &[Scalar], elements: &[ProjectivePoint]) -> ProjectivePoint {
        if scalars.len() == 1 && elements.len() == 1 {
            return elements[0] * scalars[0].0;
        }
        let little_endian: Vec<FieldBytes> = scalars
            .iter()
            .map(|s| {
                let mut bytes = s.0.to_repr();
                bytes.reverse();
                bytes
            })
            .collect();
        pippenger_vartime::<Self>(&little_endian, elements, 256)
    }

    /// The engine's constant-time method over all 256 bits when it runs
    /// (a VOPRF proof's composites, from the points the batch's check kept
    /// or its encodings: no `p256` point is decoded), else Pippenger on the
    /// elements.
    fn msm_vartime_received(
        scalars: &[Scalar],
        batch: ReceivedBatch<'_, ProjectivePoint>,
    ) -> ProjectivePoint {
        #[cfg(target_arch = "x86_64")]
        {
            let bytes: Vec<Zeroizing<[u8; 32]>> = scalars.iter().map(le_bytes).collect();
            let refs: Vec<&[u8]> = bytes.iter().map(|b| &b[..]).collect();
            if let Some(sum) = engine_msm(&refs, &batch, 256) {
                return sum;
            }
        }
        Self::msm_vartime(scalars, &super::received_elements::<Self>(&batch))
    }

    /// Pippenger over `bits` bits only.
    fn msm_short_vartime(
        scalars: &[ShortScalar],
        elements: &[ProjectivePoint],
        bits: usize,
    ) -> ProjectivePoint {
        let little_endian: Vec<&[u8; 17]> = scalars.iter().map(ShortScalar::as_le_bytes).collect();
        pippenger_vartime::<Self>(&little_endian, elements, bits)
    }

    /// SEC1 compressed. The identity has no 33-byte form: it encodes as 33
    /// zero bytes, which no decoder accepts. (p256 0.13 has no batch
    /// normalization for this field, so each encoding pays an inversion.)
    /// SEC1 compressed, built without branching on the point (it may be a
    /// client's secret, e.g. an unblinded OPRF element): prefix `02 | (y
    /// odd)`, then x; the identity (no SEC1 compressed form) as zeros.
    fn encode(element: &ProjectivePoint, out: &mut [u8]) {
        let affine = element.to_affine();
        let identity = affine.is_identity();
        let x = affine.x();
        let prefix = 2 | affine.y_is_odd().unwrap_u8();
        out[0] = u8::conditional_select(&prefix, &0, identity);
        for (o, b) in out[1..].iter_mut().zip(x.iter()) {
            *o = u8::conditional_select(b, &0, identity);
        }
    }

    /// SEC1 compressed form only (33 bytes, prefix 02 or 03, x < p, on the
    /// curve); the identity has no such encoding.
    fn decode(bytes: &[u8]) -> Result<ProjectivePoint, Error> {
        if bytes.len() != Self::ELEMENT_LEN || !matches!(bytes[0], 0x02 | 0x03) {
            return Err(Error::InvalidElement);
        }
        let point = EncodedPoint::from_bytes(bytes).map_err(|_| Error::InvalidElement)?;
        let affine = Option::<AffinePoint>::from(AffinePoint::from_encoded_point(&point))
            .ok_or(Error::InvalidElement)?;
        let projective = ProjectivePoint::from(affine);
        if Self::is_identity(&projective) {
            return Err(Error::InvalidElement);
        }
        Ok(projective)
    }

    /// The 8-lane IFMA engine when it runs (constant time), else Straus's
    /// method on `p256` elements.
    fn msm_short_ct(
        scalars: &[ShortScalar],
        batch: ReceivedBatch<'_, ProjectivePoint>,
        bits: usize,
    ) -> ProjectivePoint {
        #[cfg(target_arch = "x86_64")]
        if let Some(sum) = engine_short_msm(scalars, &batch, bits) {
            return sum;
        }
        let elements = super::received_elements::<Self>(&batch);
        super::straus::short_msm_ct::<super::straus::Elements<Self>>(scalars, &elements, bits)
    }

    /// The engine's constant-time method when the IFMA engine runs (the
    /// answer's points are not decoded by `p256` then), else Pippenger on
    /// the elements.
    fn msm_short_vartime_received(
        scalars: &[ShortScalar],
        batch: ReceivedBatch<'_, ProjectivePoint>,
        bits: usize,
    ) -> ProjectivePoint {
        #[cfg(target_arch = "x86_64")]
        if let Some(sum) = engine_short_msm(scalars, &batch, bits) {
            return sum;
        }
        Self::msm_short_vartime(scalars, &super::received_elements::<Self>(&batch), bits)
    }

    /// The 8-lane IFMA engine when it runs (from the points the batch's
    /// check kept, or its encodings), else `p256` element by element.
    fn mul_encoded_batch_encode(
        s: &Scalar,
        batch: ReceivedBatch<'_, ProjectivePoint>,
        out: &mut [u8],
    ) {
        #[cfg(target_arch = "x86_64")]
        if super::p256_ifma::mul_by_key(&le_bytes(s), batch.encoded, engine_points(&batch), out) {
            return;
        }
        super::mul_elements_batch_encode::<Self>(s, &batch, out)
    }

    /// The 8-lane IFMA engine when it runs, else `p256` element by element.
    fn mul_each_received_encode(
        scalars: &[Scalar],
        batch: ReceivedBatch<'_, ProjectivePoint>,
        out: &mut [u8],
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            let bytes: Zeroizing<Vec<[u8; 32]>> =
                Zeroizing::new(scalars.iter().map(|s| *le_bytes(s)).collect());
            let decoded = engine_points(&batch);
            if super::p256_ifma::mul_each(&bytes, batch.encoded, decoded, out) {
                return;
            }
        }
        super::mul_each_elements_encode::<Self>(scalars, &batch, out)
    }

    /// The 8-lane IFMA engine when it runs: 96 bytes of
    /// expand_message_xmd per input (as [`Self::hash_to_group`]), hashed
    /// to the curve, multiplied by its blind and encoded, 8 inputs per
    /// vector, the blinded points kept for the engine. Else hashing and
    /// blinding with `p256`.
    fn hash_and_blind_encode(
        inputs: &[&[u8]],
        dst: &[u8],
        blinds: &[Scalar],
        out: &mut [u8],
    ) -> Result<CheckedBatch<ProjectivePoint>, Error> {
        #[cfg(target_arch = "x86_64")]
        {
            use super::p256_ifma::UNIFORM_LEN;
            let zero_padded = super::xmd::zero_padded::<Sha256>();
            let uniform: Zeroizing<Vec<[u8; UNIFORM_LEN]>> = Zeroizing::new(
                inputs
                    .iter()
                    .map(|x| {
                        let bytes = super::xmd::expand_message_xmd_after(
                            &zero_padded,
                            &[x],
                            dst,
                            UNIFORM_LEN,
                        );
                        <[u8; UNIFORM_LEN]>::try_from(bytes.as_slice()).expect("96 bytes")
                    })
                    .collect(),
            );
            let bytes: Zeroizing<Vec<[u8; 32]>> =
                Zeroizing::new(blinds.iter().map(|s| *le_bytes(s)).collect());
            if let Some(blinded) = super::p256_ifma::hash_mul_encode(&uniform, &bytes, out) {
                let blinded = blinded.ok_or(Error::InvalidInput)?;
                return Ok(CheckedBatch::Prepared(Box::new(blinded)));
            }
        }
        super::hash_and_blind_elements::<Self>(inputs, dst, blinds, out).map(CheckedBatch::Elements)
    }

    /// The 8-lane IFMA engine's decoding when it runs (its points kept for
    /// the evaluation or unblinding), else [`Self::decode_batch`]; both
    /// accept exactly the same encodings.
    fn check_batch(bytes: &[u8]) -> Result<CheckedBatch<ProjectivePoint>, Error> {
        if bytes.is_empty() || !bytes.len().is_multiple_of(Self::ELEMENT_LEN) {
            return Err(Error::BadLength);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(vectors) = super::p256_ifma::decode_checked(bytes) {
            let vectors = vectors.ok_or(Error::InvalidElement)?;
            return Ok(CheckedBatch::Prepared(Box::new(vectors)));
        }
        Self::decode_batch(bytes).map(CheckedBatch::Elements)
    }

    fn encode_scalar(s: &Scalar, out: &mut [u8]) {
        out.copy_from_slice(&s.0.to_repr());
    }

    /// 32 bytes big-endian, canonical when `< q`.
    fn scalar_from_bytes(bytes: &[u8]) -> (Scalar, bool) {
        let mut repr = FieldBytes::default();
        repr.copy_from_slice(bytes);
        let candidate = P256Scalar::from_repr(repr);
        repr[..].zeroize();
        let canonical = bool::from(candidate.is_some());
        (Scalar(candidate.unwrap_or(P256Scalar::ZERO)), canonical)
    }
}
