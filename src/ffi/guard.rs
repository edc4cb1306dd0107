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

/// Like [`input`], but NULL is allowed when `len` is 0 (an empty string).
///
/// # Safety
/// As [`input`].
pub(crate) unsafe fn optional_input<'a>(ptr: *const u8, len: usize) -> Result<&'a [u8], Error> {
    if ptr.is_null() && len == 0 {
        return Ok(&[]);
    }
    // SAFETY: forwarded from this function's contract.
    unsafe { input(ptr, len) }
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

/// A caller's output buffer (`capacity` bytes) and the `size_t` that
/// receives the length written: checked, and written only by
/// [`OutBuffer::fill`] once the whole operation has succeeded.
pub(crate) struct OutBuffer {
    ptr: *mut u8,
    capacity: usize,
    written: *mut usize,
}

impl OutBuffer {
    /// Checks the pointers (NULL → `NullPointer`) and the capacity.
    ///
    /// # Safety
    /// If not NULL, `ptr` points to `capacity` writable bytes and `written`
    /// to a writable `size_t`, both valid until [`OutBuffer::fill`] returns.
    pub(crate) unsafe fn new(
        ptr: *mut u8,
        capacity: usize,
        written: *mut usize,
    ) -> Result<Self, Error> {
        if ptr.is_null() || written.is_null() {
            return Err(Error::NullPointer);
        }
        if capacity > isize::MAX as usize {
            return Err(Error::BadLength);
        }
        Ok(OutBuffer {
            ptr,
            capacity,
            written,
        })
    }

    /// Checks that `bytes` fits ([`Error::BufferTooSmall`] otherwise); does
    /// not write.
    pub(crate) fn check_fits(&self, len: usize) -> Result<(), Error> {
        if len > self.capacity {
            return Err(Error::BufferTooSmall);
        }
        Ok(())
    }

    /// Writes a finished result (which must fit: see
    /// [`OutBuffer::check_fits`]) and its length.
    pub(crate) fn write(self, bytes: &[u8]) {
        assert!(bytes.len() <= self.capacity, "checked by check_fits");
        // SAFETY: `bytes.len() <= capacity` bytes are writable at `ptr`, and
        // `written` points to a writable size_t (`new`'s contract); `bytes`
        // is the library's own buffer, so nothing overlaps.
        unsafe {
            core::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr, bytes.len());
            self.written.write(bytes.len());
        }
    }

    /// Writes finished results one after the other (they must fit together:
    /// see [`OutBuffer::check_fits`]) and their total length, with no
    /// intermediate copy (the items may be secrets that wipe themselves).
    pub(crate) fn write_items<T: AsRef<[u8]>>(self, items: &[T]) {
        let total: usize = items.iter().map(|item| item.as_ref().len()).sum();
        assert!(total <= self.capacity, "checked by check_fits");
        let mut offset = 0;
        for item in items {
            let bytes = item.as_ref();
            // SAFETY: the items fit in the `capacity` writable bytes at
            // `ptr` (asserted above), each lands after the previous one, and
            // they are the library's own buffers, so nothing overlaps.
            unsafe {
                core::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr.add(offset), bytes.len())
            };
            offset += bytes.len();
        }
        // SAFETY: `written` points to a writable size_t (`new`'s contract).
        unsafe { self.written.write(total) };
    }

    /// Writes a finished result whole, or nothing with
    /// [`Error::BufferTooSmall`] if it does not fit.
    pub(crate) fn put(self, bytes: &[u8]) -> Result<(), Error> {
        self.check_fits(bytes.len())?;
        self.write(bytes);
        Ok(())
    }

    /// Runs `produce` on a private, wiped-on-drop buffer of
    /// `min(needed, capacity)` bytes (so `produce` reports a short buffer
    /// itself); on success copies the bytes it reports written out, and
    /// their count into `*written`. On error nothing is written.
    pub(crate) fn fill(
        self,
        needed: usize,
        produce: impl FnOnce(&mut [u8]) -> Result<usize, Error>,
    ) -> Result<(), Error> {
        let mut private = zeroize::Zeroizing::new(vec![0u8; needed.min(self.capacity)]);
        let written = produce(&mut private)?;
        self.write(&private[..written]);
        Ok(())
    }
}

/// Checks a pointer through which a single value will be returned.
pub(crate) fn out_value<T>(ptr: *mut T) -> Result<*mut T, Error> {
    if ptr.is_null() {
        Err(Error::NullPointer)
    } else {
        Ok(ptr)
    }
}
