//! Montgomery squaring with the square and the word-by-word reduction
//! fused into one straight-line pass over a register window: no product
//! column goes through memory (small `L`; the profile chooses it,
//! `tuning.rs`).
//!
//! The window holds the `L + 1` live columns `i .. i + L` while row `i`
//! runs (`acc[p]` is column `i + p`). Row `i` adds the reduction's row
//! (`y_i·m`, `y_i` taken from column `i`, which it clears; the carry into
//! column `i + 1`) and the square's row `i` (operand scanning: `a_i^2` at
//! columns `2i, 2i+1`, `a_i·(2a)_j` for `j > i` at `i+j, i+j+1`), then
//! slides the window. Column `i` receives nothing from the square's rows
//! after row `i/2`, so it is complete when its quotient digit is taken.
//! The dependency chain from row to row (`hi(y_i·m_0)` and `lo(y_i·m_1)`
//! side by side, their sum into column `i + 1`, `y_{i+1}`; column `i`'s
//! carry comes from an addition and a shift off the chain, see
//! `montgomery::cleared_carry`) comes first in each row's code, so that
//! the processor, which issues the oldest ready instruction first, starts
//! the next row while the square's multiply-adds (off the chain: the
//! square's row `i >= 2` only touches columns `>= i + 2`) and the rest of
//! `y_i·m` keep the multiplier busy. Empty `asm` barriers hold the
//! compiler to that order (`row_boundary`, `sequence_after`).
//!
//! Each cross product is formed once: the other operand is `b = 2a` with
//! digits normalized in their low 52 bits, the only bits a multiply-add
//! reads: `b_j = 2a_j − t_j·2^52 + t_{j−1}` there (`t_j` the top bit
//! of `a_j`; `2a < R`, from `a < 2m` and `R >= 4m` or from `a < 4m` and
//! `R >= 16m`, so `t_{L−1} = 0` and `b` has `L` digits).
//! Then `Σ_{i<j} a_i·b_j·β^(i+j) = 2·Σ_{i<j} a_i·a_j·β^(i+j) +
//! Σ_k t_k·a_k·β^(2k+1)` (`β = 2^52`; the terms `i < k` of `t_k` cancel
//! between the two shifted sums). The surplus term of row `k` lands where
//! its first cross product `a_k·b_{k+1}` does, and `b_{k+1}` holds `t_k`
//! as its lowest bit, so row `k` takes that one product with `b'_{k+1} =
//! b_{k+1} − t_k = 2a_{k+1} mod β` instead: the surplus is never added
//! (`b'_{k+1}` is the doubling inside `b_{k+1}`, where subtracting the
//! surplus took four operations a row; `t_{L−1} = 0`,
//! so the last row, which has no cross product, has no surplus either).
//! Multiply-adds: `L^2 + L` for the square, `2L^2` for the reduction (the
//! quotient digits included), as the separated kernels.
//!
//! Column bounds as in `montgomery.rs`: a column collects at most `2L`
//! halves of the square and `2L` of `y·m`, each `< 2^52`, plus a carry:
//! below `2^62`, and never negative.

use core::arch::x86_64::*;

use super::montgomery::{
    carry_and_high_0, carry_window_out, debug_assert_column_bound, debug_assert_normalized,
    mont_sqr, Modulus,
};
use super::tuning::{tuning, Profile};
use super::vectors::{lanes, Workspace};

/// Largest digit count of the fused squaring: `L + 1` accumulators, two
/// quotient digits, the row's digit `a_i`, `m'_0` and a temporary must fit
/// in the 32 zmm registers with room for the compiler's scheduling.
const MAX_FUSED_DIGITS: usize = 24;

