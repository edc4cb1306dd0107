//! The AVX2 backend: 4 exponentiations in lockstep, one per 64-bit lane of
//! a ymm register, in digits of 27 to 29 bits with VPMULUDQ doing the
//! products (32×32→64 bits). Word-sliced like the IFMA backend: register
//! `i` holds digit `i` of the 4 values, so no carry crosses lanes; each lane
//! has its own modulus, exponent and base, and the lanes of a group share
//! the digit layout.
//!
//! For CPUs without AVX-512 IFMA: every x86-64 core since Haswell and Zen 1
//! issues two VPMULUDQ per cycle, 8 products of 32 bits against one 64-bit
//! MULX. The digits are narrower than 32 bits so that a column of a
//! Montgomery product adds its products up in 64 bits with no carry until
//! the end (`constants::layout_for_bits`).
//!
//! The arithmetic is in `columns.rs` (products and squares as column sums)
//! and `reduce.rs` (the word-by-word Montgomery reduction); the table
//! select is `select.rs`; the exponentiation is the shared `fixed_window`
//! code, entered inside a `#[target_feature]` function. Nothing here runs
//! unless [`avx2_supported`] said yes.

mod columns;
mod constants;
mod cpu_table;
mod karatsuba;
mod reduce;
pub(crate) mod select;
mod tuning;

use zeroize::Zeroize;

use super::sliced::{
    as_registers, as_registers_mut, as_words_mut, slice_residues, unslice_residues, word_slice,
    zero, Register,
};
use super::LaneArith;
use crate::backend::avx2_supported;
use crate::mp::context::MontContext;
use crate::mp::fixed_window;
use crate::mp::limits::MAX_LANES;
use columns::{
    debug_assert_digits, debug_assert_product_columns, product_columns, square_columns, Digits,
};
use constants::{constants_of, layout_for_bits, Avx2Constants, Layout};
use karatsuba::{product_columns as karatsuba_product, square_columns as karatsuba_square};
use reduce::{reduce, Modulus};
use tuning::Tuning;

/// Values per group: the 64-bit lanes of a ymm register.
const VECTOR_LANES: usize = <Digits as Register>::LANES;

/// [`LaneArith`] on AVX2: an element is `L` digit vectors (`4L` words).
pub(crate) struct Avx2Arith<'a> {
    contexts: Vec<&'a MontContext>,
    layout: Layout,
    modulus: Vec<Digits>,
    m_prime: Digits,
    r2: Vec<Digits>,
    one: Vec<Digits>,
    /// The number 1 (leaving the Montgomery domain multiplies by it).
    unit: Vec<Digits>,
    /// An operand in vector form (entering/leaving the domain).
    operand: Vec<Digits>,
    /// A product's column sums: `2L` vectors.
    columns: Vec<Digits>,
    /// The reduction's quotient digits: `L` vectors.
    quotient: Vec<Digits>,
    /// A square's doubled operand: `L` vectors.
    doubled: Vec<Digits>,
    /// The Karatsuba products' half sums and middle columns
    /// (`karatsuba::scratch_len`; empty where the tuning does not use
    /// them).
    karatsuba: Vec<Digits>,
    tuning: Tuning,
}

/// Runs `$kernel::<R>` for the tuning's rows per block (a const generic:
/// the kernels unroll over it). One dispatch per operation.
macro_rules! with_block_rows {
    ($rows:expr, $kernel:ident, $($arg:expr),*) => {
        // SAFETY: an Avx2Arith exists only once `avx2_supported()` held (see
        // `LaneArith::new`), so the AVX2 kernels may run.
        unsafe {
            match $rows {
                4 => $kernel::<4>($($arg),*),
                6 => $kernel::<6>($($arg),*),
                8 => $kernel::<8>($($arg),*),
                rows => unreachable!("tuning.rs offers 4, 6 or 8 rows, not {rows}"),
            }
        }
    };
}

