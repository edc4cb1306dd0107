//! Oblivious batch exponentiation checked at almost no cost: the core of
//! Baum et al., "Efficient Maliciously Secure Oblivious Exponentiations"
//! (IACR CiC 1(3), 2024; ePrint 2024/1613), as specified in docs/PROTOCOLS.md §3.
//!
//! A client has a server raise a batch of (blinded) elements `X_i` to its
//! secret key `k` and must be sure it did. Instead of a zero-knowledge proof
//! from the server, the client hides one extra element, the *balancer*,
//! among the `X_i`: it satisfies a linear relation with secret short
//! coefficients `d_i ∈ [1, 2^κ]` that the server cannot see, and the same
//! relation must hold among the answers. A server that deviates on any
//! element passes with probability at most `2^-κ`. The server's code path
//! is the plain batch evaluation (one more element); the client pays one
//! constant-time short-scalar multi-scalar multiplication to build the
//! balancer and one variable-time one to check.
//!
//! - [`Check::CommittedKey`] (the default) proves that every answer used
//!   the key of the server's commitment `C = k·B` (its public key).
//! - [`Check::KeyFree`] needs no public key but proves less: only that
//!   *one* key was applied to the whole batch (a server may use another key
//!   throughout). Its soundness rests on the Oblivious Exponentiation
//!   Problem: the balancer's coefficient is the public 1, so only the other
//!   elements' factors are secret, and batches are padded with random
//!   elements until those secret factors have at least 256 bits together,
//!   `(sent − 1)·κ ≥ 256` ([`request_len`]). (Giving the balancer a secret
//!   factor of its own would save one padding element at the price of an
//!   inversion and a full-width multiplication per batch; padding only
//!   costs anything on batches below 256/κ inputs.)
//!
//! The check convinces the client only (its coins are private). After a
//! failed check, use nothing of the batch; a retry needs fresh blinds and
//! factors (a new [`Request`]) and each attempt gives a cheater another
//! `2^-κ` chance, so stop using a server that fails.
//!
//! The protocols ([`crate::oprf`], and through [`crate::threshold`] blind
//! signing and decryption) prepare the elements and interpret the answers; this module is the one
//! place that builds and checks the batch.

mod kappa;
mod request;
mod secrets;

pub use kappa::Kappa;
pub use request::{request_len, Request};

/// Which relation the balancer carries (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Check {
    /// Every answer must use the key committed to by the server's public key
    /// `C`: the client checks `Σ d_i·Y_i = s·C`. The default.
    #[default]
    CommittedKey,
    /// One key, whichever, for the whole batch: the client checks that the
    /// balancer's answer is `Σ d_i·Y_i`. Weaker: see the module
    /// documentation.
    KeyFree,
}
