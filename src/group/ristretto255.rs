//! ristretto255 (RFC 9496) with SHA-512: the `ristretto255-SHA512` suite of
//! RFC 9497 (§4.1). Arithmetic by curve25519-dalek, whose AVX-512 IFMA
//! backend is chosen at run time where the CPU has it.

use curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT;
use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar as DalekScalar;
use curve25519_dalek::traits::{Identity, VartimeMultiscalarMul};
use rand_core::CryptoRng;
use sha2::{Digest, Sha512};
use subtle::{Choice, ConditionallySelectable};
use zeroize::{Zeroize, Zeroizing};

#[cfg(target_arch = "x86_64")]
use super::lanes::LaneCpu;
use super::xmd::expand_message_xmd;
use super::PrimeOrderGroup;
use crate::Error;

/// The group order `ℓ = 2^252 + 27742317777372353535851937790883648493`,
/// little-endian 64-bit words.
const ORDER_WORDS: [u64; 4] = [0x5812_631a_5cf5_d3ed, 0x14de_f9de_a2f7_9cd6, 0, 1 << 60];

/// `s/2 mod ℓ`: the batch encoders multiply by `s/2` and encode the
/// doubled product.
fn half(s: &DalekScalar) -> DalekScalar {
    DalekScalar::from_bytes_mod_order(*half_bytes(s))
}

/// The little-endian bytes of `s/2 mod ℓ`, in constant time: `s` when it
/// is even, else `s + ℓ` (even, and below 2^254), shifted right by one
/// bit. A few word operations, where multiplying by `1/2` costs dalek two
/// Montgomery products (a client halves two scalars per element). Wiped
/// on drop, like every intermediate here.
fn half_bytes(s: &DalekScalar) -> Zeroizing<[u8; 32]> {
    let bytes = Zeroizing::new(s.to_bytes()); // canonical: below ℓ
    let mut words = Zeroizing::new([0u64; 4]);
    for (i, word) in words.iter_mut().enumerate() {
        for j in 0..8 {
            *word |= u64::from(bytes[8 * i + j]) << (8 * j);
        }
    }
    // ℓ or 0, selected through `subtle` (a plain mask `ℓ & −(s & 1)` was
    // compiled into a branch on the parity).
    #[cfg(not(feature = "ct-planted-leak"))]
    let odd = Choice::from((words[0] & 1) as u8);
    #[cfg(feature = "ct-planted-leak")]
    let odd = crate::planted_leak::parity_branch(words[0]);
    let mut carry = 0u128;
    for (word, order) in words.iter_mut().zip(ORDER_WORDS) {
        let addend = u64::conditional_select(&0, &order, odd);
        let sum = u128::from(*word) + u128::from(addend) + carry;
        *word = sum as u64;
        carry = sum >> 64;
    }
    let mut half = Zeroizing::new([0u8; 32]);
    for i in 0..4 {
        let above = if i < 3 { words[i + 1] << 63 } else { 0 };
        half[8 * i..8 * i + 8].copy_from_slice(&((words[i] >> 1) | above).to_le_bytes());
    }
    half
}

/// A scalar modulo the group order ℓ. Keys, blinds and nonces are scalars,
/// so it is wiped on drop and neither `Copy` nor `Debug`.
#[derive(Clone)]
pub struct Scalar(pub(crate) DalekScalar);

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

/// 64 bytes of expand_message_xmd (SHA-512), wiped on drop: the message may
/// be a private input.
fn uniform_64(msg: &[&[u8]], dst: &[u8]) -> Zeroizing<[u8; 64]> {
    let mut uniform = Zeroizing::new([0u8; 64]);
    uniform.copy_from_slice(&expand_message_xmd::<Sha512>(msg, dst, 64));
    uniform
}

/// ristretto255's 8-lane engine (`lanes::ristretto255`) as
/// `PrimeOrderGroup::Lanes`: this group's conversions around it (halved
/// scalars, since the engine encodes doubled points; dalek points of its
/// sums) and its tail policy.
#[cfg(target_arch = "x86_64")]
mod engine {
    use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
    use zeroize::Zeroizing;

    use super::{half_bytes, uniform_64, Scalar};
    use crate::group::lanes::ristretto255::{self as lanes, DecodedBatch, LANES};
    use crate::group::lanes::{sha512, LaneCpu, LaneEngine, LaneSet, Timing};
    use crate::Error;

    /// On AVX2, at most this many elements past the engine's last full
    /// vector of 8 are evaluated by dalek instead (see
    /// [`Engine::portable_tail`]): a vector costs what about 7 elements
    /// cost on dalek's AVX2 backend (19.7–20.0 against 22.5–22.9 µs per
    /// element, PERFORMANCE.md).
    const DALEK_TAIL_AVX2: usize = 6;

