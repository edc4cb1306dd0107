//! Intel's crypto_mb as an anchor: `mbx_exp{1024,2048,3072,4096}_mb8` (8
//! exponentiations per call) beside oblivex's exponentiation,
//! `mbx_x25519_mb8` (8 X25519 scalar multiplications per call) beside the
//! ristretto255 server, `mbx_nistp256_ecdh_mb8` (8 P-256 ECDH scalar
//! multiplications) beside the P-256 server, each timed per operation. Loaded at run time like the other anchors: the library
//! named by `OBLIVEX_CRYPTO_MB`, else `libcrypto_mb.so` on the loader's
//! path (`scripts/install-crypto-mb DIR` installs Intel's PyPI release;
//! run with `LD_LIBRARY_PATH=DIR/lib`).

use core::ffi::{c_int, c_void, CStr};
use std::ffi::CString;

use crate::anchors::Library;
use crate::timing::{median_us_per_item, TestData};

/// `mbx_exp{1024,2048,3072,4096}_mb8(out[8], base[8], exponent[8],
/// exponent_bits, modulus[8], modulus_bits, buffer, buffer_len)`, numbers
/// as little-endian 64-bit words.
type Exp = unsafe extern "C" fn(
    *const *mut u64,
    *const *const u64,
    *const *const u64,
    c_int,
    *const *const u64,
    c_int,
    *mut u8,
    c_int,
) -> u32;
/// `mbx_exp_BufferSize(modulus_bits)`: the scratch an exponentiation needs.
type ExpBufferSize = unsafe extern "C" fn(c_int) -> c_int;
/// `mbx_x25519_mb8(shared[8], private[8], public[8])`.
type X25519 = unsafe extern "C" fn(*const *mut u8, *const *const u8, *const *const u8) -> u32;
/// `mbx_x25519_public_key_mb8(public[8], private[8])`.
type X25519Public = unsafe extern "C" fn(*const *mut u8, *const *const u8) -> u32;
/// `mbx_nistp256_ecpublic_key_mb8(x[8], y[8], z[8], secret[8], buffer)`.
type P256Public = unsafe extern "C" fn(
    *const *mut u64,
    *const *mut u64,
    *const *mut u64,
    *const *const u64,
    *mut c_void,
) -> u32;
/// `mbx_nistp256_ecdh_mb8(shared[8], secret[8], x[8], y[8], z[8], buffer)`.
type P256Ecdh = unsafe extern "C" fn(
    *const *mut u8,
    *const *const u64,
    *const *const u64,
    *const *const u64,
    *const *const u64,
    *mut c_void,
) -> u32;

/// The loaded library and the name it was found under.
pub struct CryptoMb {
    library: Library,
    pub name: String,
}

impl CryptoMb {
    /// The library, or `None` when it is not installed.
    pub fn load() -> Option<CryptoMb> {
        let named = std::env::var("OBLIVEX_CRYPTO_MB")
            .ok()
            .filter(|s| !s.is_empty());
        let candidates = named.iter().cloned().chain(
            [
                "libcrypto_mb.so",
                "libcrypto_mb.so.13",
                "libcrypto_mb.so.12",
            ]
            .map(String::from),
        );
        for name in candidates {
            let Ok(c_name) = CString::new(name.clone()) else {
                continue;
            };
            if let Some(library) = Library::open(&c_name) {
                return Some(CryptoMb { library, name });
            }
        }
        None
    }

