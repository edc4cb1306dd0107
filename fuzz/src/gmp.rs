//! GMP's `mpz_powm` (the C library of Debian's `libgmp-dev`, which the C
//! tests use too), the modexp target's reference. GMP is not instrumented
//! for coverage, so the reference costs a fraction of the code under test;
//! a reference built by cargo fuzz (num-bigint) spent most of each run in
//! the coverage callbacks of its own inner loops.

use core::ffi::{c_int, c_void};

/// GMP's `__mpz_struct` on LP64 targets.
#[repr(C)]
struct RawMpz {
    alloc: c_int,
    size: c_int,
    limbs: *mut u64,
}

#[link(name = "gmp")]
extern "C" {
    fn __gmpz_init(x: *mut RawMpz);
    fn __gmpz_clear(x: *mut RawMpz);
    fn __gmpz_import(
        rop: *mut RawMpz,
        count: usize,
        order: c_int,
        size: usize,
        endian: c_int,
        nails: usize,
        op: *const c_void,
    );
    fn __gmpz_export(
        rop: *mut c_void,
        countp: *mut usize,
        order: c_int,
        size: usize,
        endian: c_int,
        nails: usize,
        op: *const RawMpz,
    ) -> *mut c_void;
    fn __gmpz_sizeinbase(op: *const RawMpz, base: c_int) -> usize;
    fn __gmpz_powm(
        rop: *mut RawMpz,
        base: *const RawMpz,
        exp: *const RawMpz,
        modulus: *const RawMpz,
    );
}

/// An `mpz_t`, cleared on drop. Boxed: GMP keeps no pointer to it, but a
/// fixed address keeps every call's pointer obviously valid.
struct Mpz(Box<RawMpz>);

impl Mpz {
    /// The non-negative integer whose big-endian bytes are `bytes`.
    fn from_be(bytes: &[u8]) -> Mpz {
        let mut raw = Box::new(RawMpz {
            alloc: 0,
            size: 0,
            limbs: core::ptr::null_mut(),
        });
        // SAFETY: `raw` is a valid `__mpz_struct` to initialise; `bytes`
        // holds `bytes.len()` readable bytes (order 1, size 1: big-endian
        // bytes; nails 0).
        unsafe {
            __gmpz_init(&mut *raw);
            __gmpz_import(&mut *raw, bytes.len(), 1, 1, 1, 0, bytes.as_ptr().cast());
        }
        Mpz(raw)
    }

    /// Big-endian bytes, none for zero.
    fn to_be(&self) -> Vec<u8> {
        // SAFETY: `self` was initialised by `from_be` and not cleared.
        let bits = unsafe { __gmpz_sizeinbase(&*self.0, 2) };
        let mut out = vec![0u8; bits.div_ceil(8)];
        let mut written = 0usize;
        // SAFETY: `out` has room for every byte of the value (its bit
        // length, rounded up); GMP writes `written` ≤ that many.
        unsafe {
            __gmpz_export(out.as_mut_ptr().cast(), &mut written, 1, 1, 1, 0, &*self.0);
        }
        out.truncate(written);
        out
    }
}

impl Drop for Mpz {
    fn drop(&mut self) {
        // SAFETY: initialised by `from_be`, cleared only here.
        unsafe { __gmpz_clear(&mut *self.0) }
    }
}

/// `base^exponent mod modulus` as big-endian bytes without leading zeros
/// (none for zero); all three are big-endian, `modulus` non-zero.
pub fn mod_pow_be(base: &[u8], exponent: &[u8], modulus: &[u8]) -> Vec<u8> {
    assert!(
        modulus.iter().any(|&b| b != 0),
        "GMP divides by the modulus"
    );
    let (b, e, m) = (
        Mpz::from_be(base),
        Mpz::from_be(exponent),
        Mpz::from_be(modulus),
    );
    let mut result = Mpz::from_be(&[]);
    // SAFETY: all four initialised; `result` is only written; `m` is
    // non-zero (asserted), which is mpz_powm's one precondition for a
    // non-negative exponent.
    unsafe { __gmpz_powm(&mut *result.0, &*b.0, &*e.0, &*m.0) };
    result.to_be()
}
