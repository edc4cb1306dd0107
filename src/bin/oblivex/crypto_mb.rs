//! Intel's crypto_mb as the anchor of the elliptic-curve servers:
//! `mbx_x25519_mb8` (8 X25519 scalar multiplications per call) beside the
//! ristretto255 server, `mbx_nistp256_ecdh_mb8` (8 P-256 ECDH scalar
//! multiplications) beside the P-256 server, each timed per scalar
//! multiplication. Loaded at run time like the other anchors: the library
//! named by `OBLIVEX_CRYPTO_MB`, else `libcrypto_mb.so` on the loader's
//! path (`scripts/install-crypto-mb DIR` installs Intel's PyPI release;
//! run with `LD_LIBRARY_PATH=DIR/lib`).

use core::ffi::c_void;
use std::ffi::CString;

use crate::anchors::Library;
use crate::timing::{median_us_per_item, TestData};

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
