//! 8 lanes as two AVX2 registers of 4 (lanes 0–3, then 4–7): what the
//! AVX2 fields (P-256's, GF(2^255 − 19)'s, BLS12-381's) share for moving digits in and
//! out, choosing lanes by a secret mask, reading a mask back, and
//! rotating lanes across the two registers; and [`avx2_lane_field!`], what
//! is written once for every such field (as `field::lane_field!` is for the
//! AVX-512 ones). Masks of lanes are bytes (bit `j`: lane `j`), as with
//! AVX-512's `__mmask8`.

use core::arch::x86_64::*;

use super::toolkit::LANES;
use crate::mp::backend::avx2::select::lane_mask_eq;

/// `a` in the lanes where `lanes` is all ones, `b` where it is zero (bit by
/// bit).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn bitselect(lanes: __m256i, a: __m256i, b: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_and_si256(lanes, a), _mm256_andnot_si256(lanes, b))
}

/// 8 lanes' `N` digits as two halves of `N` registers (digit `i` of lane
/// `4h + j` in lane `j` of register `i` of half `h`).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn halves_of<const N: usize>(digits: &[[u64; N]; LANES]) -> [[__m256i; N]; 2] {
    core::array::from_fn(|h| {
        core::array::from_fn(|i| {
            let lane = |j: usize| digits[4 * h + j][i] as i64;
            _mm256_set_epi64x(lane(3), lane(2), lane(1), lane(0))
        })
    })
}

/// The 8 lanes' digits of two halves (the caller wipes them where they
/// are secret; the stores in between are wiped here).
#[target_feature(enable = "avx2")]
pub(crate) fn digits_of_halves<const N: usize>(halves: &[[__m256i; N]; 2]) -> [[u64; N]; LANES] {
    let mut out = [[0u64; N]; LANES];
    for (h, half) in halves.iter().enumerate() {
        for (i, digit) in half.iter().enumerate() {
            let mut lanes = [0u64; 4];
            // SAFETY: 4 u64 are 32 bytes; unaligned store.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), *digit) };
            for (j, lane) in lanes.iter().enumerate() {
                out[4 * h + j][i] = *lane;
            }
            zeroize::Zeroize::zeroize(&mut lanes);
        }
    }
    out
}

/// The lanes of half `half` (0: lanes 0–3) selected by the mask's bits,
/// as all-ones or zero lanes hidden from the optimiser (`lane_mask_eq`).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn lanes_of_mask(mask: u8, half: usize) -> __m256i {
    let bits = _mm256_set_epi64x(8, 4, 2, 1);
    let shifted = i64::from(mask >> (4 * half));
    lane_mask_eq(_mm256_and_si256(_mm256_set1_epi64x(shifted), bits), bits)
}

/// The mask of the lanes whose 64-bit value has its sign bit set.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn sign_mask(halves: [__m256i; 2]) -> u8 {
    let low = _mm256_movemask_pd(_mm256_castsi256_pd(halves[0])) as u8;
    let high = _mm256_movemask_pd(_mm256_castsi256_pd(halves[1])) as u8;
    low | (high << 4)
}

/// The 8 lanes of two halves of `N` digit registers rotated by `K` ∈ {1,
/// 2, 4} lanes (lane `i` gets lane `i + K mod 8`), across the halves.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn rotated<const K: i32, const N: usize>(
    halves: &[[__m256i; N]; 2],
) -> [[__m256i; N]; 2] {
    const { assert!(K == 1 || K == 2 || K == 4, "rotations by 1, 2 or 4 lanes") };
    core::array::from_fn(|h| {
        core::array::from_fn(|i| {
            let (own, other) = (halves[h][i], halves[1 - h][i]);
            // The own half's upper two lanes, then the other's lower two.
            let straddle = _mm256_permute2x128_si256::<0x21>(own, other);
            match K {
                1 => _mm256_alignr_epi8::<8>(straddle, own),
                2 => straddle,
                _ => other,
            }
        })
    })
}

