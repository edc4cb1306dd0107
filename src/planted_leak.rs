//! Test-only (feature `ct-planted-leak`, never in a build that handles real
//! secrets): secret-dependent branches and memory indices planted on
//! purpose, so that the constant-time checks can show they catch them —
//! the proof that each check is live:
//!
//! - [`exponent_digit_branch`]: a branch on an exponent digit in the batch
//!   exponentiation (caught by valgrind, `ct_planted_leak`, and by the
//!   trace, `ct_trace_planted_branch`);
//! - [`parity_branch`]: the branch on a scalar's parity that the compiler
//!   once made of ristretto255's halving (removed in 7ea0c88; caught by
//!   the trace on every backend, `ct_trace_planted_branch`);
//! - [`table_index`]: a read of the curve engines' point table at a secret
//!   digit, beside the masked scan (caught by the trace, IFMA only,
//!   `ct_trace_planted_index`).
//!
//! Each is a function of its own, never inlined, so that a report names it.

use core::sync::atomic::{AtomicU64, Ordering};

use subtle::Choice;

/// Counts the planted branches taken: a store only one side makes, which
/// the compiler cannot turn into a conditional move.
static TAKEN: AtomicU64 = AtomicU64::new(0);

/// Branches on the low bit of `digits[0]`.
#[inline(never)]
pub(crate) fn exponent_digit_branch(digits: &[u64]) {
    if digits[0] & 1 == 1 {
        TAKEN.fetch_add(1, Ordering::Relaxed);
    }
}

/// `word`'s parity as a `Choice`, computed by a branch on it.
#[inline(never)]
pub(crate) fn parity_branch(word: u64) -> Choice {
    if word & 1 == 1 {
        TAKEN.fetch_add(1, Ordering::Relaxed);
        Choice::from(1)
    } else {
        Choice::from(0)
    }
}

/// Reads the table entry at `|digit| mod 8`: an address that depends on a
/// secret digit.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
pub(crate) fn table_index<T: Copy>(table: &[T; 8], digit: i64) {
    core::hint::black_box(table[(digit.unsigned_abs() % 8) as usize]);
}
