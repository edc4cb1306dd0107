//! The AVX2 backend's digit size and per-modulus constants, computed once
//! per context and kept in its backend cache. Constant time in the modulus
//! (only its bit length shapes the work): an RSA key's primes are moduli
//! too.

use std::sync::Arc;

use zeroize::{Zeroize, Zeroizing};

use crate::mp::context::MontContext;
use crate::mp::limbs::convert::limbs_to_radix;

/// How a modulus is cut into digits: `digits` digits of `digit_bits` bits,
/// `R = 2^(digit_bits·digits) ≥ 4m` (values below `2m` stay below `2m`
/// through a Montgomery product, so no product subtracts `m`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    pub(super) digit_bits: usize,
    pub(super) digits: usize,
}

/// The widest digit tried: VPMULUDQ multiplies the low 32 bits, and the
/// doubled digits of a square (`2a_j < 2^(r+1)`) must fit them too, so
/// `r ≤ 31`; below 29 is where the column sums first bind.
const WIDEST_DIGIT: usize = 29;

/// The widest digits whose column sums cannot overflow: a column of a
/// Montgomery product gathers at most `2L` products below `2^(2r)` (`L`
/// from `a·b`, `L` from `q·m`) and a carry below `2^(64−r)`, so
/// `2L·2^(2r) + 2^(64−r) ≤ 2^64`. Wider digits mean fewer of them and
/// `L²` fewer products: 29 bits up to 897-bit moduli, 28 up to 3,554
/// bits, 27 up to 8,192 and beyond.
pub(super) fn layout_for_bits(bits: usize) -> Layout {
    (24..=WIDEST_DIGIT)
        .rev()
        .map(|digit_bits| Layout {
            digit_bits,
            digits: (bits + 2).div_ceil(digit_bits),
        })
        .find(|layout| {
            let column_room = (u128::from(u64::MAX) + 1) - (1u128 << (64 - layout.digit_bits));
            (2 * layout.digits as u128) << (2 * layout.digit_bits) <= column_room
        })
        .expect("24-bit digits fit any supported modulus")
}

/// The constants of one modulus `m` with `R = 2^(rL)`, digits below `2^r`.
pub(super) struct Avx2Constants {
    pub(super) layout: Layout,
    /// `m`, `L` digits.
    pub(super) modulus: Vec<u64>,
    /// `−m^{−1} mod 2^r`: the word-by-word reduction needs one digit.
    pub(super) m_prime: u64,
    /// `R² mod m`, `L` digits (entering the Montgomery domain).
    pub(super) r2: Vec<u64>,
    /// `R mod m`, `L` digits (the Montgomery form of 1).
    pub(super) one: Vec<u64>,
}

/// The constants of `ctx`'s modulus, made on first use and then cached
/// with the context.
pub(super) fn constants_of(ctx: &MontContext) -> Arc<Avx2Constants> {
    ctx.backend_cache().get_or_make(|| Avx2Constants::new(ctx))
}

impl Avx2Constants {
    fn new(ctx: &MontContext) -> Self {
        let layout = layout_for_bits(ctx.modulus_bits());
        let Layout { digit_bits, digits } = layout;
        let to_digits = |limbs: &[u64]| {
            let mut d = vec![0u64; digits];
            limbs_to_radix(limbs, &mut d, digit_bits);
            d
        };
        // The 64-bit forms are wiped (they give a secret prime away).
        let r_bits = digit_bits * digits;
        Avx2Constants {
            layout,
            modulus: to_digits(ctx.modulus()),
            m_prime: ctx.m_inv_neg() & ((1 << digit_bits) - 1),
            r2: to_digits(&Zeroizing::new(ctx.pow2_mod_vartime(2 * r_bits))),
            one: to_digits(&Zeroizing::new(ctx.pow2_mod_vartime(r_bits))),
        }
    }
}

impl Drop for Avx2Constants {
    fn drop(&mut self) {
        self.modulus.zeroize();
        self.m_prime.zeroize();
        self.r2.zeroize();
        self.one.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_as_wide_as_the_columns_allow() {
        let layout = |bits| {
            let Layout { digit_bits, digits } = layout_for_bits(bits);
            (digit_bits, digits)
        };
        assert_eq!(layout(256), (29, 9));
        assert_eq!(layout(897), (29, 31));
        assert_eq!(layout(898), (28, 33));
        assert_eq!(layout(1024), (28, 37));
        assert_eq!(layout(2048), (28, 74));
        assert_eq!(layout(3072), (28, 110));
        assert_eq!(layout(4096), (27, 152));
        assert_eq!(layout(8192), (27, 304));
    }

    #[test]
    fn m_prime_inverts_the_low_digit() {
        let ctx = MontContext::new(&[0xc3, 0x51, 0x07, 0x2d]).unwrap();
        let constants = constants_of(&ctx);
        let r = constants.layout.digit_bits;
        let product = constants.modulus[0].wrapping_mul(constants.m_prime);
        assert_eq!(product & ((1 << r) - 1), (1 << r) - 1, "m·m' ≡ −1");
    }
}
