//! The AVX-512 IFMA backend: 8 exponentiations in lockstep, one per 64-bit
//! lane of a zmm register, in radix 2^52 with VPMADD52LUQ/VPMADD52HUQ doing
//! the products ("word-sliced": register `i` holds digit `i` of all 8
//! values, so no carry ever crosses lanes). Each lane has its own modulus,
//! exponent and base; the lanes of one group share the digit count `L`.
//!
//! The arithmetic is in `montgomery.rs` (separated Montgomery with a
//! truncated, exact reduction) and `strip.rs` (the register-blocked product
//! kernel), with register-window kernels for 20 digits: `fused.rs` (the
//! squaring) and `half.rs` (the window's product in half form, whose table
//! entries carry a companion); the exponentiation itself is the shared `fixed_window` code,
//! entered here inside a `#[target_feature]` function so that its table
//! select is compiled for AVX-512 as well. Nothing here runs unless
//! [`ifma_supported`] said yes.

mod constants;
mod cpu_table;
mod fused;
mod half;
mod karatsuba;
mod montgomery;
mod strip;
mod tuning;
mod vectors;

use core::arch::x86_64::*;

use zeroize::Zeroize;

use super::sliced::{
    as_registers, as_registers_mut, as_words_mut, slice_residues, unslice_residues, word_slice,
    zero, Register,
};
use super::LaneArith;
use crate::backend::ifma_supported;
use crate::mp::context::MontContext;
use crate::mp::fixed_window;
use crate::mp::limbs::convert::RADIX52_BITS;
use crate::mp::limits::MAX_LANES;
use constants::{constants_of, digits_for_bits, Radix52Constants};
use fused::mont_sqr_chosen;
use half::{half_shift, mont_mul_half, HALF_FORM_HEADROOM_BITS};
use montgomery::{mont_mul, Modulus};
use tuning::ProfileId;
use vectors::Workspace;

/// Values per group: the 64-bit lanes of a zmm register.
const VECTOR_LANES: usize = <__m512i as Register>::LANES;

/// [`LaneArith`] on AVX-512 IFMA: an element is `L` vectors (`8L` words).
pub(crate) struct IfmaArith<'a> {
    contexts: Vec<&'a MontContext>,
    digits: usize,
    /// `m` after one zero digit (see `Modulus::m_padded`).
    m_padded: Vec<__m512i>,
    m_prime: Vec<__m512i>,
    r2: Vec<__m512i>,
    one: Vec<__m512i>,
    /// The number 1 (leaving the Montgomery domain multiplies by it).
    unit: Vec<__m512i>,
    /// An operand in vector form (entering/leaving the domain).
    operand: Vec<__m512i>,
    work: Workspace,
    /// This CPU's tuning profile (`cpu_table.rs`).
    profile: ProfileId,
    /// Whether the window's products run in half form (`half.rs`), each
    /// table entry followed by its companion: where the profile asks for
    /// it at this digit count (20, the kernel's one size) and every lane's
    /// modulus leaves the form's headroom. Public: sizes only.
    half_product: bool,
}

/// The one digit count of the half-form kernels.
const HALF_FORM_DIGITS: usize = 20;

impl IfmaArith<'_> {
    /// The lanes' moduli as the kernels take them.
    fn modulus(&self) -> Modulus<'_> {
        Modulus {
            m_padded: &self.m_padded,
            m_prime: &self.m_prime,
        }
    }
}

/// Runs a kernel on the instance for the group's profile (`tuning.rs`)
/// and digit count: a dedicated one for the common sizes, the generic one
/// otherwise; `$rows` gives the rows per strip of each dedicated size. One
/// dispatch per operation; inside, every choice is a constant.
macro_rules! dispatch {
    ($kernel:ident, $rows:path, $self:ident, $($arg:expr),*) => {{
        // Field by field, not `$self.modulus()`: the kernel also takes
        // `$self.work` mutably.
        let modulus = Modulus { m_padded: &$self.m_padded, m_prime: &$self.m_prime };
        let l = $self.digits;
        match $self.profile {
            ProfileId::Zen4 => {
                dispatch_size!($kernel, $rows, tuning::Zen4, l, &modulus, &mut $self.work, $($arg),*)
            }
        }
    }};
}

