//! The BLS12-381 G1 engine, one source compiled once per instruction set:
//! the `ifma` and `avx2` modules include this folder, each with its own
//! field (`field`: 8 limbs of 52 bits on AVX-512 IFMA, 14 digits of 29
//! bits on AVX2) and its target features on every function marked
//! `#[lane_features]`. The entry points below are that set's;
//! `lanes::bls12_381` chooses the set.
//!
//! The engine's constants (the curve's, the map's, the isogeny's) are
//! written once, as 8 limbs of 52 bits in the AVX-512 field's Montgomery
//! form (`R = 2^416`); each field's `constant` turns them into its own
//! form at compile time (the AVX2 field's `R` is 2^406). The linear steps'
//! bounds (`Fp8::combination`) are in multiples of p and hold on both
//! fields: every operand of a product stays below `2^11·p`, the AVX2
//! field's limit (the IFMA field's is `2^17·p`).

mod codec;
mod complete;
mod decompose;
mod map;
mod msm;
mod point;
mod scalar_mul;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod timing;

use oblivex_macros::lane_features;

use super::bls_field as field;
use super::{chains, scan};
use crate::group::lanes::toolkit::LANES;
pub(crate) use map::UNIFORM_LEN;
pub(crate) use msm::Coordinates;

/// The points of a batch a message's check decoded (with their multiples
/// by `|z|`, which its subgroup check computed), or a client's blinding
/// computed (without), 8 per vector in order (padding lanes: the
/// generator), kept beside its encodings for the engine.
pub(crate) struct DecodedBatch {
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

/// `lanes::bls12_381::decode` on this instruction set (its documentation
/// says what it computes).
#[lane_features]
pub(crate) fn decode(encoded: &[u8]) -> Option<DecodedBatch> {
    let decoded = scalar_mul::decode_all(encoded)?;
    Some(DecodedBatch {
        vectors: decoded.iter().map(|d| d.point).collect(),
        times_u: decoded.iter().map(|d| d.times_u).collect(),
        elements: encoded.len() / codec::ENCODING_LEN,
    })
}

/// `lanes::bls12_381::affine_coordinates` on this instruction set (its
/// documentation says what it computes).
#[lane_features]
pub(crate) fn affine_coordinates(decoded: &DecodedBatch, count: usize) -> Option<Vec<Coordinates>> {
    if count > decoded.elements {
        return None;
    }
    let mut out = Vec::with_capacity(count);
    for vector in decoded.vectors.iter().take(count.div_ceil(LANES)) {
        let (xs, ys) = vector.canonical_coordinates();
        for (x, y) in xs.iter().zip(&ys).take(count - out.len()) {
            let mut xy = [0u8; 96];
            xy[..48].copy_from_slice(x);
            xy[48..].copy_from_slice(y);
            out.push(xy);
        }
    }
    Some(out)
}

/// `lanes::bls12_381::mul_by_key` on this instruction set (its
/// documentation says what it computes).
#[lane_features]
pub(crate) fn mul_by_key(
    key: &[u8; 32],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    if out.len() != encoded.len() {
        return false;
    }
    let decoded = DecodedBatch::vectors(decoded, encoded.len() / codec::ENCODING_LEN);
    scalar_mul::mul_by_key(key, decoded, encoded, out)
}

/// `lanes::bls12_381::mul_each` on this instruction set (its
/// documentation says what it computes).
#[lane_features]
pub(crate) fn mul_each(
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
    scalar_mul::mul_each(scalars, decoded, encoded, out)
}

/// `lanes::bls12_381::msm_ct` on this instruction set (its documentation
/// says what it computes).
#[lane_features]
pub(crate) fn msm_ct(
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    scalars: &[&[u8]],
    bits: usize,
) -> Option<zeroize::Zeroizing<(Coordinates, u8)>> {
    if encoded.len() != scalars.len() * codec::ENCODING_LEN || scalars.is_empty() || bits > 256 {
        return None;
    }
    let decoded = DecodedBatch::vectors(decoded, scalars.len());
    msm::msm_ct(encoded, decoded.points, scalars, bits)
}

/// `lanes::bls12_381::hash_mul_encode` on this instruction set (its
/// documentation says what it computes).
#[lane_features]
pub(crate) fn hash_mul_encode(
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
    let vectors = scalar_mul::hash_mul_encode(uniform, scalars, out);
    Some(vectors.map(|vectors| DecodedBatch {
        vectors,
        times_u: Vec::new(),
        elements: uniform.len(),
    }))
}
