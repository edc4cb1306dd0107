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
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}
