//! RFC 9497 oblivious pseudorandom functions on every group of this
//! library, batched, with the mode in the type: a server per mode
//! ([`OprfServer`], [`VoprfServer`], [`PoprfServer`]) and a client per mode
//! ([`OprfClient`], [`VoprfClient`], [`PoprfClient`]) that blinds a batch
//! of inputs into a single-use batch ([`OprfBatch`], …), which checks the
//! server's answer (and its one proof for the whole batch, in VOPRF and
//! POPRF mode) and finalizes the outputs. Byte-exact with RFC 9497 for the
//! `ristretto255-SHA512` and `P256-SHA256` suites; the same code runs the
//! `BLS12381G1-SHA256` and `FFDHE*-SHA512` suites of this library.
//!
//! ```
//! use oblivex::group::Ristretto255;
//! use oblivex::oprf::{VoprfClient, VoprfServer};
//! # use rand_core::UnwrapErr;
//! # let mut rng = UnwrapErr(getrandom::SysRng);
//! let server = VoprfServer::<Ristretto255>::generate(&mut rng);
//! let client = VoprfClient::new(server.public_key().clone()).unwrap();
//! let batch = client.blind(&[b"alice", b"bob"], &mut rng).unwrap();
//! let (evaluated, proof) = server.evaluate(batch.request(), &mut rng);
//! let outputs = batch.finalize(&evaluated, &proof).unwrap();
//! assert_eq!(outputs.len(), 2);
//! ```
//!
//! [`CheckedOprfClient`] is the OPRF-mode client made safe against a
//! malicious server without any proof: it hides a balancer element in the
//! batch ([`crate::oblivious`]) and checks the answers; the server side is
//! the plain [`OprfServer::evaluate`]. [`ThresholdOprfClient`] is the same
//! client for a key shared among m servers ([`crate::threshold`]): one
//! request to t or more of them, every answer checked, cheaters named,
//! outputs equal to the single-key OPRF's.
//!
//! What a server must count: it cannot tell a checked request's balancer
//! (or key-free padding) from a real blinded input, so every element it
//! evaluates is an evaluation a client can use (a client may fill the
//! balancer's slot with a real input). Rate limits count elements
//! evaluated, never the inputs a client claims.
//!
//! Messages ([`crate::message`]): a batch of elements is the concatenation
//! of fixed-width canonical encodings; a proof is `c || s`.

mod checked;
mod client;
mod context;
mod dleq;
mod keys;
mod server;
mod threshold;

pub use crate::blinding::MAX_INPUT_LEN;
pub use checked::{CheckedOprfBatch, CheckedOprfClient};
pub use client::{OprfBatch, OprfClient, Output, PoprfBatch, PoprfClient, VoprfBatch, VoprfClient};
pub(crate) use context::Mode;
pub use dleq::Proof;
pub use keys::KeyPair;
pub use server::{OprfServer, PoprfServer, VoprfServer};
pub use threshold::{ThresholdOprfBatch, ThresholdOprfClient};
