//! Constant-time multi-scalar multiplication on ristretto255 (the
//! balancer's short factors, a VOPRF proof's full-width composite
//! weights), 8 points per vector: point `i` runs in lane `i mod 8` of
//! slot `i / 8`, each lane accumulates its own share by Straus's method with
//! signed radix-16 digits (the digits, tables and masked scan of
//! `group/straus.rs`, vectorized), and the 8 lane sums are added at the end.

use oblivex_macros::lane_features;

use super::codec::{decode, encode, LANES};
use super::point::{Cached8, Extended8};
use crate::group::lanes::toolkit::{pass_ranges, per_lane_digits};
use crate::group::straus::digit_count;

/// Slots (of 8 points) per pass: their tables (8 cached points each, 10 KiB
/// per slot with IFMA, 20 with AVX2) stay in the L2 cache, and the
/// doublings are shared by the pass (one more where the last would be
/// alone: `toolkit::pass_ranges`).
const SLOTS_PER_PASS: usize = 32;

/// One slot: the cached multiples `1·P .. 8·P` of its 8 points.
pub(super) type Table = [Cached8; 8];

/// `Σ d_i·P_i` encoded, for the ristretto255 encodings `encoded` (32 bytes
/// each) and secret `d_i < 2^bits` (little-endian bytes: the balancer's
/// short factors, or the full-width weights of a proof's composites);
/// `None` if an encoding is invalid.
/// The first vectors of points may be given decoded already (`decoded`,
/// 8 points each, in order); the rest are decoded from `encoded`.
/// Constant time in the `d_i`: digits become lane masks by vector
/// comparisons, every table entry is read, and the instruction stream
/// depends only on the number of points and `bits`.
#[lane_features]
pub(crate) fn msm_ct(
    encoded: &[u8],
    decoded: &[Extended8],
    scalars: &[&[u8]],
    bits: usize,
) -> Option<[u8; 32]> {
    let n = scalars.len().min(encoded.len() / 32);
    let slots = n.div_ceil(LANES);
    let positions = digit_count(bits);
    let mut total = Extended8::identity();
    for pass in pass_ranges(slots, SLOTS_PER_PASS) {
        let mut tables: Vec<Table> = Vec::with_capacity(pass.len());
        // Per slot, the 8 lanes' digits at each position (secret: each
        // wiped on drop).
        let mut digits = Vec::with_capacity(pass.len());
        for slot in pass.clone() {
            let lanes = slot * LANES..n.min(slot * LANES + LANES);
            let mut bytes = [[0u8; 32]; LANES]; // zeros encode the identity
            for (lane, i) in lanes.clone().enumerate() {
                bytes[lane].copy_from_slice(&encoded[32 * i..32 * i + 32]);
            }
            let lane_digits = per_lane_digits(&scalars[lanes], bits);
            let point = match decoded.get(slot) {
                Some(point) => *point,
                None => match decode(&bytes) {
                    (point, 0xff) => point,
                    _ => return None,
                },
            };
            tables.push(multiples(&point));
            digits.push(lane_digits);
        }
        let mut acc = Extended8::identity();
        for position in (0..positions).rev() {
            acc.double_times_assign(4);
            for (table, digits) in tables.iter().zip(digits.iter()) {
                acc.add_assign(&select(table, &digits[position]));
            }
        }
        total = total.add(&acc.cached());
    }
    let sum = total.sum_lanes();
    Some(encode(&sum)[0])
}

/// `[1·P, …, 8·P]` in cached form.
#[lane_features]
pub(super) fn multiples(p: &Extended8) -> Table {
    let p_cached = p.cached();
    let mut multiple = *p;
    // Each entry written once, in place (a table built by copies moves
    // 10 or 20 KiB per vector).
    core::array::from_fn(|i| {
        match i {
            0 => {}
            1 => multiple.double_times_assign(1),
            _ => multiple.add_assign(&p_cached),
        }
        multiple.cached()
    })
}

/// Per lane, `|d|·P` from the table (the identity for 0), negated where
/// `d < 0`: the shared masked scan of every entry (`scan::select`).
#[inline]
#[lane_features]
pub(super) fn select(table: &Table, digits: &[i64; LANES]) -> Cached8 {
    super::scan::select(table, Cached8::identity(), digits).0
}

impl crate::group::lanes::toolkit::LanePoints for Cached8 {
    type Set = super::super::Set;

    #[inline]
    unsafe fn chosen_where(&self, other: &Self, mask: u8) -> Self {
        // SAFETY: the caller's CPU has the features (trait contract).
        unsafe { self.select(other, mask) }
    }

    #[inline]
    unsafe fn negated_where(&self, mask: u8) -> Self {
        // SAFETY: the caller's CPU has the features (trait contract).
        unsafe { self.negate_where(mask) }
    }
}
