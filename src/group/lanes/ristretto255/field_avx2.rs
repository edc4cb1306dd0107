//! Arithmetic modulo p = 2^255 − 19 on 8 field elements at once with AVX2
//! (for CPUs without AVX-512 IFMA): radix 2^25.5, ten limbs at bit offsets
//! 0, 26, 51, 77, …, 230 (even limbs 26 bits wide, odd limbs 25), limb `i`
//! of elements 0–3 in one ymm register and of elements 4–7 in a second
//! (each a 64-bit lane whose low 32 bits feed VPMULUDQ, 32 × 32 → 64
//! bits). The two halves are independent, so every operation runs two
//! chains side by side. Constant time: the same instructions whatever the
//! values; masks of lanes are bytes (bit `j`: element `j`).
//!
//! Bounds. A *reduced* element has limb `i` below `2^w_i + 2^18` (`w_i`
//! its width), so its value is below `2^255 + 2^249 < 2p`. Every function
//! takes reduced operands and returns a reduced result. A product's column
//! of reduced operands is below `2^59.5` (each of its ten terms below
//! about 2^52, nine of them at most times 19 where they wrap past 2^255),
//! far inside the 64-bit lane, which is what lets [`Wide8`] sum products
//! before one carry.
//!
//! The product (ref10's): column `k` sums `a_i·b_j` over `i + j ≡ k (mod
//! 10)`, doubled where `i` and `j` are both odd (their offsets add up to
//! one bit more than the column's), times 19 where `i + j ≥ 10` (2^255 ≡
//! 19). The 2 goes on `a` and the 19 on `b`, each factor still below
//! 2^32. Products and squares are inline assembly (`kernels.rs`, written
//! by `scripts/gen-ristretto255-avx2-kernels`), their columns carried in
//! registers or stored for [`Wide8`]: compiled from intrinsics, a
//! product spilled 130 to 200 values and cost up to 1.5 times as much.

mod kernels;

use core::arch::x86_64::*;

use self::kernels::{product, product_columns, square, square_columns};
use crate::group::lanes::halves::{avx2_lane_field, digits_of_halves, halves_of, rotated};
use crate::group::lanes::toolkit::{PlainLimbs, LANES};

/// Limbs of an element.
const LIMBS: usize = 10;

/// The width of limb `i`: 26 bits for even `i`, 25 for odd.
const fn width(i: usize) -> u32 {
    26 - (i % 2) as u32
}

/// Limb `i` of 2p = 2^256 − 38 in this radix: `2^27 − 38`, then
/// `2^(w_i + 1) − 2`, each above a reduced limb, so subtracting from
/// `x + 2p` never goes negative.
const fn two_p_limb(i: usize) -> i64 {
    if i == 0 {
        (1 << 27) - 38
    } else {
        (1 << (width(i) + 1)) - 2
    }
}

/// How far a reduced limb may exceed its width (module documentation).
const LIMB_SLACK: i64 = 1 << 18;

/// The limbs of 4 elements, limb `i` of element `j` in lane `j` of
/// register `i`.
type Half = [__m256i; LIMBS];

/// 8 elements of GF(2^255 − 19): elements 0–3, then 4–7.
#[derive(Clone, Copy)]
pub(crate) struct Fe8([Half; 2]);

// SAFETY: twenty `__m256i`, nothing else.
unsafe impl PlainLimbs for Fe8 {}

/// The ten limbs of a value given as five limbs of radix 2^51 below 2^51
/// each: radix-2^51 limb `k` is limbs `2k` (its low 26 bits) and `2k + 1`
/// (the 25 above).
const fn limbs_of_radix_51(limbs: [u64; 5]) -> [u64; LIMBS] {
    let mut out = [0; LIMBS];
    let mut k = 0;
    while k < 5 {
        out[2 * k] = limbs[k] & ((1 << 26) - 1);
        out[2 * k + 1] = limbs[k] >> 26;
        k += 1;
    }
    out
}

/// A constant given in radix 2^51 (the curve's constants, shared with the
/// IFMA field: `constants.rs`), in all 8 lanes.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn splat(limbs: [u64; 5]) -> Fe8 {
    let half = limbs_of_radix_51(limbs).map(|l| _mm256_set1_epi64x(l as i64));
    Fe8([half, half])
}

