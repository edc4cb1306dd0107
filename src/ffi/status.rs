//! Status codes of the C ABI: one per cause, the Rust [`Error`]s and the
//! causes only C can produce.

use core::ffi::{c_char, c_int, CStr};

use super::unwind::catch_or;
use crate::threshold::dkg::DkgError;
use crate::Error;

/// The result of every fallible function: `OBLIVEX_OK` (0) or one of the
/// `OBLIVEX_ERR_*` codes below, each for one cause. Codes are stable: new
/// ones are only ever appended. `oblivex_status_str` describes any value.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct oblivex_status(pub c_int);

/// Success.
pub const OBLIVEX_OK: oblivex_status = oblivex_status(0);
/// A required pointer argument was NULL.
pub const OBLIVEX_ERR_NULL_POINTER: oblivex_status = oblivex_status(1);
/// A length does not fit the operation (not a whole number of elements,
/// counts that disagree, or an operand or batch longer than supported).
pub const OBLIVEX_ERR_BAD_LENGTH: oblivex_status = oblivex_status(2);
/// A batch of zero elements, or an operand of zero bytes.
pub const OBLIVEX_ERR_EMPTY_INPUT: oblivex_status = oblivex_status(3);
/// The modulus is zero.
pub const OBLIVEX_ERR_ZERO_MODULUS: oblivex_status = oblivex_status(4);
/// The modulus is even (use OpenSSL's `BN_mod_exp`, or the
/// `oblivex_openssl.h` shim, which delegates even moduli to it).
pub const OBLIVEX_ERR_EVEN_MODULUS: oblivex_status = oblivex_status(5);
/// The modulus is longer than `OBLIVEX_MAX_MODULUS_BITS`.
pub const OBLIVEX_ERR_MODULUS_TOO_LARGE: oblivex_status = oblivex_status(6);
/// An output buffer is too small for the result (nothing was written).
pub const OBLIVEX_ERR_BUFFER_TOO_SMALL: oblivex_status = oblivex_status(7);
/// `OBLIVEX_BACKEND` names a backend that is unknown or that this CPU
/// cannot run, or `OBLIVEX_AVX2_PROFILE` a tuning profile that is unknown.
pub const OBLIVEX_ERR_UNSUPPORTED_BACKEND: oblivex_status = oblivex_status(8);
/// An encoded group element is not canonical, not in the prime-order group,
/// or the identity.
pub const OBLIVEX_ERR_INVALID_ELEMENT: oblivex_status = oblivex_status(9);
/// An encoded scalar is not canonical (`>= q`), or zero where a key or a
/// share is expected.
pub const OBLIVEX_ERR_INVALID_SCALAR: oblivex_status = oblivex_status(10);
/// A proof or the check of the server's answers failed: the server did not
/// apply its committed key (malicious server detected). No output.
pub const OBLIVEX_ERR_VERIFICATION_FAILED: oblivex_status = oblivex_status(11);
/// The operating system's random number generator failed.
pub const OBLIVEX_ERR_RNG_FAILURE: oblivex_status = oblivex_status(12);
/// A protocol input was rejected: it hashes to the identity, a POPRF info
/// gives an unusable key, or a ciphertext decrypts to the identity.
pub const OBLIVEX_ERR_INVALID_INPUT: oblivex_status = oblivex_status(13);
/// DeriveKeyPair found no valid key in 256 attempts.
pub const OBLIVEX_ERR_DERIVE_KEY_PAIR: oblivex_status = oblivex_status(14);
/// An `oblivex_suite` value this library does not know.
pub const OBLIVEX_ERR_UNKNOWN_SUITE: oblivex_status = oblivex_status(15);
/// A client batch was finalized already (its secrets are spent).
pub const OBLIVEX_ERR_BATCH_USED: oblivex_status = oblivex_status(16);
/// An `oblivex_oprf_mode` value this library does not know.
pub const OBLIVEX_ERR_UNKNOWN_MODE: oblivex_status = oblivex_status(17);
/// The verification factor length κ is outside
/// `OBLIVEX_KAPPA_MIN..OBLIVEX_KAPPA_MAX`.
pub const OBLIVEX_ERR_INVALID_KAPPA: oblivex_status = oblivex_status(18);
/// An `oblivex_check` value this library does not know.
pub const OBLIVEX_ERR_UNKNOWN_CHECK: oblivex_status = oblivex_status(19);
/// The server's public key is missing where the mode or check needs it
/// (VOPRF, POPRF, the committed-key check).
pub const OBLIVEX_ERR_MISSING_PUBLIC_KEY: oblivex_status = oblivex_status(20);
/// A party (server) id is zero, repeated, or not allowed here (in a DKG
/// message: zero or above the run's party count).
pub const OBLIVEX_ERR_INVALID_PARTY_ID: oblivex_status = oblivex_status(21);
/// A threshold t of m is unusable (t = 0, t > m, or m above
/// `OBLIVEX_MAX_PARTIES`; for a DKG also m < 2, m < 2t − 1, or t = 1 in a
/// refresh).
pub const OBLIVEX_ERR_INVALID_THRESHOLD: oblivex_status = oblivex_status(22);
/// Fewer than t servers answered correctly: no output (the servers caught
/// cheating are still reported).
pub const OBLIVEX_ERR_NOT_ENOUGH_RESPONSES: oblivex_status = oblivex_status(23);
/// An `oblivex_elgamal_target` value this library does not know.
pub const OBLIVEX_ERR_UNKNOWN_TARGET: oblivex_status = oblivex_status(24);
/// Two handles of different suites were used together (a key share and
/// commitments, say), or a DKG message is of another suite than the run's.
pub const OBLIVEX_ERR_SUITE_MISMATCH: oblivex_status = oblivex_status(25);
/// The proof is missing where the mode needs one (VOPRF, POPRF).
pub const OBLIVEX_ERR_MISSING_PROOF: oblivex_status = oblivex_status(26);
/// The two primes of an RSA key are equal.
pub const OBLIVEX_ERR_EQUAL_PRIMES: oblivex_status = oblivex_status(27);
/// The primes of an RSA key have different bit lengths, or lengths outside
/// 2..=4096 bits.
pub const OBLIVEX_ERR_UNSUPPORTED_KEY_SIZE: oblivex_status = oblivex_status(28);
/// A CRT exponent of an RSA key (dp, dq) is even or not below its prime.
pub const OBLIVEX_ERR_INVALID_CRT_EXPONENT: oblivex_status = oblivex_status(29);
/// The CRT coefficient of an RSA key is not q^-1 mod p.
pub const OBLIVEX_ERR_INVALID_CRT_COEFFICIENT: oblivex_status = oblivex_status(30);
/// An RSA input (ciphertext, or message to sign) is not below the modulus n.
pub const OBLIVEX_ERR_CIPHERTEXT_OUT_OF_RANGE: oblivex_status = oblivex_status(31);
/// A DKG message's format version is not one this library reads.
pub const OBLIVEX_ERR_UNSUPPORTED_VERSION: oblivex_status = oblivex_status(32);
/// A DKG message is of another kind than the one expected (a complaint
/// list where a justification was expected, or a key generation's message
/// in a refresh).
pub const OBLIVEX_ERR_WRONG_MESSAGE_KIND: oblivex_status = oblivex_status(33);
/// A DKG message's threshold or party count differs from the run's, or a
/// refresh's commitments are of another threshold.
pub const OBLIVEX_ERR_WRONG_PARAMETERS: oblivex_status = oblivex_status(34);
/// A DKG message carries another session id than the run's.
pub const OBLIVEX_ERR_WRONG_SESSION: oblivex_status = oblivex_status(35);
/// The sender written in a DKG message is not the party the transport
/// authenticated as its sender.
pub const OBLIVEX_ERR_WRONG_SENDER: oblivex_status = oblivex_status(36);
/// A DKG private message (a share pair) is addressed to another party.
pub const OBLIVEX_ERR_WRONG_RECIPIENT: oblivex_status = oblivex_status(37);
/// A list of party ids in a DKG message is not strictly increasing, or
/// names its own sender.
pub const OBLIVEX_ERR_UNSORTED_PARTY_IDS: oblivex_status = oblivex_status(38);
/// Two DKG messages of one round were given from the same sender, or one
/// from the receiving party itself.
pub const OBLIVEX_ERR_DUPLICATE_MESSAGE: oblivex_status = oblivex_status(39);
/// Every party of a DKG run was disqualified: there is no key.
pub const OBLIVEX_ERR_NO_QUALIFIED_PARTY: oblivex_status = oblivex_status(40);
/// Fewer than t valid revealed shares of an exposed DKG dealer arrived
/// (impossible with at most t − 1 corrupted parties).
pub const OBLIVEX_ERR_NOT_ENOUGH_REVEALED_SHARES: oblivex_status = oblivex_status(41);
/// A DKG's joint key, a joint commitment or this party's share came out
/// as the identity or zero (probability about n/q): run again with a new
/// session id.
pub const OBLIVEX_ERR_DEGENERATE_KEY: oblivex_status = oblivex_status(42);
/// A key share does not match the commitments it should: a refresh was
/// started with a share that fails its commitments, or a DKG's final
/// share fails the joint commitments (someone knows the discrete logarithm
/// of the Pedersen generator).
pub const OBLIVEX_ERR_SHARE_MISMATCH: oblivex_status = oblivex_status(43);
/// A DKG party's step was called out of turn: a round skipped or repeated,
/// or the run already finalized or failed.
pub const OBLIVEX_ERR_WRONG_ROUND: oblivex_status = oblivex_status(44);
/// A refresh or resharing message names other old commitments than the
/// run's: its sender started from another sharing of the key (an older or
/// newer one).
pub const OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH: oblivex_status = oblivex_status(45);
/// Internal error: a panic was caught at the ABI boundary (a bug in
/// oblivex; please report it).
pub const OBLIVEX_ERR_PANIC: oblivex_status = oblivex_status(100);

