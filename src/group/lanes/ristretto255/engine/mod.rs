//! The ristretto255 engine, one source compiled once per instruction set:
//! the `ifma` and `avx2` modules include this folder, each with its own
//! field of GF(2^255 − 19) (`field`: radix 2^51 on AVX-512 IFMA, radix
//! 2^25.5 on AVX2) and its target features on every function marked
//! `#[lane_features]`. The entry points below are that set's;
//! `lanes::ristretto255` chooses the set and says what each computes.

mod codec;
mod evaluate;
mod map;
mod msm;
mod point;
pub(crate) mod roots;
#[cfg(test)]
mod tests;

use oblivex_macros::lane_features;

use super::r255_field as field;
use super::{chains, scan};
use crate::group::lanes::ristretto255::constants;
pub(crate) use codec::LANES;
pub(crate) use map::UNIFORM_LEN;

/// Points of a batch, 8 per vector, in order, kept beside its encodings:
/// those a message's check decoded, or a client's blinded elements as it
/// computed them.
pub(crate) struct DecodedBatch {
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

/// `lanes::ristretto255::msm_ct` on this instruction set.
#[lane_features]
pub(crate) fn msm_ct(
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    scalars: &[&[u8]],
    bits: usize,
) -> Option<[u8; 32]> {
    let decoded = DecodedBatch::vectors(decoded, scalars.len().min(encoded.len() / 32));
    msm::msm_ct(encoded, decoded, scalars, bits)
}

/// `lanes::ristretto255::decode` on this instruction set.
#[lane_features]
pub(crate) fn decode(encoded: &[u8]) -> Option<DecodedBatch> {
    let elements = encoded.len() / 32;
    let vectors = evaluate::decode_non_identity(encoded)?;
    Some(DecodedBatch { vectors, elements })
}

/// `lanes::ristretto255::mul_by_key` on this instruction set.
#[lane_features]
pub(crate) fn mul_by_key(
    half_key: &[u8; 32],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    if out.len() != encoded.len() {
        return false;
    }
    let decoded = DecodedBatch::vectors(decoded, encoded.len() / 32);
    evaluate::mul_by_key(half_key, decoded, encoded, out)
}

/// `lanes::ristretto255::mul_each` on this instruction set.
#[lane_features]
pub(crate) fn mul_each(
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
    evaluate::mul_each(half_scalars, decoded, encoded, out)
}

/// `lanes::ristretto255::hash_mul_encode` on this instruction set.
#[lane_features]
pub(crate) fn hash_mul_encode(
    uniform: &[[u8; UNIFORM_LEN]],
    half_scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Option<DecodedBatch> {
    if half_scalars.len() != uniform.len() || out.len() != 32 * uniform.len() {
        return None;
    }
    let vectors = evaluate::hash_mul_encode(uniform, half_scalars, out);
    Some(DecodedBatch {
        vectors,
        elements: uniform.len(),
    })
}
