//! The client's secret coins for one batch: verification factors
//! `d_i ∈ [1, 2^κ]` and the balancer's position, sampled uniformly, and the
//! constant-time placement of the balancer among the elements sent.

use rand_core::CryptoRng;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, ConstantTimeLess};
use zeroize::{Zeroize, Zeroizing};

use super::Kappa;
use crate::group::{PrimeOrderGroup, ShortScalar};
use crate::message::BlindedElements;

/// A uniform factor in `[1, 2^κ]`: `1 + r` for `r` uniform in `[0, 2^κ)`
/// (for κ = 128 the top value `2^128` is represented with the extra bit).
pub(crate) fn sample_factor<R: CryptoRng + ?Sized>(kappa: Kappa, rng: &mut R) -> ShortScalar {
    let mut bytes = [0u8; FACTOR_BYTES];
    rng.fill_bytes(&mut bytes);
    let factor = factor_from_bytes(kappa, &bytes);
    bytes.zeroize();
    factor
}

/// `count` factors as [`sample_factor`] draws them one after the other
/// (the same factors from the same random bytes), all bytes in one call
/// (one system call from the OS generator, not one per factor).
pub(crate) fn sample_factors<R: CryptoRng + ?Sized>(
    kappa: Kappa,
    count: usize,
    rng: &mut R,
) -> Vec<ShortScalar> {
    let mut bytes = Zeroizing::new(vec![0u8; FACTOR_BYTES * count]);
    rng.fill_bytes(&mut bytes);
    bytes
        .chunks_exact(FACTOR_BYTES)
        .map(|chunk| factor_from_bytes(kappa, chunk.try_into().expect("16 bytes")))
        .collect()
}

/// Random bytes per factor.
const FACTOR_BYTES: usize = 16;

/// The factor of 16 uniform bytes: `1 + r` for `r` their low κ bits.
fn factor_from_bytes(kappa: Kappa, bytes: &[u8; FACTOR_BYTES]) -> ShortScalar {
    let mut r = u128::from_le_bytes(*bytes);
    let bits = kappa.bits();
    if bits < 128 {
        r &= (1u128 << bits) - 1;
    }
    let (mut value, overflow) = r.overflowing_add(1);
    r.zeroize();
    let factor = ShortScalar::from_parts(value, overflow);
    value.zeroize();
    factor
}

/// A uniform integer in `[0, bound)` (`bound >= 1`) by rejection sampling
/// from the smallest power of two at least `bound`: the number of retries
/// says nothing about the accepted value, and no division touches it (a
/// 64-bit division's time may depend on its operands).
pub(crate) fn sample_below<R: CryptoRng + ?Sized>(bound: usize, rng: &mut R) -> usize {
    let bound = bound as u64;
    let mask = bound.next_power_of_two() - 1;
    loop {
        let candidate = rng.next_u64() & mask;
        // The decision reveals only whether a discarded value was too big.
        if crate::secret_marks::public_bool(candidate < bound) {
            return candidate as usize;
        }
    }
}

/// The elements sent: `others_bytes` (encodings; with `others`, their
/// elements, where decoded) with `balancer` inserted at slot `position`.
/// Constant time in `position`: every slot reads its three candidates (the
/// element with its index, the one before it, the balancer) and keeps one
/// by masks, for the encodings and the elements alike.
pub(crate) fn place_balancer<G: PrimeOrderGroup>(
    others: Option<&[G::Element]>,
    others_bytes: &[u8],
    balancer: &G::Element,
    position: usize,
) -> BlindedElements<G> {
    let len = G::ELEMENT_LEN;
    let mut balancer_bytes = vec![0u8; len];
    G::encode(balancer, &mut balancer_bytes);
    let position = position as u64;
    let mut bytes = vec![0u8; others_bytes.len() + len];
    for (slot, chunk) in bytes.chunks_exact_mut(len).enumerate() {
        let (is_balancer, after) = slot_choices(slot, position);
        let same = others_bytes.get(slot * len..(slot + 1) * len);
        let previous = slot
            .checked_sub(1)
            .map(|p| &others_bytes[p * len..(p + 1) * len]);
        for (i, byte) in chunk.iter_mut().enumerate() {
            let before_value = same.map_or(0, |s| s[i]);
            let after_value = previous.map_or(0, |s| s[i]);
            let value = u8::conditional_select(&before_value, &after_value, after);
            *byte = u8::conditional_select(&value, &balancer_bytes[i], is_balancer);
        }
    }
    let Some(others) = others else {
        return BlindedElements::from_encodings(bytes);
    };
    let elements = (0..=others.len())
        .map(|slot| {
            let (is_balancer, after) = slot_choices(slot, position);
            // The first slot has no element before it and the last none
            // with its index: the balancer stands in (never kept there).
            let same = others.get(slot).unwrap_or(balancer);
            let previous = slot.checked_sub(1).map_or(balancer, |p| &others[p]);
            let element = G::ct_select(after, previous, same);
            G::ct_select(is_balancer, balancer, &element)
        })
        .collect();
    BlindedElements::from_parts(elements, bytes)
}

