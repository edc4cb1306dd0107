//! Criterion benchmark of RFC 9497 batches: per-element cost of the client's
//! blind, the server's evaluation and the client's finalize, in OPRF and
//! VOPRF mode, at batch sizes 1, 16, 256 and 1024, on every suite; the
//! `voprf` crate runs the same operations in the same process as the
//! baseline for ristretto255 and P-256.
//!
//! `cargo bench --bench oprf` (about 15 minutes; a criterion filter such as
//! `-- ristretto255` narrows it). After criterion's own report it prints a
//! table of µs per element (criterion's median) with the ratios the design
//! targets: voprf/oblivex per operation, and VOPRF/OPRF for the server and
//! for the client (blind + finalize).
//!
//! Every operation starts and ends with bytes, as a network service would:
//! evaluate decodes the blinded elements and encodes its answer, finalize
//! decodes the answer, for both libraries.

use std::path::PathBuf;
use std::time::SystemTime;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput};
use oblivex::group::{Bls12381G1, Ffdhe2048, PrimeOrderGroup, Ristretto255, P256};
use oblivex::message::{BlindedElements, EvaluatedElements};
use oblivex::oprf::{
    OprfBatch, OprfClient, OprfServer, Output, Proof, VoprfBatch, VoprfClient, VoprfServer,
};
use rand_core::UnwrapErr;
use voprf::{BlindedElement, EvaluationElement};

const BATCH_SIZES: [usize; 4] = [1, 16, 256, 1024];
const MODES: [&str; 2] = ["oprf", "voprf"];
const OPERATIONS: [&str; 3] = ["blind", "evaluate", "finalize"];

fn rng() -> UnwrapErr<getrandom::SysRng> {
    UnwrapErr(getrandom::SysRng)
}

fn inputs(n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| format!("benchmark input {i}").into_bytes())
        .collect()
}

/// The criterion group of one suite, implementation and mode; the function
/// is the operation and the parameter the batch size.
fn group_name(suite: &str, implementation: &str, mode: &str) -> String {
    format!("{suite}_{implementation}_{mode}")
}

fn configure<'a>(
    c: &'a mut Criterion,
    name: &str,
) -> criterion::BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.warm_up_time(std::time::Duration::from_millis(500));
    group.measurement_time(std::time::Duration::from_secs(2));
    group
}

/// One oblivex client batch of either mode.
enum Batch<G: PrimeOrderGroup> {
    Oprf(OprfBatch<G>),
    Voprf(VoprfBatch<G>),
}

impl<G: PrimeOrderGroup> Batch<G> {
    fn request(&self) -> &[u8] {
        match self {
            Batch::Oprf(b) => b.request().as_bytes(),
            Batch::Voprf(b) => b.request().as_bytes(),
        }
    }

    /// Decodes the answer (and proof) as received, then finalizes.
    fn finalize(self, evaluated: &[u8], proof: Option<&[u8]>) -> Vec<Output> {
        let evaluated = EvaluatedElements::from_bytes(evaluated).unwrap();
        match self {
            Batch::Oprf(b) => b.finalize(&evaluated).unwrap(),
            Batch::Voprf(b) => {
                let proof = Proof::from_bytes(proof.unwrap()).unwrap();
                b.finalize(&evaluated, &proof).unwrap()
            }
        }
    }
}

/// oblivex on suite `G`.
fn oblivex_suite<G: PrimeOrderGroup>(c: &mut Criterion, suite: &str, max_n: usize) {
    for mode_name in MODES {
        let verifiable = mode_name == "voprf";
        let oprf_server = OprfServer::<G>::generate(&mut rng());
        let voprf_server = VoprfServer::new(oprf_server.key().clone());
        let voprf_client = VoprfClient::new(oprf_server.public_key().clone()).unwrap();
        let blind = |refs: &[&[u8]]| -> Batch<G> {
            if verifiable {
                Batch::Voprf(voprf_client.blind(refs, &mut rng()).unwrap())
            } else {
                Batch::Oprf(OprfClient::new().blind(refs, &mut rng()).unwrap())
            }
        };
        let evaluate = |blinded: &[u8]| -> (Vec<u8>, Option<Vec<u8>>) {
            let request = BlindedElements::<G>::from_bytes(blinded).unwrap();
            if verifiable {
                let (answer, proof) = voprf_server.evaluate(&request, &mut rng());
                (answer.to_bytes(), Some(proof.to_bytes()))
            } else {
                (oprf_server.evaluate(&request).to_bytes(), None)
            }
        };
        let mut group = configure(c, &group_name(suite, "oblivex", mode_name));
        for n in BATCH_SIZES.into_iter().filter(|&n| n <= max_n) {
            let data = inputs(n);
            let refs: Vec<&[u8]> = data.iter().map(Vec::as_slice).collect();
            group.throughput(Throughput::Elements(n as u64));
            group.bench_function(BenchmarkId::new("blind", n), |b| b.iter(|| blind(&refs)));
            let batch = blind(&refs);
            group.bench_function(BenchmarkId::new("evaluate", n), |b| {
                b.iter(|| evaluate(batch.request()))
            });
            group.bench_function(BenchmarkId::new("finalize", n), |b| {
                b.iter_batched(
                    || {
                        let batch = blind(&refs);
                        let answer = evaluate(batch.request());
                        (batch, answer)
                    },
                    |(batch, (evaluated, proof))| batch.finalize(&evaluated, proof.as_deref()),
                    BatchSize::PerIteration,
                )
            });
        }
        group.finish();
    }
}

