//! Suites and modes across the C ABI, the per-suite sizes, and the dispatch
//! from a run-time suite value to the generic code of one group.

use core::ffi::c_int;

use super::guard::{catch, catch_or, input};
use super::status::{
    oblivex_status, CResult, OBLIVEX_ERR_BAD_LENGTH, OBLIVEX_ERR_UNKNOWN_MODE,
    OBLIVEX_ERR_UNKNOWN_SUITE,
};
use crate::group::PrimeOrderGroup;
use crate::oprf::{Mode, Proof};

/// A ciphersuite: a prime-order group with its hash (`OBLIVEX_SUITE_*`).
/// The first two are RFC 9497's; the others are this library's, built the
/// same way.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct oblivex_suite(pub c_int);

/// `ristretto255-SHA512` (RFC 9497 §4.1).
pub const OBLIVEX_SUITE_RISTRETTO255_SHA512: oblivex_suite = oblivex_suite(1);
/// `P256-SHA256` (RFC 9497 §4.3).
pub const OBLIVEX_SUITE_P256_SHA256: oblivex_suite = oblivex_suite(2);
/// `BLS12381G1-SHA256`.
pub const OBLIVEX_SUITE_BLS12381G1_SHA256: oblivex_suite = oblivex_suite(3);
/// `FFDHE2048-SHA512` (the RFC 7919 group).
pub const OBLIVEX_SUITE_FFDHE2048_SHA512: oblivex_suite = oblivex_suite(4);
/// `FFDHE3072-SHA512`.
pub const OBLIVEX_SUITE_FFDHE3072_SHA512: oblivex_suite = oblivex_suite(5);
/// `FFDHE4096-SHA512`.
pub const OBLIVEX_SUITE_FFDHE4096_SHA512: oblivex_suite = oblivex_suite(6);

/// A protocol mode of RFC 9497 (`OBLIVEX_OPRF_MODE_*`).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct oblivex_oprf_mode(pub c_int);

/// OPRF: no proof.
pub const OBLIVEX_OPRF_MODE_OPRF: oblivex_oprf_mode = oblivex_oprf_mode(0);
/// VOPRF: one DLEQ proof per batch against the server's public key.
pub const OBLIVEX_OPRF_MODE_VOPRF: oblivex_oprf_mode = oblivex_oprf_mode(1);
/// POPRF: a public info string tweaks the key; proved like VOPRF.
pub const OBLIVEX_OPRF_MODE_POPRF: oblivex_oprf_mode = oblivex_oprf_mode(2);

/// The suite a C value names.
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
    /// `OBLIVEX_ERR_UNKNOWN_SUITE` for a value this library does not know.
    pub(crate) fn from_c(suite: oblivex_suite) -> CResult<Suite> {
        Ok(match suite {
            OBLIVEX_SUITE_RISTRETTO255_SHA512 => Suite::Ristretto255,
            OBLIVEX_SUITE_P256_SHA256 => Suite::P256,
            OBLIVEX_SUITE_BLS12381G1_SHA256 => Suite::Bls12381G1,
            OBLIVEX_SUITE_FFDHE2048_SHA512 => Suite::Ffdhe2048,
            OBLIVEX_SUITE_FFDHE3072_SHA512 => Suite::Ffdhe3072,
            OBLIVEX_SUITE_FFDHE4096_SHA512 => Suite::Ffdhe4096,
            _ => return Err(OBLIVEX_ERR_UNKNOWN_SUITE),
        })
    }
}

/// `OBLIVEX_ERR_UNKNOWN_MODE` for a value this library does not know.
pub(crate) fn mode_from_c(mode: oblivex_oprf_mode) -> CResult<Mode> {
    match mode {
        OBLIVEX_OPRF_MODE_OPRF => Ok(Mode::Oprf),
        OBLIVEX_OPRF_MODE_VOPRF => Ok(Mode::Voprf),
        OBLIVEX_OPRF_MODE_POPRF => Ok(Mode::Poprf),
        _ => Err(OBLIVEX_ERR_UNKNOWN_MODE),
    }
}

/// Runs code of one group, picked at run time: the one place that pairs
/// each suite with its group.
///
/// - `with_group!(suite, G => body)`: `G` is the group of `suite` (a
///   [`Suite`]).
/// - `with_group!(match value, G(inner) => body)`: `G` is the group of
///   `value` (a [`PerSuite`], or a reference to one) and `inner` is bound
///   to what it holds, of that group's type.
macro_rules! with_group {
    (match $value:expr, $G:ident($inner:pat) => $body:expr) => {
        $crate::ffi::suite::with_group!(@suites value [$value, $G, $inner, $body])
    };
    (@suites $form:ident $args:tt) => {
        $crate::ffi::suite::with_group! {
            @$form $args [Ristretto255 P256 Bls12381G1 Ffdhe2048 Ffdhe3072 Ffdhe4096]
        }
    };
    (@suite [$suite:expr, $G:ident, $body:expr] [$($S:ident)*]) => {
        match $suite {
            $($crate::ffi::suite::Suite::$S => {
                type $G = $crate::group::$S;
                $body
            })*
        }
    };
    (@value [$value:expr, $G:ident, $inner:pat, $body:expr] [$($S:ident)*]) => {
        match $value {
            $($crate::ffi::suite::PerSuite::$S($inner) => {
                #[allow(dead_code)] // when the body needs only `inner`
                type $G = $crate::group::$S;
                $body
            })*
        }
    };
    (@groups [] [$($S:ident)*]) => {
        $(impl $crate::ffi::suite::SuiteGroup for $crate::group::$S {
            fn wrap<F: $crate::ffi::suite::PerGroup>(
                value: F::Of<Self>,
            ) -> $crate::ffi::suite::PerSuite<F> {
                $crate::ffi::suite::PerSuite::$S(value)
            }
            fn project<F: $crate::ffi::suite::PerGroup>(
                value: &$crate::ffi::suite::PerSuite<F>,
            ) -> Option<&F::Of<Self>> {
                match value {
                    $crate::ffi::suite::PerSuite::$S(inner) => Some(inner),
                    _ => None,
                }
            }
        })*
    };
    ($suite:expr, $G:ident => $body:expr) => {
        $crate::ffi::suite::with_group!(@suites suite [$suite, $G, $body])
    };
}
pub(crate) use with_group;

