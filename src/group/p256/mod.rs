//! NIST P-256 with SHA-256: the `P256-SHA256` suite of RFC 9497 (§4.3).
//! Points, scalars, codecs and RFC 9380 hash-to-curve by RustCrypto's
//! `p256` 0.13, whose specialized field arithmetic is 1.5x faster here than
//! 0.14's generic Montgomery code (variable-base multiplication 241 µs
//! against 354 µs); its hash-to-curve takes the `digest` 0.10 SHA-256,
//! hence `sha2_010`. One element's scalar multiplication (`s·X`, `s·G`,
//! and the elements the 8-lane engines leave) is this crate's own
//! (`jacobian.rs` over `field.rs`): 1.5 times faster than `p256`'s.

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

mod coordinates;
mod field;
mod jacobian;
#[cfg(test)]
pub(crate) mod test_values;

use super::msm::pippenger_vartime;
use super::{PrimeOrderGroup, ShortScalar};
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

/// The little-endian bytes of a scalar, as the engine and the one-element
/// multiplication read them (secret: wiped on drop).
fn le_bytes(s: &Scalar) -> Zeroizing<[u8; 32]> {
    let mut bytes = Zeroizing::new(<[u8; 32]>::from(s.0.to_repr()));
    bytes.reverse();
    bytes
}

/// P-256's 8-lane engine (`lanes::p256`) as `PrimeOrderGroup::Lanes`:
/// this group's conversions around it (little-endian scalars, `p256`
/// points to and from affine coordinates, without branching on them).
#[cfg(target_arch = "x86_64")]
mod engine {
    use p256::ProjectivePoint;
    use subtle::Choice;
    use zeroize::Zeroizing;

    use super::coordinates::{coordinates_of, point_of_coordinates};
    use super::{le_bytes, Scalar};
    use crate::group::lanes::p256::{
        self as lanes, Coordinates, DecodedBatch, FixedBase, UNIFORM_LEN,
    };
    use crate::group::lanes::{LaneCpu, LaneEngine, LaneSet, Timing};
    use crate::group::xmd::expand_each_sha256;
    use crate::Error;

    /// The engine (a name for the `LaneEngine` impl).
    pub struct Engine;

    /// [`le_bytes`] of every scalar, wiped on drop.
    fn le_bytes_each(scalars: &[Scalar]) -> Zeroizing<Vec<[u8; 32]>> {
        Zeroizing::new(scalars.iter().map(|s| *le_bytes(s)).collect())
    }

    impl LaneEngine for Engine {
        type Element = ProjectivePoint;
        type Scalar = Scalar;
        type Decoded = DecodedBatch;
        type FixedBase = FixedBase;

        fn runs() -> Option<LaneCpu> {
            LaneCpu::detect()
        }

        /// On IFMA none: a vector of 8 lanes costs less than one element
        /// alone. On AVX2 a vector costs what about 2.4 elements cost one
        /// at a time (`jacobian.rs`, decoding and encoding included: 8 ×
        /// 21.4 against about 70 µs per element on Zen 5), so one or two
        /// elements past the last full vector are cheaper there: a
        /// checked batch of a multiple of 8 then pays for its extra
        /// element (its balancer) one element's time, not a vector's.
        fn portable_tail(cpu: LaneCpu, count: usize) -> usize {
            match (cpu.set(), count % 8) {
                (LaneSet::Avx2, rest @ 1..=2) => rest,
                _ => 0,
            }
        }

        fn decode(cpu: LaneCpu, encoded: &[u8]) -> Option<DecodedBatch> {
            lanes::decode(cpu, encoded)
        }

        fn mul_by_key(
            cpu: LaneCpu,
            key: &Scalar,
            encoded: &[u8],
            decoded: Option<&DecodedBatch>,
            out: &mut [u8],
        ) -> bool {
            lanes::mul_by_key(cpu, &le_bytes(key), encoded, decoded, out)
        }

        fn mul_each(
            cpu: LaneCpu,
            scalars: &[Scalar],
            encoded: &[u8],
            decoded: Option<&DecodedBatch>,
            out: &mut [u8],
        ) -> bool {
            lanes::mul_each(cpu, &le_bytes_each(scalars), encoded, decoded, out)
        }

        const SCALAR_BITS: usize = 256;

        fn scalar_bytes(s: &Scalar) -> Zeroizing<[u8; 32]> {
            le_bytes(s)
        }

        /// With `Timing::Variable`, incomplete additions of affine table
        /// entries, the tables kept in `decoded` for the unblinding.
        fn msm(
            cpu: LaneCpu,
            timing: Timing,
            scalars: &[&[u8]],
            encoded: &[u8],
            decoded: Option<&DecodedBatch>,
            bits: usize,
        ) -> Option<ProjectivePoint> {
            let sum = lanes::msm(cpu, timing, encoded, decoded, scalars, bits)?;
            Some(point_of_coordinates(&sum.0, Choice::from(sum.1)))
        }

        /// 96 bytes of expand_message_xmd per input (as
        /// `P256::hash_to_group`), hashed to the curve, multiplied by its
        /// blind and encoded, 8 inputs per vector.
        fn hash_and_blind(
            cpu: LaneCpu,
            inputs: &[&[u8]],
            dst: &[u8],
            blinds: &[Scalar],
            out: &mut [u8],
        ) -> Option<Result<DecodedBatch, Error>> {
            let uniform = expand_each_sha256::<UNIFORM_LEN>(inputs, dst);
            let blinded = lanes::hash_mul_encode(cpu, &uniform, &le_bytes_each(blinds), out)?;
            Some(blinded.ok_or(Error::InvalidInput))
        }

