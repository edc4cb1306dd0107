//! BLS12-381 G1 points (`y² = x³ + 4` over GF(p)), 8 at once, in Jacobian
//! coordinates `(X : Y : Z)` for `(X/Z², Y/Z³)`.
//!
//! The formulas are the fast incomplete ones for `a = 0` (doubling
//! `dbl-2009-l`, 2M + 5S; mixed addition `madd-2007-bl`, 7M + 4S, of an
//! affine point), made exact by their callers, which know from public or
//! masked facts when an operand is the identity and when an addition could
//! meet equal or opposite operands:
//! - the doubling is exact for every point, the identity (`Z = 0`)
//!   included: `E(GF(p))` has no point of order 2 (its order `h·r` is
//!   odd), so `Y ≠ 0` on every finite point;
//! - the addition is exact when neither operand is the identity and they
//!   differ, and gives `Z = 0`, the identity, for `P + (−P)` (`Z₃` is a
//!   multiple of `H = 0`); [`Jacobian8::add_mixed`] takes the operands'
//!   identity lanes as masks and answers the other operand there, and
//!   [`Jacobian8::add_mixed_or_double`] also replaces the lanes where the
//!   operands are equal by the doubling. Where those cases can happen is
//!   argued in `scalar_mul.rs` (secret scalars) and `codec.rs` (the
//!   subgroup check, on public points).

use core::arch::x86_64::*;

use super::field::{splat, Fp8, LIMBS};
use crate::group::lanes::toolkit::{LanePoints, PlainLimbs};

/// `b = 4` of the curve equation, in Montgomery form.
const B: [u64; LIMBS] = [
    0xc203aa3a7e6bb,
    0x99c5b63f91e5d,
    0xec2218e49b9f5,
    0xb47d6b297d25b,
    0x36f29b533dd05,
    0xaac3b92d6d85a,
    0x25d100f5559b6,
    0x5208,
];

/// β, a primitive cube root of unity mod p, in Montgomery form: `(x, y) ↦
/// (βx, y)` multiplies the points of G1 by `λ = u² − 1` (the GLV
/// endomorphism; blst's `beta`).
pub(super) const BETA: [u64; LIMBS] = [
    0xa424657e25648,
    0xc75706049e739,
    0xb59085299e0e2,
    0xd9cf17286a964,
    0x069ec7cb33aa8,
    0x35e995b239c7e,
    0x82faa0ff3c329,
    0x17601,
];

/// β² in Montgomery form (the subgroup check's `σ²`).
pub(super) const BETA_SQUARED: [u64; LIMBS] = [
    0xd75aaff33455f,
    0xd095356b7cbb6,
    0x953a2f6fa079f,
    0x1080cf0a3d697,
    0x3f7de3465fe7c,
    0x01f71fd6896ec,
    0xd9dd9cc172747,
    0x7d91,
];

/// 8 points in Jacobian coordinates.
#[derive(Clone, Copy)]
pub(super) struct Jacobian8 {
    pub(super) x: Fp8,
    pub(super) y: Fp8,
    pub(super) z: Fp8,
}

// SAFETY: three field elements (`PlainLimbs`), nothing else.
unsafe impl PlainLimbs for Jacobian8 {}

/// 8 points in affine coordinates (table entries after one shared
/// inversion).
#[derive(Clone, Copy)]
pub(super) struct Affine8 {
    pub(super) x: Fp8,
    pub(super) y: Fp8,
}

// SAFETY: two field elements (`PlainLimbs`), nothing else.
unsafe impl PlainLimbs for Affine8 {}

impl Affine8 {
    /// `−self` in the lanes of `mask`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(super) fn negate_where(&self, mask: __mmask8) -> Affine8 {
        Affine8 {
            x: self.x,
            y: self.y.negate_where(mask),
        }
    }

    /// `(βx, y)`: λ times the points (of G1).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(super) fn endomorphism(&self) -> Affine8 {
        Affine8 {
            x: self.x.mul(&splat(BETA)),
            y: self.y,
        }
    }
}

impl LanePoints for Affine8 {
    unsafe fn negated_where(&self, mask: __mmask8) -> Self {
        // SAFETY: the caller's CPU has the features (trait contract).
        unsafe { self.negate_where(mask) }
    }
}

/// The quantities of an addition that reveal its exceptional cases:
/// `H = U2 − X1` and `r = 2(S2 − Y1)` are both zero exactly where the
/// operands are equal (neither being the identity), and `H` alone where
/// they are opposite.
pub(super) struct Difference {
    pub(super) h: Fp8,
    pub(super) r: Fp8,
}

