//! The batch exponentiation against a reference bignum (GMP) and
//! between backends (`oblivex_fuzz::modexp`): fuzzer-chosen modulus (any
//! bytes: even, zero, one, leading zeros), batch size (so lane groups are
//! full, partial and more than one), base and exponent lengths and values,
//! one modulus for the batch or one per value. Errors must be exactly the
//! documented ones.
//!
//! The generic sizes, all cheap, so the target runs over a thousand times
//! a second on one core: most inputs small, the rest long exponents (every
//! window width) or moduli of up to 2040 bits. The dedicated kernels'
//! sizes, whose inputs cost milliseconds each, are the `modexp_kernels`
//! target's. The first byte's bits 1–5 choose among these [`Size`]s.

#![no_main]

use libfuzzer_sys::fuzz_target;
use oblivex_fuzz::modexp::{check, Batch, Limits};
use oblivex_fuzz::Cursor;

/// How big an input's operands are.
struct Size {
    /// At most this many bytes of modulus (a length byte reduced).
    max_modulus_len: u8,
    limits: Limits,
}

/// 28 inputs in 32: moduli up to 128 bits, exponents up to 64.
const SMALL: Size = Size {
    max_modulus_len: 16,
    limits: Limits {
        max_count: 17,
        max_exponent_len: 8,
        max_moduli: 17,
    },
};
/// 2 in 32: exponents up to 640 bits, so every window width; up to 9
/// values (a full lane group and a partial one).
const LONG_EXPONENT: Size = Size {
    max_modulus_len: 32,
    limits: Limits {
        max_count: 9,
        max_exponent_len: 80,
        max_moduli: 9,
    },
};
/// 2 in 32: moduli up to 2040 bits, any length (the generic kernels),
/// exponents up to 16 bits (the window widths are `LONG_EXPONENT`'s),
/// per-value moduli from at most 2 contexts.
const LARGE_MODULUS: Size = Size {
    max_modulus_len: 255,
    limits: Limits {
        max_count: 9,
        max_exponent_len: 2,
        max_moduli: 2,
    },
};

impl Size {
    fn of(flags: u8) -> &'static Size {
        match (flags >> 1) & 31 {
            28 | 29 => &LONG_EXPONENT,
            30 | 31 => &LARGE_MODULUS,
            _ => &SMALL,
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Cursor::new(data);
    let flags = input.byte();
    let size = Size::of(flags);
    let batch = Batch::read(&mut input, flags, &size.limits, |input| {
        let len = usize::from(input.byte()) % (usize::from(size.max_modulus_len) + 1);
        input.take(len).to_vec()
    });
    check(&batch, &mut input);
});
