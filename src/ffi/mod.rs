//! The C ABI, rendered into `include/oblivex.h` by cbindgen, in the order a
//! C programmer meets it: version and status, modexp, RSA, the OPRF (suites,
//! server, client), the checked batch, threshold sharing and clients, the
//! distributed key generation, BLS, ElGamal, configuration.
//!
//! A thin translation layer, no cryptography: pointers become slices after
//! NULL and length checks, the Rust API does the work, results are copied
//! into the caller's buffers only on success, and every exported function
//! runs inside one panic-catching wrapper (`guard`, on `unwind`) so no
//! panic unwinds into C.
//!
//! Conventions, the same in every function (tests/header_conventions.rs
//! checks them): every function is `oblivex_<object>_<verb>` or
//! `oblivex_<topic>_<what>`; each protocol step has one verb — create
//! (`_new`, `_derive`, `_generate`, `_deal`, `_from_bytes`), `_blind`,
//! `_evaluate`, `_finalize`, `_free` (a DKG party's rounds are
//! `_round2` … `_round6`, then `_finalize`); an input buffer is `<noun>,
//! <noun>_len`, an array of byte strings `<noun>, <noun>_lens` with a
//! `count`, an output buffer `<noun>, <noun>_capacity, <noun>_written`, a
//! new handle `<handle>_out`; flags are `bool`; every fallible function
//! returns an `oblivex_status` with one code per cause.

#![allow(non_camel_case_types)]

mod args;
mod guard;
mod handle;
mod unwind;

// The order of the header: one module per group, kept apart so that
// rustfmt leaves the order alone.
mod version;

mod status;

mod modexp;

mod rsa;

pub(crate) mod suite;

mod oprf_server;

mod oprf_client;

mod checked;

mod sharing;

mod threshold_oprf;

mod dkg_party;

mod dkg_reshare;

mod dkg_rounds;

mod bls;

mod bls_derive;

mod elgamal;

mod config;

pub use bls::*;
pub use bls_derive::*;
pub use checked::*;
pub use config::*;
pub use dkg_party::*;
pub use dkg_reshare::*;
pub use dkg_rounds::*;
pub use elgamal::*;
pub use modexp::*;
pub use oprf_client::*;
pub use oprf_server::*;
pub use rsa::*;
pub use sharing::*;
pub use status::*;
pub use suite::{
    oblivex_oprf_mode, oblivex_suite, oblivex_suite_element_len, oblivex_suite_output_len,
    oblivex_suite_proof_len, oblivex_suite_scalar_len, OBLIVEX_OPRF_MODE_OPRF,
    OBLIVEX_OPRF_MODE_POPRF, OBLIVEX_OPRF_MODE_VOPRF, OBLIVEX_SUITE_BLS12381G1_SHA256,
    OBLIVEX_SUITE_FFDHE2048_SHA512, OBLIVEX_SUITE_FFDHE3072_SHA512, OBLIVEX_SUITE_FFDHE4096_SHA512,
    OBLIVEX_SUITE_P256_SHA256, OBLIVEX_SUITE_RISTRETTO255_SHA512,
};
pub use threshold_oprf::*;
pub use version::*;
