//! The AVX2 kernels' shapes: rows per block of each kernel and the window,
//! per tuning profile (which CPU runs which profile is `cpu_table.rs`) and
//! digit count.
//!
//! The figures behind them come from `avx2::timing::tuning_sweep` (`cargo
//! test --release avx2::timing::tuning_sweep -- --ignored --nocapture`):
//! whole exponentiations of 8 values for every shape. On Zen 3 the block
//! shapes move the time by 1–3 %, the window by up to 15 % at 1024 bits.

/// One choice of kernel shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tuning {
    /// Rows of `a` per sweep of a product (`columns::product_columns`).
    pub(super) product_rows: usize,
    /// Rows per sweep of a square (`columns::square_columns`).
    pub(super) square_rows: usize,
    /// Quotient digits per block of the reduction (`reduce::reduce`).
    pub(super) reduction_rows: usize,
    /// Widest window of the exponentiation.
    pub(super) window_bits: usize,
    /// Products and squares by one level of Karatsuba
    /// (`karatsuba.rs`), where the digit layout leaves the middle product
    /// room (`karatsuba::fits`).
    pub(super) karatsuba: bool,
}

/// The tuning profiles, named where `OBLIVEX_AVX2_PROFILE` may force one.
pub(super) use crate::backend::Avx2Profile as ProfileId;

/// The shapes of `profile` for `digits`-digit moduli.
pub(super) fn tuning_of(profile: ProfileId, digits: usize) -> Tuning {
    #[cfg(test)]
    if let Some(forced) = sweep::forced() {
        return forced;
    }
    match profile {
        // tuning_sweep, December 2026 (µs per value, best shape against
        // the shapes of the other sizes): 1024 bits 241 (w = 5: 249),
        // 2048 bits 1,500, 3072 bits 4,502, 4096 bits 10,872 (w = 5:
        // 10,984).
        ProfileId::Zen3 => match digits {
            0..=40 => Tuning {
                product_rows: 6,
                square_rows: 6,
                reduction_rows: 8,
                window_bits: 4,
                karatsuba: false,
            },
            41..=120 => Tuning {
                product_rows: 8,
                square_rows: 8,
                reduction_rows: 6,
                window_bits: 5,
                karatsuba: false,
            },
            _ => Tuning {
                product_rows: 6,
                square_rows: 6,
                reduction_rows: 8,
                window_bits: 6,
                karatsuba: false,
            },
        },
        // tuning_sweep on an Intel Xeon (Emerald Rapids), 5 December 2026,
        // three runs (µs per value, this shape against Zen 3's): 2048 bits
        // 1,799–1,919 against 1,879–2,004, 3072 bits 5,627–6,131 against
        // 5,872–6,223, 4096 bits 13,695–14,211 against 14,282–14,859, 3 to
        // 4.5 % in each run; at 1024 bits the shapes are within the runs'
        // spread and Zen 3's is kept.
        //
        // Karatsuba (6 December 2026, same machine, best shape with and
        // without it in one run): 1024 bits 299.1 against 287.1 µs, 2048
        // bits 1,887.5 against 1,860.9 (its half squares of 37 digits run
        // no faster together than one square of 74), 3072 bits 5,487.1
        // against 5,634.7 (−2.6 %), 4096 bits 13,041.1 against 13,754.0
        // (−5.2 %): from 101 digits.
        ProfileId::GoldenCove => match digits {
            0..=40 => tuning_of(ProfileId::Zen3, digits),
            41..=120 => Tuning {
                product_rows: 8,
                square_rows: 8,
                reduction_rows: 8,
                window_bits: 5,
                karatsuba: digits > 100,
            },
            _ => Tuning {
                product_rows: 8,
                square_rows: 8,
                reduction_rows: 8,
                window_bits: 6,
                karatsuba: true,
            },
        },
    }
}

/// The longest tail of a batch (its last, partial group of lanes) that
/// profile `profile` hands to the MULX/ADX backend one value at a time:
/// a group costs the same whatever it holds, so a tail is cheaper there
/// when its values on mulx cost less than one full group.
pub(super) fn longest_tail_for_mulx(profile: ProfileId) -> usize {
    match profile {
        // One value on mulx costs about 0.45 of a 4-lane group at 1024 to
        // 4096 bits (docs/PERFORMANCE.md): tails of 1 and 2.
        ProfileId::Zen3 => 2,
        // One value on mulx costs about 0.25 of a group at 1024 and 2048
        // bits (Emerald Rapids, batches of 1 to 4 of one modulus: 301,
        // 696, 1,182 and 1,190 µs at 1024 bits, 2,070, 4,183, 7,853 and
        // 8,027 µs at 2048, when tails of 1 and 2 went to mulx): tails of
        // 1 to 3.
        ProfileId::GoldenCove => 3,
    }
}

#[cfg(test)]
pub(super) mod sweep {
    //! Forcing a configuration from the tests (test builds only). Every
    //! configuration computes the same powers, so a test running beside a
    //! forced one still sees right answers.
    use super::Tuning;
    use std::sync::Mutex;

    static FORCED: Mutex<Option<Tuning>> = Mutex::new(None);

    pub(in super::super) fn force(tuning: Option<Tuning>) {
        *FORCED.lock().unwrap_or_else(|e| e.into_inner()) = tuning;
    }

    pub(super) fn forced() -> Option<Tuning> {
        *FORCED.lock().unwrap_or_else(|e| e.into_inner())
    }
}