/// [`dispatch!`]'s choice of size, for profile `$profile`.
macro_rules! dispatch_size {
    ($kernel:ident, $rows:path, $profile:ty, $l:ident, $($arg:expr),*) => {
        // SAFETY: an IfmaArith exists only once `ifma_supported()` held (see
        // `LaneArith::new`), so the AVX-512F/IFMA kernels may run.
        unsafe {
            match $l {
                20 => $kernel::<20, { $rows(20) }, $profile>($l, $($arg),*),
                30 => $kernel::<30, { $rows(30) }, $profile>($l, $($arg),*),
                40 => $kernel::<40, { $rows(40) }, $profile>($l, $($arg),*),
                60 => $kernel::<60, { $rows(60) }, $profile>($l, $($arg),*),
                80 => $kernel::<80, { $rows(80) }, $profile>($l, $($arg),*),
                _ => $kernel::<0, 4, $profile>($l, $($arg),*),
            }
        }
    };
}

impl<'a> LaneArith<'a> for IfmaArith<'a> {
    const LANES: usize = VECTOR_LANES;

    fn new(contexts: &[&'a MontContext]) -> Self {
        assert!(
            ifma_supported(),
            "the IFMA backend runs only where the CPU has AVX-512 IFMA"
        );
        assert_eq!(contexts.len(), Self::LANES, "one context per lane");
        let constants: Vec<_> = contexts.iter().map(|ctx| constants_of(ctx)).collect();
        let digits = constants[0].digits;
        assert!(
            constants.iter().all(|c| c.digits == digits),
            "one size class per group"
        );
        let lanes_of = |field: fn(&Radix52Constants) -> &[u64]| -> Vec<__m512i> {
            let lanes: Vec<&[u64]> = constants.iter().map(|c| field(c)).collect();
            word_slice(&lanes, digits)
        };
        let mut unit_digits = vec![0u64; digits];
        unit_digits[0] = 1;
        let profile = super::cpu::CpuRow::current(cpu_table::TABLE).profile;
        let half_product = digits == HALF_FORM_DIGITS
            && tuning::tuning_of(profile, digits).half_product
            && contexts
                .iter()
                .all(|ctx| ctx.modulus_bits() + HALF_FORM_HEADROOM_BITS <= digits * RADIX52_BITS);
        IfmaArith {
            contexts: contexts.to_vec(),
            digits,
            m_padded: [zero()]
                .into_iter()
                .chain(lanes_of(|c| &c.modulus))
                .collect(),
            m_prime: lanes_of(|c| &c.m_prime),
            r2: lanes_of(|c| &c.r2),
            one: lanes_of(|c| &c.one),
            unit: word_slice(&[unit_digits.as_slice(); VECTOR_LANES], digits),
            operand: vec![zero(); digits],
            work: Workspace::new(digits),
            profile,
            half_product,
        }
    }

    fn size_class(context: &MontContext) -> usize {
        digits_for_bits(context.modulus_bits())
    }

    fn words(&self) -> usize {
        Self::LANES * self.digits
    }

    fn window_bits(&self, exponent_bits: usize) -> usize {
        // Short exponents keep the smaller windows of the shared cost model.
        tuning::tuning_of(self.profile, self.digits)
            .window_bits
            .min(super::default_window_bits(exponent_bits))
    }

    fn enter_mont(&mut self, residues: &[&[u64]], out: &mut [u64]) {
        let mut operand = core::mem::take(&mut self.operand);
        slice_residues(residues, RADIX52_BITS, &mut operand);
        let r2 = core::mem::take(&mut self.r2);
        dispatch!(
            mont_mul,
            tuning::product_rows,
            self,
            as_registers_mut(out),
            &operand,
            &r2
        );
        self.r2 = r2;
        as_words_mut(&mut operand).zeroize();
        self.operand = operand;
    }

    fn leave_mont(&mut self, elem: &[u64], residues: &mut [&mut [u64]]) {
        // (x·1 + q·m)/R <= m for any x < R: one masked subtraction of m at
        // most, done on 64-bit limbs.
        let mut operand = core::mem::take(&mut self.operand);
        let unit = core::mem::take(&mut self.unit);
        dispatch!(
            mont_mul,
            tuning::product_rows,
            self,
            &mut operand,
            as_registers(elem),
            &unit
        );
        self.unit = unit;
        unslice_residues(&mut operand, &self.contexts, RADIX52_BITS, residues);
        self.operand = operand;
    }

    fn one(&self, out: &mut [u64]) {
        as_registers_mut(out).copy_from_slice(&self.one);
    }

    fn mul(&mut self, out: &mut [u64], a: &[u64], b: &[u64]) {
        dispatch!(
            mont_mul,
            tuning::product_rows,
            self,
            as_registers_mut(out),
            as_registers(a),
            as_registers(b)
        );
    }

    fn sqr(&mut self, out: &mut [u64], a: &[u64]) {
        dispatch!(
            mont_sqr_chosen,
            tuning::square_rows,
            self,
            as_registers_mut(out),
            as_registers(a)
        );
    }

    fn entry_words(&self) -> usize {
        self.words() * if self.half_product { 2 } else { 1 }
    }

    fn complete_entry(&mut self, entry: &mut [u64]) {
        if self.half_product {
            let modulus = self.modulus();
            let (power, companion) = as_registers_mut(entry).split_at_mut(self.digits);
            // SAFETY: an IfmaArith exists only on a CPU with AVX-512F and
            // IFMA (see `new`); `half_product` holds only at 20 digits.
            unsafe { half_shift::<HALF_FORM_DIGITS>(&modulus, companion, power) }
        }
    }

    fn mul_by_entry(&mut self, out: &mut [u64], a: &[u64], entry: &[u64]) {
        if self.half_product {
            let modulus = self.modulus();
            let (power, companion) = as_registers(entry).split_at(self.digits);
            // SAFETY: as in `complete_entry`.
            unsafe {
                mont_mul_half::<HALF_FORM_DIGITS>(
                    &modulus,
                    as_registers_mut(out),
                    as_registers(a),
                    power,
                    companion,
                )
            }
        } else {
            self.mul(out, a, &entry[..self.words()]);
        }
    }

    fn select(out: &mut [u64], table: &[u64], digits: &[u64], _masks: &mut [[u64; MAX_LANES]]) {
        // SAFETY: this backend's methods run only on a CPU with AVX-512F
        // (an IfmaArith exists, see `new`).
        unsafe { select_avx512(as_registers_mut(out), as_registers(table), digits) }
    }

    fn exp(
        &mut self,
        residues: &[&[u64]],
        exponents: &[&[u64]],
        exponent_bits: usize,
        results: &mut [&mut [u64]],
    ) {
        // SAFETY: as in `dispatch!`: this value exists only on a CPU with
        // AVX-512F and IFMA.
        unsafe { exp_avx512(self, residues, exponents, exponent_bits, results) }
    }
}

