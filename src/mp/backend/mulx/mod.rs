//! The MULX/ADX backend: one value at a time on 64-bit limbs, like the
//! portable backend, with its row loop in assembly that keeps two carry
//! chains in flight (`row`). For x86-64 CPUs with BMI2 and ADX (Broadwell,
//! Zen 1 and every later one). It serves what the SIMD backends' lanes
//! would leave mostly empty: one value, and the short tail of a batch.

mod row;
#[cfg(test)]
mod tests;

use super::portable::WordSerialArith;
use crate::mp::limbs::montgomery::MulAddRow;

/// The assembly row (`row::add_mul_row`) as a [`MulAddRow`].
pub(crate) struct MulxRow;

impl MulAddRow for MulxRow {
    #[inline(always)]
    fn add_mul_row(acc: &mut [u64], x: &[u64], y: u64) -> u64 {
        row::add_mul_row(acc, x, y)
    }

    fn runs_here() -> bool {
        crate::backend::mulx_supported()
    }
}

/// The MULX/ADX backend's [`super::LaneArith`]: built only where
/// `Backend::Mulx` is available, which the assembly row relies on.
pub(crate) type MulxArith<'a> = WordSerialArith<'a, MulxRow>;
