//! The DKG's own error type: what a refused message or a failed run is
//! refused for. Separate from [`crate::Error`], whose causes are the other
//! protocols'; the C ABI maps each `DkgError` to a status
//! (`src/ffi/status.rs`), sharing the code of the `Error` cause it
//! matches.

use core::fmt;

/// Why a DKG message was refused or a round could not run. Carries no
/// data: a bad input is named by its kind, never echoed back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DkgError {
    /// A message is shorter or longer than its layout says.
    BadLength,
    /// The message's format version is not one this library reads.
    UnsupportedVersion,
    /// The message is of another kind than the one expected here (e.g. a
    /// complaint list where a justification was expected).
    WrongKind,
    /// The message belongs to another suite (group) than this run's.
    WrongSuite,
    /// The message's threshold or party count (or, in a resharing, the old
    /// set's) differs from this run's.
    WrongParameters,
    /// The message carries another session id than this run's.
    WrongSession,
    /// A party id is zero or above the run's party count.
    InvalidPartyId,
    /// The sender written in a message is not the party the transport
    /// authenticated as its sender.
    WrongSender,
    /// A private message is addressed to another party.
    WrongRecipient,
    /// A list of party ids is not strictly increasing, or names its own
    /// sender (where senders and listed parties are one set: not in a
    /// resharing).
    UnsortedIds,
    /// An element is not canonical, not in the group, or the identity.
    InvalidElement,
    /// A scalar is not canonical (`>= q`).
    InvalidScalar,
    /// Two messages of one round were given from the same sender, or one
    /// from this party itself.
    DuplicateMessage,
    /// Threshold and party count are unusable: `1 <= t`, `2 <= n <= 1024`
    /// and `n >= 2t − 1` (an honest majority) are required.
    InvalidThreshold,
    /// Too few dealers stayed qualified: none in a key generation or
    /// refresh (there is no key), fewer than the old threshold t in a
    /// resharing (impossible with at most t − 1 old parties corrupted).
    NoQualifiedParty,
    /// Fewer than t valid revealed shares of an exposed dealer's polynomial
    /// arrived (impossible with at most t − 1 corrupted parties).
    NotEnoughRevealedShares,
    /// The joint key, a joint commitment or this party's share came out as
    /// the identity or zero (probability about n/q): run again with a new
    /// session.
    DegenerateKey,
    /// This party's final share does not match the joint Feldman
    /// commitments, or a resharing's new public key is not the old one:
    /// the commitments' binding was broken (a discrete logarithm of the
    /// Pedersen generator is known to someone). Also a share that fails
    /// the old commitments when a refresh or resharing starts.
    ShareMismatch,
    /// A refresh or resharing message names other old commitments than
    /// this run's (its header carries their digest): the sender started
    /// from another sharing of the key, an older or newer one. Also
    /// commitments given to a party's start that differ from those its
    /// parameters were made with.
    OldCommitmentsMismatch,
}

impl DkgError {
    /// A short, static description (also `Display`).
    pub fn message(self) -> &'static str {
        match self {
            DkgError::BadLength => "DKG message: a length does not fit its layout",
            DkgError::UnsupportedVersion => "DKG message: unsupported format version",
            DkgError::WrongKind => "DKG message: not the kind expected in this round",
            DkgError::WrongSuite => "DKG message: another suite (group) than this run's",
            DkgError::WrongParameters => "DKG message: another threshold or party count",
            DkgError::WrongSession => "DKG message: another session id",
            DkgError::InvalidPartyId => "DKG message: party id zero or above the party count",
            DkgError::WrongSender => "DKG message: sender differs from the authenticated one",
            DkgError::WrongRecipient => "DKG message: addressed to another party",
            DkgError::UnsortedIds => {
                "DKG message: party ids not strictly increasing, or naming the sender"
            }
            DkgError::InvalidElement => "DKG message: invalid or identity group element",
            DkgError::InvalidScalar => "DKG message: non-canonical scalar",
            DkgError::DuplicateMessage => "DKG round: two messages from one sender, or own",
            DkgError::InvalidThreshold => "DKG parameters: need 1 <= t, 2 <= n <= 1024, n >= 2t-1",
            DkgError::NoQualifiedParty => "DKG: too few dealers stayed qualified",
            DkgError::NotEnoughRevealedShares => {
                "DKG: fewer than t valid shares revealed for an exposed dealer"
            }
            DkgError::DegenerateKey => "DKG: key, commitment or share is identity or zero",
            DkgError::ShareMismatch => "DKG: final share does not match the joint commitments",
            DkgError::OldCommitmentsMismatch => {
                "DKG message: started from other old commitments than this run's"
            }
        }
    }
}

impl fmt::Display for DkgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for DkgError {}
