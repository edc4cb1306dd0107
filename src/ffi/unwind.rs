//! The one `catch_unwind` of the C ABI: no panic unwinds into C. It knows
//! no status code, so that the status file (whose `oblivex_status_str`
//! needs it) and the guard (which turns a panic into a status) can both
//! stand on it.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs the body of an exported function that returns a value: a panic
/// returns `fallback`.
pub(crate) fn catch_or<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}
