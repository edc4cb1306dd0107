//! The measured choices of the IFMA backend, per digit count: which
//! Montgomery reduction runs, whether products use Karatsuba and how wide
//! the exponent window is (a [`Profile`] of thresholds, which a CPU picks
//! at run time from `cpu_table.rs`), and the strips' widths (constants).
//! The figures behind them come from the `tuning_sweep` test (`cargo test
//! --release tuning_sweep -- --ignored --nocapture`), which times every
//! combination on the machine at hand and prints the thresholds they
//! choose.

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

/// Rows per strip of the Karatsuba square's half squares
/// (`karatsuba::square`) at the dedicated digit counts where it can run (a
/// divisor of half the count; a profile's `karatsuba_square_from` says
/// where it does). The half squares have strip instances of their own, so
/// their width is free of the plain squares'. Measured on Zen 4 (squarings
/// alone, `kernel_timing` with every width in one process, best of 15
/// interleaved rounds, two runs, cycles): 40 digits plain 5661/5857, half
/// squares of 4 rows 5806/5481, 5 rows 6723/6473, 10 rows 5743/5758; 60
/// digits plain 12593/12522, 5 rows 13684/13196, 6 rows 12340/12208, 10
/// rows 12317/12235; 80 digits plain 22424/21619, 5 rows 22839/22683, 8
/// rows 20875/19031, 10 rows 21269/20943.
pub(super) const fn half_square_rows(digits: usize) -> usize {
    match digits {
        40 => 10,
        60 => 6,
        _ => 8,
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
    /// Whether squares use one level of Karatsuba (three half squares;
    /// only where [`half_square_rows`] has a width).
    pub(super) karatsuba_square: bool,
    /// Whether squarings run the fused kernel (`fused.rs`; only where the
    /// size has one: 20 digits) instead of strips and a reduction.
    pub(super) fused_square: bool,
    /// Whether the window's products run in half form (`half.rs`: a table
    /// entry kept with its companion; only where the size has the kernel,
    /// 20 digits, and the moduli leave its headroom).
    pub(super) half_product: bool,
}

/// A CPU family's choices, as thresholds in digits (`L = ⌈bits/52⌉`: 20,
/// 40, 60, 80 for 1024 to 4096 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Thresholds {
    /// Largest digit count reduced by the word-by-word form in registers
    /// ([`Reduction::Window`], at most [`MAX_WINDOW_DIGITS`]); the
    /// truncated form above it.
    pub(super) window_reduction_up_to: usize,
    /// Products use one level of Karatsuba from this digit count.
    pub(super) karatsuba_from: usize,
    /// Squares use one level of Karatsuba from this digit count.
    pub(super) karatsuba_square_from: usize,
    /// Exponent window width below `wide_window_from` digits.
    pub(super) window_bits: usize,
    /// Exponent window width from `wide_window_from` digits.
    pub(super) wide_window_bits: usize,
    pub(super) wide_window_from: usize,
    /// Largest digit count whose squarings run the fused kernel
    /// ([`Tuning::fused_square`]; 0: none).
    pub(super) fused_square_up_to: usize,
    /// Largest digit count whose window products run in half form
    /// ([`Tuning::half_product`]; 0: none).
    pub(super) half_product_up_to: usize,
}

impl Thresholds {
    /// The choices for `digits`.
    pub(super) const fn for_digits(&self, digits: usize) -> Tuning {
        let window_up_to = if self.window_reduction_up_to < MAX_WINDOW_DIGITS {
            self.window_reduction_up_to
        } else {
            MAX_WINDOW_DIGITS
        };
        Tuning {
            reduction: if digits <= window_up_to {
                Reduction::Window
            } else {
                Reduction::Truncated
            },
            window_bits: if digits >= self.wide_window_from {
                self.wide_window_bits
            } else {
                self.window_bits
            },
            karatsuba: digits >= self.karatsuba_from,
            karatsuba_square: digits >= self.karatsuba_square_from,
            fused_square: digits <= self.fused_square_up_to,
            half_product: digits <= self.half_product_up_to,
        }
    }
}

