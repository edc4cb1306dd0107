//! The server's evaluation on ristretto255, 8 elements per vector: decode
//! the blinded elements' encodings, multiply each by half the secret key,
//! encode the doubled products (one inversion per pass of 256 elements, no
//! square root); and the validity check of a batch of encodings, which is
//! the decoding alone.
//!
//! Constant time in the key: its signed radix-16 digits (`[-8, 8]`, from
//! `group/straus.rs`) are read in a fixed order, each becomes a lane mask
//! by vector comparisons that scan every entry of the table `1·P .. 8·P`
//! (`msm.rs`'s select), and the instruction stream depends only on the
//! number of elements. The elements, their validity and the products are
//! public (the request and the server's answer).

use super::codec::{decode, DoubledEncoding, LANES};
use super::field::{invert_all, Fe8};
use super::msm::{multiples, select, Table};
use super::point::Extended8;
use crate::group::straus::signed_digits;
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

/// The points of 8 encodings and whether all the lanes in use hold valid
/// encodings (padding lanes hold the identity).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn decode_vector(chunk: &[u8]) -> Option<Extended8> {
    let (lanes, used) = lanes_of(chunk);
    let (point, valid) = decode(&lanes);
    (valid & used == used).then_some(point)
}

/// The points of the 32-byte encodings in `encoded` (a whole number of
/// them), 8 per vector, if every one is a valid RFC 9496 encoding of an
/// element other than the identity (whose only valid encoding is 32 zero
/// bytes).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn decode_non_identity(encoded: &[u8]) -> Option<Vec<Extended8>> {
    let identity = [0u8; ENCODING_LEN];
    if encoded.chunks_exact(ENCODING_LEN).any(|e| e == identity) {
        return None;
    }
    encoded
        .chunks(LANES * ENCODING_LEN)
        .map(|chunk| decode_vector(chunk))
        .collect()
}

/// Vectors of 8 points whose encodings share one inversion: their pending
/// encodings (six field elements each, 60 KiB in all) stay in the L2
/// cache, and the inversion costs each about 8 multiplications.
const VECTORS_PER_INVERSION: usize = 32;

/// `2·h·X_i` encoded into `out` for each encoding `X_i` in `encoded`, with
/// `half_key` the little-endian bytes of `h < 2^253` (the server passes
/// `h = k/2 mod ℓ` and so answers `k·X_i`: the encoding of a doubled point
/// needs no square root, so the whole pass shares one inversion); `false`
/// (and `out` partly written) if an encoding is invalid. `out` has the
/// length of `encoded`.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn mul_encoded(half_key: &[u8; 32], encoded: &[u8], out: &mut [u8]) -> bool {
    let points = encoded
        .chunks(LANES * ENCODING_LEN)
        .map(|chunk| decode_vector(chunk));
    mul_vectors(half_key, points, out)
}

/// As [`mul_encoded`], for points decoded already by
/// [`decode_non_identity`] (`out` as long as their encodings were).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn mul_decoded(half_key: &[u8; 32], points: &[Extended8], out: &mut [u8]) -> bool {
    mul_vectors(half_key, points.iter().map(|p| Some(*p)), out)
}

/// The work of [`mul_encoded`] on the vectors `points` yields (`None`: an
/// invalid encoding), as many as `out` has room for.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn mul_vectors(
    half_key: &[u8; 32],
    mut points: impl Iterator<Item = Option<Extended8>>,
    out: &mut [u8],
) -> bool {
    // The digits broadcast to the 8 lanes, as the table select reads them
    // (secret: wiped on drop).
    let digits = signed_digits(half_key, SCALAR_BITS);
    let lane_digits: Zeroizing<Vec<[i64; LANES]>> =
        Zeroizing::new(digits.iter().map(|&d| [i64::from(d); LANES]).collect());
    let pass_len = VECTORS_PER_INVERSION * LANES * ENCODING_LEN;
    for answers in out.chunks_mut(pass_len) {
        let vectors = answers.len().div_ceil(LANES * ENCODING_LEN);
        let mut pending = Vec::with_capacity(vectors);
        for _ in 0..vectors {
            let Some(point) = points.next().flatten() else {
                return false;
            };
            let product = multiply(&multiples(&point), &lane_digits);
            pending.push(DoubledEncoding::new(&product));
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
            let encodings = p.finish(inverse, *lanes);
            for (slot, encoding) in answer.chunks_exact_mut(ENCODING_LEN).zip(encodings) {
                slot.copy_from_slice(&encoding);
            }
        }
    }
    true
}

/// `Σ digits[j]·16^j · P` per lane, for the table of `P` and the digits
/// (most significant last): four doublings and one table addition per
/// digit, from the top.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
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
