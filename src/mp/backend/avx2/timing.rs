//! Kernel timings of the AVX2 backend against the multiplier's peak (test
//! builds, run by hand): `cargo test --release avx2::timing -- --ignored
//! --nocapture`.

use core::arch::x86_64::*;
use std::time::Instant;

use super::columns::{product_columns, square_columns, Digits};
use super::reduce::{reduce, Modulus};
use super::*;
use crate::mp::backend::sliced::zero;
use crate::mp::limbs::aligned::AlignedWords;

/// VPMULUDQ per second of this core, right now: 12 independent chains
/// (latency 3 cycles) in named registers, operands hidden from the
/// compiler.
#[target_feature(enable = "avx2")]
fn multiplier_peak_rate() -> f64 {
    let b = std::hint::black_box(_mm256_set1_epi64x(12345));
    let [mut a0, mut a1, mut a2, mut a3, mut a4, mut a5, mut a6, mut a7, mut a8, mut a9, mut a10, mut a11] =
        std::hint::black_box([_mm256_set1_epi64x(3); 12]);
    let iters = 2_000_000;
    let start = Instant::now();
    for _ in 0..iters {
        a0 = _mm256_mul_epu32(a0, b);
        a1 = _mm256_mul_epu32(a1, b);
        a2 = _mm256_mul_epu32(a2, b);
        a3 = _mm256_mul_epu32(a3, b);
        a4 = _mm256_mul_epu32(a4, b);
        a5 = _mm256_mul_epu32(a5, b);
        a6 = _mm256_mul_epu32(a6, b);
        a7 = _mm256_mul_epu32(a7, b);
        a8 = _mm256_mul_epu32(a8, b);
        a9 = _mm256_mul_epu32(a9, b);
        a10 = _mm256_mul_epu32(a10, b);
        a11 = _mm256_mul_epu32(a11, b);
        // SAFETY: an empty asm statement; it only keeps the loop a loop.
        unsafe { core::arch::asm!("", options(nomem, nostack)) };
    }
    let rate = (12 * iters) as f64 / start.elapsed().as_secs_f64();
    std::hint::black_box([a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11]);
    rate
}

/// The fastest of five [`multiplier_peak_rate`]s: the least disturbed
/// figure of this core's peak. Callers have checked `avx2_supported()`.
fn peak_rate() -> f64 {
    (0..5)
        // SAFETY: the callers checked that the CPU has AVX2.
        .map(|_| unsafe { multiplier_peak_rate() })
        .fold(0.0, f64::max)
}

/// Best seconds per call of `f` over rounds of `iters` calls.
fn best_of(rounds: usize, iters: usize, mut f: impl FnMut()) -> f64 {
    (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..iters {
                f();
            }
            start.elapsed().as_secs_f64() / iters as f64
        })
        .fold(f64::MAX, f64::min)
}

/// Each kernel's time in multiplier slots (the peak issues 2 per cycle on
/// the cores measured so far), against its VPMULUDQ count.
#[test]
#[ignore]
fn kernel_timing() {
    if !avx2_supported() {
        return;
    }
    for bits in [1024usize, 2048, 3072, 4096] {
        let mut m = vec![0xa7u8; bits / 8];
        m[0] |= 0x80;
        let ctx = MontContext::new(&m).unwrap();
        let contexts = [&ctx; VECTOR_LANES];
        let mut arith = Avx2Arith::new(&contexts);
        let l = arith.layout.digits;
        let words = arith.words();
        let mut a = AlignedWords::zeroed(words);
        let mut b = AlignedWords::zeroed(words);
        let mut c = AlignedWords::zeroed(words);
        arith.one(&mut a);
        arith.one(&mut b);
        let mut t = vec![zero(); 2 * l];
        let mut doubled = vec![zero(); l];
        let mut quotient = vec![zero(); l];
        let mut out = vec![zero(); l];
        let modulus_digits = arith.modulus.clone();
        let modulus = Modulus {
            digits: &modulus_digits,
            m_prime: arith.m_prime,
            digit_bits: arith.layout.digit_bits,
        };
        let rate = peak_rate();
        let av = as_registers::<Digits>(&a).to_vec();
        let bv = as_registers::<Digits>(&b).to_vec();
        let cycles = |seconds: f64| seconds * rate / 2.0;
        let product = best_of(9, 2000, || {
            // SAFETY: avx2_supported() checked above.
            unsafe { product_columns::<8>(&mut t, &av, &bv) }
        });
        let square = best_of(9, 2000, || {
            // SAFETY: avx2_supported() checked above.
            unsafe { square_columns::<8>(&mut t, &av, &mut doubled) }
        });
        let mut scratch = vec![zero(); super::karatsuba::scratch_len(l)];
        let karatsuba_product = best_of(9, 2000, || {
            // SAFETY: avx2_supported() checked above.
            unsafe { super::karatsuba::product_columns::<8>(&mut t, &av, &bv, &mut scratch) }
        });
        let karatsuba_square = best_of(9, 2000, || {
            // SAFETY: avx2_supported() checked above.
            unsafe {
                super::karatsuba::square_columns::<8>(&mut t, &av, &mut doubled, &mut scratch)
            }
        });
        // SAFETY: avx2_supported() checked above.
        let reduction = best_of(9, 2000, || unsafe {
            product_columns::<8>(&mut t, &av, &bv);
            reduce::<8>(&mut t, &modulus, &mut quotient, &mut out)
        }) - product;
        let mul = best_of(9, 2000, || arith.mul(&mut c, &a, &b));
        let sqr = best_of(9, 2000, || arith.sqr(&mut c, &a));
        let report = |name: &str, seconds: f64, products: usize| {
            let cycles = cycles(seconds);
            println!(
                "L={l} ({bits} bits) {name}: {cycles:.0} cycles, {products} VPMULUDQ, {:.2} per cycle ({:.0} % of the peak)",
                products as f64 / cycles,
                50.0 * products as f64 / cycles
            );
        };
        report("product columns", product, l * l);
        report("square columns", square, l * (l + 1) / 2);
        let (h, upper) = (l / 2, l - l / 2);
        report(
            "Karatsuba product columns",
            karatsuba_product,
            h * h + 2 * upper * upper,
        );
        report(
            "Karatsuba square columns",
            karatsuba_square,
            h * (h + 1) / 2 + upper * (upper + 1),
        );
        report("reduction", reduction, l * l + l);
        report("multiplication", mul, 2 * l * l + l);
        report("squaring", sqr, l * (l + 1) / 2 + l * l + l);
    }
}

