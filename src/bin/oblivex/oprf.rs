//! `oblivex speed oprf`: RFC 9497 per-element costs of the client's blind,
//! the server's evaluation and the client's finalize, in OPRF and VOPRF
//! mode, per suite and batch size (one core).

use oblivex::group::{Bls12381G1, Ffdhe2048, PrimeOrderGroup, Ristretto255, P256};
use oblivex::oprf::{ClientBatch, KeyPair, Mode, Server};

use crate::timing::median_us_per_item;

/// The suites measured by default, with the batch sizes that keep the run
/// short for the slow ones.
pub fn speed(ns: &[usize], seconds: f64, json: bool) {
    if !json {
        println!("RFC 9497 batch OPRF, µs per element, one core (median of 5 runs)");
        println!(
            "{:>20} {:>6} {:>6} {:>10} {:>10} {:>10}",
            "suite", "n", "mode", "blind", "evaluate", "finalize"
        );
    }
    for &n in ns {
        suite::<Ristretto255>(n, seconds, json);
        suite::<P256>(n, seconds, json);
    }
    for &n in ns.iter().filter(|&&n| n <= 256) {
        suite::<Bls12381G1>(n, seconds, json);
    }
    for &n in ns.iter().filter(|&&n| n <= 16) {
        suite::<Ffdhe2048>(n, seconds, json);
    }
}

fn suite<G: PrimeOrderGroup>(n: usize, seconds: f64, json: bool) {
    let mut rng = oblivex::rng::os_rng().expect("OS randomness");
    let inputs: Vec<Vec<u8>> = (0..n).map(|i| format!("input {i}").into_bytes()).collect();
    let refs: Vec<&[u8]> = inputs.iter().map(|x| x.as_slice()).collect();
    for mode in [Mode::Oprf, Mode::Voprf] {
        let key = KeyPair::<G>::generate(&mut rng);
        let public = key.public_key().clone();
        let server = Server::new(mode, key);
        let blind = || {
            ClientBatch::<G>::blind(
                mode,
                &refs,
                b"",
                Some(&public),
                &mut oblivex::rng::os_rng().unwrap(),
            )
            .unwrap()
        };
        let evaluate = |batch: &ClientBatch<G>| {
            let mut out = vec![0u8; n * G::ELEMENT_LEN];
            let proof = server
                .blind_evaluate(
                    batch.blinded_elements(),
                    b"",
                    &mut out,
                    &mut oblivex::rng::os_rng().unwrap(),
                )
                .unwrap();
            (out, proof)
        };
        let t_blind = median_us_per_item(seconds / 3.0, n, || (), |()| drop(blind()));
        let batch = blind();
        let t_eval = median_us_per_item(seconds / 3.0, n, || (), |()| drop(evaluate(&batch)));
        let t_final = median_us_per_item(
            seconds / 3.0,
            n,
            || {
                let b = blind();
                let (out, proof) = evaluate(&b);
                (b, out, proof)
            },
            |(b, out, proof)| {
                b.finalize(&out, proof.as_ref()).unwrap();
            },
        );
        let mode_name = if mode == Mode::Oprf { "oprf" } else { "voprf" };
        if json {
            for (side, us) in [
                ("blind", t_blind),
                ("evaluate", t_eval),
                ("finalize", t_final),
            ] {
                println!(
                    "{{\"suite\":\"{}\",\"n\":{n},\"protocol\":\"{mode_name}\",\"side\":\"{side}\",\"us_per_element\":{us:.2}}}",
                    G::SUITE_ID
                );
            }
        } else {
            println!(
                "{:>20} {n:>6} {mode_name:>6} {t_blind:>10.2} {t_eval:>10.2} {t_final:>10.2}",
                G::SUITE_ID
            );
        }
    }
}
