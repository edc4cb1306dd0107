//! # oblivex
//!
//! Oblivious and batch exponentiation. This release carries the foundation:
//!
//! - [`mp`]: constant-time batch modular exponentiation (`a^e mod m` for many
//!   values at once) over a precomputed odd-modulus context, usable from C as
//!   a drop-in replacement for OpenSSL's `BN_mod_exp`;
//! - `ffi`: the C ABI (`include/oblivex.h`), a thin translation layer over
//!   the Rust API with status codes, opaque handles and a panic boundary.
//!
//! Secrets (exponents, bases) never choose a branch, a memory index or a loop
//! bound; only public lengths do. Variable-time code is confined to public
//! data and named `*_vartime`.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod error;
pub mod ffi;
pub mod group;
pub mod mp;
pub mod oblivious;
pub mod oprf;
pub mod rng;

pub use error::Error;