/// The `voprf` crate on suite `CS`, bytes in and out like oblivex: OPRF
/// mode element by element (voprf has no OPRF batch call), VOPRF mode with
/// its batch calls.
fn voprf_suite<CS: voprf::CipherSuite>(c: &mut Criterion, suite: &str)
where
    <CS::Group as voprf::Group>::Scalar: Send,
{
    let mut r06 = rand_core_06::OsRng;

    let server = voprf::OprfServer::<CS>::new(&mut r06).unwrap();
    let mut group = configure(c, &group_name(suite, "voprf", "oprf"));
    for n in BATCH_SIZES {
        let data = inputs(n);
        group.throughput(Throughput::Elements(n as u64));
        let blind = |r06: &mut rand_core_06::OsRng| {
            let results: Vec<_> = data
                .iter()
                .map(|x| voprf::OprfClient::<CS>::blind(x, r06).unwrap())
                .collect();
            let bytes: Vec<u8> = results
                .iter()
                .flat_map(|r| r.message.serialize().to_vec())
                .collect();
            (results, bytes)
        };
        let evaluate = |blinded: &[u8], element_len: usize| -> Vec<u8> {
            blinded
                .chunks(element_len)
                .flat_map(|b| {
                    let message = BlindedElement::<CS>::deserialize(b).unwrap();
                    server.blind_evaluate(&message).serialize().to_vec()
                })
                .collect()
        };
        group.bench_function(BenchmarkId::new("blind", n), |b| b.iter(|| blind(&mut r06)));
        let (results, blinded) = blind(&mut r06);
        let element_len = blinded.len() / n;
        group.bench_function(BenchmarkId::new("evaluate", n), |b| {
            b.iter(|| evaluate(&blinded, element_len))
        });
        let evaluated = evaluate(&blinded, element_len);
        group.bench_function(BenchmarkId::new("finalize", n), |b| {
            b.iter(|| {
                results
                    .iter()
                    .zip(&data)
                    .zip(evaluated.chunks(element_len))
                    .map(|((r, x), e)| {
                        let message = EvaluationElement::<CS>::deserialize(e).unwrap();
                        r.state.finalize(x, &message).unwrap()
                    })
                    .collect::<Vec<_>>()
            })
        });
    }
    group.finish();

    let server = voprf::VoprfServer::<CS>::new(&mut r06).unwrap();
    let public = server.get_public_key();
    let mut group = configure(c, &group_name(suite, "voprf", "voprf"));
    for n in BATCH_SIZES {
        let data = inputs(n);
        group.throughput(Throughput::Elements(n as u64));
        let blind = |r06: &mut rand_core_06::OsRng| {
            let results: Vec<_> = data
                .iter()
                .map(|x| voprf::VoprfClient::<CS>::blind(x, r06).unwrap())
                .collect();
            let bytes: Vec<u8> = results
                .iter()
                .flat_map(|r| r.message.serialize().to_vec())
                .collect();
            (results, bytes)
        };
        let evaluate = |blinded: &[u8], element_len: usize, r06: &mut rand_core_06::OsRng| {
            let messages: Vec<BlindedElement<CS>> = blinded
                .chunks(element_len)
                .map(|b| BlindedElement::deserialize(b).unwrap())
                .collect();
            let result = server.batch_blind_evaluate(r06, &messages).unwrap();
            let bytes: Vec<u8> = result
                .messages
                .iter()
                .flat_map(|m| m.serialize().to_vec())
                .collect();
            // The proof stays an object: voprf's generic bounds for serializing
            // it are unwieldy, and a 64-byte proof's encoding is noise here.
            (bytes, result.proof)
        };
        group.bench_function(BenchmarkId::new("blind", n), |b| b.iter(|| blind(&mut r06)));
        let (results, blinded) = blind(&mut r06);
        let element_len = blinded.len() / n;
        group.bench_function(BenchmarkId::new("evaluate", n), |b| {
            b.iter(|| evaluate(&blinded, element_len, &mut r06))
        });
        let (evaluated, proof) = evaluate(&blinded, element_len, &mut r06);
        let clients: Vec<voprf::VoprfClient<CS>> =
            results.iter().map(|r| r.state.clone()).collect();
        group.bench_function(BenchmarkId::new("finalize", n), |b| {
            b.iter(|| {
                let messages: Vec<EvaluationElement<CS>> = evaluated
                    .chunks(element_len)
                    .map(|e| EvaluationElement::deserialize(e).unwrap())
                    .collect();
                voprf::VoprfClient::batch_finalize(&data, &clients, &messages, &proof, public)
                    .unwrap()
                    .collect::<Result<Vec<_>, _>>()
                    .unwrap()
            })
        });
    }
    group.finish();
}

