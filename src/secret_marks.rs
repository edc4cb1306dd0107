//! Secret marks for the constant-time analysis under valgrind (not the mask
//! arithmetic of `mp::limbs::masks`): [`declassify`] says "this value is
//! public from here on, by design" (a validity bit of a decoded secret, a
//! result about to be sent), [`classify`] says "this value is secret" (the
//! OS randomness every secret coin comes from).
//!
//! Under valgrind memcheck, the CT test (`c_tests/ct/`) marks every secret
//! input undefined; memcheck then reports any branch or memory index that
//! depends on one. These two functions are memcheck's client requests
//! `MAKE_MEM_DEFINED` / `MAKE_MEM_UNDEFINED` ([`running_on_valgrind`] is
//! its core request, for the backend choice): on a real CPU their
//! instruction sequence (four rotations of `rdi` by 128 bits in all, then
//! `xchg rbx, rbx`) changes nothing, so they cost a handful of cycles and
//! are always compiled in (on x86_64; elsewhere they do nothing).

/// memcheck's client request numbers (`VG_USERREQ_TOOL_BASE('M','C')`
/// + 1 and + 2 in valgrind's `memcheck.h`, a stable ABI).
#[cfg(target_arch = "x86_64")]
const MAKE_MEM_UNDEFINED: usize = 0x4d43_0001;
#[cfg(target_arch = "x86_64")]
const MAKE_MEM_DEFINED: usize = 0x4d43_0002;
/// memcheck's `GET_VBITS` and `SET_VBITS` (+ 8 and + 9): a range's
/// definedness bits, read into or written from a buffer.
#[cfg(target_arch = "x86_64")]
const GET_VBITS: usize = 0x4d43_0008;
#[cfg(target_arch = "x86_64")]
const SET_VBITS: usize = 0x4d43_0009;
/// valgrind's core request `RUNNING_ON_VALGRIND` (`valgrind.h`).
#[cfg(target_arch = "x86_64")]
const RUNNING_ON_VALGRIND: usize = 0x1001;

/// Sends a client request with two arguments; returns valgrind's answer,
/// or 0 natively.
#[cfg(target_arch = "x86_64")]
fn client_request(request: usize, address: usize, len: usize) -> usize {
    client_request3(request, address, len, 0)
}

/// [`client_request`] with a third argument (valgrind may write through a
/// pointer given in one: `GET_VBITS`'s buffer).
#[cfg(target_arch = "x86_64")]
fn client_request3(request: usize, first: usize, second: usize, third: usize) -> usize {
    let args: [usize; 6] = [request, first, second, third, 0, 0];
    let answer: usize;
    // SAFETY: natively the sequence rotates rdi by 3 + 13 + 61 + 51 = 128
    // bits (back to its value; declared clobbered anyway) and exchanges rbx
    // with itself; rdx receives the default result 0. Under valgrind it is
    // the client-request marker: valgrind reads `args` (through rax, a
    // live local array) and writes rdx, and writes memory only where a
    // request's argument says (`GET_VBITS`: the caller's buffer, which it
    // owns); the asm is not marked read-only or memory-free, so the
    // compiler assumes memory may change and reloads any value it cached
    // in a register (the marks apply to memory).
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") 0usize => answer,
            inout("rdi") 0usize => _,
            options(nostack),
        );
    }
    answer
}

/// Whether this process runs under valgrind (its `RUNNING_ON_VALGRIND`).
/// Only the backend choice asks: valgrind runs ADX instructions but hides
/// ADX from CPUID, and the constant-time check must run the MULX/ADX
/// backend all the same.
pub(crate) fn running_on_valgrind() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        client_request(RUNNING_ON_VALGRIND, 0, 0) != 0
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Tells a constant-time checker that `value`'s bytes are public from now
/// on. Use it only where the design publishes them: the outcome of
/// validating a secret (accepted or rejected), a result that is about to
/// be sent, a rejection-sampling decision that reveals only discarded
/// coins.
#[inline]
pub(crate) fn declassify<T: ?Sized>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    client_request(
        MAKE_MEM_DEFINED,
        value as *const T as *const u8 as usize,
        core::mem::size_of_val(value),
    );
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Tells a constant-time checker that `value`'s bytes are secret (fresh
/// randomness from the operating system).
#[inline]
pub(crate) fn classify<T: ?Sized>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    client_request(
        MAKE_MEM_UNDEFINED,
        value as *const T as *const u8 as usize,
        core::mem::size_of_val(value),
    );
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Gives each byte of `to` the mark (secret or public) of the byte of
/// `from` at the same position (equal lengths): where a value had to be
/// declared public for a test the checker cannot see through, a copy of it
/// becomes as secret again as a value it is known to go with.
pub(crate) fn copy_marks(from: &[u8], to: &[u8]) {
    assert_eq!(from.len(), to.len(), "marks copied between equal lengths");
    #[cfg(target_arch = "x86_64")]
    for (from, to) in from.chunks(64).zip(to.chunks(64)) {
        let mut marks = [0u8; 64];
        let marks = &mut marks[..from.len()];
        client_request3(
            GET_VBITS,
            from.as_ptr() as usize,
            marks.as_mut_ptr() as usize,
            from.len(),
        );
        client_request3(
            SET_VBITS,
            to.as_ptr() as usize,
            marks.as_ptr() as usize,
            to.len(),
        );
    }
}

/// [`declassify`] of a `bool` computed from secrets, returned for use in
/// a branch.
#[inline]
pub(crate) fn public_bool(value: bool) -> bool {
    public_value(value)
}

/// [`declassify`] of a value computed from secrets (a secret modulus's
/// length, which is the key's size), returned for use in a branch or a
/// loop bound.
#[inline]
pub(crate) fn public_value<T: Copy>(value: T) -> T {
    declassify(&value);
    // SAFETY: a read of a live local; volatile so that it comes from the
    // memory just marked, not from a register copy.
    unsafe { core::ptr::read_volatile(&value) }
}
