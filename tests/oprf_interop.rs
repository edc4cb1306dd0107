//! oblivex interoperates with the `voprf` crate (RFC 9497): oblivex's
//! client with voprf's server and the reverse, in OPRF and VOPRF mode, for
//! ristretto255-SHA512 and P256-SHA256. Messages cross as bytes.

use oblivex::group::{encode_to_vec, PrimeOrderGroup, Ristretto255, P256};
use oblivex::message::{BlindedElements, EvaluatedElements};
use oblivex::oprf::{OprfClient, OprfServer, Proof, VoprfClient, VoprfServer};
use rand_core::UnwrapErr;
use voprf::{BlindedElement, EvaluationElement, Proof as VProof};

type OsRng10 = UnwrapErr<getrandom::SysRng>;

fn rng() -> OsRng10 {
    UnwrapErr(getrandom::SysRng)
}

const INPUTS: [&[u8]; 3] = [b"alpha", b"", b"a longer input of the batch"];

/// oblivex client + voprf server, OPRF mode.
fn oblivex_client_voprf_server<G: PrimeOrderGroup, CS: voprf::CipherSuite>()
where
    <CS::Group as voprf::Group>::Scalar: Send,
{
    let mut r06 = rand_core_06::OsRng;
    let server = voprf::OprfServer::<CS>::new(&mut r06).unwrap();
    let batch = OprfClient::<G>::new().blind(&INPUTS, &mut rng()).unwrap();
    let mut evaluated = Vec::new();
    for blinded in batch.request().as_bytes().chunks(G::ELEMENT_LEN) {
        let message = BlindedElement::<CS>::deserialize(blinded).unwrap();
        evaluated.extend_from_slice(&server.blind_evaluate(&message).serialize());
    }
    let evaluated = EvaluatedElements::from_bytes(&evaluated).unwrap();
    let outputs = batch.finalize(&evaluated).unwrap();
    for (input, output) in INPUTS.iter().zip(&outputs) {
        assert_eq!(
            output[..],
            server.evaluate(input).unwrap()[..],
            "{}",
            G::SUITE_ID
        );
    }
}

/// voprf client + oblivex server, OPRF mode: voprf's outputs equal
/// oblivex's own client outputs under the same key.
fn voprf_client_oblivex_server<G: PrimeOrderGroup, CS: voprf::CipherSuite>() {
    let mut r06 = rand_core_06::OsRng;
    let server = OprfServer::<G>::generate(&mut rng());
    let ours = OprfClient::<G>::new().blind(&INPUTS, &mut rng()).unwrap();
    let answer = server.evaluate(ours.request());
    let expected = ours.finalize(&answer).unwrap();
    for (input, want) in INPUTS.iter().zip(&expected) {
        let blind = voprf::OprfClient::<CS>::blind(input, &mut r06).unwrap();
        let request = BlindedElements::<G>::from_bytes(&blind.message.serialize()).unwrap();
        let one = server.evaluate(&request);
        let output = blind
            .state
            .finalize(
                input,
                &EvaluationElement::<CS>::deserialize(one.as_bytes()).unwrap(),
            )
            .unwrap();
        assert_eq!(output[..], want[..], "{}", G::SUITE_ID);
    }
}

/// Both directions in VOPRF mode, with proofs crossing implementations (a
/// macro: voprf's proof serialization needs the concrete suite types).
macro_rules! voprf_both_ways {
    ($G:ty, $CS:ty) => {{
        type G = $G;
        type CS = $CS;
        let mut r06 = rand_core_06::OsRng;
        // voprf server, oblivex client (one batched proof from voprf).
        let server = voprf::VoprfServer::<CS>::new(&mut r06).unwrap();
        let public = G::decode(
            &<<CS as voprf::CipherSuite>::Group as voprf::Group>::serialize_elem(
                server.get_public_key(),
            ),
        )
        .unwrap();
        let batch = VoprfClient::<G>::new(public)
            .unwrap()
            .blind(&INPUTS, &mut rng())
            .unwrap();
        let messages: Vec<BlindedElement<CS>> = batch
            .request()
            .as_bytes()
            .chunks(G::ELEMENT_LEN)
            .map(|b| BlindedElement::deserialize(b).unwrap())
            .collect();
        let result = server.batch_blind_evaluate(&mut r06, &messages).unwrap();
        let evaluated: Vec<u8> = result
            .messages
            .iter()
            .flat_map(|m| m.serialize().to_vec())
            .collect();
        let evaluated = EvaluatedElements::from_bytes(&evaluated).unwrap();
        let proof = Proof::<G>::from_bytes(&result.proof.serialize()).unwrap();
        let outputs = batch.finalize(&evaluated, &proof).unwrap();
        for (input, output) in INPUTS.iter().zip(&outputs) {
            assert_eq!(output[..], server.evaluate(input).unwrap()[..]);
        }

        // oblivex server, voprf client (voprf verifies oblivex's proof).
        let server = VoprfServer::<G>::generate(&mut rng());
        let public_bytes = encode_to_vec::<G>(server.public_key());
        for input in INPUTS {
            let blind = voprf::VoprfClient::<CS>::blind(input, &mut r06).unwrap();
            let request = BlindedElements::<G>::from_bytes(&blind.message.serialize()).unwrap();
            let (evaluated, proof) = server.evaluate(&request, &mut rng());
            let output = blind
                .state
                .finalize(
                    input,
                    &EvaluationElement::<CS>::deserialize(evaluated.as_bytes()).unwrap(),
                    &VProof::<CS>::deserialize(&proof.to_bytes()).unwrap(),
                    <<CS as voprf::CipherSuite>::Group as voprf::Group>::deserialize_elem(
                        &public_bytes,
                    )
                    .unwrap(),
                )
                .unwrap();
            assert_eq!(output.len(), G::HASH_LEN);
        }
    }};
}

#[test]
fn interop_ristretto255() {
    oblivex_client_voprf_server::<Ristretto255, voprf::Ristretto255>();
    voprf_client_oblivex_server::<Ristretto255, voprf::Ristretto255>();
    voprf_both_ways!(Ristretto255, voprf::Ristretto255);
}

#[test]
fn interop_p256() {
    oblivex_client_voprf_server::<P256, p256::NistP256>();
    voprf_client_oblivex_server::<P256, p256::NistP256>();
    voprf_both_ways!(P256, p256::NistP256);
}
