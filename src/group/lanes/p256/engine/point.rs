//! P-256 points (`y² = x³ − 3x + b`), 8 at once, in Jacobian coordinates
//! `(X : Y : Z)` for `(X/Z², Y/Z³)`.
//!
//! The formulas are the fast incomplete ones (doubling `dbl-2001-b`, 3M +
//! 5S; addition `add-2007-bl`, 11M + 5S, or `madd-2007-bl`, 7M + 4S, of an
//! affine point), made safe by the callers, which
//! know from public or masked facts when an operand is the identity and
//! when an addition could be a doubling:
//! - the doubling is exact for every point, the identity (`Z = 0`)
//!   included (P-256 has no point of order 2);
//! - the addition is exact when neither operand is the identity and they
//!   differ, and gives the identity for `P + (−P)`; [`Jacobian8::add`]
//!   takes the operands' identity lanes as masks and answers the other
//!   operand there, and [`Jacobian8::add_or_double`] also replaces the
//!   lanes where the operands are equal by the doubling (the one addition
//!   of a scalar multiplication where that can happen is its last; see
//!   `scalar_mul.rs`);
//! - for public operands only, [`Jacobian8::add_mixed_vartime`] finds the
//!   lanes whose operands share their `x` and only then redoes them (the
//!   doubling, or the identity), exact for every pair (`msm.rs`).

use oblivex_macros::lane_features;

use super::field::{splat, Fe8, B};
use crate::group::lanes::toolkit::PlainLimbs;

/// 8 points in Jacobian coordinates.
#[derive(Clone, Copy)]
pub(super) struct Jacobian8 {
    pub(super) x: Fe8,
    pub(super) y: Fe8,
    pub(super) z: Fe8,
}

// SAFETY: three field elements (`PlainLimbs`), nothing else.
unsafe impl PlainLimbs for Jacobian8 {}

/// 8 points in affine coordinates (a table entry after one shared
/// inversion: an addition of one costs 7M + 4S instead of 11M + 5S).
#[derive(Clone, Copy)]
pub(super) struct Affine8 {
    pub(super) x: Fe8,
    pub(super) y: Fe8,
}

// SAFETY: two field elements (`PlainLimbs`), nothing else.
unsafe impl PlainLimbs for Affine8 {}

impl Affine8 {
    /// `other` in the lanes of `mask`, `self` elsewhere.
    #[lane_features]
    #[inline]
    pub(super) fn select(&self, other: &Affine8, mask: u8) -> Affine8 {
        Affine8 {
            x: self.x.select(&other.x, mask),
            y: self.y.select(&other.y, mask),
        }
    }

    /// `−self` in the lanes of `mask`.
    #[lane_features]
    #[inline]
    pub(super) fn negate_where(&self, mask: u8) -> Affine8 {
        Affine8 {
            x: self.x,
            y: self.y.negate_where(mask),
        }
    }
}

/// The quantities of an addition that reveal its exceptional cases:
/// `H = U2 − U1` and `r = 2(S2 − S1)` are both zero exactly where the
/// operands are equal (neither being the identity).
struct Difference {
    h: Fe8,
    r: Fe8,
}

impl Jacobian8 {
    /// The points of affine coordinates `(x, y)`.
    #[lane_features]
    #[inline]
    pub(super) fn from_affine(x: Fe8, y: Fe8) -> Jacobian8 {
        Jacobian8 {
            x,
            y,
            z: Fe8::one(),
        }
    }

    /// `2·self` (`dbl-2001-b`, for `a = −3`).
    #[lane_features]
    #[inline]
    pub(super) fn double(&self) -> Jacobian8 {
        let delta = self.z.square();
        let gamma = self.y.square();
        let beta = self.x.mul(&gamma);
        let alpha = self.x.sub_times_3(&delta).mul(&self.x.add(&delta));
        let x = alpha.square().sub_times_pow2::<3>(&beta);
        let z = self.y.add(&self.z).square().sub_two::<0>(&gamma, &delta);
        let y = alpha
            .mul(&beta.times_pow2_sub::<2>(&x))
            .sub_times_pow2::<3>(&gamma.square());
        Jacobian8 { x, y, z }
    }

    /// `2^k·self`.
    #[lane_features]
    #[inline]
    pub(super) fn double_times(&self, k: u32) -> Jacobian8 {
        let mut p = *self;
        for _ in 0..k {
            p = p.double();
        }
        p
    }

    /// `add-2007-bl` as is: right unless an operand is the identity or the
    /// operands are equal; also returns `H` and `r` (see [`Difference`]).
    #[lane_features]
    #[inline]
    fn add_incomplete(&self, other: &Jacobian8) -> (Jacobian8, Difference) {
        let z1z1 = self.z.square();
        let z2z2 = other.z.square();
        let u1 = self.x.mul(&z2z2);
        let u2 = other.x.mul(&z1z1);
        let s1 = self.y.mul(&other.z).mul(&z2z2);
        let s2 = other.y.mul(&self.z).mul(&z1z1);
        let h = u2.sub(&u1);
        let i = h.times_pow2::<1>().square();
        let j = h.mul(&i);
        let r = s2.sub(&s1).times_pow2::<1>();
        let v = u1.mul(&i);
        let x = r.square().sub_two::<1>(&j, &v);
        let y = r.mul(&v.sub(&x)).sub_times_pow2::<1>(&s1.mul(&j));
        let z = self
            .z
            .add(&other.z)
            .square()
            .sub_two::<0>(&z1z1, &z2z2)
            .mul(&h);
        (Jacobian8 { x, y, z }, Difference { h, r })
    }

