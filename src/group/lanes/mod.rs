//! The 8-lane engines: group arithmetic on 8 elements at once, one per
//! 64-bit lane of an AVX-512 register (radix 2^52 with IFMA's
//! multiply-adds, the word-sliced layout of the `mp` engine) or of two AVX2
//! registers (radix 2^29), for the batch operations where a
//! general-purpose crate's one-element-at-a-time API is the bottleneck.
//!
//! - [`engine`]: what an engine provides ([`LaneEngine`]), and
//!   [`NoLanes`] for a group without one;
//! - [`cpu`]: when the engines may run, and on which instruction set
//!   ([`LaneCpu`], [`LaneSet`]);
//! - `ifma` and `avx2`: the code compiled once per instruction set. Each
//!   engine (P-256's, ristretto255's, BLS12-381's) is one source whose functions are
//!   marked `#[lane_features]` (`macros/`); each of these modules
//!   includes the files and gives the mark its target features. So do the
//!   batch inversion and exponentiation chains (`chains.rs`) and the table
//!   scan (`scan.rs`);
//! - `halves`: what the AVX2 fields share (8 lanes as two registers of 4);
//! - `toolkit`: what the engines share (digits in lanes, the masked table
//!   scan, passes, decoding in pairs, wiping);
//! - `field`: a field of 8 lanes ([`field::LaneField`]) and what is
//!   written once for every such field (predicates, selection, batch
//!   inversion, interleaved exponentiation chains);
//! - `montgomery`: Montgomery arithmetic modulo a generic prime, for any
//!   limb count (the IFMA fields without a special form: BLS12-381's);
//! - `radix`: big-endian strings as digits of a power-of-two radix and
//!   back (every P-256 and BLS12-381 field's byte conversions);
//! - `sha512`: SHA-512 of 8 messages at once (ristretto255's hashing);
//! - one folder per engine: `ristretto255`, `p256`, `bls12_381`.
//!
//! The choice between a group's engine and its one-at-a-time path is made
//! once per operation, for every group alike, in `group::batch`.

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod bls12_381;
pub mod cpu;
pub mod engine;
#[cfg(target_arch = "x86_64")]
pub(crate) mod field;
#[cfg(target_arch = "x86_64")]
pub(crate) mod halves;
#[cfg(target_arch = "x86_64")]
pub(crate) mod ifma;
#[cfg(target_arch = "x86_64")]
pub(crate) mod montgomery;
#[cfg(target_arch = "x86_64")]
pub mod p256;
#[cfg(target_arch = "x86_64")]
pub(crate) mod radix;
#[cfg(target_arch = "x86_64")]
pub mod ristretto255;
#[cfg(target_arch = "x86_64")]
pub(crate) mod sha512;
#[cfg(target_arch = "x86_64")]
pub(crate) mod toolkit;

pub use cpu::LaneCpu;
pub(crate) use cpu::LaneSet;
pub use engine::{LaneEngine, NoLanes, Timing};
