//! t-of-m threshold versions of the oblivious exponentiation
//! (docs/PROTOCOLS.md §4): a key shared among m servers by Shamir's scheme with
//! Feldman commitments, and a client that sends one checked request
//! ([`crate::oblivious`]) to several servers, checks every answer against
//! its server's commitment, combines t correct ones with Lagrange
//! coefficients and names every server that cheated.
//!
//! - [`deal`] shares a key; [`KeyShare`] and [`Commitments`] are what the
//!   servers and the clients hold (with validating encodings);
//!   [`Commitments::verify_share`] checks a share on receipt.
//! - [`dkg`] generates a shared key without a trusted dealer (GJKR), with
//!   the same output as [`deal`].
//! - [`lagrange_at_zero`] gives the recombination weights of any party set.
//! - [`ThresholdRequest`] is the client's batch; [`evaluate_share`] is the
//!   whole server side (the plain batch evaluation with its share).
//!
//! The threshold OPRF ([`crate::oprf::ThresholdOprfClient`]), blind BLS
//! signing ([`crate::bls`]) and ElGamal decryption ([`crate::elgamal`])
//! only prepare the elements and interpret the combined answers.
//!
//! Guarantee: with at least t correct answers among those it is given, the
//! client recovers the batch under the shared key (the outputs are right,
//! whatever the other answers are); with fewer it gets
//! [`crate::Error::NotEnoughResponses`] and no output.
//!
//! What blame means: every server whose answer is checked on its own and
//! fails is named (a cheater passes its own check with probability at most
//! 2^-κ), and so is a server whose answer does not decode. A server's own
//! check runs when the combined check of t answers fails, and for every
//! answer beyond those t. When the combined check passes, the outputs are
//! right, and servers whose wrong answers cancel out in the combination
//! (colluders) change nothing and may go unnamed.

pub mod dkg;
mod integer_weights;
mod lagrange;
mod request;
mod sharing;

pub use integer_weights::combine_at_zero_vartime;
pub(crate) use lagrange::lagrange_at;
pub use lagrange::{check_party_set, lagrange_at_zero, lagrange_for};
pub use request::{
    check_response_ids, evaluate_share, Failure, Recovered, Response, ThresholdRequest,
};
pub use sharing::{deal, Commitments, KeyShare};

/// A party (server) id: 1..=m. Shares are `f(id)`, so 0 (the key itself)
/// is never an id.
pub type PartyId = u16;

/// The largest number of parties (and of commitments) accepted: bounds the
/// quadratic Lagrange computation and every allocation sized by `m` or `t`.
pub const MAX_PARTIES: usize = 1024;

/// [`crate::Error::InvalidThreshold`] unless `1 <= t <= m <= MAX_PARTIES`.
pub fn check_threshold(threshold: usize, parties: usize) -> Result<(), crate::Error> {
    if threshold == 0 || threshold > parties || parties > MAX_PARTIES {
        return Err(crate::Error::InvalidThreshold);
    }
    Ok(())
}

/// [`crate::Error::InvalidPartyId`] for id 0 or an id above [`MAX_PARTIES`].
pub(crate) fn check_party_id(id: PartyId) -> Result<(), crate::Error> {
    if id == 0 || usize::from(id) > MAX_PARTIES {
        Err(crate::Error::InvalidPartyId)
    } else {
        Ok(())
    }
}
