//! Hashing private inputs: SHA-512 of 8 messages at once in AVX-512 lanes
//! (ristretto255's `hash_each`, which its client's `Finalize` runs on
//! inputs and outputs), on messages whose lengths cross every padding
//! boundary (public) and whose bytes are the secrets.

use oblivex::group::PrimeOrderGroup;

use crate::marks::traced;
use crate::variants::{input_variants, pick};

/// Message lengths: empty, one byte, around SHA-512's one-block limit
/// (111/112) and block size, two blocks and more.
const LENGTHS: [usize; 8] = [0, 1, 64, 111, 112, 128, 200, 300];

/// Each message as the parts `("oblivex", message)`.
fn with_prefix(messages: &[Vec<u8>]) -> Vec<Vec<&[u8]>> {
    messages
        .iter()
        .map(|m| vec![&b"oblivex"[..], m.as_slice()])
        .collect()
}

/// `G::hash_each` of 8 secret messages, checked against `G::hash`.
pub fn hash_each<G: PrimeOrderGroup>(variant: usize) -> Result<(), String> {
    let total: usize = LENGTHS.iter().sum();
    let bytes = pick(&input_variants(1, total), variant);
    let warm = pick(&input_variants(1, total), 0);
    let split = |bytes: &[u8]| -> Vec<Vec<u8>> {
        let mut at = 0;
        LENGTHS
            .iter()
            .map(|&len| {
                at += len;
                bytes[at - len..at].to_vec()
            })
            .collect()
    };
    let (messages, warm_messages) = (split(&bytes), split(&warm));
    drop(G::hash_each(&with_prefix(&warm_messages)));
    let parts = with_prefix(&messages);
    let digests = traced(&parts, |p| G::hash_each(p));
    for (digest, message) in digests.iter().zip(&parts) {
        if digest.as_slice() != G::hash(message).as_slice() {
            return Err("a digest differs from the one-message hash".into());
        }
    }
    Ok(())
}
