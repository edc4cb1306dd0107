//! BLS12-381 G1 with SHA-256 (`BLS12381G1-SHA256`, this library's suite):
//! RFC 9380 `BLS12381G1_XMD:SHA-256_SSWU_RO_` hashing, 48-byte compressed
//! points, scalars modulo the group order r as 32 bytes big-endian.
//! Arithmetic by blst (its `portable` build: one binary for every x86-64).

use blst::{
    blst_bendian_from_scalar, blst_fp_cneg, blst_fr, blst_fr_add, blst_fr_from_scalar,
    blst_fr_from_uint64, blst_fr_inverse, blst_fr_mul, blst_fr_sub, blst_hash_to_g1, blst_p1,
    blst_p1_add_or_double, blst_p1_add_or_double_affine, blst_p1_affine, blst_p1_affine_in_g1,
    blst_p1_affine_is_inf, blst_p1_cneg, blst_p1_compress, blst_p1_double, blst_p1_from_affine,
    blst_p1_generator, blst_p1_is_equal, blst_p1_is_inf, blst_p1_mult, blst_p1_uncompress,
    blst_p1s_mult_pippenger, blst_p1s_mult_pippenger_scratch_sizeof, blst_p1s_to_affine,
    blst_scalar, blst_scalar_fr_check, blst_scalar_from_be_bytes, blst_scalar_from_bendian,
    blst_scalar_from_fr, BLST_ERROR,
};
use rand_core::CryptoRng;
use sha2::{Digest, Sha256};
use subtle::{Choice, ConditionallySelectable};
use zeroize::Zeroize;

use super::straus::{short_msm_ct, StrausArithmetic};
use super::xmd::expand_message_xmd;
use super::{PrimeOrderGroup, ShortScalar};
use crate::Error;

/// The BLS12-381 G1 group (`BLS12381G1-SHA256`).
#[derive(Clone, Copy, Debug)]
pub struct Bls12381G1;

/// A point of G1 (Jacobian coordinates).
#[derive(Clone, Copy, Debug, Default)]
pub struct G1(pub(crate) blst_p1);

impl Zeroize for G1 {
    fn zeroize(&mut self) {
        for coordinate in [&mut self.0.x, &mut self.0.y, &mut self.0.z] {
            coordinate.l.zeroize();
        }
    }
}

impl PartialEq for G1 {
    fn eq(&self, other: &Self) -> bool {
        // SAFETY: both pointers are to valid, initialised blst_p1 values.
        unsafe { blst_p1_is_equal(&self.0, &other.0) }
    }
}

/// A scalar modulo r (Montgomery form inside blst). Keys, blinds and nonces
/// are scalars, so it is wiped on drop and neither `Copy` nor `Debug`.
#[derive(Clone)]
pub struct Fr(pub(crate) blst_fr);

impl Zeroize for Fr {
    fn zeroize(&mut self) {
        self.0.l.zeroize();
    }
}

impl Drop for Fr {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for Fr {}

impl Fr {
    /// The 32-byte little-endian scalar blst's point multiplication takes
    /// (wipe it after use when the scalar is secret).
    pub(crate) fn to_blst_scalar(&self) -> blst_scalar {
        let mut s = blst_scalar::default();
        // SAFETY: valid output and input pointers.
        unsafe { blst_scalar_from_fr(&mut s, &self.0) };
        s
    }

    fn from_blst_scalar(s: &blst_scalar) -> Fr {
        let mut fr = blst_fr::default();
        // SAFETY: valid output and input pointers.
        unsafe { blst_fr_from_scalar(&mut fr, s) };
        Fr(fr)
    }

    /// Reduces a big-endian integer of any length modulo r.
    fn from_be_bytes_reduced(bytes: &[u8]) -> Fr {
        let mut s = blst_scalar::default();
        // SAFETY: `bytes` is a valid slice of `bytes.len()` bytes; the result
        // (whether it is zero) is not needed here.
        unsafe { blst_scalar_from_be_bytes(&mut s, bytes.as_ptr(), bytes.len()) };
        let fr = Fr::from_blst_scalar(&s);
        s.b.zeroize();
        fr
    }
}

/// Straus's method (the balancer of the batch check) with its table in
/// affine coordinates: one batch inversion for all the multiples, then
/// mixed additions, about 30% cheaper than blst's Jacobian ones. blst's
/// additions choose between their cases with masks, not branches, and read
/// the all-zero affine point as the identity.
struct AffineStraus;

impl StrausArithmetic for AffineStraus {
    type Point = G1;
    type Entry = blst_p1_affine;

