//! The RFC 9497 protocols on every suite of this library: full batches in
//! each mode, tampered answers rejected, and frozen regression vectors for
//! the suites the RFC does not cover (BLS12381G1-SHA256, FFDHE*-SHA512),
//! generated once with `OBLIVEX_BLESS_VECTORS=1` and checked ever since.

mod support;

use oblivex::group::{
    encode_scalar_to_vec, encode_to_vec, Bls12381G1, Ffdhe2048, Ffdhe3072, Ffdhe4096,
    PrimeOrderGroup, Ristretto255, P256,
};
use oblivex::message::{BlindedElements, EvaluatedElements};
use oblivex::oprf::{KeyPair, Proof, VoprfClient, VoprfServer};
use oblivex::Error;
use rand_core::UnwrapErr;
use serde_json::{json, Value};
use support::modes::{generator_bytes, honest, run, Coins, Mode};

fn rng() -> UnwrapErr<getrandom::SysRng> {
    UnwrapErr(getrandom::SysRng)
}

/// A whole batch with random blinds and nonce; then the same batch answered
/// by a server with another key, or with one answer replaced, must fail
/// verification (VOPRF/POPRF).
fn round_trip<G: PrimeOrderGroup>() {
    let inputs: Vec<&[u8]> = vec![b"one", b"two", b"", b"four"];
    for mode in Mode::ALL {
        let info: &[u8] = if mode == Mode::Poprf {
            b"public info"
        } else {
            b""
        };
        let key = KeyPair::<G>::generate(&mut rng());
        let first = honest(mode, &key, &inputs, info, None);
        assert_eq!(first.outputs.len(), inputs.len());
        assert!(first.outputs.iter().all(|o| o.len() == G::HASH_LEN));
        // Same inputs, same key: same outputs (blinding does not matter).
        let again = honest(mode, &key, &inputs, info, None);
        assert_eq!(again.outputs, first.outputs, "{} {mode:?}", G::SUITE_ID);

        if mode != Mode::Oprf {
            let other = KeyPair::<G>::generate(&mut rng());
            let cheated = run(mode, &key, &other, &inputs, info, None, |_| ());
            assert_eq!(cheated.err(), Some(Error::VerificationFailed));
            // An honest proof with one answer swapped for another valid element.
            let swapped = run(mode, &key, &key, &inputs, info, None, |answer| {
                answer[..G::ELEMENT_LEN].copy_from_slice(&generator_bytes::<G>())
            });
            assert_eq!(swapped.err(), Some(Error::VerificationFailed));
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

/// A server's answer to a request received as bytes is `k·X_i` for each
/// element, whichever path evaluates it (ristretto255's IFMA engine works
/// 8 elements per vector and leaves up to 2 past the last full vector to
/// dalek: sizes around that), and one invalid encoding anywhere refuses the
/// whole request.
fn evaluation_from_bytes<G: PrimeOrderGroup>(invalid: &[[u8; 32]]) {
    use oblivex::oprf::OprfServer;
    for n in [1usize, 2, 3, 7, 8, 9, 10, 11, 20, 257] {
        let elements: Vec<G::Element> = (0..n)
            .map(|i| G::hash_to_group(&[&[i as u8]], b"evaluation test"))
            .collect();
        let bytes: Vec<u8> = elements.iter().flat_map(encode_to_vec::<G>).collect();
        let request = BlindedElements::<G>::from_bytes(&bytes).unwrap();
        let server = OprfServer::new(KeyPair::<G>::generate(&mut rng()));
        let answer = server.evaluate(&request);
        let expected: Vec<u8> = elements
            .iter()
            .flat_map(|e| encode_to_vec::<G>(&G::mul(e, server.key().secret())))
            .collect();
        assert_eq!(answer.as_bytes(), &expected[..], "{} n = {n}", G::SUITE_ID);
        for bad in invalid {
            for position in [0, n / 2, n - 1] {
                let mut edited = bytes.clone();
                edited[G::ELEMENT_LEN * position..][..G::ELEMENT_LEN].copy_from_slice(bad);
                assert_eq!(
                    BlindedElements::<G>::from_bytes(&edited).err(),
                    Some(Error::InvalidElement),
                    "{} n = {n}, position {position}, {bad:?}",
                    G::SUITE_ID
                );
            }
        }
    }
}

#[test]
fn evaluation_of_received_requests() {
    let mut negative = [0u8; 32];
    negative[0] = 1; // s = 1 is odd: negative
    let mut non_canonical = [0xffu8; 32]; // p + 0x...: at least p
    non_canonical[31] = 0x7f;
    non_canonical[0] = 0xed;
    evaluation_from_bytes::<Ristretto255>(&[[0; 32], negative, non_canonical, [0xff; 32]]);
    evaluation_from_bytes::<P256>(&[]);
}

/// Bad answers are refused: wrong count, invalid element; and bad requests
/// never become messages.
#[test]
fn malformed_answers_are_rejected() {
    type G = Ristretto255;
    let server = VoprfServer::<G>::generate(&mut rng());
    let client = VoprfClient::new(*server.public_key()).unwrap();
    let inputs: Vec<&[u8]> = vec![b"a", b"b"];
    let batch = client.blind(&inputs, &mut rng()).unwrap();
    let (evaluated, proof) = server.evaluate(batch.request(), &mut rng());
    let bytes = evaluated.to_bytes();
    let short = EvaluatedElements::<G>::from_bytes(&bytes[..32]).unwrap();
    let long =
        EvaluatedElements::<G>::from_bytes(&[bytes.clone(), bytes.clone()].concat()).unwrap();
    assert_eq!(
        client
            .blind(&inputs, &mut rng())
            .unwrap()
            .finalize(&short, &proof)
            .err(),
        Some(Error::BadLength)
    );
    assert_eq!(
        client
            .blind(&inputs, &mut rng())
            .unwrap()
            .finalize(&long, &proof)
            .err(),
        Some(Error::BadLength)
    );
    let mut bad = bytes.clone();
    bad[..32].fill(0xff);
    assert_eq!(
        EvaluatedElements::<G>::from_bytes(&bad).err(),
        Some(Error::InvalidElement)
    );
    assert_eq!(
        EvaluatedElements::<G>::from_bytes(&bytes[..31]).err(),
        Some(Error::BadLength)
    );
    assert_eq!(
        EvaluatedElements::<G>::from_bytes(&[]).err(),
        Some(Error::BadLength)
    );
    assert_eq!(
        BlindedElements::<G>::from_bytes(&[0u8; 33]).err(),
        Some(Error::BadLength)
    );
    assert_eq!(
        BlindedElements::<G>::from_bytes(&[0u8; 32]).err(),
        Some(Error::InvalidElement)
    );
    assert_eq!(client.blind(&[], &mut rng()).err(), Some(Error::EmptyInput));
    assert_eq!(
        VoprfClient::<G>::new(G::identity()).err(),
        Some(Error::InvalidElement)
    );
    assert_eq!(
        Proof::<G>::from_bytes(&[0u8; 63]).err(),
        Some(Error::BadLength)
    );
}

/// The frozen vector of one (suite, mode): fixed key, blinds and nonce.
fn vector<G: PrimeOrderGroup>(mode: Mode) -> Value {
    let key = mode.derive::<G>(&[0xa3; 32], b"test key");
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
    let run = honest(mode, &key, &inputs, info, Some(Coins { blinds, nonce }));
    json!({
        "suite": G::SUITE_ID,
        "mode": mode.name(),
        "skSm": hex::encode(encode_scalar_to_vec::<G>(key.secret())),
        "pkSm": hex::encode(encode_to_vec::<G>(key.public_key())),
        "info": hex::encode(info),
        "blinds": blind_hex,
        "blindedElements": hex::encode(&run.blinded),
        "evaluationElements": hex::encode(&run.evaluated),
        "proof": run.proof.map(hex::encode),
        "outputs": run.outputs.iter().map(hex::encode).collect::<Vec<_>>(),
    })
}

fn all_vectors() -> Vec<Value> {
    let mut out = Vec::new();
    for mode in Mode::ALL {
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
    let frozen: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let fresh = json!({
        "source": frozen["source"],
        "vectors": all_vectors(),
    });
    if std::env::var_os("OBLIVEX_BLESS_VECTORS").is_some() {
        std::fs::write(path, serde_json::to_string_pretty(&fresh).unwrap() + "\n").unwrap();
        return;
    }
    assert_eq!(
        frozen["vectors"], fresh["vectors"],
        "outputs changed: a bug, or bless again on purpose"
    );
}