/// Registers selected together: their accumulators stay in registers
/// while every entry passes (one ternary-logic op per register and entry,
/// its entry word a memory operand; one store per register).
const SELECT_BLOCK: usize = 10;

/// [`LaneArith::select`] a block of registers at a time (whole blocks,
/// then the rest as one shorter block: no per-register tests). The lane
/// masks are made in registers from the 8 digits, once per entry and
/// block: no mask goes through memory.
#[inline]
#[target_feature(enable = "avx512f")]
fn select_avx512(out: &mut [__m512i], table: &[__m512i], digits: &[u64]) {
    assert_eq!(digits.len(), VECTOR_LANES, "one digit per lane");
    // SAFETY: 8 words are readable at `digits` (checked above); an
    // unaligned load.
    let wanted = unsafe { _mm512_loadu_si512(digits.as_ptr().cast()) };
    let words = out.len();
    let whole = words - words % SELECT_BLOCK;
    for start in (0..whole).step_by(SELECT_BLOCK) {
        select_block::<SELECT_BLOCK>(out, table, wanted, start);
    }
    match words - whole {
        0 => {}
        1 => select_block::<1>(out, table, wanted, whole),
        2 => select_block::<2>(out, table, wanted, whole),
        3 => select_block::<3>(out, table, wanted, whole),
        4 => select_block::<4>(out, table, wanted, whole),
        5 => select_block::<5>(out, table, wanted, whole),
        6 => select_block::<6>(out, table, wanted, whole),
        7 => select_block::<7>(out, table, wanted, whole),
        8 => select_block::<8>(out, table, wanted, whole),
        _ => select_block::<9>(out, table, wanted, whole),
    }
}

