//! The panic boundary and the pointer checks every exported function uses.

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::status::oblivex_status;
use crate::Error;

/// Runs the body of an exported function: `Ok` becomes `OBLIVEX_OK`, an
/// error its status code, and a panic `OBLIVEX_ERR_PANIC` (it never unwinds
/// into C).
pub(crate) fn catch(body: impl FnOnce() -> Result<(), Error>) -> oblivex_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => oblivex_status::OBLIVEX_OK,
        Ok(Err(error)) => error.into(),
        Err(_) => oblivex_status::OBLIVEX_ERR_PANIC,
    }
}

/// [`catch`] for functions that return a value instead of a status: a panic
/// returns `fallback`.
pub(crate) fn catch_or<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// Borrows `len` bytes at `ptr` after checking the pointer is not NULL.
///
/// # Safety
/// If `ptr` is not NULL it must point to `len` readable, initialised bytes
/// that stay unchanged for `'a`.
pub(crate) unsafe fn input<'a>(ptr: *const u8, len: usize) -> Result<&'a [u8], Error> {
    if ptr.is_null() {
        return Err(Error::NullPointer);
    }
    if len > isize::MAX as usize {
        return Err(Error::BadLength);
    }
    // SAFETY: non-NULL, and the caller guarantees `len` readable bytes that
    // outlive 'a; the length fits `isize` as `from_raw_parts` requires.
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// `count · width` as a byte length, or `BadLength` on overflow.
pub(crate) fn array_len(count: usize, width: usize) -> Result<usize, Error> {
    count.checked_mul(width).ok_or(Error::BadLength)
}

/// Borrows the object behind a handle after checking it is not NULL.
///
/// # Safety
/// If `ptr` is not NULL it must come from the matching `oblivex_*_new` and not
/// have been freed.
pub(crate) unsafe fn handle<'a, T>(ptr: *const T) -> Result<&'a T, Error> {
    // SAFETY: the caller guarantees a live handle when non-NULL.
    unsafe { ptr.as_ref() }.ok_or(Error::NullPointer)
}

/// Checks an output pointer and its capacity, returning the pointer. Nothing
/// is written here: outputs are copied in with [`write_output`] once the
/// whole operation has succeeded.
pub(crate) fn output(ptr: *mut u8, capacity: usize) -> Result<*mut u8, Error> {
    if ptr.is_null() {
        return Err(Error::NullPointer);
    }
    if capacity > isize::MAX as usize {
        return Err(Error::BadLength);
    }
    Ok(ptr)
}

/// Copies a finished result into a checked output buffer.
///
/// # Safety
/// `dst` must come from [`output`] with a capacity of at least `src.len()`
/// writable bytes.
pub(crate) unsafe fn write_output(dst: *mut u8, src: &[u8]) {
    // SAFETY: the caller guarantees `src.len()` writable bytes at `dst`;
    // `src` is our own buffer, so the ranges cannot overlap.
    unsafe { core::ptr::copy_nonoverlapping(src.as_ptr(), dst, src.len()) }
}

/// Checks a pointer through which a single value will be returned.
pub(crate) fn out_value<T>(ptr: *mut T) -> Result<*mut T, Error> {
    if ptr.is_null() {
        Err(Error::NullPointer)
    } else {
        Ok(ptr)
    }
}
