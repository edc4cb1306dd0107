//! Lagrange coefficients at 0: the weights that turn any t shares (or any
//! t answers computed with them) into the shared key's (docs/PROTOCOLS.md §4).

use super::{check_party_id, PartyId, MAX_PARTIES};
use crate::group::PrimeOrderGroup;
use crate::Error;

/// Checks that `ids` is a usable set of parties: not empty, at most
/// [`MAX_PARTIES`], every id non-zero and none repeated
/// ([`Error::InvalidPartyId`] otherwise, [`Error::EmptyInput`] for none).
pub fn check_party_set(ids: &[PartyId]) -> Result<(), Error> {
    if ids.is_empty() {
        return Err(Error::EmptyInput);
    }
    if ids.len() > MAX_PARTIES {
        return Err(Error::InvalidPartyId);
    }
    let mut sorted = ids.to_vec();
    sorted.sort_unstable();
    for pair in sorted.windows(2) {
        if pair[0] == pair[1] {
            return Err(Error::InvalidPartyId);
        }
    }
    ids.iter().try_for_each(|&id| check_party_id(id))
}

/// `λ_j = Π_{l≠j} l / (l − j)` for every `j` of `ids`, in the order given:
/// `Σ λ_j·f(j) = f(0)` for any polynomial of degree below `ids.len()`.
/// Party ids are public, so this is plain (variable-time) arithmetic.
pub fn lagrange_at_zero<G: PrimeOrderGroup>(ids: &[PartyId]) -> Result<Vec<G::Scalar>, Error> {
    lagrange_at::<G>(ids, 0)
}

/// `λ_j(x) = Π_{l≠j} (l − x) / (l − j)` for every `j` of `ids`, in the
/// order given: `Σ λ_j(x)·f(j) = f(x)` for any polynomial of degree below
/// `ids.len()` (`x` = 0: [`lagrange_at_zero`]; another party's id: its
/// share). Public ids: plain (variable-time) arithmetic.
pub(crate) fn lagrange_at<G: PrimeOrderGroup>(
    ids: &[PartyId],
    x: PartyId,
) -> Result<Vec<G::Scalar>, Error> {
    check_party_set(ids)?;
    let scalar = |id: PartyId| G::scalar_from_u64(u64::from(id));
    let mut numerators = Vec::with_capacity(ids.len());
    let mut denominators = Vec::with_capacity(ids.len());
    for &j in ids {
        let mut numerator = G::scalar_from_u64(1);
        let mut denominator = G::scalar_from_u64(1);
        for &l in ids.iter().filter(|&&l| l != j) {
            numerator = G::scalar_mul(&numerator, &G::scalar_sub(&scalar(l), &scalar(x)));
            denominator = G::scalar_mul(&denominator, &G::scalar_sub(&scalar(l), &scalar(j)));
        }
        numerators.push(numerator);
        denominators.push(denominator);
    }
    // Distinct ids below q make every denominator non-zero.
    G::batch_invert(&mut denominators);
    Ok(numerators
        .iter()
        .zip(&denominators)
        .map(|(n, d)| G::scalar_mul(n, d))
        .collect())
}

/// `λ_id` for party `id` within `quorum` ([`Error::InvalidPartyId`] if
/// `id` is not in it).
pub fn lagrange_for<G: PrimeOrderGroup>(
    quorum: &[PartyId],
    id: PartyId,
) -> Result<G::Scalar, Error> {
    let position = quorum
        .iter()
        .position(|&j| j == id)
        .ok_or(Error::InvalidPartyId)?;
    Ok(lagrange_at_zero::<G>(quorum)?.swap_remove(position))
}
