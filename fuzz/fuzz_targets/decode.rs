//! Every decoder of outside data, on every group: elements (one and
//! batches), scalars, key shares, commitment sets, ElGamal ciphertexts,
//! proofs, OPRF requests and answers (the messages), BLS public
//! keys and key sets. A decoder must never panic, and whatever it accepts
//! must re-encode to exactly the input (one encoding per value) and be
//! valid (no identity element, no zero scalar).

#![no_main]

use std::any::TypeId;

use libfuzzer_sys::fuzz_target;
use oblivex::bls;
use oblivex::elgamal::Ciphertext;
use oblivex::group::{
    encode_scalar_to_vec, encode_to_vec, Bls12381G1, Ffdhe2048, Ffdhe3072, Ffdhe4096,
    PrimeOrderGroup, Ristretto255, P256,
};
use oblivex::message::{BlindedElements, EvaluatedElements};
use oblivex::oprf::{KeyPair, OprfServer, Proof};
use oblivex::threshold::{Commitments, KeyShare};
use oblivex_fuzz::cached;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    match selector % 7 {
        0 => decoders::<Ristretto255>(selector / 7, bytes),
        1 => decoders::<P256>(selector / 7, bytes),
        2 => decoders::<Bls12381G1>(selector / 7, bytes),
        3 => decoders::<Ffdhe2048>(selector / 7, bytes),
        4 => decoders::<Ffdhe3072>(selector / 7, bytes),
        5 => decoders::<Ffdhe4096>(selector / 7, bytes),
        _ => bls_decoders(selector / 7, bytes),
    }
});

fn decoders<G: PrimeOrderGroup>(which: u8, bytes: &[u8]) {
    match which % 6 {
        0 => {
            if let Ok(element) = G::decode(bytes) {
                assert!(!G::is_identity(&element));
                assert_eq!(encode_to_vec::<G>(&element), bytes);
            }
        }
        1 => {
            if let Ok(elements) = G::decode_batch(bytes) {
                assert_eq!(elements.len() * G::ELEMENT_LEN, bytes.len());
                let mut again = vec![0u8; bytes.len()];
                G::encode_batch(&elements, &mut again);
                assert_eq!(again, bytes);
            }
        }
        2 => {
            if let Ok(scalar) = G::decode_scalar(bytes) {
                assert!(!G::scalar_is_zero(&scalar));
                assert_eq!(encode_scalar_to_vec::<G>(&scalar), bytes);
            }
            if let Ok(proof) = Proof::<G>::from_bytes(bytes) {
                assert_eq!(proof.to_bytes(), bytes);
            }
        }
        3 => {
            if let Ok(share) = KeyShare::<G>::from_bytes(bytes) {
                assert!(share.id() >= 1);
                assert_eq!(share.to_bytes(), bytes);
            }
            if let Ok(commitments) = Commitments::<G>::from_bytes(bytes) {
                assert!(commitments.threshold() >= 1);
                assert_eq!(commitments.to_bytes(), bytes);
            }
        }
        4 => {
            if let Ok(ciphertext) = Ciphertext::<G>::from_bytes(bytes) {
                assert_eq!(ciphertext.to_bytes(), bytes);
            }
        }
        _ => {
            // The server's decoding of a request (and the client's of an
            // answer): all or nothing, re-encoding to the input, and
            // agreeing with the portable decoder (ristretto255's,
            // P-256's and BLS12-381's message checks run on their IFMA
            // engines where the CPU has them, `decode_batch` and
            // `elements()` on dalek, p256 and blst); then the evaluation of what decodes (on the engine)
            // equal to k·X one element at a time (not on the FFDHE groups,
            // where a batch exponentiation costs about 0.1 s under
            // instrumentation).
            let server = cached((TypeId::of::<G>(), 0, 0), || {
                OprfServer::new(KeyPair::<G>::from_secret(G::scalar_from_u64(7)))
            });
            let answer = EvaluatedElements::<G>::from_bytes(bytes);
            let portable = G::decode_batch(bytes);
            assert_eq!(answer.is_ok(), portable.is_ok(), "the decoders agree");
            match BlindedElements::<G>::from_bytes(bytes) {
                Ok(request) => {
                    assert_eq!(request.as_bytes(), bytes);
                    let answer = answer.expect("the decoders agree");
                    assert_eq!(answer.as_bytes(), bytes);
                    if G::ELEMENT_LEN < 256 {
                        let key = server.key().secret();
                        let one_by_one: Vec<u8> = answer
                            .elements()
                            .iter()
                            .flat_map(|x| encode_to_vec::<G>(&G::mul(x, key)))
                            .collect();
                        assert_eq!(server.evaluate(&request).as_bytes(), one_by_one);
                    }
                }
                Err(_) => assert!(answer.is_err()),
            }
        }
    }
}

fn bls_decoders(which: u8, bytes: &[u8]) {
    match which % 3 {
        0 => {
            if let Ok(key) = bls::PublicKey::from_bytes(bytes) {
                assert_eq!(key.to_bytes().as_slice(), bytes);
            }
        }
        1 => {
            if let Ok(key_set) = bls::KeySet::from_bytes(bytes) {
                assert_eq!(key_set.to_bytes(), bytes);
            }
        }
        _ => {
            // A signature from nowhere never verifies under a fixed key
            // (it could only by forging one).
            let key = cached((TypeId::of::<bls::PublicKey>(), 0, 0), || {
                bls::PublicKey::from_secret(&Bls12381G1::scalar_from_u64(0x0b1e))
            });
            assert!(!bls::verify(&key, b"fuzz", bytes));
        }
    }
}
