//! Arithmetic modulo P-256's prime p = 2^256 − 2^224 + 2^192 + 2^96 − 1 on
//! 8 field elements at once with AVX2 (for CPUs without AVX-512 IFMA):
//! radix 2^29, nine digits, digit `i` of elements 0–3 in one ymm register
//! and of elements 4–7 in a second (each a 64-bit lane holding a digit),
//! products by VPMULUDQ (32 × 32 → 64 bits), in Montgomery form `x·R` with
//! `R = 2^261`. The two halves are independent, so every operation runs
//! two chains side by side. Constant time: the same instructions whatever
//! the values; masks of lanes are bytes (bit `j`: element `j`), as with
//! AVX-512's `__mmask8`.
//!
//! Bounds. An element has non-negative digits below `2^29 + 2^7` (a sum's
//! digits are carried once, all at a time, not rippled) and a value below
//! 2^257 (top digit below 2^25), not necessarily below p. Every function
//! returns such elements, and [`Fe8::mul`]'s columns then stay below 2^62.
//!
//! The products, squares, sums and differences are compiled out of line
//! (`#[inline(never)]`): one copy of each, where copies inlined at every
//! call site made the engine's doubling and addition 10–14 KB each and
//! its hot loop outgrew the 32 KB instruction cache (the server went from
//! 24.3 to 21.4 µs per element on Zen 5; PERFORMANCE.md).
//!
//! Montgomery reduction costs no multiplication for this p: `−p^{-1} ≡ 1
//! (mod 2^29)`, so step `i` takes the column's low 29 bits `q` as its
//! multiplier, and `q·p = q·(2^256 − 2^224 + 2^192 + 2^96) − q` is four
//! shifted copies of `q` (the `−q` clears the column). The one negative
//! copy, `−q·2^224`, is added as `(2^29 − 1 − q)·2^224` so that no column
//! goes below zero; the nine steps' surplus, `E = 2^224·(2^261 − 1)`, is
//! cancelled by starting the columns at `(−E) mod p` ([`CANCEL_SURPLUS`]).

use core::arch::x86_64::*;

use crate::group::lanes::halves::{
    avx2_lane_field, bitselect, digits_of_halves, halves_of, rotated,
};
use crate::group::lanes::radix::{be_of_digits, digits_of_be};
use crate::group::lanes::toolkit::{PlainLimbs, LANES};
use crate::mp::backend::avx2::select::lane_mask_eq;

/// Digits of an element.
pub(super) const DIGITS: usize = 9;

/// Bits per digit.
const RADIX: i32 = 29;

/// What an element's digits stay below: `2^29 + 2^7`.
pub(super) const DIGIT_BOUND: i64 = (1 << RADIX) + (1 << 7);

/// What an element's top digit stays below: `2^25` (a value below 2^257).
pub(super) const TOP_DIGIT_BOUND: i64 = 1 << 25;

/// `2^29 − 1`.
const DIGIT_MASK: i64 = (1 << RADIX) - 1;

/// p in radix 2^29 (what the tests check the other constants against).
#[cfg(test)]
pub(super) const P: [u32; DIGITS] = [
    0x1fffffff, 0x1fffffff, 0x1fffffff, 0x000001ff, 0x00000000, 0x00000000, 0x00040000, 0x1fe00000,
    0x00ffffff,
];

/// 4p with each of its eight low digits in `[2^29 + 2^11, 2^30)` (borrowed
/// from the digit above), so that the bias of a subtraction exceeds every
/// digit of any element, and its top digit, about 2^26, any element's top
/// digit: `a + FOUR_P − b` has no negative digit.
const FOUR_P: [u32; DIGITS] = [
    0x3ffffffc, 0x3ffffffe, 0x3ffffffe, 0x200007fe, 0x3fffffff, 0x3ffffffe, 0x200ffffe, 0x3f7fffff,
    0x03fffffe,
];

