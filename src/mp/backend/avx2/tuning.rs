//! The AVX2 kernels' shapes: rows per block of each kernel and the window.

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
}

/// The shapes for `digits`-digit moduli on this CPU.
pub(super) fn current(_digits: usize) -> Tuning {
    #[cfg(test)]
    if let Some(forced) = sweep::forced() {
        return forced;
    }
    Tuning {
        product_rows: 8,
        square_rows: 8,
        reduction_rows: 8,
        window_bits: 5,
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
