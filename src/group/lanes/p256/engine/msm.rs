//! Constant-time multi-scalar multiplication on P-256 (the balancer's
//! short factors on the client's blinded elements, and the client's check
//! of an answer), 8 points per vector: point `i` runs in lane `i mod 8` of
//! slot `i / 8`, each lane accumulates its share by Straus's method with
//! signed radix-16 digits (the table scan of `scalar_mul.rs`), and the
//! lanes are added at the end.
//!
//! The points may come from a malicious server, which could choose them
//! so that two partial sums meet (all equal, say): the sums are kept in
//! projective coordinates with complete additions (`complete.rs`). The
//! table's multiples are computed in Jacobian coordinates (`k·P + P`
//! never meets equal operands: P has order q), then converted.

use oblivex_macros::lane_features;
use zeroize::Zeroizing;

use super::codec::ENCODING_LEN;
use super::complete::Projective8;
use super::coordinates::{sum_coordinates, Coordinates};
use super::point::Jacobian8;
use super::scalar_mul::{decode_vector, multiples};
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
            let point = match decoded {
                Some(vectors) => vectors[slot],
                None => decode_vector(encoded.chunks(LANES * ENCODING_LEN).nth(slot)?)?,
            };
            let mut multiples = multiples(&point);
            tables.push(multiples.map(|p| Projective8::from_jacobian(&p)));
            wipe(&mut multiples);
            let lane_scalars = &scalars[slot * LANES..scalars.len().min(slot * LANES + LANES)];
            digits.push(per_lane_digits(lane_scalars, bits));
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
    let total = total.add(&total.rotate_lanes::<4>());
    let total = total.add(&total.rotate_lanes::<2>());
    let mut total = total.add(&total.rotate_lanes::<1>()).to_jacobian();
    let sum = sum_coordinates(&total);
    wipe(core::slice::from_mut(&mut total));
    Some(sum)
}
