//! How many threads a batch may use: one unless the caller opts in, with
//! [`set_threads`] or the environment variable `OBLIVEX_THREADS`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// The environment variable that sets the default thread count.
pub const THREADS_ENV: &str = "OBLIVEX_THREADS";

/// Largest thread count accepted (more than any machine's cores is useless).
pub const MAX_THREADS: usize = 1024;

/// 0 = not set by the caller: use the environment's value.
static CHOSEN: AtomicUsize = AtomicUsize::new(0);

/// Sets the number of threads a large batch is spread over (1 = run in the
/// calling thread, the default; clamped to [`MAX_THREADS`]); 0 restores the
/// default from `OBLIVEX_THREADS`. A batch never uses more threads than it
/// has groups of values (8 per group on the IFMA backend, 4 on the AVX2
/// one, 1 on the portable one), and threads are started per call.
pub fn set_threads(threads: usize) {
    CHOSEN.store(threads.min(MAX_THREADS), Ordering::Relaxed);
}

/// The thread count in effect (see [`set_threads`]).
pub fn threads() -> usize {
    match CHOSEN.load(Ordering::Relaxed) {
        0 => from_environment(),
        n => n,
    }
}

/// `OBLIVEX_THREADS` as read once; 1 when unset or not a positive number.
fn from_environment() -> usize {
    static FROM_ENV: OnceLock<usize> = OnceLock::new();
    *FROM_ENV.get_or_init(|| {
        std::env::var(THREADS_ENV)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .map_or(1, |n| n.min(MAX_THREADS))
    })
}