/// Registers `start .. start + N` of the entry `wanted` holds for each
/// lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn select_block<const N: usize>(
    out: &mut [__m512i],
    table: &[__m512i],
    wanted: __m512i,
    start: usize,
) {
    let words = out.len();
    let one = _mm512_set1_epi64(1);
    let mut index = _mm512_setzero_si512();
    let mut acc = [_mm512_setzero_si512(); N];
    for entry in table.chunks_exact(words) {
        let mask = lane_mask_eq(wanted, index);
        index = _mm512_add_epi64(index, one);
        let entry = &entry[start..][..N];
        unrolled!(k < N => {
            // 0xF8 = A | (B & C)
            acc[k] = _mm512_ternarylogic_epi64::<0xF8>(acc[k], entry[k], mask);
        });
    }
    out[start..start + N].copy_from_slice(&acc);
}

/// All-ones in the lanes where `a == b`, zeros elsewhere, for `a` and `b`
/// below 2^63, by arithmetic (`(a ^ b) - 1` is negative exactly when they
/// are equal), and hidden from the optimiser: seen as a comparison, the
/// mask would let LLVM fold the select into an OR masked by an opmask with
/// the table entry as its memory operand, a masked load under a secret
/// mask.
#[inline]
#[target_feature(enable = "avx512f")]
fn lane_mask_eq(a: __m512i, b: __m512i) -> __m512i {
    let difference = _mm512_xor_si512(a, b);
    let mut mask = _mm512_srai_epi64::<63>(_mm512_sub_epi64(difference, _mm512_set1_epi64(1)));
    // SAFETY: an empty instruction sequence: `mask` is unchanged, only
    // hidden from the optimiser (no memory, stack or flags touched).
    unsafe {
        core::arch::asm!("/* {0} */", inout(zmm_reg) mask, options(pure, nomem, nostack, preserves_flags));
    }
    mask
}

/// The shared exponentiation, compiled with AVX-512 enabled (it is inlined
/// here), so the table select and the glue use zmm registers too.
#[target_feature(enable = "avx512f,avx512ifma")]
fn exp_avx512(
    arith: &mut IfmaArith<'_>,
    residues: &[&[u64]],
    exponents: &[&[u64]],
    exponent_bits: usize,
    results: &mut [&mut [u64]],
) {
    fixed_window::mod_exp(arith, residues, exponents, exponent_bits, results);
}

impl Drop for IfmaArith<'_> {
    fn drop(&mut self) {
        as_words_mut(&mut self.work.columns).zeroize();
        as_words_mut(&mut self.work.quotient).zeroize();
        as_words_mut(&mut self.work.karatsuba).zeroize();
        as_words_mut(&mut self.operand).zeroize();
        // The moduli may be secret primes (an RSA key's): their digits and
        // constants go too.
        for constant in [
            &mut self.m_padded,
            &mut self.m_prime,
            &mut self.r2,
            &mut self.one,
        ] {
            as_words_mut(constant).zeroize();
        }
    }
}