    fn identity() -> G1 {
        Bls12381G1::identity()
    }

    fn double(p: &G1) -> G1 {
        let mut out = blst_p1::default();
        // SAFETY: valid pointers.
        unsafe { blst_p1_double(&mut out, &p.0) };
        G1(out)
    }

    fn add_entry(p: &G1, e: &blst_p1_affine) -> G1 {
        let mut out = blst_p1::default();
        // SAFETY: valid pointers; blst handles doubling and either input at
        // infinity.
        unsafe { blst_p1_add_or_double_affine(&mut out, &p.0, e) };
        G1(out)
    }

    fn add(p: &G1, q: &G1) -> G1 {
        Bls12381G1::add(p, q)
    }

    fn multiples(points: &[G1]) -> Vec<blst_p1_affine> {
        let mut jacobian = Vec::with_capacity(8 * points.len());
        for p in points {
            let mut multiple = *p;
            jacobian.push(multiple);
            for _ in 1..8 {
                multiple = Bls12381G1::add(&multiple, p);
                jacobian.push(multiple);
            }
        }
        to_affine_batch(&jacobian)
    }

    fn entry_identity() -> blst_p1_affine {
        blst_p1_affine::default()
    }

    fn entry_select(
        choice: Choice,
        if_true: &blst_p1_affine,
        if_false: &blst_p1_affine,
    ) -> blst_p1_affine {
        let mut out = *if_false;
        for (o, t) in [(&mut out.x.l, &if_true.x.l), (&mut out.y.l, &if_true.y.l)] {
            for (limb, &new) in o.iter_mut().zip(t) {
                limb.conditional_assign(&new, choice);
            }
        }
        out
    }

    fn entry_neg(e: &blst_p1_affine) -> blst_p1_affine {
        let mut out = *e;
        // SAFETY: valid pointers (blst allows the output to alias the input).
        unsafe { blst_fp_cneg(&mut out.y, &e.y, true) };
        out
    }
}

/// The multiplication of G1 points by a scalar (constant time in blst).
fn mul_p1(point: &blst_p1, s: &Fr) -> blst_p1 {
    let mut scalar = s.to_blst_scalar();
    let mut out = blst_p1::default();
    // SAFETY: valid pointers; `scalar.b` holds 32 little-endian bytes = 255
    // significant bits (r < 2^255).
    unsafe { blst_p1_mult(&mut out, point, scalar.b.as_ptr(), 255) };
    scalar.b.zeroize();
    out
}

fn to_affine_batch(points: &[G1]) -> Vec<blst_p1_affine> {
    let mut affine = vec![blst_p1_affine::default(); points.len()];
    let pointers: Vec<*const blst_p1> = points.iter().map(|p| &p.0 as *const blst_p1).collect();
    // SAFETY: `affine` has room for `points.len()` outputs, `pointers` holds
    // that many valid input pointers (blst's batch conversion shares one
    // field inversion).
    unsafe { blst_p1s_to_affine(affine.as_mut_ptr(), pointers.as_ptr(), points.len()) };
    affine
}

/// BLS12-381 G1's 8-lane engine (`lanes::bls12_381`) as
/// `PrimeOrderGroup::Lanes`: the scalars as little-endian bytes, the
/// engine's sums as blst points. `mul_each` on `blst` points (a few
/// products per batch: the committed-key request's) declines: blst runs
/// it.
#[cfg(target_arch = "x86_64")]
mod engine {
    use zeroize::Zeroizing;

    use blst::{blst_fp_from_bendian, blst_fp_from_uint64, blst_p1};
    use subtle::Choice;

    use super::{Bls12381G1, Fr, G1};

    use crate::group::lanes::bls12_381::{self as lanes, Coordinates, DecodedBatch, UNIFORM_LEN};
    use crate::group::lanes::{LaneCpu, LaneEngine, LaneSet, Timing};
    use crate::group::xmd::expand_each_sha256;
    use crate::group::PrimeOrderGroup;
    use crate::Error;

    /// The engine (a name for the `LaneEngine` impl).
    pub struct Engine;

