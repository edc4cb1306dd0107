//! Running a validated batch: grouping the values into the backend's lanes
//! (by size class, padding the last group of a class), spreading the groups
//! over the opted-in threads, and collecting the results.

use zeroize::Zeroizing;

use super::backend::portable::PortableArith;
use super::backend::LaneArith;
use super::context::MontContext;
use super::limbs::convert::{be_bytes_to_limbs, limbs_for_bytes, limbs_to_be_bytes};
use super::limits::{MAX_LANES, MAX_OPERAND_BYTES};
use super::public_exponent;
use super::threads::threads;
use crate::backend::Backend;
use crate::Error;

/// Whether a batch's exponents are secret, for the constant-time fixed
/// window (`fixed_window`), or public, for square-and-multiply
/// (`public_exponent`: variable time in the exponents, constant time in
/// the bases).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Exponents {
    Secret,
    PublicVartime,
}

/// A validated batch of `count` values, either as big-endian byte strings
/// (the public API) or as residues and little-endian exponent limbs (the
/// FFDHE group, whose elements are residues already).
#[derive(Clone, Copy)]
pub(super) enum Operands<'a> {
    /// `count` bases of `base_len` bytes and as many exponents of
    /// `exponent_len` bytes, secret or public.
    Bytes {
        bases: &'a [u8],
        base_len: usize,
        exponents: &'a [u8],
        exponent_len: usize,
        count: usize,
        kind: Exponents,
    },
    /// Residues `< m` (as many limbs as the modulus) and secret exponents
    /// of `exponent_bits` bits (the length is public), one of each per
    /// value.
    Limbs {
        bases: &'a [&'a [u64]],
        exponents: &'a [&'a [u64]],
        exponent_bits: usize,
    },
}

impl<'a> Operands<'a> {
    /// Validates the operand buffers of a batch given as byte strings:
    /// [`Error::EmptyInput`] for no value or a zero length,
    /// [`Error::BadLength`] for an operand above `MAX_OPERAND_BYTES` or
    /// buffers that are not whole operands, as many of each.
    pub(super) fn from_bytes(
        bases: &'a [u8],
        base_len: usize,
        exponents: &'a [u8],
        exponent_len: usize,
        kind: Exponents,
    ) -> Result<Self, Error> {
        if base_len == 0 || exponent_len == 0 || bases.is_empty() {
            return Err(Error::EmptyInput);
        }
        if base_len > MAX_OPERAND_BYTES || exponent_len > MAX_OPERAND_BYTES {
            return Err(Error::BadLength);
        }
        let count = bases.len() / base_len;
        if !bases.len().is_multiple_of(base_len) || exponents.len() != count * exponent_len {
            return Err(Error::BadLength);
        }
        Ok(Operands::Bytes {
            bases,
            base_len,
            exponents,
            exponent_len,
            count,
            kind,
        })
    }

    /// The number of values.
    pub(super) fn count(&self) -> usize {
        match self {
            Operands::Bytes { count, .. } => *count,
            Operands::Limbs { bases, .. } => bases.len(),
        }
    }

    fn exponents_kind(&self) -> Exponents {
        match self {
            Operands::Bytes { kind, .. } => *kind,
            Operands::Limbs { .. } => Exponents::Secret,
        }
    }

    fn exponent_bits(&self) -> usize {
        match self {
            Operands::Bytes { exponent_len, .. } => 8 * exponent_len,
            Operands::Limbs { exponent_bits, .. } => *exponent_bits,
        }
    }

    /// Value `i`'s base, reduced modulo `ctx`, into `residue` and its
    /// exponent into `exponent` (little-endian limbs).
    fn load(&self, i: usize, ctx: &MontContext, residue: &mut [u64], exponent: &mut [u64]) {
        match *self {
            Operands::Bytes {
                bases,
                base_len,
                exponents,
                exponent_len,
                ..
            } => {
                ctx.reduce_into(&bases[i * base_len..(i + 1) * base_len], residue);
                be_bytes_to_limbs(
                    &exponents[i * exponent_len..(i + 1) * exponent_len],
                    exponent,
                );
            }
            Operands::Limbs {
                bases, exponents, ..
            } => {
                residue.copy_from_slice(bases[i]);
                exponent[..exponents[i].len()].copy_from_slice(exponents[i]);
            }
        }
    }
}

/// The context of value `i` (one for all, or one per value).
pub(super) type ContextOf<'f, 'c> = &'f (dyn Fn(usize) -> &'c MontContext + Sync);

/// One result: the value's index and its power (64-bit limbs, `< m`).
pub(super) type Power = (usize, Zeroizing<Vec<u64>>);

/// Runs a validated batch on `backend`; `out` is exactly `count·stride`
/// bytes and receives each power big-endian, left-padded to `stride`.
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
    for (i, power) in run_powers(backend, context_of, operands).iter().enumerate() {
        limbs_to_be_bytes(power, &mut results[i * stride..(i + 1) * stride]);
    }
    out.copy_from_slice(&results);
}