#[cfg(test)]
mod timing {
    use super::*;
    use std::time::Instant;

    /// IFMA instructions per second of this core, right now: 12 independent
    /// chains (the latency is about 8 cycles) in named registers, with
    /// operands the compiler cannot see (constant operands let LLVM fold the
    /// multiply and time additions instead).
    #[target_feature(enable = "avx512f,avx512ifma")]
    fn ifma_peak_rate() -> f64 {
        let b = std::hint::black_box(_mm512_set1_epi64(12345));
        let c = std::hint::black_box(_mm512_set1_epi64(678));
        let [mut a0, mut a1, mut a2, mut a3, mut a4, mut a5, mut a6, mut a7, mut a8, mut a9, mut a10, mut a11] =
            std::hint::black_box([_mm512_setzero_si512(); 12]);
        let iters = 2_000_000;
        let start = Instant::now();
        for _ in 0..iters {
            a0 = _mm512_madd52lo_epu64(a0, b, c);
            a1 = _mm512_madd52lo_epu64(a1, b, c);
            a2 = _mm512_madd52lo_epu64(a2, b, c);
            a3 = _mm512_madd52lo_epu64(a3, b, c);
            a4 = _mm512_madd52lo_epu64(a4, b, c);
            a5 = _mm512_madd52lo_epu64(a5, b, c);
            a6 = _mm512_madd52lo_epu64(a6, b, c);
            a7 = _mm512_madd52lo_epu64(a7, b, c);
            a8 = _mm512_madd52lo_epu64(a8, b, c);
            a9 = _mm512_madd52lo_epu64(a9, b, c);
            a10 = _mm512_madd52lo_epu64(a10, b, c);
            a11 = _mm512_madd52lo_epu64(a11, b, c);
            // SAFETY: an empty asm statement; it only keeps the loop a loop.
            unsafe { core::arch::asm!("", options(nomem, nostack)) };
        }
        let rate = (12 * iters) as f64 / start.elapsed().as_secs_f64();
        std::hint::black_box([a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11]);
        rate
    }

    #[target_feature(enable = "avx512f,avx512ifma")]
    fn select_avx512(table: &[u64], words: usize, digits: &[u64], out: &mut [u64]) {
        let mut masks = [[0u64; MAX_LANES]; 64];
        let masks = &mut masks[..table.len() / words];
        fixed_window::select_entry::<IfmaArith<'_>>(table, words, digits, masks, out);
    }

    #[test]
    #[ignore]
    fn select_timing() {
        if !ifma_supported() {
            return;
        }
        // (40, 4): the table of the half-form product at 20 digits.
        for (digits, w) in [
            (20usize, 4usize),
            (40, 4),
            (20, 5),
            (20, 6),
            (40, 5),
            (80, 5),
        ] {
            let words = VECTOR_LANES * digits;
            let table = crate::mp::limbs::aligned::AlignedWords::zeroed(words << w);
            let mut out = crate::mp::limbs::aligned::AlignedWords::zeroed(words);
            let lane_digits = [3u64, 1, 4, 1, 5, 9, 2, 6];
            // SAFETY: ifma_supported() checked above.
            let rate = unsafe { ifma_peak_rate() };
            let start = Instant::now();
            for _ in 0..2000 {
                // SAFETY: ifma_supported() checked above.
                unsafe { select_avx512(&table, words, &lane_digits, &mut out) };
            }
            let slots = start.elapsed().as_secs_f64() * rate / 2000.0;
            println!("select L={digits} w={w}: {slots:.0} cycles per select");
        }
    }

