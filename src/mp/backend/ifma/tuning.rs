//! The measured choices of the IFMA backend, per digit count: which
//! Montgomery reduction runs and how wide the exponent window is. The
//! figures behind them come from the `tuning_sweep` test in this module
//! (`cargo test --release tuning_sweep -- --ignored --nocapture`), which
//! times every combination on the machine at hand.

/// Widest register window of the `Window` reduction
/// (`montgomery::reduce_window`): `L + 1` accumulators plus the quotient
/// digit, `m'_0` and a streamed digit of `m` must fit in the 32 zmm
/// registers. Larger moduli use another reduction.
pub(super) const MAX_WINDOW_DIGITS: usize = 24;

/// Rows per strip (`strip.rs`) of the products and reductions of a
/// multiplication, for each dedicated digit count (a divisor of it, at most
/// `strip::MAX_ROWS`): the widest strip, which streams each operand digit
/// into the most multiply-adds.
pub(super) const fn product_rows(_digits: usize) -> usize {
    10
}

/// Rows per strip of a squaring (its triangular product, and the
/// reduction's strips where the reduction has any), for each dedicated
/// digit count. Narrower strips than a multiplication's pay here: a square's
/// strips are cut by the diagonal, and a narrow strip's triangles are
/// smaller. Measured (kernels alone, best of 30 interleaved rounds of 4,000
/// squarings, three runs): 20 digits 5 rows 1.4–2.7 % faster than 10 (4
/// rows: 21 % slower); 40 digits 8 rows 2.1–2.3 % faster than 10 (5 rows:
/// 0.2–1.2 % slower); 60 digits 6 rows 1.7–3.0 % faster than 10 (best of
/// 20 rounds of 200; 5 rows: 10 % slower); 80 digits 10 rows (8 rows: 5–6 %
/// slower, 5 rows: 8–10 % slower).
pub(super) const fn square_rows(digits: usize) -> usize {
    match digits {
        20 => 5,
        40 => 8,
        60 => 6,
        _ => 10,
    }
}

/// A form of the Montgomery reduction (see `montgomery.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reduction {
    /// Word by word with every live column in a register (`L <= 24`).
    Window,
    /// Separated, with the truncated high half of `q·m`.
    Truncated,
    /// Blocks of `TI` digits (radix `2^(52·TI)`), full strips. Slower than
    /// the truncated form at every measured size; kept so the tuning sweep
    /// can re-measure it on other CPUs.
    #[cfg_attr(not(test), allow(dead_code))]
    Blocks,
}

/// Choices for one digit count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tuning {
    pub(super) reduction: Reduction,
    /// Exponent window width (the table has `2^w` entries of `L` registers).
    pub(super) window_bits: usize,
    /// Whether products (not squares) use one level of Karatsuba.
    pub(super) karatsuba: bool,
}

/// The choices for `digits` (see the module documentation). Measured by
/// `tuning_sweep` on the development machine (AMD EPYC, Zen 4: one 512-bit
/// VPMADD52 per cycle, 3.6 G/s), best of 7 interleaved rounds, µs per value
/// of an 8-lane group (full-length exponents), the best window for each
/// form; K: products with one level of Karatsuba:
///
/// | digits (bits) | window form | truncated | truncated, K | blocks, K |
/// |---|---|---|---|---|
/// | 20 (1024) | **88** (w=4, K) / 90 (w=4) | 119 (w=4) | 120 (w=5) | 127 (w=5) |
/// | 40 (2048) | – | 704 (w=5) | **664** (w=5) | 690 (w=5) |
/// | 60 (3072) | – | **1861** (w=5) | 1865 (w=5) | 1914 (w=5) |
/// | 80 (4096) | – | 4223 (w=5) | **4148** (w=5) | 4260 (w=5) |
///
/// The full word-by-word form wins where its window fits in registers; the
/// truncated form beats the full block form; from 2048 bits a 5-bit window
/// and Karatsuba for products pay (by 2 to 6%). The generic path follows
/// the nearest dedicated size. Re-run after the squarings' narrower strips
/// ([`square_rows`]; on a loaded machine, so the absolute figures are not
/// comparable): the same choices win at every size.
#[inline(always)]
pub(super) fn tuning(digits: usize) -> Tuning {
    #[cfg(test)]
    if let Some(forced) = sweep::forced() {
        return forced;
    }
    if digits <= MAX_WINDOW_DIGITS {
        Tuning {
            reduction: Reduction::Window,
            window_bits: 4,
            karatsuba: false,
        }
    } else if digits < 36 {
        Tuning {
            reduction: Reduction::Truncated,
            window_bits: 4,
            karatsuba: false,
        }
    } else {
        Tuning {
            reduction: Reduction::Truncated,
            window_bits: 5,
            karatsuba: true,
        }
    }
}

#[cfg(test)]
pub(super) mod sweep {
    //! Forcing a configuration from the tuning test (test builds only).
    use super::{Reduction, Tuning};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// 0 = not forced; otherwise 1 + reduction index, and the rest.
    static REDUCTION: AtomicUsize = AtomicUsize::new(0);
    static WINDOW: AtomicUsize = AtomicUsize::new(0);
    static KARATSUBA: AtomicUsize = AtomicUsize::new(0);

    pub(in super::super) fn force(tuning: Option<Tuning>) {
        let (r, w, k) = match tuning {
            None => (0, 0, 0),
            Some(t) => (
                1 + t.reduction as usize,
                t.window_bits,
                usize::from(t.karatsuba),
            ),
        };
        WINDOW.store(w, Ordering::Relaxed);
        KARATSUBA.store(k, Ordering::Relaxed);
        REDUCTION.store(r, Ordering::Relaxed);
    }

    pub(super) fn forced() -> Option<Tuning> {
        let reduction = match REDUCTION.load(Ordering::Relaxed) {
            0 => return None,
            1 => Reduction::Window,
            2 => Reduction::Truncated,
            _ => Reduction::Blocks,
        };
        Some(Tuning {
            reduction,
            window_bits: WINDOW.load(Ordering::Relaxed),
            karatsuba: KARATSUBA.load(Ordering::Relaxed) == 1,
        })
    }
}
