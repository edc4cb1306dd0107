//! A threshold BLS key set without a dealer: after a distributed key
//! generation ([`crate::threshold::dkg`]) nobody holds the key, so nobody
//! can compute its G2 public key `sk·G2gen` directly. Each signer
//! publishes its share's G2 key `sk_j·G2gen` ([`PublicKey::from_secret`]
//! of its share) and anyone combines t of them in the exponent, checking
//! each against the run's G1 commitments by a pairing (docs/PROTOCOLS.md
//! §10, "BLS keys after a DKG").

use super::g2::{combine_vartime, same_secret, PublicKey};
use super::keys::{signer_key_matches, KeySet};
use crate::group::Bls12381G1;
use crate::threshold::{
    check_response_ids, check_threshold, lagrange_at, Commitments, Failure, PartyId, Response,
};
use crate::Error;

/// A key set derived from the signers' published G2 keys, and the
/// signers whose key was wrong (it did not decode or failed its pairing
/// check), in increasing order. Their keys in the key set are the right
/// ones, interpolated from t right keys.
#[derive(Clone, Debug)]
pub struct DerivedKeySet {
    /// The key set, as [`super::deal`] would have published it.
    pub key_set: KeySet,
    /// The signers whose published key was wrong.
    pub cheaters: Vec<PartyId>,
}

impl KeySet {
    /// The key set of a t-of-m key shared by a DKG (or any sharing whose
    /// G1 `commitments` are known, t their number), from the G2 keys the
    /// signers published: `signer_keys[i]` is signer
    /// `signer_keys[i].party`'s `sk_j·G2gen` (96 bytes compressed), from
    /// any signers of `1..=m`. Each key is checked against its public
    /// share `C_j` of the commitments by a pairing (two Miller loops); a
    /// key that does not decode or fails is named in
    /// [`DerivedKeySet::cheaters`]. From the t right keys of the lowest
    /// ids, Lagrange interpolation in G2 gives `PK = sk·G2gen`, checked
    /// against `A_0` by a pairing, and the key of every signer that
    /// published none or a wrong one. Public data only: variable time.
    ///
    /// Errors, in a [`Failure`]: [`Error::InvalidThreshold`] unless `1 <=
    /// t <= m <= MAX_PARTIES`; [`Error::InvalidPartyId`] for an id zero,
    /// repeated or above m; both name nobody.
    /// [`Error::NotEnoughResponses`] for fewer than t right keys and
    /// [`Error::VerificationFailed`] if `PK` fails its check (which t
    /// right keys rule out) carry the cheaters.
    pub fn derive_vartime(
        commitments: Commitments<Bls12381G1>,
        parties: usize,
        signer_keys: &[Response<'_>],
    ) -> Result<DerivedKeySet, Failure> {
        let threshold = commitments.threshold();
        check_threshold(threshold, parties)?;
        check_response_ids(None, signer_keys)?;
        if signer_keys.iter().any(|k| usize::from(k.party) > parties) {
            return Err(Error::InvalidPartyId.into());
        }
        let mut published: Vec<&Response<'_>> = signer_keys.iter().collect();
        published.sort_unstable_by_key(|k| k.party);
        let mut right: Vec<(PartyId, PublicKey)> = Vec::with_capacity(threshold);
        let mut cheaters = Vec::new();
        for response in published {
            match PublicKey::from_bytes(response.elements) {
                Ok(key) if signer_key_matches(&commitments, response.party, &key) => {
                    right.push((response.party, key));
                }
                _ => cheaters.push(response.party),
            }
        }
        if right.len() < threshold {
            return Err(Failure {
                error: Error::NotEnoughResponses,
                cheaters,
            });
        }
        let (basis_ids, basis_keys): (Vec<PartyId>, Vec<PublicKey>) =
            right.iter().take(threshold).cloned().unzip();
        let at = |x: PartyId| {
            let weights = lagrange_at::<Bls12381G1>(&basis_ids, x)?;
            combine_vartime(&basis_keys, &weights).ok_or(Error::VerificationFailed)
        };
        let public_key = match at(0) {
            Ok(key) if same_secret(commitments.public_key(), &key) => key,
            _ => {
                return Err(Failure {
                    error: Error::VerificationFailed,
                    cheaters,
                })
            }
        };
        // Keys interpolated from t keys on the committed polynomial are on
        // it too: no further pairing is needed.
        let signer_keys = (1..=parties as PartyId)
            .map(|id| match right.iter().find(|(j, _)| *j == id) {
                Some((_, key)) => Ok(*key),
                None => at(id),
            })
            .collect::<Result<Vec<PublicKey>, Error>>()
            .map_err(|error| Failure {
                error,
                cheaters: cheaters.clone(),
            })?;
        Ok(DerivedKeySet {
            key_set: KeySet::checked(public_key, signer_keys, commitments),
            cheaters,
        })
    }
}
