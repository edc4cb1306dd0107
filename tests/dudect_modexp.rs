//! A dudect-style statistical timing test of the batch exponentiation
//! (`support/dudect.rs`): two classes of inputs — all exponents of weight 1 (a single set bit) vs
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

mod support;

use oblivex::mp::{Backend, MontContext};
use std::time::Instant;
use support::dudect::{next, sample, seconds};

fn run(backend: Backend, bits: usize, seconds: f64) -> (f64, usize) {
    let len = bits / 8;
    let mut state = 0x5eed_u64 + bits as u64;
    let mut modulus: Vec<u8> = (0..len).map(|_| next(&mut state) as u8).collect();
    modulus[0] |= 0x80;
    modulus[len - 1] |= 1;
    let ctx = MontContext::new(&modulus).unwrap();
    let count = 8; // one full IFMA group, two AVX2 groups
    let fixed_bases: Vec<u8> = (0..count * len).map(|i| (i * 7 + 1) as u8).collect();
    let mut data = state ^ 0xda7a;
    sample(seconds, &mut state, |class_high, _| {
        let mut exponents = vec![0u8; count * len];
        let bases: Vec<u8>;
        if class_high {
            exponents
                .iter_mut()
                .for_each(|b| *b = next(&mut data) as u8);
            bases = (0..count * len).map(|_| next(&mut data) as u8).collect();
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
        t.elapsed().as_secs_f64()
    })
}

#[test]
#[ignore]
fn dudect_low_vs_high_weight_exponents() {
    let seconds = seconds();
    for &backend in Backend::ALL {
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
