//! RFC 9380's `P256_XMD:SHA-256_SSWU_RO_` after `expand_message_xmd`, 8
//! inputs at once: `hash_to_field` (two 48-byte strings reduced modulo p),
//! the simplified SWU map of each (the straight-line form of RFC 9380
//! appendix F.2, its cases merged by lane masks), and the sum of the two
//! points (P-256's cofactor is 1). Constant time in the inputs (a client's
//! private inputs).

use oblivex_macros::lane_features;
use zeroize::Zeroizing;

use super::exponents::pow_p_minus_3_over_4_each;
use super::field::{splat, Fe8, B, SQRT_MINUS_Z, TWO_POW_256, Z};
use super::point::Jacobian8;
use crate::group::lanes::toolkit::LANES;

/// Bytes of `expand_message_xmd` per input: two field elements of 48.
pub(crate) const UNIFORM_LEN: usize = 96;

/// The field elements of 8 big-endian 48-byte strings reduced modulo p
/// (`hi·2^256 + lo` for their first 16 and last 32 bytes).
#[lane_features]
fn field_of_48(strings: [&[u8]; LANES]) -> Fe8 {
    let mut high = Zeroizing::new([[0u8; 32]; LANES]);
    let mut low = Zeroizing::new([[0u8; 32]; LANES]);
    for ((high, low), string) in high.iter_mut().zip(low.iter_mut()).zip(strings) {
        high[16..].copy_from_slice(&string[..16]);
        low.copy_from_slice(&string[16..48]);
    }
    Fe8::from_be_bytes_each(&high)
        .mul(&splat(TWO_POW_256))
        .add(&Fe8::from_be_bytes_each(&low))
}

/// RFC 9380 `sqrt_ratio(u, v)` for p ≡ 3 mod 4, for each of `N` vectors
/// (their exponentiations interleaved: `exponents::pow_p_minus_3_over_4_each`):
/// per lane, whether `u/v` is a square, and a root of `u/v` if so, else of
/// `Z·u/v`.
#[lane_features]
fn sqrt_ratio_each<const N: usize>(u: &[Fe8; N], v: &[Fe8; N]) -> [(u8, Fe8); N] {
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
#[lane_features]
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
#[lane_features]
pub(super) fn hash_to_curve(uniform: &[[u8; UNIFORM_LEN]; LANES]) -> Jacobian8 {
    let u0 = field_of_48(core::array::from_fn(|i| &uniform[i][..48]));
    let u1 = field_of_48(core::array::from_fn(|i| &uniform[i][48..]));
    let [q0, q1] = map_to_curve_each(&[u0, u1]);
    q0.add_or_double(&q1, 0, 0)
}
