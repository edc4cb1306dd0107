//! Threshold blind BLS signatures on BLS12-381 with signatures in G1
//! (docs/PROTOCOLS.md), ciphersuite `BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_`
//! (minimal signature size): the signatures verify with any standard
//! verifier (blst `min_sig`, [`verify`]).
//!
//! A dealer shares the signing key among m signers ([`deal`]) and
//! publishes a [`KeySet`]: the G2 public key, each signer's G2 key and the
//! G1 commitments, tied together by pairings once. A client blinds a batch
//! of messages ([`SigningClient::blind`]); any t signers answer with
//! [`crate::threshold::evaluate_share`] on their [`KeyShare`]; the client
//! checks each signer with the batch check of [`crate::oblivious`] — one
//! short G1 multi-scalar multiplication per signer, no pairing per share —
//! names the cheaters, combines and unblinds ([`SigningBatch::finalize`]).
//!
//! Without a dealer (a DKG, [`crate::threshold::dkg`]) nobody can compute
//! the G2 public key: each signer publishes its share's G2 key
//! ([`PublicKey::from_secret`]) and anyone builds the key set from t right
//! ones ([`KeySet::derive_vartime`]), naming the signers whose key is
//! wrong.
//!
//! What a signer must count: it cannot tell the balancer from a blinded
//! message, so a client that puts a real message in the balancer's slot
//! gets n + 1 signatures from a batch of n. Issuance limits must count
//! every element a signer signs (the length of the request), never the
//! number of messages a client claims.
//!
//! [`KeyShare`]: crate::threshold::KeyShare

mod derive;
mod g2;
mod keys;
mod sign;

pub use derive::DerivedKeySet;
pub use g2::PublicKey;
pub use keys::{deal, KeySet};
pub use sign::{verify, SigningBatch, SigningClient, SIGNATURE_LEN};

/// The ciphersuite's domain separation tag for hashing messages to G1.
pub const SIGNATURE_DST: &[u8] = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";