    /// The engine (a name for the `LaneEngine` impl).
    pub struct Engine;

    /// The little-endian bytes of `s/2 mod ℓ` for every scalar (the engine
    /// encodes doubled products), as secret as the scalars: wiped on drop.
    fn halved_bytes(scalars: &[Scalar]) -> Zeroizing<Vec<[u8; 32]>> {
        Zeroizing::new(scalars.iter().map(|s| *half_bytes(&s.0)).collect())
    }

    impl LaneEngine for Engine {
        type Element = RistrettoPoint;
        type Scalar = Scalar;
        type Decoded = DecodedBatch;
        /// None: the client blinds by multiplication.
        type FixedBase = core::convert::Infallible;

        fn runs() -> Option<LaneCpu> {
            LaneCpu::detect()
        }

        /// On IFMA a vector of 8 lanes costs what about 2.9 elements cost
        /// on dalek (6.5 against 17.9 µs per element here), so up to 2
        /// elements past the last full vector are cheaper on dalek: a
        /// checked batch's one extra element (its balancer) then costs one
        /// element's time, not a vector's. On AVX2 the vector costs more
        /// elements' worth ([`DALEK_TAIL_AVX2`]).
        fn portable_tail(cpu: LaneCpu, count: usize) -> usize {
            let dalek_tail = match cpu.set() {
                LaneSet::Ifma => 2,
                LaneSet::Avx2 => DALEK_TAIL_AVX2,
            };
            match count % LANES {
                rest if rest <= dalek_tail => rest,
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
            lanes::mul_by_key(cpu, &half_bytes(&key.0), encoded, decoded, out)
        }

        fn mul_each(
            cpu: LaneCpu,
            scalars: &[Scalar],
            encoded: &[u8],
            decoded: Option<&DecodedBatch>,
            out: &mut [u8],
        ) -> bool {
            lanes::mul_each(cpu, &halved_bytes(scalars), encoded, decoded, out)
        }

        /// `ℓ < 2^253`.
        const SCALAR_BITS: usize = 253;

        fn scalar_bytes(s: &Scalar) -> Zeroizing<[u8; 32]> {
            Zeroizing::new(s.0.to_bytes())
        }

        /// The constant-time method for either timing.
        fn msm(
            cpu: LaneCpu,
            _timing: Timing,
            scalars: &[&[u8]],
            encoded: &[u8],
            decoded: Option<&DecodedBatch>,
            bits: usize,
        ) -> Option<RistrettoPoint> {
            lanes::msm_ct(cpu, encoded, decoded, scalars, bits)
                .and_then(|bytes| CompressedRistretto(bytes).decompress())
        }

        /// 64 bytes of expand_message_xmd per input, 8 inputs at a time
        /// (`lanes::sha512`, as `uniform_64` gives them), mapped, multiplied
        /// by half the blind and encoded doubled. An input that maps to the
        /// identity makes a zero encoding (its blinded element is the
        /// identity too), refused here.
        fn hash_and_blind(
            cpu: LaneCpu,
            inputs: &[&[u8]],
            dst: &[u8],
            blinds: &[Scalar],
            out: &mut [u8],
        ) -> Option<Result<DecodedBatch, Error>> {
            let uniform = match cpu.set() {
                LaneSet::Ifma => sha512::expand_message_xmd_64_each(cpu, inputs, dst),
                // No SHA-512 in lanes on AVX2: sha2's, one input at a time.
                LaneSet::Avx2 => {
                    Zeroizing::new(inputs.iter().map(|m| *uniform_64(&[m], dst)).collect())
                }
            };
            let vectors = lanes::hash_mul_encode(cpu, &uniform, &halved_bytes(blinds), out)?;
            let identity = [0u8; 32];
            // The blinded elements are public: so is the test.
            if out.chunks_exact(32).any(|e| e == identity) {
                return Some(Err(Error::InvalidInput));
            }
            Some(Ok(vectors))
        }

        /// Declines: dalek's points would reach the engine only through
        /// their encodings (an inversion and a square root each), a path
        /// not measured against dalek's own multiplication, which is kept.
        fn mul_each_element(
            _: LaneCpu,
            _: &[Scalar],
            _: &[RistrettoPoint],
        ) -> Option<Vec<RistrettoPoint>> {
            None
        }
    }
}

/// The ristretto255 group (`ristretto255-SHA512`).
#[derive(Clone, Copy, Debug)]
pub struct Ristretto255;

impl super::sealed::Sealed for Ristretto255 {}

impl PrimeOrderGroup for Ristretto255 {
    type Element = RistrettoPoint;
    type Scalar = Scalar;
    #[cfg(target_arch = "x86_64")]
    type Lanes = engine::Engine;
    #[cfg(not(target_arch = "x86_64"))]
    type Lanes = super::lanes::NoLanes<RistrettoPoint, Scalar>;