/// A generic type taken over the suites' groups (`Of<G>` for group `G`),
/// so that [`PerSuite`] can hold it for whichever suite a handle has.
pub(crate) trait PerGroup {
    /// The type for group `G`.
    type Of<G: PrimeOrderGroup>;
}

/// A value of one suite, typed: the `F::Of<G>` of that suite's group `G`.
/// [`with_group!`] (its `match` form) runs generic code on it.
pub(crate) enum PerSuite<F: PerGroup> {
    Ristretto255(F::Of<crate::group::Ristretto255>),
    P256(F::Of<crate::group::P256>),
    Bls12381G1(F::Of<crate::group::Bls12381G1>),
    Ffdhe2048(F::Of<crate::group::Ffdhe2048>),
    Ffdhe3072(F::Of<crate::group::Ffdhe3072>),
    Ffdhe4096(F::Of<crate::group::Ffdhe4096>),
}

/// A suite's group, which knows its place in [`PerSuite`].
pub(crate) trait SuiteGroup: PrimeOrderGroup {
    /// `value` as the [`PerSuite`] of this group.
    fn wrap<F: PerGroup>(value: F::Of<Self>) -> PerSuite<F>;
    /// What `value` holds if it is of this group: `None` when a caller
    /// mixes handles of two suites.
    fn project<F: PerGroup>(value: &PerSuite<F>) -> Option<&F::Of<Self>>;
}

with_group!(@suites groups []);

/// One of a suite's sizes, or 0 for an unknown suite.
fn size(suite: oblivex_suite, of: fn(Suite) -> usize) -> usize {
    catch_or(0, || Suite::from_c(suite).map_or(0, of))
}

fn sizes_of<G: PrimeOrderGroup>() -> [usize; 4] {
    [G::ELEMENT_LEN, G::SCALAR_LEN, G::HASH_LEN, Proof::<G>::LEN]
}

fn sizes(suite: Suite) -> [usize; 4] {
    with_group!(suite, G => sizes_of::<G>())
}

/// Bytes of an encoded element of `suite` (0 for an unknown suite): the
/// width of every element a request or response holds, and of a public key.
#[no_mangle]
pub extern "C" fn oblivex_suite_element_len(suite: oblivex_suite) -> usize {
    size(suite, |s| sizes(s)[0])
}

/// Bytes of an encoded scalar (secret key) of `suite` (0 for an unknown
/// suite).
#[no_mangle]
pub extern "C" fn oblivex_suite_scalar_len(suite: oblivex_suite) -> usize {
    size(suite, |s| sizes(s)[1])
}

/// Bytes of one PRF output (and of a KEM secret) of `suite` (0 for an
/// unknown suite).
#[no_mangle]
pub extern "C" fn oblivex_suite_output_len(suite: oblivex_suite) -> usize {
    size(suite, |s| sizes(s)[2])
}

/// Bytes of a VOPRF/POPRF proof of `suite` (0 for an unknown suite).
#[no_mangle]
pub extern "C" fn oblivex_suite_proof_len(suite: oblivex_suite) -> usize {
    size(suite, |s| sizes(s)[3])
}

/// Checks an element encoding of `suite` received from elsewhere (a
/// server's public key, say) before it is stored: `OBLIVEX_OK` if it is
/// canonical, in the prime-order group and not the identity. Every
/// function that takes elements checks them the same way; this is for
/// checking one up front.
///
/// Errors: `OBLIVEX_ERR_NULL_POINTER`, `OBLIVEX_ERR_UNKNOWN_SUITE`,
/// `OBLIVEX_ERR_BAD_LENGTH` (not `oblivex_suite_element_len` bytes),
/// `OBLIVEX_ERR_INVALID_ELEMENT`.
///
/// # Safety
/// `element` points to `element_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn oblivex_suite_check_element(
    suite: oblivex_suite,
    element: *const u8,
    element_len: usize,
) -> oblivex_status {
    catch(|| {
        let suite = Suite::from_c(suite)?;
        // SAFETY: `element` holds `element_len` bytes by the contract.
        let element = unsafe { input(element, element_len) }?;
        with_group!(suite, G => {
            if element.len() != G::ELEMENT_LEN {
                return Err(OBLIVEX_ERR_BAD_LENGTH);
            }
            G::decode(element).map(drop).map_err(Into::into)
        })
    })
}