/// `2^261 − p`: adding it subtracts p, modulo 2^261 ([`Fe8::canonical`]).
const MINUS_P: [u32; DIGITS] = [
    0x00000001, 0x00000000, 0x00000000, 0x1ffffe00, 0x1fffffff, 0x1fffffff, 0x1ffbffff, 0x001fffff,
    0x1f000000,
];

/// `(−2^224·(2^261 − 1)) mod p`: the product columns start here, so that
/// the reduction's surplus (module documentation) vanishes modulo p.
const CANCEL_SURPLUS: [u32; DIGITS] = [
    0x1fffffff, 0x000000ff, 0x00000800, 0x00004200, 0x00000000, 0x1ff00000, 0x1f03ffff, 0x13ffffff,
    0x00ffffff,
];

/// `R² mod p`: multiplying by it enters Montgomery form.
const R_SQUARED: [u32; DIGITS] = [
    0x00000c00, 0x00000000, 0x1fff0000, 0x1fdfffff, 0x1fbfffff, 0x1fffffff, 0x1fffffff, 0x1ffffffe,
    0x00000013,
];

/// `b` of the curve equation, in Montgomery form.
pub(crate) const B: [u32; DIGITS] = [
    0x1897bbfb, 0x1cdf6229, 0x018486c4, 0x01732821, 0x1dad59e0, 0x0abf7212, 0x1a06d110, 0x17721d20,
    0x008600c3,
];

/// RFC 9380's `Z = −10` for P-256, in Montgomery form.
pub(crate) const Z: [u32; DIGITS] = [
    0x1ffffebf, 0x1fffffff, 0x1fffffff, 0x000281ff, 0x00000000, 0x00000000, 0x05040000, 0x17e00000,
    0x00fffffe,
];

/// `sqrt(−Z) = sqrt(10)` (`c2` of `sqrt_ratio` for p ≡ 3 mod 4), in
/// Montgomery form.
pub(crate) const SQRT_MINUS_Z: [u32; DIGITS] = [
    0x1432bfb2, 0x1d38ee98, 0x0e7b850f, 0x02b5ac8f, 0x1fdcf080, 0x08f9ea8d, 0x01ec89e4, 0x1a8aa3cc,
    0x000a3a4d,
];

/// `2^256 mod p`, in Montgomery form.
pub(crate) const TWO_POW_256: [u32; DIGITS] = [
    0x00000060, 0x00000000, 0x1ffff800, 0x1ffeffff, 0x1ffdffff, 0x1fffffff, 0x1effffff, 0x13ffffff,
    0x00000000,
];

/// `R mod p`: 1 in Montgomery form.
const ONE: [u32; DIGITS] = [
    0x00000020, 0x00000000, 0x00000000, 0x1fffc000, 0x1fffffff, 0x1fffffff, 0x1f7fffff, 0x03ffffff,
    0x00000000,
];

/// The digits of 4 elements, digit `i` of element `j` in lane `j` of
/// register `i`.
type Half = [__m256i; DIGITS];

/// 8 elements of GF(p) in Montgomery form: elements 0–3, then 4–7.
#[derive(Clone, Copy)]
pub(crate) struct Fe8([Half; 2]);

// SAFETY: eighteen `__m256i`, nothing else.
unsafe impl PlainLimbs for Fe8 {}

/// Nine digits broadcast to the 4 lanes of a half.
#[inline]
#[target_feature(enable = "avx2")]
fn broadcast(digits: [u32; DIGITS]) -> Half {
    digits.map(|d| _mm256_set1_epi64x(i64::from(d)))
}

/// A constant already in Montgomery form, in all 8 lanes.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn splat(digits: [u32; DIGITS]) -> Fe8 {
    let half = broadcast(digits);
    Fe8([half, half])
}

