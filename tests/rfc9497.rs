//! RFC 9497 Appendix A test vectors, byte for byte, for ristretto255-SHA512
//! and P256-SHA256 in OPRF, VOPRF and POPRF mode, including the batch
//! vectors (`cargo test --release rfc9497`). Fixed blinds and proof nonces
//! come through the test-only entry points of the `danger` feature.

mod support;

use oblivex::group::{encode_scalar_to_vec, encode_to_vec, PrimeOrderGroup, Ristretto255, P256};
use oblivex::message::EvaluatedElements;
use oblivex::oprf::{KeyPair, Proof, VoprfClient, VoprfServer};
use serde_json::Value;
use support::modes::{honest, Coins, Mode, Transcript};

fn vectors() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/rfc9497.json"
    ))
    .unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    json["vectors"].as_array().unwrap().clone()
}

fn bytes(v: &Value) -> Vec<u8> {
    hex::decode(v.as_str().unwrap()).unwrap()
}

fn list(v: &Value) -> Vec<Vec<u8>> {
    v.as_array().unwrap().iter().map(bytes).collect()
}

/// Runs one vector through the client and server of its mode.
fn run<G: PrimeOrderGroup>(v: &Value) -> (KeyPair<G>, Transcript) {
    let mode = Mode::from_name(v["mode"].as_str().unwrap());
    let key = mode.derive::<G>(&bytes(&v["seed"]), &bytes(&v["keyInfo"]));
    let inputs = list(&v["inputs"]);
    let inputs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let info = if v["info"].is_null() {
        vec![]
    } else {
        bytes(&v["info"])
    };
    let blinds = list(&v["blinds"])
        .iter()
        .map(|b| G::decode_scalar(b).unwrap())
        .collect();
    let nonce = if mode == Mode::Oprf {
        G::scalar_from_u64(1)
    } else {
        G::decode_scalar(&bytes(&v["proofRandomScalar"])).unwrap()
    };
    let transcript = honest(mode, &key, &inputs, &info, Some(Coins { blinds, nonce }));
    (key, transcript)
}

/// Compares every intermediate value of one vector.
fn check<G: PrimeOrderGroup>(v: &Value) -> usize {
    let section = &v["rfcSection"];
    let (key, got) = run::<G>(v);
    let sk = encode_scalar_to_vec::<G>(key.secret());
    assert_eq!(sk, bytes(&v["skSm"]), "{section} {} skSm", G::SUITE_ID);
    if !v["pkSm"].is_null() {
        let pk = encode_to_vec::<G>(key.public_key());
        assert_eq!(pk, bytes(&v["pkSm"]), "{section} pkSm");
    }
    assert_eq!(
        got.blinded,
        list(&v["blindedElements"]).concat(),
        "{section} blinded"
    );
    assert_eq!(
        got.evaluated,
        list(&v["evaluationElements"]).concat(),
        "{section} evaluated"
    );
    match &got.proof {
        Some(proof) => {
            let expected = [bytes(&v["proof"]["c"]), bytes(&v["proof"]["s"])].concat();
            assert_eq!(proof, &expected, "{section} proof");
        }
        None => assert!(v["proof"].is_null()),
    }
    assert_eq!(got.outputs, list(&v["outputs"]), "{section} outputs");
    1
}

#[test]
fn rfc9497_ristretto255_sha512_all_modes() {
    let n: usize = vectors()
        .iter()
        .filter(|v| v["suite"] == "ristretto255-SHA512")
        .map(check::<Ristretto255>)
        .sum();
    assert_eq!(n, 8, "every ristretto255 vector ran");
}

#[test]
fn rfc9497_p256_sha256_all_modes() {
    let n: usize = vectors()
        .iter()
        .filter(|v| v["suite"] == "P256-SHA256")
        .map(check::<P256>)
        .sum();
    assert_eq!(n, 8, "every P-256 vector ran");
}

#[test]
fn rfc9497_batch_vectors_present() {
    let batch = vectors()
        .iter()
        .filter(|v| v["batchSize"].as_u64().unwrap() > 1)
        .count();
    assert!(batch >= 4, "the batch vectors are part of the file");
}

/// A tampered evaluation fails the VOPRF proof and releases no output.
#[test]
fn rfc9497_tampered_voprf_answer_is_rejected() {
    type G = Ristretto255;
    let v = vectors()
        .into_iter()
        .find(|v| v["suite"] == "ristretto255-SHA512" && v["mode"] == "VOPRF")
        .unwrap();
    let server = VoprfServer::<G>::derive(&bytes(&v["seed"]), &bytes(&v["keyInfo"])).unwrap();
    let cheater = VoprfServer::<G>::derive(b"another seed of thirty-two bytes", b"").unwrap();
    let inputs = list(&v["inputs"]);
    let inputs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let blinds = vec![G::scalar_from_u64(7); inputs.len()];
    let client = VoprfClient::new(*server.public_key()).unwrap();
    let batch = client.blind_with(&inputs, blinds).unwrap();
    let (evaluated, proof) = cheater.evaluate_with_nonce(batch.request(), &G::scalar_from_u64(5));
    let evaluated = EvaluatedElements::from_bytes(evaluated.as_bytes()).unwrap();
    let proof = Proof::from_bytes(&proof.to_bytes()).unwrap();
    assert_eq!(
        batch.finalize(&evaluated, &proof).err(),
        Some(oblivex::Error::VerificationFailed)
    );
}
