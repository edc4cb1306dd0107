//! BLS12-381 G1 points (`y² = x³ + 4` over GF(p)), 8 at once, in Jacobian
//! coordinates `(X : Y : Z)` for `(X/Z², Y/Z³)`.
//!
//! The formulas are the fast incomplete ones for `a = 0` (doubling
//! `dbl-2009-l`, `D = 4XB` as a product: 3S + 4M, two of them reduced
//! together; mixed addition `madd-2007-bl`, 7M + 4S, of an affine point,
//! and addition `add-2007-bl`, 11M + 5S, two of them reduced together in
//! each), made exact by their callers, which know from public or masked
//! facts when an operand is the identity and when an addition could meet
//! equal or opposite operands:
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
//!
//! Bounds. The formulas' linear steps are unreduced (`Fp8::combination`:
//! one carry, no subtraction of `2p`), and Y3 sums two products before
//! one reduction (`Fp8::mul_sum`), so a point's coordinates are below
//! `18p` (X), `2p` (Y) and `6p` (Z) (the additions' X below `8p`): they only
//! feed products (which take operands up to `2^11·p` on AVX2, `2^17·p` on
//! IFMA), the formulas' combinations (whose biases cover those bounds),
//! selections and zero tests. Each combination's bound is asserted in debug
//! builds.

use oblivex_macros::lane_features;

use super::field::{constant, splat, Constant, Fp8};
use crate::group::lanes::toolkit::{LanePoints, PlainLimbs, LANES};

/// `b = 4` of the curve equation, in Montgomery form.
const B: Constant = constant([
    0xc203aa3a7e6bb,
    0x99c5b63f91e5d,
    0xec2218e49b9f5,
    0xb47d6b297d25b,
    0x36f29b533dd05,
    0xaac3b92d6d85a,
    0x25d100f5559b6,
    0x5208,
]);

/// β, a primitive cube root of unity mod p, in Montgomery form: `(x, y) ↦
/// (βx, y)` multiplies the points of G1 by `λ = u² − 1` (the GLV
/// endomorphism; blst's `beta`).
pub(super) const BETA: Constant = constant([
    0xa424657e25648,
    0xc75706049e739,
    0xb59085299e0e2,
    0xd9cf17286a964,
    0x069ec7cb33aa8,
    0x35e995b239c7e,
    0x82faa0ff3c329,
    0x17601,
]);

/// β² in Montgomery form (the subgroup check's `σ²`).
pub(super) const BETA_SQUARED: Constant = constant([
    0xd75aaff33455f,
    0xd095356b7cbb6,
    0x953a2f6fa079f,
    0x1080cf0a3d697,
    0x3f7de3465fe7c,
    0x01f71fd6896ec,
    0xd9dd9cc172747,
    0x7d91,
]);

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
    /// The lanes' canonical coordinates (below p), as 48 big-endian bytes
    /// each.
    #[lane_features]
    pub(super) fn canonical_coordinates(&self) -> ([[u8; 48]; LANES], [[u8; 48]; LANES]) {
        (self.x.be_bytes_each(), self.y.be_bytes_each())
    }

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
    #[inline]
    #[lane_features]
    pub(super) fn negate_where(&self, mask: u8) -> Affine8 {
        Affine8 {
            x: self.x,
            y: self.y.negate_where(mask),
        }
    }

    /// `(βx, y)`: λ times the points (of G1).
    #[inline]
    #[lane_features]
    pub(super) fn endomorphism(&self) -> Affine8 {
        Affine8 {
            x: self.x.mul(&splat(BETA)),
            y: self.y,
        }
    }
}

impl LanePoints for Affine8 {
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
    #[lane_features]
    pub(super) fn from_affine(p: &Affine8) -> Jacobian8 {
        Jacobian8 {
            x: p.x,
            y: p.y,
            z: Fp8::one(),
        }
    }

    /// `2·self` (`dbl-2009-l`, `a = 0`, as 3S, 2M and a sum of two
    /// products reduced once: 1,496 multiply-adds on IFMA), its linear steps unreduced (`Fp8::combination`;
    /// bounds in multiples of p in the comments).
    #[inline]
    #[lane_features]
    pub(super) fn double(&self) -> Jacobian8 {
        let a = self.x.square();
        let b = self.y.square();
        // D = 4·X·B (a product rather than (X + B)² − A − C: then C = B²
        // is not needed, and Y3's two products share one reduction).
        let xb = self.x.mul(&b);
        // E = 3A < 6.
        let e = Fp8::combination::<0, 6, 2, 0>([(&a, 0), (&a, 1)], []);
        // X3 = E² − 2D < 18.
        let x = Fp8::combination::<16, 18, 1, 1>([(&e.square(), 0)], [(&xb, 3)]);
        // Y3 = E·(D − X3) − 8C = E·(D − X3) + B·(16p − 8B) < 2, one
        // reduction (D − X3 < 26, 16p − 8B ≤ 16: 6·26 + 2·16 < 2^25 < R/p).
        let d_minus_x = Fp8::combination::<18, 26, 1, 1>([(&xb, 2)], [(&x, 0)]);
        let minus_eight_b = Fp8::combination::<16, 17, 0, 1>([], [(&b, 3)]);
        let y = e.mul_sum(&d_minus_x, &b, &minus_eight_b);
        let z = self.y.add_lazy(&self.y).mul(&self.z);
        Jacobian8 { x, y, z }
    }

