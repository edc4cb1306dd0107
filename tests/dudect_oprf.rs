//! Dudect-style statistical timing tests of the OPRF's hot paths on
//! secrets (`support/dudect.rs`): the server's evaluation under its key,
//! the client's blinding (hash to the group, times the blind) and
//! unblinding (times the blind's inverse), the balancer's multi-scalar
//! multiplication with secret short factors, the products of points by
//! secret scalars (`mul_each`: on P-256's engine, from affine
//! coordinates), the hash to the group on varied inputs, SHA-512 of 8
//! private messages at once (ristretto255's `hash_each`), and BLS12-381
//! G1's server evaluation and client blinding and unblinding. Scalars with
//! almost every signed digit zero (small ones, `2^252`) vs random scalars,
//! or inputs of zeros vs random inputs, the same 8 elements (one IFMA
//! vector) for both classes, timed in random interleaved order; Welch's t
//! is reported per suite. With
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

use oblivex::group::batch::{self, ReceivedBatch};
use oblivex::group::{Bls12381G1, PrimeOrderGroup, Ristretto255, ShortScalar, P256};
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

/// The two classes of a measurement: sets of 8 inputs each, the low class
/// (sparse scalars, zeros) and the high one (random).
type Classes<T> = (Vec<Vec<T>>, Vec<Vec<T>>);

/// The two classes of 8 scalars: sparse (the same one in every lane), and
/// 16 sets of random ones.
fn scalar_classes<G: PrimeOrderGroup>(
    rng: &mut UnwrapErr<getrandom::SysRng>,
) -> Classes<G::Scalar> {
    let sparse = sparse_scalars::<G>()
        .into_iter()
        .map(|s| vec![s; 8])
        .collect();
    let random = (0..16)
        .map(|_| (0..8).map(|_| G::random_scalar(rng)).collect())
        .collect();
    (sparse, random)
}