/// Writes, once for every AVX2 lane field `$field` (a tuple struct of two
/// halves of digit registers, with inherent `one`, `mul`, `square`,
/// `invert`, `sub`, `neg`, and `canonical()`, its digits reduced below p):
/// its [`LaneField`](super::field::LaneField) impl, and the inherent
/// `is_zero`, `equals`, `is_odd` (of the canonical value), `select`,
/// `negate_where` and `square_times`. A mask may be secret: selections go
/// bit by bit through `lanes_of_mask`.
macro_rules! avx2_lane_field {
    ($field:ident) => {
        impl $field {
            /// Lanes whose value is zero modulo p.
            #[inline]
            #[target_feature(enable = "avx2")]
            pub(crate) fn is_zero(&self) -> u8 {
                use core::arch::x86_64::*;
                let halves = self.canonical().map(|half| {
                    let any = half
                        .iter()
                        .fold(_mm256_setzero_si256(), |any, d| _mm256_or_si256(any, *d));
                    _mm256_cmpeq_epi64(any, _mm256_setzero_si256())
                });
                $crate::group::lanes::halves::sign_mask(halves)
            }

            /// Lanes where `self ≡ other`.
            #[inline]
            #[target_feature(enable = "avx2")]
            pub(crate) fn equals(&self, other: &$field) -> u8 {
                self.sub(other).is_zero()
            }

            /// Lanes whose canonical value is odd (SEC1's `y` parity, RFC
            /// 9496's `IS_NEGATIVE`).
            #[inline]
            #[target_feature(enable = "avx2")]
            pub(crate) fn is_odd(&self) -> u8 {
                use core::arch::x86_64::*;
                let halves = self
                    .canonical()
                    .map(|half| _mm256_slli_epi64::<63>(half[0]));
                $crate::group::lanes::halves::sign_mask(halves)
            }

            /// `other` in the lanes of `mask`, `self` elsewhere (bit by bit:
            /// the mask may be secret).
            #[inline]
            #[target_feature(enable = "avx2")]
            pub(crate) fn select(&self, other: &$field, mask: u8) -> $field {
                use $crate::group::lanes::halves::{bitselect, lanes_of_mask};
                $field([0, 1].map(|h| {
                    let lanes = lanes_of_mask(mask, h);
                    core::array::from_fn(|i| bitselect(lanes, other.0[h][i], self.0[h][i]))
                }))
            }

            /// `−self` in the lanes of `mask`.
            #[inline]
            #[target_feature(enable = "avx2")]
            pub(crate) fn negate_where(&self, mask: u8) -> $field {
                self.select(&self.neg(), mask)
            }

            /// `self^(2^k)`.
            #[allow(
                dead_code,
                reason = "a field whose chains all run side by side (BLS12-381's) has no use for it"
            )]
            #[inline]
            #[target_feature(enable = "avx2")]
            pub(crate) fn square_times(&self, k: u32) -> $field {
                let mut x = *self;
                for _ in 0..k {
                    x = x.square();
                }
                x
            }
        }

        impl $crate::group::lanes::field::LaneField for $field {
            type Set = $crate::group::lanes::avx2::Set;

            unsafe fn one_lanes() -> $field {
                // SAFETY: the caller's CPU has AVX2 (trait contract; here and
                // below).
                unsafe { $field::one() }
            }

            #[inline]
            unsafe fn times(&self, other: &$field) -> $field {
                // SAFETY: as above.
                unsafe { self.mul(other) }
            }

            #[inline]
            unsafe fn squared(&self) -> $field {
                // SAFETY: as above.
                unsafe { self.square() }
            }

            unsafe fn inverse(&self) -> $field {
                // SAFETY: as above.
                unsafe { self.invert() }
            }
        }
    };
}
pub(crate) use avx2_lane_field;