    /// µs per exponentiation in `mbx_exp{bits}_mb8`: 8 per call, all modulo
    /// `modulus`, with the 8 `bases` (each below the modulus) and the 8
    /// `exponents`, big-endian and as long as the modulus. `Err` says why
    /// there is no figure: no kernel of this size, a failed call, or
    /// results other than `expected` (oblivex's, same layout).
    pub fn exp_us(
        &self,
        modulus: &[u8],
        bases: &[u8],
        exponents: &[u8],
        expected: &[u8],
        seconds: f64,
    ) -> Result<f64, &'static str> {
        let bits = 8 * modulus.len();
        let symbol: &CStr = match bits {
            1024 => c"mbx_exp1024_mb8",
            2048 => c"mbx_exp2048_mb8",
            3072 => c"mbx_exp3072_mb8",
            4096 => c"mbx_exp4096_mb8",
            _ => return Err("crypto_mb has no kernel of this size"),
        };
        // SAFETY: the types are crypto_mb's declarations of these symbols.
        let (exp, buffer_size) = unsafe {
            (
                self.library.function::<Exp>(symbol),
                self.library
                    .function::<ExpBufferSize>(c"mbx_exp_BufferSize"),
            )
        };
        let (Some(exp), Some(buffer_size)) = (exp, buffer_size) else {
            return Err("this crypto_mb lacks mbx_exp_mb8");
        };
        let as_int = c_int::try_from(bits).expect("a modulus size fits an int");
        let words = |bytes: &[u8]| -> Vec<Vec<u64>> {
            bytes
                .chunks(modulus.len())
                .map(|value| {
                    value
                        .rchunks(8)
                        .map(|word| word.iter().fold(0, |acc, &b| (acc << 8) | u64::from(b)))
                        .collect()
                })
                .collect()
        };
        let moduli = words(&modulus.repeat(8));
        let (bases, exponents) = (words(bases), words(exponents));
        let mut results = vec![vec![0u64; modulus.len() / 8]; 8];
        // SAFETY: a plain function of one int.
        let scratch_len = unsafe { buffer_size(as_int) };
        let Ok(scratch_bytes) = usize::try_from(scratch_len) else {
            return Err("mbx_exp_BufferSize failed");
        };
        // The scratch on a 64-byte boundary, as the library's own callers
        // allocate it.
        let mut scratch = vec![0u8; scratch_bytes + 64];
        let offset = scratch.as_ptr().align_offset(64);
        let scratch_ptr = scratch[offset..].as_mut_ptr();
        let pointers = |values: &[Vec<u64>]| values.iter().map(|v| v.as_ptr()).collect::<Vec<_>>();
        let (modulus_ptrs, base_ptrs, exponent_ptrs) =
            (pointers(&moduli), pointers(&bases), pointers(&exponents));
        let result_ptrs: Vec<*mut u64> = results.iter_mut().map(|r| r.as_mut_ptr()).collect();
        // SAFETY: 8 pointers per operand to `bits / 64` words each, 8
        // writable results of the same size, and a 64-byte-aligned scratch
        // of the size the library asked for.
        let call = || unsafe {
            exp(
                result_ptrs.as_ptr(),
                base_ptrs.as_ptr(),
                exponent_ptrs.as_ptr(),
                as_int,
                modulus_ptrs.as_ptr(),
                as_int,
                scratch_ptr,
                scratch_len,
            )
        };
        if call() != 0 {
            return Err("mbx_exp_mb8 failed");
        }
        let big_endian: Vec<u8> = results
            .iter()
            .flat_map(|r| r.iter().rev().flat_map(|w| w.to_be_bytes()))
            .collect();
        if big_endian != expected {
            return Err("crypto_mb's results differ from oblivex's");
        }
        us_per_lane(seconds, call).ok_or("mbx_exp_mb8 failed")
    }

    /// µs per X25519 scalar multiplication in `mbx_x25519_mb8`, 8 random
    /// keys against 8 public keys; `None` if the library lacks it or fails.
    pub fn x25519_us(&self, data: &mut TestData, seconds: f64) -> Option<f64> {
        // SAFETY: the types are crypto_mb's declarations of these symbols.
        let (x25519, public_key) = unsafe {
            (
                self.library.function::<X25519>(c"mbx_x25519_mb8")?,
                self.library
                    .function::<X25519Public>(c"mbx_x25519_public_key_mb8")?,
            )
        };
        let secrets: Vec<Vec<u8>> = (0..8).map(|_| data.bytes(32)).collect();
        let mut publics = vec![vec![0u8; 32]; 8];
        let mut shared = vec![vec![0u8; 32]; 8];
        let secret_ptrs: Vec<*const u8> = secrets.iter().map(|s| s.as_ptr()).collect();
        let public_out: Vec<*mut u8> = publics.iter_mut().map(|p| p.as_mut_ptr()).collect();
        // SAFETY: 8 pointers to 32 writable or readable bytes each.
        if unsafe { public_key(public_out.as_ptr(), secret_ptrs.as_ptr()) } != 0 {
            return None;
        }
        let public_ptrs: Vec<*const u8> = publics.iter().map(|p| p.as_ptr()).collect();
        let shared_out: Vec<*mut u8> = shared.iter_mut().map(|s| s.as_mut_ptr()).collect();
        // SAFETY: as above.
        us_per_lane(seconds, || unsafe {
            x25519(
                shared_out.as_ptr(),
                secret_ptrs.as_ptr(),
                public_ptrs.as_ptr(),
            )
        })
    }

    /// µs per P-256 scalar multiplication in `mbx_nistp256_ecdh_mb8`, 8
    /// random keys against 8 public keys (Jacobian coordinates, as its key
    /// generation returns them); `None` if the library lacks it or fails.
    pub fn nistp256_us(&self, data: &mut TestData, seconds: f64) -> Option<f64> {
        // SAFETY: the types are crypto_mb's declarations of these symbols.
        let (ecdh, public_key) = unsafe {
            (
                self.library
                    .function::<P256Ecdh>(c"mbx_nistp256_ecdh_mb8")?,
                self.library
                    .function::<P256Public>(c"mbx_nistp256_ecpublic_key_mb8")?,
            )
        };
        // Secret keys below 2^255 < the group order, as 4 little-endian words.
        let secrets: Vec<[u64; 4]> = (0..8)
            .map(|_| core::array::from_fn(|i| data.next() >> u32::from(i == 3)))
            .collect();
        let mut coordinates = vec![[0u64; 4]; 24];
        let mut shared = vec![[0u8; 32]; 8];
        let secret_ptrs: Vec<*const u64> = secrets.iter().map(|s| s.as_ptr()).collect();
        let coordinate_out: Vec<*mut u64> =
            coordinates.iter_mut().map(|c| c.as_mut_ptr()).collect();
        let null = core::ptr::null_mut();
        // SAFETY: 8 pointers to 4 words each per coordinate; a NULL buffer
        // asks the library for its own scratch.
        let status = unsafe {
            public_key(
                coordinate_out[0..].as_ptr(),
                coordinate_out[8..].as_ptr(),
                coordinate_out[16..].as_ptr(),
                secret_ptrs.as_ptr(),
                null,
            )
        };
        if status != 0 {
            return None;
        }
        let coordinate_ptrs: Vec<*const u64> = coordinates.iter().map(|c| c.as_ptr()).collect();
        let shared_out: Vec<*mut u8> = shared.iter_mut().map(|s| s.as_mut_ptr()).collect();
        // SAFETY: as above; 8 outputs of 32 bytes.
        us_per_lane(seconds, || unsafe {
            ecdh(
                shared_out.as_ptr(),
                secret_ptrs.as_ptr(),
                coordinate_ptrs[0..].as_ptr(),
                coordinate_ptrs[8..].as_ptr(),
                coordinate_ptrs[16..].as_ptr(),
                null,
            )
        })
    }
}

/// µs per lane of `call`, an 8-way crypto_mb function returning its status
/// (`None` if any call failed).
fn us_per_lane(seconds: f64, mut call: impl FnMut() -> u32) -> Option<f64> {
    let mut status = 0;
    let us = median_us_per_item(seconds, 8, || (), |()| status |= call());
    (status == 0).then_some(us)
}
