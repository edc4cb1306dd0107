//! 256-bit big-endian strings as digits of a power-of-two radix and back:
//! what each field's conversion between bytes and its digits (52 bits for
//! AVX-512 IFMA, 29 for AVX2) is made of. Shifts and masks at public
//! positions only: the values may be secret.

/// The little-endian 64-bit words of a big-endian 256-bit string.
fn words_of_be(bytes: &[u8; 32]) -> [u64; 4] {
    core::array::from_fn(|i| {
        let start = 32 - 8 * (i + 1);
        u64::from_be_bytes(bytes[start..start + 8].try_into().expect("8 bytes"))
    })
}

/// The `N` digits of `bits` bits (least significant first) of a
/// big-endian 256-bit string (`N · bits ≥ 256`).
pub(crate) fn digits_of_be<const N: usize>(bytes: &[u8; 32], bits: usize) -> [u64; N] {
    debug_assert!(N * bits >= 256 && bits < 64);
    let words = words_of_be(bytes);
    let mask = (1u64 << bits) - 1;
    core::array::from_fn(|i| {
        let (word, offset) = (bits * i / 64, bits * i % 64);
        if word >= 4 {
            return 0;
        }
        let mut digit = words[word] >> offset;
        if offset + bits > 64 && word + 1 < 4 {
            digit |= words[word + 1] << (64 - offset);
        }
        digit & mask
    })
}

/// The big-endian 256-bit string of `N` digits of `bits` bits (each below
/// `2^bits`) of a value below 2^256.
pub(crate) fn be_of_digits<const N: usize>(digits: &[u64; N], bits: usize) -> [u8; 32] {
    let mut words = [0u64; 4];
    for (i, &digit) in digits.iter().enumerate() {
        let (word, offset) = (bits * i / 64, bits * i % 64);
        if word >= 4 {
            continue;
        }
        words[word] |= digit << offset;
        if offset + bits > 64 && word + 1 < 4 {
            words[word + 1] |= digit >> (64 - offset);
        }
    }
    let mut out = [0u8; 32];
    for (i, word) in words.iter().enumerate() {
        out[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_round_trip_at_both_radixes() {
        let mut bytes = [0u8; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(0x9d) ^ 0x5a;
        }
        for pattern in [bytes, [0xff; 32], [0; 32]] {
            let limbs: [u64; 5] = digits_of_be(&pattern, 52);
            assert!(limbs.iter().all(|&l| l < 1 << 52));
            assert_eq!(be_of_digits(&limbs, 52), pattern);
            let digits: [u64; 9] = digits_of_be(&pattern, 29);
            assert!(digits.iter().all(|&d| d < 1 << 29));
            assert_eq!(be_of_digits(&digits, 29), pattern);
        }
        // 2^255 + 1: the lowest and the top digit.
        let mut top = [0u8; 32];
        top[0] = 0x80;
        top[31] = 1;
        let digits: [u64; 9] = digits_of_be(&top, 29);
        assert_eq!(digits, [1, 0, 0, 0, 0, 0, 0, 0, 1 << (255 - 8 * 29)]);
    }
}