/// Values `backend` exponentiates together in one group (its lanes): a
/// batch's last group is padded up to this many.
pub fn group_size(backend: Backend) -> usize {
    match backend {
        Backend::Portable => PortableArith::LANES,
        #[cfg(target_arch = "x86_64")]
        Backend::Ifma => super::backend::ifma::IfmaArith::LANES,
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => super::backend::avx2::Avx2Arith::LANES,
        #[cfg(target_arch = "x86_64")]
        Backend::Mulx => super::backend::mulx::MulxArith::LANES,
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Ifma | Backend::Avx2 | Backend::Mulx => 1,
    }
}

/// The longest tail (a class's last, partial lane group) that `backend`
/// hands to the MULX/ADX backend, one value at a time, instead of padding
/// its lanes. A group costs the same whatever it holds, so a short tail
/// pays for the empty lanes. For AVX2 the CPU's tuning profile says how
/// long (tails of 1 and 2 on Zen 3, 1 to 3 on Intel's Golden Cove cores).
/// For IFMA, whose group costs 1.4 to 1.8 mulx values on Emerald Rapids
/// (its `tuning_sweep` against `bench_modexp`'s single values, December
/// 2026) and about 2.7 by the Zen 4 figures, only a tail of 1 does.
/// Nothing goes where mulx does not serve ([`mulx_serves`]: the CPU lacks
/// it, or the batch runs on the portable backend).
fn longest_tail_for_mulx(backend: Backend) -> usize {
    if !mulx_serves(backend) {
        return 0;
    }
    match backend {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => super::backend::avx2::longest_tail_for_mulx(),
        Backend::Ifma => 1,
        Backend::Mulx | Backend::Portable => 0,
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Avx2 => 0,
    }
}

/// Whether the MULX/ADX kernels may take single values off a batch on
/// `backend` (a short tail, the work around an RSA batch): where the CPU
/// has them, on every backend but the portable one, which stays on
/// portable code throughout.
pub(super) fn mulx_serves(backend: Backend) -> bool {
    backend != Backend::Portable && crate::backend::mulx_supported()
}

/// Runs a validated batch on `backend` and returns every power, in the
/// values' order.
pub(super) fn run_powers(
    backend: Backend,
    context_of: ContextOf<'_, '_>,
    operands: Operands<'_>,
) -> Vec<Zeroizing<Vec<u64>>> {
    let tail = longest_tail_for_mulx(backend);
    let mut powers = match backend {
        Backend::Portable => run_groups::<PortableArith>(context_of, operands, tail),
        #[cfg(target_arch = "x86_64")]
        Backend::Ifma => run_groups::<super::backend::ifma::IfmaArith>(context_of, operands, tail),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => run_groups::<super::backend::avx2::Avx2Arith>(context_of, operands, tail),
        #[cfg(target_arch = "x86_64")]
        Backend::Mulx => run_groups::<super::backend::mulx::MulxArith>(context_of, operands, tail),
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Ifma | Backend::Avx2 | Backend::Mulx => {
            unreachable!("resolve() refuses backends this CPU cannot run")
        }
    };
    powers.sort_unstable_by_key(|(i, _)| *i);
    powers.into_iter().map(|(_, power)| power).collect()
}

/// A unit of work: a lane group for the batch's backend, or one value of a
/// short tail for the MULX/ADX backend.
#[derive(Clone, Copy)]
enum Job<'g> {
    Lanes(&'g [usize]),
    OneValue(&'g [usize]),
}

impl Job<'_> {
    fn run<'c, A: LaneArith<'c>>(
        self,
        context_of: ContextOf<'_, 'c>,
        operands: Operands<'_>,
    ) -> Vec<Power> {
        match self {
            Job::Lanes(group) => run_group::<A>(context_of, operands, group),
            #[cfg(target_arch = "x86_64")]
            Job::OneValue(value) => {
                run_group::<super::backend::mulx::MulxArith>(context_of, operands, value)
            }
            #[cfg(not(target_arch = "x86_64"))]
            Job::OneValue(_) => unreachable!("no tail goes to mulx without BMI2 and ADX"),
        }
    }
}

/// The jobs of one size class's values (in order): groups of `lanes`, the
/// last one split into single values when it holds at most
/// `longest_tail`.
fn jobs_of_class(class: &[usize], lanes: usize, longest_tail: usize) -> Vec<Job<'_>> {
    class
        .chunks(lanes)
        .flat_map(|group| {
            if group.len() <= longest_tail {
                group.chunks(1).map(Job::OneValue).collect::<Vec<_>>()
            } else {
                vec![Job::Lanes(group)]
            }
        })
        .collect()
}

