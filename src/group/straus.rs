//! Constant-time multi-scalar multiplication `Σ d_i·P_i` with *short secret*
//! scalars (the balancer of the batch check, docs/PROTOCOLS.md §3: κ-bit
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
use zeroize::{Zeroize, Zeroizing};

use super::PrimeOrderGroup;

/// Points per pass: a pass shares its doublings, and its tables (8 points
/// per input) stay in cache.
const CHUNK: usize = 128;

/// A short non-negative integer (up to 136 bits, little-endian bytes): a
/// verification factor `d ∈ [1, 2^κ]`, κ ≤ 128. Wiped on drop.
#[derive(Clone, Default)]
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

/// Signed radix-16 digits of a `bits`-bit scalar given as little-endian
/// bytes (bits past the bytes read as zero), least significant first, each
/// in `[-8, 8]`: `Σ digit_j·16^j` equals the scalar. Constant time: the
/// carry is computed arithmetically. (The IFMA engines recode 8 scalars
/// at once the same way: `toolkit::per_lane_digits`.)
pub(crate) fn signed_digits(le_bytes: &[u8], bits: usize) -> Zeroizing<Vec<i8>> {
    let mut digits = Zeroizing::new(vec![0i8; digit_count(bits)]);
    let mut carry = 0i16;
    for (j, digit) in digits.iter_mut().enumerate() {
        let byte = le_bytes.get(j / 2).copied().unwrap_or(0);
        let nibble = i16::from((byte >> (4 * (j % 2))) & 0x0f) + carry;
        // carry = 1 iff nibble >= 8 (nibble is in [0, 16]).
        carry = (nibble + 8) >> 4;
        *digit = (nibble - (carry << 4)) as i8;
    }
    digits
}

/// How many signed digits a scalar below `2^bits` has: one per nibble, and
/// one more for the carry out of the top nibble, which happens only when
/// that nibble holds 3 or 4 of the bits (with 1 or 2 it stays below 8 even
/// after the carry into it). Full-width ristretto255 scalars (253 bits)
/// and the balancer's factors (κ + 1 bits, 65 by default) need no extra
/// digit: 4 doublings and one addition fewer per multiplication.
pub(crate) fn digit_count(bits: usize) -> usize {
    bits.div_ceil(4) + usize::from(matches!(bits % 4, 0 | 3))
}

/// The arithmetic Straus's method needs: the accumulator's group operations
/// and the table entries it adds. Groups whose elements serve as entries
/// use [`Elements`]; a group may keep its table in a cheaper form to add
/// (BLS12-381: affine points, added with a mixed addition).
pub(crate) trait StrausArithmetic {
    /// The accumulator (a group element).
    type Point: Clone;
    /// A precomputed multiple.
    type Entry: Clone;
    /// The neutral element.
    fn identity() -> Self::Point;
    /// `2·p`.
    fn double(p: &Self::Point) -> Self::Point;
    /// `p + e` (complete: any inputs, constant time).
    fn add_entry(p: &Self::Point, e: &Self::Entry) -> Self::Point;
    /// `p + q`.
    fn add(p: &Self::Point, q: &Self::Point) -> Self::Point;
    /// For each point, its multiples `[1·P, …, 8·P]` (8 entries per point,
    /// in order).
    fn multiples(points: &[Self::Point]) -> Vec<Self::Entry>;
    /// The entry that adds nothing.
    fn entry_identity() -> Self::Entry;
    /// `if_true` if `choice` is set, else `if_false`, in constant time.
    fn entry_select(choice: Choice, if_true: &Self::Entry, if_false: &Self::Entry) -> Self::Entry;
    /// `−e`.
    fn entry_neg(e: &Self::Entry) -> Self::Entry;
}

/// Straus on a group's own elements and operations.
pub(crate) struct Elements<G>(core::marker::PhantomData<G>);

