//! `oblivex speed oprf`: what the malicious-server batch check costs. Per
//! suite and batch size, the server's and the client's time per input
//! element for three protocols on the same inputs and key:
//!
//! - `semi-honest`: RFC 9497 OPRF mode (the anchor);
//! - `balancer`: the checked batch OPRF (committed-key check, κ = 64): the
//!   server evaluates one more element, the client builds the balancer and
//!   checks the answer;
//! - `voprf`: RFC 9497 VOPRF mode, this library's batched DLEQ proof.
//!
//! The client's time is blind + finalize (the server's work in between is
//! not counted); the server's is its evaluation. The six measurements of one
//! (suite, n) are interleaved round by round, and each ratio is the median
//! of the per-round ratios, so slow drifts of this machine's speed cancel.
//! Last, the server evaluation of ristretto255, P-256, BLS12-381 G1 and
//! FFDHE-2048 on each arithmetic backend (child processes with
//! `OBLIVEX_BACKEND` set, since the backend is chosen once per process),
//! beside one blst G1 multiplication and Intel crypto_mb's 8-way X25519
//! and P-256 scalar multiplications where it is installed
//! (`crypto_mb.rs`).

use std::process::Command;
use std::time::{Duration, Instant};

use oblivex::group::{Bls12381G1, Ffdhe2048, PrimeOrderGroup, Ristretto255, P256};
use oblivex::message::{BlindedElements, EvaluatedElements};
use oblivex::oblivious::Kappa;
use oblivex::oprf::{CheckedOprfClient, OprfClient, OprfServer, Proof, VoprfClient, VoprfServer};
use oblivex::Backend;

use crate::crypto_mb::CryptoMb;
use crate::report::{OprfFigure, Report};
use crate::timing::{median, median_us_per_item, TestData};

/// The protocols compared, in output order.
const PROTOCOLS: [&str; 3] = ["semi-honest", "balancer", "voprf"];

/// One suite's comparison at one batch size: its figures, one per protocol.
type Compare = fn(usize, f64, bool) -> Vec<OprfFigure>;

/// The suites measured, in output order (the README's charts show each).
pub const SUITES: [(&str, Compare); 4] = [
    (Ristretto255::SUITE_ID, compare::<Ristretto255>),
    (P256::SUITE_ID, compare::<P256>),
    (Bls12381G1::SUITE_ID, compare::<Bls12381G1>),
    (Ffdhe2048::SUITE_ID, compare::<Ffdhe2048>),
];

/// Batch sizes each suite runs by default (its elements cost 40 µs to
/// 4 ms; the largest batches of the slow suites take minutes).
fn default_limit(suite: &str) -> usize {
    match suite {
        "ristretto255-SHA512" => 4096,
        "FFDHE2048-SHA512" => 256,
        _ => 1024,
    }
}

/// Runs the comparison on every suite, recording the figures in `report`.
/// `ns_given`: the batch sizes were chosen on the command line (then every
/// suite runs all of them).
pub fn speed(ns: &[usize], ns_given: bool, seconds: f64, json: bool, report: &mut Report) {
    if !json {
        println!(
            "\nMalicious-server check vs semi-honest OPRF vs VOPRF proof: µs per input element, one core"
        );
        println!(
            "{:>20} {:>5} | {:>8} {:>8} {:>8} {:>7} | {:>8} {:>8} {:>8} {:>7} | {:>6} {:>6}",
            "suite",
            "n",
            "srv semi",
            "balancer",
            "voprf",
            "bal/sh",
            "cli semi",
            "balancer",
            "voprf",
            "bal/sh",
            "x srv",
            "x cli"
        );
    }
    let mut run = |suite: &str, compare: Compare| {
        for &n in ns {
            if ns_given || n <= default_limit(suite) {
                for figure in compare(n, seconds, json) {
                    report.oprf(figure);
                }
            }
        }
    };
    for (suite, compare) in SUITES {
        run(suite, compare);
    }
    if !json {
        println!(
            "bal/sh: balancer / semi-honest (goal: server within 1/n + 1%, client ≤ 1.08 at n ≥ 256);\n\
             x srv, x cli: the VOPRF proof's extra cost over semi-honest divided by the balancer's\n\
             (goal: ≥ 10 for the server, ≥ 3 for the client; \"none\": the balancer costs no more\n\
             than semi-honest in this run: timing noise, or the committed-key client's additive\n\
             blinding, which makes it cheaper)."
        );
    }
    backends(seconds, json);
}

/// One round of the six measurements, in seconds each: server then client
/// for every protocol.
struct Round([f64; 6]);

