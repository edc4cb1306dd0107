//! The DKG's messages, one type per round, each with a validating
//! encoding (docs/PROTOCOLS.md §10). Only [`SharePair`] goes point to
//! point (and is secret); every other message is broadcast.

use zeroize::Zeroizing;

use super::wire::{check_id_list, start, Kind, Reader};
use super::{DkgError, DkgParams};
use crate::group::PrimeOrderGroup;
use crate::threshold::PartyId;

/// One message as the caller's transport delivered it: the sender the
/// transport authenticated, and the bytes. A message whose header names
/// another sender is refused ([`DkgError::WrongSender`]) and blamed on
/// `from`. Its `Debug` prints the sender and the length only: the bytes
/// of a [`SharePair`] are secret.
#[derive(Clone, Copy)]
pub struct Received<'a> {
    /// The authenticated sender.
    pub from: PartyId,
    /// The encoded message.
    pub bytes: &'a [u8],
}

impl core::fmt::Debug for Received<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Received")
            .field("from", &self.from)
            .field("len", &self.bytes.len())
            .finish()
    }
}

/// A list of `t` elements (`t − 1` in a refresh) from one sender: the body of the two
/// commitment messages.
struct ElementList<G: PrimeOrderGroup> {
    params: DkgParams<G>,
    sender: PartyId,
    elements: Vec<G::Element>,
}

impl<G: PrimeOrderGroup> ElementList<G> {
    fn to_bytes(&self, kind: Kind) -> Vec<u8> {
        let mut out = start(
            kind,
            &self.params,
            self.sender,
            self.elements.len() * G::ELEMENT_LEN,
        );
        let body = out.len();
        out.resize(body + self.elements.len() * G::ELEMENT_LEN, 0);
        G::encode_batch(&self.elements, &mut out[body..]);
        out
    }

    fn from_bytes(bytes: &[u8], kind: Kind, params: &DkgParams<G>) -> Result<Self, DkgError> {
        let (mut reader, sender) = Reader::open(bytes, kind, params)?;
        let elements = reader.elements(params.committed())?;
        reader.finish()?;
        Ok(ElementList {
            params: *params,
            sender,
            elements,
        })
    }
}

/// Round 1, broadcast: dealer `i`'s Pedersen commitments
/// `C_ik = a_ik·B + b_ik·H`, `k = 0..t−1`, to its secret polynomial `f_i`
/// and its blinding polynomial `f'_i`. Layout: header ‖ `t` elements
/// (in a refresh `t − 1`: `k = 1..t−1`, the constant terms being zero; in
/// a resharing `t′`, with `C_i0 = x_i·B` the old share's commitment).
pub struct PedersenCommitments<G: PrimeOrderGroup>(ElementList<G>);

/// Round 4, broadcast: dealer `i`'s Feldman commitments `A_ik = a_ik·B`,
/// sent only once the qualified set is fixed. Layout: header ‖ `t`
/// elements (`t − 1` in a refresh, as for [`PedersenCommitments`]).
pub struct FeldmanCommitments<G: PrimeOrderGroup>(ElementList<G>);

macro_rules! element_list_message {
    ($name:ident, $kind:expr) => {
        impl<G: PrimeOrderGroup> $name<G> {
            pub(super) fn new(
                params: DkgParams<G>,
                sender: PartyId,
                elements: Vec<G::Element>,
            ) -> Self {
                $name(ElementList {
                    params,
                    sender,
                    elements,
                })
            }

            pub(super) fn into_elements(self) -> Vec<G::Element> {
                self.0.elements
            }

            /// The sender's party id.
            pub fn sender(&self) -> PartyId {
                self.0.sender
            }

            /// The commitments, `k = 0..t−1` (`1..t−1` in a refresh).
            pub fn commitments(&self) -> &[G::Element] {
                &self.0.elements
            }

            /// The encoding (docs/PROTOCOLS.md §10).
            pub fn to_bytes(&self) -> Vec<u8> {
                self.0.to_bytes($kind)
            }

            /// Decodes and validates [`Self::to_bytes`] for this run: the
            /// header's errors ([`DkgError::BadLength`],
            /// [`DkgError::UnsupportedVersion`], [`DkgError::WrongKind`],
            /// [`DkgError::WrongSuite`], [`DkgError::WrongParameters`],
            /// [`DkgError::WrongSession`], [`DkgError::InvalidPartyId`]),
            /// then [`DkgError::InvalidElement`] for any element that is
            /// not canonical, not in the group, or the identity.
            pub fn from_bytes(bytes: &[u8], params: &DkgParams<G>) -> Result<Self, DkgError> {
                ElementList::from_bytes(bytes, $kind, params).map($name)
            }
        }

        impl<G: PrimeOrderGroup> core::fmt::Debug for $name<G> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("group", &G::SUITE_ID)
                    .field("sender", &self.0.sender)
                    .finish_non_exhaustive()
            }
        }
    };
}