/// A set of thresholds the kernels are compiled for: every kernel has an
/// instance per profile, so that its choices fold at compile time (a
/// choice made at run time inside a kernel made the strips lose their
/// inlining, see docs/PERFORMANCE.md). A CPU picks its profile at run time
/// from the table of `cpu_table.rs`; a new profile is a type here, a
/// variant of [`ProfileId`], an arm of [`tuning_of`] and one of the
/// backend's `dispatch!`.
pub(super) trait Profile {
    const THRESHOLDS: Thresholds;
}

/// The profiles, as the CPU table names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ProfileId {
    Zen4,
}

/// Zen 4's choices. Measured by `tuning_sweep` on the development machine
/// (AMD EPYC, Zen 4: one 512-bit VPMADD52 per cycle, 3.6 G/s), best of 7
/// interleaved rounds, µs per value of an 8-lane group (full-length
/// exponents), the best window for each form; K: products with one level
/// of Karatsuba:
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
/// and Karatsuba for products pay (by 2 to 6%; at 20 digits Karatsuba's 2 %
/// is within the run's spread and is left off). The generic path follows
/// the nearest dedicated size. Re-run after the squarings' narrower strips
/// ([`square_rows`]; on a loaded machine, so the absolute figures are not
/// comparable): the same choices win at every size. The fused 20-digit
/// squaring (`fused.rs`): 0.7 to 5 % fewer cycles per squaring than the
/// strips and the window reduction (`kernel_timing`, three runs), 1024-bit
/// exponentiations within the machine's spread (docs/PERFORMANCE.md).
///
/// Squares by one level of Karatsuba (issue 26, second attempt; widths in
/// [`half_square_rows`]): `tuning_sweep`, the chosen form with and without
/// them, two runs: 4096 bits 4561 against 4365 µs and 4162 against 4075
/// (and `bench_modexp`, three alternated runs of the libraries: medians
/// 4499 against 4308 µs); 3072 bits 1862 against 1872 and 1839 against
/// 1802 (within the spread: off); 2048 bits 621 against 679 and 598
/// against 603 (off).
///
/// The window's product in half form (`half.rs`, 20 digits): off. On an
/// Intel Xeon (Emerald Rapids, 5 December 2026) the product itself took
/// 1,465 cycles-at-one-multiply-add against the full product's 2,004
/// (`kernel_timing`), but the select of its table of twice the size,
/// 1,720 against 765 (`select_timing`), cost more than that saved:
/// `tuning_sweep` at 1024 bits, 4-bit window, fused squares, 47.3 µs per
/// value without it and 48.4 with it (48.0 and 49.7 in another run). Not
/// measured on Zen 4 or Zen 5, whose vector logic has pipes beside the
/// multipliers; the sweep times it there.
pub(super) struct Zen4;

impl Profile for Zen4 {
    const THRESHOLDS: Thresholds = Thresholds {
        window_reduction_up_to: MAX_WINDOW_DIGITS,
        karatsuba_from: 36,
        karatsuba_square_from: 80,
        window_bits: 4,
        wide_window_bits: 5,
        wide_window_from: 36,
        fused_square_up_to: 20,
        half_product_up_to: 0,
    };
}

/// The choices of profile `P` for `digits`, inside the kernels (`P` and,
/// for the dedicated sizes, `digits` are constants there). `tuning_sweep`
/// (test builds) may force one configuration for every size.
#[inline(always)]
pub(super) fn tuning<P: Profile>(digits: usize) -> Tuning {
    #[cfg(test)]
    if let Some(forced) = sweep::forced() {
        return forced;
    }
    P::THRESHOLDS.for_digits(digits)
}

/// Whether profile `P` forms squares of `L` digits by one level of
/// Karatsuba, as a constant of the instance outside test builds: the
/// plain square's branch is then the only one from the start, before
/// the inliner weighs its calls (with [`tuning`] the other branch was
/// folded only after the inlining, and its second call of the reduction
/// changed how the 40-digit square, where it is off, was inlined).
#[inline(always)]
pub(super) fn karatsuba_square<P: Profile, const L: usize>() -> bool {
    #[cfg(test)]
    if let Some(forced) = sweep::forced() {
        return forced.karatsuba_square;
    }
    const { P::THRESHOLDS.for_digits(L).karatsuba_square }
}

/// [`tuning`] for a profile known at run time.
pub(super) fn tuning_of(profile: ProfileId, digits: usize) -> Tuning {
    match profile {
        ProfileId::Zen4 => tuning::<Zen4>(digits),
    }
}

