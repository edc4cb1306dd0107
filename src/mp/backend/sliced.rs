//! Word-sliced elements in SIMD registers, the one layout of the SIMD
//! backends (`avx2`, `ifma`): register `i` of an element holds digit `i` of
//! every lane, so word `k` of the element belongs to lane `k % LANES` (the
//! rule `LaneArith` states). The views between words and registers, the
//! slicing of per-lane digit strings, and the conversions of residues in
//! and out of that form are written here once, generic over the register.

use core::arch::x86_64::{__m256i, __m512i};

use zeroize::{Zeroize, Zeroizing};

use crate::mp::context::MontContext;
use crate::mp::limbs::convert::{limbs_to_radix, radix_to_limbs};
use crate::mp::limbs::masks;
use crate::mp::limits::MAX_LIMBS;

/// A SIMD register of 64-bit lanes.
///
/// # Safety
///
/// Only for register types that are `LANES` `u64`s with no padding, aligned
/// to their size, for which every bit pattern is a valid value.
pub(super) unsafe trait Register: Copy {
    /// 64-bit lanes per register.
    const LANES: usize = core::mem::size_of::<Self>() / 8;
}

// SAFETY: 4 u64 lanes, no padding, 32-byte alignment, any bit pattern valid.
unsafe impl Register for __m256i {}
// SAFETY: 8 u64 lanes, no padding, 64-byte alignment, any bit pattern valid.
unsafe impl Register for __m512i {}

/// The all-zero register (outside `#[target_feature]` code).
pub(super) fn zero<V: Register>() -> V {
    // SAFETY: an all-zero bit pattern is a valid `V` (`Register`'s contract).
    unsafe { core::mem::zeroed() }
}

/// Panics unless `words` is a whole number of registers starting at a
/// register-aligned address.
fn assert_whole_registers<V: Register>(words: &[u64]) {
    assert!(
        words.len().is_multiple_of(V::LANES)
            && (words.as_ptr() as usize).is_multiple_of(core::mem::align_of::<V>()),
        "aligned whole registers"
    );
}

/// Views register-aligned words as registers.
pub(super) fn as_registers<V: Register>(words: &[u64]) -> &[V] {
    assert_whole_registers::<V>(words);
    // SAFETY: the length is a whole number of registers and the start is
    // aligned for them (checked above); every bit pattern is a valid `V`.
    unsafe { core::slice::from_raw_parts(words.as_ptr().cast(), words.len() / V::LANES) }
}

/// [`as_registers`] for writing.
pub(super) fn as_registers_mut<V: Register>(words: &mut [u64]) -> &mut [V] {
    assert_whole_registers::<V>(words);
    // SAFETY: as in `as_registers`, and the exclusive borrow is carried over.
    unsafe { core::slice::from_raw_parts_mut(words.as_mut_ptr().cast(), words.len() / V::LANES) }
}

/// Views registers as their words (lane `j` of register `i` is word
/// `LANES·i + j`).
pub(super) fn as_words_mut<V: Register>(registers: &mut [V]) -> &mut [u64] {
    // SAFETY: a `V` is `LANES` u64s with no padding; u64 needs less
    // alignment; every bit pattern is a valid u64.
    unsafe {
        core::slice::from_raw_parts_mut(registers.as_mut_ptr().cast(), registers.len() * V::LANES)
    }
}

/// Word-slices per-lane digit strings into `digits` registers: register
/// `i` holds digit `i` of each lane.
pub(super) fn word_slice<V: Register>(lanes: &[&[u64]], digits: usize) -> Vec<V> {
    let mut registers = vec![zero::<V>(); digits];
    write_sliced(lanes, &mut registers);
    registers
}

/// [`word_slice`] into `out` (digits past a lane's string are zero).
fn write_sliced<V: Register>(lanes: &[&[u64]], out: &mut [V]) {
    debug_assert_eq!(lanes.len(), V::LANES);
    let words = as_words_mut(out);
    words.fill(0);
    for (j, lane) in lanes.iter().enumerate() {
        for (i, &digit) in lane.iter().enumerate() {
            words[V::LANES * i + j] = digit;
        }
    }
}

/// Residues (64-bit limbs, one per lane) as word-sliced `digit_bits`-bit
/// digits in `out` (one register per digit); the per-lane digits made on
/// the way are wiped.
pub(super) fn slice_residues<V: Register>(residues: &[&[u64]], digit_bits: usize, out: &mut [V]) {
    let digits = out.len();
    let mut lane_digits = Zeroizing::new(vec![0u64; V::LANES * digits]);
    for (lane, residue) in lane_digits.chunks_exact_mut(digits).zip(residues) {
        limbs_to_radix(residue, lane, digit_bits);
    }
    let lanes: Vec<&[u64]> = lane_digits.chunks_exact(digits).collect();
    write_sliced(&lanes, out);
}

/// Each lane of `sliced` (normalized `digit_bits`-bit digits of a value
/// below `2m_j`) as a residue fully reduced modulo its context's `m_j`, in
/// 64-bit limbs (one masked subtraction); `sliced` is wiped.
pub(super) fn unslice_residues<V: Register>(
    sliced: &mut [V],
    contexts: &[&MontContext],
    digit_bits: usize,
    residues: &mut [&mut [u64]],
) {
    let digits = sliced.len();
    let words = as_words_mut(sliced);
    let mut lane_digits = Zeroizing::new(vec![0u64; digits]);
    let mut value = Zeroizing::new([0u64; MAX_LIMBS]);
    for (j, (residue, ctx)) in residues.iter_mut().zip(contexts).enumerate() {
        for (i, d) in lane_digits.iter_mut().enumerate() {
            *d = words[V::LANES * i + j];
        }
        let n = ctx.limbs();
        radix_to_limbs(&lane_digits, &mut value[..n], digit_bits);
        masks::reduce_below_2m(residue, &value[..n], 0, ctx.modulus());
    }
    words.zeroize();
}
