//! Cycle counts of the engine's pieces, for profiling by hand (ignored:
//! `cargo test --release --lib bls12_381::timing -- --ignored
//! --nocapture`). They print, and assert nothing about time.

use oblivex_macros::lane_features;

use core::hint::black_box;

use super::codec::{decode_each, GENERATOR_ENCODING};
use super::complete::Projective8;
use super::decompose::{split, split_by_u, HALF_BITS, QUARTER_BITS};
use super::point::{Affine8, Jacobian8};
use super::scalar_mul::{glv_tables, multiply, tables_with_times_u};
use crate::group::lanes::toolkit::{broadcast_digits, LANES};
use crate::group::PrimeOrderGroup;

/// Median TSC ticks of `run` over a few repetitions, divided by `per`.
fn ticks(per: u64, mut run: impl FnMut()) -> f64 {
    let mut samples: Vec<u64> = (0..15)
        .map(|_| {
            // SAFETY: RDTSC has no preconditions on x86-64.
            let start = unsafe { core::arch::x86_64::_rdtsc() };
            run();
            // SAFETY: as above.
            let end = unsafe { core::arch::x86_64::_rdtsc() };
            end - start
        })
        .collect();
    samples.sort_unstable();
    samples[samples.len() / 2] as f64 / per as f64
}

#[lane_features]
fn generator() -> Affine8 {
    let [(decoded, valid)] = decode_each(&[[GENERATOR_ENCODING; LANES]]);
    assert_eq!(valid, 0xff);
    decoded.point
}