/// The squaring profile `P` chooses for `L` digits, the kernels' one entry
/// for squarings (`dispatch!`): the fused pass where the profile asks for
/// it and the size has one (20 digits), otherwise `montgomery.rs`'s
/// [`mont_sqr`] (strips, or Karatsuba, and a reduction). The choice is a
/// constant of the instance outside test builds.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn mont_sqr_chosen<const L: usize, const TI: usize, P: Profile>(
    l: usize,
    modulus: &Modulus<'_>,
    work: &mut Workspace,
    out: &mut [__m512i],
    a: &[__m512i],
) {
    if L == 20 && tuning::<P>(L).fused_square {
        mont_sqr_fused::<20>(modulus, out, a);
    } else {
        mont_sqr::<L, TI, P>(l, modulus, work, out, a);
    }
}

/// `out = a^2·R^{-1} mod m`, `out < 2m`, for `a < 2m`, or `a < 4m` where
/// `R >= 16m` (normalized digits), in one straight-line pass (see the
/// module documentation).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
// The last row's (and the unrolled list's dead rows') next quotient digit
// is assigned and not read.
#[allow(unused_assignments)]
pub(super) fn mont_sqr_fused<const L: usize>(
    modulus: &Modulus<'_>,
    out: &mut [__m512i],
    a: &[__m512i],
) {
    const { assert!(L >= 2 && L <= MAX_FUSED_DIGITS) };
    let zero = _mm512_setzero_si512();
    let a = &a[..L];
    debug_assert_normalized(a);
    let m = &modulus.m_padded[1..L + 1];
    let k0 = modulus.m_prime[0];

    // `2a_j`, whose low 52 bits are `2a_j mod β`: the digit `b'_j` of row
    // `j − 1`, and the low part of `b_j`. Its bit 52 (`t_j`) is not
    // cleared: these values are only ever multiplier operands, and
    // VPMADD52 reads the low 52 bits of its operands. On Intel's cores
    // the multiply-adds share two ports with every other vector operation,
    // and this squaring is bound by them: each operation left out is a
    // cycle's half (docs/PERFORMANCE.md).
    let doubled = |digit: __m512i| _mm512_add_epi64(digit, digit);
    // b = 2a, normalized in its low 52 bits: each digit's top bit moves
    // into the next digit.
    let mut b = [zero; MAX_FUSED_DIGITS];
    unrolled_window!(j < L => {
        b[j] = if j == 0 {
            doubled(a[j])
        } else {
            _mm512_or_si512(doubled(a[j]), _mm512_srli_epi64::<51>(a[j.saturating_sub(1)]))
        };
    });
    debug_assert!(
        lanes(a[L - 1]).iter().all(|&d| d < 1 << 51),
        "2a < R: the top digit's top bit is clear"
    );

    // Indexed only by compile-time constants (`unroll.rs`): the window lives
    // in registers.
    let mut acc = [zero; MAX_FUSED_DIGITS + 1];

    // The square's row `$i` (window at column `$i`), the terms whose
    // position `$p` passes `$wanted`: the diagonal at positions i, i+1,
    // and a_i·b_j at j, j+1 for j > i, with b'_{i+1} (b_{i+1} without the
    // carried bit t_i) in place of b_{i+1}, which leaves out the surplus
    // t_i·a_i at i+1 (see the module documentation).
    macro_rules! square_row {
        ($i:expr, $ai:expr, |$p:ident| $wanted:expr) => {{
            let i: usize = $i;
            let ai: __m512i = $ai;
            if { let $p = i; $wanted } {
                acc[i] = _mm512_madd52lo_epu64(acc[i], ai, ai);
            }
            if { let $p = i + 1; $wanted } {
                acc[i + 1] = _mm512_madd52hi_epu64(acc[i + 1], ai, ai);
            }
            unrolled_window!(j < L => {
                if j > i {
                    let bj = if j == i + 1 { doubled(a[j]) } else { b[j] };
                    if { let $p = j; $wanted } {
                        acc[j] = _mm512_madd52lo_epu64(acc[j], ai, bj);
                    }
                    if { let $p = j + 1; $wanted } {
                        acc[j + 1] = _mm512_madd52hi_epu64(acc[j + 1], ai, bj);
                    }
                }
            });
        }};
    }

    // Each row first finishes columns i and i+1 and takes the next
    // quotient digit (the dependency chain from row to row), then adds the
    // rest of y·m and the square's row, which wait for nothing but the
    // quotient digit: the processor issues the next quotient digit as soon
    // as it is ready, ahead of this row's bulk. Square terms that land in
    // columns i or i+1 (rows 0 and 1 only) come before the chain; every
    // other term lands in a column >= i + 2, whose quotient digit is taken
    // in a later row.
    square_row!(0, a[0], |p| p <= 1);
    let mut y = _mm512_madd52lo_epu64(zero, acc[0], k0);
    unrolled_window!(i < L => {
        if i == 1 {
            square_row!(1, a[1], |p| p <= 1);
        }
        // Column i + 1 is complete but for y's terms.
        let y_next = quotient_chain(&mut acc, y, m, k0, i + 1 < L);
        // The rest of the row after the next quotient digit (in the code:
        // the processor issues the oldest ready instruction first).
        let mut ai = a[i];
        sequence_after(y_next, &mut y, &mut ai);
        // SAFETY: this kernel runs only with AVX-512F and IFMA.
        unsafe { reduction_row_rest::<L>(&mut acc, y, m) };
        square_row!(i, ai, |p| p >= 2);
        slide_window::<L>(&mut acc);
        y = y_next;
    });

    finish_window::<L>(&acc, out);
}

