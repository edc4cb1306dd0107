//! RFC 9380's `P256_XMD:SHA-256_SSWU_RO_` after `expand_message_xmd`, 8
//! inputs at once: `hash_to_field` (two 48-byte strings reduced modulo p),
//! the simplified SWU map of each (the straight-line form of RFC 9380
//! appendix F.2, its cases merged by lane masks), and the sum of the two
//! points (P-256's cofactor is 1). Constant time in the inputs (a client's
//! private inputs).

use core::arch::x86_64::*;

use super::codec::{limbs_of_be, slice};
use super::field::{pow_p_minus_3_over_4_each, splat, Fe8};
use super::point::{Jacobian8, B};
use crate::group::lanes::toolkit::LANES;

/// Bytes of `expand_message_xmd` per input: two field elements of 48.
pub(crate) const UNIFORM_LEN: usize = 96;

/// RFC 9380's `Z = −10` for P-256, in Montgomery form.
const Z: [u64; 5] = [
    0xfffffffffff5f,
    0xa0fffffffffff,
    0x0000000000000,
    0x00a1000000000,
    0x0ffffff5f0000,
];

/// `sqrt(−Z) = sqrt(10)` (`c2` of `sqrt_ratio` for p ≡ 3 mod 4), in
/// Montgomery form.
const SQRT_MINUS_Z: [u64; 5] = [
    0x38ee98a195fd9,
    0x6b23dcf70a1fd,
    0xa8dfee78400ad,
    0x303d913c88f9e,
    0x0051d26ea2a8f,
];

/// `2^256·R² mod p` as plain limbs: the Montgomery product of a plain
/// value by it is the value times 2^256, in Montgomery form.
const TWO_POW_256_R_SQUARED: [u64; 5] = [
    0xffd0000000a00,
    0xfffffff7fffff,
    0xffffcffffffed,
    0x0100000005fff,
    0x0000018000000,
];

/// The field elements of 8 big-endian 48-byte strings reduced modulo p
/// (`hi·2^256 + lo` for their first 16 and last 32 bytes).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn field_of_48(strings: [&[u8]; LANES]) -> Fe8 {
    let split = |string: &[u8]| -> ([u64; 5], [u64; 5]) {
        let mut high = [0u8; 32];
        high[16..].copy_from_slice(&string[..16]);
        let low: &[u8; 32] = string[16..48].try_into().expect("48 bytes");
        (limbs_of_be(&high), limbs_of_be(low))
    };
    let parts: [([u64; 5], [u64; 5]); LANES] = core::array::from_fn(|i| split(strings[i]));
    let high = Fe8(slice(&parts.map(|(h, _)| h)));
    let low = Fe8::from_canonical_limbs(slice(&parts.map(|(_, l)| l)));
    high.mul(&splat(TWO_POW_256_R_SQUARED)).add(&low)
}

/// RFC 9380 `sqrt_ratio(u, v)` for p ≡ 3 mod 4, for each of `N` vectors
/// (their exponentiations interleaved: `field::pow_p_minus_3_over_4_each`):
/// per lane, whether `u/v` is a square, and a root of `u/v` if so, else of
/// `Z·u/v`.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn sqrt_ratio_each<const N: usize>(u: &[Fe8; N], v: &[Fe8; N]) -> [(__mmask8, Fe8); N] {
    let uv: [Fe8; N] = core::array::from_fn(|i| u[i].mul(&v[i]));
    let powers: [Fe8; N] =
        pow_p_minus_3_over_4_each(&core::array::from_fn(|i| v[i].square().mul(&uv[i])));
    core::array::from_fn(|i| {
        let y1 = powers[i].mul(&uv[i]);
        let y2 = y1.mul(&splat(SQRT_MINUS_Z));
        let is_square = y1.square().mul(&v[i]).equals(&u[i]);
        (is_square, y2.select(&y1, is_square))
    })
}

/// RFC 9380 `map_to_curve_simple_swu` (A = −3, B = b, Z = −10) of each of
/// `N` vectors, each affine result `(x/tv4, y)` returned in Jacobian
/// coordinates with `Z = tv4` (no inversion): `(x·tv4, y·tv4³, tv4)`.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn map_to_curve_each<const N: usize>(u: &[Fe8; N]) -> [Jacobian8; N] {
    let z = splat(Z);
    let b = splat(B);
    let tv1 = u.map(|u| u.square().mul(&z));
    let tv2 = tv1.map(|tv1| tv1.square().add(&tv1));
    let tv3 = tv2.map(|tv2| tv2.add(&Fe8::one()).mul(&b));
    // A·CMOV(Z, −tv2, tv2 ≠ 0) with A = −3.
    let tv4 = tv2.map(|tv2| z.select(&tv2.neg(), !tv2.is_zero()).times_3().neg());
    let tv6: [Fe8; N] = tv4.map(|tv4| tv4.square());
    let gx_numerator: [Fe8; N] = core::array::from_fn(|i| {
        tv3[i]
            .square()
            .sub(&tv6[i].times_3())
            .mul(&tv3[i])
            .add(&b.mul(&tv6[i].mul(&tv4[i])))
    });
    let tv6: [Fe8; N] = core::array::from_fn(|i| tv6[i].mul(&tv4[i]));
    let roots = sqrt_ratio_each(&gx_numerator, &tv6);
    core::array::from_fn(|i| {
        let (is_square, y1) = roots[i];
        let x = tv1[i].mul(&tv3[i]).select(&tv3[i], is_square);
        let y = tv1[i].mul(&u[i]).mul(&y1).select(&y1, is_square);
        let y = y.negate_where(u[i].is_odd() ^ y.is_odd());
        Jacobian8 {
            x: x.mul(&tv4[i]),
            y: y.mul(&tv6[i]),
            z: tv4[i],
        }
    })
}

/// The points of 8 inputs' `expand_message_xmd` outputs (96 bytes each):
/// `map(u0) + map(u1)`, the two maps side by side. The sum is the identity
/// (`Z = 0`) where the two maps are opposite; the caller tests `Z`.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn hash_to_curve(uniform: &[[u8; UNIFORM_LEN]; LANES]) -> Jacobian8 {
    let u0 = field_of_48(core::array::from_fn(|i| &uniform[i][..48]));
    let u1 = field_of_48(core::array::from_fn(|i| &uniform[i][48..]));
    let [q0, q1] = map_to_curve_each(&[u0, u1]);
    q0.add_or_double(&q1, 0, 0)
}
