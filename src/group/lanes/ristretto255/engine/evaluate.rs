//! Scalar multiplication of whole batches on ristretto255, 8 elements per
//! vector, each product encoded doubled (one inversion per pass of about
//! 256 elements: `toolkit::passes`; no square root): the server's evaluation (decode the blinded
//! elements, multiply each by half the key), the client's blinding (map
//! its hashed inputs, multiply each by half its blind) and unblinding
//! (decode the answers, multiply each by half the blind's inverse); and
//! the validity check of a batch of encodings, which is the decoding alone.
//!
//! Constant time in the scalars (key, blinds, inverses) and in the hashed
//! inputs: each scalar's signed radix-16 digits (`[-8, 8]`, straus.rs's
//! recoding, 8 lanes at once: `toolkit::per_lane_digits`) are read in a fixed order, each becomes a lane mask
//! by vector comparisons that scan every entry of the table `1·P .. 8·P`
//! (`msm.rs`'s select), the map merges its cases by masks (`map.rs`), and
//! the instruction stream depends only on the number of elements. The
//! received elements, their validity and the encodings sent are public
//! (requests and answers); the unblinded products are secret and their
//! buffers are wiped.

use oblivex_macros::lane_features;

use super::chains::invert_all;
use super::codec::{decode_each, DoubledEncoding, LANES};
use super::field::Fe8;
use super::map::{from_uniform_bytes, UNIFORM_LEN};
use super::msm::{multiples, select, Table};
use super::point::Extended8;
use crate::group::lanes::toolkit::{broadcast_digits, in_pairs, passes, per_lane_digits, wipe};
use zeroize::Zeroizing;

/// Bytes of an encoding.
const ENCODING_LEN: usize = 32;

/// Bits of a canonical scalar (`ℓ < 2^253`).
const SCALAR_BITS: usize = 253;

/// Up to 8 encodings as lanes (missing lanes hold zeros, the identity's
/// encoding) and the mask of the lanes in use.
fn lanes_of(chunk: &[u8]) -> ([[u8; ENCODING_LEN]; LANES], u8) {
    let mut lanes = [[0u8; ENCODING_LEN]; LANES];
    let mut used = 0u8;
    for (lane, encoding) in chunk.chunks_exact(ENCODING_LEN).enumerate() {
        lanes[lane].copy_from_slice(encoding);
        used |= 1 << lane;
    }
    (lanes, used)
}

/// The points of the 32-byte encodings in `encoded` (a whole number of
/// them), 8 per vector, if every one is a valid RFC 9496 encoding of an
/// element other than the identity (whose only valid encoding is 32 zero
/// bytes).
#[lane_features]
pub(super) fn decode_non_identity(encoded: &[u8]) -> Option<Vec<Extended8>> {
    let identity = [0u8; ENCODING_LEN];
    if encoded.chunks_exact(ENCODING_LEN).any(|e| e == identity) {
        return None;
    }
    decode_vectors(encoded).collect()
}

/// Vectors of 8 points whose encodings share one inversion (up to an
/// eighth more: `toolkit::passes`): their pending encodings (six field
/// elements each, 60 KiB in all with IFMA, 120 with AVX2) stay in the L2
/// cache, and the inversion costs each about 8 multiplications.
const VECTORS_PER_INVERSION: usize = 32;

/// `2·h·X_i` encoded into `out` for each element `X_i` of a batch, with
/// `half_key` the little-endian bytes of `h < 2^253` (the server passes
/// `h = k/2 mod ℓ` and so answers `k·X_i`: the encoding of a doubled point
/// needs no square root, so the whole pass shares one inversion). The
/// batch's points are `decoded` (vectors a check kept), then those of
/// `encoded` past them; `false` (and `out` partly written) if one of those
/// encodings is invalid. `out` has the length of `encoded`.
#[lane_features]
pub(super) fn mul_by_key(
    half_key: &[u8; 32],
    decoded: &[Extended8],
    encoded: &[u8],
    out: &mut [u8],
) -> bool {
    let digits = broadcast_digits(half_key, SCALAR_BITS);
    mul_vectors(points_of(decoded, encoded), |_| digits.clone(), out, None)
}

/// As [`mul_by_key`], each element with its own `h_i < 2^253` in
/// `half_scalars` (the client passes `r_i^{-1}/2` to unblind), constant
/// time in the `h_i`.
#[lane_features]
pub(super) fn mul_each(
    half_scalars: &[[u8; 32]],
    decoded: &[Extended8],
    encoded: &[u8],
    out: &mut [u8],
) -> bool {
    let digits = |vector: usize| per_lane_digits(&half_scalars[vector * LANES..], SCALAR_BITS);
    mul_vectors(points_of(decoded, encoded), digits, out, None)
}

