//! RFC 9496's one-way map from 64 uniform bytes to an element (§4.3.4,
//! the map RFC 9380's `hash_to_ristretto255` ends with), 8 inputs at once:
//! the two halves of each input are mapped by `MAP` and the two points
//! added. Constant time: the inputs (hashed private inputs) steer no
//! branch; `MAP`'s two cases are merged by lane masks.

use oblivex_macros::lane_features;

use super::codec::LANES;
use super::constants::{D, D_MINUS_ONE_SQ, ONE_MINUS_D_SQ, SQRT_AD_MINUS_ONE, SQRT_M1};
use super::field::{splat, Fe8};
use super::point::Extended8;
use super::roots::sqrt_ratio_m1_each;
use crate::group::lanes::toolkit::wipe;
use zeroize::Zeroizing;

/// Bytes of one input to the map.
pub(crate) const UNIFORM_LEN: usize = 64;

/// RFC 9496 `MAP(t)` in every lane of each of `N` vectors (one square
/// root ratio and 15 multiplications each; the square roots interleaved,
/// see `roots::pow_p58_each`).
#[lane_features]
fn map_each<const N: usize>(t: &[Fe8; N]) -> [Extended8; N] {
    let one = Fe8::one();
    let minus_one = one.neg();
    let d = splat(D);
    let r = t.map(|t| splat(SQRT_M1).mul(&t.square()));
    let u = r.map(|r| r.add(&one).mul(&splat(ONE_MINUS_D_SQ)));
    let v = r.map(|r| minus_one.sub(&r.mul(&d)).mul(&r.add(&d)));
    let roots = sqrt_ratio_m1_each(&u, &v);
    core::array::from_fn(|i| {
        let (was_square, s) = roots[i];
        let s_prime = s.mul(&t[i]).abs().neg();
        let s = s_prime.select(&s, was_square);
        let c = r[i].select(&minus_one, was_square);
        let n = c
            .mul(&r[i].sub(&one))
            .mul(&splat(D_MINUS_ONE_SQ))
            .sub(&v[i]);
        let ss = s.square();
        let w0 = s.add(&s).mul(&v[i]);
        let w1 = n.mul(&splat(SQRT_AD_MINUS_ONE));
        let w2 = one.sub(&ss);
        let w3 = one.add(&ss);
        Extended8 {
            x: w0.mul(&w3),
            y: w2.mul(&w1),
            z: w1.mul(&w3),
            t: w0.mul(&w2),
        }
    })
}

/// The element of 64 uniform bytes in every lane: `MAP` of each 32-byte
/// half (its top bit dropped, as RFC 9496 masks it), added.
#[lane_features]
pub(super) fn from_uniform_bytes(inputs: &[[u8; UNIFORM_LEN]; LANES]) -> Extended8 {
    // The hashed inputs are as private as the inputs: every copy on the
    // stack is wiped.
    let mut halves = [0, 32].map(|offset| {
        let mut bytes = Zeroizing::new([[0u8; 32]; LANES]);
        for (lane, input) in bytes.iter_mut().zip(inputs) {
            lane.copy_from_slice(&input[offset..offset + 32]);
        }
        Fe8::from_le_bytes_each(&bytes)
    });
    let mut points = map_each(&halves);
    let sum = points[0].add(&points[1].cached());
    wipe(&mut halves);
    wipe(&mut points);
    sum
}
