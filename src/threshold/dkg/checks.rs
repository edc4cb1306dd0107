//! The two verification equations of GJKR: a pair against a dealer's
//! Pedersen commitments, a share against its Feldman commitments.

use super::polynomial::powers;
use crate::group::PrimeOrderGroup;
use crate::secret_marks::public_bool;
use crate::threshold::PartyId;

/// `Σ_k id^k·E_k` for public commitments `E_k`, `k` from `first` on
/// (variable time).
fn expected_at<G: PrimeOrderGroup>(
    commitments: &[G::Element],
    first: usize,
    id: PartyId,
) -> G::Element {
    G::msm_vartime(&powers::<G>(id, first, commitments.len()), commitments)
}

/// Whether `s·B + s'·H = Σ_k id^k·C_k` (GJKR's equation 4), the
/// commitments starting at `C_first`. The left side is computed in
/// constant time (the pair may be a secret share); only the verdict is
/// public.
pub(super) fn pedersen_holds<G: PrimeOrderGroup>(
    commitments: &[G::Element],
    first: usize,
    h: &G::Element,
    id: PartyId,
    share: &G::Scalar,
    blinding: &G::Scalar,
) -> bool {
    let computed = G::add(&G::mul_base(share), &G::mul(h, blinding));
    public_bool(computed == expected_at::<G>(commitments, first, id))
}

/// Whether `s·B = Σ_k id^k·A_k` (GJKR's equation 5), the commitments
/// starting at `A_first`; constant time in `s`, only the verdict is
/// public.
pub(super) fn feldman_holds<G: PrimeOrderGroup>(
    commitments: &[G::Element],
    first: usize,
    id: PartyId,
    share: &G::Scalar,
) -> bool {
    public_bool(G::mul_base(share) == expected_at::<G>(commitments, first, id))
}
