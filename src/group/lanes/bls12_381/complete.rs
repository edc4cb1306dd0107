//! BLS12-381 G1 points, 8 at once, in homogeneous projective coordinates
//! `(X : Y : Z)` for `(X/Z, Y/Z)`, with the complete addition of Renes,
//! Costello and Batina (eprint 2015/1060, algorithm 7 for `a = 0`, `3b =
//! 12`): right for every pair of points of `E(GF(p))`, the identity `(0 :
//! 1 : 0)` and equal operands included, with no lane mask. For sums of
//! points a malicious server may have chosen (`msm.rs`), where any two
//! partial sums could meet; 12 multiplications and one by `3b` per
//! addition.

use core::arch::x86_64::__mmask8;

use super::field::{splat, Fp8, LIMBS};
use super::point::Affine8;
use crate::group::lanes::toolkit::{LanePoints, PlainLimbs};

/// `3b = 12` in Montgomery form.
const B3: [u64; LIMBS] = [
    0x460afeaf7b431,
    0xcd5122beb5b19,
    0xc4664aadd2de0,
    0x1d78417c77713,
    0xa4d7d1f9b9711,
    0x004b2b884890e,
    0x717302e000d24,
    0xf618,
];

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
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(super) fn identity() -> Projective8 {
        Projective8 {
            x: Fp8::zero(),
            y: Fp8::one(),
            z: Fp8::zero(),
        }
    }

    /// The points of affine coordinates.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(super) fn from_affine(p: &Affine8) -> Projective8 {
        Projective8 {
            x: p.x,
            y: p.y,
            z: Fp8::one(),
        }
    }

    /// `self + other`, complete (algorithm 7 of the module's reference).
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(super) fn add(&self, other: &Projective8) -> Projective8 {
        let (x1, y1, z1) = (&self.x, &self.y, &self.z);
        let (x2, y2, z2) = (&other.x, &other.y, &other.z);
        let t0 = x1.mul(x2);
        let t1 = y1.mul(y2);
        let t2 = z1.mul(z2);
        let t3 = x1.add_lazy(y1).mul(&x2.add_lazy(y2)).sub(&t0).sub(&t1);
        let t4 = y1.add_lazy(z1).mul(&y2.add_lazy(z2)).sub(&t1).sub(&t2);
        let y3 = x1.add_lazy(z1).mul(&x2.add_lazy(z2)).sub(&t0).sub(&t2);
        // 3·t0 and 12·y3, only multiplied: unreduced.
        let three_t0 = t0.add_lazy(&t0).add_lazy(&t0);
        let three_y3 = y3.add_lazy(&y3).add_lazy(&y3);
        let six_y3 = three_y3.add_lazy(&three_y3);
        let twelve_y3 = six_y3.add_lazy(&six_y3);
        let b3_t2 = t2.mul(&splat(B3));
        let z3 = t1.add_lazy(&b3_t2);
        let t1 = t1.sub_lazy(&b3_t2);
        Projective8 {
            x: t3.mul(&t1).sub(&t4.mul(&twelve_y3)),
            y: t1.mul(&z3).add(&twelve_y3.mul(&three_t0)),
            z: t4.mul(&z3).add(&three_t0.mul(&t3)),
        }
    }

    /// `2^k·self` by complete additions.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(super) fn double_times(&self, k: u32) -> Projective8 {
        let mut p = *self;
        for _ in 0..k {
            p = p.add(&p);
        }
        p
    }

    /// The 8 lanes rotated by `K` (lane `i` gets lane `i + K mod 8`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(super) fn rotate_lanes<const K: i32>(&self) -> Projective8 {
        use core::arch::x86_64::_mm512_alignr_epi64;
        let rotate = |f: &Fp8| Fp8(f.0.map(|l| _mm512_alignr_epi64::<K>(l, l)));
        Projective8 {
            x: rotate(&self.x),
            y: rotate(&self.y),
            z: rotate(&self.z),
        }
    }

    /// `−self` in the lanes of `mask`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(super) fn negate_where(&self, mask: __mmask8) -> Projective8 {
        Projective8 {
            x: self.x,
            y: self.y.negate_where(mask),
            z: self.z,
        }
    }
}

impl LanePoints for Projective8 {
    unsafe fn negated_where(&self, mask: __mmask8) -> Self {
        // SAFETY: the caller's CPU has the features (trait contract).
        unsafe { self.negate_where(mask) }
    }
}
