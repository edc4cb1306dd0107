//! RFC 9497 oblivious pseudorandom functions on every group of this
//! library: OPRF, VOPRF and POPRF modes, batched.
//!
//! The client blinds a batch of inputs ([`ClientBatch::blind`]), the server
//! evaluates the blinded elements with its key ([`Server::blind_evaluate`];
//! in VOPRF/POPRF mode with one DLEQ proof for the whole batch), and the
//! client checks the proof once and unblinds and hashes every output
//! ([`ClientBatch::finalize`]). Byte-exact with RFC 9497 for the
//! `ristretto255-SHA512` and `P256-SHA256` suites; the same code runs the
//! `BLS12381G1-SHA256` and `FFDHE*-SHA512` suites of this library.
//!
//! [`CheckedClientBatch`] is the OPRF-mode client made safe against a
//! malicious server without any proof: it hides a balancer element in the
//! batch ([`crate::oblivious`]) and checks the answers; the server side is
//! the plain [`Server::evaluate`].
//!
//! [`ThresholdClientBatch`] is the same client for a key shared among m
//! servers ([`crate::threshold`]): one request to t or more of them, every
//! answer checked, cheaters named, outputs equal to the single-key OPRF's.
//!
//! What a server must count: it cannot tell a checked request's balancer
//! (or key-free padding) from a real blinded input, so every element it
//! evaluates is an evaluation a client can use (a client may fill the
//! balancer's slot with a real input). Rate limits count elements
//! evaluated, never the inputs a client claims.
//!
//! Wire format: a batch of elements is the concatenation of fixed-width
//! canonical encodings; a proof is `c || s`.

mod checked;
mod client;
mod context;
mod dleq;
mod keys;
mod server;
mod threshold;

pub use checked::CheckedClientBatch;
pub use client::ClientBatch;
pub use context::{Mode, MAX_INPUT_LEN};
pub use dleq::Proof;
pub use keys::KeyPair;
pub use server::Server;
pub use threshold::ThresholdClientBatch;