/// Brings non-negative digits below 2^35 to an element of the module's
/// bounds, congruent modulo p: the top digit's bits from 2^256 up (`t`)
/// fold back as `t·(2^256 mod p)`, whose digits `[1, 0, 0, 2^29 − 2^9,
/// 2^29 − 1, 2^29 − 1, 2^29 − 2^18 − 1, 2^21 − 1]` are all non-negative,
/// then one round of carries, every digit's at once (no ripple: a digit
/// below 2^35 carries at most 2^6 into the next, so the digits end below
/// 2^29 + 2^6).
#[inline]
#[target_feature(enable = "avx2")]
fn reduce_half(mut c: Half) -> Half {
    debug_assert_digits_below(&c, 1 << 35);
    let t = _mm256_srli_epi64::<24>(c[8]);
    c[8] = _mm256_and_si256(c[8], _mm256_set1_epi64x((1 << 24) - 1));
    let t_shifted = _mm256_slli_epi64::<RADIX>(t);
    let all_ones = _mm256_sub_epi64(t_shifted, t);
    c[0] = _mm256_add_epi64(c[0], t);
    c[3] = _mm256_add_epi64(c[3], _mm256_sub_epi64(t_shifted, _mm256_slli_epi64::<9>(t)));
    c[4] = _mm256_add_epi64(c[4], all_ones);
    c[5] = _mm256_add_epi64(c[5], all_ones);
    c[6] = _mm256_add_epi64(c[6], _mm256_sub_epi64(all_ones, _mm256_slli_epi64::<18>(t)));
    c[7] = _mm256_add_epi64(c[7], _mm256_sub_epi64(_mm256_slli_epi64::<21>(t), t));
    let mask = _mm256_set1_epi64x(DIGIT_MASK);
    let carries: [__m256i; DIGITS] = core::array::from_fn(|i| _mm256_srli_epi64::<RADIX>(c[i]));
    core::array::from_fn(|i| {
        if i == 0 {
            _mm256_and_si256(c[0], mask)
        } else if i == DIGITS - 1 {
            _mm256_add_epi64(c[i], carries[i - 1])
        } else {
            _mm256_add_epi64(_mm256_and_si256(c[i], mask), carries[i - 1])
        }
    })
}

/// Debug builds check that every lane of `digits` is in `[0, bound)`.
#[inline]
#[target_feature(enable = "avx2")]
fn debug_assert_digits_below(digits: &[__m256i], bound: i64) {
    if cfg!(debug_assertions) {
        for (i, digit) in digits.iter().enumerate() {
            let over = _mm256_cmpgt_epi64(*digit, _mm256_set1_epi64x(bound - 1));
            let negative = _mm256_cmpgt_epi64(_mm256_setzero_si256(), *digit);
            let outside = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_or_si256(over, negative)));
            assert_eq!(outside, 0, "digit {i} outside [0, {bound:#x})");
        }
    }
}

/// [`reduce_half`] on both halves of digit sums.
#[inline]
#[target_feature(enable = "avx2")]
fn reduce(sums: [Half; 2]) -> Fe8 {
    let reduced = Fe8([reduce_half(sums[0]), reduce_half(sums[1])]);
    reduced.debug_assert_bounds();
    reduced
}

/// The digits `digit(half, i)` of both halves.
#[inline]
#[target_feature(enable = "avx2")]
fn each_digit(digit: impl Fn(usize, usize) -> __m256i) -> [Half; 2] {
    [0, 1].map(|h| core::array::from_fn(|i| digit(h, i)))
}

