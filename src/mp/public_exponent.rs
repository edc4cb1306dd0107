//! Exponentiation by *public* exponents, written once for every backend:
//! the check of an RSA private result (`r^e mod n`, `e` = 65537 most often)
//! and any other power whose exponent an attacker may know.
//!
//! Left-to-right square-and-multiply over the exponent's bits: 65537 costs
//! 16 squarings and one product, where the fixed window (`fixed_window`,
//! for secret exponents) builds a table and multiplies at every window.
//!
//! Variable time in the exponents, which is why it is only reached through
//! the `*_vartime` entry points; constant time in the bases: which product
//! runs, and how many, depends on the exponents' bits alone, and lanes
//! whose bits differ take their result through the backend's constant-time
//! select.

use super::backend::LaneArith;
use super::limbs::aligned::AlignedWords;
use super::limbs::convert::bit_length_vartime;
use super::limits::MAX_LANES;

/// Bit `position` of each lane's exponent (0 past its end).
fn lane_bits(exponents: &[&[u64]], position: usize, bits: &mut [u64]) {
    for (bit, exponent) in bits.iter_mut().zip(exponents) {
        let limb = exponent.get(position / 64).copied().unwrap_or(0);
        *bit = (limb >> (position % 64)) & 1;
    }
}

/// `results[j] = residues[j] ^ exponents[j] mod m_j` for every lane `j`,
/// the exponents public (little-endian limbs, any length; exponent 0
/// gives 1 mod m_j), the residues `< m_j`.
pub(crate) fn mod_exp_vartime<'a, A: LaneArith<'a>>(
    arith: &mut A,
    residues: &[&[u64]],
    exponents: &[&[u64]],
    results: &mut [&mut [u64]],
) {
    let lanes = A::LANES;
    assert!(residues.len() == lanes && exponents.len() == lanes && results.len() == lanes);
    let words = arith.words();
    let top = exponents
        .iter()
        .map(|exponent| bit_length_vartime(exponent))
        .max()
        .unwrap_or(0);

    // [1 | base]: the two values a lane's top bit may start from, and the
    // table the constant-time select reads when the lanes' bits differ.
    let mut one_and_base = AlignedWords::zeroed(2 * words);
    arith.one(&mut one_and_base[..words]);
    arith.enter_mont(residues, &mut one_and_base[words..]);
    let mut acc = AlignedWords::zeroed(words);
    let mut tmp = AlignedWords::zeroed(words);
    let mut choice = AlignedWords::zeroed(2 * words); // [acc | acc·base]
                                                      // The exponents' bits and the select's masks made from them are
                                                      // public: nothing here needs wiping.
    let mut bits = [0u64; MAX_LANES];
    let mut masks = [[0u64; MAX_LANES]; 2];

    let Some(start) = top.checked_sub(1) else {
        acc.copy_from_slice(&one_and_base[..words]);
        arith.leave_mont(&acc, results);
        return;
    };
    lane_bits(exponents, start, &mut bits[..lanes]);
    A::select(&mut acc, &one_and_base, &bits[..lanes], &mut masks);
    for position in (0..start).rev() {
        arith.sqr(&mut tmp, &acc);
        core::mem::swap(&mut acc, &mut tmp);
        lane_bits(exponents, position, &mut bits[..lanes]);
        let set = bits[..lanes].iter().filter(|&&bit| bit == 1).count();
        if set == lanes {
            arith.mul(&mut tmp, &acc, &one_and_base[words..]);
            core::mem::swap(&mut acc, &mut tmp);
        } else if set > 0 {
            // Some lanes multiply, some do not: every lane computes the
            // product and keeps it or not by the select.
            let (kept, product) = choice.split_at_mut(words);
            kept.copy_from_slice(&acc);
            arith.mul(product, &acc, &one_and_base[words..]);
            A::select(&mut acc, &choice, &bits[..lanes], &mut masks);
        }
    }
    arith.leave_mont(&acc, results);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mp::backend::portable::PortableArith;
    use crate::mp::context::MontContext;

    /// `base^exponent mod m` by repeated multiplication in u128.
    fn naive(base: u64, exponent: u64, m: u64) -> u64 {
        (0..exponent).fold(1u128 % u128::from(m), |acc, _| {
            acc * u128::from(base) % u128::from(m)
        }) as u64
    }

    #[test]
    fn agrees_with_repeated_multiplication() {
        let m = 1_000_003u64;
        let ctx = MontContext::new(&m.to_be_bytes()).unwrap();
        for exponent in [0u64, 1, 2, 3, 17, 255, 256, 65537, 100_000] {
            for base in [0u64, 1, 2, 999_999, 123_456] {
                let mut arith = PortableArith::new(&[&ctx]);
                let mut result = [0u64; 1];
                mod_exp_vartime(&mut arith, &[&[base]], &[&[exponent]], &mut [&mut result]);
                assert_eq!(result[0], naive(base, exponent, m), "{base}^{exponent}");
            }
        }
    }
}