/// The thresholds that give `winners`, the fastest configuration measured
/// at each digit count (ascending), where thresholds can: a choice that
/// does not hold from some size upwards is kept from the first size after
/// the last that refuses it (`usize::MAX`: none). For `tuning_sweep`.
#[cfg(test)]
pub(super) fn thresholds_choosing(winners: &[(usize, Tuning)]) -> Thresholds {
    // The smallest size from which every larger size wants the choice.
    let from = |wanted: &dyn Fn(&Tuning) -> bool| {
        winners
            .iter()
            .rposition(|(_, t)| !wanted(t))
            .map_or(Some(0), |last| winners.get(last + 1).map(|w| w.0))
            .unwrap_or(usize::MAX)
    };
    let window_bits = winners.first().map_or(4, |w| w.1.window_bits);
    let wide_window_bits = winners.last().map_or(window_bits, |w| w.1.window_bits);
    Thresholds {
        window_reduction_up_to: winners
            .iter()
            .take_while(|(_, t)| t.reduction == Reduction::Window)
            .last()
            .map_or(0, |w| w.0),
        karatsuba_from: from(&|t| t.karatsuba),
        karatsuba_square_from: from(&|t| t.karatsuba_square),
        window_bits,
        wide_window_bits,
        wide_window_from: from(&|t| t.window_bits == wide_window_bits),
        fused_square_up_to: winners
            .iter()
            .take_while(|(_, t)| t.fused_square)
            .last()
            .map_or(0, |w| w.0),
        half_product_up_to: winners
            .iter()
            .take_while(|(_, t)| t.half_product)
            .last()
            .map_or(0, |w| w.0),
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
    static KARATSUBA_SQUARE: AtomicUsize = AtomicUsize::new(0);
    static FUSED: AtomicUsize = AtomicUsize::new(0);
    static HALF: AtomicUsize = AtomicUsize::new(0);

    pub(in super::super) fn force(tuning: Option<Tuning>) {
        let (r, w, k, ks, f, h) = match tuning {
            None => (0, 0, 0, 0, 0, 0),
            Some(t) => (
                1 + t.reduction as usize,
                t.window_bits,
                usize::from(t.karatsuba),
                usize::from(t.karatsuba_square),
                usize::from(t.fused_square),
                usize::from(t.half_product),
            ),
        };
        WINDOW.store(w, Ordering::Relaxed);
        KARATSUBA.store(k, Ordering::Relaxed);
        KARATSUBA_SQUARE.store(ks, Ordering::Relaxed);
        FUSED.store(f, Ordering::Relaxed);
        HALF.store(h, Ordering::Relaxed);
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
            karatsuba_square: KARATSUBA_SQUARE.load(Ordering::Relaxed) == 1,
            fused_square: FUSED.load(Ordering::Relaxed) == 1,
            half_product: HALF.load(Ordering::Relaxed) == 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sweep's thresholds reproduce the configurations they were made
    /// from, for every profile.
    #[test]
    fn thresholds_reproduce_the_winners() {
        for (profile, thresholds) in [(ProfileId::Zen4, Zen4::THRESHOLDS)] {
            let winners: Vec<_> = [8, 20, 30, 40, 60, 80]
                .iter()
                .map(|&d| (d, thresholds.for_digits(d)))
                .collect();
            let derived = thresholds_choosing(&winners);
            for &(digits, tuning) in &winners {
                assert_eq!(derived.for_digits(digits), tuning, "{profile:?}, {digits}");
            }
        }
    }

    /// Zen 4's profile gives the choices its figures were measured for.
    #[test]
    fn zen4_chooses_as_measured() {
        let at = |digits| {
            let t = Zen4::THRESHOLDS.for_digits(digits);
            (
                t.reduction,
                t.window_bits,
                t.karatsuba,
                t.karatsuba_square,
                t.fused_square,
                t.half_product,
            )
        };
        assert_eq!(at(20), (Reduction::Window, 4, false, false, true, false));
        assert_eq!(
            at(30),
            (Reduction::Truncated, 4, false, false, false, false)
        );
        for digits in [40, 60] {
            assert_eq!(
                at(digits),
                (Reduction::Truncated, 5, true, false, false, false)
            );
        }
        assert_eq!(at(80), (Reduction::Truncated, 5, true, true, false, false));
    }
}