        /// The multiples `(1..8)·16^j·P` for every digit position `j`, in
        /// every lane (`None` for the identity, which has no tables).
        fn fixed_base(cpu: LaneCpu, base: &ProjectivePoint) -> Option<FixedBase> {
            let (xy, identity) = coordinates_of(base);
            (!bool::from(identity)).then(|| lanes::fixed_base(cpu, &xy))
        }

        /// As [`LaneEngine::hash_and_blind`]'s hashing, each hashed point
        /// added to its scalar's multiple of `base`'s point.
        fn hash_and_offset(
            cpu: LaneCpu,
            inputs: &[&[u8]],
            dst: &[u8],
            base: &FixedBase,
            scalars: &[Scalar],
            out: &mut [u8],
        ) -> Option<Result<Option<DecodedBatch>, Error>> {
            let uniform = expand_each_sha256::<UNIFORM_LEN>(inputs, dst);
            let bytes = le_bytes_each(scalars);
            let blinded = lanes::hash_offset_encode(cpu, &uniform, base, &bytes, out)?;
            Some(match blinded {
                None => Err(Error::InvalidInput),
                Some((_, true)) => Ok(None),
                Some((points, false)) => Ok(Some(points)),
            })
        }

        fn offset_each(
            cpu: LaneCpu,
            base: &FixedBase,
            scalars: &[Scalar],
            encoded: &[u8],
            decoded: Option<&DecodedBatch>,
            out: &mut [u8],
        ) -> bool {
            lanes::offset_each(cpu, base, &le_bytes_each(scalars), encoded, decoded, out)
        }

        /// From the points' affine coordinates (one `p256` inversion each,
        /// one vector per 8 points: one vector costs less than one `p256`
        /// multiplication), constant time in the scalars and the points
        /// (the identity is a masked lane, not a branch).
        fn mul_each_element(
            cpu: LaneCpu,
            scalars: &[Scalar],
            elements: &[ProjectivePoint],
        ) -> Option<Vec<ProjectivePoint>> {
            let mut identity = vec![0u8; elements.len().div_ceil(8)];
            let mut coordinates: Zeroizing<Vec<Coordinates>> =
                Zeroizing::new(Vec::with_capacity(elements.len()));
            for (i, element) in elements.iter().enumerate() {
                let (xy, is_identity) = coordinates_of(element);
                identity[i / 8] |= is_identity.unwrap_u8() << (i % 8);
                coordinates.push(*xy);
            }
            let bytes = le_bytes_each(scalars);
            let products = lanes::mul_each_coordinates(cpu, &bytes, &coordinates, &identity)?;
            Some(
                products
                    .iter()
                    .map(|(xy, identity)| point_of_coordinates(xy, Choice::from(*identity)))
                    .collect(),
            )
        }
    }
}

impl super::sealed::Sealed for P256 {}

impl PrimeOrderGroup for P256 {
    type Element = ProjectivePoint;
    type Scalar = Scalar;
    #[cfg(target_arch = "x86_64")]
    type Lanes = engine::Engine;
    #[cfg(not(target_arch = "x86_64"))]
    type Lanes = super::lanes::NoLanes<ProjectivePoint, Scalar>;

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

    /// In Jacobian coordinates with the fast formulas (`jacobian.rs`), not
    /// `p256`'s complete ones.
    fn mul(element: &ProjectivePoint, s: &Scalar) -> ProjectivePoint {
        jacobian::mul(element, s)
    }

    fn mul_base(s: &Scalar) -> ProjectivePoint {
        jacobian::mul(&ProjectivePoint::GENERATOR, s)
    }

    /// Each product encoded from the affine coordinates its
    /// multiplication ends with (one inversion per element, not two).
    fn mul_batch_encode(s: &Scalar, elements: &[ProjectivePoint], out: &mut [u8]) {
        for (element, slot) in elements.iter().zip(out.chunks_exact_mut(Self::ELEMENT_LEN)) {
            let (mut product, identity) = jacobian::mul_affine(element, s);
            jacobian::encode_compressed(&product, identity, slot);
            product.zeroize();
        }
        // The answers are sent: public from here.
        crate::secret_marks::declassify(out);
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

    /// Pippenger over `bits` bits only.
    fn msm_short_vartime(
        scalars: &[ShortScalar],
        elements: &[ProjectivePoint],
        bits: usize,
    ) -> ProjectivePoint {
        let little_endian: Vec<&[u8; 17]> = scalars.iter().map(ShortScalar::as_le_bytes).collect();
        pippenger_vartime::<Self>(&little_endian, elements, bits)
    }

    /// SEC1 compressed, built without branching on the point (it may be a
    /// client's secret, e.g. an unblinded OPRF element); the identity as
    /// 33 zero bytes (`coordinates::write_compressed`). One inversion per
    /// element: p256 0.13 has no batch normalization for this field.
    fn encode(element: &ProjectivePoint, out: &mut [u8]) {
        let affine = element.to_affine();
        coordinates::write_compressed(&affine.x(), affine.y_is_odd(), affine.is_identity(), out);
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