    const SUITE_ID: &'static str = "ristretto255-SHA512";
    const ELEMENT_LEN: usize = 32;
    const SCALAR_LEN: usize = 32;
    const HASH_LEN: usize = 64;

    fn hash(parts: &[&[u8]]) -> Vec<u8> {
        let mut h = Sha512::new();
        for part in parts {
            h.update(part);
        }
        h.finalize().to_vec()
    }

    /// 8 messages at a time (`lanes::sha512`) when the lane engines run.
    fn hash_each(messages: &[Vec<&[u8]>]) -> Vec<Zeroizing<Vec<u8>>> {
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = LaneCpu::detect_for(crate::group::lanes::LaneSet::Ifma) {
            let digests = super::lanes::sha512::digest_each(cpu, &[], messages);
            return digests.iter().map(|d| Zeroizing::new(d.to_vec())).collect();
        }
        super::hash_one_by_one::<Self>(messages)
    }

    fn generator() -> RistrettoPoint {
        RISTRETTO_BASEPOINT_POINT
    }

    fn identity() -> RistrettoPoint {
        RistrettoPoint::identity()
    }

    fn is_identity(element: &RistrettoPoint) -> bool {
        *element == RistrettoPoint::identity()
    }

    fn add(a: &RistrettoPoint, b: &RistrettoPoint) -> RistrettoPoint {
        a + b
    }

    fn neg(a: &RistrettoPoint) -> RistrettoPoint {
        -a
    }

    fn ct_select(
        choice: Choice,
        if_true: &RistrettoPoint,
        if_false: &RistrettoPoint,
    ) -> RistrettoPoint {
        RistrettoPoint::conditional_select(if_false, if_true, choice)
    }

    /// RFC 9380 `hash_to_ristretto255`: 64 bytes of expand_message_xmd
    /// (SHA-512) through the ristretto255 one-way map.
    fn hash_to_group(msg: &[&[u8]], dst: &[u8]) -> RistrettoPoint {
        RistrettoPoint::from_uniform_bytes(&uniform_64(msg, dst))
    }

    /// RFC 9497 §4.1: 64 bytes of expand_message_xmd reduced mod the order.
    fn hash_to_scalar(msg: &[&[u8]], dst: &[u8]) -> Scalar {
        Scalar(DalekScalar::from_bytes_mod_order_wide(&uniform_64(
            msg, dst,
        )))
    }

    fn random_scalar<R: CryptoRng + ?Sized>(rng: &mut R) -> Scalar {
        loop {
            let s = Scalar(DalekScalar::random(rng));
            // The decision reveals only whether a discarded value was zero.
            if crate::secret_marks::public_bool(!Self::scalar_is_zero(&s)) {
                return s;
            }
        }
    }

    /// One draw of 64 bytes per scalar, all in one call, each reduced as
    /// [`Self::random_scalar`] reduces its own 64 bytes (a zero, which has
    /// probability about 2^-252, is drawn again).
    fn random_scalars<R: CryptoRng + ?Sized>(count: usize, rng: &mut R) -> Vec<Scalar> {
        let mut bytes = Zeroizing::new(vec![0u8; 64 * count]);
        rng.fill_bytes(&mut bytes);
        bytes
            .chunks_exact(64)
            .map(|chunk| {
                let mut wide = Zeroizing::new([0u8; 64]);
                wide.copy_from_slice(chunk);
                let s = Scalar(DalekScalar::from_bytes_mod_order_wide(&wide));
                // The decision reveals only whether a discarded value was
                // zero.
                if crate::secret_marks::public_bool(Self::scalar_is_zero(&s)) {
                    Self::random_scalar(rng)
                } else {
                    s
                }
            })
            .collect()
    }

    fn scalar_from_u64(v: u64) -> Scalar {
        Scalar(DalekScalar::from(v))
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
        Scalar(s.0.invert())
    }

    fn scalar_is_zero(s: &Scalar) -> bool {
        bool::from(subtle::ConstantTimeEq::ct_eq(&s.0, &DalekScalar::ZERO))
    }

    fn batch_invert(scalars: &mut [Scalar]) {
        if !scalars.is_empty() {
            let mut inner: Zeroizing<Vec<DalekScalar>> =
                Zeroizing::new(scalars.iter().map(|s| s.0).collect());
            DalekScalar::invert_batch_alloc(&mut inner);
            for (s, inverse) in scalars.iter_mut().zip(inner.iter()) {
                s.0 = *inverse;
            }
        }
    }

    fn mul(element: &RistrettoPoint, s: &Scalar) -> RistrettoPoint {
        element * s.0
    }

