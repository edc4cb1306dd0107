//! Batch exponentiation: one register of 8 values, secret bases and
//! exponents, one modulus for all or one per value, at each dedicated
//! kernel size (1024, 2048, 3072, 4096 bits) and a generic one (1280).
//!
//! Exponents are short ([`EXPONENT_BYTES`]): the fixed-window loop's
//! structure depends only on the exponent's public length (the window
//! width, the number of windows and every loop bound come from it,
//! `src/mp/fixed_window.rs`), so a longer exponent repeats the same traced
//! window step more times, with the same table build and select.

use oblivex::mp::{
    mod_exp_batch_multi, mod_exp_batch_multi_on, mod_exp_batch_multi_vartime, Backend, MontContext,
};

use crate::marks::traced;
use crate::variants::{pick, random_bytes};

/// Exponent length in bytes: 3 windows of 3 bits per byte pair...
pub const EXPONENT_BYTES: usize = 4;

const LANES: usize = 8;

/// An odd `bits`-bit modulus of its own for `seed`.
fn modulus(bits: usize, seed: u64) -> MontContext {
    let mut m = random_bytes(seed, bits / 8);
    m[0] |= 0x80;
    *m.last_mut().expect("moduli have bytes") |= 1;
    MontContext::new(&m).expect("an odd modulus")
}

/// Bases (8 values of the modulus' length) and exponents, per variant:
/// random, random, sparse (exponents 1 and 2^k, bases 0 and 1), dense
/// (exponents all ones, bases m − 1).
fn operand_variants(ctx: &MontContext) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let len = ctx.modulus_len();
    let mut m_minus_one = ctx.modulus_be();
    *m_minus_one.last_mut().expect("moduli have bytes") -= 1;
    let mut sparse_bases = vec![0u8; LANES * len];
    let mut sparse_exponents = vec![0u8; LANES * EXPONENT_BYTES];
    for lane in 0..LANES {
        sparse_bases[(lane + 1) * len - 1] = (lane % 2) as u8;
        sparse_exponents[lane * EXPONENT_BYTES + lane % EXPONENT_BYTES] = 1 << (lane % 8);
    }
    let bases = vec![
        random_bytes(21, LANES * len),
        random_bytes(22, LANES * len),
        sparse_bases,
        m_minus_one.repeat(LANES),
    ];
    let exponents = vec![
        random_bytes(31, LANES * EXPONENT_BYTES),
        random_bytes(32, LANES * EXPONENT_BYTES),
        sparse_exponents,
        vec![0xff; LANES * EXPONENT_BYTES],
    ];
    (bases, exponents)
}

/// One modulus for the 8 values.
pub fn one_modulus(bits: usize, variant: usize) -> Result<(), String> {
    let ctx = modulus(bits, bits as u64);
    let (bases, exponents) = operand_variants(&ctx);
    let (base, exponent) = (pick(&bases, variant), pick(&exponents, variant));
    let len = ctx.modulus_len();
    let warm = ctx.mod_exp_batch(&bases[0], len, &exponents[0], EXPONENT_BYTES);
    drop(warm);
    let traced_result = traced((&base, &exponent), |(b, e)| {
        ctx.mod_exp_batch(b, len, e, EXPONENT_BYTES)
    })
    .map_err(|e| e.to_string())?;
    let expected = ctx
        .mod_exp_batch_on(Backend::Portable, &base, len, &exponent, EXPONENT_BYTES)
        .map_err(|e| e.to_string())?;
    if *traced_result != *expected {
        return Err("the traced backend's result differs from the portable backend's".into());
    }
    Ok(())
}

/// A modulus per value (8 moduli of the same size class).
pub fn per_value_moduli(bits: usize, variant: usize) -> Result<(), String> {
    let moduli: Vec<MontContext> = (0..LANES as u64).map(|i| modulus(bits, 1000 + i)).collect();
    let contexts: Vec<&MontContext> = moduli.iter().collect();
    let (bases, exponents) = operand_variants(&moduli[0]);
    let (base, exponent) = (pick(&bases, variant), pick(&exponents, variant));
    let len = moduli[0].modulus_len();
    drop(mod_exp_batch_multi(
        &contexts,
        &bases[0],
        len,
        &exponents[0],
        EXPONENT_BYTES,
    ));
    let traced_result = traced((&base, &exponent), |(b, e)| {
        mod_exp_batch_multi(&contexts, b, len, e, EXPONENT_BYTES)
    })
    .map_err(|e| e.to_string())?;
    let expected = mod_exp_batch_multi_on(
        Backend::Portable,
        &contexts,
        &base,
        len,
        &exponent,
        EXPONENT_BYTES,
    )
    .map_err(|e| e.to_string())?;
    if *traced_result != *expected {
        return Err("the traced backend's result differs from the portable backend's".into());
    }
    Ok(())
}

/// Public exponents (`mod_exp_batch_multi_vartime`, the RSA fault check's
/// call): the secret bases vary between runs, the exponents do not (they
/// are public, and the call is variable time in them). Lanes alternate
/// 65537 and 3, so the trace covers both the products every lane makes
/// and those some lanes keep through the select.
pub fn public_exponents(bits: usize, variant: usize) -> Result<(), String> {
    let moduli: Vec<MontContext> = (0..LANES as u64).map(|i| modulus(bits, 2000 + i)).collect();
    let contexts: Vec<&MontContext> = moduli.iter().collect();
    let (bases, _) = operand_variants(&moduli[0]);
    let base = pick(&bases, variant);
    let len = moduli[0].modulus_len();
    let exponents: Vec<u8> = (0..LANES)
        .flat_map(|lane| {
            if lane % 2 == 0 {
                [0x01, 0x00, 0x01]
            } else {
                [0x00, 0x00, 0x03]
            }
        })
        .collect();
    drop(mod_exp_batch_multi_vartime(
        &contexts, &bases[0], len, &exponents, 3,
    ));
    let traced_result = traced(&base, |b| {
        mod_exp_batch_multi_vartime(&contexts, b, len, &exponents, 3)
    })
    .map_err(|e| e.to_string())?;
    // The constant-time call on the portable backend gives the same powers.
    let expected = mod_exp_batch_multi_on(Backend::Portable, &contexts, &base, len, &exponents, 3)
        .map_err(|e| e.to_string())?;
    if *traced_result != *expected {
        return Err("the public-exponent call differs from the constant-time one".into());
    }
    Ok(())
}
