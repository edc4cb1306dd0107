//! Arithmetic modulo P-256's prime p = 2^256 − 2^224 + 2^192 + 2^96 − 1 on
//! 8 field elements at once: radix 2^52, five limbs, limb `i` of the 8
//! elements in one zmm register (lane `j` is element `j`), in Montgomery
//! form `x·R` with `R = 2^260`, products by VPMADD52LUQ/VPMADD52HUQ. Every
//! operation is constant time: the same instructions whatever the values.
//!
//! Bounds. An element has limbs below 2^52 (what an IFMA multiplier reads)
//! and a value below 2^257 (so below `2p + 2^225`, not necessarily below
//! p). Every function returns such elements. [`Fe8::mul`] also accepts
//! operands below 2^258, so a sum of two elements could be multiplied
//! unreduced; the sums here are reduced at once anyway ([`Fe8::reduce`]),
//! which keeps one bound for everything.
//!
//! Montgomery reduction is cheap for this p: `−p^{-1} ≡ 1 (mod 2^52)`, so
//! each of the five reduction steps takes the column's low 52 bits as its
//! multiplier, its lowest limb `2^52 − 1` turns into a carry, and limb 2
//! of p is zero: six multiply-adds per step.

use core::arch::x86_64::*;

use crate::group::lanes::field::lane_field;
use crate::group::lanes::radix::{be_of_digits, digits_of_be};
use crate::group::lanes::toolkit::{bitselect, opaque_lanes, PlainLimbs, LANES};

/// `2^52 − 1`.
const LOW_52: i64 = (1 << 52) - 1;

/// p in radix 2^52.
const P: [u64; 5] = [
    0xfffffffffffff,
    0x00fffffffffff,
    0x0000000000000,
    0x0001000000000,
    0x0ffffffff0000,
];

/// 4p in radix 2^52: the bias of a subtraction (above any element).
const FOUR_P: [u64; 5] = [
    0xffffffffffffc,
    0x03fffffffffff,
    0x0000000000000,
    0x0004000000000,
    0x3fffffffc0000,
];

/// `R² mod p`: multiplying by it enters Montgomery form.
const R_SQUARED: [u64; 5] = [
    0x0000000000300,
    0xffffffff00000,
    0xffffefffffffb,
    0xfdfffffffffff,
    0x0000004ffffff,
];

/// `b` of the curve equation, in Montgomery form.
pub(crate) const B: [u64; 5] = [
    0xdf6229c4bddfd,
    0xca8843090d89c,
    0x212ed6acf005c,
    0x83415a220abf7,
    0x0c30061dd4874,
];

/// RFC 9380's `Z = −10` for P-256, in Montgomery form.
pub(crate) const Z: [u64; 5] = [
    0xfffffffffff5f,
    0xa0fffffffffff,
    0x0000000000000,
    0x00a1000000000,
    0x0ffffff5f0000,
];

/// `sqrt(−Z) = sqrt(10)` (`c2` of `sqrt_ratio` for p ≡ 3 mod 4), in
/// Montgomery form.
pub(crate) const SQRT_MINUS_Z: [u64; 5] = [
    0x38ee98a195fd9,
    0x6b23dcf70a1fd,
    0xa8dfee78400ad,
    0x303d913c88f9e,
    0x0051d26ea2a8f,
];

/// `2^256 mod p`, in Montgomery form.
pub(crate) const TWO_POW_256: [u64; 5] = [
    0x0000000000030,
    0xbffffffff0000,
    0xfffffefffffff,
    0xffdffffffffff,
    0x00000004fffff,
];

/// `R mod p`: 1 in Montgomery form.
const ONE: [u64; 5] = [
    0x0000000000010,
    0xf000000000000,
    0xfffffffffffff,
    0xffeffffffffff,
    0x00000000fffff,
];

/// 8 elements of GF(p) in Montgomery form, word-sliced (see the module
/// documentation).
#[derive(Clone, Copy)]
pub(crate) struct Fe8([__m512i; 5]);

// SAFETY: five `__m512i`, nothing else.
unsafe impl PlainLimbs for Fe8 {}

/// Five limbs broadcast to the 8 lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
fn broadcast(limbs: [u64; 5]) -> [__m512i; 5] {
    limbs.map(|l| _mm512_set1_epi64(l as i64))
}

/// A constant already in Montgomery form, broadcast to the 8 lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(crate) fn splat(limbs: [u64; 5]) -> Fe8 {
    Fe8(broadcast(limbs))
}