impl Avx2Arith<'_> {
    /// `out = a·b/R mod m` (below `2m` for `a, b < 2m`).
    fn mont_mul(&mut self, out: &mut [Digits], a: &[Digits], b: &[Digits]) {
        debug_assert_digits(a, self.layout.digit_bits);
        debug_assert_digits(b, self.layout.digit_bits);
        if self.tuning.karatsuba {
            with_block_rows!(
                self.tuning.product_rows,
                karatsuba_product,
                &mut self.columns,
                a,
                b,
                &mut self.karatsuba
            );
        } else {
            with_block_rows!(
                self.tuning.product_rows,
                product_columns,
                &mut self.columns,
                a,
                b
            );
        }
        debug_assert_product_columns(&self.columns, a.len(), self.layout.digit_bits);
        self.reduce_columns(out);
    }

    /// `out = a²/R mod m` (below `2m` for `a < 2m`).
    fn mont_sqr(&mut self, out: &mut [Digits], a: &[Digits]) {
        debug_assert_digits(a, self.layout.digit_bits);
        if self.tuning.karatsuba {
            with_block_rows!(
                self.tuning.square_rows,
                karatsuba_square,
                &mut self.columns,
                a,
                &mut self.doubled,
                &mut self.karatsuba
            );
        } else {
            with_block_rows!(
                self.tuning.square_rows,
                square_columns,
                &mut self.columns,
                a,
                &mut self.doubled
            );
        }
        debug_assert_product_columns(&self.columns, a.len(), self.layout.digit_bits);
        self.reduce_columns(out);
    }

    /// `out` = the product's column sums (in `columns`) divided by `R`
    /// modulo `m`.
    fn reduce_columns(&mut self, out: &mut [Digits]) {
        let modulus = Modulus {
            digits: &self.modulus,
            m_prime: self.m_prime,
            digit_bits: self.layout.digit_bits,
        };
        with_block_rows!(
            self.tuning.reduction_rows,
            reduce,
            &mut self.columns,
            &modulus,
            &mut self.quotient,
            out
        );
    }
}

/// The longest tail of a batch (its last, partial group of lanes) that goes
/// to the MULX/ADX backend one value at a time on this CPU, by its tuning
/// profile (`tuning::longest_tail_for_mulx`).
pub(crate) fn longest_tail_for_mulx() -> usize {
    tuning::longest_tail_for_mulx(profile())
}

/// The tuning profile: the one `OBLIVEX_AVX2_PROFILE` names, else this
/// CPU's (`cpu_table.rs`). (A name no profile has never gets here: it
/// fails the backend's selection.)
fn profile() -> tuning::ProfileId {
    let forced = crate::backend::Avx2Profile::forced();
    debug_assert!(forced.is_ok(), "the backend's selection refuses it first");
    forced
        .ok()
        .flatten()
        .unwrap_or_else(|| super::cpu::CpuRow::current(cpu_table::TABLE).profile)
}