/// One sweep of 8 rows along 160 digits: the steady loop's rate.
#[test]
#[ignore]
fn sweep_timing() {
    if !avx2_supported() {
        return;
    }
    // SAFETY: avx2_supported() checked above.
    let digit = |i: usize| unsafe { _mm256_set1_epi64x((i as i64 * 0x9e3779b) & 0xfff_ffff) };
    let y: Vec<Digits> = (0..160).map(digit).collect();
    let mut t = vec![zero(); 168];
    let x: [Digits; 8] = core::array::from_fn(|i| digit(i + 1000));
    let rate = peak_rate();
    for _ in 0..3 {
        // SAFETY: as above.
        let seconds = best_of(9, 20000, || unsafe {
            super::columns::sweep::<8>(&mut t, &x, &y, 0..167)
        });
        let cycles = seconds * rate / 2.0;
        println!(
            "sweep 8 × 160: {cycles:.0} cycles, {:.2} products per cycle",
            1280.0 / cycles
        );
    }
}

/// Products of 52-bit digits by double-precision FMA, per second of this
/// core: the route past VPMULUDQ's bound that PERFORMANCE.md weighs. Each
/// product is `hi = a·b + 2^104` and `lo = a·b − (hi − 2^104)`, both added
/// into 64-bit integer sums as a column of a Montgomery product would take
/// them. Under rounding toward zero `lo` is the non-negative lower 52 bits
/// as computed by `a·b + ((2^104 + 2^52) − hi)`; under the default
/// rounding it is signed, and `SIGNED_LOW` adds the fourth operation
/// (`+ 1.5·2^52`) that puts it in a range whose bits are an integer with a
/// constant offset. The timing does not depend on the rounding mode, so
/// this leaves MXCSR alone. Four independent products per round, `b`
/// hidden from the compiler each round so no product is hoisted.
#[target_feature(enable = "avx2,fma")]
fn fma_product_rate<const SIGNED_LOW: bool>() -> f64 {
    const TWO_104: f64 = 20282409603651670423947251286016.0;
    const TWO_52: f64 = 4503599627370496.0;
    let upper = _mm256_set1_pd(TWO_104);
    let lower = _mm256_set1_pd(TWO_104 + TWO_52);
    let low_offset = _mm256_set1_pd(1.5 * TWO_52);
    let a: [__m256d; 4] = std::hint::black_box(core::array::from_fn(|k| {
        _mm256_set1_pd(1234567.0 + k as f64)
    }));
    let mut b = std::hint::black_box(_mm256_set1_pd(7654321.0));
    let mut sums = [_mm256_setzero_si256(); 4];
    let iters = 2_000_000;
    let start = Instant::now();
    for _ in 0..iters {
        unrolled!(k < 4 => {
            let hi = _mm256_fmadd_pd(a[k], b, upper);
            let lo = if SIGNED_LOW {
                let signed = _mm256_fmsub_pd(a[k], b, _mm256_sub_pd(hi, upper));
                _mm256_add_pd(signed, low_offset)
            } else {
                _mm256_fmadd_pd(a[k], b, _mm256_sub_pd(lower, hi))
            };
            sums[k % 2] = _mm256_add_epi64(sums[k % 2], _mm256_castpd_si256(lo));
            sums[2 + k % 2] = _mm256_add_epi64(sums[2 + k % 2], _mm256_castpd_si256(hi));
        });
        // SAFETY: an empty instruction sequence: `b` is unchanged, only
        // hidden from the optimiser (no memory, stack or flags touched).
        unsafe {
            core::arch::asm!("/* {0} */", inout(ymm_reg) b, options(pure, nomem, nostack, preserves_flags));
        }
    }
    let rate = (4 * iters) as f64 / start.elapsed().as_secs_f64();
    std::hint::black_box(sums);
    rate
}

