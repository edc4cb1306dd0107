//! The slice-level leaf of `mp`: integers as little-endian `u64` limbs and
//! what is done to them without knowing any modulus context or backend —
//! conversions to and from bytes and radix 2^52 (`convert`), mask
//! arithmetic for constant-time choices (`masks`), the word-serial
//! Montgomery product, square and inverse (`montgomery`), and 64-byte
//! aligned buffers (`aligned`). Everything above builds on these.

pub(crate) mod aligned;
pub(crate) mod convert;
pub(crate) mod masks;
pub(crate) mod montgomery;

pub(crate) use convert::{
    be_bytes_to_limbs, bit_length_vartime, limbs_for_bytes, limbs_to_be_bytes,
};