element_list_message!(PedersenCommitments, Kind::PedersenCommitments);
element_list_message!(FeldmanCommitments, Kind::FeldmanCommitments);

/// Round 1, private (point to point; the transport must authenticate and
/// encrypt it): dealer `i`'s share `s_ij = f_i(j)` and blinding share
/// `s'_ij = f'_i(j)` for party `j`. Layout: header ‖ recipient (2 B) ‖
/// `s_ij` ‖ `s'_ij`. Secret: wiped on drop, neither `Clone` nor printed.
pub struct SharePair<G: PrimeOrderGroup> {
    params: DkgParams<G>,
    sender: PartyId,
    recipient: PartyId,
    share: G::Scalar,
    blinding: G::Scalar,
}

impl<G: PrimeOrderGroup> core::fmt::Debug for SharePair<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SharePair")
            .field("group", &G::SUITE_ID)
            .field("sender", &self.sender)
            .field("recipient", &self.recipient)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> SharePair<G> {
    pub(super) fn new(
        params: DkgParams<G>,
        sender: PartyId,
        recipient: PartyId,
        share: G::Scalar,
        blinding: G::Scalar,
    ) -> Self {
        SharePair {
            params,
            sender,
            recipient,
            share,
            blinding,
        }
    }

    /// The dealer's party id.
    pub fn sender(&self) -> PartyId {
        self.sender
    }

    /// The party this pair is for.
    pub fn recipient(&self) -> PartyId {
        self.recipient
    }

    pub(super) fn share(&self) -> &G::Scalar {
        &self.share
    }

    pub(super) fn blinding(&self) -> &G::Scalar {
        &self.blinding
    }

    /// The encoding (docs/PROTOCOLS.md §10). Secret: send it only over an
    /// encrypted, authenticated channel to [`Self::recipient`]; it is
    /// wiped when dropped.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut out = Zeroizing::new(start(
            Kind::SharePair,
            &self.params,
            self.sender,
            2 + 2 * G::SCALAR_LEN,
        ));
        out.extend_from_slice(&self.recipient.to_be_bytes());
        let body = out.len();
        out.resize(body + 2 * G::SCALAR_LEN, 0);
        G::encode_scalar(&self.share, &mut out[body..body + G::SCALAR_LEN]);
        G::encode_scalar(&self.blinding, &mut out[body + G::SCALAR_LEN..]);
        out
    }

    /// Decodes and validates [`Self::to_bytes`]: the header's errors (as
    /// for [`PedersenCommitments::from_bytes`]), [`DkgError::InvalidPartyId`]
    /// for a recipient outside 1..=n, [`DkgError::UnsortedIds`] for a pair
    /// addressed to its own sender (not in a resharing, where the
    /// recipient is a new party and the sender an old one), [`DkgError::InvalidScalar`] for a
    /// non-canonical scalar. Whether the recipient is the caller is checked
    /// by the round ([`DkgError::WrongRecipient`]).
    pub fn from_bytes(bytes: &[u8], params: &DkgParams<G>) -> Result<Self, DkgError> {
        let (mut reader, sender) = Reader::open(bytes, Kind::SharePair, params)?;
        let recipient = reader.party()?;
        check_id_list(&[recipient], sender, params)?;
        let share = reader.scalar()?;
        let blinding = reader.scalar()?;
        reader.finish()?;
        Ok(SharePair::new(*params, sender, recipient, share, blinding))
    }
}

