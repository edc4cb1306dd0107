//! RFC 9497 Appendix A test vectors, byte for byte, for ristretto255-SHA512
//! and P256-SHA256 in OPRF, VOPRF and POPRF mode, including the batch
//! vectors (`cargo test --release rfc9497`).

use oblivex::group::{PrimeOrderGroup, Ristretto255, P256};
use oblivex::oprf::{ClientBatch, KeyPair, Mode, Proof, Server};
use serde_json::Value;

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

fn mode_of(v: &Value) -> Mode {
    match v["mode"].as_str().unwrap() {
        "OPRF" => Mode::Oprf,
        "VOPRF" => Mode::Voprf,
        _ => Mode::Poprf,
    }
}

/// Runs one vector through the client and server APIs and compares every
/// intermediate value.
fn check<G: PrimeOrderGroup>(v: &Value) -> usize {
    let mode = mode_of(v);
    let key = KeyPair::<G>::derive(mode, &bytes(&v["seed"]), &bytes(&v["keyInfo"])).unwrap();
    let mut sk = vec![0u8; G::SCALAR_LEN];
    G::encode_scalar(key.secret(), &mut sk);
    assert_eq!(
        sk,
        bytes(&v["skSm"]),
        "{} {} skSm",
        v["rfcSection"],
        G::SUITE_ID
    );
    if !v["pkSm"].is_null() {
        let mut pk = vec![0u8; G::ELEMENT_LEN];
        G::encode(key.public_key(), &mut pk);
        assert_eq!(pk, bytes(&v["pkSm"]), "{} pkSm", v["rfcSection"]);
    }

    let inputs = list(&v["inputs"]);
    let input_refs: Vec<&[u8]> = inputs.iter().map(|x| x.as_slice()).collect();
    let blinds: Vec<G::Scalar> = list(&v["blinds"])
        .iter()
        .map(|b| G::decode_scalar(b).unwrap())
        .collect();
    let info = if v["info"].is_null() {
        vec![]
    } else {
        bytes(&v["info"])
    };
    let public = key.public_key().clone();
    let client =
        ClientBatch::<G>::blind_with(mode, &input_refs, &info, Some(&public), blinds).unwrap();
    assert_eq!(
        client.blinded_elements(),
        list(&v["blindedElements"]).concat().as_slice(),
        "{} blinded",
        v["rfcSection"]
    );

    let server = Server::new(mode, key);
    let mut evaluated = vec![0u8; inputs.len() * G::ELEMENT_LEN];
    let proof = if mode == Mode::Oprf {
        server
            .blind_evaluate_with_nonce(
                client.blinded_elements(),
                &info,
                &mut evaluated,
                &G::scalar_from_u64(1),
            )
            .unwrap()
    } else {
        let nonce = G::decode_scalar(&bytes(&v["proofRandomScalar"])).unwrap();
        server
            .blind_evaluate_with_nonce(client.blinded_elements(), &info, &mut evaluated, &nonce)
            .unwrap()
    };
    assert_eq!(
        evaluated,
        list(&v["evaluationElements"]).concat(),
        "{} evaluated",
        v["rfcSection"]
    );
    if let Some(proof) = &proof {
        let mut encoded = vec![0u8; Proof::<G>::LEN];
        proof.encode(&mut encoded);
        let expected = [bytes(&v["proof"]["c"]), bytes(&v["proof"]["s"])].concat();
        assert_eq!(encoded, expected, "{} proof", v["rfcSection"]);
    } else {
        assert!(v["proof"].is_null());
    }

    let outputs: Vec<Vec<u8>> = client
        .finalize(&evaluated, proof.as_ref())
        .unwrap()
        .iter()
        .map(|o| o.to_vec())
        .collect();
    assert_eq!(outputs, list(&v["outputs"]), "{} outputs", v["rfcSection"]);
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
    let v = vectors()
        .into_iter()
        .find(|v| v["suite"] == "ristretto255-SHA512" && v["mode"] == "VOPRF")
        .unwrap();
    let key =
        KeyPair::<Ristretto255>::derive(Mode::Voprf, &bytes(&v["seed"]), &bytes(&v["keyInfo"]))
            .unwrap();
    let other =
        KeyPair::<Ristretto255>::derive(Mode::Voprf, b"another seed of thirty-two bytes", b"")
            .unwrap();
    let inputs = list(&v["inputs"]);
    let input_refs: Vec<&[u8]> = inputs.iter().map(|x| x.as_slice()).collect();
    let blinds = vec![Ristretto255::scalar_from_u64(7); inputs.len()];
    let client = ClientBatch::<Ristretto255>::blind_with(
        Mode::Voprf,
        &input_refs,
        &[],
        Some(key.public_key()),
        blinds,
    )
    .unwrap();
    let cheater = Server::new(Mode::Voprf, other);
    let mut evaluated = vec![0u8; inputs.len() * 32];
    let proof = cheater
        .blind_evaluate_with_nonce(
            client.blinded_elements(),
            &[],
            &mut evaluated,
            &Ristretto255::scalar_from_u64(5),
        )
        .unwrap();
    assert_eq!(
        client.finalize(&evaluated, proof.as_ref()),
        Err(oblivex::Error::VerificationFailed)
    );
}