    /// One Montgomery squaring and multiplication of each dedicated size in
    /// a loop, in cycles against the plain kernels' multiply-add counts,
    /// for each form: plain, products and squares by one level of
    /// Karatsuba (docs/PERFORMANCE.md has their counts), and the fused
    /// square. The forms take turns within each round; each figure is its
    /// best round's time at the fastest IFMA issue rate measured between
    /// rounds (the least disturbed figures of both). Run with `cargo test --release kernel_timing -- --ignored
    /// --nocapture`.
    #[test]
    #[ignore]
    fn kernel_timing() {
        use tuning::{sweep, tuning_of, Reduction, Tuning};
        if !ifma_supported() {
            return;
        }
        for bits in [1024usize, 2048, 3072, 4096] {
            let mut m = vec![0xa7u8; bits / 8];
            m[0] |= 0x80;
            let ctx = MontContext::new(&m).unwrap();
            let contexts = [&ctx; VECTOR_LANES];
            let mut arith = IfmaArith::new(&contexts);
            let l = arith.digits;
            let words = arith.words();
            let mut a = crate::mp::limbs::aligned::AlignedWords::zeroed(words);
            let mut b = crate::mp::limbs::aligned::AlignedWords::zeroed(words);
            let mut c = crate::mp::limbs::aligned::AlignedWords::zeroed(words);
            arith.one(&mut a);
            arith.one(&mut b);
            let chosen = tuning_of(arith.profile, l);
            // (Karatsuba for products and squares, fused square)
            let forms = [(false, false), (true, false), (false, true)];
            // Best seconds per squaring and multiplication of each form.
            let mut best = [(f64::MAX, f64::MAX); 3];
            // The window's product in half form, at the digit count that
            // has it: `b` as a table entry with its companion.
            sweep::force(Some(Tuning {
                half_product: true,
                ..chosen
            }));
            let mut half = IfmaArith::new(&contexts);
            sweep::force(None);
            let mut entry = crate::mp::limbs::aligned::AlignedWords::zeroed(half.entry_words());
            entry[..words].copy_from_slice(&b);
            half.complete_entry(&mut entry);
            let mut best_half = f64::MAX;
            let mut rate = 0f64;
            for _ in 0..15 {
                // SAFETY: ifma_supported() checked above.
                rate = rate.max(unsafe { ifma_peak_rate() });
                for (&(karatsuba, fused_square), best) in forms.iter().zip(&mut best) {
                    sweep::force(Some(Tuning {
                        karatsuba,
                        karatsuba_square: karatsuba,
                        fused_square,
                        half_product: false,
                        ..chosen
                    }));
                    let iters = 5_000;
                    let start = Instant::now();
                    for _ in 0..iters {
                        arith.sqr(&mut b, &a);
                        arith.sqr(&mut a, &b);
                    }
                    best.0 = best
                        .0
                        .min(start.elapsed().as_secs_f64() / (2 * iters) as f64);
                    let start = Instant::now();
                    for _ in 0..iters {
                        arith.mul(&mut c, &a, &b);
                        arith.mul(&mut b, &a, &c);
                    }
                    best.1 = best
                        .1
                        .min(start.elapsed().as_secs_f64() / (2 * iters) as f64);
                }
                if half.half_product {
                    // Not chained: the left factor must stay a squaring's
                    // result (< 2m), and the right one is the entry.
                    let iters = 5_000;
                    let start = Instant::now();
                    for _ in 0..iters {
                        half.mul_by_entry(&mut c, &a, &entry);
                        half.mul_by_entry(&mut c, &a, &entry);
                    }
                    best_half = best_half.min(start.elapsed().as_secs_f64() / (2 * iters) as f64);
                }
            }
            sweep::force(None);
            // The plain squaring's count: the word-by-word reduction never
            // forms the column it clears (`2L^2`), the others `2L^2 + L`.
            let square_madds = if chosen.reduction == Reduction::Window {
                3 * l * l + l
            } else {
                3 * l * l + 2 * l
            };
            for (&(karatsuba, fused_square), &(sqr, mul)) in forms.iter().zip(&best) {
                println!(
                    "L={l} karatsuba={karatsuba} fused_square={fused_square}: squaring {:.0} \
                     cycles ({square_madds} multiply-adds), multiplication {:.0} cycles",
                    sqr * rate,
                    mul * rate
                );
            }
            if half.half_product {
                println!(
                    "L={l} window product in half form: {:.0} cycles ({} multiply-adds)",
                    best_half * rate,
                    3 * l * l + l / 2
                );
            }
        }
    }

