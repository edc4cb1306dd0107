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
mod reduce;
mod select;
mod tuning;

use zeroize::{Zeroize, Zeroizing};

use super::LaneArith;
use crate::backend::avx2_supported;
use crate::mp::context::MontContext;
use crate::mp::fixed_window;
use crate::mp::limbs::convert::{limbs_to_radix, radix_to_limbs};
use crate::mp::limbs::masks;
use crate::mp::limits::{MAX_LANES, MAX_LIMBS};
use columns::{product_columns, square_columns, zero_digits, Digits};
use constants::{constants_of, layout_for_bits, Avx2Constants, Layout};
use reduce::{reduce, Modulus};
use tuning::Tuning;

/// Values per group: the 64-bit lanes of a ymm register.
const VECTOR_LANES: usize = 4;

/// Views 32-byte-aligned words as digit vectors (4 words each).
fn as_digits(words: &[u64]) -> &[Digits] {
    assert!(
        words.len().is_multiple_of(VECTOR_LANES) && (words.as_ptr() as usize).is_multiple_of(32),
        "aligned whole vectors"
    );
    // SAFETY: the length is a whole number of 32-byte vectors and the start
    // is 32-byte aligned (checked above); every bit pattern is a valid
    // __m256i.
    unsafe { core::slice::from_raw_parts(words.as_ptr().cast(), words.len() / VECTOR_LANES) }
}

/// [`as_digits`] for writing.
fn as_digits_mut(words: &mut [u64]) -> &mut [Digits] {
    assert!(
        words.len().is_multiple_of(VECTOR_LANES) && (words.as_ptr() as usize).is_multiple_of(32),
        "aligned whole vectors"
    );
    // SAFETY: as in `as_digits`, and the exclusive borrow is carried over.
    unsafe {
        core::slice::from_raw_parts_mut(words.as_mut_ptr().cast(), words.len() / VECTOR_LANES)
    }
}

/// Views digit vectors as their words (lane `j` of vector `i` is word
/// `4i + j`).
fn as_words_mut(vectors: &mut [Digits]) -> &mut [u64] {
    // SAFETY: a __m256i is 4 u64s with no padding; u64 needs less
    // alignment; every bit pattern is a valid u64.
    unsafe {
        core::slice::from_raw_parts_mut(vectors.as_mut_ptr().cast(), vectors.len() * VECTOR_LANES)
    }
}

/// Word-slices per-lane digit strings: vector `i` holds digit `i` of each
/// lane.
fn word_slice(lanes: &[&[u64]], digits: usize) -> Vec<Digits> {
    debug_assert_eq!(lanes.len(), VECTOR_LANES);
    let mut vectors = vec![zero_digits(); digits];
    let words = as_words_mut(&mut vectors);
    for (j, lane) in lanes.iter().enumerate() {
        for (i, &digit) in lane.iter().enumerate() {
            words[VECTOR_LANES * i + j] = digit;
        }
    }
    vectors
}

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
        let modulus = Modulus {
            digits: &self.modulus,
            m_prime: self.m_prime,
            digit_bits: self.layout.digit_bits,
        };
        with_block_rows!(
            self.tuning.product_rows,
            product_columns,
            &mut self.columns,
            a,
            b
        );
        with_block_rows!(
            self.tuning.reduction_rows,
            reduce,
            &mut self.columns,
            &modulus,
            &mut self.quotient,
            out
        );
    }

    /// `out = a²/R mod m` (below `2m` for `a < 2m`).
    fn mont_sqr(&mut self, out: &mut [Digits], a: &[Digits]) {
        let modulus = Modulus {
            digits: &self.modulus,
            m_prime: self.m_prime,
            digit_bits: self.layout.digit_bits,
        };
        with_block_rows!(
            self.tuning.square_rows,
            square_columns,
            &mut self.columns,
            a,
            &mut self.doubled
        );
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
        Avx2Arith {
            contexts: contexts.to_vec(),
            layout,
            modulus: lanes_of(|c| &c.modulus),
            m_prime: word_slice(&m_prime_lanes, 1)[0],
            r2: lanes_of(|c| &c.r2),
            one: lanes_of(|c| &c.one),
            unit: word_slice(&[unit_digits.as_slice(); VECTOR_LANES], digits),
            operand: vec![zero_digits(); digits],
            columns: vec![zero_digits(); 2 * digits],
            quotient: vec![zero_digits(); digits],
            doubled: vec![zero_digits(); digits],
            tuning: tuning::tuning_of(cpu_table::current_row().profile, digits),
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
        let Layout { digit_bits, digits } = self.layout;
        let mut lane_digits = Zeroizing::new(vec![0u64; Self::LANES * digits]);
        for (lane, residue) in lane_digits.chunks_exact_mut(digits).zip(residues) {
            limbs_to_radix(residue, lane, digit_bits);
        }
        let lanes: Vec<&[u64]> = lane_digits.chunks_exact(digits).collect();
        let mut operand = core::mem::take(&mut self.operand);
        let mut sliced = word_slice(&lanes, digits);
        operand.copy_from_slice(&sliced);
        as_words_mut(&mut sliced).zeroize();
        let r2 = core::mem::take(&mut self.r2);
        self.mont_mul(as_digits_mut(out), &operand, &r2);
        self.r2 = r2;
        as_words_mut(&mut operand).zeroize();
        self.operand = operand;
    }

    fn leave_mont(&mut self, elem: &[u64], residues: &mut [&mut [u64]]) {
        // (x·1 + q·m)/R <= m for x < 2m < R: one masked subtraction of m at
        // most, done on 64-bit limbs.
        let Layout { digit_bits, digits } = self.layout;
        let mut operand = core::mem::take(&mut self.operand);
        let unit = core::mem::take(&mut self.unit);
        self.mont_mul(&mut operand, as_digits(elem), &unit);
        self.unit = unit;
        let words = as_words_mut(&mut operand);
        let mut lane_digits = Zeroizing::new(vec![0u64; digits]);
        let mut value = Zeroizing::new([0u64; MAX_LIMBS]);
        for (j, (residue, ctx)) in residues.iter_mut().zip(&self.contexts).enumerate() {
            for (i, d) in lane_digits.iter_mut().enumerate() {
                *d = words[Self::LANES * i + j];
            }
            let n = ctx.limbs();
            radix_to_limbs(&lane_digits, &mut value[..n], digit_bits);
            masks::reduce_below_2m(residue, &value[..n], 0, ctx.modulus());
        }
        words.zeroize();
        self.operand = operand;
    }

    fn one(&self, out: &mut [u64]) {
        as_digits_mut(out).copy_from_slice(&self.one);
    }

    fn mul(&mut self, out: &mut [u64], a: &[u64], b: &[u64]) {
        self.mont_mul(as_digits_mut(out), as_digits(a), as_digits(b));
    }

    fn sqr(&mut self, out: &mut [u64], a: &[u64]) {
        self.mont_sqr(as_digits_mut(out), as_digits(a));
    }

    fn select(out: &mut [u64], table: &[u64], digits: &[u64], _masks: &mut [[u64; MAX_LANES]]) {
        // SAFETY: this backend's methods run only on a CPU with AVX2 (an
        // Avx2Arith exists, see `new`).
        unsafe { select::select_avx2(as_digits_mut(out), as_digits(table), digits) }
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