/// [`fma_product_rate`] against the VPMULUDQ peak measured beside it: the
/// cycles of one 52×52-bit product (4 lanes), and per product of 28-bit
/// digits covering the same bits (`(28/52)²` of it), to set against the
/// kernels' cycles per VPMULUDQ in [`kernel_timing`].
#[test]
#[ignore]
fn fma_product_timing() {
    if !(avx2_supported() && is_x86_feature_detected!("fma")) {
        return;
    }
    for _ in 0..3 {
        let rate = peak_rate();
        // SAFETY: the CPU has AVX2 and FMA (checked above).
        let rounding_toward_zero = (0..5)
            .map(|_| unsafe { fma_product_rate::<false>() })
            .fold(0.0, f64::max);
        // SAFETY: as above.
        let default_rounding = (0..5)
            .map(|_| unsafe { fma_product_rate::<true>() })
            .fold(0.0, f64::max);
        for (rounding, fma) in [
            ("toward zero", rounding_toward_zero),
            ("to nearest", default_rounding),
        ] {
            let cycles = rate / 2.0 / fma;
            println!(
                "FMA 52×52-bit product, rounding {rounding}: {cycles:.2} cycles, {:.2} per 28-bit-digit product covering the same bits (VPMULUDQ's peak: 0.50)",
                cycles * (28.0f64 / 52.0).powi(2)
            );
        }
    }
}

/// product_columns at L = 152 with its operands at several distances.
#[test]
#[ignore]
fn product_placement_timing() {
    if !avx2_supported() {
        return;
    }
    let l = 152;
    let rate = peak_rate();
    for gap in [0usize, 1, 2, 3, 5, 8, 16, 32, 64, 100] {
        let mut arena = vec![zero(); 2 * l + gap + 2 * l + 256];
        let (t, rest) = arena.split_at_mut(2 * l + gap);
        let a = rest[..l].to_vec();
        let b = &rest[l..2 * l];
        // SAFETY: as above.
        let seconds = best_of(9, 2000, || unsafe { product_columns::<8>(t, &a, b) });
        let cycles = seconds * rate / 2.0;
        println!(
            "gap {gap}: {cycles:.0} cycles, {:.2} products per cycle",
            (l * l) as f64 / cycles
        );
    }
}

/// Whole exponentiations (8 values, full-length exponents) for each block
/// shape and window, best of several rounds, µs per value: the figures
/// behind `tuning.rs`. Run with `cargo test --release avx2::timing::tuning_sweep
/// -- --ignored --nocapture`.
#[test]
#[ignore]
fn tuning_sweep() {
    use super::tuning::{sweep, Tuning};
    if !avx2_supported() {
        return;
    }
    for bits in [1024usize, 2048, 3072, 4096] {
        let len = bits / 8;
        let mut m = vec![0xa7u8; len];
        m[0] |= 0x80;
        let ctx = MontContext::new(&m).unwrap();
        let values = 8;
        let bases = vec![0x5au8; values * len];
        let exponents = vec![0xc3u8; values * len];
        let mut configs = Vec::new();
        for product_rows in [6, 8] {
            for reduction_rows in [4, 6, 8] {
                for window_bits in [4, 5, 6] {
                    for karatsuba in [false, true] {
                        configs.push((
                            Tuning {
                                product_rows,
                                square_rows: product_rows,
                                reduction_rows,
                                window_bits,
                                karatsuba,
                            },
                            f64::MAX,
                        ));
                    }
                }
            }
        }
        let rounds = if bits > 2048 { 2 } else { 4 };
        for _ in 0..rounds {
            for (tuning, best) in configs.iter_mut() {
                sweep::force(Some(*tuning));
                let start = Instant::now();
                drop(
                    ctx.mod_exp_batch_on(
                        crate::backend::Backend::Avx2,
                        &bases,
                        len,
                        &exponents,
                        len,
                    )
                    .unwrap(),
                );
                *best = best.min(start.elapsed().as_secs_f64() / values as f64);
            }
        }
        sweep::force(None);
        configs.sort_by(|a, b| a.1.total_cmp(&b.1));
        let row = super::super::cpu::CpuRow::current(super::cpu_table::TABLE);
        println!(
            "{bits} bits: this CPU runs the row {:?} ({:?}), profile {:?}",
            row.name,
            row.provenance,
            super::profile()
        );
        for (tuning, best) in configs.iter().take(6) {
            println!("{bits} bits: {tuning:?}: {:.1} µs per value", best * 1e6);
        }
        for karatsuba in [false, true] {
            if let Some((tuning, best)) = configs.iter().find(|(t, _)| t.karatsuba == karatsuba) {
                println!(
                    "{bits} bits: best with Karatsuba {karatsuba}: {tuning:?}: {:.1} µs per value",
                    best * 1e6
                );
            }
        }
    }
}
