//! Constant-time multi-scalar multiplication on BLS12-381 G1 (the
//! balancer's short factors on the client's blinded elements, the
//! client's check of an answer, a VOPRF proof's composites), 8 points per
//! vector: point `i` runs in lane `i mod 8` of slot `i / 8`, each lane
//! accumulates its share by Straus's method with signed radix-16 digits
//! (the table scan of `scan::select`), and the lanes are added at the
//! end.
//!
//! The points may come from a malicious server, which could choose them
//! so that two partial sums meet (all equal, say): the sums and the
//! tables are kept in projective coordinates with complete additions and
//! doublings (`complete.rs`), which need no mask. The points are in G1
//! (decoded and checked, or the engine's own).
//!
//! Cost per vector of 8 points at 65-bit factors (the balancer's), about
//! 105,000 TSC ticks (`timing.rs`): 17 additions to the accumulator, the
//! table's 3 additions and 4 doublings, and a share of the pass's 68
//! doublings.

use oblivex_macros::lane_features;

use zeroize::Zeroizing;

use super::codec::ENCODING_LEN;
use super::complete::Projective8;
use super::field::Fp8;
use super::point::Affine8;
use super::scalar_mul::decode_vector;
use super::scan::select;
use crate::group::lanes::toolkit::{pass_ranges, per_lane_digits, wipe, LANES};
use crate::group::straus::digit_count;

/// Slots (of 8 points) per pass: their tables (8 points each, 24 KiB per
/// slot) stay in the L2 cache, and the doublings are shared by
/// the pass (one more where the last would be alone:
/// `toolkit::pass_ranges`).
const SLOTS_PER_PASS: usize = 32;

/// Affine coordinates: x then y, 48 bytes each, big-endian.
pub(crate) type Coordinates = [u8; 96];

/// `[1·P, …, 8·P]` by complete formulas: the even multiples doublings
/// (`2k·P = 2·(k·P)`, cheaper than additions), the odd ones `(k − 1)·P +
/// P`.
#[lane_features]
fn multiples(p: &Affine8) -> [Projective8; 8] {
    let mut table = [Projective8::from_affine(p); 8];
    for k in 2..=8 {
        table[k - 1] = if k % 2 == 0 {
            table[k / 2 - 1].double()
        } else {
            table[k - 2].add(&table[0])
        };
    }
    table
}

/// `Σ d_i·P_i` as affine coordinates and whether it is the identity (1,
/// coordinates zero), for the encodings `encoded` (48 bytes each) and
/// secret `d_i < 2^bits` (little-endian bytes, `bits ≤ 256`); `None` if an
/// encoding is invalid. The vectors of points may be given decoded
/// already (`decoded`, the whole batch). Constant time in the `d_i`:
/// digits become lane masks by vector comparisons, every table entry is
/// read, the instruction stream depends only on the number of points and
/// `bits`, and the secret sum leaves as coordinates.
#[lane_features]
pub(super) fn msm_ct(
    encoded: &[u8],
    decoded: &[Affine8],
    scalars: &[&[u8]],
    bits: usize,
) -> Option<Zeroizing<(Coordinates, u8)>> {
    let slots = scalars.len().div_ceil(LANES);
    let mut total = Projective8::identity();
    for pass in pass_ranges(slots, SLOTS_PER_PASS) {
        let mut tables = Vec::with_capacity(pass.len());
        let mut digits = Vec::with_capacity(pass.len());
        for slot in pass {
            let point = match decoded.get(slot) {
                Some(point) => *point,
                None => decode_vector(encoded.chunks(LANES * ENCODING_LEN).nth(slot)?)?,
            };
            tables.push(multiples(&point));
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
    let mut total = total.add(&total.rotate_lanes::<1>());
    let sum = sum_coordinates(&total);
    wipe(core::slice::from_mut(&mut total));
    Some(sum)
}

/// The affine coordinates of the point in lane 0 of `sum` and whether it
/// is the identity (`Z = 0`: coordinates zero), with an inversion of its
/// own; constant time, the copies wiped.
#[lane_features]
fn sum_coordinates(sum: &Projective8) -> Zeroizing<(Coordinates, u8)> {
    let identity = sum.z.is_zero();
    let mut inverse = sum.z.select(&Fp8::one(), identity).invert();
    let mut coordinates = [sum.x, sum.y].map(|c| c.mul(&inverse).select(&Fp8::zero(), identity));
    let xs = Zeroizing::new(coordinates[0].be_bytes_each());
    let ys = Zeroizing::new(coordinates[1].be_bytes_each());
    wipe(&mut coordinates);
    wipe(core::slice::from_mut(&mut inverse));
    let mut out = Zeroizing::new(([0u8; 96], identity & 1));
    out.0[..48].copy_from_slice(&xs[0]);
    out.0[48..].copy_from_slice(&ys[0]);
    out
}