/// 8 random elements (public).
fn random_elements<G: PrimeOrderGroup>(rng: &mut UnwrapErr<getrandom::SysRng>) -> Vec<G::Element> {
    (0..8)
        .map(|_| G::mul_base(&G::random_scalar(rng)))
        .collect()
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
    let answers = random_elements::<G>(&mut rng);
    let mut encoded = vec![0u8; 8 * G::ELEMENT_LEN];
    G::encode_batch(&answers, &mut encoded);
    let (sparse, random) = scalar_classes::<G>(&mut rng);
    let mut out = vec![0u8; 8 * G::ELEMENT_LEN];
    let mut blind = |scalars: &[G::Scalar]| {
        let t = Instant::now();
        drop(batch::hash_and_blind::<G>(&inputs, dst, scalars, &mut out).unwrap());
        t.elapsed().as_secs_f64()
    };
    let blinding = timed_classes(seconds, &sparse, &random, &mut blind);
    let mut unblind = |scalars: &[G::Scalar]| {
        let received = ReceivedBatch::<G>::new(&encoded, None);
        let t = Instant::now();
        batch::mul_each(scalars, received, &mut out);
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

/// The balancer's multi-scalar multiplication of 8 elements (sent as their
/// encodings) by short secret factors (65 bits): factors 1 and 2^64 vs
/// random ones.
fn run_msm<G: PrimeOrderGroup>(seconds: f64) -> (f64, usize) {
    let mut rng = UnwrapErr(getrandom::SysRng);
    let elements = random_elements::<G>(&mut rng);
    let mut encoded = vec![0u8; 8 * G::ELEMENT_LEN];
    G::encode_batch(&elements, &mut encoded);
    let sparse: Vec<Vec<ShortScalar>> = [1u128, 1 << 64]
        .iter()
        .map(|&v| vec![ShortScalar::from_u128(v); 8])
        .collect();
    let mut state = 0x5eed_u64;
    let random: Vec<Vec<ShortScalar>> = (0..16)
        .map(|_| {
            (0..8)
                .map(|_| {
                    let low = support::dudect::next(&mut state);
                    let high = support::dudect::next(&mut state) & 1;
                    ShortScalar::from_u128(u128::from(high) << 64 | u128::from(low))
                })
                .collect()
        })
        .collect();
    let mut msm = |factors: &[ShortScalar]| {
        let received = ReceivedBatch::<G>::new(&encoded, None);
        let t = Instant::now();
        drop(batch::msm_short_ct(factors, received, 65));
        t.elapsed().as_secs_f64()
    };
    timed_classes(seconds, &sparse, &random, &mut msm)
}

/// `s_i·X_i` for 8 elements (`mul_each`: the committed-key request's
/// products; on P-256's engine from the points' affine coordinates).
fn run_mul_each<G: PrimeOrderGroup>(seconds: f64) -> (f64, usize) {
    let mut rng = UnwrapErr(getrandom::SysRng);
    let elements = random_elements::<G>(&mut rng);
    let (sparse, random) = scalar_classes::<G>(&mut rng);
    let mut mul = |scalars: &[G::Scalar]| {
        let t = Instant::now();
        drop(G::mul_each(scalars, &elements));
        t.elapsed().as_secs_f64()
    };
    timed_classes(seconds, &sparse, &random, &mut mul)
}

/// The two classes of 8 private messages of `len` bytes (a multiple of
/// 8): zeros, and 16 random sets.
fn zero_and_random_messages(len: usize) -> Classes<Vec<u8>> {
    let mut state = 0x5eed_u64;
    let mut message = || -> Vec<u8> {
        (0..len / 8)
            .flat_map(|_| support::dudect::next(&mut state).to_le_bytes())
            .collect()
    };
    let random = (0..16)
        .map(|_| (0..8).map(|_| message()).collect())
        .collect();
    (vec![vec![vec![0u8; len]; 8]], random)
}

/// The hash to the group and blinding of 8 inputs with fixed blinds:
/// inputs of zeros vs random inputs (the map's cases depend on them).
fn run_map<G: PrimeOrderGroup>(seconds: f64) -> (f64, usize) {
    let mut rng = UnwrapErr(getrandom::SysRng);
    let dst = b"oblivex dudect map";
    let blinds: Vec<G::Scalar> = (0..8).map(|_| G::random_scalar(&mut rng)).collect();
    let (zeros, random) = zero_and_random_messages(32);
    let mut out = vec![0u8; 8 * G::ELEMENT_LEN];
    let mut blind = |inputs: &[Vec<u8>]| {
        let inputs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let t = Instant::now();
        drop(batch::hash_and_blind::<G>(&inputs, dst, &blinds, &mut out).unwrap());
        t.elapsed().as_secs_f64()
    };
    timed_classes(seconds, &zeros, &random, &mut blind)
}

/// `hash_each` of 8 private messages of 48 bytes (ristretto255: SHA-512 in
/// AVX-512 lanes where its engine runs): zeros vs random bytes.
fn run_hash_each<G: PrimeOrderGroup>(seconds: f64) -> (f64, usize) {
    let (zeros, random) = zero_and_random_messages(48);
    let mut hash = |messages: &[Vec<u8>]| {
        let parts: Vec<Vec<&[u8]>> = messages.iter().map(|m| vec![m.as_slice()]).collect();
        let t = Instant::now();
        drop(G::hash_each(&parts));
        t.elapsed().as_secs_f64()
    };
    timed_classes(seconds, &zeros, &random, &mut hash)
}

/// Prints one line per suite and measurement.
fn report(what: &str, ristretto255: (f64, usize), p256: (f64, usize)) {
    report_suites(what, &[("ristretto255", ristretto255), ("P-256", p256)]);
}

/// Prints one line per suite of `results` for the measurement `what`.
fn report_suites(what: &str, results: &[(&str, (f64, usize))]) {
    let backend = Backend::selected().map_or("none", Backend::name);
    for &(suite, (t, samples)) in results {
        println!(
            "{suite} {what} (arithmetic backend {backend}): Welch t = {t:+.2} over {samples} \
             batches of 8 (|t| > 4.5 would indicate a leak)"
        );
    }
}

/// A dudect test (on demand) of `measure` on both suites, reported as
/// `what`.
macro_rules! on_both_suites {
    ($(#[$doc:meta])* $name:ident, $what:literal, $measure:ident) => {
        $(#[$doc])*
        #[test]
        #[ignore]
        fn $name() {
            let seconds = seconds();
            let ristretto255 = $measure::<Ristretto255>(seconds);
            report($what, ristretto255, $measure::<P256>(seconds));
        }
    };
}

on_both_suites!(
    dudect_sparse_vs_random_server_keys,
    "server evaluation",
    run
);
on_both_suites!(dudect_sparse_vs_random_msm_factors, "balancer MSM", run_msm);
on_both_suites!(dudect_sparse_vs_random_mul_each, "mul_each", run_mul_each);
on_both_suites!(dudect_zero_vs_random_map_inputs, "hash to group", run_map);
on_both_suites!(
    /// SHA-512 in lanes is ristretto255's only (P-256 hashes with SHA-256,
    /// one message at a time): P-256's line times its one-by-one `hash_each`.
    dudect_zero_vs_random_hash_each,
    "hash_each",
    run_hash_each
);

#[test]
#[ignore]
fn dudect_sparse_vs_random_client_blinds() {
    let seconds = seconds();
    let [ristretto255_blinding, ristretto255_unblinding] = run_client::<Ristretto255>(seconds);
    let [p256_blinding, p256_unblinding] = run_client::<P256>(seconds);
    report("client blinding", ristretto255_blinding, p256_blinding);
    report(
        "client unblinding",
        ristretto255_unblinding,
        p256_unblinding,
    );
}

/// BLS12-381 G1's server evaluation and client blinding and unblinding
/// (on its 8-lane engine where the CPU has it, on blst otherwise).
#[test]
#[ignore]
fn dudect_sparse_vs_random_bls12_381() {
    let seconds = seconds();
    let server = run::<Bls12381G1>(seconds);
    let [blinding, unblinding] = run_client::<Bls12381G1>(seconds);
    report_suites("server evaluation", &[("BLS12-381 G1", server)]);
    report_suites("client blinding", &[("BLS12-381 G1", blinding)]);
    report_suites("client unblinding", &[("BLS12-381 G1", unblinding)]);
}
