//! The RFC 9497 protocols on every suite of this library: full batches in
//! each mode, tampered answers rejected, and frozen regression vectors for
//! the suites the RFC does not cover (BLS12381G1-SHA256, FFDHE*-SHA512),
//! generated once with `OBLIVEX_BLESS_VECTORS=1` and checked ever since.

use oblivex::group::{
    encode_scalar_to_vec, encode_to_vec, Bls12381G1, Ffdhe2048, Ffdhe3072, Ffdhe4096,
    PrimeOrderGroup, Ristretto255, P256,
};
use oblivex::oprf::{ClientBatch, KeyPair, Mode, Proof, Server};
use oblivex::Error;
use rand_core::UnwrapErr;
use serde_json::{json, Value};

fn rng() -> UnwrapErr<getrandom::SysRng> {
    UnwrapErr(getrandom::SysRng)
}

const MODES: [Mode; 3] = [Mode::Oprf, Mode::Voprf, Mode::Poprf];

fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Oprf => "OPRF",
        Mode::Voprf => "VOPRF",
        Mode::Poprf => "POPRF",
    }
}

/// A whole batch with random blinds and nonce; then the same batch answered
/// by a server with another key must fail verification (VOPRF/POPRF).
fn round_trip<G: PrimeOrderGroup>() {
    let inputs: Vec<&[u8]> = vec![b"one", b"two", b"", b"four"];
    for mode in MODES {
        let info: &[u8] = if mode == Mode::Poprf {
            b"public info"
        } else {
            b""
        };
        let key = KeyPair::<G>::generate(&mut rng());
        let public = key.public_key().clone();
        let server = Server::new(mode, key);
        let client =
            ClientBatch::<G>::blind(mode, &inputs, info, Some(&public), &mut rng()).unwrap();
        let mut evaluated = vec![0u8; inputs.len() * G::ELEMENT_LEN];
        let proof = server
            .blind_evaluate(client.blinded_elements(), info, &mut evaluated, &mut rng())
            .unwrap();
        let outputs = client.finalize(&evaluated, proof.as_ref()).unwrap();
        assert_eq!(outputs.len(), inputs.len());
        assert!(outputs.iter().all(|o| o.len() == G::HASH_LEN));

        // Same inputs, same key: same outputs (blinding does not matter).
        let again =
            ClientBatch::<G>::blind(mode, &inputs, info, Some(&public), &mut rng()).unwrap();
        let mut evaluated = vec![0u8; inputs.len() * G::ELEMENT_LEN];
        let proof = server
            .blind_evaluate(again.blinded_elements(), info, &mut evaluated, &mut rng())
            .unwrap();
        assert_eq!(
            again.finalize(&evaluated, proof.as_ref()).unwrap(),
            outputs,
            "{} {mode:?}",
            G::SUITE_ID
        );

        if mode.is_verifiable() {
            let cheater = Server::new(mode, KeyPair::<G>::generate(&mut rng()));
            let client =
                ClientBatch::<G>::blind(mode, &inputs, info, Some(&public), &mut rng()).unwrap();
            let mut evaluated = vec![0u8; inputs.len() * G::ELEMENT_LEN];
            let proof = cheater
                .blind_evaluate(client.blinded_elements(), info, &mut evaluated, &mut rng())
                .unwrap();
            assert_eq!(
                client.finalize(&evaluated, proof.as_ref()),
                Err(Error::VerificationFailed)
            );

            // An honest proof with one answer swapped for another valid element.
            let client =
                ClientBatch::<G>::blind(mode, &inputs, info, Some(&public), &mut rng()).unwrap();
            let mut evaluated = vec![0u8; inputs.len() * G::ELEMENT_LEN];
            let proof = server
                .blind_evaluate(client.blinded_elements(), info, &mut evaluated, &mut rng())
                .unwrap();
            evaluated[..G::ELEMENT_LEN].copy_from_slice(&encode_to_vec::<G>(&G::generator()));
            assert_eq!(
                client.finalize(&evaluated, proof.as_ref()),
                Err(Error::VerificationFailed)
            );
        }
    }
}

#[test]
fn round_trips_on_every_suite() {
    round_trip::<Ristretto255>();
    round_trip::<P256>();
    round_trip::<Bls12381G1>();
    round_trip::<Ffdhe2048>();
    round_trip::<Ffdhe3072>();
    round_trip::<Ffdhe4096>();
}