impl From<Error> for oblivex_status {
    fn from(error: Error) -> Self {
        match error {
            Error::BadLength => OBLIVEX_ERR_BAD_LENGTH,
            Error::EmptyInput => OBLIVEX_ERR_EMPTY_INPUT,
            Error::ZeroModulus => OBLIVEX_ERR_ZERO_MODULUS,
            Error::EvenModulus => OBLIVEX_ERR_EVEN_MODULUS,
            Error::ModulusTooLarge => OBLIVEX_ERR_MODULUS_TOO_LARGE,
            Error::UnsupportedBackend => OBLIVEX_ERR_UNSUPPORTED_BACKEND,
            Error::InvalidElement => OBLIVEX_ERR_INVALID_ELEMENT,
            Error::InvalidScalar => OBLIVEX_ERR_INVALID_SCALAR,
            Error::VerificationFailed => OBLIVEX_ERR_VERIFICATION_FAILED,
            Error::RngFailure => OBLIVEX_ERR_RNG_FAILURE,
            Error::InvalidInput => OBLIVEX_ERR_INVALID_INPUT,
            Error::DeriveKeyPairFailed => OBLIVEX_ERR_DERIVE_KEY_PAIR,
            Error::InvalidKappa => OBLIVEX_ERR_INVALID_KAPPA,
            Error::InvalidPartyId => OBLIVEX_ERR_INVALID_PARTY_ID,
            Error::InvalidThreshold => OBLIVEX_ERR_INVALID_THRESHOLD,
            Error::NotEnoughResponses => OBLIVEX_ERR_NOT_ENOUGH_RESPONSES,
            Error::EqualPrimes => OBLIVEX_ERR_EQUAL_PRIMES,
            Error::UnsupportedKeySize => OBLIVEX_ERR_UNSUPPORTED_KEY_SIZE,
            Error::InvalidCrtExponent => OBLIVEX_ERR_INVALID_CRT_EXPONENT,
            Error::InvalidCrtCoefficient => OBLIVEX_ERR_INVALID_CRT_COEFFICIENT,
            Error::CiphertextOutOfRange => OBLIVEX_ERR_CIPHERTEXT_OUT_OF_RANGE,
        }
    }
}

