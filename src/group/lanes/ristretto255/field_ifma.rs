//! Arithmetic modulo p = 2^255 − 19 on 8 field elements at once: radix 2^51,
//! five limbs, limb `i` of the 8 elements in one zmm register (lane `j` is
//! element `j`), products by VPMADD52LUQ/VPMADD52HUQ. Every operation is
//! constant time: the same instructions whatever the values.
//!
//! Bounds. A *reduced* element has limbs below `2^51 + 2^17`, so its value
//! is below `2^255 + 2^222 < 2p`, and every limb fits the 52 bits an IFMA
//! multiplier reads. Every function takes reduced operands and returns a
//! reduced result (sums and differences are carried at once: a lazy sum
//! could pass 2^52, which IFMA would misread).

use core::arch::x86_64::*;

use crate::group::lanes::field::lane_field;
use crate::group::lanes::toolkit::LANES;

/// `2^51 − 1`.
const LOW_51: i64 = (1 << 51) - 1;

/// 8 elements of GF(2^255 − 19), word-sliced (see the module documentation).
#[derive(Clone, Copy)]
pub(crate) struct Fe8([__m512i; 5]);

// SAFETY: five `__m512i`, nothing else.
unsafe impl crate::group::lanes::toolkit::PlainLimbs for Fe8 {}

/// A constant broadcast to the 8 lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(crate) fn splat(limbs: [u64; 5]) -> Fe8 {
    Fe8(limbs.map(|l| _mm512_set1_epi64(l as i64)))
}