impl<G: PrimeOrderGroup> StrausArithmetic for Elements<G> {
    type Point = G::Element;
    type Entry = G::Element;
    fn identity() -> G::Element {
        G::identity()
    }
    fn double(p: &G::Element) -> G::Element {
        G::add(p, p)
    }
    fn add_entry(p: &G::Element, e: &G::Element) -> G::Element {
        G::add(p, e)
    }
    fn add(p: &G::Element, q: &G::Element) -> G::Element {
        G::add(p, q)
    }
    fn multiples(points: &[G::Element]) -> Vec<G::Element> {
        let mut table = Vec::with_capacity(8 * points.len());
        for p in points {
            let mut multiple = p.clone();
            table.push(multiple.clone());
            for _ in 1..8 {
                multiple = G::add(&multiple, p);
                table.push(multiple.clone());
            }
        }
        table
    }
    fn entry_identity() -> G::Element {
        G::identity()
    }
    fn entry_select(choice: Choice, if_true: &G::Element, if_false: &G::Element) -> G::Element {
        G::ct_select(choice, if_true, if_false)
    }
    fn entry_neg(e: &G::Element) -> G::Element {
        G::neg(e)
    }
}

/// `|digit|·P` from `table = [1·P, …, 8·P]`, negated if `digit < 0`; a scan
/// of the whole table with masked selects.
fn select<A: StrausArithmetic>(table: &[A::Entry], digit: i8) -> A::Entry {
    let (negative, magnitude) = sign_and_magnitude(digit);
    let mut chosen = A::entry_identity();
    for (j, entry) in table.iter().enumerate() {
        let hit = magnitude.ct_eq(&(j as u8 + 1));
        chosen = A::entry_select(hit, entry, &chosen);
    }
    let negated = A::entry_neg(&chosen);
    A::entry_select(negative, &negated, &chosen)
}

/// Whether a signed digit is negative, and its magnitude, without a
/// branch: `|d| = (d XOR m) − m` with `m` the sign mask.
pub(crate) fn sign_and_magnitude(digit: i8) -> (Choice, u8) {
    let negative = Choice::from((digit as u8) >> 7);
    let sign = i16::from(digit) >> 15;
    let magnitude = ((i16::from(digit) ^ sign) - sign) as u8;
    (negative, magnitude)
}

/// `Σ d_i·P_i` for short secret `d_i < 2^bits + 1` (see the module
/// documentation); constant time in the `d_i`.
pub(crate) fn short_msm_ct<A: StrausArithmetic>(
    scalars: &[ShortScalar],
    points: &[A::Point],
    bits: usize,
) -> A::Point {
    let mut total = A::identity();
    for (scalars, points) in scalars.chunks(CHUNK).zip(points.chunks(CHUNK)) {
        let tables = A::multiples(points);
        let digits: Vec<Zeroizing<Vec<i8>>> =
            scalars.iter().map(|d| signed_digits(&d.0, bits)).collect();
        let positions = digits.first().map_or(0, |d| d.len());
        let mut acc = A::identity();
        for position in (0..positions).rev() {
            for _ in 0..4 {
                acc = A::double(&acc);
            }
            for (table, digits) in tables.chunks_exact(8).zip(&digits) {
                acc = A::add_entry(&acc, &select::<A>(table, digits[position]));
            }
        }
        total = A::add(&total, &acc);
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
            let digits = signed_digits(&ShortScalar::from_parts(v, false).0, 128);
            assert!(digits.iter().all(|&d| (-8..=8).contains(&d)));
            assert_eq!(value(&digits), v as i128, "{v:#x}");
        }
        // Every width: the digit count, and the largest value and a few
        // others below 2^bits recompose.
        for bits in 1..=126 {
            let top = (1u128 << bits) - 1;
            for v in [top, top / 3, top / 5 * 4, 1 << (bits - 1), 0x88 & top] {
                let digits = signed_digits(&ShortScalar::from_parts(v, false).0, bits);
                assert_eq!(digits.len(), digit_count(bits), "{bits}");
                assert!(digits.iter().all(|&d| (-8..=8).contains(&d)));
                assert_eq!(value(&digits), v as i128, "{v:#x}, {bits} bits");
            }
        }
        // 2^128 itself (κ = 128).
        let digits = signed_digits(&ShortScalar::from_parts(0, true).0, 129);
        assert_eq!(digits.iter().rposition(|&d| d != 0), Some(32));
    }
}