impl From<DkgError> for oblivex_status {
    fn from(error: DkgError) -> Self {
        match error {
            DkgError::BadLength => OBLIVEX_ERR_BAD_LENGTH,
            DkgError::UnsupportedVersion => OBLIVEX_ERR_UNSUPPORTED_VERSION,
            DkgError::WrongKind => OBLIVEX_ERR_WRONG_MESSAGE_KIND,
            DkgError::WrongSuite => OBLIVEX_ERR_SUITE_MISMATCH,
            DkgError::WrongParameters => OBLIVEX_ERR_WRONG_PARAMETERS,
            DkgError::WrongSession => OBLIVEX_ERR_WRONG_SESSION,
            DkgError::InvalidPartyId => OBLIVEX_ERR_INVALID_PARTY_ID,
            DkgError::WrongSender => OBLIVEX_ERR_WRONG_SENDER,
            DkgError::WrongRecipient => OBLIVEX_ERR_WRONG_RECIPIENT,
            DkgError::UnsortedIds => OBLIVEX_ERR_UNSORTED_PARTY_IDS,
            DkgError::InvalidElement => OBLIVEX_ERR_INVALID_ELEMENT,
            DkgError::InvalidScalar => OBLIVEX_ERR_INVALID_SCALAR,
            DkgError::DuplicateMessage => OBLIVEX_ERR_DUPLICATE_MESSAGE,
            DkgError::InvalidThreshold => OBLIVEX_ERR_INVALID_THRESHOLD,
            DkgError::NoQualifiedParty => OBLIVEX_ERR_NO_QUALIFIED_PARTY,
            DkgError::NotEnoughRevealedShares => OBLIVEX_ERR_NOT_ENOUGH_REVEALED_SHARES,
            DkgError::DegenerateKey => OBLIVEX_ERR_DEGENERATE_KEY,
            DkgError::ShareMismatch => OBLIVEX_ERR_SHARE_MISMATCH,
            DkgError::OldCommitmentsMismatch => OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH,
        }
    }
}