/// Splits the batch into groups of `A::LANES` values of one size class (the
/// order of the values is public), a group of at most `longest_tail` values
/// into single values for the MULX/ADX backend, and runs them, on several
/// threads when the caller opted in and there are several.
fn run_groups<'c, A: LaneArith<'c>>(
    context_of: ContextOf<'_, 'c>,
    operands: Operands<'_>,
    longest_tail: usize,
) -> Vec<Power> {
    let mut order: Vec<usize> = (0..operands.count()).collect();
    order.sort_by_key(|&i| A::size_class(context_of(i)));
    let same_class =
        |&a: &usize, &b: &usize| A::size_class(context_of(a)) == A::size_class(context_of(b));
    let jobs: Vec<Job<'_>> = order
        .chunk_by(same_class)
        .flat_map(|class| jobs_of_class(class, A::LANES, longest_tail))
        .collect();

    let workers = threads().min(jobs.len());
    if workers <= 1 {
        return jobs
            .iter()
            .flat_map(|job| job.run::<A>(context_of, operands))
            .collect();
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let mine: Vec<Job<'_>> = jobs.iter().skip(w).step_by(workers).copied().collect();
                scope.spawn(move || {
                    mine.into_iter()
                        .flat_map(|job| job.run::<A>(context_of, operands))
                        .collect::<Vec<Power>>()
                })
            })
            .collect();
        // A panic in a worker is re-raised here (and caught at the C ABI).
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// Exponentiates the values `group` (at most `A::LANES` indices) in one pass
/// of the backend; returns each value's index and result (64-bit limbs).
/// Padding lanes take the first value's context with base 0, exponent 0;
/// their results are dropped.
fn run_group<'c, A: LaneArith<'c>>(
    context_of: ContextOf<'_, 'c>,
    operands: Operands<'_>,
    group: &[usize],
) -> Vec<Power> {
    let lanes = A::LANES;
    assert!(lanes <= MAX_LANES && !group.is_empty() && group.len() <= lanes);
    let exponent_bits = operands.exponent_bits();
    let exponent_limbs = limbs_for_bytes(exponent_bits.div_ceil(8));
    let contexts: Vec<&MontContext> = (0..lanes)
        .map(|j| context_of(group[j.min(group.len() - 1)]))
        .collect();
    let zeroed = |len: usize| Zeroizing::new(vec![0u64; len]);

    let mut residues: Vec<Zeroizing<Vec<u64>>> =
        contexts.iter().map(|ctx| zeroed(ctx.limbs())).collect();
    let mut exponents: Vec<Zeroizing<Vec<u64>>> =
        (0..lanes).map(|_| zeroed(exponent_limbs)).collect();
    for (j, &i) in group.iter().enumerate() {
        operands.load(i, contexts[j], &mut residues[j], &mut exponents[j]);
    }

    let mut arith = A::new(&contexts);
    let mut powers: Vec<Zeroizing<Vec<u64>>> =
        contexts.iter().map(|ctx| zeroed(ctx.limbs())).collect();
    {
        let residue_refs: Vec<&[u64]> = residues.iter().map(|r| r.as_slice()).collect();
        let exponent_refs: Vec<&[u64]> = exponents.iter().map(|e| e.as_slice()).collect();
        let mut power_refs: Vec<&mut [u64]> = powers.iter_mut().map(|p| p.as_mut_slice()).collect();
        match operands.exponents_kind() {
            Exponents::Secret => arith.exp(
                &residue_refs,
                &exponent_refs,
                exponent_bits,
                &mut power_refs,
            ),
            Exponents::PublicVartime => public_exponent::mod_exp_vartime(
                &mut arith,
                &residue_refs,
                &exponent_refs,
                &mut power_refs,
            ),
        }
    }
    group.iter().copied().zip(powers).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many values each job holds, and whether it runs on the lanes.
    fn shape(jobs: &[Job<'_>]) -> Vec<(bool, usize)> {
        jobs.iter()
            .map(|job| match job {
                Job::Lanes(group) => (true, group.len()),
                Job::OneValue(value) => (false, value.len()),
            })
            .collect()
    }

    #[test]
    fn only_a_short_tail_leaves_the_lanes() {
        let values: Vec<usize> = (0..11).collect();
        let lanes = |n| (true, n);
        let one = (false, 1);
        // 11 on 4 lanes: a tail of 3 stays on the lanes; of 2 it does not.
        assert_eq!(
            shape(&jobs_of_class(&values, 4, 2)),
            [lanes(4), lanes(4), lanes(3)]
        );
        assert_eq!(
            shape(&jobs_of_class(&values[..10], 4, 2)),
            [lanes(4), lanes(4), one, one]
        );
        // One value alone, and no tail rule (mulx itself, or no BMI2/ADX).
        assert_eq!(shape(&jobs_of_class(&values[..1], 4, 2)), [one]);
        assert_eq!(shape(&jobs_of_class(&values[..1], 4, 0)), [lanes(1)]);
        assert_eq!(shape(&jobs_of_class(&values[..9], 8, 1)), [lanes(8), one]);
        // Every value is in exactly one job, in order.
        let jobs = jobs_of_class(&values[..10], 4, 2);
        let covered: Vec<usize> = jobs
            .iter()
            .flat_map(|job| match job {
                Job::Lanes(group) | Job::OneValue(group) => group.iter().copied(),
            })
            .collect();
        assert_eq!(covered, values[..10]);
    }
}
