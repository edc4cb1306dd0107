//! Arithmetic modulo BLS12-381's base prime p (381 bits, no special form)
//! on 8 field elements at once with AVX2 (for CPUs without AVX-512 IFMA):
//! fourteen digits of 29 bits, digit `i` of elements 0–3 in one ymm
//! register and of elements 4–7 in a second, products by VPMULUDQ (32 ×
//! 32 → 64 bits), in Montgomery form `x·R` with `R = 2^406`. The products
//! are word-by-word Montgomery multiplications in inline assembly whose
//! registers a generator assigned (`kernels.rs`, from
//! `scripts/gen-bls12-381-avx2-kernels`). Constant time: the same
//! instructions whatever the values; masks of lanes are bytes (bit `j`:
//! element `j`), as with AVX-512's `__mmask8`.
//!
//! Bounds. Every element this module returns has its thirteen low digits
//! below 2^29 (carried: a product's columns then hold at most 42 products
//! below 2^58 and stay below 2^64), and a value below 2^392, so that any
//! two operands' product is below `R·p` and a product comes out below 2p.
//! [`Fp8::add`], [`Fp8::sub`] and [`Fp8::neg`] return values below 2p, as
//! the products do; [`Fp8::add_lazy`] and [`Fp8::combination`] return the
//! unreduced sums the formulas ask for, up to `2^11·p` (`2^11·p < 2^392`).
//! Debug builds check the digits and the values.

use core::arch::x86_64::*;

use super::exponents::{P_MINUS_2, SQRT_EXPONENT};
use crate::group::lanes::avx2::chains::pow_each;
use crate::group::lanes::halves::{
    avx2_lane_field, bitselect, digits_of_halves, halves_of, rotated,
};
use crate::group::lanes::radix::{be_of_digits, digits_of_be};
use crate::group::lanes::toolkit::{wipe, PlainLimbs, LANES};
use crate::mp::backend::avx2::select::lane_mask_eq;

mod kernels;

/// Digits of an element.
pub(crate) const DIGITS: usize = 14;

/// Bits per digit.
const RADIX: u32 = 29;

/// `2^29 − 1`.
const DIGIT_MASK: u64 = (1 << RADIX) - 1;

/// The largest multiple of p an unreduced operand may reach: `2^11·p <
/// 2^392` (module documentation).
pub(crate) const MAX_OPERAND_MULTIPLE: u64 = 1 << 11;

/// Words of the big integers the constants are computed in (448 bits).
const WORDS: usize = 7;

/// A big integer, little-endian 64-bit words (the constants' arithmetic,
/// at compile time).
type Big = [u64; WORDS];

/// p.
const P: Big = [
    0xb9feffffffffaaab,
    0x1eabfffeb153ffff,
    0x6730d2a0f6b0f624,
    0x64774b84f38512bf,
    0x4b1ba7b6434bacd7,
    0x1a0111ea397fe69a,
    0,
];

/// `a + b` (no overflow past 448 bits).
const fn big_add(a: &Big, b: &Big) -> Big {
    let mut out = [0; WORDS];
    let mut carry = 0u64;
    let mut i = 0;
    while i < WORDS {
        let sum = a[i] as u128 + b[i] as u128 + carry as u128;
        out[i] = sum as u64;
        carry = (sum >> 64) as u64;
        i += 1;
    }
    out
}

/// `a − b` for `a ≥ b`.
const fn big_sub(a: &Big, b: &Big) -> Big {
    let mut out = [0; WORDS];
    let mut borrow = 0u64;
    let mut i = 0;
    while i < WORDS {
        let (d, b1) = a[i].overflowing_sub(b[i]);
        let (d, b2) = d.overflowing_sub(borrow);
        out[i] = d;
        borrow = (b1 | b2) as u64;
        i += 1;
    }
    out
}

