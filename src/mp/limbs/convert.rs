//! Conversions between big-endian byte strings (the wire format of every
//! integer in oblivex) and little-endian `u64` limbs (the arithmetic format).
//! Written once, used by every backend. Loops run over the public lengths only,
//! so the conversions are constant time in the values.

/// Number of 64-bit limbs needed for `bytes` bytes.
pub(crate) const fn limbs_for_bytes(bytes: usize) -> usize {
    bytes.div_ceil(8)
}

/// Writes the big-endian integer `bytes` into `limbs` (little-endian, least
/// significant limb first). `limbs` must hold at least
/// `limbs_for_bytes(bytes.len())` limbs; any further limbs are set to zero.
pub(crate) fn be_bytes_to_limbs(bytes: &[u8], limbs: &mut [u64]) {
    assert!(
        limbs.len() >= limbs_for_bytes(bytes.len()),
        "limb buffer too short"
    );
    limbs.fill(0);
    for (i, &byte) in bytes.iter().rev().enumerate() {
        limbs[i / 8] |= u64::from(byte) << (8 * (i % 8));
    }
}

/// Writes `limbs` as a big-endian integer filling all of `out` (left-padded
/// with zeros). The value must fit: limbs beyond `out`'s width must be zero
/// (checked in debug builds; it is a caller bug otherwise).
pub(crate) fn limbs_to_be_bytes(limbs: &[u64], out: &mut [u8]) {
    let width = out.len();
    for (i, byte) in out.iter_mut().rev().enumerate() {
        *byte = limbs
            .get(i / 8)
            .map_or(0, |limb| (limb >> (8 * (i % 8))) as u8);
    }
    debug_assert!(
        limbs.iter().enumerate().all(|(k, &limb)| {
            let bits_kept = (width * 8).saturating_sub(64 * k).min(64);
            bits_kept == 64 || limb >> bits_kept == 0
        }),
        "value does not fit the output width"
    );
}

/// Bits per digit of the radix-2^52 representation used by the IFMA backend.
pub(crate) const RADIX52_BITS: usize = 52;

/// Splits 64-bit limbs into `bits`-bit digits (`digits[k]` = bits
/// `[bits·k, bits·(k+1))`, `bits` at most 63); digits past the value are
/// zero, bits past `digits.len()·bits` are dropped. Every backend in reduced
/// radix (52-bit IFMA digits, 27- to 29-bit AVX2 digits) converts here.
pub(crate) fn limbs_to_radix(limbs: &[u64], digits: &mut [u64], bits: usize) {
    assert!((1..64).contains(&bits), "a digit is narrower than a limb");
    let mask = (1u64 << bits) - 1;
    let limb = |i: usize| limbs.get(i).copied().unwrap_or(0);
    for (k, digit) in digits.iter_mut().enumerate() {
        let bit = k * bits;
        let (index, shift) = (bit / 64, bit % 64);
        let mut value = limb(index) >> shift;
        if shift > 64 - bits {
            value |= limb(index + 1) << (64 - shift);
        }
        *digit = value & mask;
    }
}

/// Joins normalized `bits`-bit digits (each `< 2^bits`) back into 64-bit
/// limbs; bits past `limbs.len()·64` must be zero (checked in debug builds).
pub(crate) fn radix_to_limbs(digits: &[u64], limbs: &mut [u64], bits: usize) {
    assert!((1..64).contains(&bits), "a digit is narrower than a limb");
    limbs.fill(0);
    for (k, &digit) in digits.iter().enumerate() {
        debug_assert!(digit >> bits == 0, "digit not normalized");
        let bit = k * bits;
        let (index, shift) = (bit / 64, bit % 64);
        if let Some(limb) = limbs.get_mut(index) {
            *limb |= digit << shift;
        } else {
            debug_assert_eq!(digit, 0, "value does not fit the limbs");
        }
        if shift > 64 - bits {
            if let Some(limb) = limbs.get_mut(index + 1) {
                *limb |= digit >> (64 - shift);
            } else {
                debug_assert_eq!(digit >> (64 - shift), 0, "value does not fit the limbs");
            }
        }
    }
}

/// Bit length of a public value (0 for zero). Variable time.
pub(crate) fn bit_length_vartime(limbs: &[u64]) -> usize {
    limbs
        .iter()
        .rposition(|&limb| limb != 0)
        .map_or(0, |top| 64 * top + 64 - limbs[top].leading_zeros() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_padding() {
        let bytes = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09];
        let mut limbs = [0u64; 3];
        be_bytes_to_limbs(&bytes, &mut limbs);
        assert_eq!(limbs, [0x0203_0405_0607_0809, 0x01, 0]);
        let mut out = [0xffu8; 12];
        limbs_to_be_bytes(&limbs, &mut out);
        assert_eq!(out, [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }

    #[test]
    fn radix52_round_trip() {
        let limbs = [0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210, 0x0f0f];
        let mut digits = [0u64; 4];
        limbs_to_radix(&limbs, &mut digits, RADIX52_BITS);
        assert_eq!(digits[0], 0x3_4567_89ab_cdef);
        assert_eq!(digits[1], 0x9_8765_4321_0012);
        assert!(digits.iter().all(|&d| d >> RADIX52_BITS == 0));
        let mut back = [0u64; 3];
        radix_to_limbs(&digits, &mut back, RADIX52_BITS);
        assert_eq!(back, limbs);
    }

    #[test]
    fn narrow_digits_round_trip() {
        let limbs = [u64::MAX, 0x8000_0000_0000_0001, 0x7f];
        for bits in [27, 28, 29] {
            let mut digits = vec![0u64; (3 * 64usize).div_ceil(bits)];
            limbs_to_radix(&limbs, &mut digits, bits);
            assert!(digits.iter().all(|&d| d >> bits == 0), "{bits}-bit digits");
            assert_eq!(digits[0], (1 << bits) - 1);
            let mut back = [0u64; 3];
            radix_to_limbs(&digits, &mut back, bits);
            assert_eq!(back, limbs, "{bits}-bit digits");
        }
    }

    #[test]
    fn bit_lengths() {
        assert_eq!(bit_length_vartime(&[0, 0]), 0);
        assert_eq!(bit_length_vartime(&[1, 0]), 1);
        assert_eq!(bit_length_vartime(&[0, 0x80]), 72);
    }
}
