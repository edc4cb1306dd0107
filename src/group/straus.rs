//! Constant-time multi-scalar multiplication `Σ d_i·P_i` with *short secret*
//! scalars (the balancer of the batch check, PROTOCOLS.md §3: κ-bit
//! verification factors that the server must never learn), written once
//! over the group trait.
//!
//! Straus's interleaved method with signed radix-16 digits: each point gets a
//! table `1·P .. 8·P`; for every digit position from the top, the shared
//! accumulator is multiplied by 16 (four doublings) and, for every point,
//! the table entry `|digit|·P` is read by a scan of the whole table with
//! masked selects, negated under a mask when the digit is negative, and
//! added. Which entry is read, and whether it is negated, therefore never
//! reaches a branch or an address; the work depends only on the number of
//! points and on `bits` (public). Digit 0 adds the identity, through the same
//! complete addition.

use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

use super::PrimeOrderGroup;

/// Points per pass: a pass shares its doublings, and its tables (8 points
/// per input) stay in cache.
const CHUNK: usize = 128;

/// A short non-negative integer (up to 136 bits, little-endian bytes): a
/// verification factor `d ∈ [1, 2^κ]`, κ ≤ 128. Wiped on drop.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ShortScalar(pub(crate) [u8; 17]);

impl ShortScalar {
    /// `value`, or `2^128` when `top` is set (then `value` must be zero).
    pub(crate) fn from_parts(value: u128, top: bool) -> ShortScalar {
        let mut bytes = [0u8; 17];
        bytes[..16].copy_from_slice(&value.to_le_bytes());
        bytes[16] = u8::from(top);
        ShortScalar(bytes)
    }

    /// `value` as a short scalar.
    pub fn from_u128(value: u128) -> ShortScalar {
        Self::from_parts(value, false)
    }

    /// The little-endian bytes.
    pub fn as_le_bytes(&self) -> &[u8; 17] {
        &self.0
    }

    /// The value as a group scalar (constant time).
    pub fn to_scalar<G: PrimeOrderGroup>(&self) -> G::Scalar {
        let mut low = [0u8; 8];
        let mut high = [0u8; 8];
        low.copy_from_slice(&self.0[..8]);
        high.copy_from_slice(&self.0[8..16]);
        let two_32 = G::scalar_from_u64(1 << 32);
        let two_64 = G::scalar_mul(&two_32, &two_32);
        let mut high_part = G::scalar_mul(&G::scalar_from_u64(u64::from_le_bytes(high)), &two_64);
        let mut top = G::scalar_mul(
            &G::scalar_mul(&G::scalar_from_u64(u64::from(self.0[16])), &two_64),
            &two_64,
        );
        let mut value = G::scalar_add(
            &G::scalar_add(&G::scalar_from_u64(u64::from_le_bytes(low)), &high_part),
            &top,
        );
        let result = value.clone();
        high_part.zeroize();
        top.zeroize();
        value.zeroize();
        low.zeroize();
        high.zeroize();
        result
    }
}

impl Zeroize for ShortScalar {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Drop for ShortScalar {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl core::fmt::Debug for ShortScalar {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("ShortScalar(..)")
    }
}

/// Signed radix-16 digits of a `bits`-bit scalar, least significant first,
/// each in `[-8, 8]`: `Σ digit_j·16^j` equals the scalar. Constant time: the
/// carry is computed arithmetically.
pub(crate) fn signed_digits(scalar: &ShortScalar, bits: usize) -> Vec<i8> {
    let count = bits.div_ceil(4) + 1;
    let mut digits = vec![0i8; count];
    let mut carry = 0i16;
    for (j, digit) in digits.iter_mut().enumerate() {
        let byte = scalar.0.get(j / 2).copied().unwrap_or(0);
        let nibble = i16::from((byte >> (4 * (j % 2))) & 0x0f) + carry;
        // carry = 1 iff nibble >= 8 (nibble is in [0, 16]).
        carry = (nibble + 8) >> 4;
        *digit = (nibble - (carry << 4)) as i8;
    }
    digits
}

/// `|digit|·P` from `table = [1·P, …, 8·P]`, negated if `digit < 0`; a scan
/// of the whole table with masked selects.
fn select<G: PrimeOrderGroup>(table: &[G::Element], digit: i8) -> G::Element {
    let negative = (digit as u8) >> 7;
    let magnitude = (digit as i16).unsigned_abs() as u8;
    let mut chosen = G::identity();
    for (j, entry) in table.iter().enumerate() {
        let hit = magnitude.ct_eq(&(j as u8 + 1));
        chosen = G::ct_select(hit, entry, &chosen);
    }
    let negated = G::neg(&chosen);
    G::ct_select(Choice::from(negative), &negated, &chosen)
}

/// `Σ d_i·P_i` for short secret `d_i < 2^bits + 1` (see the module
/// documentation); constant time in the `d_i`.
pub(crate) fn short_msm_ct<G: PrimeOrderGroup>(
    scalars: &[ShortScalar],
    points: &[G::Element],
    bits: usize,
) -> G::Element {
    let mut total = G::identity();
    for (scalars, points) in scalars.chunks(CHUNK).zip(points.chunks(CHUNK)) {
        let tables: Vec<Vec<G::Element>> = points
            .iter()
            .map(|p| {
                let mut table = Vec::with_capacity(8);
                table.push(p.clone());
                for j in 1..8 {
                    let next = G::add(&table[j - 1], p);
                    table.push(next);
                }
                table
            })
            .collect();
        let mut digits: Vec<Vec<i8>> = scalars.iter().map(|d| signed_digits(d, bits)).collect();
        let positions = digits.first().map_or(0, Vec::len);
        let mut acc = G::identity();
        for position in (0..positions).rev() {
            for _ in 0..4 {
                acc = G::add(&acc, &acc);
            }
            for (table, digits) in tables.iter().zip(&digits) {
                acc = G::add(&acc, &select::<G>(table, digits[position]));
            }
        }
        digits.iter_mut().for_each(|d| d.zeroize());
        total = G::add(&total, &acc);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(digits: &[i8]) -> i128 {
        digits
            .iter()
            .rev()
            .fold(0i128, |acc, &d| acc * 16 + i128::from(d))
    }

    #[test]
    fn signed_digits_recompose() {
        for v in [
            0u128,
            1,
            7,
            8,
            9,
            15,
            16,
            0x88,
            0xffff,
            u64::MAX as u128,
            1 << 100,
        ] {
            let digits = signed_digits(&ShortScalar::from_parts(v, false), 128);
            assert!(digits.iter().all(|&d| (-8..=8).contains(&d)));
            assert_eq!(value(&digits), v as i128, "{v:#x}");
        }
        // 2^128 itself (κ = 128).
        let digits = signed_digits(&ShortScalar::from_parts(0, true), 129);
        assert_eq!(digits.iter().rposition(|&d| d != 0), Some(32));
    }
}
