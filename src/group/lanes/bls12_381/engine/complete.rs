//! BLS12-381 G1 points, 8 at once, in homogeneous projective coordinates
//! `(X : Y : Z)` for `(X/Z, Y/Z)`, with the complete addition and doubling
//! of Renes, Costello and Batina (eprint 2015/1060, algorithms 7 and 9
//! for `a = 0`, `3b = 12`): right for every pair of points of
//! `E(GF(p))`, the identity `(0 : 1 : 0)` and equal or opposite operands
//! included, with no lane mask (the formulas are complete on a curve
//! without points of order 2; `E(GF(p))` has odd order). For sums of
//! points a malicious server may have chosen (`msm.rs`), where any two
//! partial sums could meet.
//!
//! Cost and bounds. The formulas are computed as written, with the
//! multiplications by `3b = 12` done as shifts (`12·a = 8a + 4a`), every
//! linear step one unreduced `Fp8::combination` (its bias a multiple of
//! p covering what it subtracts, its bound asserted in debug builds), and
//! each output coordinate, a sum of two products in both formulas but
//! the doubling's X and Z, one `Fp8::mul_sum` (the two products reduced
//! once). Operands are below `2p` (products, sums of products, decoded
//! coordinates, the identity's 0 and 1); the unreduced values stay below
//! `148p`, and every product below `1,924·p²` (the doubling's `(t0 −
//! 3·3b·t2)·(t0 + 3b·t2)`, `74p · 26p`), far below what `Fp8::mul` and
//! `Fp8::mul_sum` take (operands up to `2^11·p` on AVX2, `2^17·p` on
//! IFMA), so every coordinate returned is again below `2p`.

use oblivex_macros::lane_features;

use super::field::Fp8;
use super::point::Affine8;
use crate::group::lanes::toolkit::{LanePoints, PlainLimbs};

/// 8 points in homogeneous projective coordinates.
#[derive(Clone, Copy)]
pub(super) struct Projective8 {
    pub(super) x: Fp8,
    pub(super) y: Fp8,
    pub(super) z: Fp8,
}

// SAFETY: three field elements (`PlainLimbs`), nothing else.
unsafe impl PlainLimbs for Projective8 {}

impl Projective8 {
    /// The identity `(0 : 1 : 0)` in every lane.
    #[inline]
    #[lane_features]
    pub(super) fn identity() -> Projective8 {
        Projective8 {
            x: Fp8::zero(),
            y: Fp8::one(),
            z: Fp8::zero(),
        }
    }

    /// `other` in the lanes of `mask`, `self` elsewhere.
    #[inline]
    #[lane_features]
    pub(super) fn select(&self, other: &Projective8, mask: u8) -> Projective8 {
        Projective8 {
            x: self.x.select(&other.x, mask),
            y: self.y.select(&other.y, mask),
            z: self.z.select(&other.z, mask),
        }
    }

    /// The points of affine coordinates.
    #[inline]
    #[lane_features]
    pub(super) fn from_affine(p: &Affine8) -> Projective8 {
        Projective8 {
            x: p.x,
            y: p.y,
            z: Fp8::one(),
        }
    }