impl Fe8 {
    /// 0 in every lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn zero() -> Fe8 {
        Fe8([[_mm256_setzero_si256(); DIGITS]; 2])
    }

    /// 1 in every lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn one() -> Fe8 {
        splat(ONE)
    }

    /// The elements of plain (not Montgomery) values given as digits below
    /// 2^29 with a value below 2^256 (e.g. decoded bytes).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn from_canonical_digits(digits: [Half; 2]) -> Fe8 {
        Fe8(digits).mul(&splat(R_SQUARED))
    }

    /// The elements of 8 plain (not Montgomery) values given as 32
    /// big-endian bytes each, below 2^256 (a decoded coordinate, part of a
    /// hashed string).
    #[target_feature(enable = "avx2")]
    pub(crate) fn from_be_bytes_each(bytes: &[[u8; 32]; LANES]) -> Fe8 {
        let digits: [[u64; DIGITS]; LANES] = bytes.map(|b| digits_of_be(&b, RADIX as usize));
        let halves = halves_of(&digits);
        Fe8::from_canonical_digits(halves)
    }

    /// The canonical plain values (`< p`) of the 8 lanes as 32 big-endian
    /// bytes each (secret where the element is: the caller wipes them).
    #[target_feature(enable = "avx2")]
    pub(crate) fn be_bytes_each(&self) -> [[u8; 32]; LANES] {
        let mut digits = digits_of_halves(&self.canonical());
        let bytes = digits.map(|d| be_of_digits(&d, RADIX as usize));
        zeroize::Zeroize::zeroize(&mut digits);
        bytes
    }

    /// The 8 lanes rotated by `K` ∈ {1, 2, 4} (lane `i` gets lane `i + K
    /// mod 8`), across the two halves.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn rotate_lanes<const K: i32>(&self) -> Fe8 {
        Fe8(rotated::<K, DIGITS>(&self.0))
    }

    /// Debug builds check the module's bounds ([`DIGIT_BOUND`],
    /// [`TOP_DIGIT_BOUND`]) where an element is made and where a
    /// multiplication reads one; release builds compile this to nothing.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn debug_assert_bounds(&self) {
        if cfg!(debug_assertions) {
            for half in &self.0 {
                debug_assert_digits_below(&half[..DIGITS - 1], DIGIT_BOUND);
                debug_assert_digits_below(&half[DIGITS - 1..], TOP_DIGIT_BOUND);
            }
        }
    }

    /// `self + other`.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn add(&self, other: &Fe8) -> Fe8 {
        reduce(each_digit(|h, i| {
            _mm256_add_epi64(self.0[h][i], other.0[h][i])
        }))
    }

    /// `self − other`, computed as `self + 4p − other` (no negative digit:
    /// see [`FOUR_P`]).
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn sub(&self, other: &Fe8) -> Fe8 {
        let bias = broadcast(FOUR_P);
        reduce(each_digit(|h, i| {
            _mm256_sub_epi64(_mm256_add_epi64(self.0[h][i], bias[i]), other.0[h][i])
        }))
    }

    /// `self − 2^K·other` for `K ≤ 3` in one reduction, computed as `self +
    /// 2^K·4p − 2^K·other`.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn sub_times_pow2<const K: i32>(&self, other: &Fe8) -> Fe8 {
        debug_assert!(K <= 3);
        let bias = broadcast(FOUR_P);
        reduce(each_digit(|h, i| {
            let scaled = _mm256_slli_epi64::<K>(_mm256_sub_epi64(bias[i], other.0[h][i]));
            _mm256_add_epi64(self.0[h][i], scaled)
        }))
    }

    /// `self − b − 2^K·c` for `K ≤ 1` in one reduction, computed as `self
    /// + (1 + 2^K)·4p − b − 2^K·c`.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn sub_two<const K: i32>(&self, b: &Fe8, c: &Fe8) -> Fe8 {
        debug_assert!(K <= 1);
        let bias = broadcast(FOUR_P);
        reduce(each_digit(|h, i| {
            let from_b = _mm256_sub_epi64(bias[i], b.0[h][i]);
            let from_c = _mm256_slli_epi64::<K>(_mm256_sub_epi64(bias[i], c.0[h][i]));
            _mm256_add_epi64(self.0[h][i], _mm256_add_epi64(from_b, from_c))
        }))
    }

    /// `2^K·self − other` for `K ≤ 3` in one reduction, computed as
    /// `2^K·self + 4p − other`.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn times_pow2_sub<const K: i32>(&self, other: &Fe8) -> Fe8 {
        debug_assert!(K <= 3);
        let bias = broadcast(FOUR_P);
        reduce(each_digit(|h, i| {
            let scaled = _mm256_slli_epi64::<K>(self.0[h][i]);
            _mm256_sub_epi64(_mm256_add_epi64(scaled, bias[i]), other.0[h][i])
        }))
    }

    /// `3·(self − other)` in one reduction, computed as `3·(self + 4p −
    /// other)`.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn sub_times_3(&self, other: &Fe8) -> Fe8 {
        let bias = broadcast(FOUR_P);
        reduce(each_digit(|h, i| {
            let d = _mm256_sub_epi64(_mm256_add_epi64(self.0[h][i], bias[i]), other.0[h][i]);
            _mm256_add_epi64(_mm256_slli_epi64::<1>(d), d)
        }))
    }

    /// `−self`.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn neg(&self) -> Fe8 {
        Fe8::zero().sub(self)
    }

    /// `2^K · self` for `K ≤ 3`.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn times_pow2<const K: i32>(&self) -> Fe8 {
        debug_assert!(K <= 3);
        reduce(each_digit(|h, i| _mm256_slli_epi64::<K>(self.0[h][i])))
    }

    /// `3 · self`.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn times_3(&self) -> Fe8 {
        reduce(each_digit(|h, i| {
            _mm256_add_epi64(_mm256_slli_epi64::<1>(self.0[h][i]), self.0[h][i])
        }))
    }

    /// `self · other / R`: the 81 digit products of each half, column by
    /// column (see [`montgomery_product`]).
    ///
    /// Bound: operands below 2^257 give `(a·b + CANCEL_SURPLUS + E +
    /// m·p)/R < 2^253 + 2^225 + p < 2^257`; every column stays below
    /// `9·2^58 + 2^54 < 2^62`.
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn mul(&self, other: &Fe8) -> Fe8 {
        self.debug_assert_bounds();
        other.debug_assert_bounds();
        let (a, b) = (&self.0, &other.0);
        montgomery_product(|k, h, mut column| {
            unrolled!(i < DIGITS => {
                if i <= k && k - i < DIGITS {
                    // SAFETY: references to initialized digits.
                    let (x, y) = unsafe { (core::ptr::read_volatile(&a[h][i]), core::ptr::read_volatile(&b[h][k - i])) };
                    column = _mm256_add_epi64(column, _mm256_mul_epu32(x, y));
                }
            });
            column
        })
    }

    /// `self² / R`: each cross product once, by the doubled digit, and the
    /// nine squares (45 products a half); otherwise as [`Fe8::mul`].
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(crate) fn square(&self) -> Fe8 {
        self.debug_assert_bounds();
        let a = &self.0;
        let doubled: [Half; 2] =
            core::array::from_fn(|h| core::array::from_fn(|i| _mm256_add_epi64(a[h][i], a[h][i])));
        montgomery_product(|k, h, mut column| {
            unrolled!(i < DIGITS => {
                if 2 * i <= k && k - i < DIGITS {
                    // SAFETY: references to initialized digits.
                    let product = unsafe {
                        if 2 * i == k {
                            let x = core::ptr::read_volatile(&a[h][i]);
                            _mm256_mul_epu32(x, x)
                        } else {
                            let x = core::ptr::read_volatile(&doubled[h][i]);
                            _mm256_mul_epu32(x, core::ptr::read_volatile(&a[h][k - i]))
                        }
                    };
                    column = _mm256_add_epi64(column, product);
                }
            });
            column
        })
    }

    /// The canonical plain value (`< p`, out of Montgomery form) of each
    /// lane, as digits below 2^29: the Montgomery product by a plain 1 is
    /// below `p + 2^225` (its bound, with `a·b < 2^257`), so below 2p, and
    /// one masked subtraction of p brings it below p. The subtraction adds
    /// `2^261 − p` ([`MINUS_P`]): bit 261 of the sum is set exactly where
    /// the value is at least p, and the sum's low 261 bits are then the
    /// difference.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn canonical(&self) -> [Half; 2] {
        let mut one = [0; DIGITS];
        one[0] = 1;
        let plain = self.mul(&splat(one)).0;
        let minus_p = broadcast(MINUS_P);
        let mask = _mm256_set1_epi64x(DIGIT_MASK);
        plain.map(|plain| {
            let mut difference = [_mm256_setzero_si256(); DIGITS];
            let mut carry = _mm256_setzero_si256();
            for i in 0..DIGITS {
                let sum = _mm256_add_epi64(_mm256_add_epi64(plain[i], minus_p[i]), carry);
                carry = _mm256_srli_epi64::<RADIX>(sum);
                difference[i] = _mm256_and_si256(sum, mask);
            }
            // All ones where the value is at least p (the carry out is 1; a
            // secret lane mask).
            let at_least_p = lane_mask_eq(carry, _mm256_set1_epi64x(1));
            core::array::from_fn(|i| bitselect(at_least_p, difference[i], plain[i]))
        })
    }
}