/// Prints one (suite, n) line and returns its figures, one per protocol.
fn compare<G: PrimeOrderGroup>(n: usize, seconds: f64, json: bool) -> Vec<OprfFigure> {
    let mut rng = oblivex::rng::os_rng().expect("OS randomness");
    let inputs: Vec<Vec<u8>> = (0..n).map(|i| format!("input {i}").into_bytes()).collect();
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let oprf_server = OprfServer::<G>::generate(&mut rng);
    let public = oprf_server.public_key().clone();
    let voprf_server = VoprfServer::new(oprf_server.key().clone());
    let checked = CheckedOprfClient::<G>::committed_key(public.clone(), Kappa::DEFAULT).unwrap();
    let voprf = VoprfClient::<G>::new(public).unwrap();
    let oprf = OprfClient::<G>::new();

    let timed = |f: &mut dyn FnMut()| {
        let start = Instant::now();
        f();
        start.elapsed()
    };
    // A server receives bytes: its time includes decoding the request and
    // encoding the answer.
    let oprf_evaluate = |request: &[u8]| {
        let request = BlindedElements::<G>::from_bytes(request).unwrap();
        oprf_server.evaluate(&request).to_bytes()
    };
    let voprf_evaluate = |request: &[u8]| {
        let request = BlindedElements::<G>::from_bytes(request).unwrap();
        let (answer, proof) = voprf_server.evaluate(&request, &mut oblivex::rng::os_rng().unwrap());
        (answer.to_bytes(), proof.to_bytes())
    };
    // Fixed requests for the server measurements.
    let semi_request = oprf.blind(&refs, &mut rng).unwrap().request().to_bytes();
    let checked_request = checked.blind(&refs, &mut rng).unwrap().request().to_bytes();
    let voprf_request = voprf.blind(&refs, &mut rng).unwrap().request().to_bytes();

    // The six measurements, in seconds: servers, then clients (blind +
    // finalize, the answer decoded as received; the server's work in
    // between is not counted).
    let semi_server = || timed(&mut || drop(oprf_evaluate(&semi_request)));
    let checked_server = || timed(&mut || drop(oprf_evaluate(&checked_request)));
    let voprf_server_time = || timed(&mut || drop(voprf_evaluate(&voprf_request)));
    let semi_client = || {
        let mut rng = oblivex::rng::os_rng().unwrap();
        let mut batch = None;
        let mut spent = timed(&mut || batch = Some(oprf.blind(&refs, &mut rng).unwrap()));
        let answer = oprf_evaluate(batch.as_ref().unwrap().request().as_bytes());
        spent += timed(&mut || {
            let answer = EvaluatedElements::from_bytes(&answer).unwrap();
            drop(batch.take().unwrap().finalize(&answer).unwrap())
        });
        spent
    };
    let checked_client = || {
        let mut rng = oblivex::rng::os_rng().unwrap();
        let mut batch = None;
        let mut spent = timed(&mut || batch = Some(checked.blind(&refs, &mut rng).unwrap()));
        let answer = oprf_evaluate(batch.as_ref().unwrap().request().as_bytes());
        spent += timed(&mut || {
            let answer = EvaluatedElements::from_bytes(&answer).unwrap();
            drop(batch.take().unwrap().finalize(&answer).unwrap())
        });
        spent
    };
    let voprf_client = || {
        let mut rng = oblivex::rng::os_rng().unwrap();
        let mut batch = None;
        let mut spent = timed(&mut || batch = Some(voprf.blind(&refs, &mut rng).unwrap()));
        let (answer, proof) = voprf_evaluate(batch.as_ref().unwrap().request().as_bytes());
        spent += timed(&mut || {
            let answer = EvaluatedElements::from_bytes(&answer).unwrap();
            let proof = Proof::from_bytes(&proof).unwrap();
            drop(batch.take().unwrap().finalize(&answer, &proof).unwrap())
        });
        spent
    };
    let measurements: [&dyn Fn() -> Duration; 6] = [
        &semi_server,
        &checked_server,
        &voprf_server_time,
        &semi_client,
        &checked_client,
        &voprf_client,
    ];
    // Every other round runs the measurements in reverse order, so that a
    // drift within a round does not favour one protocol.
    let round = |index: usize| -> Round {
        let mut seconds = [0.0; 6];
        for k in 0..6 {
            let i = if index.is_multiple_of(2) { k } else { 5 - k };
            seconds[i] = measurements[i]().as_secs_f64();
        }
        Round(seconds)
    };

    round(0); // warm-up
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut rounds = Vec::new();
    while rounds.len() < 6 || (start.elapsed() < budget && rounds.len() < 1000) {
        rounds.push(round(rounds.len()));
    }
    let us = |i: usize| median(rounds.iter().map(|r| r.0[i]).collect()) * 1e6 / n as f64;
    let ratio = |a: usize, b: usize| median(rounds.iter().map(|r| r.0[a] / r.0[b]).collect());
    // The proof's extra cost over the balancer's: medians of the per-round
    // differences; `None` when the balancer costs nothing extra (its
    // median difference is not positive: timing noise, or a client the
    // check makes faster, as additive blinding does on P-256).
    let extra = |side: usize| {
        let difference =
            |a: usize| median(rounds.iter().map(|r| r.0[side + a] - r.0[side]).collect());
        let balancer = difference(1);
        (balancer > 0.0).then(|| difference(2) / balancer)
    };
    let show = |x: Option<f64>| x.map_or("none".to_string(), |x| format!("{x:.1}"));
    let json_number = |x: Option<f64>| x.map_or("null".to_string(), |x| format!("{x:.2}"));
    let figures: Vec<f64> = (0..6).map(us).collect();
    if json {
        for (i, protocol) in PROTOCOLS.iter().enumerate() {
            for (side, offset) in [("server", 0), ("client", 3)] {
                println!(
                    "{{\"suite\":\"{}\",\"n\":{n},\"protocol\":\"{protocol}\",\"side\":\"{side}\",\"us_per_element\":{:.3}}}",
                    G::SUITE_ID,
                    figures[offset + i]
                );
            }
        }
        for (side, offset) in [("server", 0), ("client", 3)] {
            println!(
                "{{\"suite\":\"{}\",\"n\":{n},\"side\":\"{side}\",\"balancer_over_semi_honest\":{:.4},\"voprf_over_semi_honest\":{:.4},\"voprf_extra_over_balancer_extra\":{}}}",
                G::SUITE_ID,
                ratio(offset + 1, offset),
                ratio(offset + 2, offset),
                json_number(extra(offset))
            );
        }
    } else {
        println!(
            "{:>20} {n:>5} | {:>8.2} {:>8.2} {:>8.2} {:>7.4} | {:>8.2} {:>8.2} {:>8.2} {:>7.4} | {:>6} {:>6}",
            G::SUITE_ID,
            figures[0],
            figures[1],
            figures[2],
            ratio(1, 0),
            figures[3],
            figures[4],
            figures[5],
            ratio(4, 3),
            show(extra(0)),
            show(extra(3)),
        );
    }
    PROTOCOLS
        .iter()
        .enumerate()
        .map(|(i, &protocol)| OprfFigure {
            suite: G::SUITE_ID,
            n,
            protocol,
            server_us: figures[i],
            client_us: figures[3 + i],
        })
        .collect()
}

