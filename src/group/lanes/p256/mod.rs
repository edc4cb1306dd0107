//! P-256 arithmetic on 8 points at once with AVX-512 IFMA (the word-sliced
//! layout of the `mp` engine, for P-256's field), wherever the protocols
//! handle batches and RustCrypto's `p256` takes over 100 µs per element
//! here: the check of a message's encodings (SEC1 compressed decoding,
//! the points kept), the server's evaluation (multiply by the key, encode
//! with one inversion per batch), the client's hashing to the curve with
//! its blinding and its unblinding (each element its own scalar), the
//! balancer's and the check's multi-scalar multiplications and a VOPRF
//! proof's composites (`msm.rs`), and `mul_each` on `p256` points
//! (`coordinates.rs`).
//!
//! Constant time in keys, blinds, inverses, factors and hashed inputs:
//! the argument is in `scalar_mul.rs` (digits as lane masks, every table
//! entry read, the additions' exceptional cases handled by masks, not
//! branches), `map.rs` and `msm.rs`; valgrind cannot execute AVX-512, so
//! `tests/dudect_oprf.rs` times the server's evaluation and the client's
//! blinding and unblinding with sparse against random scalars.
//!
//! Reached only with a `LaneCpu` (the `ifma` backend and
//! AVX-512DQ).

mod codec;
mod complete;
mod coordinates;
mod field;
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "the AVX2 engine that runs on it is issue 44's next step"
    )
)]
mod field_avx2;
mod map;
mod msm;
mod point;
mod scalar_mul;
#[cfg(test)]
mod tests;

use crate::group::lanes::LaneCpu;
pub(crate) use coordinates::Coordinates;
pub(crate) use map::UNIFORM_LEN;

/// The points of a batch, 8 per vector in order, kept beside its
/// encodings for the engine: those a message's check decoded (padding
/// lanes: the generator) or a client's blinded elements (padding lanes:
/// their hashed input point, their scalar being zero).
pub struct DecodedBatch {
    vectors: Vec<point::Jacobian8>,
    /// How many elements the vectors hold.
    elements: usize,
}

impl DecodedBatch {
    /// The vectors, if they hold exactly a batch of `count` elements.
    fn vectors_for(batch: Option<&DecodedBatch>, count: usize) -> Option<&[point::Jacobian8]> {
        batch
            .filter(|b| b.elements == count)
            .map(|b| b.vectors.as_slice())
    }
}

/// The points of the 33-byte encodings in `encoded` if every one is a
/// valid SEC1 compressed encoding (as `P256::decode` requires), else
/// `None`.
pub(crate) fn decode(_cpu: LaneCpu, encoded: &[u8]) -> Option<DecodedBatch> {
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    let vectors = unsafe { scalar_mul::decode_all(encoded) };
    vectors.map(|vectors| DecodedBatch {
        vectors,
        elements: encoded.len() / codec::ENCODING_LEN,
    })
}

/// `k·X_i` encoded into `out` for every element `X_i` of a batch (`out` as
/// long as its encodings `encoded`), given the little-endian bytes of the
/// secret key `k < q`, constant time in the key. The points are those of
/// `decoded` when it holds the batch, else decoded from `encoded`. `false`
/// when an encoding is invalid (the caller then uses the portable
/// method).
pub(crate) fn mul_by_key(
    _cpu: LaneCpu,
    key: &[u8; 32],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    if out.len() != encoded.len() {
        return false;
    }
    let decoded = DecodedBatch::vectors_for(decoded, encoded.len() / codec::ENCODING_LEN);
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    unsafe { scalar_mul::mul_by_key(key, decoded, encoded, out) }
}

/// As [`mul_by_key`], each element `X_i` with its own secret `s_i < q`
/// (little-endian bytes) in `scalars` (a client's unblinding).
pub(crate) fn mul_each(
    _cpu: LaneCpu,
    scalars: &[[u8; 32]],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    let count = encoded.len() / codec::ENCODING_LEN;
    if out.len() != encoded.len() || scalars.len() != count {
        return false;
    }
    let decoded = DecodedBatch::vectors_for(decoded, count);
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    unsafe { scalar_mul::mul_each(scalars, decoded, encoded, out) }
}

/// `s_i·H_i` encoded into `out` (33 bytes per input), for `H_i` the
/// element RFC 9380's `P256_XMD:SHA-256_SSWU_RO_` gives the 96 bytes
/// `expand_message_xmd` made of input `i` (`uniform[i]`) and the secret
/// `s_i < q` (little-endian bytes; a client's blinding), constant time in
/// both. `None` if the lengths disagree, `Some(None)` if some `H_i` is the
/// identity, else the blinded points for later use.
pub(crate) fn hash_mul_encode(
    _cpu: LaneCpu,
    uniform: &[[u8; UNIFORM_LEN]],
    scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Option<Option<DecodedBatch>> {
    if scalars.len() != uniform.len() || out.len() != codec::ENCODING_LEN * uniform.len() {
        return None;
    }
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    let vectors = unsafe { scalar_mul::hash_mul_encode(uniform, scalars, out) };
    Some(vectors.map(|vectors| DecodedBatch {
        vectors,
        elements: uniform.len(),
    }))
}

/// `Σ d_i·P_i` as affine coordinates and whether it is the identity (1,
/// coordinates zero) for the encoded points `encoded` and secret scalars
/// `d_i < 2^bits` given as little-endian bytes (the balancer's short
/// factors), constant time in the `d_i`; `None` when an encoding is
/// invalid (the caller then uses the portable method). The points may be given decoded (`decoded`: a check kept
/// them, or the client computed them).
pub(crate) fn msm_ct(
    _cpu: LaneCpu,
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    scalars: &[&[u8]],
    bits: usize,
) -> Option<zeroize::Zeroizing<(Coordinates, u8)>> {
    if encoded.len() != scalars.len() * codec::ENCODING_LEN {
        return None;
    }
    let decoded = DecodedBatch::vectors_for(decoded, scalars.len());
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    unsafe { msm::msm_ct(encoded, decoded, scalars, bits) }
}

/// `s_i·P_i` for points given by their affine coordinates (`identity`: a
/// bit per point, set where it is the identity) and secret scalars `s_i <
/// q` (little-endian bytes), constant time in both: each product's
/// coordinates and whether it is the identity (1, coordinates zero) or
/// not (0). `None` if the lengths disagree.
pub(crate) fn mul_each_coordinates(
    _cpu: LaneCpu,
    scalars: &[[u8; 32]],
    points: &[Coordinates],
    identity: &[u8],
) -> Option<zeroize::Zeroizing<Vec<(Coordinates, u8)>>> {
    if points.is_empty()
        || scalars.len() != points.len()
        || identity.len() != points.len().div_ceil(8)
    {
        return None;
    }
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    Some(unsafe { coordinates::mul_each_coordinates(scalars, points, identity) })
}
