//! `oblivex speed threshold`: what checking t of m servers costs the client.
//!
//! - Blind BLS (BLS12-381, t of 5 signers): the check of one signer's share
//!   of one signature by the batch check (one 65-bit multi-scalar
//!   multiplication of the signer's n + 1 answers and one full one for
//!   `s·C_j`, divided by n) against the naive check of that share with a
//!   2-pairing equation `e(Y, G2gen) = e(X, PK_j)` (two Miller loops and a
//!   final exponentiation, blst); apart, the decoding with subgroup check
//!   that both need for every share; and the client's whole cost per
//!   signature: blind + finalize with the batch check, against hashing and
//!   blinding, t·n pairing checks, Lagrange combination and unblinding (the
//!   pairing part as t × the measured per-share figure, the rest measured).
//! - Threshold OPRF (ristretto255): the client's blind + finalize of one
//!   batch answered by t servers, against t single-server checked batches
//!   (what a client would run without the threshold layer).
//!
//! Each pair of measurements is interleaved round by round; ratios are the
//! medians of the per-round ratios.

use std::time::{Duration, Instant};

use blst::{
    blst_fp12, blst_fp12_finalverify, blst_miller_loop, blst_p1_affine, blst_p1_affine_in_g1,
    blst_p1_uncompress, blst_p2_affine, blst_p2_affine_generator, blst_p2_uncompress,
};
use oblivex::bls::{self, SigningClient, SIGNATURE_DST};
use oblivex::group::{Bls12381G1, PrimeOrderGroup, Ristretto255, ShortScalar};
use oblivex::message::{BlindedElements, EvaluatedElements};
use oblivex::oblivious::Kappa;
use oblivex::oprf::{CheckedOprfClient, KeyPair, OprfServer, ThresholdOprfClient};
use oblivex::threshold::{self, combine_at_zero_vartime, evaluate_share, PartyId, Response};

use crate::timing::{median, TestData};

/// Signers (and OPRF servers) in every setup.
const PARTIES: usize = 5;

/// Runs `a` and `b` alternately (order swapped every round) for about
/// `seconds`, at least 3 rounds; returns their median times and the median
/// of the per-round ratios a/b.
fn interleaved(
    seconds: f64,
    a: &mut dyn FnMut() -> f64,
    b: &mut dyn FnMut() -> f64,
) -> (f64, f64, f64) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    let start = Instant::now();
    let budget = Duration::from_secs_f64(seconds);
    while ta.len() < 3 || (start.elapsed() < budget && ta.len() < 1000) {
        if ta.len() % 2 == 0 {
            ta.push(a());
            tb.push(b());
        } else {
            tb.push(b());
            ta.push(a());
        }
    }
    let ratios = ta.iter().zip(&tb).map(|(x, y)| x / y).collect();
    (median(ta), median(tb), median(ratios))
}

fn timed(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64()
}

fn inputs(n: usize) -> Vec<Vec<u8>> {
    (0..n)
        .map(|i| format!("message {i}").into_bytes())
        .collect()
}

pub fn speed(ns: &[usize], seconds: f64, json: bool) {
    if !json {
        println!("\nThreshold blind BLS (t of {PARTIES} signers): checking one signer's share of one signature, and the client's cost per signature");
        println!(
            "{:>5} {:>2} | {:>10} {:>9} {:>7} | {:>8} {:>7} | {:>12} {:>12} {:>7}",
            "n",
            "t",
            "pairing µs",
            "batch µs",
            "ratio",
            "valid µs",
            "ratio+v",
            "naive cli µs",
            "batch cli µs",
            "ratio"
        );
    }
    for &t in &[3usize, 5] {
        for &n in ns {
            bls_client(n, t, seconds, json);
        }
    }
    if !json {
        println!(
            "pairing, batch: the check of one share proper (goal at n = 1024: pairing/batch ≥ 100);\n\
             valid: decoding and subgroup-checking the share, which both ways need; ratio+v: the\n\
             ratio with it counted on both sides; cli: the client's whole cost per signature"
        );
        println!("\nThreshold OPRF (ristretto255, t of {PARTIES} servers): client blind + finalize of one batch vs t single-server checked batches, µs per input");
        println!(
            "{:>5} {:>2} | {:>12} {:>12} {:>8}",
            "n", "t", "t batches", "threshold", "ratio"
        );
    }
    for &t in &[3usize, 5] {
        for &n in ns {
            oprf_client(n, t, seconds, json);
        }
    }
}

/// A G1 point from its compressed encoding, subgroup-checked (what a naive
/// verifier does with each share).
fn p1(bytes: &[u8]) -> blst_p1_affine {
    let mut point = blst_p1_affine::default();
    // SAFETY: `bytes` holds 48 bytes (one element of a request or response).
    let ok = unsafe { blst_p1_uncompress(&mut point, bytes.as_ptr()) };
    // SAFETY: `point` is initialised.
    assert!(ok == blst::BLST_ERROR::BLST_SUCCESS && unsafe { blst_p1_affine_in_g1(&point) });
    point
}

