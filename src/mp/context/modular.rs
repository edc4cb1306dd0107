//! Single modular operations on a context's residues (64-bit limbs, `< m`),
//! for the groups built on `mp` (FFDHE elements mod p, their scalars mod q).
//! All constant time: scalars here are keys and blinds.

use subtle::{Choice, ConditionallySelectable};
use zeroize::Zeroizing;

use super::MontContext;
use crate::mp::limbs::convert::be_bytes_to_limbs;
use crate::mp::limbs::masks;
use crate::mp::limbs::montgomery::{mont_mul, mont_mul_by_rows, redc, WordKernel, WordLoop};
use crate::mp::limits::MAX_LIMBS;

impl MontContext {
    /// `a·b mod m` for `a, b < m`: one Montgomery product, then a second by
    /// `R^2` to cancel the `R^{-1}`.
    pub(crate) fn mul_mod(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let (m, k) = (self.modulus(), self.m_inv_neg());
        let mut t = Zeroizing::new(vec![0u64; m.len()]);
        let mut out = vec![0u64; m.len()];
        mont_mul(&mut t, a, b, m, k);
        mont_mul(&mut out, &t, self.r2_mod_m(), m, k);
        out
    }

    /// `a + b mod m` for `a, b < m`.
    pub(crate) fn add_mod(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; self.limbs()];
        masks::add_mod(&mut out, a, b, self.modulus());
        out
    }

    /// `a - b mod m` for `a, b < m`: subtract, then add `m` back under a mask
    /// when the subtraction borrowed.
    pub(crate) fn sub_mod(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let n = self.limbs();
        let mut diff = vec![0u64; n];
        let borrow = masks::sub_with_borrow(&mut diff, a, b);
        let mut masked = [0u64; MAX_LIMBS];
        let mask = 0u64.wrapping_sub(borrow);
        for (x, &mi) in masked[..n].iter_mut().zip(self.modulus()) {
            *x = mi & mask;
        }
        let mut out = vec![0u64; n];
        masks::add_with_carry(&mut out, &diff, &masked[..n]);
        out
    }

    /// A big-endian integer of any length, reduced mod `m`.
    pub(crate) fn reduce(&self, bytes: &[u8]) -> Vec<u64> {
        let mut out = vec![0u64; self.limbs()];
        self.reduce_into(bytes, &mut out);
        out
    }

    /// Reduces a secret big-endian integer of any (public) length modulo `m`, in
    /// constant time: Horner's rule over `n`-limb chunks in the Montgomery domain
    /// (each step multiplies the running value by `R` and adds the next chunk).
    /// A value of at most `n` limbs (the usual base of an exponentiation)
    /// is below `R <= m·R` and takes [`MontContext::reduce_below_m_r`]'s
    /// route instead: one reduction and one product, not three products
    /// (the length is public).
    ///
    /// Of those, a value at most a few bits longer than `m` (a base as
    /// long as the modulus, an RSA result checked modulo `n`) takes
    /// [`MontContext::reduce_by_subtraction`]'s route: a few conditional
    /// subtractions, no product at all.
    pub(crate) fn reduce_into(&self, bytes: &[u8], out: &mut [u64]) {
        if bytes.len() <= 8 * self.limbs() {
            let excess_bits = (8 * bytes.len()).saturating_sub(self.modulus_bits());
            // A subtraction costs about 3n word operations, the products
            // of `reduce_below_m_r` about 1.5n^2: subtracting is cheaper
            // while there are fewer than n/2 steps.
            if excess_bits < self.limbs().div_ceil(2) {
                self.reduce_by_subtraction(bytes, excess_bits, out);
            } else {
                self.reduce_below_m_r::<WordLoop>(bytes, out);
            }
            return;
        }
        let (m, k, r2) = (self.modulus(), self.m_inv_neg(), self.r2_mod_m());
        let n = m.len();
        let mut acc = Zeroizing::new(vec![0u64; n]); // Montgomery form of the value so far
        let mut scaled = Zeroizing::new(vec![0u64; n]);
        let mut chunk = Zeroizing::new(vec![0u64; n]);
        let mut chunk_mont = Zeroizing::new(vec![0u64; n]);
        // Most significant chunk first (it is the short one when the length is
        // not a multiple of the chunk size).
        for chunk_bytes in bytes.rchunks(8 * n).rev() {
            mont_mul(&mut scaled, &acc, r2, m, k); // value · R
            be_bytes_to_limbs(chunk_bytes, &mut chunk);
            mont_mul(&mut chunk_mont, &chunk, r2, m, k); // chunk < R and r2 < m: product < m·R
            masks::add_mod(&mut acc, &scaled, &chunk_mont, m);
        }
        let mut one = [0u64; MAX_LIMBS];
        one[0] = 1;
        mont_mul(out, &acc, &one[..n], m, k);
    }

    /// Reduces a big-endian integer `x` that fits `m`'s limbs and has at
    /// most `excess_bits` (public) more bits than `m`, in constant time.
    /// As `m >= 2^(bits-1)`, `x < m·2^(excess_bits+1)`: subtracting
    /// `m·2^j` when it is not above `x`, for `j = excess_bits` down to 0,
    /// leaves `x mod m`. Each step subtracts, then keeps the difference or
    /// `x` by the borrow's mask; the number of steps is public.
    fn reduce_by_subtraction(&self, bytes: &[u8], excess_bits: usize, out: &mut [u64]) {
        let n = self.limbs();
        let mut value = Zeroizing::new(vec![0u64; n]);
        be_bytes_to_limbs(bytes, &mut value);
        let mut difference = Zeroizing::new(vec![0u64; n]);
        let mut shifted_m = vec![0u64; n];
        for shift in (0..=excess_bits).rev() {
            // m·2^shift has at most 8·bytes.len() bits: it fits n limbs.
            let mut carried = 0u64;
            for (s, &limb) in shifted_m.iter_mut().zip(self.modulus()) {
                *s = (limb << shift) | carried;
                carried = if shift == 0 { 0 } else { limb >> (64 - shift) };
            }
            let borrow = masks::sub_with_borrow(&mut difference, &value, &shifted_m);
            let keep_value = Choice::from((borrow & 1) as u8);
            for (v, &d) in value.iter_mut().zip(difference.iter()) {
                *v = u64::conditional_select(&d, v, keep_value);
            }
        }
        out.copy_from_slice(&value);
    }

    /// Reduces a big-endian integer below `m·R` (at most twice the
    /// modulus' limbs: an RSA ciphertext, below `p·q`, modulo `p`), in
    /// constant time: one Montgomery reduction gives `x·R^{-1}`, one
    /// product by `R^2` cancels it. A third of the products of
    /// [`MontContext::reduce_into`]'s chunked Horner rule on such a value.
    /// The caller guarantees `x < m·R` (the length alone does not), and
    /// chooses the word kernel: the RSA batches take the fastest the CPU
    /// runs, which the context, knowing no backend, cannot name.
    pub(crate) fn reduce_below_m_r<K: WordKernel>(&self, bytes: &[u8], out: &mut [u64]) {
        let (m, k) = (self.modulus(), self.m_inv_neg());
        let n = m.len();
        let mut wide = Zeroizing::new(vec![0u64; 2 * n]);
        be_bytes_to_limbs(bytes, &mut wide);
        let mut scaled_down = Zeroizing::new(vec![0u64; n]);
        redc::<K>(&mut scaled_down, &mut wide, m, k);
        // `wide` is scratch again: the product's two passes run in it.
        mont_mul_by_rows::<K>(out, &scaled_down, self.r2_mod_m(), m, k, &mut wide);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_operations() {
        let m = 1_000_003u64;
        let ctx = MontContext::new(&m.to_be_bytes()).unwrap();
        assert_eq!(
            ctx.mul_mod(&[999_999], &[123_456]),
            vec![999_999 * 123_456 % m]
        );
        assert_eq!(ctx.add_mod(&[999_999], &[10]), vec![6]);
        assert_eq!(ctx.sub_mod(&[3], &[10]), vec![m - 7]);
        assert_eq!(ctx.sub_mod(&[10], &[3]), vec![7]);
        assert_eq!(
            ctx.reduce(&[0x01, 0, 0, 0, 0, 0, 0, 0, 0]),
            vec![((1u128 << 64) % u128::from(m)) as u64]
        );
    }

    #[test]
    fn reduce_by_subtraction_agrees_with_the_products() {
        // Moduli of 1 to 3 limbs with 0 to 63 leading zero bits, values of
        // every length up to the limbs: each route's answer must agree.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for limbs in 1..=3usize {
            for leading_zeros in [0u32, 1, 7, 9, 63] {
                let mut m: Vec<u8> = (0..8 * limbs).map(|_| next() as u8).collect();
                m[0] = 0x80 >> (leading_zeros % 8);
                let top_bytes = leading_zeros as usize / 8;
                m.drain(..top_bytes);
                *m.last_mut().unwrap() |= 1;
                let ctx = MontContext::new(&m).unwrap();
                for len in 1..=8 * limbs {
                    let x: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                    let (mut fast, mut slow) = (vec![0u64; limbs], vec![0u64; limbs]);
                    ctx.reduce_into(&x, &mut fast);
                    ctx.reduce_below_m_r::<WordLoop>(&x, &mut slow);
                    assert_eq!(
                        fast, slow,
                        "{limbs} limbs, {leading_zeros} zeros, {len} bytes"
                    );
                }
                // The largest value of the longest length, all ones.
                let ones = vec![0xffu8; 8 * limbs];
                let (mut fast, mut slow) = (vec![0u64; limbs], vec![0u64; limbs]);
                ctx.reduce_into(&ones, &mut fast);
                ctx.reduce_below_m_r::<WordLoop>(&ones, &mut slow);
                assert_eq!(fast, slow);
            }
        }
    }

    #[test]
    fn reduce_long_input() {
        let m: u128 = (1 << 100) + 277; // odd, two limbs
        let ctx = MontContext::new(&m.to_be_bytes()).unwrap();
        // 2^200 + 2^130 + 5, as bytes, reduced mod m (computed by hand with u128 steps)
        let mut bytes = vec![0u8; 26];
        bytes[0] = 1; // 2^200
        bytes[25 - 16] |= 4; // 2^130
        bytes[25] = 5;
        let mut out = [0u64; 2];
        ctx.reduce_into(&bytes, &mut out);
        let pow = |e: u32| -> u128 {
            let mut r: u128 = 1;
            for _ in 0..e {
                r = (r * 2) % m;
            }
            r
        };
        let expected = (pow(200) + pow(130) + 5) % m;
        assert_eq!(u128::from(out[0]) | (u128::from(out[1]) << 64), expected);
        // The same value is below m·R = m·2^128: the short path agrees, and
        // so it does on m·R − 1, the largest value it takes.
        let mut short = [0u64; 2];
        ctx.reduce_below_m_r::<WordLoop>(&bytes, &mut short);
        assert_eq!(short, out);
        let mut largest = (m - 1).to_be_bytes().to_vec(); // (m − 1)·R, with
        largest.extend_from_slice(&[0xff; 16]); // R − 1 added: m·R − 1
        ctx.reduce_below_m_r::<WordLoop>(&largest, &mut short);
        ctx.reduce_into(&largest, &mut out);
        assert_eq!(short, out);
    }
}
