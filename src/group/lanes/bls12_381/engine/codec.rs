//! Compressed encodings of 8 BLS12-381 G1 points at once (48 bytes: x
//! big-endian, its top three bits the flags: compressed `0x80`, infinity
//! `0x40`, `y` the larger root `0x20`), accepted exactly as `blst` and
//! `Bls12381G1::decode` accept them, and the subgroup check.
//!
//! Decoding refuses: the compression flag clear; the infinity flag set
//! (the group's `decode` refuses the identity, and blst every other
//! encoding with that flag); x (flags cleared) not below p; `x = 0` (blst:
//! not in the group, it has order 3); `x³ + 4` not a square; a point
//! outside G1. The subgroup check is Scott's (eprint 2021/1130, as blst
//! runs it): P is in G1 exactly when `[z²]P = −σ²(P)` with `σ(x, y) =
//! (βx, y)`, `z` the curve's parameter, computed as `u·(u·P)` (`u = |z|`,
//! `z² = u²`): 126 doublings, 5 mixed additions of P and 5 Jacobian ones
//! of `Q = u·P`, instead of a multiplication by r; the decoded points keep
//! Q for the scalar multiplications' base-u decomposition
//! (`decompose.rs`). Its additions meet the identity, or equal or opposite
//! operands, only for points of small order (public: a received encoding),
//! and handle each case exactly (masks, and a doubling computed in the
//! rare vectors where some lane needs it).

use oblivex_macros::lane_features;

use super::decompose::U;
use super::field::{splat, sqrt_candidate_each, Fp8};
use super::point::{curve_rhs, Affine8, Jacobian8, BETA_SQUARED};
use crate::group::lanes::bls12_381::exponents::P_BYTES;
use crate::group::lanes::toolkit::{lane_byte_mask, PlainLimbs, LANES};

/// Bytes of a compressed encoding.
pub(super) const ENCODING_LEN: usize = 48;

/// The compressed encoding of the generator: what padding lanes hold (a
/// point of G1, so a batch inversion never meets a zero there).
pub(super) const GENERATOR_ENCODING: [u8; ENCODING_LEN] = [
    0x97, 0xf1, 0xd3, 0xa7, 0x31, 0x97, 0xd7, 0x94, 0x26, 0x95, 0x63, 0x8c, 0x4f, 0xa9, 0xac, 0x0f,
    0xc3, 0x68, 0x8c, 0x4f, 0x97, 0x74, 0xb9, 0x05, 0xa1, 0x4e, 0x3a, 0x3f, 0x17, 0x1b, 0xac, 0x58,
    0x6c, 0x55, 0xe8, 0x3f, 0xf9, 0x7a, 0x1a, 0xef, 0xfb, 0x3a, 0xf0, 0x0a, 0xdb, 0x22, 0xc6, 0xbb,
];

/// The compression flag.
const COMPRESSED: u8 = 0x80;
/// The infinity flag.
const INFINITY: u8 = 0x40;
/// The flag of the larger root `y`.
const LARGEST: u8 = 0x20;

/// 8 decoded points of G1 and their multiples `u·P` (`u = |z|`), which the
/// subgroup check computed on the way.
#[derive(Clone, Copy)]
pub(super) struct Decoded8 {
    pub(super) point: Affine8,
    pub(super) times_u: Jacobian8,
}

// SAFETY: points (`PlainLimbs`), nothing else.
unsafe impl PlainLimbs for Decoded8 {}

/// The bytes of x and the sign flag of an encoding whose bytes pass (the
/// flags, x below p and not zero), else `None`. Public data (a received
/// message): the checks may branch.
fn x_of_bytes(encoding: &[u8; ENCODING_LEN]) -> Option<([u8; ENCODING_LEN], u8)> {
    if encoding[0] & (COMPRESSED | INFINITY) != COMPRESSED {
        return None;
    }
    let mut x = *encoding;
    x[0] &= !(COMPRESSED | INFINITY | LARGEST);
    if x >= P_BYTES || x.iter().all(|&b| b == 0) {
        return None;
    }
    Some((x, (encoding[0] & LARGEST) >> 5))
}