/// `19·x` for `x < 2^59`, by shifts and additions (the carries of a
/// product's top limb exceed VPMULUDQ's 32 bits).
#[inline]
#[target_feature(enable = "avx2")]
fn times_19(x: __m256i) -> __m256i {
    let x3 = _mm256_add_epi64(x, _mm256_slli_epi64::<1>(x));
    _mm256_add_epi64(x3, _mm256_slli_epi64::<4>(x))
}

/// Limb `i`'s carry into limb `i + 1`, its own bits kept (limb 9 carries
/// into limb 0 times 19).
#[inline]
#[target_feature(enable = "avx2")]
fn carry_step(c: &mut Half, i: usize) {
    let carry = shifted_by_width(c[i], i);
    c[i] = _mm256_and_si256(c[i], _mm256_set1_epi64x((1 << width(i)) - 1));
    if i == LIMBS - 1 {
        c[0] = _mm256_add_epi64(c[0], times_19(carry));
    } else {
        c[i + 1] = _mm256_add_epi64(c[i + 1], carry);
    }
}

/// Columns below 2^63.5 carried into a reduced half, in ref10's order: two
/// ripples side by side (limbs 0 to 4 and 4 to 9), limb 9 back into limb 0
/// times 19, then limb 0 into 1. Its limbs then end below their widths
/// but for limb 1 (at most `19·2^38.5 / 2^26 < 2^17` more) and limb 5
/// (limb 4's second carry, below 2^14). Each step written out, so that
/// every limb index is a constant.
#[inline]
#[target_feature(enable = "avx2")]
fn carry_half(mut c: Half) -> Half {
    carry_step(&mut c, 0);
    carry_step(&mut c, 4);
    carry_step(&mut c, 1);
    carry_step(&mut c, 5);
    carry_step(&mut c, 2);
    carry_step(&mut c, 6);
    carry_step(&mut c, 3);
    carry_step(&mut c, 7);
    carry_step(&mut c, 4);
    carry_step(&mut c, 8);
    carry_step(&mut c, 9);
    carry_step(&mut c, 0);
    c
}

/// [`carry_half`] of both halves, checked (debug builds) to be reduced.
#[inline]
#[target_feature(enable = "avx2")]
fn carry(columns: [Half; 2]) -> Fe8 {
    let reduced = Fe8([carry_half(columns[0]), carry_half(columns[1])]);
    reduced.debug_assert_reduced();
    reduced
}

/// The limbs `limb(half, i)` of both halves, unrolled (`unrolled!`: every
/// index a constant).
#[inline]
#[target_feature(enable = "avx2")]
fn each_limb(limb: impl Fn(usize, usize) -> __m256i) -> [Half; 2] {
    let mut limbs = [[_mm256_setzero_si256(); LIMBS]; 2];
    unrolled!(h < 2 => {
        unrolled!(i < LIMBS => {
            limbs[h][i] = limb(h, i);
        });
    });
    limbs
}

/// The limbs of `x >> w_i` for limb `i`'s width.
#[inline]
#[target_feature(enable = "avx2")]
fn shifted_by_width(x: __m256i, i: usize) -> __m256i {
    if width(i) == 26 {
        _mm256_srli_epi64::<26>(x)
    } else {
        _mm256_srli_epi64::<25>(x)
    }
}

/// [`Fe8::canonical`] of one half.
#[inline]
#[target_feature(enable = "avx2")]
fn canonical_half(mut l: Half) -> Half {
    let mut q = shifted_by_width(_mm256_add_epi64(l[0], _mm256_set1_epi64x(19)), 0);
    unrolled!(i < LIMBS => {
        if i > 0 {
            q = shifted_by_width(_mm256_add_epi64(l[i], q), i);
        }
    });
    l[0] = _mm256_add_epi64(l[0], _mm256_mul_epu32(q, _mm256_set1_epi64x(19)));
    unrolled!(i < LIMBS => {
        if i + 1 < LIMBS {
            l[i + 1] = _mm256_add_epi64(l[i + 1], shifted_by_width(l[i], i));
        }
        l[i] = _mm256_and_si256(l[i], _mm256_set1_epi64x((1 << width(i)) - 1));
    });
    l
}

