//! The lane engines' code compiled for AVX2: the shared chains and table
//! scan, the P-256 engine over its radix 2^29 field, the ristretto255
//! engine over its radix 2^25.5 field and the BLS12-381 engine over its 14
//! digits of 29 bits (8 lanes as two registers of 4). The same files as
//! `ifma.rs` includes, their
//! `#[lane_features]` turned into AVX2 by this module's `lane_features!`
//! (`macros/`).

use core::arch::x86_64::*;

use super::toolkit::{DigitMasks, LANES};

/// This instruction set, as a type (see `ifma::Set`).
pub(crate) enum Set {}

/// `#[target_feature]` of this set on an item (see the module
/// documentation).
macro_rules! lane_features {
    ($($item:tt)*) => {
        #[target_feature(enable = "avx2")]
        $($item)*
    };
}

/// This instruction set, as a value (the tests ask whether the CPU has it).
#[cfg(test)]
pub(crate) const SET: super::LaneSet = super::LaneSet::Avx2;

// The one source per set is the point (module documentation).
#[allow(clippy::duplicate_mod)]
#[path = "chains.rs"]
pub(crate) mod chains;
#[allow(clippy::duplicate_mod)]
#[path = "scan.rs"]
pub(crate) mod scan;

/// The P-256 engine's field here.
use super::p256::field_avx2 as p256_field;

#[allow(clippy::duplicate_mod)]
#[path = "p256/engine/mod.rs"]
pub(crate) mod p256;

/// The BLS12-381 G1 engine's field here.
use super::bls12_381::field_avx2 as bls_field;

#[allow(clippy::duplicate_mod)]
#[path = "bls12_381/engine/mod.rs"]
pub(crate) mod bls12_381;

/// The ristretto255 engine's field here.
use super::ristretto255::field_avx2 as r255_field;

#[allow(clippy::duplicate_mod)]
#[path = "ristretto255/engine/mod.rs"]
pub(crate) mod ristretto255;

/// The lanes of each digit's magnitude, sign and zero (see
/// [`DigitMasks`]), by vector comparisons on the two halves of 4 lanes.
#[target_feature(enable = "avx2")]
pub(crate) fn digit_masks(digits: &[i64; LANES]) -> DigitMasks {
    // Lanes 4h .. 4h + 3 as one vector.
    let half = |h: usize| {
        // SAFETY: digits[4h..4h + 4] is 4 i64s, the size of a __m256i;
        // unaligned load.
        unsafe { _mm256_loadu_si256(digits[4 * h..].as_ptr().cast()) }
    };
    let d = [half(0), half(1)];
    let zero = _mm256_setzero_si256();
    let negative = d.map(|d| _mm256_cmpgt_epi64(zero, d));
    // |d| = (d ^ s) − s for s the sign (all ones where negative).
    let magnitude: [__m256i; 2] = core::array::from_fn(|h| {
        _mm256_sub_epi64(_mm256_xor_si256(d[h], negative[h]), negative[h])
    });
    // Bit j of the result: lane j of the two comparisons.
    let mask = |lanes: [__m256i; 2]| {
        let bits = lanes.map(|l| _mm256_movemask_pd(_mm256_castsi256_pd(l)) as u8);
        bits[0] | (bits[1] << 4)
    };
    DigitMasks {
        hits: core::array::from_fn(|k| {
            let k = _mm256_set1_epi64x(k as i64 + 1);
            mask(magnitude.map(|m| _mm256_cmpeq_epi64(m, k)))
        }),
        negative: mask(negative),
        zero: mask(d.map(|d| _mm256_cmpeq_epi64(d, zero))),
    }
}