impl Fe8 {
    /// 0 in every lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn zero() -> Fe8 {
        Fe8([_mm512_setzero_si512(); 5])
    }

    /// 1 in every lane.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn one() -> Fe8 {
        splat(ONE)
    }

    /// The elements of 8 plain (not Montgomery) values given as 32
    /// big-endian bytes each, below 2^256 (a decoded coordinate, part of a
    /// hashed string).
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn from_be_bytes_each(bytes: &[[u8; 32]; LANES]) -> Fe8 {
        let limbs: [[u64; 5]; LANES] = bytes.map(|b| digits_of_be(&b, 52));
        let sliced = core::array::from_fn(|i| {
            let lanes: [u64; LANES] = core::array::from_fn(|j| limbs[j][i]);
            // SAFETY: [u64; 8] and __m512i have the same size; unaligned load.
            unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
        });
        Fe8(sliced).mul(&splat(R_SQUARED))
    }

    /// The canonical plain values (`< p`) of the 8 lanes as 32 big-endian
    /// bytes each (secret where the element is: the caller wipes them).
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn be_bytes_each(&self) -> [[u8; 32]; LANES] {
        let mut columns = [[0u64; LANES]; 5];
        for (column, limb) in columns.iter_mut().zip(self.canonical()) {
            // SAFETY: [u64; 8] and __m512i have the same size; unaligned store.
            unsafe { _mm512_storeu_si512(column.as_mut_ptr().cast(), limb) };
        }
        let bytes = core::array::from_fn(|j| {
            be_of_digits::<32, 5>(&core::array::from_fn(|i| columns[i][j]), 52)
        });
        zeroize::Zeroize::zeroize(&mut columns);
        bytes
    }

    /// The 8 lanes rotated by `K` (lane `i` gets lane `i + K mod 8`).
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub(crate) fn rotate_lanes<const K: i32>(&self) -> Fe8 {
        Fe8(self.0.map(|l| _mm512_alignr_epi64::<K>(l, l)))
    }

    /// Brings signed limbs (each below 2^58 in magnitude) with a top limb
    /// in `[0, 2^55)` to an element of the module's bounds, congruent
    /// modulo p: the value's bits from 2^256 up (`t < 2^7`, from the top
    /// limb alone) fold back as `t·(2^224 − 2^192 − 2^96 + 1)` (≡ t·2^256),
    /// then one ripple of signed carries. The result is below `2^256 +
    /// 2^232`.
    ///
    /// Callers pass sums of elements, multiples by up to 8, `a − b + 4p` or
    /// `a − 2^K·b + 2^K·4p`: each has a top limb in `[0, 2^55)` and, when
    /// the top limb is below 2^48 (nothing folds), non-negative limbs, so
    /// the value after the fold is non-negative (a fold of `t ≥ 1` adds at
    /// least `2^223`, more than negative lower limbs, above `−2^211`, can
    /// take away).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    fn reduce(l: [__m512i; 5]) -> Fe8 {
        if cfg!(debug_assertions) {
            let top_over = _mm512_cmpge_epu64_mask(l[4], _mm512_set1_epi64(1 << 55));
            assert_eq!(top_over, 0, "top limb outside [0, 2^55) before a reduction");
        }
        let mask = _mm512_set1_epi64(LOW_52);
        let t = _mm512_srli_epi64::<48>(l[4]);
        let mut r = [
            _mm512_add_epi64(l[0], t),
            _mm512_sub_epi64(l[1], _mm512_slli_epi64::<44>(t)),
            l[2],
            _mm512_sub_epi64(l[3], _mm512_slli_epi64::<36>(t)),
            _mm512_add_epi64(
                _mm512_and_si512(l[4], _mm512_set1_epi64((1 << 48) - 1)),
                _mm512_slli_epi64::<16>(t),
            ),
        ];
        for i in 0..4 {
            let carry = _mm512_srai_epi64::<52>(r[i]);
            r[i] = _mm512_and_si512(r[i], mask);
            r[i + 1] = _mm512_add_epi64(r[i + 1], carry);
        }
        let reduced = Fe8(r);
        reduced.debug_assert_bounds();
        reduced
    }

    /// Debug builds check the module's bounds (limbs below 2^52, the top
    /// limb below 2^49) where an element is made and where IFMA reads one;
    /// release builds compile this to nothing.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    fn debug_assert_bounds(&self) {
        if cfg!(debug_assertions) {
            let limb_bound = _mm512_set1_epi64(1 << 52);
            for limb in &self.0 {
                let over = _mm512_cmpge_epu64_mask(*limb, limb_bound);
                assert_eq!(over, 0, "limb above 2^52");
            }
            let top_over = _mm512_cmpge_epu64_mask(self.0[4], _mm512_set1_epi64(1 << 49));
            assert_eq!(top_over, 0, "value above 2^257");
        }
    }

    /// `self + other`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn add(&self, other: &Fe8) -> Fe8 {
        Fe8::reduce(core::array::from_fn(|i| {
            _mm512_add_epi64(self.0[i], other.0[i])
        }))
    }

    /// `self − other`, computed as `self + 4p − other` (4p exceeds any
    /// element, so the value is positive; the top limb of 4p, about 2^50,
    /// exceeds that of any element, so the top limb is too).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn sub(&self, other: &Fe8) -> Fe8 {
        let bias = broadcast(FOUR_P);
        Fe8::reduce(core::array::from_fn(|i| {
            _mm512_sub_epi64(_mm512_add_epi64(self.0[i], bias[i]), other.0[i])
        }))
    }

    /// `self − 2^K·other` for `K ≤ 3` in one reduction, computed as `self +
    /// 2^K·4p − 2^K·other` (the value is positive, below `2^257 + 2^261`,
    /// and the top limb, at least `2^(49+K)`, is below 2^55: `reduce`'s
    /// fold takes it).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn sub_times_pow2<const K: u32>(&self, other: &Fe8) -> Fe8 {
        debug_assert!(K <= 3);
        let bias = broadcast(FOUR_P);
        Fe8::reduce(core::array::from_fn(|i| {
            let scaled_bias = _mm512_slli_epi64::<K>(bias[i]);
            let scaled = _mm512_slli_epi64::<K>(other.0[i]);
            _mm512_sub_epi64(_mm512_add_epi64(self.0[i], scaled_bias), scaled)
        }))
    }

    /// `self − b − 2^K·c` for `K ≤ 1` in one reduction, computed as `self
    /// + (1 + 2^K)·4p − b − 2^K·c` (positive, top limb below 2^53).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn sub_two<const K: u32>(&self, b: &Fe8, c: &Fe8) -> Fe8 {
        debug_assert!(K <= 1);
        let bias = broadcast(FOUR_P);
        Fe8::reduce(core::array::from_fn(|i| {
            let bias = _mm512_add_epi64(bias[i], _mm512_slli_epi64::<K>(bias[i]));
            let subtrahend = _mm512_add_epi64(b.0[i], _mm512_slli_epi64::<K>(c.0[i]));
            _mm512_sub_epi64(_mm512_add_epi64(self.0[i], bias), subtrahend)
        }))
    }

    /// `2^K·self − other` for `K ≤ 3` in one reduction, computed as
    /// `2^K·self + 4p − other` (positive, top limb below 2^53).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn times_pow2_sub<const K: u32>(&self, other: &Fe8) -> Fe8 {
        debug_assert!(K <= 3);
        let bias = broadcast(FOUR_P);
        Fe8::reduce(core::array::from_fn(|i| {
            let scaled = _mm512_slli_epi64::<K>(self.0[i]);
            _mm512_sub_epi64(_mm512_add_epi64(scaled, bias[i]), other.0[i])
        }))
    }

    /// `3·(self − other)` in one reduction, computed as `3·(self + 4p −
    /// other)` (positive, top limb below 2^53).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn sub_times_3(&self, other: &Fe8) -> Fe8 {
        let bias = broadcast(FOUR_P);
        Fe8::reduce(core::array::from_fn(|i| {
            let d = _mm512_sub_epi64(_mm512_add_epi64(self.0[i], bias[i]), other.0[i]);
            _mm512_add_epi64(_mm512_slli_epi64::<1>(d), d)
        }))
    }

    /// `−self`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn neg(&self) -> Fe8 {
        Fe8::zero().sub(self)
    }

    /// `2^K · self` for `K ≤ 3` (value below `2^260`).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn times_pow2<const K: u32>(&self) -> Fe8 {
        debug_assert!(K <= 3);
        Fe8::reduce(self.0.map(|limb| _mm512_slli_epi64::<K>(limb)))
    }

    /// `3 · self`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq")]
    pub(crate) fn times_3(&self) -> Fe8 {
        Fe8::reduce(core::array::from_fn(|i| {
            _mm512_add_epi64(_mm512_slli_epi64::<1>(self.0[i]), self.0[i])
        }))
    }

    /// `self · other / R`: 25 low and 25 high product halves summed per
    /// column, then five Montgomery steps (see the module documentation)
    /// and one ripple of carries.
    ///
    /// Bound: operands below 2^258 give `(a·b + m·p)/R < 2^516/2^260 + p <
    /// 2^257`.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn mul(&self, other: &Fe8) -> Fe8 {
        self.debug_assert_bounds();
        other.debug_assert_bounds();
        let (a, b) = (&self.0, &other.0);
        // One accumulator per column for the low halves and the high
        // halves landing there (at most 10 terms below 2^52 each): no
        // additions to merge them.
        let mut c = [_mm512_setzero_si512(); 10];
        for i in 0..5 {
            for j in 0..5 {
                c[i + j] = _mm512_madd52lo_epu64(c[i + j], a[i], b[j]);
                c[i + j + 1] = _mm512_madd52hi_epu64(c[i + j + 1], a[i], b[j]);
            }
        }
        montgomery_reduce(c)
    }

    /// `self² / R`: the 10 cross products once, doubled, and the 5 squares;
    /// otherwise as [`Fe8::mul`].
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn square(&self) -> Fe8 {
        self.debug_assert_bounds();
        let a = &self.0;
        let mut c = [_mm512_setzero_si512(); 10];
        for i in 0..5 {
            for j in i + 1..5 {
                c[i + j] = _mm512_madd52lo_epu64(c[i + j], a[i], a[j]);
                c[i + j + 1] = _mm512_madd52hi_epu64(c[i + j + 1], a[i], a[j]);
            }
        }
        for column in c.iter_mut() {
            *column = _mm512_add_epi64(*column, *column);
        }
        for i in 0..5 {
            c[2 * i] = _mm512_madd52lo_epu64(c[2 * i], a[i], a[i]);
            c[2 * i + 1] = _mm512_madd52hi_epu64(c[2 * i + 1], a[i], a[i]);
        }
        montgomery_reduce(c)
    }

    /// The canonical plain value (`< p`, out of Montgomery form) of each
    /// lane, as limbs below 2^52: the Montgomery product by a plain 1 is at
    /// most p (`(x + m·p)/R < 2^257/2^260 + p`), and p itself becomes 0 by
    /// one masked subtraction of p.
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    fn canonical(&self) -> [__m512i; 5] {
        let plain = self.mul(&Fe8(broadcast([1, 0, 0, 0, 0]))).0;
        let p = broadcast(P);
        let mask = _mm512_set1_epi64(LOW_52);
        let mut less_p = [_mm512_setzero_si512(); 5];
        let mut borrow = _mm512_setzero_si512();
        for i in 0..5 {
            let d = _mm512_add_epi64(_mm512_sub_epi64(plain[i], p[i]), borrow);
            borrow = _mm512_srai_epi64::<52>(d);
            less_p[i] = _mm512_and_si512(d, mask);
        }
        // A borrow out of the top limb: the value was below p (a secret
        // lane mask: chosen bit by bit).
        let below_p = opaque_lanes(_mm512_cmplt_epi64_mask(borrow, _mm512_setzero_si512()));
        core::array::from_fn(|i| bitselect(below_p, plain[i], less_p[i]))
    }

    /// Lanes whose canonical value is odd (SEC1's `y` parity).
    #[inline]
    #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
    pub(crate) fn is_odd(&self) -> __mmask8 {
        _mm512_test_epi64_mask(self.canonical()[0], _mm512_set1_epi64(1))
    }
}

