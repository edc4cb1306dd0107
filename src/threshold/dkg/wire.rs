//! The framing every DKG message shares (docs/PROTOCOLS.md §10): a header
//! naming version, kind, suite, parameters, session and sender, and a
//! reader that checks each field as it takes it.

use super::params::{Role, OLD_COMMITMENTS_DIGEST_LEN};
use super::{DkgError, DkgParams, Purpose, SESSION_ID_LEN};
use crate::group::PrimeOrderGroup;
use crate::threshold::PartyId;

/// The format version this library writes and reads (2: refresh and
/// resharing headers carry the old commitments' digest).
pub(super) const VERSION: u8 = 2;

/// The message kinds, one per round's message (the header's second byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Kind {
    PedersenCommitments = 1,
    SharePair = 2,
    Complaints = 3,
    Justifications = 4,
    FeldmanCommitments = 5,
    FeldmanComplaints = 6,
    RevealedShares = 7,
}

impl Kind {
    /// Who sends this kind: a dealer (its commitments, pairs and
    /// justifications) or a receiver (its complaints and reveals).
    fn sender(self) -> Role {
        match self {
            Kind::PedersenCommitments
            | Kind::SharePair
            | Kind::Justifications
            | Kind::FeldmanCommitments => Role::Dealer,
            Kind::Complaints | Kind::FeldmanComplaints | Kind::RevealedShares => Role::Receiver,
        }
    }

    /// Whom the ids in this kind's body name: the recipient of a pair and
    /// the complainers a justification answers are receivers; the accused
    /// of a complaint and the dealers of a Feldman complaint or a reveal
    /// are dealers.
    fn listed(self) -> Role {
        match self {
            Kind::SharePair | Kind::Justifications => Role::Receiver,
            _ => Role::Dealer,
        }
    }
}

/// The header's kind byte: the kind, with the top bit set in a refresh
/// and the next one in a resharing (so a message of one purpose is refused
/// in a run of another).
fn kind_byte<G: PrimeOrderGroup>(kind: Kind, params: &DkgParams<G>) -> u8 {
    match params.purpose() {
        Purpose::KeyGeneration => kind as u8,
        Purpose::Refresh => kind as u8 | 0x80,
        Purpose::Reshare => kind as u8 | 0x40,
    }
}

/// Bytes of the header for suite `G` and `params`: version, kind, suite
/// id length, suite id, t, n, in a resharing the old t and n, in a refresh
/// or resharing the old commitments' digest, session id, sender.
fn header_len<G: PrimeOrderGroup>(params: &DkgParams<G>) -> usize {
    let old = if params.one_set() { 0 } else { 4 };
    let digest = params
        .old_commitments_digest()
        .map_or(0, |_| OLD_COMMITMENTS_DIGEST_LEN);
    3 + G::SUITE_ID.len() + 2 + 2 + old + digest + SESSION_ID_LEN + 2
}

/// A message's header, written into a fresh buffer with room for `body`
/// more bytes.
pub(super) fn start<G: PrimeOrderGroup>(
    kind: Kind,
    params: &DkgParams<G>,
    sender: PartyId,
    body: usize,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(header_len(params) + body);
    out.push(VERSION);
    out.push(kind_byte(kind, params));
    out.push(G::SUITE_ID.len() as u8);
    out.extend_from_slice(G::SUITE_ID.as_bytes());
    out.extend_from_slice(&(params.threshold() as u16).to_be_bytes());
    out.extend_from_slice(&(params.parties() as u16).to_be_bytes());
    if !params.one_set() {
        out.extend_from_slice(&(params.old_threshold() as u16).to_be_bytes());
        out.extend_from_slice(&(params.old_parties() as u16).to_be_bytes());
    }
    if let Some(digest) = params.old_commitments_digest() {
        out.extend_from_slice(digest);
    }
    out.extend_from_slice(params.session());
    out.extend_from_slice(&sender.to_be_bytes());
    out
}

/// Reads a message front to back, refusing each field that does not fit.
pub(super) struct Reader<'a, G: PrimeOrderGroup> {
    rest: &'a [u8],
    params: &'a DkgParams<G>,
    kind: Kind,
}

