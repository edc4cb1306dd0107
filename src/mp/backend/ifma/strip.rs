//! The inner kernel of every IFMA product: one *strip* of `TI` rows.
//!
//! A product `x·y` of word-sliced numbers is a grid of partial products
//! `x_i·y_j`; VPMADD52LUQ adds the low 52 bits of each to column `i+j` and
//! VPMADD52HUQ the high 52 bits to column `i+j+1`. A strip keeps `TI` rows
//! `x_i0 .. x_i0+TI` in registers and streams `y_j` one step at a time;
//! step `j` touches columns `i0+j .. i0+j+TI`, so `TI+1` accumulators live
//! in registers and slide: after step `j` column `i0+j` is complete and is
//! added to memory. Each `y_j` load feeds `2·TI` multiply-adds.
//!
//! Triangular products (squares, and the two half products of the
//! reduction) cut the grid along a diagonal. Strips are aligned so that the
//! cut always crosses the first or last `TI` steps in the same pattern, which
//! is then a compile-time `EDGE` shape: no partial product outside the wanted
//! region is computed, and none inside is missed.

use core::arch::x86_64::*;

/// Widest strip: 10 rows + 11 accumulators + the streamed operand use 22
/// of the 32 zmm registers.
pub(super) const MAX_ROWS: usize = 10;

/// Every row takes part in every step.
pub(super) const FULL: u8 = 0;
/// Head of a strip over `j >= i0`: row `k` takes part once `j > i0 + k`
/// (cross products `i < j` of a square).
pub(super) const HEAD_ABOVE_DIAGONAL: u8 = 1;
/// Head of a strip starting at `j0 = bound - (TI-1) - i0`: row `k` takes part
/// once `i + j >= bound` (the high half of a product).
pub(super) const HEAD_ANTI_DIAGONAL: u8 = 2;
/// Tail of a strip ending at `j = bound - i0`: row `k` takes part while
/// `i + j <= bound` (the low half of a product).
pub(super) const TAIL_ANTI_DIAGONAL: u8 = 3;

/// `TI` rows of the left operand, held in registers for one strip.
pub(super) type Rows = [__m512i; MAX_ROWS];

/// Loads rows `x[i0 .. i0+TI]`.
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) fn load_rows<const TI: usize>(x: &[__m512i], i0: usize) -> Rows {
    let mut rows = [_mm512_setzero_si512(); MAX_ROWS];
    rows[..TI].copy_from_slice(&x[i0..i0 + TI]);
    rows
}

/// Where a strip reads and writes.
#[derive(Clone, Copy)]
pub(super) struct Span {
    /// Index in `y` of the first streamed operand `y_j0`.
    pub(super) y_first: usize,
    /// Number of steps (`>= TI`).
    pub(super) steps: usize,
    /// Column of step 0's lowest partial product (`i0 + j0`).
    pub(super) col0: usize,
    /// Columns from here up hold no value yet: the strip stores into them
    /// instead of adding (saves zeroing the columns first; stores are the
    /// scarce resource on 256-bit store paths).
    pub(super) fresh_from: usize,
}

/// [`strip`]'s own instance for the Karatsuba square's half squares
/// (`karatsuba.rs`), as a tag of [`strip_instance`]. A strip shape called
/// from two kernels has two callers and is no longer inlined into either
/// (`objdump` showed the 20-digit square calling its strips and copying
/// their rows when the half squares shared them): the half squares,
/// which have the plain squares' shape, get a copy of their own.
pub(super) const HALF_SQUARE: u8 = 1;

/// The copy of [`strip`] every kernel but the half squares calls.
const SHARED: u8 = 0;

/// [`strip_instance`] in its shared copy.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn strip<const TI: usize, const HEAD: u8, const TAIL: u8, const DOUBLE: bool>(
    rows: &Rows,
    y: &[__m512i],
    out: &mut [__m512i],
    span: Span,
) {
    strip_instance::<TI, HEAD, TAIL, DOUBLE, SHARED>(rows, y, out, span);
}

/// Adds the partial products of `rows` (rows `i0 .. i0+TI`) with
/// `y[span.y_first ..][.. span.steps]` to the columns of `out`, where step
/// `s` (`j = j0 + s`) has its lowest column at `out[span.col0 + s]`.
/// `HEAD`/`TAIL` shape the first/last `TI` steps (see the constants above; a
/// strip has at most one of the two). With `DOUBLE`, every product is added
/// twice (the cross products of a square). `COPY` only tells instances
/// apart ([`HALF_SQUARE`]); the code is the same.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn strip_instance<
    const TI: usize,
    const HEAD: u8,
    const TAIL: u8,
    const DOUBLE: bool,
    const COPY: u8,
>(
    rows: &Rows,
    y: &[__m512i],
    out: &mut [__m512i],
    span: Span,
) {
    let Span {
        y_first,
        steps,
        col0,
        fresh_from,
    } = span;
    debug_assert!(TI <= MAX_ROWS && steps >= TI && (HEAD == FULL || TAIL == FULL));
    let y = &y[y_first..y_first + steps];
    let out = &mut out[col0..col0 + steps + TI + 1];
    // Column i is fresh (stored, not added to) from this index on.
    let fresh = fresh_from.saturating_sub(col0);
    let zero = _mm512_setzero_si512();
    // Indexed only by compile-time constants (see `unroll.rs`), so the
    // accumulators and rows live in registers.
    let mut acc = [zero; MAX_ROWS + 1];
    macro_rules! flush {
        ($i:expr, $k:expr) => {{
            let i: usize = $i;
            let value = acc[$k];
            let done = if DOUBLE {
                _mm512_add_epi64(value, value)
            } else {
                value
            };
            out[i] = if i >= fresh {
                done
            } else {
                _mm512_add_epi64(out[i], done)
            };
        }};
    }

    // One step: row k adds lo(x_k·y_j) to acc[k] and hi(x_k·y_j) to
    // acc[k+1] when `$active` holds for it; then the lowest column is
    // complete and leaves for memory, and the window slides.
    macro_rules! step {
        ($s:expr, |$k:ident| $active:expr) => {{
            let step_index: usize = $s;
            let yj = y[step_index];
            unrolled!($k < TI => {
                if $active {
                    acc[$k] = _mm512_madd52lo_epu64(acc[$k], rows[$k], yj);
                    acc[$k + 1] = _mm512_madd52hi_epu64(acc[$k + 1], rows[$k], yj);
                }
            });
            flush!(step_index, 0);
            unrolled!(k < TI => {
                acc[k] = acc[k + 1];
            });
            acc[TI] = zero;
        }};
    }

    let head = if HEAD == FULL { 0 } else { TI };
    let tail_start = if TAIL == FULL { steps } else { steps - TI };
    unrolled!(s < TI => {
        if HEAD != FULL {
            step!(s, |k| match HEAD {
                HEAD_ABOVE_DIAGONAL => s > k,
                _ => s + k >= TI - 1,
            });
        }
    });
    for s in head..tail_start {
        step!(s, |k| true);
    }
    unrolled!(t < TI => {
        if TAIL != FULL {
            // t-th of the last TI steps: TI-1-t steps remain after it.
            let from_end = TI - 1 - t;
            step!(tail_start + t, |k| from_end >= k);
        }
    });
    // The last TI+1 columns are still in registers.
    unrolled!(k < TI + 1 => {
        flush!(steps + k, k);
    });
}