/// What an exported function's body returns: `Err` carries the status.
pub(crate) type CResult<T = ()> = Result<T, oblivex_status>;

/// The descriptions of the codes only C produces.
const C_ONLY: [(oblivex_status, &CStr); 11] = [
    (
        OBLIVEX_ERR_NULL_POINTER,
        c"a required pointer argument is NULL",
    ),
    (
        OBLIVEX_ERR_BUFFER_TOO_SMALL,
        c"the output buffer is too small",
    ),
    (OBLIVEX_ERR_UNKNOWN_SUITE, c"unknown suite"),
    (
        OBLIVEX_ERR_BATCH_USED,
        c"this client batch was finalized already (its secrets are spent)",
    ),
    (OBLIVEX_ERR_UNKNOWN_MODE, c"unknown OPRF mode"),
    (OBLIVEX_ERR_UNKNOWN_CHECK, c"unknown batch check"),
    (
        OBLIVEX_ERR_MISSING_PUBLIC_KEY,
        c"the server's public key is needed here",
    ),
    (
        OBLIVEX_ERR_UNKNOWN_TARGET,
        c"unknown ElGamal decryption target",
    ),
    (
        OBLIVEX_ERR_SUITE_MISMATCH,
        c"handles of different suites used together",
    ),
    (
        OBLIVEX_ERR_MISSING_PROOF,
        c"the proof is needed in this mode",
    ),
    (
        OBLIVEX_ERR_WRONG_ROUND,
        c"DKG step out of turn (a round skipped or repeated, or the run is over)",
    ),
];

/// The descriptions of the codes only the DKG's errors produce (the
/// others share a code, and its text, with a Rust [`Error`]).
const DKG_ONLY: [(oblivex_status, &CStr); 13] = [
    (
        OBLIVEX_ERR_UNSUPPORTED_VERSION,
        c"DKG message: unsupported format version",
    ),
    (
        OBLIVEX_ERR_WRONG_MESSAGE_KIND,
        c"DKG message: not the kind expected here",
    ),
    (
        OBLIVEX_ERR_WRONG_PARAMETERS,
        c"DKG: another threshold or party count than the run's",
    ),
    (
        OBLIVEX_ERR_WRONG_SESSION,
        c"DKG message: another session id",
    ),
    (
        OBLIVEX_ERR_WRONG_SENDER,
        c"DKG message: sender differs from the authenticated one",
    ),
    (
        OBLIVEX_ERR_WRONG_RECIPIENT,
        c"DKG message: addressed to another party",
    ),
    (
        OBLIVEX_ERR_UNSORTED_PARTY_IDS,
        c"DKG message: party ids not strictly increasing, or naming the sender",
    ),
    (
        OBLIVEX_ERR_DUPLICATE_MESSAGE,
        c"DKG round: two messages from one sender, or one from the party itself",
    ),
    (
        OBLIVEX_ERR_NO_QUALIFIED_PARTY,
        c"DKG: every party was disqualified",
    ),
    (
        OBLIVEX_ERR_NOT_ENOUGH_REVEALED_SHARES,
        c"DKG: fewer than t valid shares revealed for an exposed dealer",
    ),
    (
        OBLIVEX_ERR_DEGENERATE_KEY,
        c"DKG: key, commitment or share is the identity or zero; run again",
    ),
    (
        OBLIVEX_ERR_SHARE_MISMATCH,
        c"key share does not match its commitments",
    ),
    (
        OBLIVEX_ERR_OLD_COMMITMENTS_MISMATCH,
        c"DKG message: started from other old commitments than this run's",
    ),
];