/// `2·h_i·H_i` encoded into `out`, with `H_i` the element of the 64
/// uniform bytes `uniform[i]` (RFC 9496's one-way map) and `h_i` in
/// `half_scalars`: a client's blinded inputs `r_i·H(x_i)` when it passes
/// `r_i/2`. Constant time in the inputs and the scalars. An `H_i` that is
/// the identity gives 32 zero bytes (the identity's encoding), which the
/// caller refuses. `out` holds 32 bytes per input. Returns the blinded
/// points, 8 per vector (public, like their encodings), for the
/// balancer's multi-scalar multiplication.
#[lane_features]
pub(super) fn hash_mul_encode(
    uniform: &[[u8; UNIFORM_LEN]],
    half_scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Vec<Extended8> {
    let points = uniform.chunks(LANES).map(|chunk| {
        // Padding lanes map zeros; their scalars are zero.
        let mut lanes = Zeroizing::new([[0u8; UNIFORM_LEN]; LANES]);
        lanes[..chunk.len()].copy_from_slice(chunk);
        Some(from_uniform_bytes(&lanes))
    });
    let digits = |vector: usize| per_lane_digits(&half_scalars[vector * LANES..], SCALAR_BITS);
    let mut blinded = Vec::with_capacity(uniform.len().div_ceil(LANES));
    let written = mul_vectors(points, digits, out, Some(&mut blinded));
    debug_assert!(written, "every mapped point is a point");
    // The blinded points are sent (as their encodings): public from here,
    // so the caller may test them for the identity.
    crate::secret_marks::declassify(blinded.as_slice());
    crate::secret_marks::declassify(&*out);
    blinded
}

/// The points of a batch: the vectors `decoded`, then those of the
/// encodings in `encoded` past them (`None`: a vector holds an invalid
/// encoding).
#[lane_features]
fn points_of<'a>(
    decoded: &'a [Extended8],
    encoded: &'a [u8],
) -> impl Iterator<Item = Option<Extended8>> + 'a {
    let rest = encoded
        .get(decoded.len() * LANES * ENCODING_LEN..)
        .unwrap_or(&[]);
    decoded.iter().map(|p| Some(*p)).chain(decode_vectors(rest))
}

/// The points of the encodings in `encoded`, 8 per vector (`None`: a
/// vector holds an invalid encoding), decoded two vectors at a time (their
/// square roots interleaved: `roots::pow_p58_each`).
#[lane_features]
fn decode_vectors(encoded: &[u8]) -> impl Iterator<Item = Option<Extended8>> + '_ {
    let one = |chunk| {
        let [point] = decode_chunks([chunk]);
        point
    };
    in_pairs(encoded, LANES * ENCODING_LEN, one, |first, second| {
        decode_chunks([first, second])
    })
}

/// The points of each chunk of up to 8 encodings, if all of its lanes in
/// use hold valid encodings (padding lanes hold the identity), the `N`
/// vectors decoded side by side.
#[lane_features]
fn decode_chunks<const N: usize>(chunks: [&[u8]; N]) -> [Option<Extended8>; N] {
    let lanes = chunks.map(lanes_of);
    let decoded = decode_each(&lanes.map(|(encodings, _)| encodings));
    core::array::from_fn(|i| {
        let ((point, valid), (_, used)) = (decoded[i], lanes[i]);
        (valid & used == used).then_some(point)
    })
}

/// The work of [`mul_by_key`] on the vectors `points` yields (`None`: an
/// invalid encoding), as many as `out` has room for, vector `v` multiplied
/// by the lane digits `digits(v)`; with `doubled`, the doubled products
/// (the points encoded) are pushed there too. The products and their
/// pending encodings may be secret (a client's unblinded elements): wiped.
#[lane_features]
fn mul_vectors(
    mut points: impl Iterator<Item = Option<Extended8>>,
    digits: impl Fn(usize) -> Zeroizing<Vec<[i64; LANES]>>,
    out: &mut [u8],
    mut doubled: Option<&mut Vec<Extended8>>,
) -> bool {
    for (first, answers) in passes(out, LANES * ENCODING_LEN, VECTORS_PER_INVERSION) {
        let vectors = answers.len().div_ceil(LANES * ENCODING_LEN);
        let mut pending = Vec::with_capacity(vectors);
        for v in 0..vectors {
            let Some(mut point) = points.next().flatten() else {
                wipe(&mut pending);
                return false;
            };
            // The point (a client's H(x)), its table and the product (an
            // unblinded element) may be secret: wiped on the stack.
            let mut table = multiples(&point);
            let mut product = multiply(&table, &digits(first + v));
            wipe(core::slice::from_mut(&mut point));
            wipe(&mut table);
            if let Some(doubled) = doubled.as_mut() {
                doubled.push(product.double());
            }
            pending.push(DoubledEncoding::new(&product));
            wipe(core::slice::from_mut(&mut product));
        }
        // A lane's denominator is zero only for a torsion product (a zero
        // key; padding lanes): it becomes one for the inversion, and the
        // lane encodes the identity.
        let mut nonzero = Vec::with_capacity(pending.len());
        let mut denominators: Vec<Fe8> = pending
            .iter()
            .map(|p| {
                let d = p.denominator();
                let lanes = !d.is_zero();
                nonzero.push(lanes);
                Fe8::one().select(&d, lanes)
            })
            .collect();
        invert_all(&mut denominators);
        for ((p, inverse), (lanes, answer)) in pending
            .iter()
            .zip(&denominators)
            .zip(nonzero.iter().zip(answers.chunks_mut(LANES * ENCODING_LEN)))
        {
            let encodings = Zeroizing::new(p.finish(inverse, *lanes));
            for (slot, encoding) in answer.chunks_exact_mut(ENCODING_LEN).zip(encodings.iter()) {
                slot.copy_from_slice(encoding);
            }
        }
        wipe(&mut pending);
        wipe(&mut denominators);
    }
    true
}

/// `Σ digits[j]·16^j · P` per lane, for the table of `P` and the digits
/// (most significant last): four doublings and one table addition per
/// digit, from the top.
#[lane_features]
pub(super) fn multiply(table: &Table, digits: &[[i64; LANES]]) -> Extended8 {
    let mut acc = Extended8::identity();
    for (position, lane_digits) in digits.iter().enumerate().rev() {
        if position + 1 < digits.len() {
            acc.double_times_assign(4);
        }
        acc.add_assign(&select(table, lane_digits));
    }
    acc
}
