//! oblivex interoperates with the `voprf` crate (RFC 9497): oblivex's
//! client with voprf's server and the reverse, in OPRF and VOPRF mode, for
//! ristretto255-SHA512 and P256-SHA256.

use oblivex::group::{encode_to_vec, PrimeOrderGroup, Ristretto255, P256};
use oblivex::oprf::{ClientBatch, KeyPair, Mode, Proof, Server};
use rand_core::UnwrapErr;
use voprf::{
    BlindedElement, EvaluationElement, OprfClient, OprfServer, Proof as VProof, VoprfClient,
    VoprfServer,
};

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
    let server = OprfServer::<CS>::new(&mut r06).unwrap();
    let client = ClientBatch::<G>::blind(Mode::Oprf, &INPUTS, &[], None, &mut rng()).unwrap();
    let mut evaluated = Vec::new();
    for blinded in client.blinded_elements().chunks(G::ELEMENT_LEN) {
        let message = BlindedElement::<CS>::deserialize(blinded).unwrap();
        evaluated.extend_from_slice(&server.blind_evaluate(&message).serialize());
    }
    let outputs = client.finalize(&evaluated, None).unwrap();
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
    let key = KeyPair::<G>::generate(&mut rng());
    let server = Server::new(Mode::Oprf, key);
    let ours = ClientBatch::<G>::blind(Mode::Oprf, &INPUTS, &[], None, &mut rng()).unwrap();
    let mut evaluated = vec![0u8; INPUTS.len() * G::ELEMENT_LEN];
    server
        .blind_evaluate(ours.blinded_elements(), &[], &mut evaluated, &mut rng())
        .unwrap();
    let expected = ours.finalize(&evaluated, None).unwrap();
    for (input, want) in INPUTS.iter().zip(&expected) {
        let blind = OprfClient::<CS>::blind(input, &mut r06).unwrap();
        let mut one = vec![0u8; G::ELEMENT_LEN];
        server
            .evaluate(&blind.message.serialize(), &mut one)
            .unwrap();
        let output = blind
            .state
            .finalize(input, &EvaluationElement::<CS>::deserialize(&one).unwrap())
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
        let server = VoprfServer::<CS>::new(&mut r06).unwrap();
        let public = G::decode(
            &<<CS as voprf::CipherSuite>::Group as voprf::Group>::serialize_elem(
                server.get_public_key(),
            ),
        )
        .unwrap();
        let client =
            ClientBatch::<G>::blind(Mode::Voprf, &INPUTS, &[], Some(&public), &mut rng()).unwrap();
        let messages: Vec<BlindedElement<CS>> = client
            .blinded_elements()
            .chunks(G::ELEMENT_LEN)
            .map(|b| BlindedElement::deserialize(b).unwrap())
            .collect();
        let result = server.batch_blind_evaluate(&mut r06, &messages).unwrap();
        let evaluated: Vec<u8> = result
            .messages
            .iter()
            .flat_map(|m| m.serialize().to_vec())
            .collect();
        let proof = Proof::<G>::decode(&result.proof.serialize()).unwrap();
        let outputs = client.finalize(&evaluated, Some(&proof)).unwrap();
        for (input, output) in INPUTS.iter().zip(&outputs) {
            assert_eq!(output[..], server.evaluate(input).unwrap()[..]);
        }

        // oblivex server, voprf client (voprf verifies oblivex's proof).
        let key = KeyPair::<G>::generate(&mut rng());
        let public_bytes = encode_to_vec::<G>(key.public_key());
        let server = Server::new(Mode::Voprf, key);
        for input in INPUTS {
            let blind = VoprfClient::<CS>::blind(input, &mut r06).unwrap();
            let mut evaluated = vec![0u8; G::ELEMENT_LEN];
            let proof = server
                .blind_evaluate(&blind.message.serialize(), &[], &mut evaluated, &mut rng())
                .unwrap()
                .unwrap();
            let mut proof_bytes = vec![0u8; Proof::<G>::LEN];
            proof.encode(&mut proof_bytes);
            let output = blind
                .state
                .finalize(
                    input,
                    &EvaluationElement::<CS>::deserialize(&evaluated).unwrap(),
                    &VProof::<CS>::deserialize(&proof_bytes).unwrap(),
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
