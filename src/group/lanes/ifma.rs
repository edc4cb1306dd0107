//! The lane engines' code compiled for AVX-512 IFMA (with AVX-512F and DQ):
//! the shared chains and table scan, the P-256 engine over its radix 2^52
//! field, the ristretto255 engine over its radix 2^51 field and the
//! BLS12-381 engine over its 8 limbs of 52 bits. Each included file marks its functions `#[lane_features]`,
//! which this module's `lane_features!` turns into its target features
//! (`macros/`); `avx2.rs` includes the same files for AVX2.

use core::arch::x86_64::*;

use super::toolkit::{DigitMasks, LANES};

/// This instruction set, as a type: the `Set` of the fields and points
/// written for it (a function compiled here takes only those).
pub(crate) enum Set {}

/// `#[target_feature]` of this set on an item (see the module
/// documentation).
macro_rules! lane_features {
    ($($item:tt)*) => {
        #[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
        $($item)*
    };
}

/// This instruction set, as a value (the tests ask whether the CPU has it).
#[cfg(test)]
pub(crate) const SET: super::LaneSet = super::LaneSet::Ifma;

// The one source per set is the point (module documentation).
#[allow(clippy::duplicate_mod)]
#[path = "chains.rs"]
pub(crate) mod chains;
#[allow(clippy::duplicate_mod)]
#[path = "scan.rs"]
pub(crate) mod scan;

/// The P-256 engine's field here.
use super::p256::field_ifma as p256_field;

#[allow(clippy::duplicate_mod)]
#[path = "p256/engine/mod.rs"]
pub(crate) mod p256;

/// The BLS12-381 G1 engine's field here.
use super::bls12_381::field_ifma as bls_field;

#[allow(clippy::duplicate_mod)]
#[path = "bls12_381/engine/mod.rs"]
pub(crate) mod bls12_381;

/// The ristretto255 engine's field here.
use super::ristretto255::field_ifma as r255_field;

#[allow(clippy::duplicate_mod)]
#[path = "ristretto255/engine/mod.rs"]
pub(crate) mod ristretto255;

/// The lanes of each digit's magnitude, sign and zero (see
/// [`DigitMasks`]), by vector comparisons.
#[target_feature(enable = "avx512f,avx512dq")]
pub(crate) fn digit_masks(digits: &[i64; LANES]) -> DigitMasks {
    // SAFETY: [i64; 8] and __m512i have the same size; unaligned load.
    let d = unsafe { _mm512_loadu_si512(digits.as_ptr().cast()) };
    let magnitude = _mm512_abs_epi64(d);
    DigitMasks {
        hits: core::array::from_fn(|k| {
            _mm512_cmpeq_epi64_mask(magnitude, _mm512_set1_epi64(k as i64 + 1))
        }),
        negative: _mm512_cmplt_epi64_mask(d, _mm512_setzero_si512()),
        zero: _mm512_cmpeq_epi64_mask(d, _mm512_setzero_si512()),
    }
}