/// The servers compared across arithmetic backends, with their batch
/// sizes: the groups whose evaluation the backend choice changes
/// (ristretto255: the 8-lane engine or dalek; BLS12-381 G1: the 8-lane
/// engine or blst, beside one blst multiplication; FFDHE: the
/// exponentiation engine) and P-256 (the same code on both, beside its
/// crypto_mb anchor).
const SERVER_PATHS: [(&str, usize); 4] = [
    (Ristretto255::SUITE_ID, 1024),
    (P256::SUITE_ID, 256),
    (Bls12381G1::SUITE_ID, 256),
    (Ffdhe2048::SUITE_ID, 256),
];

/// µs per element of the server's evaluation of a request of `n` elements
/// received as bytes (decode and check, evaluate, encode) for the suite
/// named, in this process; `None` for a suite not in [`SERVER_PATHS`].
pub fn server_us_per_element(suite: &str, n: usize, seconds: f64) -> Option<f64> {
    match suite {
        Ristretto255::SUITE_ID => Some(server_us::<Ristretto255>(n, seconds)),
        P256::SUITE_ID => Some(server_us::<P256>(n, seconds)),
        Bls12381G1::SUITE_ID => Some(server_us::<Bls12381G1>(n, seconds)),
        Ffdhe2048::SUITE_ID => Some(server_us::<Ffdhe2048>(n, seconds)),
        _ => None,
    }
}

/// µs of one BLS12-381 G1 variable-base multiplication by `blst` (the
/// BLS server's anchor: what one element costs without the engine).
fn blst_multiplication_us(seconds: f64) -> f64 {
    let mut rng = oblivex::rng::os_rng().expect("OS randomness");
    let point = Bls12381G1::hash_to_group(&[b"anchor"], b"anchor");
    let scalar = Bls12381G1::random_scalar(&mut rng);
    median_us_per_item(
        seconds,
        1,
        || (),
        |()| {
            let _ = std::hint::black_box(Bls12381G1::mul(&point, &scalar));
        },
    )
}

