//! A field of 8 lanes ([`LaneField`], what the exponentiation chains and
//! the batch inversion of `chains.rs` need), and what is written once for
//! every AVX-512 field: its [`LaneField`] impl, lane predicates and
//! selections ([`lane_field!`]). A new AVX-512 engine's field writes its
//! arithmetic (`one`, `mul`, `square`, `invert`, `sub`, `neg`,
//! `canonical`) and invokes the macro; the rest of this file is then its
//! own.

use super::toolkit::PlainLimbs;

/// 8 field elements per vector, as the batch inversion and the
/// exponentiation chains (`chains.rs`) need them.
pub(crate) trait LaneField: PlainLimbs {
    /// The instruction set the field is written for (`ifma::Set` or
    /// `avx2::Set`): a chain compiled for one set takes only its own set's
    /// fields.
    type Set;

    /// 1 in every lane.
    ///
    /// # Safety
    ///
    /// The CPU has the instruction set the field is written for (every
    /// method here): AVX-512F, DQ and IFMA, or AVX2.
    unsafe fn one_lanes() -> Self;
    /// `self · other`.
    ///
    /// # Safety
    ///
    /// As [`LaneField::one_lanes`].
    unsafe fn times(&self, other: &Self) -> Self;
    /// `self²`.
    ///
    /// # Safety
    ///
    /// As [`LaneField::one_lanes`].
    unsafe fn squared(&self) -> Self;
    /// `1/self` (0 for 0).
    ///
    /// # Safety
    ///
    /// As [`LaneField::one_lanes`].
    unsafe fn inverse(&self) -> Self;
}

/// Writes, once for every lane field `$field` (a tuple struct of limb
/// vectors with inherent `one`, `mul`, `square` and `invert`, `sub`, `neg`,
/// and `canonical()`, its limbs reduced below p, under the `$canonical`
/// target features): its [`LaneField`] impl, and the inherent `is_zero`,
/// `equals`, `square_times`, `select` and `negate_where`. A mask may be
/// secret: selections go bit by bit through `opaque_lanes`.
macro_rules! lane_field {
    ($field:ident, $canonical:literal) => {
        impl $crate::group::lanes::field::LaneField for $field {
            type Set = $crate::group::lanes::ifma::Set;

            unsafe fn one_lanes() -> $field {
                // SAFETY: the caller's CPU has the features (trait contract).
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

        impl $field {
            /// Lanes whose value is zero modulo p.
            #[inline]
            #[target_feature(enable = $canonical)]
            pub(crate) fn is_zero(&self) -> core::arch::x86_64::__mmask8 {
                use core::arch::x86_64::*;
                let any = self
                    .canonical()
                    .into_iter()
                    .fold(_mm512_setzero_si512(), |any, limb| {
                        _mm512_or_si512(any, limb)
                    });
                _mm512_cmpeq_epi64_mask(any, _mm512_setzero_si512())
            }

            /// Lanes where `self ≡ other`.
            #[inline]
            #[target_feature(enable = $canonical)]
            pub(crate) fn equals(&self, other: &$field) -> core::arch::x86_64::__mmask8 {
                self.sub(other).is_zero()
            }

            /// `other` in the lanes of `mask`, `self` elsewhere (bit by bit:
            /// the mask may be secret, `toolkit::opaque_lanes`).
            #[inline]
            #[target_feature(enable = "avx512f,avx512dq")]
            pub(crate) fn select(
                &self,
                other: &$field,
                mask: core::arch::x86_64::__mmask8,
            ) -> $field {
                use $crate::group::lanes::toolkit::{bitselect, opaque_lanes};
                let lanes = opaque_lanes(mask);
                $field(core::array::from_fn(|i| {
                    bitselect(lanes, other.0[i], self.0[i])
                }))
            }

            /// `self^(2^k)`.
            #[allow(
                dead_code,
                reason = "a field whose chains all run side by side (BLS12-381's) has no use for it"
            )]
            #[inline]
            #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
            pub(crate) fn square_times(&self, k: u32) -> $field {
                let mut x = *self;
                for _ in 0..k {
                    x = x.square();
                }
                x
            }

            /// `−self` in the lanes of `mask`.
            #[inline]
            #[target_feature(enable = "avx512f,avx512dq")]
            pub(crate) fn negate_where(&self, mask: core::arch::x86_64::__mmask8) -> $field {
                self.select(&self.neg(), mask)
            }
        }
    };
}
pub(crate) use lane_field;