    /// The little-endian bytes of a scalar (secret: wiped on drop).
    fn le_bytes(s: &Fr) -> Zeroizing<[u8; 32]> {
        let mut scalar = s.to_blst_scalar();
        let bytes = Zeroizing::new(scalar.b);
        zeroize::Zeroize::zeroize(&mut scalar.b);
        bytes
    }

    /// The point of affine coordinates the engine computed (canonical,
    /// on the curve), or the identity where `identity` is 1, in constant
    /// time: blst's conversions of field elements from bytes do not
    /// branch, and the identity is chosen by a mask. A secret sum (the
    /// balancer's) thus never meets the decoder of received encodings.
    fn point_of_coordinates(xy: &Coordinates, identity: u8) -> G1 {
        let mut point = blst_p1::default();
        let one = [1u64, 0, 0, 0, 0, 0];
        // SAFETY: valid output pointers; 48 bytes are read from each half
        // of `xy`, 6 limbs from `one`.
        unsafe {
            blst_fp_from_bendian(&mut point.x, xy[..48].as_ptr());
            blst_fp_from_bendian(&mut point.y, xy[48..].as_ptr());
            blst_fp_from_uint64(&mut point.z, one.as_ptr());
        }
        let mut finite = G1(point);
        zeroize::Zeroize::zeroize(&mut point.x.l);
        zeroize::Zeroize::zeroize(&mut point.y.l);
        let identity = Choice::from(identity);
        let chosen = Bls12381G1::ct_select(identity, &Bls12381G1::identity(), &finite);
        zeroize::Zeroize::zeroize(&mut finite);
        chosen
    }

    /// [`le_bytes`] of every scalar, wiped on drop.
    fn le_bytes_each(scalars: &[Fr]) -> Zeroizing<Vec<[u8; 32]>> {
        Zeroizing::new(scalars.iter().map(|s| *le_bytes(s)).collect())
    }

    impl LaneEngine for Engine {
        type Element = G1;
        type Scalar = Fr;
        type Decoded = DecodedBatch;
        /// None: the client blinds by multiplication.
        type FixedBase = core::convert::Infallible;

        fn runs() -> Option<LaneCpu> {
            LaneCpu::detect()
        }

        /// The elements past a multiple of 8 that blst evaluates for
        /// less than a vector of 8 lanes costs (decoding, its subgroup
        /// check and encoding included): up to two on IFMA, up to five on
        /// AVX2, where a vector costs what about 5.4 elements cost blst
        /// (8 × 112 against 165 µs per element on Emerald Rapids;
        /// PERFORMANCE.md).
        fn portable_tail(cpu: LaneCpu, count: usize) -> usize {
            let longest = match cpu.set() {
                LaneSet::Ifma => 2,
                LaneSet::Avx2 => 5,
            };
            match count % 8 {
                rest if rest <= longest => rest,
                _ => 0,
            }
        }

        fn decode(cpu: LaneCpu, encoded: &[u8]) -> Option<DecodedBatch> {
            lanes::decode(cpu, encoded)
        }

        fn mul_by_key(
            cpu: LaneCpu,
            key: &Fr,
            encoded: &[u8],
            decoded: Option<&DecodedBatch>,
            out: &mut [u8],
        ) -> bool {
            lanes::mul_by_key(cpu, &le_bytes(key), encoded, decoded, out)
        }

        fn mul_each(
            cpu: LaneCpu,
            scalars: &[Fr],
            encoded: &[u8],
            decoded: Option<&DecodedBatch>,
            out: &mut [u8],
        ) -> bool {
            lanes::mul_each(cpu, &le_bytes_each(scalars), encoded, decoded, out)
        }

        const SCALAR_BITS: usize = 255;

        fn scalar_bytes(s: &Fr) -> Zeroizing<[u8; 32]> {
            le_bytes(s)
        }

        /// The constant-time method for either timing.
        fn msm(
            cpu: LaneCpu,
            _timing: Timing,
            scalars: &[&[u8]],
            encoded: &[u8],
            decoded: Option<&DecodedBatch>,
            bits: usize,
        ) -> Option<G1> {
            let sum = lanes::msm_ct(cpu, encoded, decoded, scalars, bits)?;
            Some(point_of_coordinates(&sum.0, sum.1))
        }