impl<'a, G: PrimeOrderGroup> Reader<'a, G> {
    /// Checks the header of `bytes` against `kind` and `params` and returns
    /// the reader positioned on the body, with the sender's id.
    pub(super) fn open(
        bytes: &'a [u8],
        kind: Kind,
        params: &'a DkgParams<G>,
    ) -> Result<(Self, PartyId), DkgError> {
        let mut reader = Reader {
            rest: bytes,
            params,
            kind,
        };
        if reader.byte()? != VERSION {
            return Err(DkgError::UnsupportedVersion);
        }
        if reader.byte()? != kind_byte(kind, params) {
            return Err(DkgError::WrongKind);
        }
        let suite_len = usize::from(reader.byte()?);
        if reader.take(suite_len)? != G::SUITE_ID.as_bytes() {
            return Err(DkgError::WrongSuite);
        }
        let sizes = (usize::from(reader.u16()?), usize::from(reader.u16()?));
        let old_sizes = match params.one_set() {
            true => (params.old_threshold(), params.old_parties()),
            false => (usize::from(reader.u16()?), usize::from(reader.u16()?)),
        };
        // The old commitments first: a party started from another sharing
        // of the key (one before a resharing changed t or n, say) learns
        // that, not that the sizes differ.
        if let Some(digest) = params.old_commitments_digest() {
            if reader.take(OLD_COMMITMENTS_DIGEST_LEN)? != digest {
                return Err(DkgError::OldCommitmentsMismatch);
            }
        }
        if sizes != (params.threshold(), params.parties())
            || old_sizes != (params.old_threshold(), params.old_parties())
        {
            return Err(DkgError::WrongParameters);
        }
        if reader.take(SESSION_ID_LEN)? != params.session() {
            return Err(DkgError::WrongSession);
        }
        let sender = reader.id(kind.sender())?;
        Ok((reader, sender))
    }

    fn take(&mut self, len: usize) -> Result<&'a [u8], DkgError> {
        if self.rest.len() < len {
            return Err(DkgError::BadLength);
        }
        let (head, tail) = self.rest.split_at(len);
        self.rest = tail;
        Ok(head)
    }

    fn byte(&mut self) -> Result<u8, DkgError> {
        Ok(self.take(1)?[0])
    }

    /// A 2-byte big-endian count.
    pub(super) fn u16(&mut self) -> Result<u16, DkgError> {
        let bytes = self.take(2)?;
        Ok(u16::from_be_bytes([bytes[0], bytes[1]]))
    }

    /// A party id of this run holding `role`.
    fn id(&mut self, role: Role) -> Result<PartyId, DkgError> {
        let id = self.u16()?;
        self.params.check_id(role, id)?;
        Ok(id)
    }

    /// A party id listed in the body (a dealer's or a receiver's, by the
    /// message's kind).
    pub(super) fn party(&mut self) -> Result<PartyId, DkgError> {
        self.id(self.kind.listed())
    }

    /// A validated element (canonical, in the group, not the identity).
    pub(super) fn element(&mut self) -> Result<G::Element, DkgError> {
        G::decode(self.take(G::ELEMENT_LEN)?).map_err(|_| DkgError::InvalidElement)
    }

    /// `count` validated elements.
    pub(super) fn elements(&mut self, count: usize) -> Result<Vec<G::Element>, DkgError> {
        (0..count).map(|_| self.element()).collect()
    }

    /// A canonical scalar (zero allowed: a polynomial's value may be zero).
    pub(super) fn scalar(&mut self) -> Result<G::Scalar, DkgError> {
        G::decode_scalar_or_zero(self.take(G::SCALAR_LEN)?).map_err(|_| DkgError::InvalidScalar)
    }

    /// The count of a list whose entries take `entry_len` bytes each,
    /// checked against the bytes left before anything is allocated.
    pub(super) fn count(&mut self, entry_len: usize) -> Result<usize, DkgError> {
        let count = usize::from(self.u16()?);
        if self.rest.len() != count * entry_len {
            return Err(DkgError::BadLength);
        }
        Ok(count)
    }

    /// [`DkgError::BadLength`] if bytes are left over.
    pub(super) fn finish(self) -> Result<(), DkgError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(DkgError::BadLength)
        }
    }
}

/// Checks a list of party ids: strictly increasing and, where senders and
/// listed ids are one set (not in a resharing), never `sender`.
pub(super) fn check_id_list<G: PrimeOrderGroup>(
    ids: &[PartyId],
    sender: PartyId,
    params: &DkgParams<G>,
) -> Result<(), DkgError> {
    let names_sender = params.one_set() && ids.contains(&sender);
    if ids.windows(2).any(|pair| pair[0] >= pair[1]) || names_sender {
        return Err(DkgError::UnsortedIds);
    }
    Ok(())
}
