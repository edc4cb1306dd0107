//! ristretto255 encodings of 8 points at once (RFC 9496 §4.3); the
//! transposition between per-point bytes and word-sliced limbs is the
//! field's (`Fe8::from_le_bytes_each`, `Fe8::le_bytes_each`).

use oblivex_macros::lane_features;

use super::constants::{D, INVSQRT_A_MINUS_D, SQRT_M1};
use super::field::{splat, Fe8};
use super::point::Extended8;
use super::roots::{sqrt_ratio_m1, sqrt_ratio_m1_each};

pub(crate) use crate::group::lanes::toolkit::LANES;

/// RFC 9496 decoding of 8 encodings: the points, and the lanes whose
/// encoding is valid (canonical, non-negative `s`, a square ratio,
/// non-negative `t`, `y ≠ 0`). Invalid lanes hold unspecified points.
#[lane_features]
pub(super) fn decode(bytes: &[[u8; 32]; LANES]) -> (Extended8, u8) {
    let [decoded] = decode_each(&[*bytes]);
    decoded
}

/// [`decode`] of `N` vectors of encodings, their square roots interleaved
/// (see `roots::pow_p58_each`).
#[lane_features]
pub(super) fn decode_each<const N: usize>(bytes: &[[[u8; 32]; LANES]; N]) -> [(Extended8, u8); N] {
    let one = Fe8::one();
    let s = bytes.map(|b| Fe8::from_le_bytes_each(&b));
    let u1: [Fe8; N] = core::array::from_fn(|i| one.sub(&s[i].square()));
    let u2: [Fe8; N] = core::array::from_fn(|i| one.add(&s[i].square()));
    let u2_sqr = u2.map(|u2| u2.square());
    let v: [Fe8; N] = core::array::from_fn(|i| splat(D).mul(&u1[i].square()).neg().sub(&u2_sqr[i]));
    let roots = sqrt_ratio_m1_each(&[one; N], &core::array::from_fn(|i| v[i].mul(&u2_sqr[i])));
    core::array::from_fn(|i| {
        let canonical = s[i]
            .le_bytes_each()
            .iter()
            .zip(&bytes[i])
            .enumerate()
            .fold(0u8, |m, (lane, (c, b))| m | (u8::from(c == b) << lane));
        let (was_square, invsqrt) = roots[i];
        let den_x = invsqrt.mul(&u2[i]);
        let den_y = invsqrt.mul(&den_x).mul(&v[i]);
        let x = s[i].add(&s[i]).mul(&den_x).abs();
        let y = u1[i].mul(&den_y);
        let t = x.mul(&y);
        let valid = canonical & !s[i].is_negative() & was_square & !t.is_negative() & !y.is_zero();
        (Extended8 { x, y, z: one, t }, valid)
    })
}

/// The RFC 9496 encoding of `2·Q` for 8 points `Q`, which needs an
/// inversion but no square root, so that a batch shares one inversion
/// (the server encodes `2·((k/2)·X)`). With `Q = (X : Y : Z : T)`, `2·Q`
/// is `(E·H : G·F : F·H : E·G)` for `E = 2XY`, `F = Z² + d·T²`, `G = Y² +
/// X²`, `H = Z² − d·T²`; the inverse of `E·G·F·H` gives `1/(F·H)` and
/// `1/(E·G)`, and the encoding's inverse square root is a product of known
/// factors. `E·G·F·H` is zero exactly when `Q` is a torsion point (then
/// `2·Q` is the identity, encoded as zeros).
#[derive(Clone, Copy)]
pub(super) struct DoubledEncoding {
    e: Fe8,
    f: Fe8,
    g: Fe8,
    h: Fe8,
    eg: Fe8,
    fh: Fe8,
}

// SAFETY: six field elements (`PlainLimbs`), nothing else.
unsafe impl crate::group::lanes::toolkit::PlainLimbs for DoubledEncoding {}

impl DoubledEncoding {
    /// The factors of `2·Q`.
    #[lane_features]
    pub(super) fn new(q: &Extended8) -> DoubledEncoding {
        let xx = q.x.square();
        let yy = q.y.square();
        let zz = q.z.square();
        let dtt = q.t.square().mul(&splat(D));
        let e = q.x.add(&q.x).mul(&q.y);
        let f = zz.add(&dtt);
        let g = yy.add(&xx);
        let h = zz.sub(&dtt);
        let (eg, fh) = (e.mul(&g), f.mul(&h));
        DoubledEncoding { e, f, g, h, eg, fh }
    }

    /// `E·G·F·H`, to be inverted (zero lanes replaced by one first).
    #[lane_features]
    pub(super) fn denominator(&self) -> Fe8 {
        self.eg.mul(&self.fh)
    }

    /// The encodings, given `inverse = 1/(E·G·F·H)` in the lanes of
    /// `nonzero` (others: anything; they encode the identity).
    #[lane_features]
    pub(super) fn finish(&self, inverse: &Fe8, nonzero: u8) -> [[u8; 32]; LANES] {
        let sqrt_m1 = splat(SQRT_M1);
        let z_inv = self.eg.mul(inverse); // 1/(F·H)
        let t_inv = self.fh.mul(inverse); // 1/(E·G)
        let rotate = self.eg.mul(&z_inv).is_negative();
        let e = self.e.select(&self.g, rotate);
        let g = self.g.select(&self.e.neg(), rotate);
        let h = self.h.select(&self.f.mul(&sqrt_m1), rotate);
        let magic = splat(INVSQRT_A_MINUS_D).select(&sqrt_m1, rotate);
        let g = g.negate_where(h.mul(&e).mul(&z_inv).is_negative());
        let s = h.sub(&g).mul(&magic.mul(&g.mul(&t_inv))).abs();
        Fe8::zero().select(&s, nonzero).le_bytes_each()
    }
}

/// RFC 9496 encoding of 8 points.
#[lane_features]
pub(super) fn encode(p: &Extended8) -> [[u8; 32]; LANES] {
    let u1 = p.z.add(&p.y).mul(&p.z.sub(&p.y));
    let u2 = p.x.mul(&p.y);
    let (_, invsqrt) = sqrt_ratio_m1(&Fe8::one(), &u1.mul(&u2.square()));
    let den1 = invsqrt.mul(&u1);
    let den2 = invsqrt.mul(&u2);
    let z_inv = den1.mul(&den2).mul(&p.t);
    let sqrt_m1 = splat(SQRT_M1);
    let ix = p.x.mul(&sqrt_m1);
    let iy = p.y.mul(&sqrt_m1);
    let enchanted_denominator = den1.mul(&splat(INVSQRT_A_MINUS_D));
    let rotate = p.t.mul(&z_inv).is_negative();
    let x = p.x.select(&iy, rotate);
    let y = p.y.select(&ix, rotate);
    let den_inv = den2.select(&enchanted_denominator, rotate);
    let y = y.negate_where(x.mul(&z_inv).is_negative());
    let s = den_inv.mul(&p.z.sub(&y)).abs();
    s.le_bytes_each()
}