        /// 128 bytes of expand_message_xmd per input (as
        /// `Bls12381G1::hash_to_group`), hashed to the curve, multiplied by
        /// its blind and encoded, 8 inputs per vector.
        fn hash_and_blind(
            cpu: LaneCpu,
            inputs: &[&[u8]],
            dst: &[u8],
            blinds: &[Fr],
            out: &mut [u8],
        ) -> Option<Result<DecodedBatch, Error>> {
            let uniform = expand_each_sha256::<UNIFORM_LEN>(inputs, dst);
            let blinded = lanes::hash_mul_encode(cpu, &uniform, &le_bytes_each(blinds), out)?;
            Some(blinded.ok_or(Error::InvalidInput))
        }

        /// The check's affine points as blst points (a conversion of each
        /// coordinate into blst's Montgomery form, about 0.2 µs a point,
        /// where blst's decoding takes about 70 µs).
        fn elements_of(cpu: LaneCpu, decoded: &DecodedBatch, count: usize) -> Option<Vec<G1>> {
            let coordinates = lanes::affine_coordinates(cpu, decoded, count)?;
            Some(
                coordinates
                    .iter()
                    .map(|xy| point_of_coordinates(xy, 0))
                    .collect(),
            )
        }

        fn mul_each_element(_: LaneCpu, _: &[Fr], _: &[G1]) -> Option<Vec<G1>> {
            None
        }
    }
}

impl super::sealed::Sealed for Bls12381G1 {}

impl PrimeOrderGroup for Bls12381G1 {
    type Element = G1;
    type Scalar = Fr;
    #[cfg(target_arch = "x86_64")]
    type Lanes = engine::Engine;
    #[cfg(not(target_arch = "x86_64"))]
    type Lanes = super::lanes::NoLanes<G1, Fr>;

    const SUITE_ID: &'static str = "BLS12381G1-SHA256";
    const ELEMENT_LEN: usize = 48;
    const SCALAR_LEN: usize = 32;
    const HASH_LEN: usize = 32;

    fn hash(parts: &[&[u8]]) -> Vec<u8> {
        let mut h = Sha256::new();
        for part in parts {
            h.update(part);
        }
        h.finalize().to_vec()
    }

    fn generator() -> G1 {
        // SAFETY: blst returns a pointer to its static generator.
        G1(unsafe { *blst_p1_generator() })
    }

    fn identity() -> G1 {
        G1(blst_p1::default()) // z = 0: the point at infinity
    }

    fn is_identity(element: &G1) -> bool {
        // SAFETY: valid pointer.
        unsafe { blst_p1_is_inf(&element.0) }
    }

    fn add(a: &G1, b: &G1) -> G1 {
        let mut out = blst_p1::default();
        // SAFETY: valid pointers; the function handles doubling and infinity.
        unsafe { blst_p1_add_or_double(&mut out, &a.0, &b.0) };
        G1(out)
    }

    fn neg(a: &G1) -> G1 {
        let mut out = a.0;
        // SAFETY: valid pointer.
        unsafe { blst_p1_cneg(&mut out, true) };
        G1(out)
    }

    fn ct_select(choice: Choice, if_true: &G1, if_false: &G1) -> G1 {
        let mut out = if_false.0;
        for (o, t) in [
            (&mut out.x.l, &if_true.0.x.l),
            (&mut out.y.l, &if_true.0.y.l),
            (&mut out.z.l, &if_true.0.z.l),
        ] {
            for (limb, &new) in o.iter_mut().zip(t) {
                limb.conditional_assign(&new, choice);
            }
        }
        G1(out)
    }

    /// RFC 9380 `BLS12381G1_XMD:SHA-256_SSWU_RO_`.
    fn hash_to_group(msg: &[&[u8]], dst: &[u8]) -> G1 {
        // The message may be a private input.
        let msg = zeroize::Zeroizing::new(msg.concat());
        let mut out = blst_p1::default();
        // SAFETY: valid output pointer and byte slices with their lengths; no
        // augmentation string.
        unsafe {
            blst_hash_to_g1(
                &mut out,
                msg.as_ptr(),
                msg.len(),
                dst.as_ptr(),
                dst.len(),
                core::ptr::null(),
                0,
            )
        };
        G1(out)
    }