/// `a ≥ b`.
const fn big_at_least(a: &Big, b: &Big) -> bool {
    let mut i = WORDS;
    while i > 0 {
        i -= 1;
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}

/// `k·a` for a small `k` (no overflow past 448 bits).
const fn big_times(a: &Big, k: u64) -> Big {
    let mut out = [0; WORDS];
    let mut carry = 0u128;
    let mut i = 0;
    while i < WORDS {
        let product = a[i] as u128 * k as u128 + carry;
        out[i] = product as u64;
        carry = product >> 64;
        i += 1;
    }
    out
}

/// `⌊a/2⌋`.
const fn big_half(a: &Big) -> Big {
    let mut out = [0; WORDS];
    let mut w = 0;
    while w < WORDS {
        out[w] = (a[w] >> 1) | if w + 1 < WORDS { a[w + 1] << 63 } else { 0 };
        w += 1;
    }
    out
}

/// `2^e mod p`, by doublings.
const fn pow2_mod_p(e: u32) -> Big {
    let mut x: Big = [1, 0, 0, 0, 0, 0, 0];
    let mut i = 0;
    while i < e {
        x = big_add(&x, &x);
        if big_at_least(&x, &P) {
            x = big_sub(&x, &P);
        }
        i += 1;
    }
    x
}

/// The fourteen 29-bit digits of a value below `2^406` (the top digit
/// takes the bits from 377 up).
const fn digits_of(value: &Big) -> [u64; DIGITS] {
    let mut out = [0; DIGITS];
    let mut i = 0;
    while i < DIGITS {
        let bit = RADIX as usize * i;
        let (word, offset) = (bit / 64, bit % 64);
        let mut digit = value[word] >> offset;
        if offset > 64 - RADIX as usize && word + 1 < WORDS {
            digit |= value[word + 1] << (64 - offset);
        }
        out[i] = if i + 1 < DIGITS {
            digit & DIGIT_MASK
        } else {
            digit
        };
        i += 1;
    }
    out
}

/// The value of a constant the engine writes as 8 limbs of 52 bits in the
/// AVX-512 field's Montgomery form (`c·2^416 mod p`), in this field's
/// (`c·2^406 mod p`): ten halvings modulo p.
const fn from_ifma_form(limbs: &[u64; 8]) -> Big {
    let mut x: Big = [0; WORDS];
    let mut i = 0;
    while i < 8 {
        let (word, offset) = (52 * i / 64, 52 * i % 64);
        x[word] |= limbs[i] << offset;
        if offset > 12 {
            x[word + 1] |= limbs[i] >> (64 - offset);
        }
        i += 1;
    }
    let mut k = 0;
    while k < 10 {
        if x[0] & 1 == 1 {
            x = big_add(&x, &P);
        }
        x = big_half(&x);
        k += 1;
    }
    while big_at_least(&x, &P) {
        x = big_sub(&x, &P);
    }
    x
}

/// A constant of the engine (see [`constant`]): its digits in this field's
/// Montgomery form.
pub(crate) type Constant = [u64; DIGITS];

/// The engine's constants are written once, as 8 limbs of 52 bits in the
/// AVX-512 field's Montgomery form; this converts one at compile time.
pub(crate) const fn constant(limbs: [u64; 8]) -> Constant {
    digits_of(&from_ifma_form(&limbs))
}

/// [`constant`] of each.
pub(crate) const fn constants<const N: usize>(limbs: [[u64; 8]; N]) -> [Constant; N] {
    let mut out = [[0; DIGITS]; N];
    let mut i = 0;
    while i < N {
        out[i] = constant(limbs[i]);
        i += 1;
    }
    out
}

/// `2^406 − v` for `v < 2^406`: adding it subtracts `v` modulo `2^406`,
/// and the sum reaches bit 406 exactly where the value was at least `v`.
const fn complement(v: &Big) -> [u64; DIGITS] {
    let top: Big = [0, 0, 0, 0, 0, 0, 1 << (406 - 384)];
    digits_of(&big_sub(&top, v))
}

/// `2^406 − p` ([`Fp8::canonical`]).
const MINUS_P: [u64; DIGITS] = complement(&P);

/// `2^406 − 2p` (the reduction below 2p).
const MINUS_TWO_P: [u64; DIGITS] = complement(&big_times(&P, 2));

/// `2^406 − (p + 1)/2` ([`Fp8::is_largest`]).
const MINUS_HALF_P_PLUS_1: [u64; DIGITS] =
    complement(&big_half(&big_add(&P, &[1, 0, 0, 0, 0, 0, 0])));

/// `R mod p`: 1 in Montgomery form.
const ONE: [u64; DIGITS] = digits_of(&pow2_mod_p(406));

/// `R² mod p`: multiplying by it enters Montgomery form.
const R_SQUARED: [u64; DIGITS] = digits_of(&pow2_mod_p(812));

/// `BIAS·p` with each of its thirteen low digits raised by `c·2^29` and
/// the digit above lowered by `c`, `c = 8·terms`: a multiple of p whose low
/// digits are at least any sum of `terms` digits below 2^29 scaled by up to 2^3,
/// so that subtracting such terms leaves no negative low digit. (Its top
/// digit may wrap below zero: [`carry`] leaves the top digit whole, so its
/// wrapped value comes out exact once the sum is non-negative.)
const fn bias(multiple: u64, terms: u64) -> [u64; DIGITS] {
    let mut digits = digits_of(&big_times(&P, multiple));
    let c = 8 * terms;
    let mut i = 0;
    while i + 1 < DIGITS {
        digits[i] = digits[i].wrapping_add(c << RADIX);
        digits[i + 1] = digits[i + 1].wrapping_sub(c);
        i += 1;
    }
    digits
}

/// The digits of 4 elements, digit `i` of element `j` in lane `j` of
/// register `i`.
type Half = [__m256i; DIGITS];

/// 8 elements of GF(p) in Montgomery form: elements 0–3, then 4–7.
#[derive(Clone, Copy)]
pub(crate) struct Fp8([Half; 2]);

// SAFETY: twenty-eight `__m256i`, nothing else.
unsafe impl PlainLimbs for Fp8 {}

/// Fourteen digits broadcast to the 4 lanes of a half.
#[inline]
#[target_feature(enable = "avx2")]
fn broadcast(digits: &[u64; DIGITS]) -> Half {
    digits.map(|d| _mm256_set1_epi64x(d as i64))
}

/// A constant already in this field's Montgomery form ([`constant`]), in
/// all 8 lanes.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn splat(digits: Constant) -> Fp8 {
    let half = broadcast(&digits);
    Fp8([half, half])
}

