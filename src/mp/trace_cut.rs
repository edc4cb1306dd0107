//! The constant-time trace harness's one switch into the library (test-only
//! feature `ct-trace-harness`; without it, nothing here changes a length).
//!
//! Single-stepping an exponentiation by a full-length secret exponent (a
//! 2047-bit FFDHE key, an RSA-2048 key's 1024-bit `dp` and `dq`) takes most
//! of an hour. The fixed-window loop's structure depends only on the
//! exponent's public length (`fixed_window.rs`), so the harness cuts the
//! secret exponents to their low bits: the traced loop is the same window
//! step repeated fewer times, and the results are wrong.

/// Set by the trace harness alone ([`cut_exponents_for_trace`]).
#[cfg(feature = "ct-trace-harness")]
static CUT_FOR_TRACE: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);

/// Bits a secret exponent keeps once cut (crate-private: cbindgen would
/// put a public constant in the C header).
#[cfg(feature = "ct-trace-harness")]
const TRACED_EXPONENT_BITS: usize = 64;

/// For the constant-time trace harness only: every later exponentiation by
/// a secret exponent of FFDHE or of an RSA key counts only the exponent's
/// low bits, as many as this returns (64), so its results are wrong.
#[cfg(feature = "ct-trace-harness")]
#[doc(hidden)]
pub fn cut_exponents_for_trace() -> usize {
    CUT_FOR_TRACE.store(true, core::sync::atomic::Ordering::Relaxed);
    TRACED_EXPONENT_BITS
}

/// The bits of a secret exponent to count, `full_bits` being its public
/// length: all of them, unless the trace harness cut them.
#[inline]
pub(crate) fn secret_exponent_bits(full_bits: usize) -> usize {
    #[cfg(feature = "ct-trace-harness")]
    if CUT_FOR_TRACE.load(core::sync::atomic::Ordering::Relaxed) {
        return TRACED_EXPONENT_BITS.min(full_bits);
    }
    full_bits
}
