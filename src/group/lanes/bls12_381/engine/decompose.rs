//! The decompositions of a secret scalar `k < r` that the multiplications
//! use, constant time in k: divisions by the public `u = |z| =
//! 0xd201000000010000` (z the curve's parameter), each a 2-by-1 division
//! per 64-bit word with u's precomputed reciprocal, its corrections masks.
//!
//! - Base u ([`split_by_u`]): `r = u⁴ − u² + 1`, so `k < r < u⁴` has the
//!   base-u digits `d₀ .. d₃ < u < 2^64`, `k = d₀ + d₁u + d₂u² + d₃u³`.
//!   With `λ = u² − 1`, the eigenvalue of `σ(x, y) = (βx, y)` on G1, and
//!   `Q = u·P`: `k = (d₀ + d₂) + (d₁ + d₃)·u + d₂·λ + d₃·uλ`, so `k·P = (d₀
//!   + d₂)·P + (d₁ + d₃)·Q + d₂·σ(P) + d₃·σ(Q)`, four coefficients below
//!   `2u < 2^65` (with z negative, `Q = −z·P`; the subgroup check computes
//!   it on the way, `codec.rs`).
//! - GLV ([`split`]), from the same digits: `k = k₁ + k₂·λ` with `k₁ = (d₀
//!   + d₂) + (d₁ + d₃)·u < 2u² < 2^129` and `k₂ = d₂ + d₃·u < u² < 2^128`,
//!   `k·P = k₁·P + k₂·σ(P)`.

use zeroize::Zeroizing;

/// `u = |z|`, the absolute value of the curve's parameter `z =
/// −0xd201000000010000`.
pub(super) const U: u64 = 0xd201000000010000;

/// `λ = u² − 1`, the eigenvalue of σ on G1.
#[cfg(test)]
pub(super) const LAMBDA: u128 = (U as u128) * (U as u128) - 1;

/// Bits of each GLV coefficient (below `2u²`).
pub(super) const HALF_BITS: usize = 129;

/// Bits of each coefficient of the base-u decomposition (below `2u`).
pub(super) const QUARTER_BITS: usize = 65;

/// A coefficient of a decomposition: little-endian bytes, as long as a
/// scalar's.
pub(super) type Coefficient = [u8; 32];

/// `1/u` as Möller and Granlund's division by an invariant integer uses
/// it: `⌊(2^128 − 1)/u⌋ − 2^64` (u has its top bit set).
const U_RECIPROCAL: u64 = (u128::MAX / U as u128 - (1u128 << 64)) as u64;

/// All ones where `a < b`, else zero, without a branch.
fn mask_below(a: u64, b: u64) -> u64 {
    u64::from(a.overflowing_sub(b).1).wrapping_neg()
}

/// `(⌊(high·2^64 + low)/u⌋, (high·2^64 + low) mod u)` for `high < u`:
/// Möller and Granlund's 2-by-1 division ("Improved division by invariant
/// integers", 2011, Algorithm 4), its two corrections as masks, constant
/// time in `high` and `low`.
fn divide_word_by_u(high: u64, low: u64) -> (u64, u64) {
    let estimate = u128::from(U_RECIPROCAL)
        .wrapping_mul(u128::from(high))
        .wrapping_add((u128::from(high) << 64) | u128::from(low));
    let (mut quotient, fraction) = (((estimate >> 64) as u64).wrapping_add(1), estimate as u64);
    let mut remainder = low.wrapping_sub(quotient.wrapping_mul(U));
    // The estimate is one too large where remainder > fraction.
    let over = mask_below(fraction, remainder);
    quotient = quotient.wrapping_add(over);
    remainder = remainder.wrapping_add(U & over);
    // And one too small (rarely) where remainder ≥ u.
    let under = !mask_below(remainder, U);
    quotient = quotient.wrapping_sub(under);
    remainder = remainder.wrapping_sub(U & under);
    (quotient, remainder)
}

/// `(n div u, n mod u)` for `n` given as little-endian 64-bit words, a
/// 2-by-1 division per word from the top (the results wiped on drop).
fn divide_by_u(n: &[u64; 4]) -> Zeroizing<([u64; 4], u64)> {
    let mut out = Zeroizing::new(([0u64; 4], 0u64));
    let (quotient, remainder) = &mut *out;
    for i in (0..4).rev() {
        (quotient[i], *remainder) = divide_word_by_u(*remainder, n[i]);
    }
    out
}

