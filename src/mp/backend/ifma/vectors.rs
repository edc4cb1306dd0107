//! The zmm-vector plumbing the kernels share: a vector's lanes as words
//! (for debug checks) and the scratch columns a product works in (the
//! zero vector and the word-sliced views are `backend/sliced.rs`).

use core::arch::x86_64::*;

use super::super::sliced::zero;
use super::strip::MAX_ROWS;

/// Scratch columns (wiped on drop by the owner).
pub(super) struct Workspace {
    /// `T` (then the reduction works on it): `2L + TI + 1` vectors.
    pub(super) columns: Vec<__m512i>,
    /// `q` (or one block of it): `L + TI + 1` vectors.
    pub(super) quotient: Vec<__m512i>,
    /// The Karatsuba product's half sums and middle product: `2L + TI + 2`.
    pub(super) karatsuba: Vec<__m512i>,
}

impl Workspace {
    pub(super) fn new(digits: usize) -> Self {
        let zero = zero::<__m512i>();
        Workspace {
            columns: vec![zero; 2 * digits + MAX_ROWS + 1],
            quotient: vec![zero; digits + MAX_ROWS + 1],
            karatsuba: vec![zero; 2 * digits + MAX_ROWS + 2],
        }
    }
}

/// The 8 lanes of a vector (for debug checks).
pub(super) fn lanes(v: __m512i) -> [u64; 8] {
    // SAFETY: __m512i and [u64; 8] have the same size and every bit pattern
    // is valid for both.
    unsafe { core::mem::transmute(v) }
}
