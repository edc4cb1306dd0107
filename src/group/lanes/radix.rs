//! Big-endian strings as digits of a power-of-two radix and back: what
//! each field's conversion between bytes and its digits is made of (P-256
//! and BLS12-381, 52 bits for AVX-512 IFMA and 29 for AVX2). Shifts and
//! masks at public positions only: the values may be secret.

/// The `N` digits of `bits` bits (least significant first) of a
/// big-endian string of at most `N · bits` bits.
pub(crate) fn digits_of_be<const N: usize>(bytes: &[u8], bits: usize) -> [u64; N] {
    debug_assert!(8 * bytes.len() <= N * bits && (8..64).contains(&bits));
    let mask = (1u64 << bits) - 1;
    let mut digits = [0u64; N];
    for (k, &byte) in bytes.iter().rev().enumerate() {
        let (digit, offset) = (8 * k / bits, 8 * k % bits);
        digits[digit] |= (u64::from(byte) << offset) & mask;
        // The byte's high bits, where it straddles two digits.
        if offset + 8 > bits && digit + 1 < N {
            digits[digit + 1] |= u64::from(byte) >> (bits - offset);
        }
    }
    digits
}

/// The big-endian string of `B` bytes of `N` digits of `bits` bits (each
/// below `2^bits`) of a value below `2^(8B)`.
pub(crate) fn be_of_digits<const B: usize, const N: usize>(
    digits: &[u64; N],
    bits: usize,
) -> [u8; B] {
    debug_assert!(8 * B <= N * bits && (8..64).contains(&bits));
    let mut out = [0u8; B];
    for (k, byte) in out.iter_mut().rev().enumerate() {
        let (digit, offset) = (8 * k / bits, 8 * k % bits);
        let mut value = digits[digit] >> offset;
        if offset + 8 > bits && digit + 1 < N {
            value |= digits[digit + 1] << (bits - offset);
        }
        *byte = value as u8;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` through `N` digits of `bits` bits and back.
    fn round_trip<const B: usize, const N: usize>(bytes: &[u8; B], bits: usize) {
        let digits: [u64; N] = digits_of_be(bytes, bits);
        assert!(digits.iter().all(|&d| d < 1 << bits));
        assert_eq!(&be_of_digits::<B, N>(&digits, bits), bytes);
    }

    #[test]
    fn digits_round_trip_at_both_radixes() {
        let mut bytes = [0u8; 48];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(0x9d) ^ 0x5a;
        }
        for pattern in [bytes, [0xff; 48], [0; 48]] {
            // P-256's strings (32 bytes) and BLS12-381's (48).
            let short: [u8; 32] = pattern[..32].try_into().unwrap();
            round_trip::<32, 5>(&short, 52);
            round_trip::<32, 9>(&short, 29);
            round_trip::<48, 8>(&pattern, 52);
            round_trip::<48, 14>(&pattern, 29);
        }
        // 2^255 + 1: the lowest and the top digit.
        let mut top = [0u8; 32];
        top[0] = 0x80;
        top[31] = 1;
        let digits: [u64; 9] = digits_of_be(&top, 29);
        assert_eq!(digits, [1, 0, 0, 0, 0, 0, 0, 0, 1 << (255 - 8 * 29)]);
        // 2^383 + 1 in 14 digits of 29 bits: bit 383 is bit 6 of digit 13,
        // from a byte that straddles digits 12 and 13.
        let mut top = [0u8; 48];
        top[0] = 0x80;
        top[47] = 1;
        let digits: [u64; 14] = digits_of_be(&top, 29);
        let mut expected = [0u64; 14];
        expected[0] = 1;
        expected[13] = 1 << (383 - 13 * 29);
        assert_eq!(digits, expected);
        assert_eq!(be_of_digits::<48, 14>(&digits, 29), top);
    }
}