    /// 48 bytes of expand_message_xmd (SHA-256) reduced mod r, as RFC 9380
    /// `hash_to_field` does for this curve's scalar field.
    fn hash_to_scalar(msg: &[&[u8]], dst: &[u8]) -> Fr {
        let mut uniform = expand_message_xmd::<Sha256>(msg, dst, 48);
        let s = Fr::from_be_bytes_reduced(&uniform);
        uniform.zeroize();
        s
    }

    fn random_scalar<R: CryptoRng + ?Sized>(rng: &mut R) -> Fr {
        loop {
            let mut wide = [0u8; 48];
            rng.fill_bytes(&mut wide);
            let s = Fr::from_be_bytes_reduced(&wide);
            wide.zeroize();
            // The decision reveals only whether a discarded value was zero.
            if crate::secret_marks::public_bool(!Self::scalar_is_zero(&s)) {
                return s;
            }
        }
    }

    fn scalar_from_u64(v: u64) -> Fr {
        let mut fr = blst_fr::default();
        let limbs = [v, 0, 0, 0];
        // SAFETY: blst reads 4 limbs from the pointer.
        unsafe { blst_fr_from_uint64(&mut fr, limbs.as_ptr()) };
        Fr(fr)
    }

    fn scalar_add(a: &Fr, b: &Fr) -> Fr {
        let mut out = blst_fr::default();
        // SAFETY: valid pointers.
        unsafe { blst_fr_add(&mut out, &a.0, &b.0) };
        Fr(out)
    }

    fn scalar_sub(a: &Fr, b: &Fr) -> Fr {
        let mut out = blst_fr::default();
        // SAFETY: valid pointers.
        unsafe { blst_fr_sub(&mut out, &a.0, &b.0) };
        Fr(out)
    }

    fn scalar_mul(a: &Fr, b: &Fr) -> Fr {
        let mut out = blst_fr::default();
        // SAFETY: valid pointers.
        unsafe { blst_fr_mul(&mut out, &a.0, &b.0) };
        Fr(out)
    }

    /// blst's `blst_fr_inverse` is the constant-time inversion.
    fn scalar_invert(s: &Fr) -> Fr {
        let mut out = blst_fr::default();
        // SAFETY: valid pointers.
        unsafe { blst_fr_inverse(&mut out, &s.0) };
        Fr(out)
    }

    fn scalar_is_zero(s: &Fr) -> bool {
        // OR of the limbs (Montgomery form of 0 is 0): no early exit.
        s.0.l.iter().fold(0u64, |acc, &l| acc | l) == 0
    }

    fn mul(element: &G1, s: &Fr) -> G1 {
        G1(mul_p1(&element.0, s))
    }

    fn mul_base(s: &Fr) -> G1 {
        // SAFETY: blst returns a pointer to its static generator.
        G1(mul_p1(unsafe { &*blst_p1_generator() }, s))
    }

    /// blst's Pippenger multi-scalar multiplication (variable time).
    fn msm_vartime(scalars: &[Fr], elements: &[G1]) -> G1 {
        let n = scalars.len().min(elements.len());
        if n == 0 {
            return Self::identity();
        }
        if n == 1 {
            return Self::mul(&elements[0], &scalars[0]);
        }
        let affine = to_affine_batch(&elements[..n]);
        let scalar_bytes: Vec<blst_scalar> =
            scalars[..n].iter().map(|s| s.to_blst_scalar()).collect();
        let point_ptrs: Vec<*const blst_p1_affine> = affine.iter().map(|p| p as *const _).collect();
        let scalar_ptrs: Vec<*const u8> = scalar_bytes.iter().map(|s| s.b.as_ptr()).collect();
        // SAFETY: the scratch size comes from blst for `n` points.
        let scratch_bytes = unsafe { blst_p1s_mult_pippenger_scratch_sizeof(n) };
        let mut scratch = vec![0u64; scratch_bytes.div_ceil(8)];
        let mut out = blst_p1::default();
        // SAFETY: `n` valid point and scalar pointers (255-bit little-endian
        // scalars), a scratch area of the size blst asked for.
        unsafe {
            blst_p1s_mult_pippenger(
                &mut out,
                point_ptrs.as_ptr(),
                n,
                scalar_ptrs.as_ptr(),
                255,
                scratch.as_mut_ptr().cast(),
            )
        };
        G1(out)
    }

    /// Straus's method with affine tables (`AffineStraus`).
    fn msm_short_ct(scalars: &[ShortScalar], elements: &[G1], bits: usize) -> G1 {
        short_msm_ct::<AffineStraus>(scalars, elements, bits)
    }

