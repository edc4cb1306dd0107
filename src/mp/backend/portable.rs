//! One value at a time on 64-bit limbs: the word-serial Montgomery
//! arithmetic of `limbs::montgomery`, over a row kernel. With the plain
//! loop ([`WordLoop`]) it is the portable backend, for any CPU and the
//! reference the SIMD backends are tested against; with the assembly row
//! of `mulx` it is the MULX/ADX backend.

use core::marker::PhantomData;

use zeroize::Zeroizing;

use super::LaneArith;
use crate::mp::context::MontContext;
use crate::mp::fixed_window;
use crate::mp::limbs::montgomery::{mont_mul, mont_mul_by_rows, mont_sqr, MulAddRow, WordLoop};
use crate::mp::limits::MAX_LIMBS;

/// [`LaneArith`] for one value at a time on 64-bit limbs, spending its
/// time in the row kernel `R`: element = `n` limbs in the Montgomery
/// domain of `R = 2^(64n)`, always fully reduced.
pub(crate) struct WordSerialArith<'a, R> {
    ctx: &'a MontContext,
    /// The double-length scratch of each product and square (wiped by
    /// them after each use, and on drop).
    wide: Zeroizing<Vec<u64>>,
    row: PhantomData<R>,
}

/// The portable backend: [`WordSerialArith`] on the plain loop.
pub(crate) type PortableArith<'a> = WordSerialArith<'a, WordLoop>;

impl<'a, R: MulAddRow> LaneArith<'a> for WordSerialArith<'a, R> {
    const LANES: usize = 1;

    fn new(contexts: &[&'a MontContext]) -> Self {
        assert!(
            R::runs_here(),
            "the schedule builds only backends this CPU runs"
        );
        WordSerialArith {
            ctx: contexts[0],
            wide: Zeroizing::new(vec![0; 2 * contexts[0].limbs()]),
            row: PhantomData,
        }
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
        let ctx = self.ctx;
        mont_mul_by_rows::<R>(out, a, b, ctx.modulus(), ctx.m_inv_neg(), &mut self.wide);
    }

    fn sqr(&mut self, out: &mut [u64], a: &[u64]) {
        let ctx = self.ctx;
        mont_sqr::<R>(out, a, ctx.modulus(), ctx.m_inv_neg(), &mut self.wide);
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