#[test]
#[ignore = "prints cycle counts"]
fn print_cycle_counts() {
    if !crate::group::lanes::cpu::supported(super::super::SET) {
        return;
    }
    const K: u64 = 1000;
    // SAFETY: the CPU has this instruction set (checked above).
    unsafe {
        let g = generator();
        let (x, y) = (g.x, g.y);
        let report = |name: &str, t: f64| println!("{name:40} {t:9.1} ticks");
        report(
            "mul, dependent chain",
            ticks(K, || {
                let mut a = black_box(x);
                for _ in 0..K {
                    a = a.mul(&y);
                }
                black_box(a);
            }),
        );
        report(
            "mul, 4 chains (per mul)",
            ticks(4 * K, || {
                let mut a = black_box([x, y, x, y]);
                for _ in 0..K {
                    a = a.map(|a| a.mul(&y));
                }
                black_box(a);
            }),
        );
        report(
            "square, dependent chain",
            ticks(K, || {
                let mut a = black_box(x);
                for _ in 0..K {
                    a = a.square();
                }
                black_box(a);
            }),
        );
        report(
            "square, 4 chains (per square)",
            ticks(4 * K, || {
                let mut a = black_box([x, y, x, y]);
                for _ in 0..K {
                    a = a.map(|a| a.square());
                }
                black_box(a);
            }),
        );
        report(
            "add, dependent chain",
            ticks(K, || {
                let mut a = black_box(x);
                for _ in 0..K {
                    a = a.add(&y);
                }
                black_box(a);
            }),
        );
        report(
            "sub, 4 chains (per sub)",
            ticks(4 * K, || {
                let mut a = black_box([x, y, x, y]);
                for _ in 0..K {
                    a = a.map(|a| a.sub(&y));
                }
                black_box(a);
            }),
        );
        let j = Jacobian8::from_affine(&g);
        report(
            "double, chain",
            ticks(K, || {
                let mut a = black_box(j);
                for _ in 0..K {
                    a = a.double();
                }
                black_box(a);
            }),
        );
        report(
            "double, 2 chains (per double)",
            ticks(2 * K, || {
                let mut a = black_box([j, j]);
                for _ in 0..K {
                    a = a.map(|a| a.double());
                }
                black_box(a);
            }),
        );
        let j2 = j.double();
        report(
            "add_mixed_incomplete, chain",
            ticks(K, || {
                let mut a = black_box(j2);
                for _ in 0..K {
                    a = a.add_mixed_incomplete(&g).0;
                }
                black_box(a);
            }),
        );
        report(
            "add_incomplete (Jacobian), chain",
            ticks(K, || {
                let mut a = black_box(j2);
                for _ in 0..K {
                    a = a.add_incomplete(&j2).0;
                }
                black_box(a);
            }),
        );
        let c = Projective8::from_affine(&g).double();
        report(
            "complete add (projective), chain",
            ticks(K, || {
                let mut a = black_box(c);
                for _ in 0..K {
                    a = a.add(&c);
                }
                black_box(a);
            }),
        );
        report(
            "complete double (projective), chain",
            ticks(K, || {
                let mut a = black_box(c);
                for _ in 0..K {
                    a = a.double();
                }
                black_box(a);
            }),
        );
        let encodings = [[GENERATOR_ENCODING; LANES]; 2];
        {
            let g = crate::group::Bls12381G1::generator();
            let batch: Vec<u8> = (0..256u64)
                .flat_map(|i| {
                    let s = crate::group::Bls12381G1::scalar_from_u64(i + 2);
                    let mut e = [0u8; 48];
                    crate::group::Bls12381G1::encode(
                        &crate::group::Bls12381G1::mul(&g, &s),
                        &mut e,
                    );
                    e
                })
                .collect();
            let mut out = vec![0u8; batch.len()];
            let key = [0x5au8; 31];
            let mut key32 = [0u8; 32];
            key32[..31].copy_from_slice(&key);
            report(
                "server: decode_all, 256 (per vector)",
                ticks(32, || {
                    black_box(super::scalar_mul::decode_all(black_box(&batch)));
                }),
            );
            let factors: Vec<[u8; 9]> = (0..256u64)
                .map(|i| {
                    let mut f = [0u8; 9];
                    f[..8].copy_from_slice(&(i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).to_le_bytes());
                    f[8] = (i & 1) as u8;
                    f
                })
                .collect();
            let refs: Vec<&[u8]> = factors.iter().map(|f| &f[..]).collect();
            let decoded = super::scalar_mul::decode_all(&batch).unwrap();
            let points: Vec<Affine8> = decoded.iter().map(|d| d.point).collect();
            report(
                "client: msm_ct of 256 decoded, 65 bits (per vector)",
                ticks(32, || {
                    black_box(super::msm::msm_ct(&batch, black_box(&points), &refs, 65));
                }),
            );
            report(
                "server: mul_by_key from encodings, 256 (per vector)",
                ticks(32, || {
                    black_box(super::scalar_mul::mul_by_key(
                        &key32,
                        super::scalar_mul::Kept::NONE,
                        black_box(&batch),
                        &mut out,
                    ));
                }),
            );
        }
        report(
            "decode_each::<2> (per vector)",
            ticks(2, || {
                black_box(decode_each(black_box(&encodings)));
            }),
        );
        // A pass of 32 vectors: its tables, then one multiplication, by
        // the two decompositions (a scalar of full length).
        let [(decoded, _), _] = decode_each(&encodings);
        let pass = [decoded; 32];
        let key = [0xa5u8; 31];
        let mut key32 = [0u8; 32];
        key32[..31].copy_from_slice(&key);
        report(
            "GLV tables, 2 (per vector of a pass)",
            ticks(32, || {
                black_box(glv_tables(black_box(&pass.map(|d| d.point))));
            }),
        );
        report(
            "base-u tables, 4 (per vector of a pass)",
            ticks(32, || {
                black_box(tables_with_times_u(black_box(&pass)));
            }),
        );
        let halves = split(&key32);
        let glv_digits = halves.map(|h| broadcast_digits(&h, HALF_BITS));
        let glv_table = glv_tables(&[decoded.point])[0];
        report(
            "GLV multiply (per vector)",
            ticks(1, || {
                black_box(multiply(
                    black_box(&glv_table),
                    glv_digits.each_ref().map(|d| d.as_slice()),
                ));
            }),
        );
        let quarters = split_by_u(&key32);
        let base_u_digits = quarters.map(|q| broadcast_digits(&q, QUARTER_BITS));
        let base_u_table = tables_with_times_u(&[decoded])[0];
        report(
            "base-u multiply (per vector)",
            ticks(1, || {
                black_box(multiply(
                    black_box(&base_u_table),
                    base_u_digits.each_ref().map(|d| d.as_slice()),
                ));
            }),
        );
        report(
            "split (GLV), per scalar",
            ticks(100, || {
                for _ in 0..100 {
                    black_box(split(black_box(&key32)));
                }
            }),
        );
        report(
            "split_by_u, per scalar",
            ticks(100, || {
                for _ in 0..100 {
                    black_box(split_by_u(black_box(&key32)));
                }
            }),
        );
    }
}
