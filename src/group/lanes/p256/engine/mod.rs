//! The P-256 engine, one source compiled once per instruction set: the
//! `ifma` and `avx2` modules include this folder, each with its own field
//! (`field`: radix 2^52 on AVX-512 IFMA, radix 2^29 on AVX2) and its
//! target features on every function marked `#[lane_features]`. The
//! entry points below are that set's; `lanes::p256` chooses the set.

mod codec;
mod complete;
mod coordinates;
mod exponents;
mod fixed_base;
#[cfg(test)]
mod fixed_base_tests;
mod map;
mod msm;
mod point;
mod scalar_mul;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::sync::OnceLock;

use oblivex_macros::lane_features;

use super::p256_field as field;
use super::{chains, scan};
use crate::group::lanes::toolkit::pass_ranges;
use crate::group::lanes::Timing;
pub(crate) use coordinates::Coordinates;
pub(crate) use fixed_base::FixedBase;
pub(crate) use map::UNIFORM_LEN;

/// The points of a batch, 8 per vector in order, kept beside its
/// encodings for the engine: those a message's check decoded (padding
/// lanes: the generator) or a client's blinded elements (padding lanes:
/// their hashed input point, their scalar being zero).
pub(crate) struct DecodedBatch {
    vectors: Vec<point::Jacobian8>,
    /// How many elements the vectors hold.
    elements: usize,
    /// The affine tables `1·P .. 8·P` of the vectors, once a client's check
    /// of an answer ([`Timing::VariableThenUnblind`]) has computed them:
    /// the unblinding that follows reads them instead of computing them
    /// again. The points are public (a message's), and so are their
    /// multiples.
    tables: OnceLock<Vec<[point::Affine8; 8]>>,
}

impl DecodedBatch {
    /// The batch of `vectors` holding `elements` elements.
    fn new(vectors: Vec<point::Jacobian8>, elements: usize) -> DecodedBatch {
        DecodedBatch {
            vectors,
            elements,
            tables: OnceLock::new(),
        }
    }

    /// The batch, if it holds exactly `count` elements.
    fn holding(batch: Option<&DecodedBatch>, count: usize) -> Option<&DecodedBatch> {
        batch.filter(|b| b.elements == count)
    }

    /// The vectors, if they hold exactly a batch of `count` elements.
    fn vectors_for(batch: Option<&DecodedBatch>, count: usize) -> Option<&[point::Jacobian8]> {
        Self::holding(batch, count).map(|b| b.vectors.as_slice())
    }

    /// The affine tables of the vectors, computed on first use, a pass of
    /// vectors at a time (one inversion each, and no more than a pass's
    /// Jacobian multiples alive at once).
    #[lane_features]
    fn affine_tables(&self) -> &[[point::Affine8; 8]] {
        if let Some(tables) = self.tables.get() {
            return tables;
        }
        let mut tables = Vec::with_capacity(self.vectors.len());
        for pass in pass_ranges(self.vectors.len(), scalar_mul::VECTORS_PER_INVERSION) {
            tables.extend(scalar_mul::affine_tables(&self.vectors[pass]));
        }
        self.tables.get_or_init(|| tables)
    }
}

/// The number of elements of `encoded` where `out` has its length and
/// there is one scalar per element (a per-element operation's inputs),
/// else `None`.
fn one_scalar_each(scalars: &[[u8; 32]], encoded: &[u8], out: &[u8]) -> Option<usize> {
    let count = encoded.len() / codec::ENCODING_LEN;
    (out.len() == encoded.len() && scalars.len() == count).then_some(count)
}

/// `lanes::p256::decode` on this instruction set (its documentation
/// says what it computes).
#[lane_features]
pub(crate) fn decode(encoded: &[u8]) -> Option<DecodedBatch> {
    let vectors = scalar_mul::decode_all(encoded);
    vectors.map(|vectors| DecodedBatch::new(vectors, encoded.len() / codec::ENCODING_LEN))
}

/// `lanes::p256::mul_by_key` on this instruction set (its documentation
/// says what it computes).
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
    let decoded = DecodedBatch::vectors_for(decoded, encoded.len() / codec::ENCODING_LEN);
    scalar_mul::mul_by_key(key, decoded, encoded, out)
}

