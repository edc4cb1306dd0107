//! The two verification equations of GJKR: a pair against a dealer's
//! Pedersen commitments, a share against its Feldman commitments.

use super::polynomial::powers;
use crate::group::PrimeOrderGroup;
use crate::secret_marks::public_bool;
use crate::threshold::PartyId;

/// `Σ_k id^k·E_k` for public commitments `E_k` (variable time).
fn expected_at<G: PrimeOrderGroup>(commitments: &[G::Element], id: PartyId) -> G::Element {
    G::msm_vartime(&powers::<G>(id, commitments.len()), commitments)
}

/// Whether `s·B + s'·H = Σ_k id^k·C_k` (GJKR's equation 4). The left side
/// is computed in constant time (the pair may be a secret share); only
/// the verdict is public.
pub(super) fn pedersen_holds<G: PrimeOrderGroup>(
    commitments: &[G::Element],
    h: &G::Element,
    id: PartyId,
    share: &G::Scalar,
    blinding: &G::Scalar,
) -> bool {
    let computed = G::add(&G::mul_base(share), &G::mul(h, blinding));
    public_bool(computed == expected_at::<G>(commitments, id))
}

/// Whether `s·B = Σ_k id^k·A_k` (GJKR's equation 5), constant time in `s`;
/// only the verdict is public.
pub(super) fn feldman_holds<G: PrimeOrderGroup>(
    commitments: &[G::Element],
    id: PartyId,
    share: &G::Scalar,
) -> bool {
    public_bool(G::mul_base(share) == expected_at::<G>(commitments, id))
}
