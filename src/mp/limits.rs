//! The size limits of `mp`, shared by every layer (a leaf: it uses nothing).

/// Largest modulus supported, in bits.
pub const MAX_MODULUS_BITS: usize = 8192;

/// Longest base or exponent accepted, in bytes (twice the largest modulus).
pub const MAX_OPERAND_BYTES: usize = 2 * MAX_MODULUS_BITS / 8;

/// 64-bit limbs of the largest modulus.
pub(crate) const MAX_LIMBS: usize = MAX_MODULUS_BITS / 64;

/// Widest lane group of any backend (8 × 64-bit lanes of a zmm register).
pub(crate) const MAX_LANES: usize = 8;
