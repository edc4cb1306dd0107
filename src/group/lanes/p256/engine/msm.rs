//! Multi-scalar multiplication on P-256, 8 points per vector: point `i`
//! runs in lane `i mod 8` of slot `i / 8`, each lane accumulates its share
//! by Straus's method with signed radix-16 digits (the table scan of
//! `scalar_mul.rs`), and the lanes are added at the end. Two forms:
//!
//! - [`msm_ct`], constant time in the scalars: the balancer's secret short
//!   factors on the client's blinded elements, and a threshold check run
//!   while the coins are still secret. The points may have been chosen so
//!   that two partial sums meet (all equal, say): the sums are kept in
//!   projective coordinates with complete additions (`complete.rs`). The
//!   table's multiples are computed in Jacobian coordinates (`k·P + P`
//!   never meets equal operands: P has order q), then converted.
//! - [`msm_vartime`], for public points and scalars: the client's check of
//!   an answer once its coins are spent, a proof's composites. The sums
//!   are Jacobian, the table entries affine, and the rare additions whose
//!   operands meet are found and redone ([`Jacobian8::add_mixed_vartime`]);
//!   its tables are those the unblinding reads next.

use std::borrow::Cow;
use std::ops::Range;

use oblivex_macros::lane_features;
use zeroize::Zeroizing;

use super::codec::ENCODING_LEN;
use super::complete::Projective8;
use super::coordinates::{sum_coordinates, Coordinates};
use super::field::Fe8;
use super::point::{Affine8, Jacobian8};
use super::scalar_mul::{affine_tables, decode_vector, multiples};
use super::scan::select;
use crate::group::lanes::toolkit::{pass_ranges, per_lane_digits, wipe, LANES};
use crate::group::straus::digit_count;

/// Slots (of 8 points) per pass: their tables (8 points each, 15 KiB per
/// slot) stay in the L2 cache, and the doublings are shared by
/// the pass (one more where the last would be alone:
/// `toolkit::pass_ranges`).
const SLOTS_PER_PASS: usize = 32;

/// `Σ d_i·P_i` as affine coordinates and whether it is the identity (1,
/// coordinates zero), for the P-256 encodings `encoded` (33 bytes each)
/// and secret `d_i < 2^bits` (little-endian bytes); `None` if an encoding
/// is invalid. The vectors of points may be given decoded already
/// (`decoded`, the whole batch). Constant time in the `d_i`: digits become
/// lane masks by vector comparisons, every table entry is read, the
/// instruction stream depends only on the number of points and `bits`,
/// and the secret sum leaves as coordinates, not as an encoding a decoder
/// would have to parse (its prefix byte is the sum's parity).
#[lane_features]
pub(super) fn msm_ct(
    encoded: &[u8],
    decoded: Option<&[Jacobian8]>,
    scalars: &[&[u8]],
    bits: usize,
) -> Option<Zeroizing<(Coordinates, u8)>> {
    let slots = scalars.len().div_ceil(LANES);
    let mut total = Projective8::identity();
    for pass in pass_ranges(slots, SLOTS_PER_PASS) {
        let mut tables = Vec::with_capacity(pass.len());
        let mut digits = Vec::with_capacity(pass.len());
        for slot in pass {
            let mut multiples = multiples(&slot_points(encoded, decoded, slot)?);
            tables.push(multiples.map(|p| Projective8::from_jacobian(&p)));
            wipe(&mut multiples);
            digits.push(slot_digits(scalars, slot, bits));
        }
        let mut acc = Projective8::identity();
        for position in (0..digit_count(bits)).rev() {
            acc = acc.double_times(4);
            for (table, digits) in tables.iter().zip(&digits) {
                let (entry, _) = select(table, Projective8::identity(), &digits[position]);
                acc = acc.add(&entry);
            }
        }
        total = total.add(&acc);
        for table in tables.iter_mut() {
            wipe(table);
        }
    }
    Some(lanes_summed(&total))
}

