//! The window's multiplication in half form: half the reduction steps of a
//! Montgomery product, for a factor known in advance (a table entry).
//!
//! With `R = β^L` (`β = 2^52`, `L` even, `H = L/2`), split `a = a_lo +
//! β^H·a_hi` (`a_lo`, `a_hi` of `H` digits each). Then
//! `a·b·R^{-1} ≡ (a_lo·k + a_hi·b)·β^{-H} (mod m)` for `k = b·β^{-H} mod
//! m`: with `k` stored beside `b` in the exponentiation's table
//! ([`half_shift`] makes it when the table is built), a product takes `H`
//! rows, each adding `a_i·k + a_{i+H}·b` and one quotient digit's `y_i·m`,
//! instead of `L` rows of `a_i·b` and `y_i·m`: `6H·L` multiply-adds
//! (1,200 at `L = 20`) instead of `4L^2` (1,600), and half the chain of
//! quotient digits. The price is a table of twice the size, which the
//! window's select reads whole: on the CPU measured so far that costs more
//! than the product saves, and the profiles leave the form off
//! (`tuning.rs`); `tuning_sweep` times it on others.
//!
//! Like the fused squaring (`fused.rs`) the rows run over a register window
//! of the `L + 1` live columns, with each row's chain to the next quotient
//! digit first: row `i` first completes column `i + 1` (its own terms
//! there, and row `i + 1`'s low halves of digit 0, which wait for no
//! quotient digit), then takes `y_{i+1}`, then adds the rest.
//!
//! Bounds. For `a < 2m`, `b, k < 2m` the result `(a_lo·k + a_hi·b +
//! y·m)/β^H` is below `2m + 4m^2/R + m`, which for `R >= 16m` is below
//! `3.25m`: more than the other kernels' `2m`, and still fine for what
//! follows it (a squaring of `x < 4m` gives `x^2/R + m <= 2m` when `R >=
//! 16m`, and the fused square's `2x < R` holds; leaving the domain takes
//! any `x < R`). The backend uses the half form only where every lane's
//! modulus has `R >= 16m` (`HALF_FORM_HEADROOM_BITS`), and only for the
//! window's product, whose left factor always comes from a squaring. A
//! column collects at most 6 halves a row (`< 2^52` each) over `H` rows
//! and a carry: far below 2^62, and never negative.

use core::arch::x86_64::*;

use super::fused::{
    finish_window, quotient_chain, reduction_row_rest, reloaded, sequence_after, slide_window,
};
use super::montgomery::{debug_assert_normalized, Modulus};
use super::vectors::lanes;

/// Largest digit count of the half-form kernels: `L + 1` accumulators, two
/// quotient digits, the row's two digits of `a`, `m'_0` and a temporary
/// in the 32 zmm registers.
const MAX_HALF_DIGITS: usize = 22;

/// Bits the modulus must leave free at the top of `R = β^L` for the half
/// form's bound (`R >= 16m`, see the module documentation).
pub(super) const HALF_FORM_HEADROOM_BITS: usize = 4;

/// `out = a·b·R^{-1} mod m`, `out < 3.25m`, for `a < 2m` and `b < 2m`
/// given with `k = b·β^{-L/2} mod m`, `k < 2m` (normalized digits).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn mont_mul_half<const L: usize>(
    modulus: &Modulus<'_>,
    out: &mut [__m512i],
    a: &[__m512i],
    b: &[__m512i],
    k: &[__m512i],
) {
    half_rows::<L, true>(modulus, out, a, b, k);
}

/// `out = b·β^{-L/2} mod m`, `out < m + m/β^{L/2}` (so `< 2m`), for `b <
/// 2m` (normalized digits):
/// the companion `k` of a table entry `b` ([`mont_mul_half`]), by `L/2`
/// reduction rows and no product.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn half_shift<const L: usize>(
    modulus: &Modulus<'_>,
    out: &mut [__m512i],
    b: &[__m512i],
) {
    half_rows::<L, false>(modulus, out, b, b, b);
}

