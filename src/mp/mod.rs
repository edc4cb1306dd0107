//! Multi-precision batch Montgomery arithmetic and constant-time batch
//! modular exponentiation.
//!
//! The public face is a precomputed modulus context, [`MontContext`] (like
//! OpenSSL's `BN_MONT_CTX`), and batch exponentiation over it
//! ([`MontContext::mod_exp_batch`]) or over one context per value
//! ([`mod_exp_batch_multi`]). Arithmetic backends sit behind one internal
//! trait (`lanes::LaneArith`); the fixed-window exponentiation, the
//! constant-time table select and the byte/limb conversions are shared by all
//! of them. [`Backend`] says which backend runs.
//!
//! ```
//! use oblivex::mp::MontContext;
//! let ctx = MontContext::new(&[0x01, 0x00, 0x01]).unwrap(); // m = 65537
//! // 2^10 and 3^4 mod 65537, in one batch of two.
//! let results = ctx.mod_exp_batch(&[2, 3], 1, &[10, 4], 1).unwrap();
//! assert_eq!(results.as_slice(), [0x00, 0x04, 0x00, 0x00, 0x00, 81]);
//! ```

mod aligned;
mod backend;
mod batch;
mod context;
mod ct;
mod fixed_window;
#[cfg(target_arch = "x86_64")]
mod ifma;
mod lanes;
pub(crate) mod limbs;
mod modular;
mod portable;
mod schedule;
mod threads;

pub use backend::{Backend, BACKEND_ENV};
pub use batch::{mod_exp_batch_multi, mod_exp_batch_multi_on, multi_result_len};
pub use context::MontContext;
pub use threads::{set_threads, threads, MAX_THREADS, THREADS_ENV};

/// Largest modulus supported, in bits.
pub const MAX_MODULUS_BITS: usize = 8192;

/// Longest base or exponent accepted, in bytes (twice the largest modulus).
pub const MAX_OPERAND_BYTES: usize = 2 * MAX_MODULUS_BITS / 8;

/// 64-bit limbs of the largest modulus.
pub(crate) const MAX_LIMBS: usize = MAX_MODULUS_BITS / 64;

/// Widest lane group of any backend (8 × 64-bit lanes of a zmm register).
pub(crate) const MAX_LANES: usize = 8;
