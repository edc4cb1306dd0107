//! The one error type of the Rust API. The C ABI maps each variant to its
//! own `oblivex_status` code and adds the codes only C can produce (NULL
//! pointers, short buffers, unknown enumeration values, spent handles, a
//! caught panic): see `ffi::status`.

use core::ffi::CStr;
use core::fmt;

/// Everything that can go wrong in oblivex. Errors carry no data: a bad input
/// is named by its kind, never echoed back (it may be secret).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A length does not fit the operation: a buffer whose size is not a
    /// multiple of the element width, a batch or operand longer than
    /// supported, counts that disagree.
    BadLength,
    /// A batch with no element, or an operand of zero bytes.
    EmptyInput,
    /// The modulus is zero.
    ZeroModulus,
    /// The modulus is even; Montgomery arithmetic needs an odd modulus.
    EvenModulus,
    /// The modulus is longer than [`crate::mp::MAX_MODULUS_BITS`].
    ModulusTooLarge,
    /// `OBLIVEX_BACKEND` names a backend that is unknown or that this CPU
    /// (or this build) cannot run, or `OBLIVEX_AVX2_PROFILE` a tuning
    /// profile that is unknown.
    UnsupportedBackend,
    /// An encoded group element is not canonical, not in the prime-order
    /// group, or the identity.
    InvalidElement,
    /// An encoded scalar is not canonical (`>= q`), or is zero where a key
    /// or share is expected.
    InvalidScalar,
    /// A proof or a check of the server's answers failed: the server did not
    /// apply its committed key (a malicious or broken server).
    VerificationFailed,
    /// The operating system's random number generator failed.
    RngFailure,
    /// A protocol input was rejected: it hashes to the identity, a POPRF
    /// `info` yields an unusable tweaked key, or a ciphertext decrypts to
    /// the identity.
    InvalidInput,
    /// DeriveKeyPair found no non-zero key in 256 attempts (RFC 9497 §3.2.1).
    DeriveKeyPairFailed,
    /// The length κ of the batch check's verification factors is outside
    /// 32..=128 bits.
    InvalidKappa,
    /// A party (server) id of a threshold scheme is zero, repeated, or not
    /// one the operation allows (ids run from 1 to the number of parties).
    InvalidPartyId,
    /// A threshold `t` of `m` parties is unusable: `t = 0`, `t > m`, or `m`
    /// above the supported maximum.
    InvalidThreshold,
    /// Fewer than `t` servers gave a correct answer: the batch cannot be
    /// recovered (the servers that failed are named alongside).
    NotEnoughResponses,
    /// The two primes of an RSA key are equal.
    EqualPrimes,
    /// The primes of an RSA key have different bit lengths, or lengths
    /// outside 2..=4096 bits (a modulus above
    /// [`crate::mp::MAX_MODULUS_BITS`]).
    UnsupportedKeySize,
    /// A CRT exponent of an RSA key (`d mod (p-1)`, `d mod (q-1)`) is even
    /// or not below its prime.
    InvalidCrtExponent,
    /// The CRT coefficient of an RSA key is not `q^{-1} mod p`.
    InvalidCrtCoefficient,
    /// An RSA ciphertext (or message to sign) is not below the modulus `n`.
    CiphertextOutOfRange,
}

impl Error {
    /// A short, static description (also `Display`).
    pub fn message(self) -> &'static str {
        self.c_message().to_str().expect("messages are ASCII")
    }

    /// The same description, NUL-terminated, for the C ABI's
    /// `oblivex_status_str`.
    pub(crate) fn c_message(self) -> &'static CStr {
        match self {
            Error::BadLength => c"a length does not fit the operation",
            Error::EmptyInput => c"empty input: no element, or an operand of zero bytes",
            Error::ZeroModulus => c"the modulus is zero",
            Error::EvenModulus => c"the modulus is even (Montgomery arithmetic needs an odd modulus)",
            Error::ModulusTooLarge => c"the modulus is longer than 8192 bits",
            Error::UnsupportedBackend => {
                c"OBLIVEX_BACKEND names a backend that is unknown or unsupported on this CPU, \
                   or OBLIVEX_AVX2_PROFILE an unknown profile"
            }
            Error::InvalidElement => {
                c"invalid group element: not canonical, not in the group, or the identity"
            }
            Error::InvalidScalar => c"invalid scalar: not canonical (>= group order), or zero",
            Error::VerificationFailed => {
                c"verification failed: the server did not apply its committed key (malicious server detected)"
            }
            Error::RngFailure => c"the operating system's random number generator failed",
            Error::InvalidInput => {
                c"invalid protocol input (hashes or decrypts to the identity, or an unusable POPRF info)"
            }
            Error::DeriveKeyPairFailed => c"DeriveKeyPair found no valid key in 256 attempts",
            Error::InvalidKappa => c"verification factor length (kappa) outside 32..128 bits",
            Error::InvalidPartyId => c"invalid party id: zero, repeated, or not allowed here",
            Error::InvalidThreshold => {
                c"invalid threshold: t must be in 1..=m and m within the maximum"
            }
            Error::NotEnoughResponses => {
                c"fewer than t servers answered correctly: the batch cannot be recovered"
            }
            Error::EqualPrimes => c"the two primes of the RSA key are equal",
            Error::UnsupportedKeySize => {
                c"unsupported RSA key size: the primes must have the same bit length, 2 to 4096 bits"
            }
            Error::InvalidCrtExponent => {
                c"invalid RSA CRT exponent: dp and dq must be odd and below their primes"
            }
            Error::InvalidCrtCoefficient => {
                c"invalid RSA CRT coefficient: qinv must be the inverse of q modulo p"
            }
            Error::CiphertextOutOfRange => c"an RSA input is not below the modulus n",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}
