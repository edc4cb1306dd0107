//! The MULX/ADX backend: one value at a time on 64-bit limbs, like the
//! portable backend, with its three loops in assembly that keeps two carry
//! chains in flight (`kernel` and `square`, made of `row`). For x86-64 CPUs with BMI2
//! and ADX (Broadwell, Zen 1 and every later one). It serves what the SIMD
//! backends' lanes would leave mostly empty: one value, and the short tail
//! of a batch.

mod kernel;
mod row;
mod square;
#[cfg(test)]
mod tests;

use super::portable::WordSerialArith;
use crate::mp::limbs::montgomery::WordKernel;

/// The assembly kernels (`kernel.rs`, `square.rs`) as a [`WordKernel`].
pub(crate) struct MulxKernel;

impl WordKernel for MulxKernel {
    fn product(t: &mut [u64], a: &[u64], b: &[u64]) {
        kernel::product(t, a, b);
    }

    fn square(t: &mut [u64], a: &[u64]) {
        square::square(t, a);
    }

    fn reduce_rounds(t: &mut [u64], m: &[u64], m_inv_neg: u64) -> u64 {
        kernel::reduce_rounds(t, m, m_inv_neg)
    }

    fn runs_here() -> bool {
        crate::backend::mulx_supported()
    }
}

/// The MULX/ADX backend's [`super::LaneArith`]: built only where
/// `Backend::Mulx` is available, which the assembly kernels rely on.
pub(crate) type MulxArith<'a> = WordSerialArith<'a, MulxKernel>;