/// The digits `digit(half, i)` of both halves.
#[inline]
#[target_feature(enable = "avx2")]
fn each_digit(digit: impl Fn(usize, usize) -> __m256i) -> [Half; 2] {
    [0, 1].map(|h| core::array::from_fn(|i| digit(h, i)))
}

/// Carries digits (each below 2^63, the top one taken modulo 2^64) digit
/// by digit, up to the top digit, which keeps everything from bit 377 up.
#[inline]
#[target_feature(enable = "avx2")]
fn carry(mut digits: Half) -> Half {
    let mask = _mm256_set1_epi64x(DIGIT_MASK as i64);
    for i in 0..DIGITS - 1 {
        let up = _mm256_srli_epi64::<{ RADIX as i32 }>(digits[i]);
        digits[i] = _mm256_and_si256(digits[i], mask);
        digits[i + 1] = _mm256_add_epi64(digits[i + 1], up);
    }
    digits
}

/// `value − v` where `value ≥ v`, else `value`, for carried digits of a
/// value below `2^406 + v` and `minus_v` = [`complement`]`(v)`; and the
/// lanes (all ones) where it subtracted. Constant time: the subtraction is
/// always made and the choice is a mask.
#[inline]
#[target_feature(enable = "avx2")]
fn subtract_if_at_least(value: &Half, minus_v: &[u64; DIGITS]) -> (Half, __m256i) {
    let minus_v = broadcast(minus_v);
    let sum = carry(core::array::from_fn(|i| {
        _mm256_add_epi64(value[i], minus_v[i])
    }));
    let reached = _mm256_srli_epi64::<{ RADIX as i32 }>(sum[DIGITS - 1]);
    let at_least = lane_mask_eq(reached, _mm256_set1_epi64x(1));
    let top_mask = _mm256_set1_epi64x(DIGIT_MASK as i64);
    let chosen = core::array::from_fn(|i| {
        let difference = if i + 1 == DIGITS {
            _mm256_and_si256(sum[i], top_mask)
        } else {
            sum[i]
        };
        bitselect(at_least, difference, value[i])
    });
    (chosen, at_least)
}