    /// blst's Pippenger over `bits` bits only.
    fn msm_short_vartime(scalars: &[ShortScalar], elements: &[G1], bits: usize) -> G1 {
        let n = scalars.len().min(elements.len());
        if n == 0 {
            return Self::identity();
        }
        let affine = to_affine_batch(&elements[..n]);
        let point_ptrs: Vec<*const blst_p1_affine> = affine.iter().map(|p| p as *const _).collect();
        let scalar_ptrs: Vec<*const u8> = scalars[..n]
            .iter()
            .map(|s| s.as_le_bytes().as_ptr())
            .collect();
        // SAFETY: the scratch size comes from blst for `n` points.
        let scratch_bytes = unsafe { blst_p1s_mult_pippenger_scratch_sizeof(n) };
        let mut scratch = vec![0u64; scratch_bytes.div_ceil(8)];
        let mut out = blst_p1::default();
        // SAFETY: `n` valid point pointers and `n` pointers to 17-byte
        // little-endian scalars, of which blst reads `bits.div_ceil(8)` ≤ 17
        // bytes; a scratch area of the size blst asked for.
        unsafe {
            blst_p1s_mult_pippenger(
                &mut out,
                point_ptrs.as_ptr(),
                n,
                scalar_ptrs.as_ptr(),
                bits.min(136),
                scratch.as_mut_ptr().cast(),
            )
        };
        G1(out)
    }

    fn encode(element: &G1, out: &mut [u8]) {
        assert_eq!(out.len(), Self::ELEMENT_LEN);
        // SAFETY: `out` has the 48 bytes blst writes.
        unsafe { blst_p1_compress(out.as_mut_ptr(), &element.0) };
    }

    /// Compressed form only; rejects non-canonical coordinates, points off
    /// the curve or outside the order-r subgroup, and the point at infinity.
    fn decode(bytes: &[u8]) -> Result<G1, Error> {
        if bytes.len() != Self::ELEMENT_LEN || bytes[0] & 0x80 == 0 {
            return Err(Error::InvalidElement);
        }
        let mut affine = blst_p1_affine::default();
        // SAFETY: `bytes` holds the 48 bytes blst reads.
        let status = unsafe { blst_p1_uncompress(&mut affine, bytes.as_ptr()) };
        if status != BLST_ERROR::BLST_SUCCESS {
            return Err(Error::InvalidElement);
        }
        // SAFETY: `affine` is a valid, initialised point.
        let infinity = unsafe { blst_p1_affine_is_inf(&affine) };
        // SAFETY: as above.
        let in_subgroup = unsafe { blst_p1_affine_in_g1(&affine) };
        if infinity || !in_subgroup {
            return Err(Error::InvalidElement);
        }
        let mut point = blst_p1::default();
        // SAFETY: valid pointers.
        unsafe { blst_p1_from_affine(&mut point, &affine) };
        Ok(G1(point))
    }

    fn encode_scalar(s: &Fr, out: &mut [u8]) {
        assert_eq!(out.len(), Self::SCALAR_LEN);
        let mut scalar = s.to_blst_scalar();
        // SAFETY: `out` has the 32 bytes blst writes.
        unsafe { blst_bendian_from_scalar(out.as_mut_ptr(), &scalar) };
        scalar.b.zeroize();
    }

    /// 32 bytes big-endian, canonical when `< r`.
    fn scalar_from_bytes(bytes: &[u8]) -> (Fr, bool) {
        assert_eq!(bytes.len(), Self::SCALAR_LEN);
        let mut scalar = blst_scalar::default();
        // SAFETY: `bytes` holds the 32 bytes blst reads.
        unsafe { blst_scalar_from_bendian(&mut scalar, bytes.as_ptr()) };
        // SAFETY: valid pointer; the check is `scalar < r`.
        let canonical = unsafe { blst_scalar_fr_check(&scalar) };
        let mut fr = Fr::from_blst_scalar(&scalar);
        scalar.b.zeroize();
        // Zero when not canonical, without a branch.
        let keep = Choice::from(u8::from(canonical));
        for limb in fr.0.l.iter_mut() {
            *limb = u64::conditional_select(&0, limb, keep);
        }
        (fr, canonical)
    }
}