/// `lanes::p256::mul_each` on this instruction set (its documentation
/// says what it computes).
#[lane_features]
pub(crate) fn mul_each(
    scalars: &[[u8; 32]],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    let Some(count) = one_scalar_each(scalars, encoded, out) else {
        return false;
    };
    let decoded = DecodedBatch::holding(decoded, count);
    if let Some(tables) = decoded.and_then(|batch| batch.tables.get()) {
        return scalar_mul::mul_each_tabled(scalars, tables, out);
    }
    let vectors = decoded.map(|batch| batch.vectors.as_slice());
    scalar_mul::mul_each(scalars, vectors, encoded, out)
}

/// `lanes::p256::hash_mul_encode` on this instruction set (its documentation
/// says what it computes).
#[lane_features]
pub(crate) fn hash_mul_encode(
    uniform: &[[u8; UNIFORM_LEN]],
    scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Option<Option<DecodedBatch>> {
    if scalars.len() != uniform.len() || out.len() != codec::ENCODING_LEN * uniform.len() {
        return None;
    }
    let vectors = scalar_mul::hash_mul_encode(uniform, scalars, out);
    Some(vectors.map(|vectors| DecodedBatch::new(vectors, uniform.len())))
}

/// `lanes::p256::fixed_base` on this instruction set (its documentation
/// says what it computes).
#[lane_features]
pub(crate) fn fixed_base(xy: &Coordinates) -> FixedBase {
    FixedBase::new(xy)
}

/// `lanes::p256::hash_offset_encode` on this instruction set (its
/// documentation says what it computes).
#[lane_features]
pub(crate) fn hash_offset_encode(
    uniform: &[[u8; UNIFORM_LEN]],
    base: &FixedBase,
    scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Option<Option<(DecodedBatch, bool)>> {
    if scalars.len() != uniform.len() || out.len() != codec::ENCODING_LEN * uniform.len() {
        return None;
    }
    let blinded = fixed_base::hash_offset_encode(uniform, base, scalars, out);
    Some(
        blinded.map(|(vectors, any_identity)| {
            (DecodedBatch::new(vectors, uniform.len()), any_identity)
        }),
    )
}

/// `lanes::p256::offset_each` on this instruction set (its documentation
/// says what it computes).
#[lane_features]
pub(crate) fn offset_each(
    base: &FixedBase,
    scalars: &[[u8; 32]],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    let Some(count) = one_scalar_each(scalars, encoded, out) else {
        return false;
    };
    let vectors = DecodedBatch::vectors_for(decoded, count);
    fixed_base::offset_each_encode(base, scalars, vectors, encoded, out)
}

/// `lanes::p256::msm` on this instruction set (its documentation says
/// what it computes).
#[lane_features]
pub(crate) fn msm(
    timing: Timing,
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    scalars: &[&[u8]],
    bits: usize,
) -> Option<zeroize::Zeroizing<(Coordinates, u8)>> {
    if encoded.len() != scalars.len() * codec::ENCODING_LEN {
        return None;
    }
    let decoded = DecodedBatch::holding(decoded, scalars.len());
    let vectors = decoded.map(|batch| batch.vectors.as_slice());
    match (timing, decoded) {
        (Timing::Constant, _) => msm::msm_ct(encoded, vectors, scalars, bits),
        (Timing::VariableThenUnblind, Some(batch)) => {
            let tables = batch.affine_tables();
            msm::msm_vartime(|pass| tables.get(pass).map(Cow::Borrowed), scalars, bits)
        }
        // Each pass's tables, dropped after it: nothing reads them again.
        (Timing::Variable | Timing::VariableThenUnblind, _) => msm::msm_vartime(
            |pass| msm::pass_tables(encoded, vectors, pass),
            scalars,
            bits,
        ),
    }
}

/// `lanes::p256::mul_each_coordinates` on this instruction set (its documentation
/// says what it computes).
#[lane_features]
pub(crate) fn mul_each_coordinates(
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
    Some(coordinates::mul_each_coordinates(scalars, points, identity))
}
