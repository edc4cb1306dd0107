//! Fixed-window exponentiation, written once for every backend.
//!
//! Constant time in the bases and the exponents: the window width, the number
//! of windows and every loop bound come from the exponent's *length* (public),
//! never from its value; each window performs exactly `w` squarings and one
//! multiplication (by the Montgomery form of 1 for a zero digit); and the
//! table entry is fetched by reading *every* entry and keeping the wanted one
//! with masks, so no memory address depends on a secret digit.

use zeroize::Zeroize;

use super::backend::{LaneArith, MAX_WINDOW_BITS};
use super::limbs::aligned::AlignedWords;
use super::limits::MAX_LANES;

/// Bits `[pos, pos + w)` of a little-endian limb string; limbs past its end
/// read as zero. `pos` and `w` are public, so are the limb indices; the
/// secret bits are only shifted and masked.
#[inline(always)]
fn window_digit(exponent: &[u64], pos: usize, w: usize) -> u64 {
    let limb = |i: usize| exponent.get(i).copied().unwrap_or(0);
    let (index, shift) = (pos / 64, pos % 64);
    let mut bits = limb(index) >> shift;
    if shift != 0 {
        bits |= limb(index + 1) << (64 - shift);
    }
    bits & ((1u64 << w) - 1)
}

/// `out = table[digits[j]]` in every lane `j` ([`LaneArith::select`]:
/// every entry is read, no branch and no address depends on a digit;
/// `masks` is scratch, one row per table entry, for backends that keep
/// their masks in memory).
#[inline(always)]
pub(crate) fn select_entry<'a, A: LaneArith<'a>>(
    table: &[u64],
    entry_words: usize,
    digits: &[u64],
    masks: &mut [[u64; MAX_LANES]],
    out: &mut [u64],
) {
    #[cfg(feature = "ct-planted-leak")]
    crate::planted_leak::table_index(table, digits[0] as usize * entry_words);
    A::select(&mut out[..entry_words], table, digits, masks);
}

/// Fills `table` with `base^i` (Montgomery form) for `i = 0 .. 2^w`, each
/// entry [`LaneArith::entry_words`] long and completed by the backend.
#[inline(always)]
fn build_table<'a, A: LaneArith<'a>>(arith: &mut A, residues: &[&[u64]], table: &mut [u64]) {
    let words = arith.words();
    let stride = arith.entry_words();
    arith.one(&mut table[..words]);
    arith.enter_mont(residues, &mut table[stride..stride + words]);
    for i in 2..table.len() / stride {
        let (done, rest) = table.split_at_mut(i * stride);
        let power = |j: usize| &done[j * stride..j * stride + words];
        let out = &mut rest[..words];
        if i % 2 == 0 {
            arith.sqr(out, power(i / 2));
        } else {
            arith.mul(out, power(i - 1), power(1));
        }
    }
    for entry in table.chunks_exact_mut(stride) {
        arith.complete_entry(entry);
    }
}

/// `results[j] = residues[j] ^ exponents[j] mod m_j` for every lane `j`.
///
/// `residues[j] < m_j` as 64-bit limbs; `exponents[j]` little-endian limbs of
/// which the low `exponent_bits` bits count (the length is public, leading
/// zero bits are processed like any other). Exponent 0 gives 1 mod m_j.
///
/// Always inlined, so a backend can run it inside its own
/// `#[target_feature]` function (see `LaneArith::exp`) and have the table
/// select compiled for its vector width too.
#[inline(always)]
pub(crate) fn mod_exp<'a, A: LaneArith<'a>>(
    arith: &mut A,
    residues: &[&[u64]],
    exponents: &[&[u64]],
    exponent_bits: usize,
    results: &mut [&mut [u64]],
) {
    let lanes = A::LANES;
    assert!(residues.len() == lanes && exponents.len() == lanes && results.len() == lanes);
    assert!(exponent_bits > 0, "exponents have at least one bit");
    let words = arith.words();
    let w = arith.window_bits(exponent_bits);
    assert!((1..=MAX_WINDOW_BITS).contains(&w));

    let stride = arith.entry_words();
    let mut table = AlignedWords::zeroed(stride << w);
    build_table(arith, residues, &mut table);

    let mut acc = AlignedWords::zeroed(words);
    let mut tmp = AlignedWords::zeroed(words);
    let mut picked = AlignedWords::zeroed(stride);
    let mut digits = [0u64; MAX_LANES];
    let mut masks = [[0u64; MAX_LANES]; 1 << MAX_WINDOW_BITS];
    let masks = &mut masks[..1 << w];

    let windows = exponent_bits.div_ceil(w);
    // The top window may be partial: its high bits lie past `exponent_bits`
    // and read as zero (callers pass exponents with no bit set there).
    for (d, e) in digits.iter_mut().zip(exponents) {
        *d = window_digit(e, (windows - 1) * w, w);
    }
    select_entry::<A>(&table, stride, &digits[..lanes], masks, &mut picked);
    acc.copy_from_slice(&picked[..words]);
    for window in (0..windows - 1).rev() {
        for _ in 0..w {
            arith.sqr(&mut tmp, &acc);
            core::mem::swap(&mut acc, &mut tmp);
        }
        for (d, e) in digits.iter_mut().zip(exponents) {
            *d = window_digit(e, window * w, w);
        }
        #[cfg(feature = "ct-planted-leak")]
        crate::planted_leak::exponent_digit_branch(&digits);
        select_entry::<A>(&table, stride, &digits[..lanes], masks, &mut picked);
        arith.mul_by_entry(&mut tmp, &acc, &picked);
        core::mem::swap(&mut acc, &mut tmp);
    }
    digits.zeroize();
    masks.iter_mut().for_each(|row| row.zeroize());
    arith.leave_mont(&acc, results);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_cross_limb_boundaries() {
        let e = [0x8000_0000_0000_0000u64, 0b101];
        assert_eq!(window_digit(&e, 63, 3), 0b011);
        assert_eq!(window_digit(&e, 64, 3), 0b101);
        assert_eq!(window_digit(&e, 126, 5), 0);
        assert_eq!(window_digit(&e, 0, 6), 0);
    }

    #[test]
    fn select_reads_the_wanted_entry() {
        use crate::mp::backend::portable::PortableArith;
        // 5 entries of 3 words; entry i holds 10·i + word index.
        let table: Vec<u64> = (0..5u64)
            .flat_map(|i| (0..3).map(move |k| 10 * i + k))
            .collect();
        let mut out = [0u64; 3];
        let mut masks = [[0u64; MAX_LANES]; 5];
        for digit in 0..5u64 {
            select_entry::<PortableArith<'_>>(&table, 3, &[digit], &mut masks, &mut out);
            assert_eq!(out, [10 * digit, 10 * digit + 1, 10 * digit + 2]);
        }
    }
}
