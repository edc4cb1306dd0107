//! Scalar multiplication of points given by affine coordinates, each by
//! its own scalar: `PrimeOrderGroup::mul_each` on `p256` points (the
//! checked request's balancer, a few products per batch), where one vector
//! of the engine costs less than one `p256` multiplication.

use oblivex_macros::lane_features;

use super::chains::invert_all;
use super::field::Fe8;
use super::point::Jacobian8;
use super::scalar_mul::{affine_tables, multiply};
use crate::group::lanes::toolkit::{lane_byte_mask, per_lane_digits, wipe, LANES};
use zeroize::Zeroizing;

/// Affine coordinates: x then y, 32 bytes each, big-endian.
pub(crate) type Coordinates = [u8; 64];

/// `s_i·P_i` for the points of `points` (coordinates below p of points on
/// the curve, or anything where `identity` has bit `i mod 8` of byte
/// `i / 8` set: `P_i` is then the identity) and the secret `s_i < 2^256`
/// (little-endian bytes), constant time in both: the coordinates of each
/// product and whether it is the identity (zeros then), as a byte 0/1.
#[lane_features]
pub(super) fn mul_each_coordinates(
    scalars: &[[u8; 32]],
    points: &[Coordinates],
    identity: &[u8],
) -> Zeroizing<Vec<(Coordinates, u8)>> {
    let mut vectors = Vec::with_capacity(points.len().div_ceil(LANES));
    for chunk in points.chunks(LANES) {
        // Padding lanes repeat the first point; their scalars are zero.
        let lane = |i: usize| chunk.get(i).unwrap_or(&chunk[0]);
        let half = |at: usize| {
            Zeroizing::new(core::array::from_fn(|i| {
                lane(i)[at..at + 32].try_into().expect("32 bytes")
            }))
        };
        let x = Fe8::from_be_bytes_each(&half(0));
        let y = Fe8::from_be_bytes_each(&half(32));
        vectors.push(Jacobian8::from_affine(x, y));
    }
    let mut tables = affine_tables(&vectors);
    wipe(&mut vectors);
    let mut out = Zeroizing::new(Vec::with_capacity(points.len()));
    let mut products = Vec::with_capacity(tables.len());
    let mut zero = Vec::with_capacity(tables.len());
    for (v, table) in tables.iter().enumerate() {
        let digits = per_lane_digits(&scalars[v * LANES..], 256);
        let (product, product_identity) = multiply(table, &digits);
        products.push(product);
        zero.push(product_identity | identity.get(v).copied().unwrap_or(0));
    }
    let mut inverses: Vec<Fe8> = products
        .iter()
        .zip(&zero)
        .map(|(p, zero)| p.z.select(&Fe8::one(), *zero))
        .collect();
    invert_all(&mut inverses);
    for ((p, inverse), (zero, chunk)) in products
        .iter()
        .zip(&inverses)
        .zip(zero.iter().zip(points.chunks(LANES)))
    {
        push_lanes(p, inverse, *zero, chunk.len(), &mut out);
    }
    wipe(&mut products);
    wipe(&mut inverses);
    wipe(&mut tables);
    out
}

/// The affine coordinates of the point in every lane of `sum` (a
/// multi-scalar multiplication's result) and whether it is the identity
/// (`Z = 0`: coordinates zero), with an inversion of its own; constant
/// time, so that a secret sum never meets a decoder of public input.
#[lane_features]
pub(super) fn sum_coordinates(sum: &Jacobian8) -> Zeroizing<(Coordinates, u8)> {
    let identity = sum.z.is_zero();
    let mut inverse = sum.z.select(&Fe8::one(), identity).invert();
    let mut out = Zeroizing::new(Vec::with_capacity(1));
    push_lanes(sum, &inverse, identity, 1, &mut out);
    wipe(core::slice::from_mut(&mut inverse));
    Zeroizing::new(out[0])
}

/// Pushes the affine coordinates of the first `count` lanes of `p` (whose
/// `1/Z` is `inverse`) and whether each is the identity (the lanes of
/// `identity`, whose coordinates are zeros), constant time; every copy
/// on the stack is wiped (the points may be secret).
#[lane_features]
fn push_lanes(
    p: &Jacobian8,
    inverse: &Fe8,
    identity: u8,
    count: usize,
    out: &mut Vec<(Coordinates, u8)>,
) {
    let inverse_squared = inverse.square();
    let mut x = p.x.mul(&inverse_squared);
    let mut y = p.y.mul(&inverse_squared.mul(inverse));
    let xs = Zeroizing::new(x.be_bytes_each());
    let ys = Zeroizing::new(y.be_bytes_each());
    wipe(core::slice::from_mut(&mut x));
    wipe(core::slice::from_mut(&mut y));
    for lane in 0..count {
        // All ones unless the lane is the identity (a secret bit: masked,
        // not branched on).
        let keep = !lane_byte_mask(identity, lane);
        let mut coordinates = Zeroizing::new([0u8; 64]);
        for (c, b) in coordinates.iter_mut().zip(xs[lane].iter().chain(&ys[lane])) {
            *c = b & keep;
        }
        out.push((*coordinates, (identity >> lane) & 1));
    }
}