/// `e(share, G2gen) = e(blinded, key)`: the naive check of one share.
fn pairing_check(share: &blst_p1_affine, blinded: &blst_p1_affine, key: &blst_p2_affine) -> bool {
    let (mut left, mut right) = (blst_fp12::default(), blst_fp12::default());
    // SAFETY: valid pointers to initialised points; the generator is static.
    unsafe {
        blst_miller_loop(&mut left, blst_p2_affine_generator(), share);
        blst_miller_loop(&mut right, key, blinded);
        blst_fp12_finalverify(&left, &right)
    }
}

fn bls_client(n: usize, t: usize, seconds: f64, json: bool) {
    type G = Bls12381G1;
    let mut rng = oblivex::rng::os_rng().expect("OS randomness");
    let (shares, key_set) = bls::deal(&G::random_scalar(&mut rng), t, PARTIES, &mut rng).unwrap();
    let client = SigningClient::new(key_set.clone(), Kappa::DEFAULT);
    let messages = inputs(n);
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let quorum: Vec<PartyId> = (1..=t as PartyId).collect();
    let answers = |request: &[u8]| -> Vec<Vec<u8>> {
        let request = BlindedElements::<G>::from_bytes(request).unwrap();
        quorum
            .iter()
            .map(|&id| {
                evaluate_share(&shares[usize::from(id) - 1], None, &request)
                    .unwrap()
                    .to_bytes()
            })
            .collect()
    };
    let batch = client.blind(&refs, &mut rng).unwrap();
    let request = batch.request().to_bytes();
    let response = answers(&request).swap_remove(0);
    drop(batch);

    // One signer's share of one signature, checked both ways.
    let key_bytes = key_set.signer_key(1).unwrap().to_bytes();
    let mut key = blst_p2_affine::default();
    // SAFETY: 96 bytes of a valid compressed G2 key.
    unsafe { blst_p2_uncompress(&mut key, key_bytes.as_ptr()) };
    // Both ways decode and subgroup-check every share first (a share with
    // a small-order component would pass either equation); that part is
    // measured once and reported apart from the checks proper.
    let sample = n.min(16);
    let blinded: Vec<blst_p1_affine> = request.chunks(48).take(sample).map(p1).collect();
    let shares_affine: Vec<blst_p1_affine> = response.chunks(48).take(sample).map(p1).collect();
    let mut pairing = || {
        timed(|| {
            for (y, x) in shares_affine.iter().zip(&blinded) {
                // (The balancer may sit among the sampled slots; its answer
                // is also k_1 times it, so every check holds.)
                assert!(pairing_check(y, x, &key));
            }
        }) / sample as f64
    };
    let mut data = TestData(n as u64);
    let factors: Vec<ShortScalar> = (0..=n)
        .map(|_| ShortScalar::from_u128(u128::from(data.next()) + 1))
        .collect();
    let commitment = key_set.commitments().party_commitment(1).unwrap();
    let s = G::random_scalar(&mut rng);
    let points = G::decode_batch(&response).unwrap();
    let mut batch_check = || {
        timed(|| {
            let lhs = G::msm_short_vartime(&factors, &points, 65);
            std::hint::black_box(lhs == G::mul(&commitment, &s));
        }) / n as f64
    };
    let (pairing_s, batch_s, check_ratio) = interleaved(seconds, &mut pairing, &mut batch_check);
    // The library's validation of an answer received: its engine's check
    // where it runs, the points handed over as elements.
    let validate = |bytes: &[u8]| {
        EvaluatedElements::<G>::from_bytes(bytes)
            .unwrap()
            .elements()
            .to_vec()
    };
    let validate_s = median(
        (0..3)
            .map(|_| timed(|| drop(validate(&response))) / (n + 1) as f64)
            .collect(),
    );
    let with_validation = (pairing_s + validate_s) / (batch_s + validate_s);

    // The client's whole cost per signature.
    let mut ours = || {
        let mut rng = oblivex::rng::os_rng().unwrap();
        let mut batch = None;
        let mut spent = timed(|| batch = Some(client.blind(&refs, &mut rng).unwrap()));
        let batch = batch.unwrap();
        let responses = answers(batch.request().as_bytes());
        let responses: Vec<Response<'_>> = quorum
            .iter()
            .zip(&responses)
            .map(|(&party, elements)| Response { party, elements })
            .collect();
        spent += timed(|| drop(batch.finalize(&responses).unwrap()));
        spent / n as f64
    };
    // Naive: hash and blind, (t·n pairing checks: added below), combine,
    // unblind; the validation and the combination are the library's.
    let mut naive_rest = || {
        let mut rng = oblivex::rng::os_rng().unwrap();
        let blinds: Vec<_> = (0..n).map(|_| G::random_scalar(&mut rng)).collect();
        let mut blinded = vec![0u8; n * 48];
        let mut spent = timed(|| {
            let hashed: Vec<_> = refs
                .iter()
                .map(|m| G::hash_to_group(&[m], SIGNATURE_DST))
                .collect();
            G::mul_each_encode(&blinds, &hashed, &mut blinded);
        });
        let responses = answers(&blinded);
        spent += timed(|| {
            let decoded: Vec<Vec<_>> = responses.iter().map(|r| validate(r)).collect();
            let columns: Vec<&[_]> = decoded.iter().map(Vec::as_slice).collect();
            let combined = combine_at_zero_vartime::<G>(&quorum, &columns).unwrap();
            let mut inverses = blinds.clone();
            G::batch_invert(&mut inverses);
            drop(G::mul_each(&inverses, &combined));
        });
        spent / n as f64
    };
    let (ours_s, rest_s, _) = interleaved(seconds, &mut ours, &mut naive_rest);
    let naive_s = rest_s + t as f64 * (pairing_s + validate_s);
    let us = |s: f64| s * 1e6;
    if json {
        println!(
            "{{\"protocol\":\"threshold-blind-bls\",\"n\":{n},\"t\":{t},\"pairing_check_us_per_share\":{:.3},\"batch_check_us_per_share\":{:.3},\"pairing_over_batch\":{check_ratio:.1},\"validation_us_per_share\":{:.3},\"with_validation_pairing_over_batch\":{with_validation:.2},\"naive_client_us_per_signature\":{:.2},\"batch_client_us_per_signature\":{:.2},\"naive_over_batch\":{:.2}}}",
            us(pairing_s),
            us(batch_s),
            us(validate_s),
            us(naive_s),
            us(ours_s),
            naive_s / ours_s
        );
    } else {
        println!(
            "{n:>5} {t:>2} | {:>10.1} {:>9.2} {:>7.1} | {:>8.1} {:>7.1} | {:>12.1} {:>12.1} {:>7.2}",
            us(pairing_s),
            us(batch_s),
            check_ratio,
            us(validate_s),
            with_validation,
            us(naive_s),
            us(ours_s),
            naive_s / ours_s
        );
    }
}