/// Where criterion keeps its results: `$CARGO_TARGET_DIR/criterion`, or
/// `target/criterion` next to this benchmark's `deps` directory.
fn criterion_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CRITERION_HOME") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return Some(PathBuf::from(dir).join("criterion"));
    }
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.parent()?.join("criterion"))
}

/// Criterion's median for one benchmark, in µs per element, if it ran in
/// this process (`None` if it was filtered out; results left on disk by
/// earlier runs are ignored).
fn median_us_per_element(group: &str, operation: &str, n: usize, since: SystemTime) -> Option<f64> {
    let path = criterion_dir()?
        .join(group)
        .join(operation)
        .join(n.to_string())
        .join("new/estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    let ns = json["median"]["point_estimate"].as_f64()?;
    Some(ns / 1e3 / n as f64)
}

fn cell(v: Option<f64>) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"))
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}", a / b),
        _ => "-".to_string(),
    }
}

/// The table of the benchmarks that ran since `since`.
fn summary(since: SystemTime) {
    println!("\nµs per element (criterion median); speedup = voprf / oblivex");
    println!(
        "{:>21} {:>5} {:>6} {:>9} {:>9} {:>9} {:>8}",
        "suite", "n", "mode", "operation", "oblivex", "voprf", "speedup"
    );
    let suites = ["ristretto255", "p256", "bls12_381_g1", "ffdhe2048"];
    let get = |suite: &str, implementation: &str, mode: &str, op: &str, n: usize| {
        median_us_per_element(&group_name(suite, implementation, mode), op, n, since)
    };
    for suite in suites {
        for n in BATCH_SIZES {
            for mode in MODES {
                for op in OPERATIONS {
                    let ours = get(suite, "oblivex", mode, op, n);
                    let theirs = get(suite, "voprf", mode, op, n);
                    if ours.is_none() && theirs.is_none() {
                        continue;
                    }
                    println!(
                        "{:>21} {:>5} {:>6} {:>9} {:>9} {:>9} {:>8}",
                        suite,
                        n,
                        mode,
                        op,
                        cell(ours),
                        cell(theirs),
                        ratio(theirs, ours)
                    );
                }
            }
        }
    }
    println!("\nVOPRF / OPRF cost (server = evaluate, client = blind + finalize)");
    println!(
        "{:>21} {:>5} {:>9} {:>15} {:>15}",
        "suite", "n", "library", "server", "client"
    );
    for suite in suites {
        for n in BATCH_SIZES {
            for implementation in ["oblivex", "voprf"] {
                let side = |mode: &str, ops: &[&str]| -> Option<f64> {
                    ops.iter()
                        .map(|op| get(suite, implementation, mode, op, n))
                        .sum()
                };
                let server = ratio(side("voprf", &["evaluate"]), side("oprf", &["evaluate"]));
                let client = ratio(
                    side("voprf", &["blind", "finalize"]),
                    side("oprf", &["blind", "finalize"]),
                );
                if server == "-" && client == "-" {
                    continue;
                }
                println!(
                    "{:>21} {:>5} {:>9} {:>15} {:>15}",
                    suite, n, implementation, server, client
                );
            }
        }
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let started = SystemTime::now();
    oblivex_suite::<Ristretto255>(&mut c, "ristretto255", 1024);
    voprf_suite::<voprf::Ristretto255>(&mut c, "ristretto255");
    oblivex_suite::<P256>(&mut c, "p256", 1024);
    voprf_suite::<p256::NistP256>(&mut c, "p256");
    oblivex_suite::<Bls12381G1>(&mut c, "bls12_381_g1", 1024);
    // 2048-bit exponentiations: 1024 elements would take a minute per sample.
    oblivex_suite::<Ffdhe2048>(&mut c, "ffdhe2048", 256);
    c.final_summary();
    summary(started);
}
