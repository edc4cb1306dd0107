//! Suites and modes across the C ABI, and the dispatch from a run-time
//! suite number to the generic code of one group.

use core::ffi::c_int;

use super::guard::catch_or;
use crate::group::PrimeOrderGroup;
use crate::oprf::{Mode, Proof};
use crate::Error;

/// The ciphersuites (pass them as `int`). The first two are RFC 9497's;
/// the others are this library's, built the same way (PROTOCOLS.md §1).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum oblivex_suite {
    /// `ristretto255-SHA512` (RFC 9497 §4.1).
    OBLIVEX_SUITE_RISTRETTO255_SHA512 = 1,
    /// `P256-SHA256` (RFC 9497 §4.3).
    OBLIVEX_SUITE_P256_SHA256 = 2,
    /// `BLS12381G1-SHA256`.
    OBLIVEX_SUITE_BLS12381G1_SHA256 = 3,
    /// `FFDHE2048-SHA512` (RFC 7919 group).
    OBLIVEX_SUITE_FFDHE2048_SHA512 = 4,
    /// `FFDHE3072-SHA512`.
    OBLIVEX_SUITE_FFDHE3072_SHA512 = 5,
    /// `FFDHE4096-SHA512`.
    OBLIVEX_SUITE_FFDHE4096_SHA512 = 6,
}

/// The protocol modes of RFC 9497 (pass them as `int`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum oblivex_oprf_mode {
    /// OPRF: no proof.
    OBLIVEX_OPRF_MODE_OPRF = 0,
    /// VOPRF: one DLEQ proof per batch against the server's public key.
    OBLIVEX_OPRF_MODE_VOPRF = 1,
    /// POPRF: a public info string tweaks the key; proved like VOPRF.
    OBLIVEX_OPRF_MODE_POPRF = 2,
}

/// The suite a C integer names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Suite {
    Ristretto255,
    P256,
    Bls12381G1,
    Ffdhe2048,
    Ffdhe3072,
    Ffdhe4096,
}

impl Suite {
    pub(crate) fn from_c(suite: c_int) -> Result<Suite, Error> {
        use oblivex_suite::*;
        Ok(match suite {
            s if s == OBLIVEX_SUITE_RISTRETTO255_SHA512 as c_int => Suite::Ristretto255,
            s if s == OBLIVEX_SUITE_P256_SHA256 as c_int => Suite::P256,
            s if s == OBLIVEX_SUITE_BLS12381G1_SHA256 as c_int => Suite::Bls12381G1,
            s if s == OBLIVEX_SUITE_FFDHE2048_SHA512 as c_int => Suite::Ffdhe2048,
            s if s == OBLIVEX_SUITE_FFDHE3072_SHA512 as c_int => Suite::Ffdhe3072,
            s if s == OBLIVEX_SUITE_FFDHE4096_SHA512 as c_int => Suite::Ffdhe4096,
            _ => return Err(Error::UnknownSuite),
        })
    }
}

pub(crate) fn mode_from_c(mode: c_int) -> Result<Mode, Error> {
    match mode {
        0 => Ok(Mode::Oprf),
        1 => Ok(Mode::Voprf),
        2 => Ok(Mode::Poprf),
        _ => Err(Error::UnknownMode),
    }
}

/// Runs `$body` with `$G` the group of `$suite` (a [`Suite`]).
macro_rules! with_group {
    ($suite:expr, $G:ident => $body:expr) => {
        match $suite {
            $crate::ffi::suite::Suite::Ristretto255 => {
                type $G = $crate::group::Ristretto255;
                $body
            }
            $crate::ffi::suite::Suite::P256 => {
                type $G = $crate::group::P256;
                $body
            }
            $crate::ffi::suite::Suite::Bls12381G1 => {
                type $G = $crate::group::Bls12381G1;
                $body
            }
            $crate::ffi::suite::Suite::Ffdhe2048 => {
                type $G = $crate::group::Ffdhe2048;
                $body
            }
            $crate::ffi::suite::Suite::Ffdhe3072 => {
                type $G = $crate::group::Ffdhe3072;
                $body
            }
            $crate::ffi::suite::Suite::Ffdhe4096 => {
                type $G = $crate::group::Ffdhe4096;
                $body
            }
        }
    };
}
pub(crate) use with_group;

/// Sizes of a suite's encodings.
fn sizes<G: PrimeOrderGroup>() -> [usize; 4] {
    [G::ELEMENT_LEN, G::SCALAR_LEN, G::HASH_LEN, Proof::<G>::LEN]
}

fn suite_sizes(suite: c_int) -> Option<[usize; 4]> {
    let suite = Suite::from_c(suite).ok()?;
    Some(with_group!(suite, G => sizes::<G>()))
}

/// Bytes of an encoded element of `suite` (0 for an unknown suite).
#[no_mangle]
pub extern "C" fn oblivex_suite_element_len(suite: c_int) -> usize {
    catch_or(0, || suite_sizes(suite).map_or(0, |s| s[0]))
}

/// Bytes of an encoded scalar (key) of `suite` (0 for an unknown suite).
#[no_mangle]
pub extern "C" fn oblivex_suite_scalar_len(suite: c_int) -> usize {
    catch_or(0, || suite_sizes(suite).map_or(0, |s| s[1]))
}

/// Bytes of one PRF output of `suite` (0 for an unknown suite).
#[no_mangle]
pub extern "C" fn oblivex_suite_output_len(suite: c_int) -> usize {
    catch_or(0, || suite_sizes(suite).map_or(0, |s| s[2]))
}

/// Bytes of a VOPRF/POPRF proof of `suite` (0 for an unknown suite).
#[no_mangle]
pub extern "C" fn oblivex_suite_proof_len(suite: c_int) -> usize {
    catch_or(0, || suite_sizes(suite).map_or(0, |s| s[3]))
}
