//! Library version and limits.

use core::ffi::c_char;

use super::guard::catch_or;

/// Major version of the library this header belongs to.
pub const OBLIVEX_VERSION_MAJOR: u32 = 0;
/// Minor version of the library this header belongs to.
pub const OBLIVEX_VERSION_MINOR: u32 = 1;
/// Patch version of the library this header belongs to.
pub const OBLIVEX_VERSION_PATCH: u32 = 0;

/// Largest modulus accepted, in bits.
pub const OBLIVEX_MAX_MODULUS_BITS: usize = 8192;
/// Longest base or exponent accepted by the batch exponentiation, in bytes.
pub const OBLIVEX_MAX_OPERAND_BYTES: usize = 2048;

/// The version of the linked library as "MAJOR.MINOR.PATCH" (compare with
/// the `OBLIVEX_VERSION_*` macros of the header you compiled against).
/// Static; never NULL; do not free.
#[no_mangle]
pub extern "C" fn oblivex_version() -> *const c_char {
    const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    catch_or(c"unknown".as_ptr(), || VERSION.as_ptr().cast())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_match_the_rust_api() {
        assert_eq!(OBLIVEX_MAX_MODULUS_BITS, crate::mp::MAX_MODULUS_BITS);
        assert_eq!(OBLIVEX_MAX_OPERAND_BYTES, crate::mp::MAX_OPERAND_BYTES);
    }

    #[test]
    fn version_macros_match_cargo() {
        assert_eq!(
            OBLIVEX_VERSION_MAJOR.to_string(),
            env!("CARGO_PKG_VERSION_MAJOR")
        );
        assert_eq!(
            OBLIVEX_VERSION_MINOR.to_string(),
            env!("CARGO_PKG_VERSION_MINOR")
        );
        assert_eq!(
            OBLIVEX_VERSION_PATCH.to_string(),
            env!("CARGO_PKG_VERSION_PATCH")
        );
    }
}