avx2_lane_field!(Fe8);

/// A Montgomery product, column by column, both halves side by side:
/// column `k` starts from [`CANCEL_SURPLUS`]'s digit, the carry of column
/// `k − 1` and the shifted copies of the earlier steps' multipliers that
/// land there, then `add_products(k, half, column)` adds its digit
/// products. Columns 0 to 8 are the reduction's steps: the low 29 bits `q`
/// of the column are its multiplier (`−p^{-1} ≡ 1`), whose `q·p` clears the
/// column (module documentation); columns 9 to 16 and the last carry are
/// the result. Column by column, so that what is live is one column and
/// the multipliers in flight, not all 17 columns of both halves (which
/// spilled), and unrolled (`unrolled!`), so that every index is a
/// constant and the multipliers stay in registers.
#[allow(
    unused_assignments,
    reason = "the last unrolled copies' multipliers are never read: their columns are past the end"
)]
#[inline]
#[target_feature(enable = "avx2")]
fn montgomery_product(add_products: impl Fn(usize, usize, __m256i) -> __m256i) -> Fe8 {
    let mask = _mm256_set1_epi64x(DIGIT_MASK);
    let zero = _mm256_setzero_si256();
    let mut q = [[zero; DIGITS]; 2];
    let mut result = [[zero; DIGITS]; 2];
    let mut carry = [zero; 2];
    unrolled!(h < 2 => {
        unrolled_window!(k < 2 * DIGITS - 1 => {
            let start = if k < DIGITS { i64::from(CANCEL_SURPLUS[k]) } else { 0 };
            let mut column = _mm256_add_epi64(carry[h], _mm256_set1_epi64x(start));
            // q·2^96, q·2^192, (2^29 − 1 − q)·2^224 and q·2^256 of step
            // `k − s` land here: 96 = 3·29 + 9, 192 = 6·29 + 18, 224 =
            // 7·29 + 21, 256 = 8·29 + 24.
            if k >= 3 && k - 3 < DIGITS {
                column = _mm256_add_epi64(column, _mm256_slli_epi64::<9>(q[h][k - 3]));
            }
            if k >= 6 && k - 6 < DIGITS {
                column = _mm256_add_epi64(column, _mm256_slli_epi64::<18>(q[h][k - 6]));
            }
            if k >= 7 && k - 7 < DIGITS {
                let complement = _mm256_xor_si256(q[h][k - 7], mask);
                column = _mm256_add_epi64(column, _mm256_slli_epi64::<21>(complement));
            }
            if k >= 8 && k - 8 < DIGITS {
                column = _mm256_add_epi64(column, _mm256_slli_epi64::<24>(q[h][k - 8]));
            }
            column = add_products(k, h, column);
            carry[h] = _mm256_srli_epi64::<RADIX>(column);
            let low = _mm256_and_si256(column, mask);
            if k < DIGITS {
                q[h][k] = low;
            } else {
                result[h][k - DIGITS] = low;
            }
        });
    });
    for h in 0..2 {
        result[h][DIGITS - 1] = carry[h];
    }
    let product = Fe8(result);
    product.debug_assert_bounds();
    product
}

#[cfg(test)]
mod tests;
