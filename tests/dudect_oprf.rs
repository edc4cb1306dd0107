//! Dudect-style statistical timing tests of the OPRF's hot paths on
//! secrets (`support/dudect.rs`): the server's evaluation under its key,
//! and the client's blinding (hash to the group, times the blind) and
//! unblinding (times the blind's inverse). Scalars with almost every
//! signed digit zero (small ones, `2^252`) vs random scalars, the same 8
//! elements (one IFMA vector) for both classes, timed in random
//! interleaved order; Welch's t is reported per suite. With
//! `OBLIVEX_BACKEND` unset, ristretto255 runs on the 8-lane IFMA engine
//! where the CPU has it, on curve25519-dalek otherwise (the line says
//! which). Noisy on a shared machine, so not a CI test; run on
//! demand:
//!
//! ```text
//! cargo test --release --test dudect_oprf -- --ignored --nocapture
//! OBLIVEX_BACKEND=portable cargo test --release --test dudect_oprf -- --ignored --nocapture
//! ```
//! (`DUDECT_SECONDS` sets the time per suite, default 20.)

mod support;

use oblivex::group::{PrimeOrderGroup, ReceivedBatch, Ristretto255, P256};
use oblivex::mp::Backend;
use oblivex::oprf::{KeyPair, OprfClient, OprfServer};
use rand_core::UnwrapErr;
use std::time::Instant;
use support::dudect::{sample, seconds};

/// Scalars whose signed radix-16 digits are almost all zero.
fn sparse_scalars<G: PrimeOrderGroup>() -> Vec<G::Scalar> {
    let two_pow_63 = G::scalar_from_u64(1 << 63);
    let two_pow_126 = G::scalar_mul(&two_pow_63, &two_pow_63);
    let two_pow_252 = G::scalar_mul(&two_pow_126, &two_pow_126);
    vec![G::scalar_from_u64(1), G::scalar_from_u64(16), two_pow_252]
}

/// Keys whose signed radix-16 digits are almost all zero.
fn sparse_keys<G: PrimeOrderGroup>() -> Vec<OprfServer<G>> {
    sparse_scalars::<G>()
        .into_iter()
        .map(|k| OprfServer::new(KeyPair::from_secret(k)))
        .collect()
}

/// The client's two steps on secrets, 8 elements, each with sparse vs
/// random scalars (the same one in every lane for the sparse class, fresh
/// random ones per lane for the other): Welch's t of blinding and of
/// unblinding, and the samples of each.
fn run_client<G: PrimeOrderGroup>(seconds: f64) -> [(f64, usize); 2] {
    let mut rng = UnwrapErr(getrandom::SysRng);
    let dst = b"oblivex dudect client";
    let inputs: Vec<Vec<u8>> = (0..8).map(|i| vec![i as u8; 16]).collect();
    let inputs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let answers: Vec<G::Element> = (0..8)
        .map(|_| G::mul_base(&G::random_scalar(&mut rng)))
        .collect();
    let mut encoded = vec![0u8; 8 * G::ELEMENT_LEN];
    G::encode_batch(&answers, &mut encoded);
    let sparse: Vec<Vec<G::Scalar>> = sparse_scalars::<G>()
        .into_iter()
        .map(|s| vec![s; 8])
        .collect();
    let random: Vec<Vec<G::Scalar>> = (0..16)
        .map(|_| (0..8).map(|_| G::random_scalar(&mut rng)).collect())
        .collect();
    let mut out = vec![0u8; 8 * G::ELEMENT_LEN];
    let mut blind = |scalars: &[G::Scalar]| {
        let t = Instant::now();
        drop(G::hash_and_blind_encode(&inputs, dst, scalars, &mut out).unwrap());
        t.elapsed().as_secs_f64()
    };
    let blinding = timed_classes(seconds, &sparse, &random, &mut blind);
    let mut unblind = |scalars: &[G::Scalar]| {
        let batch = ReceivedBatch {
            encoded: &encoded,
            elements: None,
            prepared: None,
        };
        let t = Instant::now();
        G::mul_each_received_encode(scalars, batch, &mut out);
        t.elapsed().as_secs_f64()
    };
    let unblinding = timed_classes(seconds, &sparse, &random, &mut unblind);
    [blinding, unblinding]
}

/// Welch's t of `time` over the two classes of scalar vectors (each used
/// once before timing: first-use costs), and the samples.
fn timed_classes<S>(
    seconds: f64,
    sparse: &[Vec<S>],
    random: &[Vec<S>],
    time: &mut dyn FnMut(&[S]) -> f64,
) -> (f64, usize) {
    for scalars in sparse.iter().chain(random) {
        time(scalars);
    }
    let mut state = 0x5eed_u64;
    sample(seconds, &mut state, |class_high, pick| {
        let class = if class_high { random } else { sparse };
        time(&class[pick as usize % class.len()])
    })
}

fn run<G: PrimeOrderGroup>(seconds: f64) -> (f64, usize) {
    let mut rng = UnwrapErr(getrandom::SysRng);
    let inputs: Vec<Vec<u8>> = (0..8).map(|i| vec![i as u8; 16]).collect();
    let inputs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let batch = OprfClient::<G>::new().blind(&inputs, &mut rng).unwrap();
    let request = batch.request();
    let sparse = sparse_keys::<G>();
    let random: Vec<OprfServer<G>> = (0..16).map(|_| OprfServer::generate(&mut rng)).collect();
    // Each key evaluates once before timing (first-use costs).
    for server in sparse.iter().chain(&random) {
        drop(server.evaluate(request));
    }
    let mut state = 0x5eed_u64;
    sample(seconds, &mut state, |class_high, pick| {
        let server = if class_high {
            &random[pick as usize % random.len()]
        } else {
            &sparse[pick as usize % sparse.len()]
        };
        let t = Instant::now();
        drop(server.evaluate(request));
        t.elapsed().as_secs_f64()
    })
}

#[test]
#[ignore]
fn dudect_sparse_vs_random_server_keys() {
    let seconds = seconds();
    let backend = Backend::selected().map_or("none", Backend::name);
    for (suite, (t, samples)) in [
        (Ristretto255::SUITE_ID, run::<Ristretto255>(seconds)),
        (P256::SUITE_ID, run::<P256>(seconds)),
    ] {
        println!(
            "{suite} server evaluation (arithmetic backend {backend}): Welch t = {t:+.2} over \
             {samples} batches of 8 (|t| > 4.5 would indicate a leak)"
        );
    }
}

#[test]
#[ignore]
fn dudect_sparse_vs_random_client_blinds() {
    let seconds = seconds();
    let backend = Backend::selected().map_or("none", Backend::name);
    for (suite, [blinding, unblinding]) in [
        (Ristretto255::SUITE_ID, run_client::<Ristretto255>(seconds)),
        (P256::SUITE_ID, run_client::<P256>(seconds)),
    ] {
        for (step, (t, samples)) in [("blinding", blinding), ("unblinding", unblinding)] {
            println!(
                "{suite} client {step} (arithmetic backend {backend}): Welch t = {t:+.2} over \
                 {samples} batches of 8 (|t| > 4.5 would indicate a leak)"
            );
        }
    }
}
