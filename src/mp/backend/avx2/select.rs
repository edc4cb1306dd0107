//! The AVX2 table select: every entry read, each lane keeping the one its
//! digit names through a mask made in registers.

use core::arch::x86_64::*;

use super::columns::Digits;
use super::VECTOR_LANES;

/// Registers selected together: their accumulators stay in registers
/// while every entry passes (an AND and an OR per register and entry, the
/// entry's digit a memory operand; one store per register).
const SELECT_BLOCK: usize = 8;

/// `out = entry digits[lane]` of `table` in each lane ([`LaneArith::select`](
/// crate::mp::backend::LaneArith::select)), a block of registers at a time
/// (whole blocks, then the rest as one shorter block: no per-register
/// tests). The lane masks are made in registers from the 4 digits, once
/// per entry and block: no mask goes through memory.
#[target_feature(enable = "avx2")]
pub(super) fn select_avx2(out: &mut [Digits], table: &[Digits], digits: &[u64]) {
    assert_eq!(digits.len(), VECTOR_LANES, "one digit per lane");
    // SAFETY: 4 words are readable at `digits` (checked above); an
    // unaligned load.
    let wanted = unsafe { _mm256_loadu_si256(digits.as_ptr().cast()) };
    let words = out.len();
    let whole = words - words % SELECT_BLOCK;
    for start in (0..whole).step_by(SELECT_BLOCK) {
        select_block::<SELECT_BLOCK>(out, table, wanted, start);
    }
    match words - whole {
        0 => {}
        1 => select_block::<1>(out, table, wanted, whole),
        2 => select_block::<2>(out, table, wanted, whole),
        3 => select_block::<3>(out, table, wanted, whole),
        4 => select_block::<4>(out, table, wanted, whole),
        5 => select_block::<5>(out, table, wanted, whole),
        6 => select_block::<6>(out, table, wanted, whole),
        _ => select_block::<7>(out, table, wanted, whole),
    }
}

/// Registers `start .. start + N` of the entry `wanted` names in each lane.
#[inline]
#[target_feature(enable = "avx2")]
fn select_block<const N: usize>(
    out: &mut [Digits],
    table: &[Digits],
    wanted: Digits,
    start: usize,
) {
    let words = out.len();
    let one = _mm256_set1_epi64x(1);
    let mut index = _mm256_setzero_si256();
    let mut acc = [_mm256_setzero_si256(); N];
    for entry in table.chunks_exact(words) {
        let mask = lane_mask_eq(wanted, index);
        index = _mm256_add_epi64(index, one);
        let entry = &entry[start..][..N];
        unrolled!(k < N => {
            acc[k] = _mm256_or_si256(acc[k], _mm256_and_si256(entry[k], mask));
        });
    }
    out[start..start + N].copy_from_slice(&acc);
}

/// All-ones in the lanes where `a == b`, zeros elsewhere, hidden from the
/// optimiser: seen as a comparison, the mask could let LLVM turn the AND
/// and OR into a VPMASKMOVQ, a load whose reach depends on a secret mask,
/// or a secret mask back into a branch (the lane engines' AVX2 field takes
/// its secret lane masks from here too).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn lane_mask_eq(a: Digits, b: Digits) -> Digits {
    let mut mask = _mm256_cmpeq_epi64(a, b);
    // SAFETY: an empty instruction sequence: `mask` is unchanged, only
    // hidden from the optimiser (no memory, stack or flags touched).
    unsafe {
        core::arch::asm!("/* {0} */", inout(ymm_reg) mask, options(pure, nomem, nostack, preserves_flags));
    }
    mask
}
