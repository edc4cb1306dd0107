//! Every test-only entry point of oblivex, called as a user's code would:
//! none of them exists without the non-default feature `danger`, so this
//! file must fail to compile (see check.sh).

use oblivex::group::{PrimeOrderGroup, Ristretto255};
use oblivex::message::BlindedElements;
use oblivex::oblivious::Kappa;
use oblivex::oprf::{KeyPair, OprfClient, VoprfServer};

fn main() {
    let _weak = Kappa::insecure_for_tests(4);
    let blinds = vec![Ristretto255::scalar_from_u64(1)];
    let _batch = OprfClient::<Ristretto255>::new().blind_with(&[b"x"], blinds);
    let key = KeyPair::<Ristretto255>::from_secret(Ristretto255::scalar_from_u64(2));
    let server = VoprfServer::new(key);
    let request = BlindedElements::<Ristretto255>::from_bytes(&[0u8; 32]).unwrap();
    let nonce = Ristretto255::scalar_from_u64(3);
    let _answer = server.evaluate_with_nonce(&request, &nonce);
}
