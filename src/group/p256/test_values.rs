//! Field test values shared by P-256's fields' tests: the one-element
//! field's (`field.rs`), the lane engines' (one per instruction set) and
//! the AVX2 field's own.

use num_bigint::BigUint;

/// P-256's prime.
pub(crate) fn p() -> BigUint {
    let one = BigUint::from(1u32);
    (&one << 256u32) - (&one << 224u32) + (&one << 192u32) + (&one << 96u32) - 1u32
}

/// `x < 2^256` as 32 big-endian bytes.
pub(crate) fn be32(x: &BigUint) -> [u8; 32] {
    let bytes = x.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - bytes.len()..].copy_from_slice(&bytes);
    out
}

/// xorshift bytes.
pub(crate) fn random_bytes(state: &mut u64) -> [u8; 32] {
    core::array::from_fn(|_| {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state as u8
    })
}

/// Field test values: the edges (among them the largest digit of the
/// IFMA field's radix, and of the AVX2 field's; words of all ones and
/// `R mod p` for the one-element field's), then random values below p.
pub(crate) fn values() -> Vec<BigUint> {
    let p = p();
    let one = BigUint::from(1u32);
    let mut out = vec![
        BigUint::from(0u32),
        one.clone(),
        &p - 1u32,
        &p - 2u32,
        (&one << 52u32) - 1u32,
        (&one << 29u32) - 1u32,
        &one << 255u32,
        (&one << 256u32) - (&one << 224u32),
        &p >> 1u32,
        (&one << 64u32) - 1u32,
        (&one << 192u32) - 1u32,
        (&one << 256u32) % &p,
    ];
    let mut state = 0x0123_4567_89ab_cdefu64;
    while out.len() < 96 {
        out.push(BigUint::from_bytes_be(&random_bytes(&mut state)) % &p);
    }
    out
}
