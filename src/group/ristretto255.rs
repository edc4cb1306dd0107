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

use super::xmd::expand_message_xmd;
use super::{CheckedBatch, PrimeOrderGroup, ReceivedBatch, ShortScalar};
use crate::Error;

/// The group order `ℓ = 2^252 + 27742317777372353535851937790883648493`,
/// little-endian 64-bit words.
const ORDER_WORDS: [u64; 4] = [0x5812_631a_5cf5_d3ed, 0x14de_f9de_a2f7_9cd6, 0, 1 << 60];

/// Bits of a scalar modulo ℓ (`ℓ < 2^253`).
#[cfg(target_arch = "x86_64")]
const SCALAR_BITS: usize = 253;

/// At most this many elements past the IFMA engine's last full vector of
/// 8 are evaluated by dalek instead (see [`dalek_tail`]).
#[cfg(target_arch = "x86_64")]
const DALEK_TAIL: usize = 2;

/// How many elements at the end of a server's batch of `count` dalek
/// decodes and evaluates when the IFMA engine runs the rest. A vector of 8
/// lanes costs what about 2.9 elements cost on dalek (6.5 against 17.9 µs
/// per element here), so up to [`DALEK_TAIL`] elements past the last full
/// vector are cheaper on dalek: a checked batch's one extra element (its
/// balancer) then costs one element's time, not a vector's. Depends only
/// on `count`.
#[cfg(target_arch = "x86_64")]
fn dalek_tail(count: usize) -> usize {
    match count % super::ristretto_ifma::LANES {
        rest if rest <= DALEK_TAIL => rest,
        _ => 0,
    }
}

/// What a batch keeps beside its encodings when the IFMA engine runs: the
/// points of its first vectors (decoded by a message's check, or a
/// client's blinded elements as the engine computed them: all of them)
/// and the elements of the rest, decoded by dalek, where the check left
/// them to dalek (its [`dalek_tail`]; empty otherwise).
#[cfg(target_arch = "x86_64")]
struct EnginePrepared {
    vectors: super::ristretto_ifma::DecodedBatch,
    tail: Vec<RistrettoPoint>,
}

/// The engine's points of a batch, if it kept them.
#[cfg(target_arch = "x86_64")]
fn engine_points<'a>(batch: &ReceivedBatch<'a, RistrettoPoint>) -> Option<&'a EnginePrepared> {
    batch
        .prepared
        .and_then(|p| p.downcast_ref::<EnginePrepared>())
}

/// `Σ d_i·P_i` for the points of a batch on the IFMA engine (constant time
/// in the `d_i`, little-endian bytes of which `bits` are read), from the
/// points its check kept and the encodings of the rest, as a dalek point;
/// `None` when the engine does not run.
#[cfg(target_arch = "x86_64")]
fn engine_msm(
    scalars: &[&[u8]],
    batch: &ReceivedBatch<'_, RistrettoPoint>,
    bits: usize,
) -> Option<RistrettoPoint> {
    if batch.encoded.len() != scalars.len() * Ristretto255::ELEMENT_LEN {
        return None;
    }
    let decoded = engine_points(batch).map(|p| &p.vectors);
    super::ristretto_ifma::msm_ct(batch.encoded, decoded, scalars, bits)
        .and_then(|bytes| CompressedRistretto(bytes).decompress())
}

/// [`engine_msm`] for the balancer's short factors.
#[cfg(target_arch = "x86_64")]
fn engine_short_msm(
    scalars: &[ShortScalar],
    batch: &ReceivedBatch<'_, RistrettoPoint>,
    bits: usize,
) -> Option<RistrettoPoint> {
    let bytes: Vec<&[u8]> = scalars.iter().map(|s| &s.as_le_bytes()[..]).collect();
    engine_msm(&bytes, batch, bits)
}

/// The little-endian bytes of `s/2 mod ℓ` for every scalar (the engine
/// encodes doubled products), as secret as the scalars: wiped on drop.
#[cfg(target_arch = "x86_64")]
fn halved_bytes(scalars: &[Scalar]) -> Zeroizing<Vec<[u8; 32]>> {
    Zeroizing::new(scalars.iter().map(|s| *half_bytes(&s.0)).collect())
}

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