/// `Σ d_i·P_i` as [`msm_ct`] gives it, for *public* points and scalars `d_i
/// < 2^bits` (little-endian bytes; a client's check of an answer once its
/// coins are spent, a proof's composites), given the affine tables
/// `1·P .. 8·P` of each pass's vectors of points (`pass_tables`, as
/// `scalar_mul::affine_tables` computes them: an answer's, kept for the
/// unblinding that follows, or computed for the pass; `None`: an invalid
/// encoding). Variable
/// time in the rare cases only: each lane's sum is kept in Jacobian
/// coordinates with the incomplete mixed addition (7M + 4S, against 12M
/// and 2 by `b` for the complete addition of [`msm_ct`]), and where a
/// server's points make an operand equal to or opposite the running sum
/// in some lane ([`Jacobian8::add_mixed_vartime`]), that addition is
/// redone as a doubling, or its lane marked as the identity. Every digit
/// is read in the same order whatever its value.
#[lane_features]
pub(super) fn msm_vartime<'t>(
    mut pass_tables: impl FnMut(Range<usize>) -> Option<Cow<'t, [[Affine8; 8]]>>,
    scalars: &[&[u8]],
    bits: usize,
) -> Option<Zeroizing<(Coordinates, u8)>> {
    let empty = Affine8 {
        x: Fe8::zero(),
        y: Fe8::zero(),
    };
    let mut total = Projective8::identity();
    for pass in pass_ranges(scalars.len().div_ceil(LANES), SLOTS_PER_PASS) {
        let tables = pass_tables(pass.clone())?;
        let digits: Vec<_> = pass
            .clone()
            .map(|slot| slot_digits(scalars, slot, bits))
            .collect();
        // Every lane starts as the identity; its coordinates are ignored
        // until an addition replaces them.
        let mut acc = Jacobian8::from_affine(Fe8::zero(), Fe8::one());
        let mut acc_identity = u8::MAX;
        for position in (0..digit_count(bits)).rev() {
            if acc_identity != u8::MAX {
                acc = acc.double_times(4);
            }
            for (table, digits) in tables.iter().zip(&digits) {
                let (entry, entry_identity) = select(table, empty, &digits[position]);
                (acc, acc_identity) = acc.add_mixed_vartime(&entry, acc_identity, entry_identity);
            }
        }
        let pass_sum =
            Projective8::from_jacobian(&acc).select(&Projective8::identity(), acc_identity);
        total = total.add(&pass_sum);
    }
    Some(lanes_summed(&total))
}

/// The affine tables of the vectors of points in slots `pass` (given
/// `decoded`, else decoded from `encoded`; `None`: an invalid encoding),
/// for a [`msm_vartime`] that keeps none of them.
#[lane_features]
pub(super) fn pass_tables(
    encoded: &[u8],
    decoded: Option<&[Jacobian8]>,
    pass: Range<usize>,
) -> Option<Cow<'static, [[Affine8; 8]]>> {
    let points = pass
        .map(|slot| slot_points(encoded, decoded, slot))
        .collect::<Option<Vec<_>>>()?;
    Some(Cow::Owned(affine_tables(&points)))
}

/// The 8 points of slot `slot`: `decoded`'s where given, else decoded from
/// `encoded` (`None`: an invalid encoding).
#[lane_features]
fn slot_points(encoded: &[u8], decoded: Option<&[Jacobian8]>, slot: usize) -> Option<Jacobian8> {
    match decoded {
        Some(vectors) => Some(vectors[slot]),
        None => decode_vector(encoded.chunks(LANES * ENCODING_LEN).nth(slot)?),
    }
}

/// The signed digits of slot `slot`'s scalars, one per lane (padding
/// lanes: zero).
fn slot_digits(scalars: &[&[u8]], slot: usize, bits: usize) -> Zeroizing<Vec<[i64; LANES]>> {
    let lane_scalars = &scalars[slot * LANES..scalars.len().min(slot * LANES + LANES)];
    per_lane_digits(lane_scalars, bits)
}

/// The sum of the 8 lanes of `total` as affine coordinates and whether it
/// is the identity (complete additions: the lanes' sums may meet).
#[lane_features]
fn lanes_summed(total: &Projective8) -> Zeroizing<(Coordinates, u8)> {
    let total = total.add(&total.rotate_lanes::<4>());
    let total = total.add(&total.rotate_lanes::<2>());
    let mut total = total.add(&total.rotate_lanes::<1>()).to_jacobian();
    let sum = sum_coordinates(&total);
    wipe(core::slice::from_mut(&mut total));
    sum
}
