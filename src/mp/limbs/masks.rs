//! Mask arithmetic on limbs: the constant-time choices of `mp` (not to be
//! confused with `crate::secret_marks`, which marks values for the
//! valgrind check). Every choice here is made with masks,
//! never with a branch or an index that depends on the value; the masks pass
//! through an optimisation barrier (`subtle::Choice`, or `black_box` for
//! whole mask vectors) so the compiler cannot turn them back into branches.

use subtle::{Choice, ConditionallySelectable};
use zeroize::Zeroize;

use crate::mp::limits::{MAX_LANES, MAX_LIMBS};

/// All-ones when `a == b`, zero otherwise, by arithmetic only: `d | -d` has
/// its top bit set exactly when `d != 0`. Branch-free and vectorizable; the
/// caller puts its masks through [`core::hint::black_box`] before use.
#[inline(always)]
pub(crate) fn mask_eq_arith(a: u64, b: u64) -> u64 {
    let d = a ^ b;
    ((d | d.wrapping_neg()) >> 63).wrapping_sub(1)
}

/// `out = a - b` over equal-length limb slices; returns the final borrow (0 or 1).
#[inline(always)]
pub(crate) fn sub_with_borrow(out: &mut [u64], a: &[u64], b: &[u64]) -> u64 {
    let mut borrow = 0u64;
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        let (d1, b1) = x.overflowing_sub(y);
        let (d2, b2) = d1.overflowing_sub(borrow);
        *o = d2;
        borrow = u64::from(b1 | b2);
    }
    borrow
}

/// `out = a + b` over equal-length limb slices; returns the final carry (0 or 1).
#[inline(always)]
pub(crate) fn add_with_carry(out: &mut [u64], a: &[u64], b: &[u64]) -> u64 {
    let mut carry = 0u64;
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        let (s1, c1) = x.overflowing_add(y);
        let (s2, c2) = s1.overflowing_add(carry);
        *o = s2;
        carry = u64::from(c1 | c2);
    }
    carry
}

/// Reduces `t = t_top·2^(64n) + t_low`, known to be below `2m`, into
/// `[0, m)`: subtracts `m` exactly when `t >= m`, without branching on it.
/// `t_top` must be 0 or 1.
#[inline(always)]
pub(crate) fn reduce_below_2m(out: &mut [u64], t_low: &[u64], t_top: u64, m: &[u64]) {
    debug_assert!(t_top <= 1, "t must be below 2m < 2^(64n+1)");
    debug_assert!(out.len() == m.len() && t_low.len() == m.len());
    // `t − m` goes straight into `out` (no scratch to clear: it is as
    // secret as `t`, and `out` receives one or the other).
    let borrow = sub_with_borrow(out, t_low, m);
    // t < m  <=>  the subtraction borrowed out of the low limbs and t_top is 0.
    let keep_t = Choice::from((borrow & !t_top & 1) as u8);
    for (o, &t) in out.iter_mut().zip(t_low) {
        o.conditional_assign(&t, keep_t);
    }
}

/// `out = (a + b) mod m` for `a, b < m`, in constant time.
pub(crate) fn add_mod(out: &mut [u64], a: &[u64], b: &[u64], m: &[u64]) {
    let n = m.len();
    let mut sum = [0u64; MAX_LIMBS];
    let carry = add_with_carry(&mut sum[..n], a, b);
    reduce_below_2m(out, &sum[..n], carry, m);
    sum[..n].zeroize();
}

/// `out |= entry & masks[lane]`, word `k` in lane `k % LANES`: the inner
/// step of the constant-time table select (the default of the backends'
/// `LaneArith::select`).
#[inline(always)]
pub(crate) fn accumulate_masked_words(
    lanes: usize,
    out: &mut [u64],
    entry: &[u64],
    masks: &[u64; MAX_LANES],
) {
    if lanes == 1 {
        // One mask for the whole entry: a plain loop the compiler
        // vectorizes (the general one below does not, and at one lane the
        // select then costs a quarter of a 1024-bit exponentiation).
        let mask = masks[0];
        for (o, &e) in out.iter_mut().zip(entry) {
            *o |= e & mask;
        }
        return;
    }
    for (out_lanes, entry_lanes) in out.chunks_exact_mut(lanes).zip(entry.chunks_exact(lanes)) {
        for ((o, &e), &mask) in out_lanes.iter_mut().zip(entry_lanes).zip(masks) {
            *o |= e & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(mask_eq_arith(5, 5), u64::MAX);
        assert_eq!(mask_eq_arith(5, 6), 0);
        assert_eq!(mask_eq_arith(0, 1 << 63), 0);
        assert_eq!(mask_eq_arith(u64::MAX, u64::MAX), u64::MAX);
    }

    #[test]
    fn reduce_below_2m_both_sides() {
        let m = [7u64, 1];
        let mut out = [0u64; 2];
        reduce_below_2m(&mut out, &[6, 1], 0, &m); // t = m - 1
        assert_eq!(out, [6, 1]);
        reduce_below_2m(&mut out, &[7, 1], 0, &m); // t = m
        assert_eq!(out, [0, 0]);
        let m = [u64::MAX, u64::MAX >> 1]; // 2^127 - 1
        reduce_below_2m(&mut out, &[u64::MAX - 2, u64::MAX], 0, &m); // t = 2m - 1
        assert_eq!(out, [u64::MAX - 1, u64::MAX >> 1]); // t - m = m - 1
        let m = [1u64, 1u64 << 63]; // 2^127 + 1, so 2m spills into t_top
        reduce_below_2m(&mut out, &[1, 0], 1, &m); // t = 2^128 + 1
        assert_eq!(out, [0, 1u64 << 63]); // t - m = 2^127
    }

    #[test]
    fn add_mod_wraps() {
        let m = [u64::MAX];
        let mut out = [0u64];
        add_mod(&mut out, &[u64::MAX - 1], &[3], &m);
        assert_eq!(out, [2]);
    }

    #[test]
    fn masked_accumulate_per_lane() {
        // 2 lanes × 2 words; lane 0 keeps its value, lane 1 is masked out.
        let mut masks = [0u64; MAX_LANES];
        masks[0] = u64::MAX;
        let mut out = [1u64, 2, 4, 8];
        accumulate_masked_words(2, &mut out, &[16, 32, 64, 128], &masks);
        assert_eq!(out, [17, 2, 68, 8]);
    }
}
