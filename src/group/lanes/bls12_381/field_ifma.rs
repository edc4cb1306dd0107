//! Arithmetic modulo BLS12-381's base prime p (381 bits, no special form)
//! on 8 field elements at once: the generic Montgomery arithmetic of
//! `lanes::montgomery` with 8 limbs of 52 bits (`R = 2^416`), elements
//! below `2p` in Montgomery form. `R/p > 2^35`, so a product's operands
//! may be unreduced sums and differences of up to `2^17` elements' worth
//! ([`Fp8::add_lazy`], [`Fp8::combination`]); the formulas use a few.
//! Constant time, as that module is.

use core::arch::x86_64::*;

use super::exponents::{P_MINUS_2, SQRT_EXPONENT};
use crate::group::lanes::field::lane_field;
use crate::group::lanes::ifma::chains::pow_each;
use crate::group::lanes::montgomery::{self, slice, unslice, Modulus};
use crate::group::lanes::radix::{be_of_digits, digits_of_be};
use crate::group::lanes::toolkit::{wipe, PlainLimbs, LANES};

/// Limbs of an element.
pub(crate) const LIMBS: usize = 8;

/// Product columns.
const COLUMNS: usize = 2 * LIMBS;

/// p, 2p and `−p^{-1} mod 2^52`.
pub(crate) const MODULUS: Modulus<LIMBS> = Modulus {
    p: [
        0xeffffffffaaab,
        0xfeb153ffffb9f,
        0x6b0f6241eabff,
        0x12bf6730d2a0f,
        0x764774b84f385,
        0x1ba7b6434bacd,
        0x1ea397fe69a4b,
        0x1a011,
    ],
    two_p: [
        0xdffffffff5556,
        0xfd62a7ffff73f,
        0xd61ec483d57ff,
        0x257ece61a541e,
        0xec8ee9709e70a,
        0x374f6c869759a,
        0x3d472ffcd3496,
        0x34022,
    ],
    n0: 0x3fffcfffcfffd,
};

/// `(p + 1)/2`: canonical values from it up are the "lexicographically
/// largest" roots (the sign flag of the compressed encoding).
const HALF_P_PLUS_1: [u64; LIMBS] = [
    0xf7fffffffd556,
    0xff58a9ffffdcf,
    0xb587b120f55ff,
    0x895fb39869507,
    0xbb23ba5c279c2,
    0x8dd3db21a5d66,
    0x8f51cbff34d25,
    0xd008,
];

/// `R² mod p`: multiplying by it enters Montgomery form.
const R_SQUARED: [u64; LIMBS] = [
    0xa5bf4cb89af51,
    0x3afbba7ca31a2,
    0x2646160ec71f1,
    0xa84d710465903,
    0x3480a4a188311,
    0x98e5907ad91f5,
    0x2075d74507266,
    0x8746,
];

/// `R mod p`: 1 in Montgomery form.
const ONE: [u64; LIMBS] = [
    0x6480ea8e9b9af,
    0x65766c8fe444f,
    0x8b540fea96f7d,
    0x3b2ee82efd422,
    0xa6723e5f0ade5,
    0xff6eb6fdd4230,
    0xe06ef23c24a25,
    0x14c8e,
];

/// 8 elements of GF(p) in Montgomery form, word-sliced.
#[derive(Clone, Copy)]
pub(crate) struct Fp8(pub(super) [__m512i; LIMBS]);

// SAFETY: eight `__m512i`, nothing else.
unsafe impl PlainLimbs for Fp8 {}

impl AsRef<[__m512i; LIMBS]> for Fp8 {
    #[inline]
    fn as_ref(&self) -> &[__m512i; LIMBS] {
        &self.0
    }
}

/// A constant of the engine: its limbs in this field's Montgomery form.
pub(crate) type Constant = [u64; LIMBS];

/// The engine writes its constants once, as 8 limbs of 52 bits in this
/// field's Montgomery form; here they are already what [`splat`] takes.
pub(crate) const fn constant(limbs: [u64; LIMBS]) -> Constant {
    limbs
}

/// [`constant`] of each.
pub(crate) const fn constants<const N: usize>(limbs: [[u64; LIMBS]; N]) -> [Constant; N] {
    limbs
}

/// A constant already in Montgomery form, broadcast to the 8 lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(crate) fn splat(limbs: Constant) -> Fp8 {
    Fp8(montgomery::broadcast(&limbs))
}

