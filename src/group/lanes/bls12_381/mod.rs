//! BLS12-381 G1 arithmetic on 8 points at once with AVX-512 IFMA, where
//! `blst` takes about 145 µs per element of a server's evaluation here:
//! the check of a message's encodings (48-byte compressed decoding with
//! the subgroup check, the points kept), the server's evaluation (multiply
//! by the key, encode with one inversion per pass), the client's hashing
//! to the group (RFC 9380, `map.rs`) with its blinding, and its unblinding
//! (each element its own scalar), and the balancer's, the check's and a
//! VOPRF proof's multi-scalar multiplications (`msm.rs`). The field is the generic
//! Montgomery arithmetic of `lanes::montgomery` with 8 limbs (`field.rs`);
//! scalar multiplication splits the scalar in base `|z|` through the
//! points' multiples by `|z|` that the subgroup check computes, and by the
//! GLV endomorphism where those are not at hand (`decompose.rs`,
//! `scalar_mul.rs`).
//!
//! Constant time in keys, blinds' inverses and the unblinded products: the
//! argument is in `scalar_mul.rs` (divisions by the public `|z|` and λ
//! made of masks, digits as lane masks, every table entry read, the additions'
//! exceptional cases handled by masks, not branches) and `codec.rs`
//! (encoding); decoding and its subgroup check work on received, public
//! encodings.
//!
//! Reached only with a `LaneCpu` (the `ifma` backend and AVX-512DQ).

mod codec;
mod complete;
mod decompose;
mod field;
mod map;
mod msm;
mod point;
mod scalar_mul;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod timing;

use crate::group::lanes::montgomery::be_of_limbs;
use crate::group::lanes::toolkit::LANES;
use crate::group::lanes::LaneCpu;
pub(crate) use map::UNIFORM_LEN;
pub(crate) use msm::Coordinates;

/// The points of a batch a message's check decoded (with their multiples
/// by `|z|`, which its subgroup check computed), or a client's blinding
/// computed (without), 8 per vector in order (padding lanes: the
/// generator), kept beside its encodings for the engine.
pub struct DecodedBatch {
    vectors: Vec<point::Affine8>,
    /// `|z|·P` for each vector, or none.
    times_u: Vec<point::Jacobian8>,
    /// How many elements the vectors hold.
    elements: usize,
}

impl DecodedBatch {
    /// The vectors that hold elements of a batch of `count` elements in
    /// every lane they use: all of them if they hold the whole batch, else
    /// the full ones of a head of it (a check leaves a tail to blst: its
    /// partial last vector has padding where the batch goes on); the rest
    /// is decoded from the encodings.
    fn vectors(batch: Option<&DecodedBatch>, count: usize) -> scalar_mul::Kept<'_> {
        let Some(batch) = batch else {
            return scalar_mul::Kept::NONE;
        };
        let used = match batch.elements {
            elements if elements == count => batch.vectors.len(),
            elements if elements < count => elements / LANES,
            _ => 0,
        };
        scalar_mul::Kept {
            points: &batch.vectors[..used],
            times_u: &batch.times_u[..used.min(batch.times_u.len())],
        }
    }
}

/// The points of the 48-byte encodings in `encoded` if every one is valid,
/// not the identity and in G1 (as `Bls12381G1::decode` requires), else
/// `None`.
pub(crate) fn decode(_cpu: LaneCpu, encoded: &[u8]) -> Option<DecodedBatch> {
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    let decoded = unsafe { scalar_mul::decode_all(encoded) }?;
    Some(DecodedBatch {
        vectors: decoded.iter().map(|d| d.point).collect(),
        times_u: decoded.iter().map(|d| d.times_u).collect(),
        elements: encoded.len() / codec::ENCODING_LEN,
    })
}

/// The affine coordinates of the first `count` points a check decoded
/// (`decoded`), so the group's one-at-a-time code takes them without
/// decoding the encodings again (a square root and a subgroup check each).
/// `None` if `decoded` holds fewer. Public data: the points of a received
/// message.
pub(crate) fn affine_coordinates(
    _cpu: LaneCpu,
    decoded: &DecodedBatch,
    count: usize,
) -> Option<Vec<Coordinates>> {
    if count > decoded.elements {
        return None;
    }
    let mut out = Vec::with_capacity(count);
    for vector in decoded.vectors.iter().take(count.div_ceil(LANES)) {
        // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
        let (xs, ys) = unsafe { vector.canonical_coordinates() };
        for (x, y) in xs.iter().zip(&ys).take(count - out.len()) {
            let mut xy = [0u8; 96];
            let (x_bytes, y_bytes) = xy.split_at_mut(48);
            be_of_limbs(x, x_bytes);
            be_of_limbs(y, y_bytes);
            out.push(xy);
        }
    }
    Some(out)
}

/// `k·X_i` encoded into `out` for every element `X_i` of a batch (`out` as
/// long as its encodings `encoded`), given the little-endian bytes of the
/// secret key `k < r`, constant time in the key. The points are those of
/// `decoded` where it holds them, the others decoded from `encoded`.
/// `false` when an encoding is invalid (the caller then uses the portable
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
    let decoded = DecodedBatch::vectors(decoded, encoded.len() / codec::ENCODING_LEN);
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    unsafe { scalar_mul::mul_by_key(key, decoded, encoded, out) }
}

/// As [`mul_by_key`], each element `X_i` with its own secret `s_i < r`
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
    let decoded = DecodedBatch::vectors(decoded, count);
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    unsafe { scalar_mul::mul_each(scalars, decoded, encoded, out) }
}

/// `Σ d_i·P_i` as affine coordinates and whether it is the identity (1,
/// coordinates zero) for the encoded points `encoded` and secret scalars
/// `d_i < 2^bits` (`bits ≤ 256`) given as little-endian bytes, constant
/// time in the `d_i`; `None` when an encoding is invalid or the lengths
/// disagree (the caller then uses the portable method). The points may be
/// given decoded (`decoded`: a check kept them).
pub(crate) fn msm_ct(
    _cpu: LaneCpu,
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    scalars: &[&[u8]],
    bits: usize,
) -> Option<zeroize::Zeroizing<(Coordinates, u8)>> {
    if encoded.len() != scalars.len() * codec::ENCODING_LEN || scalars.is_empty() || bits > 256 {
        return None;
    }
    let decoded = DecodedBatch::vectors(decoded, scalars.len());
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    unsafe { msm::msm_ct(encoded, decoded.points, scalars, bits) }
}

/// `s_i·H_i` encoded into `out` (48 bytes per input), for `H_i` the point
/// RFC 9380's `BLS12381G1_XMD:SHA-256_SSWU_RO_` gives the 128 bytes
/// `expand_message_xmd` made of input `i` (`uniform[i]`) and the secret
/// `s_i < r` (little-endian bytes; a client's blinding), constant time in
/// both. `None` if the lengths disagree, `Some(None)` if some `H_i` is the
/// identity, else the blinded points for later use.
pub(crate) fn hash_mul_encode(
    _cpu: LaneCpu,
    uniform: &[[u8; UNIFORM_LEN]],
    scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Option<Option<DecodedBatch>> {
    if uniform.is_empty()
        || scalars.len() != uniform.len()
        || out.len() != codec::ENCODING_LEN * uniform.len()
    {
        return None;
    }
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`LaneCpu`).
    let vectors = unsafe { scalar_mul::hash_mul_encode(uniform, scalars, out) };
    Some(vectors.map(|vectors| DecodedBatch {
        vectors,
        times_u: Vec::new(),
        elements: uniform.len(),
    }))
}