    /// `2^k·self`.
    #[inline]
    #[lane_features]
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
    #[lane_features]
    pub(super) fn add_mixed_incomplete(&self, other: &Affine8) -> (Jacobian8, Difference) {
        let z1z1 = self.z.square();
        let u2 = other.x.mul(&z1z1);
        let s2 = other.y.mul(&self.z).mul(&z1z1);
        // H = U2 − X1 < 20, HH < 2, I = 4HH < 8.
        let h = Fp8::combination::<18, 20, 1, 1>([(&u2, 0)], [(&self.x, 0)]);
        let hh = h.square();
        let i = Fp8::combination::<0, 8, 1, 0>([(&hh, 2)], []);
        let j = h.mul(&i);
        // r = 2(S2 − Y1) < 8.
        let r = Fp8::combination::<4, 8, 1, 1>([(&s2, 1)], [(&self.y, 1)]);
        let v = self.x.mul(&i);
        // X3 = r² − J − 2V < 8.
        let x = Fp8::combination::<6, 8, 1, 2>([(&r.square(), 0)], [(&j, 0), (&v, 1)]);
        // Y3 = r·(V − X3) + Y1·(4p − 2J) < 2, one reduction for the two
        // products (V − X3 < 10, 4p − 2J ≤ 4: 8·10 + 2·4 < 2^25 < R/p).
        let v_minus_x = Fp8::combination::<8, 10, 1, 1>([(&v, 0)], [(&x, 0)]);
        let minus_two_j = Fp8::combination::<4, 5, 0, 1>([], [(&j, 1)]);
        let y = r.mul_sum(&v_minus_x, &self.y, &minus_two_j);
        // Z3 = (Z1 + H)² − Z1Z1 − HH < 6.
        let z = Fp8::combination::<4, 6, 1, 2>(
            [(&self.z.add_lazy(&h).square(), 0)],
            [(&z1z1, 0), (&hh, 0)],
        );
        (Jacobian8 { x, y, z }, Difference { h, r })
    }

    /// `self + other` for an affine `other`, where `self_identity` and
    /// `other_identity` are the lanes where each operand is the identity
    /// (their coordinates there are ignored), for operands that are not
    /// equal in the other lanes (opposite ones give `Z = 0`).
    #[inline]
    #[lane_features]
    pub(super) fn add_mixed(
        &self,
        other: &Affine8,
        self_identity: u8,
        other_identity: u8,
    ) -> Jacobian8 {
        let (sum, _) = self.add_mixed_incomplete(other);
        sum.select(&Jacobian8::from_affine(other), self_identity)
            .select(self, other_identity & !self_identity)
    }

    /// As [`Jacobian8::add_mixed`], right also where the operands are
    /// equal (the doubling is computed too and taken in those lanes).
    #[lane_features]
    pub(super) fn add_mixed_or_double(
        &self,
        other: &Affine8,
        self_identity: u8,
        other_identity: u8,
    ) -> Jacobian8 {
        let (sum, difference) = self.add_mixed_incomplete(other);
        let equal = difference.h.is_zero() & difference.r.is_zero();
        sum.select(&self.double(), equal)
            .select(&Jacobian8::from_affine(other), self_identity)
            .select(self, other_identity & !self_identity)
    }