fn oprf_client(n: usize, t: usize, seconds: f64, json: bool) {
    type G = Ristretto255;
    let mut rng = oblivex::rng::os_rng().expect("OS randomness");
    let secret = G::random_scalar(&mut rng);
    let (shares, commitments) = threshold::deal::<G, _>(&secret, t, PARTIES, &mut rng).unwrap();
    let servers: Vec<OprfServer<G>> = shares
        .iter()
        .take(t)
        .map(|s| OprfServer::new(KeyPair::from_secret(s.secret().clone())))
        .collect();
    let threshold_client = ThresholdOprfClient::new(commitments.clone(), Kappa::DEFAULT);
    let messages = inputs(n);
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let quorum: Vec<PartyId> = (1..=t as PartyId).collect();

    let mut singles = || {
        let mut rng = oblivex::rng::os_rng().unwrap();
        let mut spent = 0.0;
        for server in &servers {
            let client =
                CheckedOprfClient::committed_key(*server.public_key(), Kappa::DEFAULT).unwrap();
            let mut batch = None;
            spent += timed(|| batch = Some(client.blind(&refs, &mut rng).unwrap()));
            let batch = batch.unwrap();
            let answer = server.evaluate(batch.request()).to_bytes();
            spent += timed(|| {
                let answer = EvaluatedElements::from_bytes(&answer).unwrap();
                drop(batch.finalize(&answer).unwrap())
            });
        }
        spent / n as f64
    };
    let mut combined = || {
        let mut rng = oblivex::rng::os_rng().unwrap();
        let mut batch = None;
        let mut spent = timed(|| batch = Some(threshold_client.blind(&refs, &mut rng).unwrap()));
        let batch = batch.unwrap();
        let answers: Vec<Vec<u8>> = quorum
            .iter()
            .map(|&id| {
                evaluate_share(&shares[usize::from(id) - 1], None, batch.request())
                    .unwrap()
                    .to_bytes()
            })
            .collect();
        let responses: Vec<Response<'_>> = quorum
            .iter()
            .zip(&answers)
            .map(|(&party, elements)| Response { party, elements })
            .collect();
        spent += timed(|| drop(batch.finalize(&responses).unwrap()));
        spent / n as f64
    };
    let (singles_s, combined_s, ratio) = interleaved(seconds, &mut singles, &mut combined);
    if json {
        println!(
            "{{\"protocol\":\"threshold-oprf\",\"suite\":\"{}\",\"n\":{n},\"t\":{t},\"t_single_batches_us_per_input\":{:.2},\"threshold_us_per_input\":{:.2},\"single_over_threshold\":{ratio:.2}}}",
            G::SUITE_ID,
            singles_s * 1e6,
            combined_s * 1e6
        );
    } else {
        println!(
            "{n:>5} {t:>2} | {:>12.1} {:>12.1} {:>8.2}",
            singles_s * 1e6,
            combined_s * 1e6,
            ratio
        );
    }
}