/// The base-u digits `d₀ .. d₃` of a scalar `k < r` given as 32
/// little-endian bytes (wiped on drop): three divisions by u.
fn base_u_digits(k: &[u8; 32]) -> Zeroizing<[u128; 4]> {
    let words = Zeroizing::new(core::array::from_fn(|i| {
        u64::from_le_bytes(k[8 * i..][..8].try_into().expect("8 bytes"))
    }));
    let first = divide_by_u(&words);
    let second = divide_by_u(&first.0);
    let third = divide_by_u(&second.0);
    // Without a branch on the digit (it is secret).
    let too_large = third.0[1..]
        .iter()
        .fold(u64::from(third.0[0] >= U), |any, &w| any | w);
    debug_assert_eq!(too_large, 0, "k < r < u⁴ has four base-u digits");
    Zeroizing::new([first.1, second.1, third.1, third.0[0]].map(u128::from))
}

/// The little-endian bytes of a coefficient below `2^128`.
fn coefficient(value: u128) -> Coefficient {
    let mut bytes = [0u8; 32];
    bytes[..16].copy_from_slice(&value.to_le_bytes());
    bytes
}

/// The coefficients of `P`, `Q = u·P`, `σ(P)` and `σ(Q)`, in that order
/// (each below `2^65`, wiped on drop), for a scalar `k < r` given as 32
/// little-endian bytes: `d₀ + d₂`, `d₁ + d₃`, `d₂` and `d₃` for k's base-u
/// digits (see the module documentation).
pub(super) fn split_by_u(k: &[u8; 32]) -> Zeroizing<[Coefficient; 4]> {
    let d = base_u_digits(k);
    Zeroizing::new([d[0] + d[2], d[1] + d[3], d[2], d[3]].map(coefficient))
}

/// The coefficients of `P` and `σ(P)`, `k₁ = (d₀ + d₂) + (d₁ + d₃)·u <
/// 2^129` and `k₂ = d₂ + d₃·u < 2^128` (wiped on drop), for a scalar `k <
/// r` given as 32 little-endian bytes (see the module documentation).
pub(super) fn split(k: &[u8; 32]) -> Zeroizing<[Coefficient; 2]> {
    let d = base_u_digits(k);
    let u = u128::from(U);
    // k₁ < 2^129 as its 128 low bits and the carries out of them: (d₁ +
    // d₃)·u for d₁ + d₃ = low + high·2^64 (high a bit), plus d₀ + d₂.
    let sum = Zeroizing::new(d[1] + d[3]);
    let (low, high) = (u128::from(*sum as u64), *sum >> 64);
    let (product, carry) = (low * u).overflowing_add((high * u) << 64);
    let (k1, last_carry) = product.overflowing_add(d[0] + d[2]);
    let mut first = coefficient(k1);
    first[16] = u8::from(carry) | u8::from(last_carry);
    Zeroizing::new([first, coefficient(d[2] + d[3] * u)])
}

/// [`split`] (`D = 2`) or [`split_by_u`] (`D = 4`) of each scalar,
/// coefficient by coefficient: `out[t][i]` is the coefficient of base `t`
/// of `scalars[i]` (wiped on drop).
pub(super) fn split_each<const D: usize>(
    scalars: &[[u8; 32]],
    split: impl Fn(&[u8; 32]) -> Zeroizing<[Coefficient; D]>,
) -> [Zeroizing<Vec<Coefficient>>; D] {
    let mut out: [Zeroizing<Vec<Coefficient>>; D] =
        core::array::from_fn(|_| Zeroizing::new(Vec::with_capacity(scalars.len())));
    for scalar in scalars {
        let coefficients = split(scalar);
        for (column, coefficient) in out.iter_mut().zip(coefficients.iter()) {
            column.push(*coefficient);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{divide_word_by_u, U};

    /// The 2-by-1 division against the compiler's 128-bit one, at the
    /// edges (where the corrections are taken) and on random words.
    #[test]
    fn word_division_matches() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut highs = vec![0, 1, 2, U >> 1, U - 2, U - 1];
        let mut lows = vec![0, 1, U - 1, U, U + 1, u64::MAX - 1, u64::MAX];
        for _ in 0..200 {
            highs.push(random() % U);
            lows.push(random());
        }
        for &high in &highs {
            for &low in &lows {
                let n = (u128::from(high) << 64) | u128::from(low);
                let expected = ((n / u128::from(U)) as u64, (n % u128::from(U)) as u64);
                assert_eq!(divide_word_by_u(high, low), expected, "{high:#x}, {low:#x}");
            }
        }
    }
}
