//! The batch exponentiation against a reference bignum (num-bigint) and
//! between backends: fuzzer-chosen modulus (any bytes: even, zero, one,
//! leading zeros, up to 2040 bits, or 4080 with flag bit 1), batch size (1..=17, so lane groups are
//! full, partial and more than one), base and exponent lengths and values,
//! one modulus for the batch or one per value. Errors must be exactly the
//! documented ones.

#![no_main]

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use oblivex::mp::{mod_exp_batch_multi_on, Backend, MontContext};
use oblivex::Error;
use oblivex_fuzz::Cursor;

fuzz_target!(|data: &[u8]| {
    let mut input = Cursor::new(data);
    let flags = input.byte();
    let count = 1 + usize::from(input.byte() % 17);
    let base_len = usize::from(input.byte());
    let exponent_len = usize::from(input.byte() % 80);
    let per_value_moduli = flags & 1 == 1;
    let moduli: Vec<&[u8]> = (0..if per_value_moduli { count } else { 1 })
        .map(|_| input.field(if flags & 2 == 2 { 2 } else { 1 }))
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
        assert_eq!(result, &expected, "differs from num-bigint");
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
    !m.is_empty() && m[m.len() - 1] & 1 == 1 && m.len() <= oblivex::mp::MAX_MODULUS_BITS / 8
}

fn expected_modulus_error(modulus: &[u8]) -> Error {
    let m = significant(modulus);
    if m.is_empty() {
        Error::ZeroModulus
    } else if m.len() > oblivex::mp::MAX_MODULUS_BITS / 8 {
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
        let m = BigUint::from_bytes_be(&ctx.modulus_be());
        let b = BigUint::from_bytes_be(&bases[i * base_len..(i + 1) * base_len]);
        let e = BigUint::from_bytes_be(&exponents[i * exponent_len..(i + 1) * exponent_len]);
        let r = b.modpow(&e, &m).to_bytes_be();
        let r: &[u8] = if r == [0] { &[] } else { &r };
        out.extend(std::iter::repeat_n(0u8, result_len - r.len()));
        out.extend_from_slice(r);
    }
    out
}
