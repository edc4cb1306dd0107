//! The C ABI, rendered into `include/oblivex.h` by cbindgen.
//!
//! A thin translation layer, no cryptography: pointers become slices after
//! NULL and length checks, the Rust API does the work, results are copied into
//! the caller's buffers only on success, and every exported function runs
//! inside one panic-catching wrapper (`guard`) so no panic unwinds into C.
//!
//! Conventions: every fallible function returns [`oblivex_status`]; objects
//! are opaque handles made by `oblivex_*_new` and released by
//! `oblivex_*_free` (which accepts NULL and wipes the memory); integers are
//! big-endian byte strings; batch calls take flat arrays of fixed-width
//! elements plus a count.

#![allow(non_camel_case_types)]

mod bls;
mod checked;
mod config;
mod elgamal;
mod guard;
mod modexp;
mod oprf;
mod status;
pub(crate) mod suite;
mod threshold;
mod version;

pub use bls::*;
pub use checked::*;
pub use config::*;
pub use elgamal::*;
pub use modexp::*;
pub use oprf::*;
pub use status::*;
pub use suite::{
    oblivex_oprf_mode, oblivex_suite, oblivex_suite_element_len, oblivex_suite_output_len,
    oblivex_suite_proof_len, oblivex_suite_scalar_len,
};
pub use threshold::*;
pub use version::*;
