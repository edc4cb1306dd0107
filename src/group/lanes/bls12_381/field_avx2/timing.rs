//! The AVX2 field's products against blst's (the portable path's field,
//! MULX/ADX assembly where the CPU has it), for profiling by hand
//! (ignored: `cargo test --release --lib bls12_381::field_avx2::timing --
//! --ignored --nocapture`). They print, and assert nothing about time.

use core::hint::black_box;

use super::*;

/// The best of 15 repetitions of `run`, in nanoseconds, divided by `per`.
fn nanos(per: u64, mut run: impl FnMut()) -> f64 {
    (0..15)
        .map(|_| {
            let start = std::time::Instant::now();
            run();
            start.elapsed().as_nanos() as f64 / per as f64
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
#[ignore = "prints timings"]
fn print_products_against_blst() {
    if !std::is_x86_feature_detected!("avx2") {
        return;
    }
    const K: u64 = 20_000;
    let report = |name: &str, ns: f64| println!("{name:48} {ns:7.2} ns per element");
    // SAFETY: the CPU has AVX2 (checked above).
    unsafe {
        let x = Fp8::one().add(&Fp8::one());
        let y = x.add(&Fp8::one());
        report(
            "avx2 mul, 8 lanes, one chain",
            nanos(8 * K, || {
                let mut a = black_box(x);
                for _ in 0..K {
                    a = a.mul(&y);
                }
                black_box(a);
            }),
        );
        report(
            "avx2 mul, 8 lanes, two chains",
            nanos(16 * K, || {
                let mut a = black_box([x, y]);
                for _ in 0..K {
                    a = a.map(|a| a.mul(&y));
                }
                black_box(a);
            }),
        );
        report(
            "avx2 mul_sum, 8 lanes, one chain (per sum)",
            nanos(8 * K, || {
                let mut a = black_box(x);
                for _ in 0..K {
                    a = a.mul_sum(&y, &x, &y);
                }
                black_box(a);
            }),
        );
    }
    let mut a = blst::blst_fp {
        l: [1, 2, 3, 4, 5, 6],
    };
    let b = blst::blst_fp {
        l: [7, 8, 9, 10, 11, 0x0fff],
    };
    report(
        "blst_fp_mul, one chain",
        nanos(K, || {
            for _ in 0..K {
                // SAFETY: valid pointers to field elements; blst allows `ret`
                // to alias an input.
                unsafe { blst::blst_fp_mul(&mut a, &a, &b) };
            }
            black_box(&a);
        }),
    );
    let mut four = [a, b, a, b];
    report(
        "blst_fp_mul, four chains",
        nanos(4 * K, || {
            for _ in 0..K {
                for c in four.iter_mut() {
                    // SAFETY: as above.
                    unsafe { blst::blst_fp_mul(c, c, &b) };
                }
            }
            black_box(&four);
        }),
    );
    report(
        "blst_fp_sqr, four chains",
        nanos(4 * K, || {
            for _ in 0..K {
                for c in four.iter_mut() {
                    // SAFETY: as above.
                    unsafe { blst::blst_fp_sqr(c, c) };
                }
            }
            black_box(&four);
        }),
    );
}