    fn mul_base(s: &Scalar) -> RistrettoPoint {
        RistrettoPoint::mul_base(&s.0)
    }

    /// Multiplies by `s/2` and encodes with dalek's batch
    /// double-and-compress: `compress(2·(s/2)·X) = compress(s·X)`, and the
    /// batch shares one field inversion across all points.
    fn mul_batch_encode(s: &Scalar, elements: &[RistrettoPoint], out: &mut [u8]) {
        // The halved key is as secret as the key.
        let half = Scalar(half(&s.0));
        let halves: Vec<RistrettoPoint> = elements.iter().map(|e| e * half.0).collect();
        // The answer is public, and so are its halves.
        Self::declassify_elements(&halves);
        let compressed = RistrettoPoint::double_and_compress_batch(&halves);
        for (c, slot) in compressed
            .iter()
            .zip(out.chunks_exact_mut(Self::ELEMENT_LEN))
        {
            slot.copy_from_slice(c.as_bytes());
        }
    }

    /// As [`Self::mul_batch_encode`], with a halved scalar per element.
    fn mul_each_encode(
        scalars: &[Scalar],
        elements: &[RistrettoPoint],
        out: &mut [u8],
    ) -> Vec<RistrettoPoint> {
        // The products may be secret (unblinded elements): wiped on drop.
        let halves: Zeroizing<Vec<RistrettoPoint>> = Zeroizing::new(
            scalars
                .iter()
                .zip(elements)
                .map(|(s, e)| {
                    // Each halved scalar is as secret as the scalar.
                    let half = Scalar(half(&s.0));
                    e * half.0
                })
                .collect(),
        );
        let compressed = Zeroizing::new(RistrettoPoint::double_and_compress_batch(halves.iter()));
        for (c, slot) in compressed
            .iter()
            .zip(out.chunks_exact_mut(Self::ELEMENT_LEN))
        {
            slot.copy_from_slice(c.as_bytes());
        }
        halves.iter().map(|h| h + h).collect()
    }

    fn msm_vartime(scalars: &[Scalar], elements: &[RistrettoPoint]) -> RistrettoPoint {
        RistrettoPoint::vartime_multiscalar_mul(scalars.iter().map(|s| &s.0), elements)
    }

    fn encode(element: &RistrettoPoint, out: &mut [u8]) {
        out.copy_from_slice(element.compress().as_bytes());
    }

    fn decode(bytes: &[u8]) -> Result<RistrettoPoint, Error> {
        let compressed =
            CompressedRistretto::from_slice(bytes).map_err(|_| Error::InvalidElement)?;
        // `decompress` rejects non-canonical encodings.
        let point = compressed.decompress().ok_or(Error::InvalidElement)?;
        if Self::is_identity(&point) {
            return Err(Error::InvalidElement);
        }
        Ok(point)
    }

    fn encode_scalar(s: &Scalar, out: &mut [u8]) {
        out.copy_from_slice(s.0.as_bytes());
    }

    /// 32 bytes little-endian, canonical when `< ℓ`.
    fn scalar_from_bytes(bytes: &[u8]) -> (Scalar, bool) {
        let mut bytes: [u8; 32] = bytes.try_into().expect("SCALAR_LEN bytes");
        let candidate = DalekScalar::from_canonical_bytes(bytes);
        bytes.zeroize();
        let canonical = bool::from(candidate.is_some());
        (Scalar(candidate.unwrap_or(DalekScalar::ZERO)), canonical)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_drawn_at_once_equal_scalars_drawn_one_by_one() {
        use crate::rng::CountingRng;
        let at_once = Ristretto255::random_scalars(4, &mut CountingRng(3));
        let mut rng = CountingRng(3);
        for s in at_once {
            assert_eq!(s.0, Ristretto255::random_scalar(&mut rng).0);
        }
    }

    #[test]
    fn halves_doubled_give_the_scalars() {
        let order_minus_one = -DalekScalar::ONE;
        let mut order = order_minus_one.to_bytes();
        order[0] += 1; // the lowest byte of ℓ − 1 is 0xec
        for (i, word) in ORDER_WORDS.iter().enumerate() {
            assert_eq!(order[8 * i..8 * i + 8], word.to_le_bytes());
        }
        let mut rng = crate::rng::os_rng().unwrap();
        let mut scalars = vec![DalekScalar::ZERO, DalekScalar::ONE, order_minus_one];
        scalars.extend((0..64).map(|_| DalekScalar::random(&mut rng)));
        for s in scalars {
            let h = half_bytes(&s);
            let canonical = DalekScalar::from_canonical_bytes(*h);
            assert!(bool::from(canonical.is_some()), "half is canonical");
            assert_eq!(canonical.unwrap() + canonical.unwrap(), s);
        }
    }
}