impl<'a> LaneArith<'a> for Avx2Arith<'a> {
    const LANES: usize = VECTOR_LANES;

    fn new(contexts: &[&'a MontContext]) -> Self {
        assert!(
            avx2_supported(),
            "the AVX2 backend runs only where the CPU has AVX2"
        );
        assert_eq!(contexts.len(), Self::LANES, "one context per lane");
        let constants: Vec<_> = contexts.iter().map(|ctx| constants_of(ctx)).collect();
        let layout = constants[0].layout;
        assert!(
            constants.iter().all(|c| c.layout == layout),
            "one size class per group"
        );
        let digits = layout.digits;
        let lanes_of = |field: fn(&Avx2Constants) -> &[u64]| -> Vec<Digits> {
            let lanes: Vec<&[u64]> = constants.iter().map(|c| field(c)).collect();
            word_slice(&lanes, digits)
        };
        let m_primes: Vec<[u64; 1]> = constants.iter().map(|c| [c.m_prime]).collect();
        let m_prime_lanes: Vec<&[u64]> = m_primes.iter().map(|m| m.as_slice()).collect();
        let mut unit_digits = vec![0u64; digits];
        unit_digits[0] = 1;
        let mut tuning = tuning::tuning_of(profile(), digits);
        // Where the middle product's columns could overflow, schoolbook.
        tuning.karatsuba &= karatsuba::fits(digits, layout.digit_bits);
        let karatsuba_len = if tuning.karatsuba {
            karatsuba::scratch_len(digits)
        } else {
            0
        };
        Avx2Arith {
            contexts: contexts.to_vec(),
            layout,
            modulus: lanes_of(|c| &c.modulus),
            m_prime: word_slice(&m_prime_lanes, 1)[0],
            r2: lanes_of(|c| &c.r2),
            one: lanes_of(|c| &c.one),
            unit: word_slice(&[unit_digits.as_slice(); VECTOR_LANES], digits),
            operand: vec![zero(); digits],
            columns: vec![zero(); 2 * digits],
            quotient: vec![zero(); digits],
            doubled: vec![zero(); digits],
            karatsuba: vec![zero(); karatsuba_len],
            tuning,
        }
    }

    fn size_class(context: &MontContext) -> usize {
        let Layout { digit_bits, digits } = layout_for_bits(context.modulus_bits());
        digits << 8 | digit_bits
    }

    fn words(&self) -> usize {
        Self::LANES * self.layout.digits
    }

    fn window_bits(&self, exponent_bits: usize) -> usize {
        // Short exponents keep the smaller windows of the shared cost model.
        self.tuning
            .window_bits
            .min(super::default_window_bits(exponent_bits))
    }

    fn enter_mont(&mut self, residues: &[&[u64]], out: &mut [u64]) {
        let mut operand = core::mem::take(&mut self.operand);
        slice_residues(residues, self.layout.digit_bits, &mut operand);
        let r2 = core::mem::take(&mut self.r2);
        self.mont_mul(as_registers_mut(out), &operand, &r2);
        self.r2 = r2;
        as_words_mut(&mut operand).zeroize();
        self.operand = operand;
    }

    fn leave_mont(&mut self, elem: &[u64], residues: &mut [&mut [u64]]) {
        // (x·1 + q·m)/R <= m for x < 2m < R: one masked subtraction of m at
        // most, done on 64-bit limbs.
        let mut operand = core::mem::take(&mut self.operand);
        let unit = core::mem::take(&mut self.unit);
        self.mont_mul(&mut operand, as_registers(elem), &unit);
        self.unit = unit;
        unslice_residues(
            &mut operand,
            &self.contexts,
            self.layout.digit_bits,
            residues,
        );
        self.operand = operand;
    }

    fn one(&self, out: &mut [u64]) {
        as_registers_mut(out).copy_from_slice(&self.one);
    }

    fn mul(&mut self, out: &mut [u64], a: &[u64], b: &[u64]) {
        self.mont_mul(as_registers_mut(out), as_registers(a), as_registers(b));
    }

    fn sqr(&mut self, out: &mut [u64], a: &[u64]) {
        self.mont_sqr(as_registers_mut(out), as_registers(a));
    }

    fn select(out: &mut [u64], table: &[u64], digits: &[u64], _masks: &mut [[u64; MAX_LANES]]) {
        // SAFETY: this backend's methods run only on a CPU with AVX2 (an
        // Avx2Arith exists, see `new`).
        unsafe { select::select_avx2(as_registers_mut(out), as_registers(table), digits) }
    }

    fn exp(
        &mut self,
        residues: &[&[u64]],
        exponents: &[&[u64]],
        exponent_bits: usize,
        results: &mut [&mut [u64]],
    ) {
        // SAFETY: this value exists only on a CPU with AVX2 (see `new`).
        unsafe { exp_avx2(self, residues, exponents, exponent_bits, results) }
    }
}

/// The shared exponentiation, compiled with AVX2 enabled (it is inlined
/// here), so the table select and the glue use ymm registers too.
#[target_feature(enable = "avx2")]
fn exp_avx2(
    arith: &mut Avx2Arith<'_>,
    residues: &[&[u64]],
    exponents: &[&[u64]],
    exponent_bits: usize,
    results: &mut [&mut [u64]],
) {
    fixed_window::mod_exp(arith, residues, exponents, exponent_bits, results);
}

impl Drop for Avx2Arith<'_> {
    fn drop(&mut self) {
        for scratch in [
            &mut self.columns,
            &mut self.quotient,
            &mut self.doubled,
            &mut self.karatsuba,
            &mut self.operand,
        ] {
            as_words_mut(scratch).zeroize();
        }
        // The moduli may be secret primes (an RSA key's): their digits and
        // constants go too.
        for constant in [&mut self.modulus, &mut self.r2, &mut self.one] {
            as_words_mut(constant).zeroize();
        }
        as_words_mut(core::slice::from_mut(&mut self.m_prime)).zeroize();
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod timing;