/// The rows of both kernels (see the module documentation): with
/// `PRODUCT`, `(a_lo·k + a_hi·b + y·m)/β^H`; without it `(b + y·m)/β^H`
/// (`a` and `k` unused).
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
// The last row's next quotient digit is assigned and not read.
#[allow(unused_assignments)]
fn half_rows<const L: usize, const PRODUCT: bool>(
    modulus: &Modulus<'_>,
    out: &mut [__m512i],
    a: &[__m512i],
    b: &[__m512i],
    k: &[__m512i],
) {
    const { assert!(L >= 2 && L.is_multiple_of(2) && L <= MAX_HALF_DIGITS) };
    let rows = L / 2;
    let zero = _mm512_setzero_si512();
    let (a, b, k) = (&a[..L], &b[..L], &k[..L]);
    debug_assert_normalized(a);
    debug_assert_normalized(b);
    debug_assert_normalized(k);
    // The left factor comes from a squaring: below 2m <= R/8 (the form's
    // headroom), which the bound on the result needs.
    debug_assert!(
        !PRODUCT || lanes(a[L - 1]).iter().all(|&d| d < 1 << 49),
        "a < R/8"
    );
    let m = &modulus.m_padded[1..L + 1];
    let k0 = modulus.m_prime[0];

    // The window: `acc[p]` is column `i + p` while row `i` runs. Indexed
    // only by compile-time constants (`unroll.rs`), so it lives in
    // registers; one spare slot keeps the dead terms of the unrolled lists
    // in bounds.
    let mut acc = [zero; MAX_HALF_DIGITS + 2];
    if !PRODUCT {
        unrolled_window!(j < L => {
            acc[j] = b[j];
        });
    }

    // Product row `r`'s terms, `low·k_j + high·b_j` (`low = a_r`, `high =
    // a_{r+H}`), with the window `$shift` columns below row `r`'s first
    // column: the halves whose position `$p` passes `$wanted`.
    macro_rules! product_row {
        ($shift:expr, $low:expr, $high:expr, |$p:ident| $wanted:expr) => {{
            if PRODUCT {
                let (b, k) = (reloaded(b), reloaded(k));
                let shift: usize = $shift;
                let (low, high): (__m512i, __m512i) = ($low, $high);
                unrolled_window!(j < L => {
                    if { let $p = shift + j; $wanted } {
                        acc[shift + j] = _mm512_madd52lo_epu64(acc[shift + j], low, k[j]);
                        acc[shift + j] = _mm512_madd52lo_epu64(acc[shift + j], high, b[j]);
                    }
                    if { let $p = shift + j + 1; $wanted } {
                        acc[shift + j + 1] = _mm512_madd52hi_epu64(acc[shift + j + 1], low, k[j]);
                        acc[shift + j + 1] = _mm512_madd52hi_epu64(acc[shift + j + 1], high, b[j]);
                    }
                });
            }
        }};
    }

    product_row!(0, a[0], a[rows], |p| p == 0);
    let mut y = _mm512_madd52lo_epu64(zero, acc[0], k0);
    unrolled!(i < L / 2 => {
        let (a, m) = (reloaded(a), reloaded(m));
        // Column i + 1 first, with the terms that wait for no quotient
        // digit: this row's, and the next row's low halves of digit 0.
        product_row!(0, a[i], a[i + rows], |p| p == 1);
        if i + 1 < rows {
            product_row!(1, a[i + 1], a[i + 1 + rows], |p| p == 1);
        }
        // The chain to the next quotient digit, as in the fused squaring.
        let y_next = quotient_chain(&mut acc, y, m, k0, i + 1 < rows);
        // The rest of the row after the next quotient digit.
        let (mut low, mut high) = (a[i], a[i + rows]);
        sequence_after(y_next, &mut y, &mut low);
        sequence_after(y_next, &mut y, &mut high);
        // SAFETY: this kernel runs only with AVX-512F and IFMA.
        unsafe { reduction_row_rest::<L>(&mut acc, y, m) };
        product_row!(0, low, high, |p| p >= 2);
        slide_window::<L>(&mut acc);
        y = y_next;
    });

    finish_window::<L>(&acc, out);
}