/// Round 2, broadcast: the dealers party `j` complains against (their
/// pair did not arrive, did not decode, or fails the Pedersen check). In
/// a resharing `j` is a new party and the dealers old ones.
/// Sent even when empty. Layout: header ‖ count (2 B) ‖ ids (2 B each,
/// strictly increasing, never the sender).
pub struct Complaints<G: PrimeOrderGroup> {
    params: DkgParams<G>,
    sender: PartyId,
    accused: Vec<PartyId>,
}

impl<G: PrimeOrderGroup> core::fmt::Debug for Complaints<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Complaints")
            .field("group", &G::SUITE_ID)
            .field("sender", &self.sender)
            .field("accused", &self.accused)
            .finish()
    }
}

impl<G: PrimeOrderGroup> Complaints<G> {
    pub(super) fn new(params: DkgParams<G>, sender: PartyId, accused: Vec<PartyId>) -> Self {
        Complaints {
            params,
            sender,
            accused,
        }
    }

    /// The complainer's party id.
    pub fn sender(&self) -> PartyId {
        self.sender
    }

    /// The dealers accused, in increasing order.
    pub fn accused(&self) -> &[PartyId] {
        &self.accused
    }

    /// The encoding (docs/PROTOCOLS.md §10).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = start(
            Kind::Complaints,
            &self.params,
            self.sender,
            2 + 2 * self.accused.len(),
        );
        out.extend_from_slice(&(self.accused.len() as u16).to_be_bytes());
        for id in &self.accused {
            out.extend_from_slice(&id.to_be_bytes());
        }
        out
    }

    /// Decodes and validates [`Self::to_bytes`]: the header's errors (as
    /// for [`PedersenCommitments::from_bytes`]), [`DkgError::BadLength`] if
    /// the count does not match the length, [`DkgError::InvalidPartyId`]
    /// for an id outside 1..=n, [`DkgError::UnsortedIds`] unless the ids
    /// are strictly increasing and exclude the sender.
    pub fn from_bytes(bytes: &[u8], params: &DkgParams<G>) -> Result<Self, DkgError> {
        let (mut reader, sender) = Reader::open(bytes, Kind::Complaints, params)?;
        let count = reader.count(2)?;
        let accused = (0..count)
            .map(|_| reader.party())
            .collect::<Result<Vec<_>, _>>()?;
        reader.finish()?;
        check_id_list(&accused, sender, params)?;
        Ok(Complaints::new(*params, sender, accused))
    }
}

/// A share and blinding share made public: in a justification (`party` is
/// the complainer), a Feldman complaint or a reveal (`party` is the
/// dealer). Public by the protocol once sent.
pub struct RevealedPair<G: PrimeOrderGroup> {
    /// The other party of the pair (see the message it is in).
    pub party: PartyId,
    /// The share `s = f(j)`.
    pub share: G::Scalar,
    /// The blinding share `s' = f'(j)`.
    pub blinding: G::Scalar,
}

impl<G: PrimeOrderGroup> Clone for RevealedPair<G> {
    fn clone(&self) -> Self {
        RevealedPair {
            party: self.party,
            share: self.share.clone(),
            blinding: self.blinding.clone(),
        }
    }
}

/// A list of revealed pairs from one sender: the body of three messages.
struct PairList<G: PrimeOrderGroup> {
    params: DkgParams<G>,
    sender: PartyId,
    pairs: Vec<RevealedPair<G>>,
}

impl<G: PrimeOrderGroup> PairList<G> {
    const ENTRY_LEN: usize = 2 + 2 * G::SCALAR_LEN;

    fn to_bytes(&self, kind: Kind) -> Vec<u8> {
        let mut out = start(
            kind,
            &self.params,
            self.sender,
            2 + self.pairs.len() * Self::ENTRY_LEN,
        );
        out.extend_from_slice(&(self.pairs.len() as u16).to_be_bytes());
        for pair in &self.pairs {
            out.extend_from_slice(&pair.party.to_be_bytes());
            let at = out.len();
            out.resize(at + 2 * G::SCALAR_LEN, 0);
            G::encode_scalar(&pair.share, &mut out[at..at + G::SCALAR_LEN]);
            G::encode_scalar(&pair.blinding, &mut out[at + G::SCALAR_LEN..]);
        }
        out
    }

