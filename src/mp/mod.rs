//! Multi-precision batch Montgomery arithmetic and constant-time batch
//! modular exponentiation.
//!
//! The public face is a precomputed modulus context, [`MontContext`] (like
//! OpenSSL's `BN_MONT_CTX`), and batch exponentiation over it
//! ([`MontContext::mod_exp_batch`]) or over one context per value
//! ([`mod_exp_batch_multi`]). [`Backend`] (chosen for the whole library
//! in `crate::backend`) says which arithmetic backend runs.
//!
//! The files, bottom-up (none uses a file above it; `tests/mp_layers.rs`
//! checks): `limits` (the size limits) and `limbs/` (slice-level
//! primitives: conversions, masks, word-serial Montgomery arithmetic,
//! aligned buffers) know nothing of contexts; `context/` (the modulus
//! context and its concerns, one file each) knows no backend; `backend/`
//! (the `LaneArith` interface and the `portable`, `avx2` and `ifma`
//! backends) and
//! `fixed_window` (the exponentiation every backend runs, written once)
//! and `public_exponent` (square-and-multiply for public exponents, the
//! `*_vartime` entry points);
//! `schedule` (grouping values into lanes, threads) and `threads`; the
//! public entry points are `exp.rs` (one modulus), `multi.rs` (one per
//! value) and `rsa_crt/` (RSA private keys in CRT form, [`RsaCrtKey`]:
//! both halves of each ciphertext in one batch, Garner's step on limbs).
//!
//! ```
//! use oblivex::mp::MontContext;
//! let ctx = MontContext::new(&[0x01, 0x00, 0x01]).unwrap(); // m = 65537
//! // 2^10 and 3^4 mod 65537, in one batch of two.
//! let results = ctx.mod_exp_batch(&[2, 3], 1, &[10, 4], 1).unwrap();
//! assert_eq!(results.as_slice(), [0x00, 0x04, 0x00, 0x00, 0x00, 81]);
//! ```

pub(crate) mod backend;
mod context;
mod exp;
mod fixed_window;
pub(crate) mod limbs;
mod limits;
mod multi;
mod public_exponent;
mod rsa_crt;
mod schedule;
mod threads;
pub(crate) mod trace_cut;

/// Where the backend was first published; it is the whole library's choice
/// now ([`crate::Backend`]), re-exported here so that existing code builds.
pub use crate::backend::{Backend, BACKEND_ENV};
pub use context::MontContext;
pub use limits::{MAX_MODULUS_BITS, MAX_OPERAND_BYTES};
pub use multi::{
    mod_exp_batch_multi, mod_exp_batch_multi_on, mod_exp_batch_multi_vartime,
    mod_exp_batch_multi_vartime_on, multi_result_len,
};
pub use rsa_crt::RsaCrtKey;
pub use schedule::group_size;
pub use threads::{set_threads, threads, MAX_THREADS, THREADS_ENV};
#[cfg(feature = "ct-trace-harness")]
#[doc(hidden)]
pub use trace_cut::cut_exponents_for_trace;
