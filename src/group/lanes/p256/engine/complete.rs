//! P-256 points, 8 at once, in homogeneous projective coordinates `(X :
//! Y : Z)` for `(X/Z, Y/Z)`, with the complete addition of Renes,
//! Costello and Batina (eprint 2015/1060, algorithm 4 for `a = −3`): right
//! for every pair of operands, the identity `(0 : 1 : 0)` and equal
//! operands included, with no lane mask. For sums of points a malicious
//! server may have chosen (`msm.rs`), where any two partial sums could
//! meet; 12 multiplications and 2 by `b` per addition, and a doubling of
//! its own (algorithm 6: 8 multiplications, 3 squarings and 2 by `b`).

use oblivex_macros::lane_features;

use super::field::{splat, Fe8, B};
use super::point::Jacobian8;
use crate::group::lanes::toolkit::{LanePoints, PlainLimbs};

/// 8 points in homogeneous projective coordinates.
#[derive(Clone, Copy)]
pub(super) struct Projective8 {
    x: Fe8,
    y: Fe8,
    z: Fe8,
}

// SAFETY: three field elements (`PlainLimbs`), nothing else.
unsafe impl PlainLimbs for Projective8 {}

impl Projective8 {
    /// The identity `(0 : 1 : 0)` in every lane.
    #[lane_features]
    #[inline]
    pub(super) fn identity() -> Projective8 {
        Projective8 {
            x: Fe8::zero(),
            y: Fe8::one(),
            z: Fe8::zero(),
        }
    }

    /// The points `(X/Z², Y/Z³)` of Jacobian coordinates: `(X·Z : Y : Z³)`
    /// (the identity, `Z = 0`, gives `(0 : Y : 0)`, the identity).
    #[lane_features]
    #[inline]
    pub(super) fn from_jacobian(p: &Jacobian8) -> Projective8 {
        Projective8 {
            x: p.x.mul(&p.z),
            y: p.y,
            z: p.z.square().mul(&p.z),
        }
    }

    /// The same points in Jacobian coordinates, `(X·Z, Y·Z², Z)`.
    #[lane_features]
    #[inline]
    pub(super) fn to_jacobian(self) -> Jacobian8 {
        Jacobian8 {
            x: self.x.mul(&self.z),
            y: self.y.mul(&self.z.square()),
            z: self.z,
        }
    }

    /// `self + other`, complete (algorithm 4 of the module's reference,
    /// step by step).
    #[lane_features]
    pub(super) fn add(&self, other: &Projective8) -> Projective8 {
        let b = splat(B);
        let (x1, y1, z1) = (&self.x, &self.y, &self.z);
        let (x2, y2, z2) = (&other.x, &other.y, &other.z);
        let t0 = x1.mul(x2);
        let t1 = y1.mul(y2);
        let t2 = z1.mul(z2);
        let t3 = x1.add(y1).mul(&x2.add(y2)).sub_two::<0>(&t0, &t1);
        let t4 = y1.add(z1).mul(&y2.add(z2)).sub_two::<0>(&t1, &t2);
        let y3 = x1.add(z1).mul(&x2.add(z2)).sub_two::<0>(&t0, &t2);
        let x3 = y3.sub_times_3(&b.mul(&t2));
        let z3 = t1.sub(&x3);
        let x3 = t1.add(&x3);
        let t2 = t2.times_3();
        let y3 = b.mul(&y3).sub_two::<0>(&t2, &t0).times_3();
        let t0 = t0.times_3().sub(&t2);
        Projective8 {
            x: t3.mul(&x3).sub(&t4.mul(&y3)),
            y: x3.mul(&z3).add(&t0.mul(&y3)),
            z: t4.mul(&z3).add(&t3.mul(&t0)),
        }
    }

    /// `2·self`, complete (algorithm 6 of the module's reference, the
    /// doubling for `a = −3`, right for the identity too): 8
    /// multiplications, 3 squarings and 2 by `b`, where the addition of a
    /// point to itself takes 12 multiplications and 2 by `b`.
    #[lane_features]
    pub(super) fn double(&self) -> Projective8 {
        let b = splat(B);
        let (x, y, z) = (&self.x, &self.y, &self.z);
        let xx = x.square();
        let yy = y.square();
        let zz = z.square();
        let xy2 = x.mul(y).times_pow2::<1>();
        let xz2 = x.mul(z).times_pow2::<1>();
        // 3·(b·Z² − 2XZ).
        let bzz3 = b.mul(&zz).sub_times_3(&xz2);
        let yy_minus = yy.sub(&bzz3);
        let yy_plus = yy.add(&bzz3);
        // 3·(2b·XZ − 3Z² − X²).
        let bxz6 = b.mul(&xz2).sub_two::<0>(&zz.times_3(), &xx).times_3();
        let yz2 = y.mul(z).times_pow2::<1>();
        Projective8 {
            x: yy_minus.mul(&xy2).sub(&bxz6.mul(&yz2)),
            y: yy_plus.mul(&yy_minus).add(&xx.sub_times_3(&zz).mul(&bxz6)),
            z: yz2.mul(&yy).times_pow2::<2>(),
        }
    }

    /// `2^k·self` by complete doublings.
    #[lane_features]
    #[inline]
    pub(super) fn double_times(&self, k: u32) -> Projective8 {
        let mut p = *self;
        for _ in 0..k {
            p = p.double();
        }
        p
    }

    /// The 8 lanes rotated by `K` (lane `i` gets lane `i + K mod 8`;
    /// `K` ∈ {1, 2, 4}).
    #[lane_features]
    #[inline]
    pub(super) fn rotate_lanes<const K: i32>(&self) -> Projective8 {
        Projective8 {
            x: self.x.rotate_lanes::<K>(),
            y: self.y.rotate_lanes::<K>(),
            z: self.z.rotate_lanes::<K>(),
        }
    }

    /// `other` in the lanes of `mask`, `self` elsewhere.
    #[lane_features]
    #[inline]
    pub(super) fn select(&self, other: &Projective8, mask: u8) -> Projective8 {
        Projective8 {
            x: self.x.select(&other.x, mask),
            y: self.y.select(&other.y, mask),
            z: self.z.select(&other.z, mask),
        }
    }

    /// `−self` in the lanes of `mask`.
    #[lane_features]
    #[inline]
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