impl Fe8 {
    /// 0 in every lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn zero() -> Fe8 {
        Fe8([[_mm256_setzero_si256(); LIMBS]; 2])
    }

    /// 1 in every lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn one() -> Fe8 {
        splat([1, 0, 0, 0, 0])
    }

    /// Debug builds check the bound of the module documentation (limb `i`
    /// below `2^w_i + 2^18`) where an element is made and where a product
    /// reads one; release builds compile this to nothing.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn debug_assert_reduced(&self) {
        if cfg!(debug_assertions) {
            for half in &self.0 {
                for (i, limb) in half.iter().enumerate() {
                    let bound = _mm256_set1_epi64x((1 << width(i)) + LIMB_SLACK - 1);
                    let over = _mm256_cmpgt_epi64(*limb, bound);
                    let negative = _mm256_cmpgt_epi64(_mm256_setzero_si256(), *limb);
                    let outside = _mm256_or_si256(over, negative);
                    assert_eq!(
                        _mm256_movemask_pd(_mm256_castsi256_pd(outside)),
                        0,
                        "limb {i} above its bound"
                    );
                }
            }
        }
    }

    /// `self + other`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn add(&self, other: &Fe8) -> Fe8 {
        carry(each_limb(|h, i| {
            _mm256_add_epi64(self.0[h][i], other.0[h][i])
        }))
    }

    /// `self − other`, computed as `self + 2p − other` ([`two_p_limb`]).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn sub(&self, other: &Fe8) -> Fe8 {
        carry(each_limb(|h, i| {
            let biased = _mm256_add_epi64(self.0[h][i], _mm256_set1_epi64x(two_p_limb(i)));
            _mm256_sub_epi64(biased, other.0[h][i])
        }))
    }

    /// `−self`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn neg(&self) -> Fe8 {
        Fe8::zero().sub(self)
    }

    /// `self · other`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn mul(&self, other: &Fe8) -> Fe8 {
        self.debug_assert_reduced();
        other.debug_assert_reduced();
        let product = Fe8(product(&self.0, &other.0));
        product.debug_assert_reduced();
        product
    }

    /// [`Fe8::mul`] before its carry, for a result that only meets
    /// additions and subtractions (which carry once for all; see
    /// [`Wide8`]).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn mul_wide(&self, other: &Fe8) -> Wide8 {
        self.debug_assert_reduced();
        other.debug_assert_reduced();
        Wide8(product_columns(&self.0, &other.0))
    }

    /// `self²`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn square(&self) -> Fe8 {
        self.debug_assert_reduced();
        let square = Fe8(square(&self.0));
        square.debug_assert_reduced();
        square
    }

    /// [`Fe8::square`] before its carry (see [`Fe8::mul_wide`]).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn square_wide(&self) -> Wide8 {
        self.debug_assert_reduced();
        Wide8(square_columns(&self.0))
    }

    /// `2·self²` before its carry (see [`Fe8::mul_wide`]).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn square_doubled_wide(&self) -> Wide8 {
        let Wide8(columns) = self.square_wide();
        Wide8(each_limb(|h, i| _mm256_slli_epi64::<1>(columns[h][i])))
    }

    /// `self^(p − 2) = 1/self` (`0` for `0`; the engine's chain,
    /// `engine/roots.rs`).
    #[target_feature(enable = "avx2")]
    pub(crate) fn invert(&self) -> Fe8 {
        crate::group::lanes::avx2::ristretto255::roots::invert(self)
    }

    /// The canonical value (`< p`) of each lane as limbs below their
    /// widths: the carry out of bit 255 of `value + 19`, rippled limb by
    /// limb, is 1 exactly where the value is at least p (a reduced value
    /// is below 2p); p is then subtracted by adding 19 and dropping bit
    /// 255.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn canonical(&self) -> [Half; 2] {
        [canonical_half(self.0[0]), canonical_half(self.0[1])]
    }

    /// The field elements of 8 little-endian 32-byte strings (bit 255
    /// dropped).
    #[target_feature(enable = "avx2")]
    pub(crate) fn from_le_bytes_each(bytes: &[[u8; 32]; LANES]) -> Fe8 {
        let mut limbs: [[u64; LIMBS]; LANES] = bytes.map(|b| {
            let mut value = [0u8; 40];
            value[..32].copy_from_slice(&b);
            let mut bit = 0;
            let limbs = core::array::from_fn(|i| {
                let byte = bit / 8;
                let word = u64::from_le_bytes(value[byte..byte + 8].try_into().expect("8 bytes"));
                let limb = (word >> (bit % 8)) & ((1 << width(i)) - 1);
                bit += width(i) as usize;
                limb
            });
            zeroize::Zeroize::zeroize(&mut value);
            limbs
        });
        let element = Fe8(halves_of(&limbs));
        zeroize::Zeroize::zeroize(&mut limbs);
        element
    }

    /// The canonical 32-byte little-endian encodings of the 8 lanes
    /// (secret where the element is: the caller wipes them).
    #[target_feature(enable = "avx2")]
    pub(crate) fn le_bytes_each(&self) -> [[u8; 32]; LANES] {
        let mut limbs = digits_of_halves(&self.canonical());
        let bytes = limbs.map(|limbs| {
            let mut value = [0u8; 40];
            let mut bit = 0;
            for (i, limb) in limbs.iter().enumerate() {
                let byte = bit / 8;
                let mut word =
                    u64::from_le_bytes(value[byte..byte + 8].try_into().expect("8 bytes"));
                word |= limb << (bit % 8);
                value[byte..byte + 8].copy_from_slice(&word.to_le_bytes());
                bit += width(i) as usize;
            }
            let out: [u8; 32] = value[..32].try_into().expect("32 bytes");
            zeroize::Zeroize::zeroize(&mut value);
            out
        });
        zeroize::Zeroize::zeroize(&mut limbs);
        bytes
    }

    /// The 8 lanes rotated by `K` ∈ {1, 2, 4} (lane `i` gets lane `i + K
    /// mod 8`), across the two halves.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn rotate_lanes<const K: i32>(&self) -> Fe8 {
        Fe8(rotated::<K, LIMBS>(&self.0))
    }

    /// Lanes whose value is odd once canonical (RFC 9496 `IS_NEGATIVE`).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn is_negative(&self) -> u8 {
        self.is_odd()
    }

    /// `|self|`: the non-negative one of `±self` (RFC 9496 `CT_ABS`).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn abs(&self) -> Fe8 {
        self.negate_where(self.is_negative())
    }
}

