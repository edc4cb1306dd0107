//! The anchors `oblivex speed modexp` measures beside oblivex, in the same
//! process and on the same operands: OpenSSL's constant-time
//! exponentiation (`BN_mod_exp_mont_consttime` with a precomputed
//! `BN_MONT_CTX`, and `BN_mod_exp_mont_consttime_x2`, two values per call,
//! which OpenSSL runs on AVX-512 IFMA where it can) and GMP's
//! `mpz_powm_sec`. The libraries are loaded at run time (`libcrypto.so.3`,
//! `libgmp.so.10`), so neither the library nor this command needs them to
//! build; on a machine without them their rows say so.
//!
//! (`c_tests/bench_modexp` measures the same functions from C, with Intel's
//! crypto_mb where it is installed.)

use core::ffi::{c_char, c_int, c_void, CStr};

use crate::timing::{median_us_per_item, TestData};

extern "C" {
    // glibc's dynamic loader (in libc itself since glibc 2.34).
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

const RTLD_NOW: c_int = 2;

/// A shared library loaded for the process's lifetime (never closed: the
/// functions taken from it stay valid).
pub struct Library(*mut c_void);

impl Library {
    pub fn open(name: &CStr) -> Option<Library> {
        // SAFETY: `name` is a NUL-terminated string; dlopen has no other
        // precondition (a library's initialisers run, as for any link).
        let handle = unsafe { dlopen(name.as_ptr(), RTLD_NOW) };
        (!handle.is_null()).then_some(Library(handle))
    }

    /// The address of `name`, as the function type `F`.
    ///
    /// # Safety
    /// `F` must be an `extern "C"` function pointer type matching the
    /// symbol's C declaration.
    pub unsafe fn function<F: Copy>(&self, name: &CStr) -> Option<F> {
        assert_eq!(size_of::<F>(), size_of::<*mut c_void>());
        // SAFETY: a live handle and a NUL-terminated name.
        let address = unsafe { dlsym(self.0, name.as_ptr()) };
        // SAFETY: a non-NULL symbol address reinterpreted as the function
        // pointer type the caller vouches for (same size, checked above).
        (!address.is_null()).then(|| unsafe { core::mem::transmute_copy(&address) })
    }
}

type Ptr = *mut c_void;

/// The OpenSSL functions used (OpenSSL 3 declarations).
#[derive(Clone, Copy)]
struct OpenSsl {
    ctx_new: unsafe extern "C" fn() -> Ptr,
    ctx_free: unsafe extern "C" fn(Ptr),
    bin2bn: unsafe extern "C" fn(*const u8, c_int, Ptr) -> Ptr,
    bn_new: unsafe extern "C" fn() -> Ptr,
    bn_free: unsafe extern "C" fn(Ptr),
    set_flags: unsafe extern "C" fn(Ptr, c_int),
    /// `BN_nnmod` (the base reduced below the modulus, as OpenSSL's
    /// exponentiation expects).
    bn_mod: unsafe extern "C" fn(Ptr, Ptr, Ptr, Ptr) -> c_int,
    mont_new: unsafe extern "C" fn() -> Ptr,
    mont_set: unsafe extern "C" fn(Ptr, Ptr, Ptr) -> c_int,
    mont_free: unsafe extern "C" fn(Ptr),
    exp: unsafe extern "C" fn(Ptr, Ptr, Ptr, Ptr, Ptr, Ptr) -> c_int,
    exp_x2: unsafe extern "C" fn(Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr, Ptr) -> c_int,
}

/// `BN_FLG_CONSTTIME`.
const BN_FLG_CONSTTIME: c_int = 0x04;

impl OpenSsl {
    fn load() -> Option<OpenSsl> {
        let lib = Library::open(c"libcrypto.so.3")?;
        // SAFETY: each type below is the OpenSSL 3 declaration of the
        // function named (pointers to opaque structs as `Ptr`).
        unsafe {
            Some(OpenSsl {
                ctx_new: lib.function(c"BN_CTX_new")?,
                ctx_free: lib.function(c"BN_CTX_free")?,
                bin2bn: lib.function(c"BN_bin2bn")?,
                bn_new: lib.function(c"BN_new")?,
                bn_free: lib.function(c"BN_free")?,
                set_flags: lib.function(c"BN_set_flags")?,
                bn_mod: lib.function(c"BN_nnmod")?,
                mont_new: lib.function(c"BN_MONT_CTX_new")?,
                mont_set: lib.function(c"BN_MONT_CTX_set")?,
                mont_free: lib.function(c"BN_MONT_CTX_free")?,
                exp: lib.function(c"BN_mod_exp_mont_consttime")?,
                exp_x2: lib.function(c"BN_mod_exp_mont_consttime_x2")?,
            })
        }
    }
}

/// The GMP functions used (`mpz_*` are macros for `__gmpz_*`).
#[derive(Clone, Copy)]
struct Gmp {
    init: unsafe extern "C" fn(*mut Mpz),
    clear: unsafe extern "C" fn(*mut Mpz),
    import: unsafe extern "C" fn(*mut Mpz, usize, c_int, usize, c_int, usize, *const u8),
    powm_sec: unsafe extern "C" fn(*mut Mpz, *const Mpz, *const Mpz, *const Mpz),
}

/// `__mpz_struct`: alloc, size (two ints) and the limb pointer.
#[repr(C)]
struct Mpz {
    alloc: c_int,
    size: c_int,
    limbs: *mut u64,
}

impl Gmp {
    fn load() -> Option<Gmp> {
        let lib = Library::open(c"libgmp.so.10")?;
        // SAFETY: each type below is GMP 6's declaration of the function
        // named.
        unsafe {
            Some(Gmp {
                init: lib.function(c"__gmpz_init")?,
                clear: lib.function(c"__gmpz_clear")?,
                import: lib.function(c"__gmpz_import")?,
                powm_sec: lib.function(c"__gmpz_powm_sec")?,
            })
        }
    }
}

/// One anchor's figure for one size: microseconds per exponentiation, or
/// why there is none.
pub struct Figure {
    pub name: &'static str,
    pub us: Result<f64, &'static str>,
}

/// The anchors' figures for `bits`-bit operands: modulus, bases and
/// exponents drawn as `oblivex speed modexp` draws them.
pub fn measure(modulus: &[u8], data: &mut TestData, seconds: f64) -> Vec<Figure> {
    let len = modulus.len();
    let bases = data.bytes(2 * len);
    let exponents = data.bytes(2 * len);
    let openssl = OpenSsl::load();
    vec![
        Figure {
            name: "openssl",
            us: openssl
                .map(|o| openssl_us(o, modulus, &bases, &exponents, false, seconds))
                .ok_or("libcrypto.so.3 not found"),
        },
        Figure {
            name: "openssl-x2",
            us: openssl
                .map(|o| openssl_us(o, modulus, &bases, &exponents, true, seconds))
                .ok_or("libcrypto.so.3 not found"),
        },
        Figure {
            name: "gmp",
            us: Gmp::load()
                .map(|g| gmp_us(g, modulus, &bases, &exponents, seconds))
                .ok_or("libgmp.so.10 not found"),
        },
    ]
}

fn openssl_us(o: OpenSsl, m: &[u8], bases: &[u8], exps: &[u8], x2: bool, seconds: f64) -> f64 {
    let len = m.len();
    let as_int = c_int::try_from(len).expect("an operand length fits an int");
    // SAFETY: OpenSSL calls with the pointers they document: byte buffers
    // of `len` bytes, fresh BIGNUMs, one BN_CTX and BN_MONT_CTX, all freed
    // at the end and used by this thread only.
    unsafe {
        let ctx = (o.ctx_new)();
        let bn_m = (o.bin2bn)(m.as_ptr(), as_int, core::ptr::null_mut());
        let mont = (o.mont_new)();
        assert!((o.mont_set)(mont, bn_m, ctx) == 1, "BN_MONT_CTX_set");
        let mut a = [core::ptr::null_mut(); 2];
        let mut p = [core::ptr::null_mut(); 2];
        let mut r = [core::ptr::null_mut(); 2];
        for k in 0..2 {
            a[k] = (o.bin2bn)(bases[k * len..].as_ptr(), as_int, core::ptr::null_mut());
            assert!((o.bn_mod)(a[k], a[k], bn_m, ctx) == 1, "BN_nnmod");
            p[k] = (o.bin2bn)(exps[k * len..].as_ptr(), as_int, core::ptr::null_mut());
            (o.set_flags)(p[k], BN_FLG_CONSTTIME);
            r[k] = (o.bn_new)();
        }
        let us = if x2 {
            median_us_per_item(
                seconds,
                2,
                || (),
                |()| {
                    let ok = (o.exp_x2)(
                        r[0], a[0], p[0], bn_m, mont, r[1], a[1], p[1], bn_m, mont, ctx,
                    );
                    assert!(ok == 1, "BN_mod_exp_mont_consttime_x2");
                },
            )
        } else {
            median_us_per_item(
                seconds,
                1,
                || (),
                |()| {
                    let ok = (o.exp)(r[0], a[0], p[0], bn_m, ctx, mont);
                    assert!(ok == 1, "BN_mod_exp_mont_consttime");
                },
            )
        };
        for k in 0..2 {
            (o.bn_free)(a[k]);
            (o.bn_free)(p[k]);
            (o.bn_free)(r[k]);
        }
        (o.mont_free)(mont);
        (o.bn_free)(bn_m);
        (o.ctx_free)(ctx);
        us
    }
}

fn gmp_us(g: Gmp, m: &[u8], bases: &[u8], exps: &[u8], seconds: f64) -> f64 {
    let len = m.len();
    let new = || Mpz {
        alloc: 0,
        size: 0,
        limbs: core::ptr::null_mut(),
    };
    let (mut gm, mut ga, mut gp, mut gr) = (new(), new(), new(), new());
    // SAFETY: GMP calls on initialised integers owned by this function;
    // imports read `len` bytes of big-endian buffers; all are cleared at
    // the end. `mpz_powm_sec` needs an odd modulus and a positive exponent
    // (the modulus is odd; a zero exponent has probability 2^-8·len).
    unsafe {
        for z in [&mut gm, &mut ga, &mut gp, &mut gr] {
            (g.init)(z);
        }
        (g.import)(&mut gm, len, 1, 1, 0, 0, m.as_ptr());
        (g.import)(&mut ga, len, 1, 1, 0, 0, bases.as_ptr());
        (g.import)(&mut gp, len, 1, 1, 0, 0, exps.as_ptr());
        let us = median_us_per_item(seconds, 1, || (), |()| (g.powm_sec)(&mut gr, &ga, &gp, &gm));
        for z in [&mut gm, &mut ga, &mut gp, &mut gr] {
            (g.clear)(z);
        }
        us
    }
}
