//! ristretto255 arithmetic on 8 points at once with AVX-512 IFMA (the
//! word-sliced layout of the `mp` engine, for GF(2^255 − 19)), for the
//! operations where curve25519-dalek's per-point API is the bottleneck: the
//! server's evaluation (decode, `k·X`, encode, working from the encodings
//! the request carries) and the check of a message's encodings; the
//! client's hashing to the group (`map.rs`) and blinding, and its
//! unblinding (each element its own scalar); and the batch check's
//! constant-time short-scalar multi-scalar multiplication (with dalek's
//! additions it costs 14 µs per point here; this engine works from the
//! encodings the client already has, or the points a check kept).
//!
//! Reached only with a `LaneCpu` (the `ifma` backend and
//! AVX-512DQ, whose 64-bit multiplication folds the high product columns).

mod codec;
mod constants;
mod evaluate;
mod field;
mod map;
mod msm;
mod point;
#[cfg(test)]
mod tests;

use crate::group::lanes::LaneCpu;
pub(crate) use codec::LANES;

/// `Σ d_i·P_i` (encoded) for the encoded points `encoded` and secret
/// scalars `d_i < 2^bits` given as little-endian bytes (the balancer's
/// short factors; 253 bits for any scalar modulo ℓ), constant time in the
/// `d_i`; `None` when an encoding is invalid (the caller then uses the
/// portable method). The first vectors may be
/// given decoded (`decoded`: a check kept them).
pub(crate) fn msm_ct(
    _cpu: LaneCpu,
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    scalars: &[&[u8]],
    bits: usize,
) -> Option<[u8; 32]> {
    let decoded = DecodedBatch::vectors(decoded, scalars.len().min(encoded.len() / 32));
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    unsafe { msm::msm_ct(encoded, decoded, scalars, bits) }
}

/// Points of a batch, 8 per vector, in order, kept beside its encodings:
/// those a message's check decoded, or a client's blinded elements as it
/// computed them. Only the engine reads them.
pub struct DecodedBatch {
    vectors: Vec<point::Extended8>,
    /// How many elements the vectors hold (the last vector may be partial).
    elements: usize,
}

impl DecodedBatch {
    /// The vectors that hold elements of a batch of `count` elements in
    /// every lane: all of them if they hold the whole batch, else the full
    /// ones (a partial last vector has padding where the batch goes on).
    fn vectors(batch: Option<&DecodedBatch>, count: usize) -> &[point::Extended8] {
        match batch {
            Some(batch) if batch.elements >= count => &batch.vectors,
            Some(batch) => &batch.vectors[..batch.elements / LANES],
            None => &[],
        }
    }
}

/// The points of the 32-byte encodings in `encoded` if every one is valid
/// and not the identity (as `Ristretto255::decode` requires), else
/// `None`.
pub(crate) fn decode(_cpu: LaneCpu, encoded: &[u8]) -> Option<DecodedBatch> {
    let elements = encoded.len() / 32;
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    let vectors = unsafe { evaluate::decode_non_identity(encoded) };
    vectors.map(|vectors| DecodedBatch { vectors, elements })
}

/// `k·X_i` encoded into `out` for every element `X_i` of a batch (`out` as
/// long as its encodings `encoded`), given `half_key`, the little-endian
/// bytes of the secret `k/2 mod ℓ` (the encodings of doubled points share
/// one inversion), constant time in the key. The points are those of
/// `decoded` (a check kept them) as far as it goes, then decoded from
/// `encoded`. `false` when an encoding is invalid (the caller then uses
/// the portable method).
pub(crate) fn mul_by_key(
    _cpu: LaneCpu,
    half_key: &[u8; 32],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    if out.len() != encoded.len() {
        return false;
    }
    let decoded = DecodedBatch::vectors(decoded, encoded.len() / 32);
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    unsafe { evaluate::mul_by_key(half_key, decoded, encoded, out) }
}

/// As [`mul_by_key`], each element `X_i` with its own secret `h_i < 2^253`
/// in `half_scalars` (the encodings `2·h_i·X_i`: a client's unblinding).
pub(crate) fn mul_each(
    _cpu: LaneCpu,
    half_scalars: &[[u8; 32]],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    let count = encoded.len() / 32;
    if out.len() != encoded.len() || half_scalars.len() != count {
        return false;
    }
    let decoded = DecodedBatch::vectors(decoded, count);
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    unsafe { evaluate::mul_each(half_scalars, decoded, encoded, out) }
}

/// `2·h_i·H_i` encoded into `out`, for `H_i` the element RFC 9496's
/// one-way map gives the 64 uniform bytes `uniform[i]` and the secret
/// `h_i < 2^253` in `half_scalars` (a client's blinding), constant time in
/// both, and the points encoded (public: the blinded elements). An `H_i`
/// that is the identity encodes as 32 zero bytes. `None` if the lengths
/// disagree.
pub(crate) fn hash_mul_encode(
    _cpu: LaneCpu,
    uniform: &[[u8; 64]],
    half_scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Option<DecodedBatch> {
    if half_scalars.len() != uniform.len() || out.len() != 32 * uniform.len() {
        return None;
    }
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    let vectors = unsafe { evaluate::hash_mul_encode(uniform, half_scalars, out) };
    Some(DecodedBatch {
        vectors,
        elements: uniform.len(),
    })
}