impl Fp8 {
    /// 0 in every lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn zero() -> Fp8 {
        Fp8([_mm512_setzero_si512(); LIMBS])
    }

    /// 1 in every lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn one() -> Fp8 {
        splat(ONE)
    }

    /// The elements of 8 plain (not Montgomery) values given as 48
    /// big-endian bytes each, below 2^384 (a decoded coordinate, a hashed
    /// string's part).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn from_be_bytes_each(bytes: &[[u8; 48]; LANES]) -> Fp8 {
        let mut limbs: [[u64; LIMBS]; LANES] = bytes.map(|b| digits_of_be(&b, 52));
        let plain = Fp8(slice(&limbs));
        zeroize::Zeroize::zeroize(&mut limbs);
        plain.mul(&splat(R_SQUARED))
    }

    /// The canonical plain values (`< p`) of the 8 lanes as 48 big-endian
    /// bytes each (secret where the element is: the caller wipes them).
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn be_bytes_each(&self) -> [[u8; 48]; LANES] {
        let mut canonical = self.canonical();
        let mut limbs = unslice(&canonical);
        let bytes = core::array::from_fn(|j| be_of_digits(&limbs[j], 52));
        wipe(core::slice::from_mut(&mut canonical));
        zeroize::Zeroize::zeroize(&mut limbs);
        bytes
    }

    /// The 8 lanes rotated by `K` (lane `i` gets lane `i + K mod 8`).
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(crate) fn rotate_lanes<const K: i32>(&self) -> Fp8 {
        Fp8(self.0.map(|l| _mm512_alignr_epi64::<K>(l, l)))
    }

    /// Debug builds check the bounds (limbs below 2^52, value about below
    /// 2p); release builds compile this to nothing.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    fn checked(self) -> Fp8 {
        montgomery::debug_assert_below(&self.0, &MODULUS.two_p);
        self
    }

    /// `self + other`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn add(&self, other: &Fp8) -> Fp8 {
        Fp8(montgomery::add(&self.0, &other.0, &MODULUS)).checked()
    }

    /// `self + other` unreduced (below the sum of their bounds), only as
    /// an operand of [`Fp8::mul`] or [`Fp8::square`].
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn add_lazy(&self, other: &Fp8) -> Fp8 {
        Fp8(montgomery::add_lazy(&self.0, &other.0))
    }

    /// `Σ 2^s·a − Σ 2^t·b + BIAS·p` over the terms `(a, s)` of `plus` and
    /// `(b, t)` of `minus` (`s, t ≤ 3`), unreduced, with one carry
    /// (`montgomery::combination`): `BIAS·p` is at least the bound of `Σ
    /// 2^t·b`, and `BOUND·p` that of the result (asserted in debug
    /// builds), below `2^17·p` so that it may feed [`Fp8::mul`] and
    /// [`Fp8::square`].
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn combination<const BIAS: u64, const BOUND: u64, const P: usize, const M: usize>(
        plus: [(&Fp8, u32); P],
        minus: [(&Fp8, u32); M],
    ) -> Fp8 {
        const { assert!(BOUND < 1 << 17, "an operand of a product") };
        let value = montgomery::combination(
            &plus,
            &minus,
            &const { montgomery::times_p(&MODULUS, BIAS) },
        );
        montgomery::debug_assert_below(&value, &const { montgomery::times_p(&MODULUS, BOUND) });
        Fp8(value)
    }

    /// `self − other`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn sub(&self, other: &Fp8) -> Fp8 {
        Fp8(montgomery::sub(&self.0, &other.0, &MODULUS)).checked()
    }

    /// `−self`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn neg(&self) -> Fp8 {
        Fp8::zero().sub(self)
    }

    /// `self · other / R` (operands below `2^17·p`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn mul(&self, other: &Fp8) -> Fp8 {
        Fp8(montgomery::mul::<LIMBS, COLUMNS>(
            &self.0, &other.0, &MODULUS,
        ))
        .checked()
    }

    /// `(self·other + c·d)/R` with one reduction (`montgomery::mul_sum`;
    /// the two products below `R·p` together: each below `2^34·p²`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn mul_sum(&self, other: &Fp8, c: &Fp8, d: &Fp8) -> Fp8 {
        Fp8(montgomery::mul_sum::<LIMBS, COLUMNS>(
            &self.0, &other.0, &c.0, &d.0, &MODULUS,
        ))
        .checked()
    }

    /// `self² / R` (an operand below `2^17·p`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn square(&self) -> Fp8 {
        Fp8(montgomery::square::<LIMBS, COLUMNS>(&self.0, &MODULUS)).checked()
    }

    /// `self^(p − 2) = 1/self` (0 for 0).
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn invert(&self) -> Fp8 {
        let [inverse] = pow_each(&[*self], &P_MINUS_2);
        inverse
    }

    /// The canonical plain value (`< p`) of each lane, as limbs below 2^52.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn canonical(&self) -> [__m512i; LIMBS] {
        montgomery::canonical::<LIMBS, COLUMNS>(&self.0, &MODULUS)
    }

    /// Lanes whose canonical value is odd (RFC 9380's `sgn0`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn is_odd(&self) -> __mmask8 {
        _mm512_test_epi64_mask(self.canonical()[0], _mm512_set1_epi64(1))
    }

    /// Lanes whose canonical value is above `(p − 1)/2` (the compressed
    /// encoding's sign flag), constant time.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn is_largest(&self) -> __mmask8 {
        montgomery::at_least(&self.canonical(), &HALF_P_PLUS_1)
    }
}

/// `x^((p + 1)/4)` for each of `N` vectors, the square root of `x` where it
/// is a square, the chains side by side (the decoder takes its roots in
/// pairs).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(crate) fn sqrt_candidate_each<const N: usize>(x: &[Fp8; N]) -> [Fp8; N] {
    pow_each(x, &SQRT_EXPONENT)
}

lane_field!(Fp8, "avx512f,avx512dq,avx512ifma");
