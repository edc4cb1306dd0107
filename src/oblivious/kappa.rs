//! κ, the bit length of the verification factors (docs/PROTOCOLS.md §3): a
//! cheating server passes the check with probability at most 2^-κ.

use crate::Error;

/// The length κ of the verification factors `d_i ∈ [1, 2^κ]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kappa(u32);

impl Kappa {
    /// The default, 64 bits: a cheater passes with probability ≤ 2^-64.
    pub const DEFAULT: Kappa = Kappa(64);
    /// The smallest κ accepted outside tests.
    /// cbindgen:ignore
    pub const MIN: u32 = 32;
    /// The largest κ (the factors stay far below every group order).
    /// cbindgen:ignore
    pub const MAX: u32 = 128;

    /// κ = `bits`, for `32 <= bits <= 128` ([`Error::InvalidKappa`]
    /// otherwise).
    pub fn new(bits: u32) -> Result<Kappa, Error> {
        if (Self::MIN..=Self::MAX).contains(&bits) {
            Ok(Kappa(bits))
        } else {
            Err(Error::InvalidKappa)
        }
    }

    /// Any κ from 1 to 128, *insecure below 32*: only for tests that measure
    /// how often a cheat passes (with κ = 4, one in 16). Compiled only with
    /// the non-default feature `danger`, which no build handling real
    /// secrets enables.
    #[cfg(any(test, feature = "danger"))]
    pub fn insecure_for_tests(bits: u32) -> Kappa {
        assert!((1..=Self::MAX).contains(&bits), "kappa in 1..=128");
        Kappa(bits)
    }

    /// The number of bits.
    pub fn bits(self) -> u32 {
        self.0
    }

    /// Bits of the largest factor, `2^κ` (κ + 1).
    pub(crate) fn factor_bits(self) -> usize {
        self.0 as usize + 1
    }
}

impl Default for Kappa {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_is_enforced() {
        assert_eq!(Kappa::new(31), Err(Error::InvalidKappa));
        assert_eq!(Kappa::new(129), Err(Error::InvalidKappa));
        assert_eq!(Kappa::new(0), Err(Error::InvalidKappa));
        assert_eq!(Kappa::new(32).unwrap().bits(), 32);
        assert_eq!(Kappa::new(128).unwrap().bits(), 128);
        assert_eq!(Kappa::default().bits(), 64);
    }
}