lane_field!(Fe8, "avx512f,avx512dq,avx512ifma");

/// The Montgomery reduction of a product's columns (`c[k]`: the product
/// halves of weight `2^52k`, each column below 2^57). Five steps add `m·p·2^52i` with `m` the low 52 bits of column
/// `i` (`−p^{-1} ≡ 1`), which clears it; columns 5 to 9, carried, are the
/// result.
#[inline]
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn montgomery_reduce(mut c: [__m512i; 10]) -> Fe8 {
    let mask = _mm512_set1_epi64(LOW_52);
    let p1 = _mm512_set1_epi64(P[1] as i64);
    let p3 = _mm512_set1_epi64(P[3] as i64);
    let p4 = _mm512_set1_epi64(P[4] as i64);
    for i in 0..5 {
        let m = _mm512_and_si512(c[i], mask);
        // m·(2^52 − 1) + c_i = m·2^52 + (c_i − m): the column's high bits
        // and m move up.
        let up = _mm512_add_epi64(_mm512_srli_epi64::<52>(c[i]), m);
        c[i + 1] = _mm512_add_epi64(c[i + 1], up);
        c[i + 1] = _mm512_madd52lo_epu64(c[i + 1], m, p1);
        c[i + 2] = _mm512_madd52hi_epu64(c[i + 2], m, p1);
        c[i + 3] = _mm512_madd52lo_epu64(c[i + 3], m, p3);
        c[i + 4] = _mm512_madd52hi_epu64(c[i + 4], m, p3);
        c[i + 4] = _mm512_madd52lo_epu64(c[i + 4], m, p4);
        c[i + 5] = _mm512_madd52hi_epu64(c[i + 5], m, p4);
    }
    let mut r = [c[5], c[6], c[7], c[8], c[9]];
    for i in 0..4 {
        r[i + 1] = _mm512_add_epi64(r[i + 1], _mm512_srli_epi64::<52>(r[i]));
        r[i] = _mm512_and_si512(r[i], mask);
    }
    let result = Fe8(r);
    result.debug_assert_bounds();
    result
}
