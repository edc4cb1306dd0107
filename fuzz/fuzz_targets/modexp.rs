//! The batch exponentiation against a reference bignum (GMP) and
//! between backends: fuzzer-chosen modulus (any bytes: even, zero, one,
//! leading zeros), batch size (so lane groups are full, partial and more
//! than one), base and exponent lengths and values, one modulus for the
//! batch or one per value. Errors must be exactly the documented ones.
//!
//! Most inputs are small, so the target runs about a thousand times a
//! second on one core; the rest reach long exponents (every window width),
//! moduli of up to 2040 bits, and each dedicated kernel's size (1024, 2048,
//! 3072, 4096 bits, top bit set) or one byte past the largest allowed.
//! The first byte's bits 1–5 choose among these [`Size`]s.

#![no_main]

use libfuzzer_sys::fuzz_target;
use oblivex::mp::{mod_exp_batch_multi_on, Backend, MontContext, MAX_MODULUS_BITS};
use oblivex::Error;
use oblivex_fuzz::{gmp, Cursor};

/// How big an input's operands are.
struct Size {
    modulus: ModulusLength,
    max_exponent_len: u8,
    max_count: u8,
}

/// How a modulus's length is chosen.
enum ModulusLength {
    /// A length byte, reduced to at most this many bytes.
    UpTo(u8),
    /// A dedicated kernel's length or one past the largest allowed; the
    /// bytes are stretched from a field, the top bit set and, unless the
    /// first byte's bit 6 asks for any parity, the low bit.
    Kernel,
}

/// 28 inputs in 32: moduli up to 128 bits, exponents up to 64.
const SMALL: Size = Size {
    modulus: ModulusLength::UpTo(16),
    max_exponent_len: 8,
    max_count: 17,
};
/// 2 in 32: exponents up to 640 bits, so every window width.
const LONG_EXPONENT: Size = Size {
    modulus: ModulusLength::UpTo(32),
    max_exponent_len: 80,
    max_count: 17,
};
/// 1 in 32: moduli up to 2040 bits, any length (the generic kernels).
const LARGE_MODULUS: Size = Size {
    modulus: ModulusLength::UpTo(255),
    max_exponent_len: 8,
    max_count: 9,
};
/// 1 in 32: the dedicated kernels' sizes.
const KERNEL: Size = Size {
    modulus: ModulusLength::Kernel,
    max_exponent_len: 2,
    max_count: 9,
};

const KERNEL_BYTES: [usize; 5] = [128, 256, 384, 512, MAX_MODULUS_BITS / 8 + 1];

impl Size {
    fn of(flags: u8) -> &'static Size {
        match (flags >> 1) & 31 {
            28 | 29 => &LONG_EXPONENT,
            30 => &LARGE_MODULUS,
            31 => &KERNEL,
            _ => &SMALL,
        }
    }

    fn modulus(&self, input: &mut Cursor<'_>, flags: u8) -> Vec<u8> {
        match self.modulus {
            ModulusLength::UpTo(max) => {
                let len = usize::from(input.byte()) % (usize::from(max) + 1);
                input.take(len).to_vec()
            }
            ModulusLength::Kernel => {
                let len = KERNEL_BYTES[usize::from(input.byte()) % KERNEL_BYTES.len()];
                let mut m = stretch(input.field(1), len, &[0x5A]);
                m[0] |= 0x80;
                if flags & 0x40 == 0 {
                    m[len - 1] |= 1;
                }
                m
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Cursor::new(data);
    let flags = input.byte();
    let size = Size::of(flags);
    let count = 1 + usize::from(input.byte() % size.max_count);
    let base_len = usize::from(input.byte());
    let exponent_len = usize::from(input.byte() % (size.max_exponent_len + 1));
    let per_value_moduli = flags & 1 == 1;
    let moduli: Vec<Vec<u8>> = (0..if per_value_moduli { count } else { 1 })
        .map(|_| size.modulus(&mut input, flags))
        .collect();
    let bases = input.take(count * base_len);
    let exponents = input.take(count * exponent_len);
    let seed = input.rest();
    // Short inputs stretch to full operands by repetition, so small seeds
    // still reach long exponents and multi-limb bases.
    let bases = stretch(bases, count * base_len, seed);
    let exponents = stretch(exponents, count * exponent_len, seed);

    let mut contexts = Vec::new();
    for modulus in &moduli {
        match MontContext::new(modulus) {
            Ok(ctx) => contexts.push(ctx),
            Err(error) => {
                assert_eq!(error, expected_modulus_error(modulus));
                return;
            }
        }
        assert!(expected_modulus_ok(modulus));
    }
    let result_len = contexts
        .iter()
        .map(MontContext::modulus_len)
        .max()
        .unwrap_or(0);
    let refs: Vec<&MontContext> = (0..count)
        .map(|i| &contexts[if per_value_moduli { i } else { 0 }])
        .collect();

    let mut results = Vec::new();
    for backend in Backend::ALL.iter().copied().filter(|b| b.is_available()) {
        let status = if per_value_moduli {
            mod_exp_batch_multi_on(backend, &refs, &bases, base_len, &exponents, exponent_len)
        } else {
            refs[0].mod_exp_batch_on(backend, &bases, base_len, &exponents, exponent_len)
        };
        match status {
            Ok(out) => {
                assert_eq!(out.len(), count * result_len);
                results.push(out.to_vec());
            }
            Err(error) => {
                // Only the operand lengths can be wrong here.
                assert!(base_len == 0 || exponent_len == 0, "{error:?}");
                assert_eq!(error, Error::EmptyInput);
                return;
            }
        }
    }

    let expected = reference(
        &refs,
        &bases,
        base_len,
        &exponents,
        exponent_len,
        result_len,
    );
    for result in &results {
        assert_eq!(result, &expected, "differs from GMP");
    }
});

/// `bytes` repeated (and mixed with `seed`) up to `len` bytes.
fn stretch(bytes: &[u8], len: usize, seed: &[u8]) -> Vec<u8> {
    let pattern: Vec<u8> = bytes.iter().chain(seed).copied().collect();
    if pattern.is_empty() {
        return vec![0xFF; len];
    }
    pattern.iter().copied().cycle().take(len).collect()
}

fn significant(modulus: &[u8]) -> &[u8] {
    let start = modulus
        .iter()
        .position(|&b| b != 0)
        .unwrap_or(modulus.len());
    &modulus[start..]
}

fn expected_modulus_ok(modulus: &[u8]) -> bool {
    let m = significant(modulus);
    !m.is_empty() && m[m.len() - 1] & 1 == 1 && m.len() <= MAX_MODULUS_BITS / 8
}

fn expected_modulus_error(modulus: &[u8]) -> Error {
    let m = significant(modulus);
    if m.is_empty() {
        Error::ZeroModulus
    } else if m.len() > MAX_MODULUS_BITS / 8 {
        Error::ModulusTooLarge
    } else {
        Error::EvenModulus
    }
}

fn reference(
    contexts: &[&MontContext],
    bases: &[u8],
    base_len: usize,
    exponents: &[u8],
    exponent_len: usize,
    result_len: usize,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(contexts.len() * result_len);
    for (i, ctx) in contexts.iter().enumerate() {
        let r = gmp::mod_pow_be(
            &bases[i * base_len..(i + 1) * base_len],
            &exponents[i * exponent_len..(i + 1) * exponent_len],
            &ctx.modulus_be(),
        );
        out.extend(std::iter::repeat_n(0u8, result_len - r.len()));
        out.extend_from_slice(&r);
    }
    out
}
