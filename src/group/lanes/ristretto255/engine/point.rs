//! Points of the Edwards curve `−x² + y² = 1 + d·x²·y²` behind ristretto255,
//! 8 at once: extended coordinates `(X : Y : Z : T)`, `x = X/Z`, `y = Y/Z`,
//! `xy = T/Z`, and the "cached" form `(Y + X, Y − X, 2Z, 2d·T)` that an
//! addition takes as its second operand. The formulas (Hisil–Wong–Carter–
//! Dawson 2008, `add-2008-hwcd-3` and `dbl-2008-hwcd` for `a = −1`) are
//! complete on this curve: no input needs a special case, so no branch.

use oblivex_macros::lane_features;

use super::constants::D2;
use super::field::{splat, Fe8, Wide8};

/// 8 points in extended coordinates.
#[derive(Clone, Copy)]
pub(super) struct Extended8 {
    pub(super) x: Fe8,
    pub(super) y: Fe8,
    pub(super) z: Fe8,
    pub(super) t: Fe8,
}

/// 8 points in cached form, ready to be added.
#[derive(Clone, Copy)]
pub(super) struct Cached8 {
    y_plus_x: Fe8,
    y_minus_x: Fe8,
    z2: Fe8,
    t2d: Fe8,
}

// SAFETY: four field elements (`PlainLimbs`), nothing else, in both.
unsafe impl crate::group::lanes::toolkit::PlainLimbs for Extended8 {}
// SAFETY: as above.
unsafe impl crate::group::lanes::toolkit::PlainLimbs for Cached8 {}

impl Extended8 {
    /// The neutral element `(0 : 1 : 1 : 0)` in every lane.
    #[inline]
    #[lane_features]
    pub(super) fn identity() -> Extended8 {
        Extended8 {
            x: Fe8::zero(),
            y: Fe8::one(),
            z: Fe8::one(),
            t: Fe8::zero(),
        }
    }

    /// The cached form (one multiplication).
    #[inline]
    #[lane_features]
    pub(super) fn cached(&self) -> Cached8 {
        Cached8 {
            y_plus_x: self.y.add(&self.x),
            y_minus_x: self.y.sub(&self.x),
            z2: self.z.add(&self.z),
            t2d: self.t.mul(&splat(D2)),
        }
    }

    /// `self + other` (8 multiplications).
    #[inline]
    #[lane_features]
    pub(super) fn add(&self, other: &Cached8) -> Extended8 {
        let mut sum = *self;
        sum.add_assign(other);
        sum
    }

    /// `self ← self + other`. The accumulators use this in-place form: a
    /// point returned by a call that is not inlined (1280 bytes with IFMA,
    /// 2560 with AVX2) is copied into its destination, which cost 5 % of
    /// a scalar multiplication with IFMA.
    #[inline]
    #[lane_features]
    pub(super) fn add_assign(&mut self, other: &Cached8) {
        // The four products only meet additions and subtractions.
        let a = self.y.sub(&self.x).mul_wide(&other.y_minus_x);
        let b = self.y.add(&self.x).mul_wide(&other.y_plus_x);
        let c = self.t.mul_wide(&other.t2d);
        let d = self.z.mul_wide(&other.z2);
        let zero = Wide8::zero();
        let (e, f, g, h) = (
            b.minus(&a, &zero),
            d.minus(&c, &zero),
            d.plus(&c),
            b.plus(&a),
        );
        self.x = e.mul(&f);
        self.y = g.mul(&h);
        self.z = f.mul(&g);
        self.t = e.mul(&h);
    }

    /// `self ← 2^k·self` for `k ≥ 1`, in place (see
    /// [`Extended8::add_assign`]). Doubling never reads `T`, so the
    /// doublings before the last skip it (3 multiplications instead of 4).
    #[inline]
    #[lane_features]
    pub(super) fn double_times_assign(&mut self, k: u32) {
        for step in 1..=k {
            let [e, f, g, h] = self.doubling_factors();
            self.x = e.mul(&f);
            self.y = g.mul(&h);
            self.z = f.mul(&g);
            if step == k {
                self.t = e.mul(&h);
            }
        }
    }

    /// `2·self` (4 squarings, 4 multiplications).
    #[inline]
    #[lane_features]
    pub(super) fn double(&self) -> Extended8 {
        let mut doubled = *self;
        doubled.double_times_assign(1);
        doubled
    }

    /// The factors `E, F, G, H` of `dbl-2008-hwcd` (`2P = (E·F : G·H : F·G
    /// : E·H)`), from `X, Y, Z` only.
    #[inline]
    #[lane_features]
    fn doubling_factors(&self) -> [Fe8; 4] {
        // The squares only meet subtractions: carried once, with them.
        let a = self.x.square_wide();
        let b = self.y.square_wide();
        let c = self.z.square_doubled_wide(); // C = 2·Z²
        let e = self.x.add(&self.y).square_wide().minus(&a, &b);
        let g = b.minus(&a, &Wide8::zero()); // D + B with D = a·A = −A
        let f = b.minus(&a, &c); // G − C
        let h = Wide8::zero().minus(&a, &b); // D − B
        [e, f, g, h]
    }

    /// Lane sums: the sum of all 8 lanes, in every lane (three rounds of
    /// adding the lanes a half, a quarter and an eighth of the way round).
    #[lane_features]
    pub(super) fn sum_lanes(&self) -> Extended8 {
        let mut acc = *self;
        for shift in [4, 2, 1] {
            let rotate = |f: &Fe8| match shift {
                4 => f.rotate_lanes::<4>(),
                2 => f.rotate_lanes::<2>(),
                _ => f.rotate_lanes::<1>(),
            };
            let rotated = Extended8 {
                x: rotate(&acc.x),
                y: rotate(&acc.y),
                z: rotate(&acc.z),
                t: rotate(&acc.t),
            };
            acc = acc.add(&rotated.cached());
        }
        acc
    }
}

impl Cached8 {
    /// The neutral element `(1, 1, 2, 0)` in every lane.
    #[inline]
    #[lane_features]
    pub(super) fn identity() -> Cached8 {
        Cached8 {
            y_plus_x: Fe8::one(),
            y_minus_x: Fe8::one(),
            z2: splat([2, 0, 0, 0, 0]),
            t2d: Fe8::zero(),
        }
    }

    /// `other` in the lanes of `mask`, `self` elsewhere (bit by bit: the
    /// mask may be secret).
    #[inline]
    #[lane_features]
    pub(super) fn select(&self, other: &Cached8, mask: u8) -> Cached8 {
        Cached8 {
            y_plus_x: self.y_plus_x.select(&other.y_plus_x, mask),
            y_minus_x: self.y_minus_x.select(&other.y_minus_x, mask),
            z2: self.z2.select(&other.z2, mask),
            t2d: self.t2d.select(&other.t2d, mask),
        }
    }

    /// `−self` in the lanes of `mask`: `−(x, y) = (−x, y)` swaps `Y + X`
    /// with `Y − X` and negates `T`.
    #[inline]
    #[lane_features]
    pub(super) fn negate_where(&self, mask: u8) -> Cached8 {
        Cached8 {
            y_plus_x: self.y_plus_x.select(&self.y_minus_x, mask),
            y_minus_x: self.y_minus_x.select(&self.y_plus_x, mask),
            z2: self.z2,
            t2d: self.t2d.negate_where(mask),
        }
    }
}
