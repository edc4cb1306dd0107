//! Every test-only entry point of oblivex, called as a user's code would:
//! none of them exists without the non-default feature `danger`, so this
//! file must fail to compile (see check.sh).

use oblivex::group::{PrimeOrderGroup, Ristretto255};
use oblivex::oblivious::Kappa;
use oblivex::oprf::{ClientBatch, KeyPair, Mode, Server};

fn main() {
    let _weak = Kappa::insecure_for_tests(4);
    let blinds = vec![Ristretto255::scalar_from_u64(1)];
    let _batch = ClientBatch::<Ristretto255>::blind_with(Mode::Oprf, &[b"x"], b"", None, blinds);
    let server = Server::new(Mode::Voprf, KeyPair::<Ristretto255>::from_secret(Ristretto255::scalar_from_u64(2)));
    let mut out = [0u8; 32];
    let nonce = Ristretto255::scalar_from_u64(3);
    let _proof = server.blind_evaluate_with_nonce(&[0u8; 32], b"", &mut out, &nonce);
}