/// The chain from one quotient digit to the next in a register-window
/// kernel (this squaring, `half.rs`'s rows), with the window at column
/// `i` (`acc[p]` is column `i + p`) and column `i + 1` complete but for
/// `y`'s terms: column `i`, cleared by `lo(y·m_0)`, is never formed (its
/// carry, `cleared_carry`, does not wait for `y`), and `hi(y·m_0)` goes
/// into the carry's register ([`carry_and_high_0`]) beside `lo(y·m_1)`,
/// so that the chain is two multiply-adds side by side and an addition.
/// Returns the next quotient digit (zero where `next` is false: the last
/// row).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn quotient_chain(
    acc: &mut [__m512i],
    y: __m512i,
    m: &[__m512i],
    k0: __m512i,
    next: bool,
) -> __m512i {
    let zero = _mm512_setzero_si512();
    debug_assert_column_bound(acc[0]);
    let carry_and_high = carry_and_high_0(acc[0], y, m[0]);
    acc[1] = _mm512_madd52lo_epu64(acc[1], y, m[1]);
    acc[1] = _mm512_add_epi64(acc[1], carry_and_high);
    if next {
        _mm512_madd52lo_epu64(zero, acc[1], k0)
    } else {
        zero
    }
}

/// The rest of the reduction row `y·m` after [`quotient_chain`]: the
/// halves at positions `>= 2` of the window.
///
/// Always inlined (a call would put the window in memory; as an `#[inline]`
/// target-feature function LLVM left it a call inside the half-form
/// product), so it has no `#[target_feature]` of its own: the two do not
/// go together, and its intrinsics compile with the caller's.
///
/// # Safety
///
/// Only on a CPU with AVX-512F and IFMA.
#[inline(always)]
pub(super) unsafe fn reduction_row_rest<const L: usize>(
    acc: &mut [__m512i],
    y: __m512i,
    m: &[__m512i],
) {
    // Two views of `m`, so that each digit is read once per half, as that
    // multiply-add's memory operand (see `reloaded`).
    let (m_lo, m_hi) = (reloaded(m), reloaded(m));
    unrolled_window!(j < L => {
        // SAFETY: the caller runs on a CPU with AVX-512F and IFMA.
        unsafe {
            if j >= 1 {
                acc[j + 1] = _mm512_madd52hi_epu64(acc[j + 1], y, m_hi[j]);
            }
            if j >= 2 {
                acc[j] = _mm512_madd52lo_epu64(acc[j], y, m_lo[j]);
            }
        }
    });
}

