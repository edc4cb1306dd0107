//! The panic boundary and the pointer checks every exported function uses:
//! inputs are borrowed only after their pointers and lengths are checked,
//! outputs are written only once the whole operation has succeeded.

use super::status::{
    oblivex_status, CResult, OBLIVEX_ERR_BAD_LENGTH, OBLIVEX_ERR_BUFFER_TOO_SMALL,
    OBLIVEX_ERR_NULL_POINTER, OBLIVEX_ERR_PANIC, OBLIVEX_OK,
};
pub(crate) use super::unwind::catch_or;

/// Runs the body of an exported function: `Ok` becomes `OBLIVEX_OK`, an
/// error its status, and a panic `OBLIVEX_ERR_PANIC` (it never unwinds into
/// C). For functions that return a value instead of a status, see
/// [`catch_or`].
pub(crate) fn catch(body: impl FnOnce() -> CResult) -> oblivex_status {
    catch_or(OBLIVEX_ERR_PANIC, || match body() {
        Ok(()) => OBLIVEX_OK,
        Err(status) => status,
    })
}

/// Borrows `len` bytes at `ptr` after checking the pointer is not NULL.
///
/// # Safety
/// If `ptr` is not NULL it must point to `len` readable, initialised bytes
/// that stay unchanged for `'a`.
pub(crate) unsafe fn input<'a>(ptr: *const u8, len: usize) -> CResult<&'a [u8]> {
    if ptr.is_null() {
        return Err(OBLIVEX_ERR_NULL_POINTER);
    }
    if len > isize::MAX as usize {
        return Err(OBLIVEX_ERR_BAD_LENGTH);
    }
    // SAFETY: non-NULL, and the caller guarantees `len` readable bytes that
    // outlive 'a; the length fits `isize` as `from_raw_parts` requires.
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// Like [`input`], but NULL is allowed when `len` is 0 (an empty string).
///
/// # Safety
/// As [`input`].
pub(crate) unsafe fn optional_input<'a>(ptr: *const u8, len: usize) -> CResult<&'a [u8]> {
    if ptr.is_null() && len == 0 {
        return Ok(&[]);
    }
    // SAFETY: forwarded from this function's contract.
    unsafe { input(ptr, len) }
}

/// `count` entries of `T` at `ptr` (NULL refused), the size checked.
///
/// # Safety
/// If `ptr` is not NULL it points to `count` readable, initialised entries
/// that stay unchanged for `'a`.
pub(crate) unsafe fn array<'a, T>(ptr: *const T, count: usize) -> CResult<&'a [T]> {
    if ptr.is_null() {
        return Err(OBLIVEX_ERR_NULL_POINTER);
    }
    if count > isize::MAX as usize / core::mem::size_of::<T>().max(1) {
        return Err(OBLIVEX_ERR_BAD_LENGTH);
    }
    // SAFETY: non-NULL, `count` readable entries by the contract, and the
    // byte size fits `isize` (checked above).
    Ok(unsafe { core::slice::from_raw_parts(ptr, count) })
}

/// `count · width` as a byte length, or `OBLIVEX_ERR_BAD_LENGTH` on
/// overflow.
pub(crate) fn array_len(count: usize, width: usize) -> CResult<usize> {
    count.checked_mul(width).ok_or(OBLIVEX_ERR_BAD_LENGTH)
}

/// Checks a pointer through which a new handle (or a single value) will be
/// returned.
pub(crate) fn out_pointer<T>(ptr: *mut T) -> CResult<*mut T> {
    if ptr.is_null() {
        Err(OBLIVEX_ERR_NULL_POINTER)
    } else {
        Ok(ptr)
    }
}

/// A caller's output buffer (`capacity` bytes) and the `size_t` that
/// receives the length written: checked, and written only once the whole
/// operation has succeeded.
pub(crate) struct OutBuffer {
    ptr: *mut u8,
    capacity: usize,
    written: *mut usize,
}

impl OutBuffer {
    /// Checks the pointers (NULL refused) and the capacity.
    ///
    /// # Safety
    /// If not NULL, `ptr` points to `capacity` writable bytes and `written`
    /// to a writable `size_t`, both valid until the buffer is written.
    pub(crate) unsafe fn new(ptr: *mut u8, capacity: usize, written: *mut usize) -> CResult<Self> {
        if ptr.is_null() || written.is_null() {
            return Err(OBLIVEX_ERR_NULL_POINTER);
        }
        if capacity > isize::MAX as usize {
            return Err(OBLIVEX_ERR_BAD_LENGTH);
        }
        Ok(OutBuffer {
            ptr,
            capacity,
            written,
        })
    }

    /// `OBLIVEX_ERR_BUFFER_TOO_SMALL` unless `len` bytes fit; writes
    /// nothing.
    pub(crate) fn check_fits(&self, len: usize) -> CResult {
        if len > self.capacity {
            return Err(OBLIVEX_ERR_BUFFER_TOO_SMALL);
        }
        Ok(())
    }

    /// Writes finished results one after the other (they must fit
    /// together: see [`OutBuffer::check_fits`]) and their total length,
    /// with no intermediate copy (the items may be secrets that wipe
    /// themselves).
    pub(crate) fn write_items<T: AsRef<[u8]>>(self, items: &[T]) {
        let total: usize = items.iter().map(|item| item.as_ref().len()).sum();
        assert!(total <= self.capacity, "checked by check_fits");
        let mut offset = 0;
        for item in items {
            let bytes = item.as_ref();
            // SAFETY: the items fit in the `capacity` writable bytes at `ptr`
            // (asserted above), each lands after the previous one, and they
            // are the library's own buffers, so nothing overlaps.
            unsafe {
                core::ptr::copy_nonoverlapping(bytes.as_ptr(), self.ptr.add(offset), bytes.len())
            };
            offset += bytes.len();
        }
        // SAFETY: `written` points to a writable size_t (`new`'s contract).
        unsafe { self.written.write(total) };
    }

    /// Writes one finished result whole, or nothing with
    /// `OBLIVEX_ERR_BUFFER_TOO_SMALL` if it does not fit.
    pub(crate) fn put(self, bytes: &[u8]) -> CResult {
        self.check_fits(bytes.len())?;
        self.write_items(&[bytes]);
        Ok(())
    }
}
