//! The old sharing the `dkg_messages` target's refresh and resharing runs
//! start from, and its seeds deal from: fixed, because every message of
//! those runs names the old commitments by digest, so target and seeds
//! must agree on them.

use oblivex::group::PrimeOrderGroup;
use oblivex::threshold::{Commitments, KeyShare, PartyId};

/// The session id of every run the target decodes for.
pub const SESSION: [u8; 32] = [0xd6; 32];

/// A 2-of-3 sharing of the polynomial `0xd6 + 0xd7·x`: the shares of
/// parties 1..=3 and the commitments `0xd6·B`, `0xd7·B`.
pub fn old_sharing<G: PrimeOrderGroup>() -> (Vec<KeyShare<G>>, Commitments<G>) {
    let (a0, a1) = (0xd6u64, 0xd7u64);
    let shares = (1..=3u64)
        .map(|id| {
            KeyShare::new(id as PartyId, G::scalar_from_u64(a0 + a1 * id)).expect("valid share")
        })
        .collect();
    let coefficients = [
        G::mul_base(&G::scalar_from_u64(a0)),
        G::mul_base(&G::scalar_from_u64(a1)),
    ];
    let mut encoded = vec![0u8; coefficients.len() * G::ELEMENT_LEN];
    G::encode_batch(&coefficients, &mut encoded);
    let commitments = Commitments::from_bytes(&encoded).expect("valid commitments");
    (shares, commitments)
}