    /// Times whole exponentiations (full-length exponents, 8 and 16 values
    /// per call) for every reduction form and window width, best of several
    /// rounds, as µs per value and as the fraction of the machine's IFMA
    /// issue rate (measured in the same run) that the kernels' multiply-adds
    /// would need. Run with
    /// `cargo test --release tuning_sweep -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn tuning_sweep() {
        use tuning::{sweep, Reduction, Tuning};
        if !ifma_supported() {
            return;
        }
        // The fastest configuration of each size, for the thresholds.
        let mut winners = Vec::new();
        for bits in [1024usize, 2048, 3072, 4096] {
            let mut m = vec![0xa7u8; bits / 8];
            m[0] |= 0x80;
            let ctx = MontContext::new(&m).unwrap();
            let digits = digits_for_bits(ctx.modulus_bits());
            // Every configuration once per round, best of the rounds: the
            // minimum is the figure least disturbed by other load.
            let mut configs = Vec::new();
            let values = 8usize;
            for reduction in [Reduction::Window, Reduction::Truncated, Reduction::Blocks] {
                if reduction == Reduction::Window && digits > tuning::MAX_WINDOW_DIGITS {
                    continue;
                }
                for window_bits in [4usize, 5, 6] {
                    for karatsuba in [false, true] {
                        for karatsuba_square in [false, true] {
                            // The fused square and the half-form
                            // product exist at 20 digits only.
                            for fused_square in [false, digits == HALF_FORM_DIGITS] {
                                for half_product in [false, digits == HALF_FORM_DIGITS] {
                                    configs.push((
                                        values,
                                        Tuning {
                                            reduction,
                                            window_bits,
                                            karatsuba,
                                            karatsuba_square,
                                            fused_square,
                                            half_product,
                                        },
                                        f64::MAX,
                                    ));
                                }
                            }
                        }
                    }
                }
                configs.dedup_by_key(|c| c.1);
            }
            let bases = vec![0x5au8; 16 * bits / 8];
            let exponents = vec![0xc3u8; 16 * bits / 8];
            for _ in 0..7 {
                for (values, tuning, best) in configs.iter_mut() {
                    sweep::force(Some(*tuning));
                    let n = *values * bits / 8;
                    let start = Instant::now();
                    drop(
                        ctx.mod_exp_batch_on(
                            crate::backend::Backend::Ifma,
                            &bases[..n],
                            bits / 8,
                            &exponents[..n],
                            bits / 8,
                        )
                        .unwrap(),
                    );
                    *best = best.min(start.elapsed().as_secs_f64() / *values as f64);
                }
            }
            for &(values, tuning, best) in &configs {
                println!(
                    "{bits} bits, {values} values, {:?} w={} karatsuba={} karatsuba_square={} \
                     fused_square={} half_product={}: \
                     {:.1} µs per value",
                    tuning.reduction,
                    tuning.window_bits,
                    tuning.karatsuba,
                    tuning.karatsuba_square,
                    tuning.fused_square,
                    tuning.half_product,
                    best * 1e6
                );
            }
            sweep::force(None);
            let fastest = configs
                .iter()
                .min_by(|a, b| a.2.total_cmp(&b.2))
                .expect("every size has configurations");
            winners.push((digits, fastest.1));
        }
        let cpu = super::super::cpu::CpuModel::current();
        let row = super::super::cpu::CpuRow::for_cpu(super::cpu_table::TABLE, cpu);
        println!(
            "{cpu:?} runs the row {:?} ({:?}) today; the thresholds these figures \
             choose (a profile for tuning.rs, a row for cpu_table.rs): {:?}",
            row.name,
            row.provenance,
            tuning::thresholds_choosing(&winners)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{assert_select_picks_each_lanes_entry, data};
    use super::tuning::{sweep, Reduction, Tuning};
    use super::*;
    use crate::backend::Backend;

    /// Deterministic test data (not cryptographic).
    /// The select gives each lane the entry of its own digit, whatever the
    /// other lanes want, for every digit, in whole blocks of registers and
    /// in a partial one.
    #[test]
    fn select_picks_each_lanes_entry() {
        if !ifma_supported() {
            return;
        }
        assert_select_picks_each_lanes_entry::<IfmaArith<'_>>(16, &[20, 13, 3], 5);
    }

    /// Every reduction form, window width and product form the tuning can
    /// pick gives the portable backend's results bit for bit, on every size
    /// class (the dedicated instances and the generic path), with a batch
    /// that leaves a partial group. Forcing is process-wide; every choice is
    /// correct, so other tests running meanwhile are unaffected.
    #[test]
    fn every_configuration_matches_portable() {
        if !ifma_supported() {
            return;
        }
        // 1036 bits: the largest modulus with the half form's headroom at
        // 20 digits; 1038: the largest of 20 digits, which has not.
        let sizes = [
            1024usize, 1036, 1038, 1536, 2048, 3072, 4096, 100, 521, 700, 1300, 8192,
        ];
        for (s, &bits) in sizes.iter().enumerate() {
            let len = bits.div_ceil(8);
            let mut m = data(s as u64 + 1, len);
            m[0] |= 1 << ((bits - 1) % 8);
            m[0] &= 0xff >> (7 - (bits - 1) % 8);
            m[len - 1] |= 1;
            let ctx = MontContext::new(&m).unwrap();
            let count = 11;
            let exponent_len = if bits > 3000 { 24 } else { len };
            let bases = data(100 + s as u64, count * (len + 3));
            let exponents = data(200 + s as u64, count * exponent_len);
            let expected = ctx
                .mod_exp_batch_on(Backend::Portable, &bases, len + 3, &exponents, exponent_len)
                .unwrap();
            for reduction in [Reduction::Window, Reduction::Truncated, Reduction::Blocks] {
                for (karatsuba, fused_square) in [(false, false), (true, false), (false, true)] {
                    for (window_bits, half_product) in [1usize, 4, 6]
                        .into_iter()
                        .flat_map(|w| [(w, false), (w, true)])
                    {
                        // Both products' forms at once: each is tried on
                        // and off at no extra test time.
                        sweep::force(Some(Tuning {
                            reduction,
                            window_bits,
                            karatsuba,
                            karatsuba_square: karatsuba,
                            fused_square,
                            half_product,
                        }));
                        // The half form runs exactly where its size and
                        // headroom allow.
                        let engaged = half_product && matches!(bits, 1024 | 1036);
                        let arith = IfmaArith::new(&[&ctx; VECTOR_LANES]);
                        assert_eq!(
                            arith.entry_words(),
                            arith.words() * if engaged { 2 } else { 1 },
                            "{bits} bits, half product {half_product}"
                        );
                        drop(arith);
                        let got = ctx
                            .mod_exp_batch_on(
                                Backend::Ifma,
                                &bases,
                                len + 3,
                                &exponents,
                                exponent_len,
                            )
                            .unwrap();
                        sweep::force(None);
                        assert!(
                            got == expected,
                            "{bits} bits, {reduction:?}, karatsuba {karatsuba}, \
                             fused square {fused_square}, half product {half_product}, \
                             window {window_bits}"
                        );
                    }
                }
            }
        }
    }
}