impl Fp8 {
    /// 0 in every lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn zero() -> Fp8 {
        Fp8([[_mm256_setzero_si256(); DIGITS]; 2])
    }

    /// 1 in every lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn one() -> Fp8 {
        splat(ONE)
    }

    /// The elements of 8 plain (not Montgomery) values given as 48
    /// big-endian bytes each, below 2^384 (a decoded coordinate, a hashed
    /// string's part).
    #[target_feature(enable = "avx2")]
    pub(crate) fn from_be_bytes_each(bytes: &[[u8; 48]; LANES]) -> Fp8 {
        let mut digits: [[u64; DIGITS]; LANES] = bytes.map(|b| digits_of_be(&b, RADIX as usize));
        let plain = Fp8(halves_of(&digits));
        zeroize::Zeroize::zeroize(&mut digits);
        plain.mul(&splat(R_SQUARED))
    }

    /// The canonical plain values (`< p`) of the 8 lanes as 48 big-endian
    /// bytes each (secret where the element is: the caller wipes them).
    #[target_feature(enable = "avx2")]
    pub(crate) fn be_bytes_each(&self) -> [[u8; 48]; LANES] {
        let mut canonical = self.canonical();
        let mut digits = digits_of_halves(&canonical);
        let bytes = core::array::from_fn(|j| be_of_digits(&digits[j], RADIX as usize));
        wipe(core::slice::from_mut(&mut canonical));
        zeroize::Zeroize::zeroize(&mut digits);
        bytes
    }

    /// The 8 lanes rotated by `K` ∈ {1, 2, 4} (lane `i` gets lane `i + K
    /// mod 8`), across the two halves.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn rotate_lanes<const K: i32>(&self) -> Fp8 {
        Fp8(rotated::<K, DIGITS>(&self.0))
    }

    /// Debug builds check that the low digits are carried and that every
    /// lane's value is below `multiple·p`; release builds compile this to
    /// nothing.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn debug_assert_below(&self, multiple: u64) {
        if cfg!(debug_assertions) {
            let bound = big_times(&P, multiple);
            for lane in digits_of_halves(&self.0) {
                assert!(
                    lane[..DIGITS - 1].iter().all(|&d| d <= DIGIT_MASK),
                    "a low digit above 2^29"
                );
                assert!(
                    !big_at_least(&big_of_digits(&lane), &bound),
                    "a value at or above {multiple}·p"
                );
            }
        }
    }

    /// `self + other`, below 2p (operands below 2p).
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn add(&self, other: &Fp8) -> Fp8 {
        self.debug_assert_below(2);
        other.debug_assert_below(2);
        let sum = each_digit(|h, i| _mm256_add_epi64(self.0[h][i], other.0[h][i]));
        Fp8::below_two_p(sum)
    }

    /// Digits of a value below 4p brought below 2p.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn below_two_p(sum: [Half; 2]) -> Fp8 {
        let reduced = Fp8(sum.map(|half| subtract_if_at_least(&carry(half), &MINUS_TWO_P).0));
        reduced.debug_assert_below(2);
        reduced
    }

    /// `self + other` unreduced (below the sum of their bounds), only as
    /// an operand of [`Fp8::mul`] or [`Fp8::square`] (carried, so that
    /// the products' columns keep their room).
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn add_lazy(&self, other: &Fp8) -> Fp8 {
        Fp8(
            each_digit(|h, i| _mm256_add_epi64(self.0[h][i], other.0[h][i]))
                .map(|half| carry(half)),
        )
    }

    /// `Σ 2^s·a − Σ 2^t·b + BIAS·p` over the terms `(a, s)` of `plus` and
    /// `(b, t)` of `minus` (`s, t ≤ 3`, each term an element of this module,
    /// reduced or not), unreduced and carried: `BIAS·p` is at least the
    /// bound of `Σ 2^t·b`, and `BOUND·p` that of the result (checked in
    /// debug builds), at most [`MAX_OPERAND_MULTIPLE`]`·p` so that it may
    /// feed [`Fp8::mul`]. The bias's low digits cover any `MINUS` terms' digits
    /// ([`bias`]), so no digit goes below zero whatever the terms' values.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn combination<
        const BIAS: u64,
        const BOUND: u64,
        const PLUS: usize,
        const MINUS: usize,
    >(
        plus: [(&Fp8, u32); PLUS],
        minus: [(&Fp8, u32); MINUS],
    ) -> Fp8 {
        const { assert!(BOUND <= MAX_OPERAND_MULTIPLE, "an operand of a product") };
        let bias = broadcast(&const { bias(BIAS, MINUS as u64) });
        let mut sums: [Half; 2] = [bias, bias];
        let signed = plus
            .iter()
            .map(|t| (t, false))
            .chain(minus.iter().map(|t| (t, true)));
        for (&(term, shift), subtract) in signed {
            debug_assert!(shift <= 3);
            term.debug_assert_below(MAX_OPERAND_MULTIPLE);
            let count = _mm_cvtsi32_si128(shift as i32);
            sums = each_digit(|h, i| {
                let scaled = _mm256_sll_epi64(term.0[h][i], count);
                if subtract {
                    _mm256_sub_epi64(sums[h][i], scaled)
                } else {
                    _mm256_add_epi64(sums[h][i], scaled)
                }
            });
        }
        let value = Fp8(sums.map(|half| carry(half)));
        value.debug_assert_below(BOUND);
        value
    }

    /// `self − other`, below 2p (operands below 2p), computed as `self +
    /// 2p − other` and brought below 2p.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn sub(&self, other: &Fp8) -> Fp8 {
        self.debug_assert_below(2);
        other.debug_assert_below(2);
        let bias = broadcast(&const { bias(2, 1) });
        let sum = each_digit(|h, i| {
            _mm256_sub_epi64(_mm256_add_epi64(self.0[h][i], bias[i]), other.0[h][i])
        });
        Fp8::below_two_p(sum)
    }

    /// `−self`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn neg(&self) -> Fp8 {
        Fp8::zero().sub(self)
    }

    /// `self · other / R`, below 2p (operands below `2^11·p`).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn mul(&self, other: &Fp8) -> Fp8 {
        self.debug_assert_below(MAX_OPERAND_MULTIPLE);
        other.debug_assert_below(MAX_OPERAND_MULTIPLE);
        let product = Fp8(kernels::product(&self.0, &other.0));
        product.debug_assert_below(2);
        product
    }

    /// `(self·other + c·d)/R` with one reduction, below 2p (operands below
    /// `2^11·p`: the two products below `2^785 < R·p` together).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn mul_sum(&self, other: &Fp8, c: &Fp8, d: &Fp8) -> Fp8 {
        for operand in [self, other, c, d] {
            operand.debug_assert_below(MAX_OPERAND_MULTIPLE);
        }
        let sum = Fp8(kernels::product_sum(&self.0, &other.0, &c.0, &d.0));
        sum.debug_assert_below(2);
        sum
    }

    /// `self² / R`, below 2p (an operand below `2^11·p`): the product by
    /// itself (a kernel of its own, with each cross product once, made the
    /// engine slower: `scripts/gen-bls12-381-avx2-kernels`).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn square(&self) -> Fp8 {
        self.mul(self)
    }

    /// `self^(p − 2) = 1/self` (0 for 0).
    #[target_feature(enable = "avx2")]
    pub(crate) fn invert(&self) -> Fp8 {
        let [inverse] = pow_each(&[*self], &P_MINUS_2);
        inverse
    }

    /// The canonical plain value (`< p`, out of Montgomery form) of each
    /// lane, as digits below 2^29: the Montgomery product by a plain 1 is
    /// at most p, and one masked subtraction of p brings it below p.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn canonical(&self) -> [Half; 2] {
        let mut unit = [0; DIGITS];
        unit[0] = 1;
        let plain = self.mul(&splat(unit)).0;
        plain.map(|half| subtract_if_at_least(&half, &MINUS_P).0)
    }

    /// Lanes whose canonical value is above `(p − 1)/2` (the compressed
    /// encoding's sign flag), constant time.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn is_largest(&self) -> u8 {
        let halves = self
            .canonical()
            .map(|half| subtract_if_at_least(&half, &MINUS_HALF_P_PLUS_1).1);
        crate::group::lanes::halves::sign_mask(halves)
    }
}

avx2_lane_field!(Fp8);

/// `x^((p + 1)/4)` for each of `N` vectors, the square root of `x` where it
/// is a square, the chains side by side (the decoder takes its roots in
/// pairs).
#[target_feature(enable = "avx2")]
pub(crate) fn sqrt_candidate_each<const N: usize>(x: &[Fp8; N]) -> [Fp8; N] {
    pow_each(x, &SQRT_EXPONENT)
}

/// The value of an element's digits (debug checks).
fn big_of_digits(digits: &[u64; DIGITS]) -> Big {
    let mut value: Big = [0; WORDS];
    for &digit in digits.iter().rev() {
        // value = value·2^29 + digit.
        let mut carry = digit as u128;
        for word in value.iter_mut() {
            let wide = ((*word as u128) << RADIX) + carry;
            *word = wide as u64;
            carry = wide >> 64;
        }
    }
    value
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod timing;