    fn from_bytes(bytes: &[u8], kind: Kind, params: &DkgParams<G>) -> Result<Self, DkgError> {
        let (mut reader, sender) = Reader::open(bytes, kind, params)?;
        let count = reader.count(Self::ENTRY_LEN)?;
        let mut pairs = Vec::with_capacity(count);
        for _ in 0..count {
            let party = reader.party()?;
            let share = reader.scalar()?;
            let blinding = reader.scalar()?;
            pairs.push(RevealedPair {
                party,
                share,
                blinding,
            });
        }
        reader.finish()?;
        let ids: Vec<PartyId> = pairs.iter().map(|pair| pair.party).collect();
        check_id_list(&ids, sender, params)?;
        Ok(PairList {
            params: *params,
            sender,
            pairs,
        })
    }
}

/// Round 3, broadcast: dealer `i`'s answers to the complaints against it,
/// one pair `(j, s_ij, s'_ij)` per complainer `j`. Sent even when empty.
pub struct Justifications<G: PrimeOrderGroup>(PairList<G>);

/// Round 5, broadcast: party `j`'s complaints against qualified dealers
/// whose Feldman commitments its share fails, each with its pair
/// `(i, s_ij, s'_ij)` as evidence. Sent even when empty.
pub struct FeldmanComplaints<G: PrimeOrderGroup>(PairList<G>);

/// Round 6, broadcast: party `j`'s pairs `(i, s_ij, s'_ij)` from every
/// exposed dealer `i` (one whose Feldman commitments were missing or
/// shown wrong), from which the others rebuild `f_i`. Sent even when
/// empty.
pub struct RevealedShares<G: PrimeOrderGroup>(PairList<G>);

macro_rules! pair_list_message {
    ($name:ident, $kind:expr) => {
        impl<G: PrimeOrderGroup> $name<G> {
            pub(super) fn new(
                params: DkgParams<G>,
                sender: PartyId,
                pairs: Vec<RevealedPair<G>>,
            ) -> Self {
                $name(PairList {
                    params,
                    sender,
                    pairs,
                })
            }

            /// The sender's party id.
            pub fn sender(&self) -> PartyId {
                self.0.sender
            }

            /// The pairs, by increasing party id.
            pub fn pairs(&self) -> &[RevealedPair<G>] {
                &self.0.pairs
            }

            /// The encoding (docs/PROTOCOLS.md §10): header ‖ count (2 B) ‖
            /// per pair, the party id (2 B) ‖ `s` ‖ `s'`.
            pub fn to_bytes(&self) -> Vec<u8> {
                self.0.to_bytes($kind)
            }

            /// Decodes and validates [`Self::to_bytes`]: the header's
            /// errors (as for [`PedersenCommitments::from_bytes`]),
            /// [`DkgError::BadLength`] if the count does not match the
            /// length, [`DkgError::InvalidPartyId`] for an id outside
            /// 1..=n, [`DkgError::InvalidScalar`] for a non-canonical
            /// scalar, [`DkgError::UnsortedIds`] unless the ids are
            /// strictly increasing and exclude the sender.
            pub fn from_bytes(bytes: &[u8], params: &DkgParams<G>) -> Result<Self, DkgError> {
                PairList::from_bytes(bytes, $kind, params).map($name)
            }
        }

        impl<G: PrimeOrderGroup> core::fmt::Debug for $name<G> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                let ids: Vec<PartyId> = self.0.pairs.iter().map(|pair| pair.party).collect();
                f.debug_struct(stringify!($name))
                    .field("group", &G::SUITE_ID)
                    .field("sender", &self.0.sender)
                    .field("parties", &ids)
                    .finish()
            }
        }
    };
}

pair_list_message!(Justifications, Kind::Justifications);
pair_list_message!(FeldmanComplaints, Kind::FeldmanComplaints);
pair_list_message!(RevealedShares, Kind::RevealedShares);
