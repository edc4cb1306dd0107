//! The exponentiations of GF(2^255 − 19) the engine needs, written once
//! over the instruction set's field: `z^((p − 5)/8)` (the chain of
//! ref10), the inverse built on it, and RFC 9496's `SQRT_RATIO_M1`. The
//! decoder and the map take their square roots in pairs, the chains of
//! both interleaved step by step (`chains::square_times_each`).

use oblivex_macros::lane_features;

use super::chains::{square_times_each, times_each};
use super::constants::SQRT_M1;
use super::field::{splat, Fe8};

/// `z^((p − 5)/8) = z^(2^252 − 3)` for each of `N` vectors, the `N`
/// chains interleaved.
#[inline]
#[lane_features]
pub(super) fn pow_p58_each<const N: usize>(z: &[Fe8; N]) -> [Fe8; N] {
    let z2 = square_times_each(z, 1);
    let z9 = times_each(&square_times_each(&z2, 2), z);
    let z11 = times_each(&z9, &z2);
    let z_5_0 = times_each(&square_times_each(&z11, 1), &z9); // 2^5 − 1
    let z_10_0 = times_each(&square_times_each(&z_5_0, 5), &z_5_0);
    let z_20_0 = times_each(&square_times_each(&z_10_0, 10), &z_10_0);
    let z_40_0 = times_each(&square_times_each(&z_20_0, 20), &z_20_0);
    let z_50_0 = times_each(&square_times_each(&z_40_0, 10), &z_10_0);
    let z_100_0 = times_each(&square_times_each(&z_50_0, 50), &z_50_0);
    let z_200_0 = times_each(&square_times_each(&z_100_0, 100), &z_100_0);
    let z_250_0 = times_each(&square_times_each(&z_200_0, 50), &z_50_0);
    times_each(&square_times_each(&z_250_0, 2), z)
}

/// `z^(p − 2) = 1/z` (`0` for `0`): `z^((p − 5)/8)` raised to the 8th
/// power, times `z³`. The field's `invert` (and so its `LaneField`
/// inverse, which the batch inversion takes).
#[lane_features]
pub(crate) fn invert(z: &Fe8) -> Fe8 {
    let cube = z.square().mul(z);
    let [power] = pow_p58_each(&[*z]);
    power.square_times(3).mul(&cube)
}

/// RFC 9496 `SQRT_RATIO_M1(u, v)`: per lane, whether `u/v` is a square, and
/// the non-negative `sqrt(u/v)` if so, else `sqrt(i·u/v)` (`i = sqrt(−1)`).
#[lane_features]
pub(super) fn sqrt_ratio_m1(u: &Fe8, v: &Fe8) -> (u8, Fe8) {
    let [root] = sqrt_ratio_m1_each(&[*u], &[*v]);
    root
}

/// [`sqrt_ratio_m1`] of `N` pairs, their exponentiations interleaved (see
/// [`pow_p58_each`]).
#[inline]
#[lane_features]
pub(super) fn sqrt_ratio_m1_each<const N: usize>(u: &[Fe8; N], v: &[Fe8; N]) -> [(u8, Fe8); N] {
    let v3 = v.map(|v| v.square().mul(&v));
    let v7: [Fe8; N] = core::array::from_fn(|i| v3[i].square().mul(&v[i]));
    let powers: [Fe8; N] = pow_p58_each(&core::array::from_fn(|i| u[i].mul(&v7[i])));
    let sqrt_m1 = splat(SQRT_M1);
    core::array::from_fn(|i| {
        let (u, v) = (&u[i], &v[i]);
        let mut r = u.mul(&v3[i]).mul(&powers[i]);
        let check = v.mul(&r.square());
        let minus_u = u.neg();
        let correct_sign = check.equals(u);
        let flipped_sign = check.equals(&minus_u);
        let flipped_sign_i = check.equals(&minus_u.mul(&sqrt_m1));
        r = r.select(&sqrt_m1.mul(&r), flipped_sign | flipped_sign_i);
        (correct_sign | flipped_sign, r.abs())
    })
}
