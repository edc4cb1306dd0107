//! A dudect-style statistical timing test of the OPRF server's evaluation
//! (`support/dudect.rs`), the hot path that runs on the server's secret
//! key: keys with almost every signed digit zero (small keys, `2^252`) vs
//! random keys, the same request of 8 elements (one IFMA vector) for both
//! classes, timed in random interleaved order; Welch's t is reported per
//! suite. With `OBLIVEX_BACKEND` unset, ristretto255 runs on the 8-lane
//! IFMA engine where the CPU has it, on curve25519-dalek otherwise (the
//! line says which). Noisy on a shared machine, so not a CI test; run on
//! demand:
//!
//! ```text
//! cargo test --release --test dudect_oprf -- --ignored --nocapture
//! OBLIVEX_BACKEND=portable cargo test --release --test dudect_oprf -- --ignored --nocapture
//! ```
//! (`DUDECT_SECONDS` sets the time per suite, default 20.)

mod support;

use oblivex::group::{PrimeOrderGroup, Ristretto255, P256};
use oblivex::mp::Backend;
use oblivex::oprf::{KeyPair, OprfClient, OprfServer};
use rand_core::UnwrapErr;
use std::time::Instant;
use support::dudect::{sample, seconds};

/// Keys whose signed radix-16 digits are almost all zero.
fn sparse_keys<G: PrimeOrderGroup>() -> Vec<OprfServer<G>> {
    let two_pow_63 = G::scalar_from_u64(1 << 63);
    let two_pow_126 = G::scalar_mul(&two_pow_63, &two_pow_63);
    let two_pow_252 = G::scalar_mul(&two_pow_126, &two_pow_126);
    [G::scalar_from_u64(1), G::scalar_from_u64(16), two_pow_252]
        .into_iter()
        .map(|k| OprfServer::new(KeyPair::from_secret(k)))
        .collect()
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