    /// `madd-2007-bl` (`other` affine) as is: right unless an operand is
    /// the identity or the operands are equal; also returns `H` and `r`.
    #[lane_features]
    #[inline]
    fn add_mixed_incomplete(&self, other: &Affine8) -> (Jacobian8, Difference) {
        let z1z1 = self.z.square();
        let u2 = other.x.mul(&z1z1);
        let s2 = other.y.mul(&self.z).mul(&z1z1);
        let h = u2.sub(&self.x);
        let hh = h.square();
        let i = hh.times_pow2::<2>();
        let j = h.mul(&i);
        let r = s2.sub(&self.y).times_pow2::<1>();
        let v = self.x.mul(&i);
        let x = r.square().sub_two::<1>(&j, &v);
        let y = r.mul(&v.sub(&x)).sub_times_pow2::<1>(&self.y.mul(&j));
        let z = self.z.add(&h).square().sub_two::<0>(&z1z1, &hh);
        (Jacobian8 { x, y, z }, Difference { h, r })
    }

    /// As [`Jacobian8::add`] for an affine `other`.
    #[lane_features]
    #[inline]
    pub(super) fn add_mixed(
        &self,
        other: &Affine8,
        self_identity: u8,
        other_identity: u8,
    ) -> Jacobian8 {
        let (sum, _) = self.add_mixed_incomplete(other);
        self.or_operand_where_identity(sum, other, self_identity, other_identity)
    }

    /// `self + other` for *public* operands (variable time in their
    /// exceptional cases), where `self_identity` and `other_identity` are
    /// the lanes where each is the identity: the sum and the lanes where it
    /// is the identity. Right for every pair of operands: where some lane's
    /// operands share their `x` (`H = 0`, which an honest batch meets with
    /// probability about 2^-250, and a malicious server's points may
    /// force), equal operands get the doubling and opposite ones the
    /// identity; only then is `r` tested and the doubling computed.
    #[lane_features]
    #[inline]
    pub(super) fn add_mixed_vartime(
        &self,
        other: &Affine8,
        self_identity: u8,
        other_identity: u8,
    ) -> (Jacobian8, u8) {
        let (sum, difference) = self.add_mixed_incomplete(other);
        let sum = self.or_operand_where_identity(sum, other, self_identity, other_identity);
        let identity = self_identity & other_identity;
        let same_x = difference.h.is_zero() & !(self_identity | other_identity);
        if same_x == 0 {
            return (sum, identity);
        }
        let equal = same_x & difference.r.is_zero();
        (
            sum.select(&self.double(), equal),
            identity | (same_x & !equal),
        )
    }

    /// As [`Jacobian8::add_or_double`] for an affine `other`.
    #[lane_features]
    pub(super) fn add_mixed_or_double(
        &self,
        other: &Affine8,
        self_identity: u8,
        other_identity: u8,
    ) -> Jacobian8 {
        let (sum, difference) = self.add_mixed_incomplete(other);
        let equal = difference.h.is_zero() & difference.r.is_zero();
        let sum = sum.select(&self.double(), equal);
        self.or_operand_where_identity(sum, other, self_identity, other_identity)
    }

    /// `sum` (of `self` and an affine `other`), with the other operand in
    /// the lanes where one is the identity (`self_identity`,
    /// `other_identity`): `other` where `self` is, else `self` where
    /// `other` is.
    #[lane_features]
    #[inline]
    fn or_operand_where_identity(
        &self,
        sum: Jacobian8,
        other: &Affine8,
        self_identity: u8,
        other_identity: u8,
    ) -> Jacobian8 {
        sum.select(&Jacobian8::from_affine(other.x, other.y), self_identity)
            .select(self, other_identity & !self_identity)
    }

    /// `self + other`, where `self_identity` and `other_identity` are the
    /// lanes where each operand is the identity (their coordinates there
    /// are ignored), for operands that differ in the other lanes.
    #[lane_features]
    #[inline]
    pub(super) fn add(
        &self,
        other: &Jacobian8,
        self_identity: u8,
        other_identity: u8,
    ) -> Jacobian8 {
        let (sum, _) = self.add_incomplete(other);
        sum.select(other, self_identity)
            .select(self, other_identity & !self_identity)
    }

    /// As [`Jacobian8::add`], right also where the operands are equal
    /// (the doubling is computed too and taken in those lanes).
    #[lane_features]
    pub(super) fn add_or_double(
        &self,
        other: &Jacobian8,
        self_identity: u8,
        other_identity: u8,
    ) -> Jacobian8 {
        let (sum, difference) = self.add_incomplete(other);
        let equal = difference.h.is_zero() & difference.r.is_zero();
        sum.select(&self.double(), equal)
            .select(other, self_identity)
            .select(self, other_identity & !self_identity)
    }

    /// `other` in the lanes of `mask`, `self` elsewhere.
    #[lane_features]
    #[inline]
    pub(super) fn select(&self, other: &Jacobian8, mask: u8) -> Jacobian8 {
        Jacobian8 {
            x: self.x.select(&other.x, mask),
            y: self.y.select(&other.y, mask),
            z: self.z.select(&other.z, mask),
        }
    }
}

/// `x³ − 3x + b`.
#[lane_features]
#[inline]
pub(super) fn curve_rhs(x: &Fe8) -> Fe8 {
    x.square().mul(x).sub(&x.times_3()).add(&splat(B))
}
