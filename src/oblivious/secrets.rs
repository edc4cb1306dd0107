//! The client's secret coins for one batch: verification factors
//! `d_i ∈ [1, 2^κ]` and the balancer's position, sampled uniformly, and the
//! constant-time placement of the balancer among the elements sent.

use rand_core::CryptoRng;
use subtle::{ConditionallySelectable, ConstantTimeEq, ConstantTimeLess};
use zeroize::Zeroize;

use super::Kappa;
use crate::group::ShortScalar;

/// A uniform factor in `[1, 2^κ]`: `1 + r` for `r` uniform in `[0, 2^κ)`
/// (for κ = 128 the top value `2^128` is represented with the extra bit).
pub(crate) fn sample_factor<R: CryptoRng + ?Sized>(kappa: Kappa, rng: &mut R) -> ShortScalar {
    let mut bytes = [0u8; 16];
    rng.fill_bytes(&mut bytes);
    let mut r = u128::from_le_bytes(bytes);
    bytes.zeroize();
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
        if crate::ct::public_bool(candidate < bound) {
            return candidate as usize;
        }
    }
}

/// Writes `others` (`len`-byte encodings, in order) with `balancer`
/// inserted at slot `position` into `out` (`others.len() + len` bytes).
/// Constant time in `position`: every slot reads its three candidates and
/// keeps one by masks.
pub(crate) fn place_balancer(
    others: &[u8],
    balancer: &[u8],
    position: usize,
    len: usize,
    out: &mut [u8],
) {
    let count = others.len() / len;
    let position = position as u64;
    for (slot, chunk) in out.chunks_exact_mut(len).enumerate() {
        let slot_index = slot as u64;
        let is_balancer = slot_index.ct_eq(&position);
        let after = position.ct_lt(&slot_index);
        // Candidates: the element with the same index (before the
        // balancer), the one before it (after the balancer), the balancer.
        let same = others.get(slot * len..(slot + 1) * len);
        let previous = slot.checked_sub(1).map(|p| &others[p * len..(p + 1) * len]);
        for (i, byte) in chunk.iter_mut().enumerate() {
            let before_value = same.map_or(0, |s| s[i]);
            let after_value = previous.map_or(0, |s| s[i]);
            let mut value = u8::conditional_select(&before_value, &after_value, after);
            value = u8::conditional_select(&value, &balancer[i], is_balancer);
            *byte = value;
        }
        debug_assert!(slot <= count);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let others = [1u8, 1, 2, 2, 3, 3];
        for position in 0..=3 {
            let mut out = [0u8; 8];
            place_balancer(&others, &[9, 9], position, 2, &mut out);
            let mut expected = vec![[1u8, 1], [2, 2], [3, 3]];
            expected.insert(position, [9, 9]);
            assert_eq!(out.to_vec(), expected.concat());
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
