//! Criterion benchmark of the batch exponentiation: time per single
//! exponentiation (full-length random exponent) per modulus size and backend.
//! `cargo bench --bench modexp`; the C benchmark against OpenSSL and GMP is
//! the place for cross-library ratios.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use oblivex::mp::{Backend, MontContext};

/// Deterministic benchmark data (not cryptographic).
fn data(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

fn modexp(c: &mut Criterion) {
    let mut group = c.benchmark_group("mod_exp_batch");
    group.sample_size(10);
    for bits in [1024usize, 2048, 3072, 4096] {
        let len = bits / 8;
        let mut modulus = data(bits as u64, len);
        modulus[0] |= 0x80;
        modulus[len - 1] |= 1;
        let ctx = MontContext::new(&modulus).unwrap();
        let batch = 16;
        let bases = data(1, batch * len);
        let exponents = data(2, batch * len);
        group.throughput(Throughput::Elements(batch as u64));
        for backend in Backend::ALL.iter().copied().filter(|b| b.is_available()) {
            group.bench_function(BenchmarkId::new(backend.name(), bits), |b| {
                b.iter(|| {
                    ctx.mod_exp_batch_on(backend, &bases, len, &exponents, len)
                        .unwrap()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, modexp);
criterion_main!(benches);
