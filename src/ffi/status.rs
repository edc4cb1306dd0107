//! Status codes of the C ABI.

use core::ffi::{c_char, c_int};

use super::guard::catch_or;
use crate::Error;

/// Result of every fallible oblivex function. `OBLIVEX_OK` is 0; each error
/// has its own code (codes are stable: new ones are only ever appended).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum oblivex_status {
    /// Success.
    OBLIVEX_OK = 0,
    /// A required pointer argument was NULL.
    OBLIVEX_ERR_NULL_POINTER = 1,
    /// A length does not fit the operation (not a multiple of the element
    /// width, element counts that disagree, or an operand longer than
    /// supported).
    OBLIVEX_ERR_BAD_LENGTH = 2,
    /// A batch of zero elements, or an operand of zero bytes.
    OBLIVEX_ERR_EMPTY_INPUT = 3,
    /// The modulus is zero.
    OBLIVEX_ERR_ZERO_MODULUS = 4,
    /// The modulus is even (use OpenSSL's `BN_mod_exp`, or the
    /// `oblivex_openssl.h` shim, which delegates even moduli to it).
    OBLIVEX_ERR_EVEN_MODULUS = 5,
    /// The modulus is longer than 8192 bits.
    OBLIVEX_ERR_MODULUS_TOO_LARGE = 6,
    /// An output buffer is too small for the result.
    OBLIVEX_ERR_BUFFER_TOO_SMALL = 7,
    /// `OBLIVEX_BACKEND` names a backend that is unknown or that this CPU
    /// cannot run.
    OBLIVEX_ERR_UNSUPPORTED_BACKEND = 8,
    /// An encoded group element is not canonical, not in the prime-order
    /// group, or the identity.
    OBLIVEX_ERR_INVALID_ELEMENT = 9,
    /// An encoded scalar is not canonical (`>= q`) or zero.
    OBLIVEX_ERR_INVALID_SCALAR = 10,
    /// A proof or the server-answer check failed: the server did not apply
    /// its committed key (malicious server detected). No output was written.
    OBLIVEX_ERR_VERIFICATION_FAILED = 11,
    /// The operating system's random number generator failed.
    OBLIVEX_ERR_RNG_FAILURE = 12,
    /// A protocol input was rejected (it hashes to the identity, or a POPRF
    /// info gives an unusable tweaked key).
    OBLIVEX_ERR_INVALID_INPUT = 13,
    /// DeriveKeyPair found no valid key in 256 attempts.
    OBLIVEX_ERR_DERIVE_KEY_PAIR = 14,
    /// A suite identifier that this library does not know.
    OBLIVEX_ERR_UNKNOWN_SUITE = 15,
    /// A client batch was finalized already (its blinds are spent).
    OBLIVEX_ERR_BATCH_USED = 16,
    /// A protocol mode number that this library does not know.
    OBLIVEX_ERR_UNKNOWN_MODE = 17,
    /// The verification factor length κ is outside 32..=128 bits.
    OBLIVEX_ERR_INVALID_KAPPA = 18,
    /// A batch-check variant number that this library does not know.
    OBLIVEX_ERR_UNKNOWN_CHECK = 19,
    /// The committed-key batch check needs the server's public key.
    OBLIVEX_ERR_MISSING_PUBLIC_KEY = 20,
    /// A party (server) id is zero, repeated, or not allowed here.
    OBLIVEX_ERR_INVALID_PARTY_ID = 21,
    /// A threshold t of m is unusable (t = 0, t > m, or m too large).
    OBLIVEX_ERR_INVALID_THRESHOLD = 22,
    /// Fewer than t servers answered correctly: no output (the failing
    /// servers are still reported).
    OBLIVEX_ERR_NOT_ENOUGH_RESPONSES = 23,
    /// Internal error: a panic was caught at the ABI boundary (a bug in
    /// oblivex; please report it).
    OBLIVEX_ERR_PANIC = 100,
}

