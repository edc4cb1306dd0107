//! Running a validated batch: grouping the values into the backend's lanes
//! (by size class, padding the last group of a class), spreading the groups
//! over the opted-in threads, and collecting the results.

use zeroize::Zeroizing;

use super::backend::Backend;
use super::context::MontContext;
use super::lanes::LaneArith;
use super::limbs::{be_bytes_to_limbs, limbs_for_bytes, limbs_to_be_bytes};
use super::portable::{self, PortableArith};
use super::threads::threads;
use super::MAX_LANES;

/// A validated batch: `count` bases of `base_len` bytes and as many exponents
/// of `exponent_len` bytes, all big-endian.
#[derive(Clone, Copy)]
pub(super) struct Operands<'a> {
    pub(super) bases: &'a [u8],
    pub(super) base_len: usize,
    pub(super) exponents: &'a [u8],
    pub(super) exponent_len: usize,
    pub(super) count: usize,
}

impl<'a> Operands<'a> {
    fn base(&self, i: usize) -> &'a [u8] {
        &self.bases[i * self.base_len..(i + 1) * self.base_len]
    }

    fn exponent(&self, i: usize) -> &'a [u8] {
        &self.exponents[i * self.exponent_len..(i + 1) * self.exponent_len]
    }
}

/// The context of value `i` (one for all, or one per value).
pub(super) type ContextOf<'f, 'c> = &'f (dyn Fn(usize) -> &'c MontContext + Sync);

/// Runs a validated batch on `backend`; `out` is exactly `count·stride` bytes.
pub(super) fn run(
    backend: Backend,
    context_of: ContextOf<'_, '_>,
    operands: Operands<'_>,
    stride: usize,
    out: &mut [u8],
) {
    // Results are gathered here and copied out at the end, so a failure half
    // way (a panic, caught at the C boundary) leaves `out` untouched.
    let mut results = Zeroizing::new(vec![0u8; out.len()]);
    match backend {
        Backend::Portable => {
            run_groups::<PortableArith>(context_of, operands, stride, &mut results)
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Ifma => {
            run_groups::<super::ifma::IfmaArith>(context_of, operands, stride, &mut results)
        }
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Ifma => unreachable!("resolve() refuses backends this CPU cannot run"),
    }
    out.copy_from_slice(&results);
}

/// Splits the batch into groups of `A::LANES` values of one size class (the
/// order of the values is public) and runs them, on several threads when
/// the caller opted in and there are several groups.
fn run_groups<'c, A: LaneArith<'c>>(
    context_of: ContextOf<'_, 'c>,
    operands: Operands<'_>,
    stride: usize,
    results: &mut [u8],
) {
    let mut order: Vec<usize> = (0..operands.count).collect();
    order.sort_by_key(|&i| A::size_class(context_of(i)));
    let same_class =
        |&a: &usize, &b: &usize| A::size_class(context_of(a)) == A::size_class(context_of(b));
    let groups: Vec<&[usize]> = order
        .chunk_by(same_class)
        .flat_map(|class| class.chunks(A::LANES))
        .collect();

    let write = |results: &mut [u8], done: Vec<(usize, Zeroizing<Vec<u64>>)>| {
        for (i, power) in done {
            limbs_to_be_bytes(&power, &mut results[i * stride..(i + 1) * stride]);
        }
    };
    let workers = threads().min(groups.len());
    if workers <= 1 {
        for group in &groups {
            write(results, run_group::<A>(context_of, operands, group));
        }
        return;
    }
    let finished: Vec<Vec<(usize, Zeroizing<Vec<u64>>)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let mine: Vec<&[usize]> = groups.iter().skip(w).step_by(workers).copied().collect();
                scope.spawn(move || {
                    mine.into_iter()
                        .flat_map(|group| run_group::<A>(context_of, operands, group))
                        .collect()
                })
            })
            .collect();
        // A panic in a worker is re-raised here (and caught at the C ABI).
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    for done in finished {
        write(results, done);
    }
}

/// Exponentiates the values `group` (at most `A::LANES` indices) in one pass
/// of the backend; returns each value's index and result (64-bit limbs).
/// Padding lanes take the first value's context with base 0, exponent 0;
/// their results are dropped.
fn run_group<'c, A: LaneArith<'c>>(
    context_of: ContextOf<'_, 'c>,
    operands: Operands<'_>,
    group: &[usize],
) -> Vec<(usize, Zeroizing<Vec<u64>>)> {
    let lanes = A::LANES;
    assert!(lanes <= MAX_LANES && !group.is_empty() && group.len() <= lanes);
    let exponent_bits = 8 * operands.exponent_len;
    let exponent_limbs = limbs_for_bytes(operands.exponent_len);
    let contexts: Vec<&MontContext> = (0..lanes)
        .map(|j| context_of(group[j.min(group.len() - 1)]))
        .collect();
    let zeroed = |len: usize| Zeroizing::new(vec![0u64; len]);

    let mut residues: Vec<Zeroizing<Vec<u64>>> =
        contexts.iter().map(|ctx| zeroed(ctx.limbs())).collect();
    let mut exponents: Vec<Zeroizing<Vec<u64>>> =
        (0..lanes).map(|_| zeroed(exponent_limbs)).collect();
    for (j, &i) in group.iter().enumerate() {
        portable::reduce_be_bytes(contexts[j], operands.base(i), &mut residues[j]);
        be_bytes_to_limbs(operands.exponent(i), &mut exponents[j]);
    }

    let mut arith = A::new(&contexts);
    let mut powers: Vec<Zeroizing<Vec<u64>>> =
        contexts.iter().map(|ctx| zeroed(ctx.limbs())).collect();
    {
        let residue_refs: Vec<&[u64]> = residues.iter().map(|r| r.as_slice()).collect();
        let exponent_refs: Vec<&[u64]> = exponents.iter().map(|e| e.as_slice()).collect();
        let mut power_refs: Vec<&mut [u64]> = powers.iter_mut().map(|p| p.as_mut_slice()).collect();
        arith.exp(
            &residue_refs,
            &exponent_refs,
            exponent_bits,
            &mut power_refs,
        );
    }
    group.iter().copied().zip(powers).collect()
}
