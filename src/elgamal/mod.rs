//! Threshold ElGamal decryption on every group of this library
//! (docs/PROTOCOLS.md §6).
//!
//! The key is shared among m servers ([`crate::threshold::deal`]; the
//! public key is the commitments' [`crate::threshold::Commitments::public_key`]).
//! Anyone encrypts a group element ([`encrypt`]) or encapsulates a KEM
//! secret ([`encapsulate`]). To decrypt a batch, a client sends the `c1`
//! parts — blinded if the servers must not link the request to the
//! ciphertexts — with a balancer to t or more servers, which answer with
//! [`crate::threshold::evaluate_share`]; the client checks each server
//! against its commitment, names the cheaters, combines and recovers the
//! plaintexts or KEM secrets ([`DecryptionBatch`]).
//!
//! Not CCA-secure: a decryption server raises whatever element it is given
//! to its share (a Diffie–Hellman oracle), which suits plain (CPA)
//! ElGamal and KEM use between parties that control what they ask to
//! decrypt. A CCA-secure threshold scheme would have the servers check each
//! ciphertext's validity (e.g. a proof of knowledge of `ρ`) before
//! answering; this module does not.

mod decrypt;
mod encrypt;

pub use decrypt::{DecryptionBatch, DecryptionClient};
pub use encrypt::{encapsulate, encrypt, Ciphertext};
