//! A dealer's secret polynomials and what is computed from them, and the
//! public interpolation that rebuilds an exposed dealer's polynomial.

use rand_core::CryptoRng;

use crate::group::PrimeOrderGroup;
use crate::threshold::sharing::evaluate;
use crate::threshold::PartyId;

/// The coefficients `c_0..c_{t−1}` of a secret polynomial of degree
/// `t − 1`, of which `c_first..` are committed to (`first` = 1: `c_0` is
/// zero, a refresh). Each scalar wipes itself on drop; not `Clone`, not
/// `Debug`. The random coefficients are cloned out of the vector they are
/// drawn into, never moved: a vector whose elements were moved out frees
/// their bytes unwiped, while dropping it wipes each in place.
pub(super) struct SecretPolynomial<G: PrimeOrderGroup> {
    coefficients: Vec<G::Scalar>,
    first: usize,
}

impl<G: PrimeOrderGroup> SecretPolynomial<G> {
    /// `t` coefficients: `first` zeros (0 or 1), then uniformly random
    /// non-zero ones.
    pub(super) fn random<R: CryptoRng + ?Sized>(
        threshold: usize,
        first: usize,
        rng: &mut R,
    ) -> Self {
        let random = G::random_scalars(threshold - first, rng);
        let coefficients = (0..first)
            .map(|_| G::scalar_from_u64(0))
            .chain(random.iter().cloned())
            .collect();
        SecretPolynomial {
            coefficients,
            first,
        }
    }

    /// `t` coefficients: `constant` (a resharing dealer's old share), then
    /// uniformly random non-zero ones; every coefficient is committed to.
    pub(super) fn with_constant<R: CryptoRng + ?Sized>(
        constant: &G::Scalar,
        threshold: usize,
        rng: &mut R,
    ) -> Self {
        let random = G::random_scalars(threshold - 1, rng);
        let coefficients = core::iter::once(constant.clone())
            .chain(random.iter().cloned())
            .collect();
        SecretPolynomial {
            coefficients,
            first: 0,
        }
    }

    /// `f(id)`, constant time in the coefficients.
    pub(super) fn at(&self, id: PartyId) -> G::Scalar {
        evaluate::<G>(&self.coefficients, u64::from(id))
    }

    /// Feldman commitments `c_k·B`, `k = first..t−1` (constant time in the
    /// `c_k`; the results are published).
    pub(super) fn feldman(&self) -> Vec<G::Element> {
        let commitments: Vec<G::Element> = self.coefficients[self.first..]
            .iter()
            .map(G::mul_base)
            .collect();
        G::declassify_elements(&commitments);
        commitments
    }

    /// Pedersen commitments `c_k·B + d_k·H`, `k = first..t−1`, with
    /// `blinding`'s coefficients `d_k` (constant time in both; the results
    /// are published).
    pub(super) fn pedersen(&self, blinding: &Self, h: &G::Element) -> Vec<G::Element> {
        let commitments: Vec<G::Element> = self.coefficients[self.first..]
            .iter()
            .zip(&blinding.coefficients[self.first..])
            .map(|(c, d)| G::add(&G::mul_base(c), &G::mul(h, d)))
            .collect();
        G::declassify_elements(&commitments);
        commitments
    }
}

/// `x^first, …, x^{first+count−1}` for the public `x = id`.
pub(super) fn powers<G: PrimeOrderGroup>(
    id: PartyId,
    first: usize,
    count: usize,
) -> Vec<G::Scalar> {
    let x = G::scalar_from_u64(u64::from(id));
    let mut powers = Vec::with_capacity(count);
    let mut power = G::scalar_from_u64(1);
    for _ in 0..first {
        power = G::scalar_mul(&power, &x);
    }
    for _ in 0..count {
        powers.push(power.clone());
        power = G::scalar_mul(&power, &x);
    }
    powers
}

/// The coefficients of the polynomial of degree below `points.len()`
/// through the public points `(x_j, y_j)` (distinct non-zero `x_j`):
/// `f(X) = Σ_j y_j·Π_{l≠j} (X − x_l)/(x_j − x_l)`. Public data only (the
/// revealed shares of an exposed dealer): plain arithmetic.
pub(super) fn interpolate<G: PrimeOrderGroup>(points: &[(PartyId, G::Scalar)]) -> Vec<G::Scalar> {
    let zero = G::scalar_from_u64(0);
    let x = |id: PartyId| G::scalar_from_u64(u64::from(id));
    let mut result = vec![zero.clone(); points.len()];
    for (j, (xj, yj)) in points.iter().enumerate() {
        // basis = Π_{l≠j} (X − x_l), built one factor at a time, lowest
        // coefficient first; denominator = Π_{l≠j} (x_j − x_l).
        let mut basis = vec![G::scalar_from_u64(1)];
        let mut denominator = G::scalar_from_u64(1);
        for (l, (xl, _)) in points.iter().enumerate() {
            if l == j {
                continue;
            }
            let mut next = vec![zero.clone(); basis.len() + 1];
            for (k, coefficient) in basis.iter().enumerate() {
                next[k + 1] = G::scalar_add(&next[k + 1], coefficient);
                next[k] = G::scalar_sub(&next[k], &G::scalar_mul(coefficient, &x(*xl)));
            }
            basis = next;
            denominator = G::scalar_mul(&denominator, &G::scalar_sub(&x(*xj), &x(*xl)));
        }
        let weight = G::scalar_mul(yj, &G::scalar_invert(&denominator));
        for (k, coefficient) in basis.iter().enumerate() {
            result[k] = G::scalar_add(&result[k], &G::scalar_mul(&weight, coefficient));
        }
    }
    result
}
