//! What the backends' unit tests share (test builds only): deterministic
//! test bytes, the base whose Montgomery form is 1, and the check of a
//! backend's table select.

use super::LaneArith;
use crate::mp::limbs::aligned::AlignedWords;
use crate::mp::limits::MAX_LANES;

/// `len` bytes of an xorshift stream seeded with `seed`.
pub(crate) fn data(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// `R^{-1} mod m` for `R = 2^r_bits`, as `m.len()` big-endian bytes: the
/// base whose Montgomery form (`x·R mod m`) is 1, so that the first
/// multiplication by it meets the smallest operand there is. `m` is odd
/// (big-endian bytes).
pub(crate) fn base_of_montgomery_form_one(m: &[u8], r_bits: usize) -> Vec<u8> {
    use num_bigint::BigUint;
    let modulus = BigUint::from_bytes_be(m);
    let inverse = (BigUint::from(1u8) << r_bits)
        .modinv(&modulus)
        .expect("an odd modulus is prime to R");
    let bytes = inverse.to_bytes_be();
    let mut out = vec![0u8; m.len()];
    out[m.len() - bytes.len()..].copy_from_slice(&bytes);
    out
}

/// `A::select` gives each lane the entry of its own digit, whatever the
/// other lanes want, for every digit (lane `j` wants entry `(stride·j +
/// shift) mod entries`), for entries of each of `digit_counts` registers
/// (whole blocks of registers and partial ones).
pub(crate) fn assert_select_picks_each_lanes_entry<'a, A: LaneArith<'a>>(
    entries: usize,
    digit_counts: &[usize],
    stride: usize,
) {
    let lanes = A::LANES;
    let mut masks = vec![[0u64; MAX_LANES]; entries];
    for &digits_per_entry in digit_counts {
        let words = lanes * digits_per_entry;
        let mut table = AlignedWords::zeroed(words * entries);
        for (i, word) in table.iter_mut().enumerate() {
            *word = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        }
        for shift in 0..entries {
            let digits: Vec<u64> = (0..lanes)
                .map(|j| ((stride * j + shift) % entries) as u64)
                .collect();
            let mut out = AlignedWords::zeroed(words);
            A::select(&mut out, &table, &digits, &mut masks);
            for (k, &word) in out.iter().enumerate() {
                let wanted = digits[k % lanes] as usize;
                assert_eq!(
                    word,
                    table[wanted * words + k],
                    "{digits_per_entry} digits, word {k}"
                );
            }
        }
    }
}