/// The points of `N` vectors of 8 compressed encodings each (with their
/// multiples by u), and the mask of the lanes that hold a valid one (see
/// the module documentation). The `N` square roots run side by side
/// (`field::sqrt_candidate_each`).
#[lane_features]
pub(super) fn decode_each<const N: usize>(
    encodings: &[[[u8; ENCODING_LEN]; LANES]; N],
) -> [(Decoded8, u8); N] {
    let mut bytes_valid = [0u8; N];
    let mut largest = [0u8; N];
    let mut xs = [[[0u8; ENCODING_LEN]; LANES]; N];
    for (i, vector) in encodings.iter().enumerate() {
        for (lane, encoding) in vector.iter().enumerate() {
            if let Some((x, sign)) = x_of_bytes(encoding) {
                bytes_valid[i] |= 1 << lane;
                largest[i] |= sign << lane;
                xs[i][lane] = x;
            }
        }
    }
    let x = xs.map(|xs| Fp8::from_be_bytes_each(&xs));
    let rhs = x.map(|x| curve_rhs(&x));
    let roots = sqrt_candidate_each(&rhs);
    core::array::from_fn(|i| {
        let is_root = roots[i].square().equals(&rhs[i]);
        let y = roots[i].negate_where(roots[i].is_largest() ^ largest[i]);
        let point = Affine8 { x: x[i], y };
        let valid = bytes_valid[i] & is_root;
        let (times_u, in_g1) = in_subgroup(&point);
        (Decoded8 { point, times_u }, valid & in_g1)
    })
}

/// `u·P` and the lanes where the points `p` (on the curve, or anything
/// where the caller discards the lane) are in G1: `[z²]P = u·(u·P) = (β²x,
/// −y)`.
#[lane_features]
fn in_subgroup(p: &Affine8) -> (Jacobian8, u8) {
    let times_u = times_u_vartime(p);
    let product = times_u_with(&times_u, |acc| acc.add_or_double_vartime(&times_u));
    let zz = product.z.square();
    let x = p.x.mul(&splat(BETA_SQUARED)).mul(&zz);
    let y = p.y.neg().mul(&zz.mul(&product.z));
    // The product's X is unreduced (below 18p, `point.rs`).
    let x_differs = Fp8::combination::<2, 20, 1, 1>([(&product.x, 0)], [(&x, 0)]);
    let in_g1 = !product.z.is_zero() & x_differs.is_zero() & product.y.equals(&y);
    (times_u, in_g1)
}

/// `u·P` for points received or computed (public), the identity exact
/// (points of small order; see [`add_public`]).
#[lane_features]
pub(super) fn times_u_vartime(p: &Affine8) -> Jacobian8 {
    times_u_with(&Jacobian8::from_affine(p), |acc| add_public(acc, p))
}

/// `u·start` by the bits of u from the top (63 doublings, 5 additions),
/// `add_start(acc)` being `acc + start`.
#[inline]
#[lane_features]
fn times_u_with(start: &Jacobian8, add_start: impl Fn(&Jacobian8) -> Jacobian8) -> Jacobian8 {
    let mut acc = *start;
    for bit in (0..63).rev() {
        acc = acc.double();
        if (U >> bit) & 1 == 1 {
            acc = add_start(&acc);
        }
    }
    acc
}

/// `acc + p` for every case (public points): the identity `acc` (`Z = 0`)
/// gives `p`; equal operands the doubling, computed only for a vector
/// where some lane needs it (a point of small order); opposite ones `Z =
/// 0`, as the formula gives.
#[lane_features]
fn add_public(acc: &Jacobian8, p: &Affine8) -> Jacobian8 {
    let acc_identity = acc.z.is_zero();
    let (sum, difference) = acc.add_mixed_incomplete(p);
    let equal = difference.h.is_zero() & difference.r.is_zero() & !acc_identity;
    let sum = if equal != 0 {
        sum.select(&acc.double(), equal)
    } else {
        sum
    };
    sum.select(&Jacobian8::from_affine(p), acc_identity)
}

/// The compressed encodings of the affine points `(x, y)`, the identity's
/// (`0xc0`, then zeros, as blst writes it) in the lanes of `identity`.
/// Constant time in the points (an unblinded element is secret): the
/// identity's zero x is a selection, the flags byte masked arithmetic.
#[lane_features]
pub(super) fn encode_affine(x: &Fp8, y: &Fp8, identity: u8) -> [[u8; ENCODING_LEN]; LANES] {
    let mut xs = x.select(&Fp8::zero(), identity).be_bytes_each();
    let largest = y.is_largest();
    core::array::from_fn(|lane| {
        let infinite = lane_byte_mask(identity, lane);
        // The sign is secret (an unblinded element): a mask-free flag.
        let finite = COMPRESSED | (LARGEST & lane_byte_mask(largest, lane));
        let mut out = xs[lane];
        out[0] |= (finite & !infinite) | (COMPRESSED | INFINITY) & infinite;
        zeroize::Zeroize::zeroize(&mut xs[lane]);
        out
    })
}