impl Jacobian8 {
    /// The points of affine coordinates `(x, y)`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(super) fn from_affine(p: &Affine8) -> Jacobian8 {
        Jacobian8 {
            x: p.x,
            y: p.y,
            z: Fp8::one(),
        }
    }

    /// `2·self` (`dbl-2009-l`, `a = 0`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(super) fn double(&self) -> Jacobian8 {
        let a = self.x.square();
        let b = self.y.square();
        let c = b.square();
        let d = self.x.add_lazy(&b).square().sub(&a).sub(&c).double();
        // 3A, only multiplied: unreduced.
        let e = a.add_lazy(&a).add_lazy(&a);
        let f = e.square();
        let x = f.sub(&d.double());
        let eight_c = c.double().double().double();
        let y = e.mul(&d.sub_lazy(&x)).sub(&eight_c);
        let z = self.y.add_lazy(&self.y).mul(&self.z);
        Jacobian8 { x, y, z }
    }

    /// `2^k·self`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(super) fn double_times(&self, k: u32) -> Jacobian8 {
        let mut p = *self;
        for _ in 0..k {
            p = p.double();
        }
        p
    }

    /// `madd-2007-bl` (`other` affine) as is: right unless an operand is
    /// the identity or the operands are equal; also returns `H` and `r`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(super) fn add_mixed_incomplete(&self, other: &Affine8) -> (Jacobian8, Difference) {
        let z1z1 = self.z.square();
        let u2 = other.x.mul(&z1z1);
        let s2 = other.y.mul(&self.z).mul(&z1z1);
        let h = u2.sub(&self.x);
        let hh = h.square();
        // 4HH and r, only multiplied (and r tested for zero): unreduced.
        let two_hh = hh.add_lazy(&hh);
        let i = two_hh.add_lazy(&two_hh);
        let j = h.mul(&i);
        let half_r = s2.sub_lazy(&self.y);
        let r = half_r.add_lazy(&half_r);
        let v = self.x.mul(&i);
        let x = r.square().sub(&j).sub(&v.double());
        let y = r.mul(&v.sub_lazy(&x)).sub(&self.y.mul(&j).double());
        let z = self.z.add_lazy(&h).square().sub(&z1z1).sub(&hh);
        (Jacobian8 { x, y, z }, Difference { h, r })
    }

    /// `self + other` for an affine `other`, where `self_identity` and
    /// `other_identity` are the lanes where each operand is the identity
    /// (their coordinates there are ignored), for operands that are not
    /// equal in the other lanes (opposite ones give `Z = 0`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(super) fn add_mixed(
        &self,
        other: &Affine8,
        self_identity: __mmask8,
        other_identity: __mmask8,
    ) -> Jacobian8 {
        let (sum, _) = self.add_mixed_incomplete(other);
        sum.select(&Jacobian8::from_affine(other), self_identity)
            .select(self, other_identity & !self_identity)
    }

    /// As [`Jacobian8::add_mixed`], right also where the operands are
    /// equal (the doubling is computed too and taken in those lanes).
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(super) fn add_mixed_or_double(
        &self,
        other: &Affine8,
        self_identity: __mmask8,
        other_identity: __mmask8,
    ) -> Jacobian8 {
        let (sum, difference) = self.add_mixed_incomplete(other);
        let equal = difference.h.is_zero() & difference.r.is_zero();
        sum.select(&self.double(), equal)
            .select(&Jacobian8::from_affine(other), self_identity)
            .select(self, other_identity & !self_identity)
    }

    /// `add-2007-bl` as is: right unless an operand is the identity or the
    /// operands are equal; also returns `H` and `r` (here `H = U2 − U1`,
    /// `r = 2(S2 − S1)`, with the same meaning as in [`Difference`]).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    fn add_incomplete(&self, other: &Jacobian8) -> (Jacobian8, Difference) {
        let z1z1 = self.z.square();
        let z2z2 = other.z.square();
        let u1 = self.x.mul(&z2z2);
        let u2 = other.x.mul(&z1z1);
        let s1 = self.y.mul(&other.z).mul(&z2z2);
        let s2 = other.y.mul(&self.z).mul(&z1z1);
        let h = u2.sub(&u1);
        let two_h = h.add_lazy(&h);
        let i = two_h.square();
        let j = h.mul(&i);
        let half_r = s2.sub_lazy(&s1);
        let r = half_r.add_lazy(&half_r);
        let v = u1.mul(&i);
        let x = r.square().sub(&j).sub(&v.double());
        let y = r.mul(&v.sub_lazy(&x)).sub(&s1.mul(&j).double());
        let z = self
            .z
            .add_lazy(&other.z)
            .square()
            .sub(&z1z1)
            .sub(&z2z2)
            .mul(&h);
        (Jacobian8 { x, y, z }, Difference { h, r })
    }

    /// `self + other` for every pair of points, the identity included:
    /// the lanes where an operand is the identity (`Z = 0`) take the other
    /// operand, those where they are equal the doubling, and opposite ones
    /// give `Z = 0`. Every case is a mask, computed in every lane
    /// (constant time: the hash to the curve adds secret points).
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(super) fn add_or_double(&self, other: &Jacobian8) -> Jacobian8 {
        let self_identity = self.z.is_zero();
        let other_identity = other.z.is_zero();
        let (sum, difference) = self.add_incomplete(other);
        let equal = difference.h.is_zero() & difference.r.is_zero();
        sum.select(&self.double(), equal)
            .select(other, self_identity)
            .select(self, other_identity & !self_identity)
    }

    /// `other` in the lanes of `mask`, `self` elsewhere.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(super) fn select(&self, other: &Jacobian8, mask: __mmask8) -> Jacobian8 {
        Jacobian8 {
            x: self.x.select(&other.x, mask),
            y: self.y.select(&other.y, mask),
            z: self.z.select(&other.z, mask),
        }
    }
}

/// `x³ + 4`.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn curve_rhs(x: &Fp8) -> Fp8 {
    x.square().mul(x).add(&splat(B))
}
