//! # oblivex
//!
//! Oblivious and batch exponentiation:
//!
//! - [`mp`]: constant-time batch modular exponentiation (`a^e mod m` for many
//!   values at once; AVX-512 IFMA, 8 values per register, AVX2, 4 per
//!   register, or portable) over
//!   a precomputed odd-modulus context, usable from C as a drop-in
//!   replacement for OpenSSL's `BN_mod_exp`;
//! - [`group`]: prime-order groups behind one trait (ristretto255, P-256,
//!   BLS12-381 G1, the RFC 7919 FFDHE groups);
//! - [`oprf`]: RFC 9497 OPRF/VOPRF/POPRF, batched, on every group, and the
//!   batch OPRF secure against a malicious server
//!   ([`oprf::CheckedOprfClient`]);
//! - [`oblivious`]: the batch check of Baum et al. (ePrint 2024/1613) that
//!   makes it so: a server raising a batch to its key is caught if it
//!   deviates on any element, at the cost of one extra element;
//! - [`threshold`]: the same check across t of m servers sharing a key
//!   (Shamir + Feldman), with cheaters named; on it the threshold OPRF
//!   ([`oprf::ThresholdOprfClient`]), threshold blind BLS signatures
//!   ([`bls`]) and threshold ElGamal decryption ([`elgamal`]);
//! - `ffi`: the C ABI (`include/oblivex.h`), a thin translation layer over
//!   the Rust API with status codes, opaque handles and a panic boundary.
//!
//! [`Backend`] is the kind of code that runs (portable, AVX2 or AVX-512
//! IFMA), chosen once per process from `OBLIVEX_BACKEND` for the batch
//! exponentiation and the curves' 8-lane engines alike (the curves have
//! engines on IFMA only).
//!
//! Secrets (exponents, keys, blinds, verification factors) never choose a
//! branch, a memory index or a loop bound; only public lengths do.
//! Variable-time code is confined to public data and named `*_vartime`.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

// Before every module: its macros are in scope textually from here on.
#[cfg(target_arch = "x86_64")]
#[macro_use]
mod unroll;

mod backend;
mod blinding;
pub mod bls;
pub mod elgamal;
pub mod error;
pub mod ffi;
pub mod group;
pub mod message;
pub mod mp;
pub mod oblivious;
pub mod oprf;
#[cfg(feature = "ct-planted-leak")]
mod planted_leak;
pub mod rng;
mod secret_marks;
pub mod threshold;

pub use backend::{Backend, AVX2_PROFILE_ENV, BACKEND_ENV};
pub use error::Error;

/// The README's Rust example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExample;
/// The wrapper in which secret outputs (PRF outputs, decrypted plaintexts,
/// KEM secrets) are returned: it wipes them on drop. Re-exported from
/// `zeroize`.
pub use zeroize::Zeroizing;