/// Every Rust error, for the reverse mapping of `oblivex_status_str`.
const RUST_ERRORS: [Error; 21] = [
    Error::BadLength,
    Error::EmptyInput,
    Error::ZeroModulus,
    Error::EvenModulus,
    Error::ModulusTooLarge,
    Error::UnsupportedBackend,
    Error::InvalidElement,
    Error::InvalidScalar,
    Error::VerificationFailed,
    Error::RngFailure,
    Error::InvalidInput,
    Error::DeriveKeyPairFailed,
    Error::InvalidKappa,
    Error::InvalidPartyId,
    Error::InvalidThreshold,
    Error::NotEnoughResponses,
    Error::EqualPrimes,
    Error::UnsupportedKeySize,
    Error::InvalidCrtExponent,
    Error::InvalidCrtCoefficient,
    Error::CiphertextOutOfRange,
];

/// The description of a status.
fn describe(status: oblivex_status) -> &'static CStr {
    if status == OBLIVEX_OK {
        return c"success";
    }
    if status == OBLIVEX_ERR_PANIC {
        return c"internal error: a panic was caught at the C ABI boundary (please report it)";
    }
    if let Some((_, text)) = C_ONLY
        .iter()
        .chain(&DKG_ONLY)
        .find(|(code, _)| *code == status)
    {
        return text;
    }
    RUST_ERRORS
        .iter()
        .find(|&&e| oblivex_status::from(e) == status)
        .map_or(c"unknown status code", |&e| e.c_message())
}

/// A static, NUL-terminated English description of any status value
/// (unknown values give "unknown status code"). Never returns NULL; the
/// string must not be freed.
#[no_mangle]
pub extern "C" fn oblivex_status_str(status: oblivex_status) -> *const c_char {
    catch_or(c"internal error".as_ptr(), || describe(status).as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_cause_has_its_own_code_and_text() {
        let mut codes: Vec<oblivex_status> = RUST_ERRORS.iter().map(|&e| e.into()).collect();
        codes.extend(C_ONLY.iter().chain(&DKG_ONLY).map(|(code, _)| *code));
        codes.push(OBLIVEX_ERR_PANIC);
        let distinct: HashSet<c_int> = codes.iter().map(|c| c.0).collect();
        assert_eq!(distinct.len(), codes.len());
        assert!(!distinct.contains(&0));
        let texts: HashSet<&CStr> = codes.iter().map(|&c| describe(c)).collect();
        assert_eq!(texts.len(), codes.len(), "one description per code");
        assert!(!texts.contains(c"unknown status code"));
        assert_eq!(describe(oblivex_status(9999)), c"unknown status code");
    }

    #[test]
    fn every_dkg_error_has_a_described_code() {
        let errors = [
            DkgError::BadLength,
            DkgError::UnsupportedVersion,
            DkgError::WrongKind,
            DkgError::WrongSuite,
            DkgError::WrongParameters,
            DkgError::WrongSession,
            DkgError::InvalidPartyId,
            DkgError::WrongSender,
            DkgError::WrongRecipient,
            DkgError::UnsortedIds,
            DkgError::InvalidElement,
            DkgError::InvalidScalar,
            DkgError::DuplicateMessage,
            DkgError::InvalidThreshold,
            DkgError::NoQualifiedParty,
            DkgError::NotEnoughRevealedShares,
            DkgError::DegenerateKey,
            DkgError::ShareMismatch,
            DkgError::OldCommitmentsMismatch,
        ];
        let codes: HashSet<c_int> = errors.iter().map(|&e| oblivex_status::from(e).0).collect();
        assert_eq!(codes.len(), errors.len(), "one code per DKG error");
        for error in errors {
            assert_ne!(describe(error.into()), c"unknown status code", "{error:?}");
        }
        for (code, _) in DKG_ONLY {
            assert!(codes.contains(&code.0), "{code:?} comes from a DKG error");
        }
    }
}
