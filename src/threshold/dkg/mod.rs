//! Distributed key generation without a trusted dealer
//! (docs/PROTOCOLS.md §10): n parties end with exactly what
//! [`super::deal`] gives, each its [`super::KeyShare`] of a t-of-n Shamir
//! sharing and all the same Feldman [`super::Commitments`] (whose `A_0` is
//! the public key), so the threshold OPRF, blind BLS and ElGamal run on
//! the output unchanged. No party ever holds the key.
//!
//! # Design: GJKR's New-DKG
//!
//! Gennaro, Jarecki, Krawczyk and Rabin, "Secure Distributed Key
//! Generation for Discrete-Log Based Cryptosystems" (J. Cryptology 2007),
//! with their polynomial degree `t − 1` here (t shares reconstruct):
//!
//! 1. Every party `i` deals twice: a secret polynomial `f_i` and a blinding
//!    polynomial `f'_i`, and broadcasts only the *Pedersen* commitments
//!    `C_ik = a_ik·B + b_ik·H`, which hide `f_i` perfectly. `H` is the
//!    suite's hash-to-group of its suite id under
//!    [`PEDERSEN_GENERATOR_DST`]: nobody knows `log_B H`. Party `j` gets
//!    `(f_i(j), f'_i(j))` privately and checks it against `C_i`.
//! 2. Party `j` broadcasts its complaints (possibly none).
//! 3. Each accused dealer answers each complaint by publishing the pair it
//!    dealt to the complainer. QUAL is then fixed from broadcast data
//!    alone, hence the same at every honest party: a dealer leaves it if
//!    its commitments or any of its broadcasts so far are missing or
//!    malformed, if t or more parties complained, or if it left a
//!    complaint unanswered or answered it with a pair that fails the
//!    check. A complaint answered with a valid pair disqualifies nobody
//!    (GJKR): it is recorded, and the complainer uses the published pair.
//! 4. Only now does each party broadcast its *Feldman* values
//!    `A_ik = a_ik·B`.
//! 5. Party `j` checks its share from each qualified dealer against them;
//!    on failure it broadcasts the pair as evidence (it passes `C_i`, fails
//!    `A_i`). A valid complaint, or missing or malformed Feldman values,
//!    *exposes* the dealer; it stays in QUAL.
//! 6. Every party reveals its pair from each exposed dealer; the others
//!    rebuild the dealer's polynomial from t pairs that pass `C_i`, hence
//!    its true `A_ik`.
//!
//! The key is `x = Σ_{i∈QUAL} f_i(0)`, the shares `x_j = Σ_{i∈QUAL}
//! f_i(j)`, the commitments `A_k = Σ_{i∈QUAL} A_ik`.
//!
//! **Refresh** ([`DkgParams::refresh`], [`DkgParty::start_refresh`]):
//! the same rounds with every polynomial's constant term zero (their
//! commitments, the identity, are not sent), each party adding what it
//! receives to its old share and the old commitments: same key, same
//! `A_0`, same outputs, new shares that do not combine with old ones
//! (Herzberg, Jarecki, Krawczyk, Yung, proactive secret sharing).
//!
//! **Resharing** ([`DkgParams::reshare`],
//! [`DkgParty::start_reshare_dealer`], [`DkgParty::start_reshare_receiver`];
//! Desmedt–Jajodia, Wong–Wang–Wing): the key of an old t-of-n set moves to
//! a new t′-of-n′ set, possibly of other parties, through the same rounds
//! with two roles. The old parties (ids 1..=n) only deal: old party `i`
//! deals its share `x_i` as `f_i(0)` (degree t′ − 1) with `f'_i(0) = 0`, so
//! `C_i0 = x_i·B`, which every new party checks against the old
//! commitments at `i` ([`Offence::WrongConstantTerm`] disqualifies). The
//! new parties (ids 1..=n′) only receive: they complain, judge, rebuild
//! exposed dealers and end with `x'_j = Σ_{i∈QUAL} λ_i·f_i(j)` and
//! `A'_k = Σ_{i∈QUAL} λ_i·A_ik`, `λ_i` the Lagrange coefficients at zero
//! of QUAL (which needs t or more old parties). Since `Σ λ_i·x_i = x`,
//! `A'_0 = A_0`: the public key and every output stay. A party in both
//! sets runs both roles, each with its own state and id.
//!
//! | round | old party (dealer) | new party (receiver) |
//! |---|---|---|
//! | 1 | sends commitments, pairs ([`DealerRound1State`]) | — ([`ReceiverRound1State`]) |
//! | 2 | — | sends complaints ([`ReceiverRound1State::round2`]) |
//! | 3 | sends justifications ([`DealerRound1State::round3`]) | — |
//! | 4 | sends Feldman commitments ([`DealerRound3State::round4`]); done | fixes QUAL ([`ReceiverRound2State::round4`]) |
//! | 5, 6, end | — | [`Round4State::round5`], [`Round5State::round6`], [`Round6State::finish`] |
//!
//! The old parties' pairs go privately to each new party; everything else
//! is broadcast to both sets. A resharing's messages carry the kind bit
//! `0x40` and the old set's t and n in their header, so they never decode
//! in another run (docs/PROTOCOLS.md §10, "Wire format" and "Versioning").
//!
//! **Why not the plain Pedersen / Joint-Feldman DKG.** There each party
//! broadcasts `A_ik` in round 1, and a rushing adversary that sees the
//! honest parties' `A_i0` before deciding which of its own dealers to get
//! disqualified (by complaints against them) chooses between `2^{t−1}`
//! public keys: it biases the key (GJKR §3). Here the values revealed
//! before QUAL is fixed are perfectly hiding, and after it is fixed every
//! qualified contribution is determined (rebuilt if withheld), so the key
//! is uniform whatever t − 1 corrupted parties do.
//!
//! # Message flow
//!
//! | round | message | channel |
//! |---|---|---|
//! | 1 | [`PedersenCommitments`] | broadcast |
//! | 1 | [`SharePair`] (one per recipient) | private: authenticated and encrypted |
//! | 2 | [`Complaints`] | broadcast |
//! | 3 | [`Justifications`] | broadcast |
//! | 4 | [`FeldmanCommitments`] | broadcast |
//! | 5 | [`FeldmanComplaints`] | broadcast |
//! | 6 | [`RevealedShares`] | broadcast |
//!
//! Every party sends every broadcast in every round, empty lists included,
//! so that silence is an offence that all see alike. The typed states
//! ([`DkgParty::start`] → [`Round1State::round2`] → … →
//! [`Round6State::finish`]) each consume themselves: a round cannot be
//! skipped or repeated. Each round takes the messages the transport
//! delivered as [`Received`] (authenticated sender, bytes), decodes and
//! validates them, and blames the sender of one that does not decode.
//!
//! # Threat model
//!
//! - Up to t − 1 of the n parties are corrupted, statically, and may
//!   deviate arbitrarily and rush (send after seeing the honest parties'
//!   messages of the same round); `n ≥ 2t − 1`, so the honest parties are
//!   at least t ([`DkgParams::new`] refuses other parameters). In a
//!   resharing, up to t − 1 old and t′ − 1 new parties (`n′ ≥ 2t′ − 1`);
//!   old shares must be erased once the new ones exist, or a later
//!   adversary holding t old shares still has the key.
//! - The transport (the caller's) must provide: a *broadcast channel*
//!   on which every honest party receives the same message from a sender
//!   (or all see it missing) — GJKR's agreement on QUAL rests on it; a
//!   party that could send different round-1 commitments to different
//!   parties would split QUAL, so echo broadcast with signatures or a
//!   bulletin board is needed, not plain point-to-point copies;
//!   *private channels* for [`SharePair`], authenticated and encrypted;
//!   sender authentication for every message; synchrony: a round ends for
//!   everyone at a deadline, and what has not arrived is missing.
//! - Then: every honest party finishes with the same QUAL, blame list,
//!   public key and commitments; its share matches the commitments; the
//!   key is uniform; the corrupted parties learn nothing about it beyond
//!   the public key; any t honest shares reconstruct it, and t − 1 shares
//!   (the corrupted ones) say nothing. In a resharing the key is the old
//!   one (no bias is possible), every honest new party gets the same QUAL
//!   of at least t old parties, and t′ − 1 new shares together with t − 1
//!   old ones say nothing about it. A corrupted party cannot make the
//!   run fail, except with probability about n/q (a zero share or
//!   identity commitment: [`DkgError::DegenerateKey`]).
//! - Not covered: t or more corrupted parties (they can rebuild the key);
//!   an adaptive adversary; a broken broadcast channel; denial of service
//!   by the transport.
//! - Secrets (the polynomials, received shares, the final share) are
//!   wiped on drop, never `Clone` or printed, and all arithmetic on them
//!   is constant time; only public values (commitments, revealed pairs,
//!   party ids) meet variable-time code.

mod blame;
mod checks;
mod error;
mod messages;
mod params;
mod polynomial;
mod reshare_dealer;
mod reshare_receiver;
mod round_complaints;
mod round_feldman;
mod round_sharing;
mod view;
mod wire;

pub use blame::{Blame, DkgOutput, Offence};
pub use error::DkgError;
pub use messages::{
    Complaints, FeldmanCommitments, FeldmanComplaints, Justifications, PedersenCommitments,
    Received, RevealedPair, RevealedShares, SharePair,
};
pub use params::{DkgParams, Purpose, PEDERSEN_GENERATOR_DST, SESSION_ID_LEN};
pub use reshare_dealer::{DealerRound1State, DealerRound3State};
pub use reshare_receiver::{ReceiverRound1State, ReceiverRound2State};
pub use round_complaints::{Round2State, Round3State};
pub use round_feldman::{Round4State, Round5State, Round6State};
pub use round_sharing::{DkgParty, Round1Messages, Round1State};
