//! The one error type of the crate. Every variant maps to exactly one
//! `oblivex_status` code of the C ABI (see `ffi::status`).

use core::ffi::CStr;
use core::fmt;

/// Everything that can go wrong in oblivex. Errors carry no data: a bad input
/// is named by its kind, never echoed back (it may be secret).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A required pointer argument was NULL (C ABI only).
    NullPointer,
    /// A length does not fit the operation: a buffer whose size is not a
    /// multiple of the element width, or an operand longer than supported.
    BadLength,
    /// A batch with no element, or an operand of zero bytes.
    EmptyInput,
    /// The modulus is zero.
    ZeroModulus,
    /// The modulus is even; Montgomery arithmetic needs an odd modulus.
    EvenModulus,
    /// The modulus is longer than [`crate::mp::MAX_MODULUS_BITS`].
    ModulusTooLarge,
    /// An output buffer is smaller than the result.
    BufferTooSmall,
    /// `OBLIVEX_BACKEND` names a backend that is unknown or that this CPU
    /// (or this build) cannot run.
    UnsupportedBackend,
    /// A Rust panic was caught at the C ABI boundary (a bug in oblivex).
    Panic,
    /// An encoded group element is not canonical, not in the prime-order
    /// group, or the identity.
    InvalidElement,
    /// An encoded scalar is not canonical (`>= q`) or is zero.
    InvalidScalar,
    /// A proof or a check of the server's answers failed: the server did not
    /// apply its committed key (a malicious or broken server).
    VerificationFailed,
    /// The operating system's random number generator failed.
    RngFailure,
    /// A protocol input was rejected: it hashes to the identity, or a POPRF
    /// `info` yields an unusable tweaked key.
    InvalidInput,
    /// DeriveKeyPair found no non-zero key in 256 attempts (RFC 9497 §3.2.1).
    DeriveKeyPairFailed,
    /// A suite identifier this library does not know (C ABI).
    UnknownSuite,
    /// A client batch was finalized already: its blinds are spent (C ABI).
    BatchUsed,
    /// A protocol mode number this library does not know (C ABI).
    UnknownMode,
    /// The length κ of the batch check's verification factors is outside
    /// 32..=128 bits.
    InvalidKappa,
    /// A batch-check variant number this library does not know (C ABI).
    UnknownCheck,
    /// The committed-key batch check needs the server's public key.
    MissingPublicKey,
    /// A party (server) id of a threshold scheme is zero, repeated, or not
    /// one the operation allows (ids run from 1 to the number of parties).
    InvalidPartyId,
    /// A threshold `t` of `m` parties is unusable: `t = 0`, `t > m`, or `m`
    /// above the supported maximum.
    InvalidThreshold,
    /// Fewer than `t` servers gave a correct answer: the batch cannot be
    /// recovered (the servers that failed are named alongside).
    NotEnoughResponses,
}

impl Error {
    /// A short, static description (also `Display`).
    pub fn message(self) -> &'static str {
        self.c_message().to_str().expect("messages are ASCII")
    }

    /// The same description as a NUL-terminated string, for the C ABI's
    /// `oblivex_status_str`.
    pub fn c_message(self) -> &'static CStr {
        match self {
            Error::NullPointer => c"a required pointer argument is NULL",
            Error::BadLength => c"a length does not fit the operation",
            Error::EmptyInput => c"empty input: no element, or an operand of zero bytes",
            Error::ZeroModulus => c"the modulus is zero",
            Error::EvenModulus => {
                c"the modulus is even (Montgomery arithmetic needs an odd modulus)"
            }
            Error::ModulusTooLarge => c"the modulus is longer than 8192 bits",
            Error::BufferTooSmall => c"the output buffer is too small",
            Error::UnsupportedBackend => {
                c"OBLIVEX_BACKEND names a backend that is unknown or unsupported on this CPU"
            }
            Error::Panic => c"internal error: a panic was caught at the C ABI boundary",
            Error::InvalidElement => c"invalid group element: not canonical, not in the group, or the identity",
            Error::InvalidScalar => c"invalid scalar: not canonical (>= group order) or zero",
            Error::VerificationFailed => {
                c"verification failed: the server did not apply its committed key (malicious server detected)"
            }
            Error::RngFailure => c"the operating system's random number generator failed",
            Error::InvalidInput => c"invalid protocol input (hashes to the identity, or an unusable POPRF info)",
            Error::DeriveKeyPairFailed => c"DeriveKeyPair found no valid key in 256 attempts",
            Error::UnknownSuite => c"unknown suite identifier",
            Error::BatchUsed => c"this client batch was finalized already (blinds are never reused)",
            Error::UnknownMode => c"unknown protocol mode",
            Error::InvalidKappa => c"verification factor length (kappa) outside 32..128 bits",
            Error::UnknownCheck => c"unknown batch check variant",
            Error::MissingPublicKey => c"the committed-key check needs the server's public key",
            Error::InvalidPartyId => c"invalid party id: zero, repeated, or not allowed here",
            Error::InvalidThreshold => c"invalid threshold: t must be in 1..=m and m within the maximum",
            Error::NotEnoughResponses => {
                c"fewer than t servers answered correctly: the batch cannot be recovered"
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}