impl From<Error> for oblivex_status {
    fn from(error: Error) -> Self {
        use oblivex_status::*;
        match error {
            Error::NullPointer => OBLIVEX_ERR_NULL_POINTER,
            Error::BadLength => OBLIVEX_ERR_BAD_LENGTH,
            Error::EmptyInput => OBLIVEX_ERR_EMPTY_INPUT,
            Error::ZeroModulus => OBLIVEX_ERR_ZERO_MODULUS,
            Error::EvenModulus => OBLIVEX_ERR_EVEN_MODULUS,
            Error::ModulusTooLarge => OBLIVEX_ERR_MODULUS_TOO_LARGE,
            Error::BufferTooSmall => OBLIVEX_ERR_BUFFER_TOO_SMALL,
            Error::UnsupportedBackend => OBLIVEX_ERR_UNSUPPORTED_BACKEND,
            Error::Panic => OBLIVEX_ERR_PANIC,
            Error::InvalidElement => OBLIVEX_ERR_INVALID_ELEMENT,
            Error::InvalidScalar => OBLIVEX_ERR_INVALID_SCALAR,
            Error::VerificationFailed => OBLIVEX_ERR_VERIFICATION_FAILED,
            Error::RngFailure => OBLIVEX_ERR_RNG_FAILURE,
            Error::InvalidInput => OBLIVEX_ERR_INVALID_INPUT,
            Error::DeriveKeyPairFailed => OBLIVEX_ERR_DERIVE_KEY_PAIR,
            Error::UnknownSuite => OBLIVEX_ERR_UNKNOWN_SUITE,
            Error::BatchUsed => OBLIVEX_ERR_BATCH_USED,
            Error::UnknownMode => OBLIVEX_ERR_UNKNOWN_MODE,
            Error::InvalidKappa => OBLIVEX_ERR_INVALID_KAPPA,
            Error::UnknownCheck => OBLIVEX_ERR_UNKNOWN_CHECK,
            Error::MissingPublicKey => OBLIVEX_ERR_MISSING_PUBLIC_KEY,
            Error::InvalidPartyId => OBLIVEX_ERR_INVALID_PARTY_ID,
            Error::InvalidThreshold => OBLIVEX_ERR_INVALID_THRESHOLD,
            Error::NotEnoughResponses => OBLIVEX_ERR_NOT_ENOUGH_RESPONSES,
        }
    }
}

/// Every error, in code order (used to map codes back and in tests).
const ALL_ERRORS: [Error; 24] = [
    Error::NullPointer,
    Error::BadLength,
    Error::EmptyInput,
    Error::ZeroModulus,
    Error::EvenModulus,
    Error::ModulusTooLarge,
    Error::BufferTooSmall,
    Error::UnsupportedBackend,
    Error::Panic,
    Error::InvalidElement,
    Error::InvalidScalar,
    Error::VerificationFailed,
    Error::RngFailure,
    Error::InvalidInput,
    Error::DeriveKeyPairFailed,
    Error::UnknownSuite,
    Error::BatchUsed,
    Error::UnknownMode,
    Error::InvalidKappa,
    Error::UnknownCheck,
    Error::MissingPublicKey,
    Error::InvalidPartyId,
    Error::InvalidThreshold,
    Error::NotEnoughResponses,
];

/// A static, NUL-terminated English description of a status code (an
/// `oblivex_status` value; any other integer gives "unknown status code").
/// Never returns NULL; the string must not be freed.
#[no_mangle]
pub extern "C" fn oblivex_status_str(status: c_int) -> *const c_char {
    catch_or(c"internal error".as_ptr(), || {
        if status == oblivex_status::OBLIVEX_OK as c_int {
            return c"success".as_ptr();
        }
        ALL_ERRORS
            .iter()
            .find(|&&e| oblivex_status::from(e) as c_int == status)
            .map_or(c"unknown status code".as_ptr(), |&e| e.c_message().as_ptr())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_are_distinct() {
        let codes: HashSet<c_int> = ALL_ERRORS
            .iter()
            .map(|&e| oblivex_status::from(e) as c_int)
            .collect();
        assert_eq!(codes.len(), ALL_ERRORS.len());
        assert!(!codes.contains(&0));
    }
}
