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

/// The choices for `digits` (see the module documentation). Measured on
/// the Zen 4 development machine, best of 7 interleaved rounds, µs per
/// 8-lane value (full-length exponents):
///
/// | digits (bits) | window form | truncated | blocks | Karatsuba product |
/// |---|---|---|---|---|
/// | 20 (1024) | **62.8** (w=4) | 78.8 | 81.0 | +1.6% |
/// | 40 (2048) | – | **493** (w=4) | 521 | +1.8% |
/// | 60 (3072) | – | 1527 (w=5) | 1978 | **−1.9%** |
/// | 80 (4096) | – | 3182 (w=5) | 3201 | **−2.7%** |
///
/// The full word-by-word form wins where its window fits in registers; the
/// truncated form beats the full block form by 4–6% (up to 23% at 3072);
/// Karatsuba for products only pays from 3072 bits, and by little. The
/// generic path follows the nearest dedicated size.
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
    } else if digits < 60 {
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
