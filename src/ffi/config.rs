//! Run-time configuration: the arithmetic backend and the thread count.

use core::ffi::c_char;

use super::guard::catch_or;
use crate::backend::Backend;
use crate::mp;

/// The name of the arithmetic backend that runs batch exponentiations in this
/// process: "portable", "mulx", "avx2" or "ifma", as chosen once from the
/// environment variable `OBLIVEX_BACKEND` (`portable`, `mulx`, `avx2`,
/// `ifma` or `auto`, the default: the fastest this CPU runs). Returns
/// "unsupported" when `OBLIVEX_BACKEND` names a backend that is unknown or
/// that this CPU cannot run, or `OBLIVEX_AVX2_PROFILE` an unknown tuning
/// profile (exponentiations then fail with
/// `OBLIVEX_ERR_UNSUPPORTED_BACKEND`). Static; never NULL; do not free.
#[no_mangle]
pub extern "C" fn oblivex_backend_name() -> *const c_char {
    catch_or(c"unsupported".as_ptr(), || match Backend::selected() {
        Ok(backend) => backend.c_name().as_ptr(),
        Err(_) => c"unsupported".as_ptr(),
    })
}

/// Sets how many threads a large batch exponentiation may use: 1 (the
/// default) runs everything in the calling thread; more spreads the groups
/// of a batch (8 values per group on the IFMA backend, 4 on the AVX2 one, 1
/// on the MULX/ADX and portable ones) over that many threads, started per call. 0 restores the default,
/// taken from the environment variable `OBLIVEX_THREADS` (1 when unset).
/// Values above 1024 are clamped. Applies to the whole process.
#[no_mangle]
pub extern "C" fn oblivex_set_threads(threads: usize) {
    catch_or((), || mp::set_threads(threads))
}

/// How many values the selected backend exponentiates together in one group
/// (8 on the IFMA backend, 4 on the AVX2 one, 1 on the MULX/ADX and
/// portable ones; 0 when `OBLIVEX_BACKEND` names a backend this CPU cannot
/// run). A batch costs about as much as if its count were rounded up to a
/// multiple of this, except a short tail (1 or 2 values), which the SIMD
/// backends run one value at a time on the MULX/ADX backend where the CPU
/// has it; `oblivex_openssl.h` uses it to hand a batch's short tail to
/// OpenSSL.
#[no_mangle]
pub extern "C" fn oblivex_batch_group_size() -> usize {
    catch_or(0, || Backend::selected().map_or(0, mp::group_size))
}

/// The thread count in effect (see `oblivex_set_threads`).
#[no_mangle]
pub extern "C" fn oblivex_threads() -> usize {
    catch_or(1, mp::threads)
}