impl Fe8 {
    /// 0 in every lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn zero() -> Fe8 {
        splat([0; 5])
    }

    /// 1 in every lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn one() -> Fe8 {
        splat([1, 0, 0, 0, 0])
    }

    /// Carries limbs below 2^63 into a reduced element in one parallel
    /// round: each limb keeps its low 51 bits and passes the rest (below
    /// 2^12) to the next, the top limb's carry coming back at the bottom
    /// times 19 (2^255 ≡ 19). The limbs are then below `2^51 + 19·2^12`.
    /// One round instead of a ripple keeps the dependency chain three
    /// instructions long.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    fn carry(c: [__m512i; 5]) -> Fe8 {
        let mask = _mm512_set1_epi64(LOW_51);
        let carries = c.map(|limb| _mm512_srli_epi64::<51>(limb));
        let reduced = Fe8(core::array::from_fn(|i| {
            let kept = _mm512_and_si512(c[i], mask);
            let incoming = if i == 0 {
                // The carry is below 2^12: a 32-bit multiplication is exact.
                _mm512_mul_epu32(carries[4], _mm512_set1_epi64(19))
            } else {
                carries[i - 1]
            };
            _mm512_add_epi64(kept, incoming)
        }));
        reduced.debug_assert_reduced();
        reduced
    }

    /// Debug builds check the bound of the module documentation (limbs
    /// below `2^51 + 2^17`) where an element is made and where IFMA reads
    /// one; release builds compile this to nothing.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    fn debug_assert_reduced(&self) {
        if cfg!(debug_assertions) {
            let bound = _mm512_set1_epi64((1 << 51) + (1 << 17));
            for limb in &self.0 {
                assert_eq!(
                    _mm512_cmpge_epu64_mask(*limb, bound),
                    0,
                    "limb above its bound"
                );
            }
        }
    }

    /// `self + other`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn add(&self, other: &Fe8) -> Fe8 {
        Fe8::carry(core::array::from_fn(|i| {
            _mm512_add_epi64(self.0[i], other.0[i])
        }))
    }

    /// `self − other`, computed as `self + 2p − other` (every limb of 2p
    /// exceeds a reduced limb, so nothing goes negative).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn sub(&self, other: &Fe8) -> Fe8 {
        const TWO_P: [i64; 5] = [
            (1 << 52) - 38,
            (1 << 52) - 2,
            (1 << 52) - 2,
            (1 << 52) - 2,
            (1 << 52) - 2,
        ];
        Fe8::carry(core::array::from_fn(|i| {
            let biased = _mm512_add_epi64(self.0[i], _mm512_set1_epi64(TWO_P[i]));
            _mm512_sub_epi64(biased, other.0[i])
        }))
    }

    /// `−self`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn neg(&self) -> Fe8 {
        Fe8::zero().sub(self)
    }

    /// `self · other`: 25 low and 25 high 52-bit product halves summed per
    /// column, the columns above 2^255 folded back times 19, then carried.
    ///
    /// Column `k` (weight 2^51k) gets the low halves of `a_i·b_j`, `i + j =
    /// k`, and twice the high halves of column `k − 1` (a high half weighs
    /// 2^52 = 2·2^51 more); the columns above 2^255 fold back times 19
    /// into limbs the carry takes (their bounds: [`Wide8`]).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn mul(&self, other: &Fe8) -> Fe8 {
        self.mul_wide(other).carry()
    }

    /// [`Fe8::mul`] before its carry, for a result that only meets
    /// additions and subtractions (which carry once for all; see
    /// [`Wide8`]).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn mul_wide(&self, other: &Fe8) -> Wide8 {
        self.debug_assert_reduced();
        other.debug_assert_reduced();
        let (a, b) = (&self.0, &other.0);
        let zero = _mm512_setzero_si512();
        let mut lo = [zero; 9];
        let mut hi = [zero; 9];
        for i in 0..5 {
            for j in 0..5 {
                lo[i + j] = _mm512_madd52lo_epu64(lo[i + j], a[i], b[j]);
                hi[i + j] = _mm512_madd52hi_epu64(hi[i + j], a[i], b[j]);
            }
        }
        Wide8::fold(&lo, &hi)
    }

    /// `self²`: the 10 cross products once (then doubled) and the 5
    /// squares; otherwise as [`Fe8::mul`].
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn square(&self) -> Fe8 {
        self.square_wide().carry()
    }

    /// [`Fe8::square`] before its carry (see [`Fe8::mul_wide`]).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn square_wide(&self) -> Wide8 {
        let (lo, hi) = self.square_columns();
        Wide8::fold(&lo, &hi)
    }

    /// `2·self²` before its carry (see [`Fe8::mul_wide`]).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn square_doubled_wide(&self) -> Wide8 {
        let Wide8(limbs) = self.square_wide();
        Wide8(limbs.map(|c| _mm512_slli_epi64::<1>(c)))
    }

    /// The low and high columns of `self²` (see [`Fe8::mul`]).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    fn square_columns(&self) -> ([__m512i; 9], [__m512i; 9]) {
        self.debug_assert_reduced();
        let a = &self.0;
        let zero = _mm512_setzero_si512();
        let mut lo = [zero; 9];
        let mut hi = [zero; 9];
        for i in 0..5 {
            for j in i + 1..5 {
                lo[i + j] = _mm512_madd52lo_epu64(lo[i + j], a[i], a[j]);
                hi[i + j] = _mm512_madd52hi_epu64(hi[i + j], a[i], a[j]);
            }
        }
        for k in 0..9 {
            lo[k] = _mm512_add_epi64(lo[k], lo[k]);
            hi[k] = _mm512_add_epi64(hi[k], hi[k]);
        }
        for i in 0..5 {
            lo[2 * i] = _mm512_madd52lo_epu64(lo[2 * i], a[i], a[i]);
            hi[2 * i] = _mm512_madd52hi_epu64(hi[2 * i], a[i], a[i]);
        }
        (lo, hi)
    }

    /// `self^(p − 2) = 1/self` (`0` for `0`; the engine's chain,
    /// `engine/roots.rs`).
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn invert(&self) -> Fe8 {
        crate::group::lanes::ifma::ristretto255::roots::invert(self)
    }

    /// The field elements of 8 little-endian 32-byte strings (bit 255
    /// dropped).
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn from_le_bytes_each(bytes: &[[u8; 32]; LANES]) -> Fe8 {
        let mask = (1u64 << 51) - 1;
        let mut limbs = [[0u64; LANES]; 5];
        for (lane, b) in bytes.iter().enumerate() {
            let w: [u64; 4] = core::array::from_fn(|i| {
                u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8 bytes"))
            });
            limbs[0][lane] = w[0] & mask;
            limbs[1][lane] = ((w[0] >> 51) | (w[1] << 13)) & mask;
            limbs[2][lane] = ((w[1] >> 38) | (w[2] << 26)) & mask;
            limbs[3][lane] = ((w[2] >> 25) | (w[3] << 39)) & mask;
            limbs[4][lane] = (w[3] >> 12) & mask;
        }
        let element = Fe8(limbs.map(|l| {
            // SAFETY: [u64; 8] and __m512i have the same size; unaligned load.
            unsafe { _mm512_loadu_si512(l.as_ptr().cast()) }
        }));
        zeroize::Zeroize::zeroize(&mut limbs);
        element
    }

    /// The canonical 32-byte little-endian encodings of the 8 lanes
    /// (secret where the element is: the caller wipes them).
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn le_bytes_each(&self) -> [[u8; 32]; LANES] {
        let canonical = self.canonical();
        let mut limbs = [[0u64; LANES]; 5];
        for (out, v) in limbs.iter_mut().zip(canonical) {
            // SAFETY: [u64; 8] and __m512i have the same size; unaligned store.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) };
        }
        let bytes = core::array::from_fn(|lane| {
            let l: [u64; 5] = core::array::from_fn(|i| limbs[i][lane]);
            let words = [
                l[0] | (l[1] << 51),
                (l[1] >> 13) | (l[2] << 38),
                (l[2] >> 26) | (l[3] << 25),
                (l[3] >> 39) | (l[4] << 12),
            ];
            let mut out = [0u8; 32];
            for (chunk, w) in out.chunks_exact_mut(8).zip(words) {
                chunk.copy_from_slice(&w.to_le_bytes());
            }
            out
        });
        zeroize::Zeroize::zeroize(&mut limbs);
        bytes
    }

    /// The 8 lanes rotated by `K` ∈ {1, 2, 4} (lane `i` gets lane `i + K
    /// mod 8`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn rotate_lanes<const K: i32>(&self) -> Fe8 {
        const { assert!(K == 1 || K == 2 || K == 4, "rotations by 1, 2 or 4 lanes") };
        let lane = |i: i64| (i + i64::from(K)) % 8;
        let index = _mm512_set_epi64(
            lane(7),
            lane(6),
            lane(5),
            lane(4),
            lane(3),
            lane(2),
            lane(1),
            lane(0),
        );
        Fe8(self.0.map(|v| _mm512_permutexvar_epi64(index, v)))
    }

    /// The canonical value (`< p`) of each lane as limbs below 2^51: add 19
    /// to find whether the value is at least p (its carry out of bit 255),
    /// subtract p by adding 19 and dropping bit 255.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn canonical(&self) -> [__m512i; 5] {
        let mask = _mm512_set1_epi64(LOW_51);
        let mut l = self.0;
        let mut q = _mm512_srli_epi64::<51>(_mm512_add_epi64(l[0], _mm512_set1_epi64(19)));
        for limb in &l[1..] {
            q = _mm512_srli_epi64::<51>(_mm512_add_epi64(*limb, q));
        }
        l[0] = _mm512_add_epi64(l[0], times_19(q));
        for i in 0..4 {
            l[i + 1] = _mm512_add_epi64(l[i + 1], _mm512_srli_epi64::<51>(l[i]));
            l[i] = _mm512_and_si512(l[i], mask);
        }
        l[4] = _mm512_and_si512(l[4], mask);
        l
    }

    /// Lanes whose value is odd once canonical (RFC 9496 `IS_NEGATIVE`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn is_negative(&self) -> __mmask8 {
        let one = _mm512_set1_epi64(1);
        _mm512_test_epi64_mask(self.canonical()[0], one)
    }

    /// `|self|`: the non-negative one of `±self` (RFC 9496 `CT_ABS`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn abs(&self) -> Fe8 {
        self.negate_where(self.is_negative())
    }
}

