//! One value at a time on 64-bit limbs: the word-serial Montgomery
//! arithmetic of `limbs::montgomery`, over a [`WordKernel`]. With the plain
//! loops ([`WordLoop`]) it is the portable backend, for any CPU and the
//! reference the SIMD backends are tested against; with the assembly
//! kernels of `mulx` it is the MULX/ADX backend.

use core::marker::PhantomData;

use zeroize::Zeroizing;

use super::{LaneArith, MAX_WINDOW_BITS};
use crate::mp::context::MontContext;
use crate::mp::fixed_window;
use crate::mp::limbs::montgomery::{mont_mul, mont_mul_by_rows, mont_sqr, WordKernel, WordLoop};
use crate::mp::limits::MAX_LIMBS;

/// [`LaneArith`] for one value at a time on 64-bit limbs, spending its
/// time in the kernel `K`: element = `n` limbs in the Montgomery
/// domain of `R = 2^(64n)`, always fully reduced.
pub(crate) struct WordSerialArith<'a, K> {
    ctx: &'a MontContext,
    /// The double-length scratch of each product and square (wiped by
    /// them after each use, and on drop).
    wide: Zeroizing<Vec<u64>>,
    kernel: PhantomData<K>,
}

/// The window width for one value of `limbs` limbs: the fewest products,
/// counting the table select, which reads all `2^w` entries once per window
/// (`2^w·limbs` limbs, each about 0.7 of a limb product in instructions:
/// an SSE2 mask-and-merge per two limbs against the kernels' 4.6
/// instructions per product). The shared model ignores the select, which is
/// cheap in a SIMD backend's wide words but not here: at 1024 bits it
/// picked 6 bits where 4 is about 6 % faster.
fn word_serial_window_bits(exponent_bits: usize, limbs: usize) -> usize {
    // In tenths of a limb product.
    let product = 2 * limbs * limbs * 10;
    (1..=MAX_WINDOW_BITS)
        .min_by_key(|&w| {
            let select = (1 << w) * limbs * 7;
            exponent_bits.div_ceil(w) * (product + select) + (1 << w) * product
        })
        .expect("the range is not empty")
}

/// The portable backend: [`WordSerialArith`] on the plain loops.
pub(crate) type PortableArith<'a> = WordSerialArith<'a, WordLoop>;

impl<'a, K: WordKernel> LaneArith<'a> for WordSerialArith<'a, K> {
    const LANES: usize = 1;

    fn new(contexts: &[&'a MontContext]) -> Self {
        assert!(
            K::runs_here(),
            "the schedule builds only backends this CPU runs"
        );
        WordSerialArith {
            ctx: contexts[0],
            wide: Zeroizing::new(vec![0; 2 * contexts[0].limbs()]),
            kernel: PhantomData,
        }
    }

    fn words(&self) -> usize {
        self.ctx.limbs()
    }

    fn window_bits(&self, exponent_bits: usize) -> usize {
        word_serial_window_bits(exponent_bits, self.ctx.limbs())
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
        mont_mul_by_rows::<K>(out, a, b, ctx.modulus(), ctx.m_inv_neg(), &mut self.wide);
    }

    fn sqr(&mut self, out: &mut [u64], a: &[u64]) {
        let ctx = self.ctx;
        mont_sqr::<K>(out, a, ctx.modulus(), ctx.m_inv_neg(), &mut self.wide);
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
