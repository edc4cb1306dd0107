//! P-256's exponentiations by addition chains, on any lane field: the
//! square root candidate (decoding), RFC 9380's `c1` power (hashing) and
//! the inversion, `N` chains interleaved (`chains::square_times_each`).

use oblivex_macros::lane_features;

use super::chains::{square_times_each, times_each};
use super::field::Fe8;

impl Fe8 {
    /// `self^((p − 3)/4)` (see [`pow_p_minus_3_over_4_each`]).
    #[lane_features]
    fn pow_p_minus_3_over_4(&self) -> Fe8 {
        let [power] = pow_p_minus_3_over_4_each(&[*self]);
        power
    }

    /// `self^(p − 2) = 1/self` (0 for 0): `p − 2 = 4·(p − 3)/4 + 1`.
    #[lane_features]
    pub(crate) fn invert(&self) -> Fe8 {
        self.pow_p_minus_3_over_4().square_times(2).mul(self)
    }
}

/// `x^(2^k − 1)` for the `k` of an addition chain, from the powers
/// `x^(2^i − 1)` (`high`) and `x^(2^j − 1)` (`low`) with `i + j = k`, for
/// each of `N` vectors.
#[lane_features]
#[inline]
fn ones_each<const N: usize>(high: &[Fe8; N], low_count: u32, low: &[Fe8; N]) -> [Fe8; N] {
    times_each(&square_times_each(high, low_count), low)
}

/// `x^(2^32 − 1)` and `x^(2^30 − 1)` of each of `N` vectors (both addition
/// chains below start with them): 31 squarings, 8 multiplications.
#[lane_features]
#[inline]
fn pow_ones_32_each<const N: usize>(x1: &[Fe8; N]) -> ([Fe8; N], [Fe8; N]) {
    let x2 = ones_each(x1, 1, x1);
    let x4 = ones_each(&x2, 2, &x2);
    let x8 = ones_each(&x4, 4, &x4);
    let x16 = ones_each(&x8, 8, &x8);
    let x24 = ones_each(&x16, 8, &x8);
    let x28 = ones_each(&x24, 4, &x4);
    let x30 = ones_each(&x28, 2, &x2);
    (ones_each(&x30, 2, &x2), x30)
}

/// `x^((p + 1)/4)` for each of `N` vectors, the square root of `x` when it
/// is a square (p ≡ 3 mod 4): `(p + 1)/4 = (((2^32 − 1)·2^32 + 1)·2^96 +
/// 1)·2^94`, 253 squarings and 10 multiplications, the `N` chains
/// interleaved (`chains::square_times_each`: the decoder and the map
/// take their square roots in pairs).
#[lane_features]
#[inline]
pub(super) fn sqrt_candidate_each<const N: usize>(x: &[Fe8; N]) -> [Fe8; N] {
    let (x32, _) = pow_ones_32_each(x);
    let r = times_each(&square_times_each(&x32, 32), x);
    let r = times_each(&square_times_each(&r, 96), x);
    square_times_each(&r, 94)
}

/// `x^((p − 3)/4)` for each of `N` vectors (RFC 9380's `c1` for
/// `sqrt_ratio`), by `(p − 3)/4 = ((2^32 − 1)·2^32 + 1)·2^190 + 2^94 − 1`,
/// the chains interleaved as in [`sqrt_candidate_each`].
#[lane_features]
#[inline]
pub(super) fn pow_p_minus_3_over_4_each<const N: usize>(x: &[Fe8; N]) -> [Fe8; N] {
    let (x32, x30) = pow_ones_32_each(x);
    let x64 = ones_each(&x32, 32, &x32);
    let x94 = ones_each(&x64, 30, &x30);
    let r = times_each(&square_times_each(&x32, 32), x);
    times_each(&square_times_each(&r, 190), &x94)
}