/// The factors aligned with the slots sent: `factors` (one per element
/// other than the balancer, in order) with `balancer_factor` at slot
/// `position`. Constant time in `position` and in the factors, as
/// [`place_balancer`]: every slot reads its three candidates and keeps one
/// by masks. For a check that runs while the coins are still secret.
pub(crate) fn place_factor(
    factors: &[ShortScalar],
    balancer_factor: &ShortScalar,
    position: usize,
) -> Vec<ShortScalar> {
    let position = position as u64;
    (0..=factors.len())
        .map(|slot| {
            let (is_balancer, after) = slot_choices(slot, position);
            // As in `place_balancer`: the balancer stands in where a slot
            // has no candidate (never kept there).
            let same = factors.get(slot).unwrap_or(balancer_factor);
            let previous = slot.checked_sub(1).map_or(balancer_factor, |p| &factors[p]);
            let mut bytes = [0u8; 17];
            for (i, byte) in bytes.iter_mut().enumerate() {
                let value = u8::conditional_select(&same.0[i], &previous.0[i], after);
                *byte = u8::conditional_select(&value, &balancer_factor.0[i], is_balancer);
            }
            ShortScalar(bytes)
        })
        .collect()
}

/// For a slot of the request and the balancer's secret `position`:
/// whether the slot is the balancer's, and whether it comes after it
/// (then it holds the element before its index), as masks.
fn slot_choices(slot: usize, position: u64) -> (Choice, Choice) {
    let slot_index = slot as u64;
    (slot_index.ct_eq(&position), position.ct_lt(&slot_index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_drawn_at_once_equal_factors_drawn_one_by_one() {
        use crate::rng::CountingRng;
        for kappa in [Kappa::DEFAULT, Kappa::insecure_for_tests(128)] {
            let at_once = sample_factors(kappa, 5, &mut CountingRng(7));
            let mut rng = CountingRng(7);
            for factor in at_once {
                let single = sample_factor(kappa, &mut rng);
                assert_eq!(factor.as_le_bytes(), single.as_le_bytes());
            }
            assert_eq!(rng.0, CountingRng(7).0.wrapping_add(5 * 16));
        }
    }
    use rand_core::UnwrapErr;

    #[test]
    fn factors_stay_in_range() {
        let mut rng = UnwrapErr(getrandom::SysRng);
        for bits in [1, 4, 32, 64, 127, 128] {
            let kappa = Kappa::insecure_for_tests(bits);
            for _ in 0..200 {
                let d = sample_factor(kappa, &mut rng);
                let bytes = d.as_le_bytes();
                let low = u128::from_le_bytes(bytes[..16].try_into().unwrap());
                if bytes[16] == 1 {
                    assert!(bits == 128 && low == 0);
                } else {
                    assert!(low >= 1);
                    assert!(bits == 128 || low <= 1u128 << bits);
                }
            }
        }
    }

    #[test]
    fn small_factors_cover_their_range() {
        let mut rng = UnwrapErr(getrandom::SysRng);
        let mut seen = [false; 17];
        for _ in 0..2000 {
            let d = sample_factor(Kappa::insecure_for_tests(4), &mut rng);
            seen[d.as_le_bytes()[0] as usize] = true;
        }
        assert!(!seen[0] && seen[1..=16].iter().all(|&s| s));
    }

    #[test]
    fn balancer_lands_at_its_slot() {
        use crate::group::Ristretto255;
        type G = Ristretto255;
        let others: Vec<_> = (1..=3)
            .map(|i| G::mul_base(&G::scalar_from_u64(i)))
            .collect();
        let mut others_bytes = vec![0u8; 3 * G::ELEMENT_LEN];
        G::encode_batch(&others, &mut others_bytes);
        let balancer = G::mul_base(&G::scalar_from_u64(9));
        for position in 0..=3 {
            let sent = place_balancer::<G>(Some(&others), &others_bytes, &balancer, position);
            let mut expected = others.clone();
            expected.insert(position, balancer);
            assert_eq!(sent.elements(), expected.as_slice());
            let mut expected_bytes = vec![0u8; 4 * G::ELEMENT_LEN];
            G::encode_batch(&expected, &mut expected_bytes);
            assert_eq!(sent.as_bytes(), expected_bytes.as_slice());
        }
    }

    #[test]
    fn balancer_factor_lands_at_its_slot() {
        let factors: Vec<ShortScalar> = (1..=3).map(ShortScalar::from_u128).collect();
        let balancer = ShortScalar::from_parts(0, true);
        for position in 0..=3 {
            let placed = place_factor(&factors, &balancer, position);
            let mut expected: Vec<[u8; 17]> = factors.iter().map(|f| f.0).collect();
            expected.insert(position, balancer.0);
            let got: Vec<[u8; 17]> = placed.iter().map(|f| f.0).collect();
            assert_eq!(got, expected, "position {position}");
        }
    }

    #[test]
    fn positions_are_uniform_enough() {
        let mut rng = UnwrapErr(getrandom::SysRng);
        let mut counts = [0usize; 5];
        for _ in 0..5000 {
            counts[sample_below(5, &mut rng)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (800..1200).contains(&c)),
            "{counts:?}"
        );
    }
}
