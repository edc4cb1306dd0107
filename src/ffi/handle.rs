//! What a C handle points to and who owns it, said once per handle type,
//! and the only code that turns handles into Rust values and back.
//!
//! Each `oblivex_*` handle type is an opaque name in the header; its
//! [`Handle`] impl names the Rust value behind it and how that value is
//! owned. A handle is made, borrowed and freed only through the functions
//! here, so a pointer is never reinterpreted as anything but its own
//! handle's Rust type.

use core::mem::MaybeUninit;

use zeroize::Zeroize;

use super::guard::catch_or;
use super::status::{CResult, OBLIVEX_ERR_NULL_POINTER};

/// How the value behind a handle is owned (only [`Boxed`] today).
pub(crate) trait Ownership {}

/// Made by `Box::into_raw` in the handle's create or `_blind` function and
/// owned by the caller until its `_free` gives it back to Rust.
pub(crate) enum Boxed {}

impl Ownership for Boxed {}

/// A C handle type: the opaque name C sees for a [`Handle::RustType`].
/// The value is `Send`, since a caller may free a handle on another
/// thread than the one that made it.
pub(crate) trait Handle {
    /// The Rust value the handle points to.
    type RustType: Send;
    /// Who owns that value.
    type Ownership: Ownership;
}

/// Hands a new value to C as a handle in `*out`.
///
/// # Safety
/// `out` was checked by `guard::out_pointer` and points to a writable
/// pointer.
pub(crate) unsafe fn create<H: Handle<Ownership = Boxed>>(out: *mut *mut H, value: H::RustType) {
    let ptr = Box::into_raw(Box::new(value)).cast::<H>();
    // SAFETY: forwarded from this function's contract.
    unsafe { out.write(ptr) };
}

/// Borrows the value behind a handle after checking it is not NULL. The
/// value is `Sync`: C may use a handle from several threads at once where
/// its documentation allows it.
///
/// # Safety
/// If `ptr` is not NULL it must be a live handle made by [`create`] for
/// this handle type.
pub(crate) unsafe fn borrow<'a, H: Handle<Ownership = Boxed>>(
    ptr: *const H,
) -> CResult<&'a H::RustType>
where
    H::RustType: Sync,
{
    // SAFETY: a live handle of `H` points to the `H::RustType` that
    // `create` boxed, by the contract.
    unsafe { ptr.cast::<H::RustType>().as_ref() }.ok_or(OBLIVEX_ERR_NULL_POINTER)
}

/// Borrows the values behind an array of `count` handle pointers (one
/// handle per value of a batch), failing on a NULL array or entry.
///
/// # Safety
/// `ptrs` is NULL or points to `count` readable pointers, each NULL or a
/// live handle made by [`create`] for this handle type.
pub(crate) unsafe fn borrow_all<'a, H: Handle<Ownership = Boxed>>(
    ptrs: *const *const H,
    count: usize,
) -> CResult<Vec<&'a H::RustType>>
where
    H::RustType: Sync,
{
    // SAFETY: `ptrs` holds `count` pointers by the contract.
    let handles = unsafe { super::guard::array(ptrs, count) }?;
    handles
        .iter()
        // SAFETY: each entry is NULL or a live handle by the contract.
        .map(|&h| unsafe { borrow(h) })
        .collect()
}

/// Borrows the value behind a handle mutably (a client batch, which is not
/// for concurrent use) after checking it is not NULL.
///
/// # Safety
/// If `ptr` is not NULL it must be a live handle made by [`create`] for
/// this handle type, that no other thread uses during the call.
pub(crate) unsafe fn borrow_mut<'a, H: Handle<Ownership = Boxed>>(
    ptr: *mut H,
) -> CResult<&'a mut H::RustType> {
    // SAFETY: a live, unshared handle of `H` points to the `H::RustType`
    // that `create` boxed, by the contract.
    unsafe { ptr.cast::<H::RustType>().as_mut() }.ok_or(OBLIVEX_ERR_NULL_POINTER)
}

/// Gives a handle made by [`create`] back to Rust, drops its value, whose
/// Drop wipes the secrets it holds, then wipes the whole block before it
/// goes back to the allocator. The block holds bytes no field owns:
/// padding, and past a variant smaller than its enum (every handle of a
/// suite is one) whatever the stack held where the value was built, which
/// `Box::new` copied in with it; a secret the builder handled (a key
/// share's copy, on P-256) can be among them. NULL is ignored.
///
/// # Safety
/// `ptr` is NULL or a live handle made by [`create`] for this handle type,
/// not used afterwards.
pub(crate) unsafe fn free<H: Handle<Ownership = Boxed>>(ptr: *mut H) {
    catch_or((), || {
        if !ptr.is_null() {
            // SAFETY: a live handle of `H` is the `Box::into_raw` of an
            // `H::RustType` (`create`), given back once by the contract;
            // `MaybeUninit` has its layout, so the box frees it alike.
            let mut block = unsafe { Box::from_raw(ptr.cast::<MaybeUninit<H::RustType>>()) };
            // SAFETY: the block holds the live value, dropped only here.
            unsafe { block.assume_init_drop() };
            block.zeroize();
        }
    })
}
