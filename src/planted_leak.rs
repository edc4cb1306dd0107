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
//! - [`table_index`]: a read of a table at a secret digit, beside the
//!   masked scan: the window table of the batch exponentiation (caught by
//!   the trace on every backend, `ct_trace_planted_index`) and the curve
//!   engines' point table (IFMA only, `ct_trace_planted_index_lanes`).
//!
//! Each is a function of its own, never inlined, so that a report names it.
//! Each is live only in a process whose `OBLIVEX_PLANTED_LEAK` names it, so
//! that one build serves every check and a check's first divergence is its
//! own leak, not another one met earlier on the same path.

use core::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use subtle::Choice;

/// Counts the planted branches taken: a store only one side makes, which
/// the compiler cannot turn into a conditional move.
static TAKEN: AtomicU64 = AtomicU64::new(0);

/// Whether `OBLIVEX_PLANTED_LEAK` names `leak` (read once, so a region
/// traced after the warm-up sees only a load of public state).
fn live(leak: &str) -> bool {
    static NAMED: OnceLock<Option<String>> = OnceLock::new();
    NAMED
        .get_or_init(|| std::env::var("OBLIVEX_PLANTED_LEAK").ok())
        .as_deref()
        == Some(leak)
}

/// Branches on the low bit of `digits[0]`.
#[inline(never)]
pub(crate) fn exponent_digit_branch(digits: &[u64]) {
    if live("exponent_digit_branch") && digits[0] & 1 == 1 {
        TAKEN.fetch_add(1, Ordering::Relaxed);
    }
}

/// `word`'s parity as a `Choice`, computed by a branch on it where live
/// (else as the production code computes it).
#[inline(never)]
pub(crate) fn parity_branch(word: u64) -> Choice {
    if !live("parity_branch") {
        return Choice::from((word & 1) as u8);
    }
    if word & 1 == 1 {
        TAKEN.fetch_add(1, Ordering::Relaxed);
        Choice::from(1)
    } else {
        Choice::from(0)
    }
}

/// Reads `table[secret_index]` (the caller keeps it in bounds): an address
/// that depends on a secret digit.
#[inline(never)]
pub(crate) fn table_index<T: Copy>(table: &[T], secret_index: usize) {
    if live("table_index") {
        let entry: *const T = &table[secret_index];
        // SAFETY: `entry` points at an element of `table`, valid for reads
        // of its first byte, and a `MaybeUninit<u8>` may hold any byte.
        // One byte, read here: a copy of a whole entry of the curve tables
        // is a call to memcpy, where a report would name memcpy instead.
        let first = unsafe { core::ptr::read_volatile(entry.cast::<core::mem::MaybeUninit<u8>>()) };
        core::hint::black_box(first);
    }
}