fn server_us<G: PrimeOrderGroup>(n: usize, seconds: f64) -> f64 {
    let mut rng = oblivex::rng::os_rng().expect("OS randomness");
    let inputs: Vec<Vec<u8>> = (0..n).map(|i| format!("input {i}").into_bytes()).collect();
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let server = OprfServer::<G>::generate(&mut rng);
    let request = OprfClient::<G>::new().blind(&refs, &mut rng).unwrap();
    let request = request.request().to_bytes();
    median_us_per_item(
        seconds,
        n,
        || (),
        |()| {
            let decoded = BlindedElements::<G>::from_bytes(&request).unwrap();
            drop(server.evaluate(&decoded).to_bytes());
        },
    )
}

/// The server evaluation of each suite of [`SERVER_PATHS`] on each backend
/// this CPU runs (child processes: the backend is chosen once per process;
/// the others are named as not run), beside crypto_mb's 8-way scalar
/// multiplication where it is installed.
fn backends(seconds: f64, json: bool) {
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let crypto_mb = CryptoMb::load();
    let mut data = TestData(0x0b11_7e55);
    if !json {
        println!(
            "\nServer evaluation per arithmetic backend, µs per element (decode and check, k·X, encode)"
        );
    }
    for (suite, n) in SERVER_PATHS {
        let mut results = Vec::new();
        let mut not_run = Vec::new();
        for &kind in Backend::ALL {
            let backend = kind.name();
            if !kind.is_available() {
                not_run.push(format!("{backend} {}", crate::not_run_here(kind)));
                continue;
            }
            let output = Command::new(&exe)
                .args(["speed", "server", suite, "--n", &n.to_string()])
                .args(["--seconds", &seconds.to_string()])
                .env("OBLIVEX_BACKEND", backend)
                .output();
            let us = output
                .ok()
                .filter(|o| o.status.success())
                .and_then(|o| String::from_utf8(o.stdout).ok())
                .and_then(|s| s.trim().parse::<f64>().ok());
            if let Some(us) = us {
                results.push((backend, us));
            }
        }
        let anchor = crypto_mb.as_ref().and_then(|library| match suite {
            Ristretto255::SUITE_ID => {
                Some(("mbx_x25519_mb8", library.x25519_us(&mut data, seconds)?))
            }
            P256::SUITE_ID => Some((
                "mbx_nistp256_ecdh_mb8",
                library.nistp256_us(&mut data, seconds)?,
            )),
            _ => None,
        });
        if json {
            for (backend, us) in &results {
                println!(
                    "{{\"suite\":\"{suite}\",\"n\":{n},\"protocol\":\"semi-honest\",\"side\":\"server\",\"backend\":\"{backend}\",\"us_per_element\":{us:.3}}}"
                );
            }
            if let Some((function, us)) = anchor {
                println!(
                    "{{\"suite\":\"{suite}\",\"anchor\":\"crypto_mb {function}\",\"us_per_scalar_multiplication\":{us:.3}}}"
                );
            }
            continue;
        }
        let mut line: Vec<String> = results
            .iter()
            .map(|(b, us)| format!("{b} {us:.2}"))
            .collect();
        if let Some((_, portable)) = results.iter().find(|(b, _)| *b == "portable") {
            for (backend, us) in results.iter().filter(|(b, _)| *b != "portable") {
                line.push(format!("portable/{backend} {:.2}x", portable / us));
            }
        }
        line.extend(not_run);
        if let Some((function, us)) = anchor {
            let best = results
                .iter()
                .map(|(_, us)| *us)
                .fold(f64::INFINITY, f64::min);
            line.push(format!(
                "crypto_mb {function} {us:.2} per scalar multiplication (best/crypto_mb {:.2})",
                best / us
            ));
        }
        println!("{suite:>20} n = {n:>4}: {}", line.join(", "));
    }
    let blst = blst_multiplication_us(seconds);
    if json {
        println!(
            "{{\"suite\":\"{}\",\"anchor\":\"blst G1 multiplication\",\"us_per_scalar_multiplication\":{blst:.3}}}",
            Bls12381G1::SUITE_ID
        );
    } else {
        println!(
            "{:>20} anchor: one blst G1 multiplication (255-bit scalar) {blst:.2}",
            Bls12381G1::SUITE_ID
        );
        match &crypto_mb {
            Some(library) => println!("crypto_mb: {}", library.name),
            None => println!(
                "crypto_mb: not installed (scripts/install-crypto-mb DIR, then LD_LIBRARY_PATH=DIR/lib, \
                 or OBLIVEX_CRYPTO_MB=/path/to/libcrypto_mb.so)"
            ),
        }
    }
}