/// A product before its carry: five limbs below `2^59.3` (a column of a
/// product of reduced elements is below `5·2^52 + 10·2^50 = 7.5·2^52`, and
/// folding adds 19 times another: below `150·2^52`); a doubled square is
/// below `2^60.3`. Products that only meet additions and subtractions stay
/// in this form, and the sum or difference is carried once.
#[derive(Clone, Copy)]
pub(crate) struct Wide8([__m512i; 5]);

impl Wide8 {
    /// The five limbs of the columns (low halves, high halves) of a
    /// product, those above 2^255 folded back times 19.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    fn fold(lo: &[__m512i; 9], hi: &[__m512i; 9]) -> Wide8 {
        let zero = _mm512_setzero_si512();
        let column = |k: usize| {
            let low = if k < 9 { lo[k] } else { zero };
            let high = if k > 0 {
                _mm512_slli_epi64::<1>(hi[k - 1])
            } else {
                zero
            };
            _mm512_add_epi64(low, high)
        };
        Wide8(core::array::from_fn(|k| {
            _mm512_add_epi64(column(k), times_19(column(k + 5)))
        }))
    }

    /// 0 in every lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn zero() -> Wide8 {
        Wide8([_mm512_setzero_si512(); 5])
    }

    /// The reduced element.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn carry(&self) -> Fe8 {
        Fe8::carry(self.0)
    }

    /// `self + other`, reduced (limbs below `2^60.3`: the carry takes them).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn plus(&self, other: &Wide8) -> Fe8 {
        Fe8::carry(core::array::from_fn(|i| {
            _mm512_add_epi64(self.0[i], other.0[i])
        }))
    }

    /// `self − a − b`, reduced, computed as `self + 2^10·p − a − b`: every
    /// limb of `2^10·p` (at least `2^61 − 19456`) exceeds `a + b` (at most
    /// a product and a doubled square: below `2^59.3 + 2^60.3 < 2^60.91`),
    /// and the sum stays below `2^62`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn minus(&self, a: &Wide8, b: &Wide8) -> Fe8 {
        const P_TIMES_1024: [i64; 5] = [
            ((1 << 52) - 38) << 9,
            ((1 << 52) - 2) << 9,
            ((1 << 52) - 2) << 9,
            ((1 << 52) - 2) << 9,
            ((1 << 52) - 2) << 9,
        ];
        Fe8::carry(core::array::from_fn(|i| {
            let bias = _mm512_set1_epi64(P_TIMES_1024[i]);
            let subtrahend = _mm512_add_epi64(a.0[i], b.0[i]);
            if cfg!(debug_assertions) {
                let too_big = _mm512_cmpgt_epu64_mask(subtrahend, bias);
                assert_eq!(too_big, 0, "subtrahend above its bound");
            }
            _mm512_sub_epi64(_mm512_add_epi64(self.0[i], bias), subtrahend)
        }))
    }
}

/// `19·x` for `x < 2^59`: one 64-bit multiplication (AVX-512DQ), where a
/// shift-and-add form is rewritten by the compiler into a multiplication
/// emulated with five instructions.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn times_19(x: __m512i) -> __m512i {
    _mm512_mullo_epi64(x, _mm512_set1_epi64(19))
}

lane_field!(Fe8, "avx512f,avx512dq");
