//! Library version and limits.

use core::ffi::c_char;

use super::guard::catch_or;

/// Major version of the library this header belongs to.
pub const OBLIVEX_VERSION_MAJOR: u32 = 0;
/// Minor version of the library this header belongs to.
pub const OBLIVEX_VERSION_MINOR: u32 = 2;
/// Patch version of the library this header belongs to.
pub const OBLIVEX_VERSION_PATCH: u32 = 0;

/// Largest modulus accepted, in bits.
pub const OBLIVEX_MAX_MODULUS_BITS: usize = 8192;
/// Longest base or exponent accepted by the batch exponentiation, in bytes.
pub const OBLIVEX_MAX_OPERAND_BYTES: usize = 2048;
/// Largest thread count `oblivex_set_threads` keeps (more is clamped).
pub const OBLIVEX_MAX_THREADS: usize = 1024;
/// Smallest κ (bits of the verification factors) accepted; 0 picks the
/// default, 64.
pub const OBLIVEX_KAPPA_MIN: u32 = 32;
/// Largest κ accepted.
pub const OBLIVEX_KAPPA_MAX: u32 = 128;
/// Longest OPRF input, POPRF info or message to sign, in bytes.
pub const OBLIVEX_MAX_INPUT_LEN: usize = 65535;
/// Largest number of parties of a sharing (party ids are `1..=` this).
pub const OBLIVEX_MAX_PARTIES: usize = 1024;
/// Bytes of a DKG run's session id.
pub const OBLIVEX_DKG_SESSION_ID_LEN: usize = 32;
/// Bytes of a BLS public key (compressed G2).
pub const OBLIVEX_BLS_PUBLIC_KEY_LEN: usize = 96;
/// Bytes of a BLS signature (compressed G1, `min_sig`).
pub const OBLIVEX_BLS_SIGNATURE_LEN: usize = 48;

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
        assert_eq!(OBLIVEX_MAX_THREADS, crate::mp::MAX_THREADS);
        assert_eq!(OBLIVEX_KAPPA_MIN, crate::oblivious::Kappa::MIN);
        assert_eq!(OBLIVEX_KAPPA_MAX, crate::oblivious::Kappa::MAX);
        assert_eq!(OBLIVEX_MAX_INPUT_LEN, crate::oprf::MAX_INPUT_LEN);
        assert_eq!(OBLIVEX_MAX_PARTIES, crate::threshold::MAX_PARTIES);
        assert_eq!(
            OBLIVEX_DKG_SESSION_ID_LEN,
            crate::threshold::dkg::SESSION_ID_LEN
        );
        assert_eq!(
            OBLIVEX_BLS_PUBLIC_KEY_LEN,
            crate::bls::PublicKey::ENCODED_LEN
        );
        assert_eq!(OBLIVEX_BLS_SIGNATURE_LEN, crate::bls::SIGNATURE_LEN);
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
