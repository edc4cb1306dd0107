//! `oblivex speed modexp`: constant-time batch exponentiation per modulus
//! size and backend (full-length random exponents, one core).

use oblivex::mp::{Backend, MontContext};

use crate::timing::{median_us_per_item, TestData};

/// A random odd modulus of exactly `bits` bits.
fn random_modulus(data: &mut TestData, bits: usize) -> Vec<u8> {
    let len = bits.div_ceil(8);
    let mut m = data.bytes(len);
    let top_bits = bits - 8 * (len - 1);
    m[0] &= 0xffu8 >> (8 - top_bits);
    m[0] |= 1 << (top_bits - 1);
    m[len - 1] |= 1;
    m
}

/// Microseconds per exponentiation of `bits`-bit operands on `backend`.
fn measure(backend: Backend, bits: usize, seconds: f64) -> f64 {
    let mut data = TestData(bits as u64);
    let ctx = MontContext::new(&random_modulus(&mut data, bits)).expect("valid modulus");
    let len = ctx.modulus_len();
    let batch = 16; // two groups of 8 lanes on the IFMA backend
    let bases = data.bytes(batch * len);
    let exponents = data.bytes(batch * len);
    median_us_per_item(
        seconds,
        batch,
        || (),
        |()| {
            ctx.mod_exp_batch_on(backend, &bases, len, &exponents, len)
                .expect("valid batch");
        },
    )
}

/// Prints the table (or JSON lines) for `sizes`.
pub fn speed(sizes: &[usize], seconds: f64, json: bool) {
    let backends: Vec<Backend> = Backend::ALL
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect();
    if !json {
        println!("constant-time modular exponentiation, full-length exponents, one core (median of 5 runs)");
        println!(
            "{:>6}  {:>9}  {:>12}  {:>10}",
            "bits", "backend", "exp/s", "µs/exp"
        );
    }
    for &bits in sizes {
        for &backend in &backends {
            let us = measure(backend, bits, seconds);
            if json {
                println!(
                    "{{\"impl\":\"oblivex-{}\",\"bits\":{bits},\"us_per_op\":{us:.2},\"ops_per_s\":{:.1}}}",
                    backend.name(),
                    1e6 / us
                );
            } else {
                println!(
                    "{bits:>6}  {:>9}  {:>12.1}  {us:>10.2}",
                    backend.name(),
                    1e6 / us
                );
            }
        }
    }
}