    /// `add-2007-bl` as is: right unless an operand is the identity or the
    /// operands are equal; also returns `H` and `r` (here `H = U2 − U1`,
    /// `r = 2(S2 − S1)`, with the same meaning as in [`Difference`]). Its
    /// linear steps unreduced, as in [`Jacobian8::add_mixed_incomplete`].
    #[inline]
    #[lane_features]
    pub(super) fn add_incomplete(&self, other: &Jacobian8) -> (Jacobian8, Difference) {
        let z1z1 = self.z.square();
        let z2z2 = other.z.square();
        let u1 = self.x.mul(&z2z2);
        let u2 = other.x.mul(&z1z1);
        let s1 = self.y.mul(&other.z).mul(&z2z2);
        let s2 = other.y.mul(&self.z).mul(&z1z1);
        // H = U2 − U1 < 4, I = (2H)² = 4HH < 8.
        let h = Fp8::combination::<2, 4, 1, 1>([(&u2, 0)], [(&u1, 0)]);
        let hh = h.square();
        let i = Fp8::combination::<0, 8, 1, 0>([(&hh, 2)], []);
        let j = h.mul(&i);
        // r = 2(S2 − S1) < 8.
        let r = Fp8::combination::<4, 8, 1, 1>([(&s2, 1)], [(&s1, 1)]);
        let v = u1.mul(&i);
        // X3 = r² − J − 2V < 8.
        let x = Fp8::combination::<6, 8, 1, 2>([(&r.square(), 0)], [(&j, 0), (&v, 1)]);
        // Y3 = r·(V − X3) + S1·(4p − 2J) < 2, one reduction for the two
        // products (V − X3 < 10, 4p − 2J ≤ 4: 8·10 + 2·4 < 2^25 < R/p).
        let v_minus_x = Fp8::combination::<8, 10, 1, 1>([(&v, 0)], [(&x, 0)]);
        let minus_two_j = Fp8::combination::<4, 5, 0, 1>([], [(&j, 1)]);
        let y = r.mul_sum(&v_minus_x, &s1, &minus_two_j);
        // Z3 = ((Z1 + Z2)² − Z1Z1 − Z2Z2)·H < 2 (the difference < 6).
        let z = Fp8::combination::<4, 6, 1, 2>(
            [(&self.z.add_lazy(&other.z).square(), 0)],
            [(&z1z1, 0), (&z2z2, 0)],
        )
        .mul(&h);
        (Jacobian8 { x, y, z }, Difference { h, r })
    }

    /// `self + other` for every pair of points, the identity included:
    /// the lanes where an operand is the identity (`Z = 0`) take the other
    /// operand, those where they are equal the doubling, and opposite ones
    /// give `Z = 0`. Every case is a mask, computed in every lane
    /// (constant time: the hash to the curve adds secret points).
    #[lane_features]
    pub(super) fn add_or_double(&self, other: &Jacobian8) -> Jacobian8 {
        let (sum, difference) = self.add_incomplete(other);
        let equal = difference.h.is_zero() & difference.r.is_zero();
        sum.select(&self.double(), equal).or_operand(
            self,
            self.z.is_zero(),
            other,
            other.z.is_zero(),
        )
    }

    /// As [`Jacobian8::add_or_double`] for public points (the subgroup
    /// check's): the doubling is computed only for a vector where some
    /// lane needs it, so the time depends on the points.
    #[lane_features]
    pub(super) fn add_or_double_vartime(&self, other: &Jacobian8) -> Jacobian8 {
        let (sum, difference) = self.add_incomplete(other);
        let (self_identity, other_identity) = (self.z.is_zero(), other.z.is_zero());
        let equal = difference.h.is_zero() & difference.r.is_zero();
        let sum = if equal & !self_identity & !other_identity != 0 {
            sum.select(&self.double(), equal)
        } else {
            sum
        };
        sum.or_operand(self, self_identity, other, other_identity)
    }

    /// `self` (a sum of `a` and `b`) where neither operand is the identity,
    /// `b` where `a` is, and `a` where only `b` is (the identities' lanes
    /// given: each zero test is a reduction).
    #[inline]
    #[lane_features]
    fn or_operand(
        &self,
        a: &Jacobian8,
        a_identity: u8,
        b: &Jacobian8,
        b_identity: u8,
    ) -> Jacobian8 {
        self.select(b, a_identity)
            .select(a, b_identity & !a_identity)
    }

    /// The affine points, given `1/Z` (`inverse`; lanes where `Z = 0` give
    /// zeros).
    #[inline]
    #[lane_features]
    pub(super) fn affine(&self, inverse: &Fp8) -> Affine8 {
        affine_of(&self.x, &self.y, inverse)
    }

    /// `other` in the lanes of `mask`, `self` elsewhere.
    #[inline]
    #[lane_features]
    pub(super) fn select(&self, other: &Jacobian8, mask: u8) -> Jacobian8 {
        Jacobian8 {
            x: self.x.select(&other.x, mask),
            y: self.y.select(&other.y, mask),
            z: self.z.select(&other.z, mask),
        }
    }
}

/// `(X/Z², Y/Z³)` for the Jacobian coordinates `X`, `Y` and `1/Z`
/// (`inverse`).
#[inline]
#[lane_features]
pub(super) fn affine_of(x: &Fp8, y: &Fp8, inverse: &Fp8) -> Affine8 {
    let inverse_squared = inverse.square();
    Affine8 {
        x: x.mul(&inverse_squared),
        y: y.mul(&inverse_squared.mul(inverse)),
    }
}

/// `x³ + 4`.
#[inline]
#[lane_features]
pub(super) fn curve_rhs(x: &Fp8) -> Fp8 {
    x.square().mul(x).add(&splat(B))
}