/// Bad answers are refused before any work: wrong count, invalid element,
/// missing proof.
#[test]
fn malformed_answers_are_rejected() {
    let key = KeyPair::<Ristretto255>::generate(&mut rng());
    let public = *key.public_key();
    let server = Server::new(Mode::Voprf, key);
    let inputs: Vec<&[u8]> = vec![b"a", b"b"];
    let blind = || {
        ClientBatch::<Ristretto255>::blind(Mode::Voprf, &inputs, b"", Some(&public), &mut rng())
            .unwrap()
    };
    let client = blind();
    let mut evaluated = vec![0u8; 64];
    let proof = server
        .blind_evaluate(client.blinded_elements(), b"", &mut evaluated, &mut rng())
        .unwrap();
    assert_eq!(
        blind().finalize(&evaluated[..32], proof.as_ref()),
        Err(Error::BadLength)
    );
    assert_eq!(
        blind().finalize(
            &[evaluated.clone(), evaluated.clone()].concat(),
            proof.as_ref()
        ),
        Err(Error::BadLength)
    );
    let mut bad = evaluated.clone();
    bad[..32].fill(0xff);
    assert_eq!(
        blind().finalize(&bad, proof.as_ref()),
        Err(Error::InvalidElement)
    );
    assert_eq!(blind().finalize(&evaluated, None), Err(Error::NullPointer));
    assert_eq!(
        server
            .blind_evaluate(&[0u8; 33], b"", &mut evaluated, &mut rng())
            .err(),
        Some(Error::BadLength)
    );
    assert_eq!(
        server
            .blind_evaluate(&[0u8; 32], b"", &mut evaluated, &mut rng())
            .err(),
        Some(Error::InvalidElement)
    );
    assert!(
        ClientBatch::<Ristretto255>::blind(Mode::Voprf, &[], b"", Some(&public), &mut rng())
            .is_err()
    );
    assert_eq!(
        ClientBatch::<Ristretto255>::blind(Mode::Voprf, &inputs, b"", None, &mut rng()).err(),
        Some(Error::NullPointer)
    );
}

/// The frozen vector of one (suite, mode): fixed key, blinds and nonce.
fn vector<G: PrimeOrderGroup>(mode: Mode) -> Value {
    let key = KeyPair::<G>::derive(mode, &[0xa3; 32], b"test key").unwrap();
    let inputs: Vec<&[u8]> = vec![&[0x00], &[0x5a; 17]];
    let info: &[u8] = if mode == Mode::Poprf {
        b"7465737420696e666f"
    } else {
        b""
    };
    let blinds: Vec<G::Scalar> = (0..inputs.len())
        .map(|i| G::hash_to_scalar(&[b"blind", &[i as u8]], b"oblivex-regression"))
        .collect();
    let blind_hex: Vec<String> = blinds
        .iter()
        .map(|b| hex::encode(encode_scalar_to_vec::<G>(b)))
        .collect();
    let nonce = G::hash_to_scalar(&[b"nonce"], b"oblivex-regression");
    let public = key.public_key().clone();
    let sk = encode_scalar_to_vec::<G>(key.secret());
    let client = ClientBatch::<G>::blind_with(mode, &inputs, info, Some(&public), blinds).unwrap();
    let server = Server::new(mode, key);
    let mut evaluated = vec![0u8; inputs.len() * G::ELEMENT_LEN];
    let proof = server
        .blind_evaluate_with_nonce(client.blinded_elements(), info, &mut evaluated, &nonce)
        .unwrap();
    let proof_hex = proof.as_ref().map(|p| {
        let mut out = vec![0u8; Proof::<G>::LEN];
        p.encode(&mut out);
        hex::encode(out)
    });
    let blinded = hex::encode(client.blinded_elements());
    let outputs: Vec<String> = client
        .finalize(&evaluated, proof.as_ref())
        .unwrap()
        .iter()
        .map(hex::encode)
        .collect();
    json!({
        "suite": G::SUITE_ID,
        "mode": mode_name(mode),
        "skSm": hex::encode(sk),
        "pkSm": hex::encode(encode_to_vec::<G>(&public)),
        "info": hex::encode(info),
        "blinds": blind_hex,
        "blindedElements": blinded,
        "evaluationElements": hex::encode(&evaluated),
        "proof": proof_hex,
        "outputs": outputs,
    })
}

fn all_vectors() -> Vec<Value> {
    let mut out = Vec::new();
    for mode in MODES {
        out.push(vector::<Bls12381G1>(mode));
        out.push(vector::<Ffdhe2048>(mode));
        out.push(vector::<Ffdhe3072>(mode));
        out.push(vector::<Ffdhe4096>(mode));
    }
    out
}

#[test]
fn oprf_regression_vectors_of_this_librarys_suites() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/oprf_regression.json"
    );
    let fresh = json!({
        "source": "oblivex: BLS12381G1-SHA256 and FFDHE*-SHA512 suites (RFC 9497 structure, PROTOCOLS.md §1), frozen",
        "vectors": all_vectors(),
    });
    if std::env::var_os("OBLIVEX_BLESS_VECTORS").is_some() {
        std::fs::write(path, serde_json::to_string_pretty(&fresh).unwrap() + "\n").unwrap();
        return;
    }
    let frozen: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(
        frozen["vectors"], fresh["vectors"],
        "outputs changed: a bug, or bless again on purpose"
    );
}