/// The ristretto255 group (`ristretto255-SHA512`).
#[derive(Clone, Copy, Debug)]
pub struct Ristretto255;

impl super::sealed::Sealed for Ristretto255 {}

impl PrimeOrderGroup for Ristretto255 {
    type Element = RistrettoPoint;
    type Scalar = Scalar;

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

    /// 8 messages at a time (`sha512_lanes`) when the IFMA engine runs.
    fn hash_each(messages: &[Vec<&[u8]>]) -> Vec<Zeroizing<Vec<u8>>> {
        #[cfg(target_arch = "x86_64")]
        if let Some(digests) = super::sha512_lanes::digest_each(&[], messages) {
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

    /// The 8-lane IFMA engine when it is selected (from the points the
    /// request's check kept, else from the encodings) on the full vectors
    /// of 8, dalek on the rest (see [`dalek_tail`]); dalek on everything
    /// otherwise.
    fn mul_encoded_batch_encode(
        s: &Scalar,
        batch: ReceivedBatch<'_, RistrettoPoint>,
        out: &mut [u8],
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            let count = batch.encoded.len() / Self::ELEMENT_LEN;
            let tail = dalek_tail(count);
            let split = (count - tail) * Self::ELEMENT_LEN;
            let (head_out, tail_out) = out.split_at_mut(split);
            // The halved key's bytes are as secret as the key.
            let half_key = half_bytes(&s.0);
            let prepared = engine_points(&batch);
            let decoded = prepared.map(|p| &p.vectors);
            let head = &batch.encoded[..split];
            if super::ristretto_ifma::mul_by_key(&half_key, head, decoded, head_out) {
                if tail > 0 {
                    // The tail's elements, when decoded already (by the
                    // check, or by whoever built the request).
                    let elements = prepared
                        .map(|p| p.tail.as_slice())
                        .filter(|elements| elements.len() == tail)
                        .or(batch.elements.map(|e| &e[count - tail..]));
                    let tail_batch = ReceivedBatch {
                        encoded: &batch.encoded[split..],
                        elements,
                        prepared: None,
                    };
                    super::mul_elements_batch_encode::<Self>(s, &tail_batch, tail_out);
                }
                return;
            }
        }
        super::mul_elements_batch_encode::<Self>(s, &batch, out)
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

    /// The engine's constant-time method over the full 253 bits when it
    /// runs (from the points the batch's check kept, else its encodings:
    /// no dalek point is decoded), else dalek's Pippenger on the elements.
    fn msm_vartime_received(
        scalars: &[Scalar],
        batch: ReceivedBatch<'_, RistrettoPoint>,
    ) -> RistrettoPoint {
        #[cfg(target_arch = "x86_64")]
        {
            let bytes: Vec<[u8; 32]> = scalars.iter().map(|s| s.0.to_bytes()).collect();
            let refs: Vec<&[u8]> = bytes.iter().map(|b| &b[..]).collect();
            if let Some(sum) = engine_msm(&refs, &batch, SCALAR_BITS) {
                return sum;
            }
        }
        Self::msm_vartime(scalars, &super::received_elements::<Self>(&batch))
    }

    /// The 8-lane IFMA engine from the encodings when the `ifma` backend is
    /// selected (about 1.5 µs per point instead of 14 µs), else the generic
    /// method over dalek's additions.
    fn msm_short_ct(
        scalars: &[ShortScalar],
        batch: ReceivedBatch<'_, RistrettoPoint>,
        bits: usize,
    ) -> RistrettoPoint {
        #[cfg(target_arch = "x86_64")]
        if let Some(sum) = engine_short_msm(scalars, &batch, bits) {
            return sum;
        }
        let elements = super::received_elements::<Self>(&batch);
        super::straus::short_msm_ct::<super::straus::Elements<Self>>(scalars, &elements, bits)
    }

    /// The engine's constant-time method from the encodings when the IFMA
    /// engine runs (the answer's points are not decoded by dalek then),
    /// else dalek's Pippenger on the elements.
    fn msm_short_vartime_received(
        scalars: &[ShortScalar],
        batch: ReceivedBatch<'_, RistrettoPoint>,
        bits: usize,
    ) -> RistrettoPoint {
        #[cfg(target_arch = "x86_64")]
        if let Some(sum) = engine_short_msm(scalars, &batch, bits) {
            return sum;
        }
        Self::msm_short_vartime(scalars, &super::received_elements::<Self>(&batch), bits)
    }

    /// The 8-lane IFMA engine when it runs: each scalar halved, the points
    /// those the answer's check kept or decoded from the encodings, the
    /// doubled products encoded with one inversion per pass; else dalek.
    fn mul_each_received_encode(
        scalars: &[Scalar],
        batch: ReceivedBatch<'_, RistrettoPoint>,
        out: &mut [u8],
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            let halves = halved_bytes(scalars);
            let decoded = engine_points(&batch).map(|p| &p.vectors);
            if super::ristretto_ifma::mul_each(&halves, batch.encoded, decoded, out) {
                return;
            }
        }
        super::mul_each_elements_encode::<Self>(scalars, &batch, out)
    }

    /// The 8-lane IFMA engine when it runs: 64 bytes of expand_message_xmd
    /// per input (as [`Self::hash_to_group`]), mapped, multiplied by half
    /// its blind and encoded doubled, 8 inputs per vector, the blinded
    /// points kept for the balancer; an input that maps to the identity
    /// makes a zero encoding (its blinded element is the identity too),
    /// refused here. Else hashing and blinding on dalek.
    fn hash_and_blind_encode(
        inputs: &[&[u8]],
        dst: &[u8],
        blinds: &[Scalar],
        out: &mut [u8],
    ) -> Result<CheckedBatch<RistrettoPoint>, Error> {
        #[cfg(target_arch = "x86_64")]
        {
            // 8 inputs at a time (`sha512_lanes`), as `uniform_64` gives them.
            let uniform = super::sha512_lanes::expand_message_xmd_64_each(inputs, dst);
            let halves = halved_bytes(blinds);
            let vectors = uniform
                .and_then(|uniform| super::ristretto_ifma::hash_mul_encode(&uniform, &halves, out));
            if let Some(vectors) = vectors {
                let identity = [0u8; 32];
                // The blinded elements are public: so is the test.
                if out.chunks_exact(Self::ELEMENT_LEN).any(|e| e == identity) {
                    return Err(Error::InvalidInput);
                }
                let tail = Vec::new();
                let prepared = EnginePrepared { vectors, tail };
                return Ok(CheckedBatch::Prepared(Box::new(prepared)));
            }
        }
        super::hash_and_blind_elements::<Self>(inputs, dst, blinds, out).map(CheckedBatch::Elements)
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

    /// With the IFMA engine, the full vectors of 8 encodings are decoded by
    /// the engine and the rest (see [`dalek_tail`]) by dalek, both kept
    /// for the evaluation; dalek points of the whole batch are decoded
    /// only if needed.
    fn check_batch(bytes: &[u8]) -> Result<CheckedBatch<RistrettoPoint>, Error> {
        if bytes.is_empty() || !bytes.len().is_multiple_of(Self::ELEMENT_LEN) {
            return Err(Error::BadLength);
        }
        #[cfg(target_arch = "x86_64")]
        {
            let count = bytes.len() / Self::ELEMENT_LEN;
            let (head, tail) = bytes.split_at((count - dalek_tail(count)) * Self::ELEMENT_LEN);
            if let Some(vectors) = super::ristretto_ifma::decode_checked(head) {
                let vectors = vectors.ok_or(Error::InvalidElement)?;
                let tail = tail
                    .chunks_exact(Self::ELEMENT_LEN)
                    .map(Self::decode)
                    .collect::<Result<Vec<_>, _>>()?;
                let prepared = EnginePrepared { vectors, tail };
                return Ok(CheckedBatch::Prepared(Box::new(prepared)));
            }
        }
        Self::decode_batch(bytes).map(CheckedBatch::Elements)
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
