//! Threshold BLS key setup: the shared key's G2 public
//! key, one G2 key per signer, and the G1 Feldman commitments the client's
//! batch check uses, tied together by pairings once.

use rand_core::CryptoRng;

use super::g2::{same_secret, PublicKey};
use crate::group::{Bls12381G1, PrimeOrderGroup};
use crate::threshold::{check_threshold, deal as deal_shares, Commitments, KeyShare, PartyId};
use crate::Error;

/// What a threshold BLS deployment publishes: the public key `PK = sk·G2gen`
/// that verifies every signature, the signers' keys `PK_j = sk_j·G2gen`
/// (signers `1..=m`, in order) and the G1 commitments (`C_j = sk_j·G1gen`
/// follows from them). A value of this type has passed its pairing checks
/// ([`KeySet::new`] and [`KeySet::from_bytes`] run them).
#[derive(Clone, Debug)]
pub struct KeySet {
    public_key: PublicKey,
    signer_keys: Vec<PublicKey>,
    commitments: Commitments<Bls12381G1>,
}

impl PartialEq for KeySet {
    fn eq(&self, other: &Self) -> bool {
        self.public_key == other.public_key
            && self.signer_keys == other.signer_keys
            && self.commitments == other.commitments
    }
}

/// Bytes of a key set's header: t and m, 2 bytes big-endian each.
const HEADER_LEN: usize = 4;

impl KeySet {
    /// Checks and assembles a key set: `e(A_0, G2gen) = e(G1gen, PK)` and,
    /// for every signer j, `e(C_j, G2gen) = e(G1gen, PK_j)` (2(m + 1)
    /// Miller loops, once per key set). [`Error::InvalidThreshold`] unless
    /// `1 <= t <= m <= MAX_PARTIES`; [`Error::VerificationFailed`] if a
    /// pairing check fails.
    pub fn new(
        public_key: PublicKey,
        signer_keys: Vec<PublicKey>,
        commitments: Commitments<Bls12381G1>,
    ) -> Result<KeySet, Error> {
        check_threshold(commitments.threshold(), signer_keys.len())?;
        if !same_secret(commitments.public_key(), &public_key) {
            return Err(Error::VerificationFailed);
        }
        for (index, key) in signer_keys.iter().enumerate() {
            if !signer_key_matches(&commitments, index as PartyId + 1, key) {
                return Err(Error::VerificationFailed);
            }
        }
        Ok(KeySet::checked(public_key, signer_keys, commitments))
    }

    /// A key set whose pairing checks the caller made (or that follow from
    /// checks it made: [`KeySet::derive_vartime`]).
    pub(super) fn checked(
        public_key: PublicKey,
        signer_keys: Vec<PublicKey>,
        commitments: Commitments<Bls12381G1>,
    ) -> KeySet {
        KeySet {
            public_key,
            signer_keys,
            commitments,
        }
    }

    /// The public key every signature verifies under.
    pub fn public_key(&self) -> &PublicKey {
        &self.public_key
    }

    /// Signer `id`'s G2 key ([`Error::InvalidPartyId`] outside `1..=m`).
    pub fn signer_key(&self, id: PartyId) -> Result<&PublicKey, Error> {
        usize::from(id)
            .checked_sub(1)
            .and_then(|i| self.signer_keys.get(i))
            .ok_or(Error::InvalidPartyId)
    }

    /// The number of parties (signers) m.
    pub fn parties(&self) -> usize {
        self.signer_keys.len()
    }

    /// The G1 commitments (threshold t = their number).
    pub fn commitments(&self) -> &Commitments<Bls12381G1> {
        &self.commitments
    }

    /// The encoding: t and m (2 bytes big-endian each), PK (96 bytes),
    /// PK_1..PK_m (96 bytes each), then the t G1 commitments (48 bytes
    /// each).
    pub fn to_bytes(&self) -> Vec<u8> {
        let t = self.commitments.threshold();
        let mut out = Vec::with_capacity(Self::encoded_len(t, self.parties()));
        out.extend_from_slice(&(t as u16).to_be_bytes());
        out.extend_from_slice(&(self.parties() as u16).to_be_bytes());
        out.extend_from_slice(&self.public_key.to_bytes());
        for key in &self.signer_keys {
            out.extend_from_slice(&key.to_bytes());
        }
        out.extend_from_slice(&self.commitments.to_bytes());
        out
    }

    /// The length of the encoding for t of m.
    pub fn encoded_len(t: usize, m: usize) -> usize {
        HEADER_LEN + (m + 1) * PublicKey::ENCODED_LEN + t * Bls12381G1::ELEMENT_LEN
    }

    /// Decodes [`KeySet::to_bytes`], validating every point and running
    /// the pairing checks of [`KeySet::new`]. [`Error::BadLength`] if the
    /// length does not match the header.
    pub fn from_bytes(bytes: &[u8]) -> Result<KeySet, Error> {
        if bytes.len() < HEADER_LEN {
            return Err(Error::BadLength);
        }
        let t = usize::from(u16::from_be_bytes([bytes[0], bytes[1]]));
        let m = usize::from(u16::from_be_bytes([bytes[2], bytes[3]]));
        check_threshold(t, m)?;
        if bytes.len() != Self::encoded_len(t, m) {
            return Err(Error::BadLength);
        }
        let keys: Vec<PublicKey> = bytes[HEADER_LEN..HEADER_LEN + (m + 1) * PublicKey::ENCODED_LEN]
            .chunks_exact(PublicKey::ENCODED_LEN)
            .map(PublicKey::from_bytes)
            .collect::<Result<_, _>>()?;
        let commitments =
            Commitments::from_bytes(&bytes[HEADER_LEN + (m + 1) * PublicKey::ENCODED_LEN..])?;
        KeySet::new(keys[0], keys[1..].to_vec(), commitments)
    }
}

/// Whether `key` is signer `id`'s G2 key: `e(C_id, G2gen) = e(G1gen, key)`
/// with `C_id` its public share from the commitments (two Miller loops).
pub(super) fn signer_key_matches(
    commitments: &Commitments<Bls12381G1>,
    id: PartyId,
    key: &PublicKey,
) -> bool {
    commitments
        .party_commitment(id)
        .is_ok_and(|commitment| same_secret(&commitment, key))
}

/// A dealer's t-of-m threshold BLS key: `secret` (non-zero; pass a fresh
/// [`PrimeOrderGroup::random_scalar`] for a new key) shared among signers
/// `1..=m`, and the key set to publish. [`Error::InvalidThreshold`] unless
/// `1 <= t <= m <= MAX_PARTIES`, [`Error::InvalidScalar`] for a zero
/// secret.
pub fn deal<R: CryptoRng + ?Sized>(
    secret: &<Bls12381G1 as PrimeOrderGroup>::Scalar,
    threshold: usize,
    parties: usize,
    rng: &mut R,
) -> Result<(Vec<KeyShare<Bls12381G1>>, KeySet), Error> {
    let (shares, commitments) = deal_shares::<Bls12381G1, R>(secret, threshold, parties, rng)?;
    let public_key = PublicKey::from_secret(secret);
    let signer_keys = shares
        .iter()
        .map(|share| PublicKey::from_secret(share.secret()))
        .collect();
    let key_set = KeySet::new(public_key, signer_keys, commitments)?;
    Ok((shares, key_set))
}
