//! The portable backend: the word-serial Montgomery arithmetic of
//! `limbs::montgomery` on one value at a time, for any CPU. It is the
//! reference the SIMD backend is tested against.

use super::LaneArith;
use crate::mp::context::MontContext;
use crate::mp::fixed_window;
use crate::mp::limbs::montgomery::{mont_mul, mont_sqr};
use crate::mp::limits::MAX_LIMBS;

/// [`LaneArith`] for one value at a time on 64-bit limbs: element = `n`
/// limbs in the Montgomery domain of `R = 2^(64n)`, always fully reduced.
pub(crate) struct PortableArith<'a> {
    ctx: &'a MontContext,
}

impl<'a> LaneArith<'a> for PortableArith<'a> {
    const LANES: usize = 1;

    fn new(contexts: &[&'a MontContext]) -> Self {
        PortableArith { ctx: contexts[0] }
    }

    fn words(&self) -> usize {
        self.ctx.limbs()
    }

    fn enter_mont(&mut self, residues: &[&[u64]], out: &mut [u64]) {
        let ctx = self.ctx;
        mont_mul(
            out,
            residues[0],
            ctx.r2_mod_m(),
            ctx.modulus(),
            ctx.m_inv_neg(),
        );
    }

    fn leave_mont(&mut self, elem: &[u64], residues: &mut [&mut [u64]]) {
        let mut one = [0u64; MAX_LIMBS];
        one[0] = 1;
        let ctx = self.ctx;
        mont_mul(
            residues[0],
            elem,
            &one[..ctx.limbs()],
            ctx.modulus(),
            ctx.m_inv_neg(),
        );
    }

    fn one(&self, out: &mut [u64]) {
        out.copy_from_slice(self.ctx.r_mod_m());
    }

    fn mul(&mut self, out: &mut [u64], a: &[u64], b: &[u64]) {
        mont_mul(out, a, b, self.ctx.modulus(), self.ctx.m_inv_neg());
    }

    fn sqr(&mut self, out: &mut [u64], a: &[u64]) {
        mont_sqr(out, a, self.ctx.modulus(), self.ctx.m_inv_neg());
    }

    fn exp(
        &mut self,
        residues: &[&[u64]],
        exponents: &[&[u64]],
        exponent_bits: usize,
        results: &mut [&mut [u64]],
    ) {
        fixed_window::mod_exp(self, residues, exponents, exponent_bits, results);
    }
}