/// Slides the window one column up at the end of a row (column `i + 1`
/// becomes position 0; the top position starts empty) and marks the row's
/// end for the compiler ([`row_boundary`]).
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn slide_window<const L: usize>(acc: &mut [__m512i]) {
    unrolled_window!(j < L => {
        acc[j] = acc[j + 1];
    });
    acc[L] = _mm512_setzero_si512();
    unrolled_window!(j < L + 1 => {
        row_boundary(&mut acc[j]);
    });
}

/// The last pass of a register-window kernel: the window's first `L`
/// columns carried into `out`, checked to fit (debug builds).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn finish_window<const L: usize>(acc: &[__m512i], out: &mut [__m512i]) {
    let carry = carry_window_out::<L>(acc, out);
    debug_assert!(lanes(carry).iter().all(|&c| c == 0), "result < R");
}

/// Marks the end of a row for the compiler: `v` (an accumulator) is in a
/// register here and unchanged. Without it LLVM schedules the straight
/// line by columns, each a chain of dependent multiply-adds, and spills
/// the window; with it every row's work stays between its boundaries (the
/// processor still overlaps rows: nothing is emitted).
#[inline]
#[target_feature(enable = "avx512f")]
fn row_boundary(v: &mut __m512i) {
    // SAFETY: an empty instruction sequence: `v` is unchanged, only hidden
    // from the optimiser (no memory, stack or flags touched).
    unsafe {
        core::arch::asm!(
            "/* {0} */",
            inout(zmm_reg) * v,
            options(nomem, nostack, preserves_flags)
        );
    }
}

/// Orders the compiler's code: `first` is computed before anything that
/// uses `y` or `ai` after this point (both pass through unchanged; nothing
/// is emitted).
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn sequence_after(first: __m512i, y: &mut __m512i, ai: &mut __m512i) {
    // SAFETY: an empty instruction sequence: `y` and `ai` are unchanged,
    // only hidden from the optimiser (no memory, stack or flags touched).
    unsafe {
        core::arch::asm!(
            "/* {0} {1} {2} */",
            in(zmm_reg) first,
            inout(zmm_reg) *y,
            inout(zmm_reg) *ai,
            options(nomem, nostack, preserves_flags)
        );
    }
}

/// `operand` itself, its address hidden from the optimiser (nothing is
/// emitted), for the register-window kernels' rows to read their operands
/// from memory, as the multiply-adds' memory operands.
///
/// Otherwise LLVM loads each digit once into a register, for all rows (the
/// half-form product's `a`, `b`, `k` and `m`, which then spill: the window
/// takes most registers) or for a row's two halves (`m` in
/// [`reduction_row_rest`], through one view: a load, then two
/// register-operand multiply-adds). With a view per use the 20-digit
/// squaring is a quarter fewer instructions and code bytes; alone it runs
/// no faster, but the exponentiation's loop, whose code had outgrown what
/// the processor's front end holds, runs faster (docs/PERFORMANCE.md,
/// "Fewer operations, less code"). Row-by-row views are what the names
/// inside `product_row!` (resolved where the macro is defined) take in the
/// half-form product.
#[inline]
// The asm only passes the address through; it reads and writes no memory.
#[allow(clippy::pointers_in_nomem_asm_block)]
pub(super) fn reloaded(operand: &[__m512i]) -> &[__m512i] {
    let mut address = operand.as_ptr();
    // SAFETY: an empty instruction sequence: `address` is unchanged, only
    // hidden from the optimiser (no memory, stack or flags touched).
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) address, options(nomem, nostack, preserves_flags));
    }
    // SAFETY: `address` is `operand`'s own address, so this is `operand`
    // again, with its length and lifetime.
    unsafe { core::slice::from_raw_parts(address, operand.len()) }
}