    /// `self + other`, complete (algorithm 7 of the module's reference):
    /// 6 products, its linear steps unreduced combinations (`3b = 12` as
    /// shifts), and its three coordinates each a pair of products reduced
    /// once (2,688 multiply-adds on IFMA).
    #[lane_features]
    pub(super) fn add(&self, other: &Projective8) -> Projective8 {
        let (x1, y1, z1) = (&self.x, &self.y, &self.z);
        let (x2, y2, z2) = (&other.x, &other.y, &other.z);
        // Products (below 2p).
        let t0 = x1.mul(x2);
        let t1 = y1.mul(y2);
        let t2 = z1.mul(z2);
        let xy = x1.add_lazy(y1).mul(&x2.add_lazy(y2));
        let yz = y1.add_lazy(z1).mul(&y2.add_lazy(z2));
        let xz = x1.add_lazy(z1).mul(&x2.add_lazy(z2));
        // X1·Y2 + X2·Y1 and Y1·Z2 + Y2·Z1, below 6p.
        let t3 = Fp8::combination::<4, 6, 1, 2>([(&xy, 0)], [(&t0, 0), (&t1, 0)]);
        let t4 = Fp8::combination::<4, 6, 1, 2>([(&yz, 0)], [(&t1, 0), (&t2, 0)]);
        // ±3b·(X1·Z2 + X2·Z1) = ±12·(xz − t0 − t2), below 72p.
        let b3_y3 = Fp8::combination::<48, 72, 2, 4>(
            [(&xz, 3), (&xz, 2)],
            [(&t0, 3), (&t0, 2), (&t2, 3), (&t2, 2)],
        );
        let minus_b3_y3 = Fp8::combination::<24, 72, 4, 2>(
            [(&t0, 3), (&t0, 2), (&t2, 3), (&t2, 2)],
            [(&xz, 3), (&xz, 2)],
        );
        let three_t0 = Fp8::combination::<0, 6, 2, 0>([(&t0, 1), (&t0, 0)], []);
        // t1 ± 3b·t2, below 26p.
        let sum = Fp8::combination::<0, 26, 3, 0>([(&t1, 0), (&t2, 3), (&t2, 2)], []);
        let difference = Fp8::combination::<24, 26, 1, 2>([(&t1, 0)], [(&t2, 3), (&t2, 2)]);
        Projective8 {
            x: t3.mul_sum(&difference, &t4, &minus_b3_y3),
            y: difference.mul_sum(&sum, &b3_y3, &three_t0),
            z: t4.mul_sum(&sum, &three_t0, &t3),
        }
    }

    /// `2·self`, complete (algorithm 9 of the module's reference): 2
    /// squares, 4 products (a pair of them reduced once), the linear steps
    /// unreduced (1,808 multiply-adds on IFMA, two thirds of [`Projective8::add`]).
    #[lane_features]
    pub(super) fn double(&self) -> Projective8 {
        let (x, y, z) = (&self.x, &self.y, &self.z);
        let t0 = y.square();
        let t1 = y.mul(z);
        let xy = x.mul(y);
        // 3b·Z² = 12·Z², below 24p.
        let zz = z.square();
        let b3_t2 = Fp8::combination::<0, 24, 2, 0>([(&zz, 3), (&zz, 2)], []);
        // 2·(t0 − 3·b3_t2) below 148p, t0 − 3·b3_t2 below 74p, t0 + b3_t2
        // below 26p, 8·t0 below 16p.
        let twice_t0_minus =
            Fp8::combination::<144, 148, 1, 2>([(&t0, 1)], [(&b3_t2, 2), (&b3_t2, 1)]);
        let t0_minus = Fp8::combination::<72, 74, 1, 2>([(&t0, 0)], [(&b3_t2, 1), (&b3_t2, 0)]);
        let t0_plus = Fp8::combination::<0, 26, 2, 0>([(&t0, 0), (&b3_t2, 0)], []);
        let eight_t0 = Fp8::combination::<0, 16, 1, 0>([(&t0, 3)], []);
        Projective8 {
            x: twice_t0_minus.mul(&xy),
            y: t0_minus.mul_sum(&t0_plus, &b3_t2, &eight_t0),
            z: t1.mul(&eight_t0),
        }
    }

    /// `2^k·self` by complete doublings.
    #[inline]
    #[lane_features]
    pub(super) fn double_times(&self, k: u32) -> Projective8 {
        let mut p = *self;
        for _ in 0..k {
            p = p.double();
        }
        p
    }

    /// The 8 lanes rotated by `K` (lane `i` gets lane `i + K mod 8`).
    #[inline]
    #[lane_features]
    pub(super) fn rotate_lanes<const K: i32>(&self) -> Projective8 {
        Projective8 {
            x: self.x.rotate_lanes::<K>(),
            y: self.y.rotate_lanes::<K>(),
            z: self.z.rotate_lanes::<K>(),
        }
    }

    /// `−self` in the lanes of `mask`.
    #[inline]
    #[lane_features]
    pub(super) fn negate_where(&self, mask: u8) -> Projective8 {
        Projective8 {
            x: self.x,
            y: self.y.negate_where(mask),
            z: self.z,
        }
    }
}

impl LanePoints for Projective8 {
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
