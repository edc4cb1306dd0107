//! A dudect-style statistical timing test of the batch exponentiation
//! (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant time?"):
//! two classes of inputs — all exponents of weight 1 (a single set bit) vs
//! random full-weight exponents, with fixed vs random bases — are timed in
//! random interleaved order, and Welch's t statistic of the two timing
//! distributions is reported (after cropping the slowest 5 % of samples,
//! which are interrupts). |t| above 4.5 would be evidence of a leak.
//! Noisy on a shared machine, so not a CI test; run on demand:
//!
//! ```text
//! cargo test --release --test dudect_modexp -- --ignored --nocapture
//! ```
//! (`DUDECT_SECONDS` sets the time per backend, default 20.)

use oblivex::mp::{Backend, MontContext};
use std::time::{Duration, Instant};

/// Welch's t of two samples.
fn welch_t(a: &[f64], b: &[f64]) -> f64 {
    let stats = |x: &[f64]| {
        let n = x.len() as f64;
        let mean = x.iter().sum::<f64>() / n;
        let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, var, n)
    };
    let (ma, va, na) = stats(a);
    let (mb, vb, nb) = stats(b);
    (ma - mb) / (va / na + vb / nb).sqrt()
}

/// Drops the slowest `fraction` of the samples (pre-emption, interrupts).
fn crop(mut x: Vec<f64>, fraction: f64) -> Vec<f64> {
    x.sort_by(f64::total_cmp);
    x.truncate(((1.0 - fraction) * x.len() as f64) as usize);
    x
}

/// SplitMix64: test data only.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn run(backend: Backend, bits: usize, seconds: f64) -> (f64, usize) {
    let len = bits / 8;
    let mut state = 0x5eed_u64 + bits as u64;
    let mut modulus: Vec<u8> = (0..len).map(|_| next(&mut state) as u8).collect();
    modulus[0] |= 0x80;
    modulus[len - 1] |= 1;
    let ctx = MontContext::new(&modulus).unwrap();
    let count = 8; // one full IFMA group
    let (mut low, mut high) = (Vec::new(), Vec::new());
    let fixed_bases: Vec<u8> = (0..count * len).map(|i| (i * 7 + 1) as u8).collect();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs_f64(seconds) {
        let class_high = next(&mut state) & 1 == 1;
        let mut exponents = vec![0u8; count * len];
        let bases: Vec<u8>;
        if class_high {
            exponents
                .iter_mut()
                .for_each(|b| *b = next(&mut state) as u8);
            bases = (0..count * len).map(|_| next(&mut state) as u8).collect();
        } else {
            for e in exponents.chunks_mut(len) {
                e[len - 1] = 1; // weight 1
            }
            bases = fixed_bases.clone();
        }
        let t = Instant::now();
        drop(
            ctx.mod_exp_batch_on(backend, &bases, len, &exponents, len)
                .unwrap(),
        );
        let elapsed = t.elapsed().as_secs_f64();
        if class_high {
            high.push(elapsed);
        } else {
            low.push(elapsed);
        }
    }
    let samples = low.len() + high.len();
    (welch_t(&crop(low, 0.05), &crop(high, 0.05)), samples)
}

#[test]
#[ignore]
fn dudect_low_vs_high_weight_exponents() {
    let seconds: f64 = std::env::var("DUDECT_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20.0);
    for backend in [Backend::Ifma, Backend::Portable] {
        for bits in [1024usize, 2048] {
            if MontContext::new(&[3])
                .unwrap()
                .mod_exp_batch_on(backend, &[1], 1, &[1], 1)
                .is_err()
            {
                println!("{}: not supported on this CPU", backend.name());
                continue;
            }
            let (t, samples) = run(backend, bits, seconds);
            println!(
                "{} {bits} bits: Welch t = {t:+.2} over {samples} batches of 8 (|t| > 4.5 would indicate a leak)",
                backend.name()
            );
        }
    }
}
