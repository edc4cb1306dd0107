//! What the two modexp targets share: after a target has chosen its
//! moduli, batch size and operand lengths (`modexp` the generic sizes,
//! `modexp_kernels` the dedicated kernels'), the batch exponentiation on
//! every available backend against GMP, with exactly the documented
//! errors: the constant-time fixed window, and the square-and-multiply
//! for public exponents (`*_vartime`, the OpenSSL provider's fault check)
//! on the same operands.

use oblivex::mp::{
    mod_exp_batch_multi_on, mod_exp_batch_multi_vartime_on, Backend, MontContext, MAX_MODULUS_BITS,
};
use oblivex::Error;

use crate::{gmp, Cursor};

/// One input's shape, as a target read it off the input.
pub struct Batch {
    /// The distinct moduli (big-endian, any bytes): one for the whole
    /// batch, or with `per_value` a few given to the values in turn.
    pub moduli: Vec<Vec<u8>>,
    /// Each value uses `moduli[i % moduli.len()]` (a per-value-modulus
    /// call) rather than one context for the batch.
    pub per_value: bool,
    /// Number of values.
    pub count: usize,
    /// Bytes per base.
    pub base_len: usize,
    /// Bytes per exponent.
    pub exponent_len: usize,
}

/// How large a target lets an input's batch be.
pub struct Limits {
    /// At most this many values.
    pub max_count: u8,
    /// At most this many bytes per exponent.
    pub max_exponent_len: u8,
    /// With one modulus per value, at most this many distinct moduli
    /// (contexts), given to the values in turn: every lane group still
    /// mixes moduli, while the large sizes pay for only a few contexts.
    pub max_moduli: u8,
}

impl Batch {
    /// Reads a batch's shape off `input` after its first byte `flags`
    /// (bit 0: one modulus per value): count, base length, exponent
    /// length, then each distinct modulus through `modulus`.
    pub fn read(
        input: &mut Cursor<'_>,
        flags: u8,
        limits: &Limits,
        mut modulus: impl FnMut(&mut Cursor<'_>) -> Vec<u8>,
    ) -> Batch {
        let count = 1 + usize::from(input.byte() % limits.max_count);
        let base_len = usize::from(input.byte());
        let exponent_len = usize::from(input.byte() % (limits.max_exponent_len + 1));
        let per_value = flags & 1 == 1;
        let distinct = if per_value {
            count.min(usize::from(limits.max_moduli))
        } else {
            1
        };
        Batch {
            moduli: (0..distinct).map(|_| modulus(input)).collect(),
            per_value,
            count,
            base_len,
            exponent_len,
        }
    }
}

/// Reads the bases and exponents off `input` (short inputs stretch to
/// full operands by repetition, so small seeds still reach long exponents
/// and multi-limb bases), exponentiates on every available backend, by
/// the fixed window and by the public-exponent square-and-multiply, and
/// checks each result against GMP and each error against the
/// documented one.
pub fn check(batch: &Batch, input: &mut Cursor<'_>) {
    let Batch {
        ref moduli,
        per_value,
        count,
        base_len,
        exponent_len,
    } = *batch;
    let bases = input.take(count * base_len);
    let exponents = input.take(count * exponent_len);
    let seed = input.rest();
    let bases = stretch(bases, count * base_len, seed);
    let exponents = stretch(exponents, count * exponent_len, seed);

    let mut contexts = Vec::new();
    for modulus in moduli {
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
    let refs: Vec<&MontContext> = (0..count).map(|i| &contexts[i % contexts.len()]).collect();

    let mut results = Vec::new();
    for backend in Backend::ALL.iter().copied().filter(|b| b.is_available()) {
        let fixed_window = if per_value {
            mod_exp_batch_multi_on(backend, &refs, &bases, base_len, &exponents, exponent_len)
        } else {
            refs[0].mod_exp_batch_on(backend, &bases, base_len, &exponents, exponent_len)
        };
        // The same operands as public exponents: one context per value
        // either way (a batch's one context, repeated, is also a valid
        // per-value call).
        let square_and_multiply = mod_exp_batch_multi_vartime_on(
            backend,
            &refs,
            &bases,
            base_len,
            &exponents,
            exponent_len,
        );
        assert_eq!(
            fixed_window.is_ok(),
            square_and_multiply.is_ok(),
            "the fixed window and the square-and-multiply disagree on the operands"
        );
        for status in [fixed_window, square_and_multiply] {
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
}

/// `bytes` repeated (and mixed with `seed`) up to `len` bytes.
pub fn stretch(bytes: &[u8], len: usize, seed: &[u8]) -> Vec<u8> {
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