avx2_lane_field!(Fe8);

/// A product before its carry: ten columns below `2^59.5`, a doubled
/// square's below `2^60.5` (module documentation). Products that only meet
/// additions and subtractions stay in this form, and the sum or difference
/// is carried once.
#[derive(Clone, Copy)]
pub(crate) struct Wide8([Half; 2]);

impl Wide8 {
    /// 0 in every lane.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn zero() -> Wide8 {
        Wide8([[_mm256_setzero_si256(); LIMBS]; 2])
    }

    /// `self + other`, reduced (columns below `2^61.5`: the carry takes
    /// them).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn plus(&self, other: &Wide8) -> Fe8 {
        carry(each_limb(|h, i| {
            _mm256_add_epi64(self.0[h][i], other.0[h][i])
        }))
    }

    /// `self − a − b`, reduced, computed as `self + 2^36·2p − a − b`: every
    /// limb of `2^36·2p` (at least `2^62 − 2^37`) exceeds `a + b` (at most
    /// a product and a doubled square: below `2^59.5 + 2^60.5 < 2^61.1`),
    /// and the sum stays below `2^63.5`.
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn minus(&self, a: &Wide8, b: &Wide8) -> Fe8 {
        carry(each_limb(|h, i| {
            let bias = _mm256_set1_epi64x(two_p_limb(i) << 36);
            let subtrahend = _mm256_add_epi64(a.0[h][i], b.0[h][i]);
            if cfg!(debug_assertions) {
                let too_big = _mm256_cmpgt_epi64(subtrahend, bias);
                assert_eq!(
                    _mm256_movemask_pd(_mm256_castsi256_pd(too_big)),
                    0,
                    "subtrahend above its bound"
                );
            }
            _mm256_sub_epi64(_mm256_add_epi64(self.0[h][i], bias), subtrahend)
        }))
    }
}
