//! Whether the lane engines may run, and on which instruction set, as a
//! value: a [`LaneCpu`] exists only where they may, and every engine entry
//! point takes one, so the unsafe calls into AVX-512 or AVX2 code rest on
//! one check made once per operation.

pub(crate) use crate::backend::LaneSet;

/// Proof that the 8-lane engines may run here, on the set it names: the
/// `ifma` backend is selected and the CPU has AVX-512DQ too
/// ([`LaneSet::Ifma`]), or the `avx2` backend is selected
/// ([`LaneSet::Avx2`]). Only [`LaneCpu::detect`] makes one.
#[derive(Clone, Copy, Debug)]
pub struct LaneCpu(LaneSet);

impl LaneCpu {
    /// A proof if the engines may run now, else `None`.
    pub fn detect() -> Option<LaneCpu> {
        #[cfg(target_arch = "x86_64")]
        if let Some(set) = crate::backend::lane_set_selected() {
            return Some(LaneCpu(set));
        }
        None
    }

    /// [`LaneCpu::detect`] if the engines run on `set` (for an engine
    /// written for that set only), else `None`.
    pub(crate) fn detect_for(set: LaneSet) -> Option<LaneCpu> {
        Self::detect().filter(|cpu| cpu.0 == set)
    }

    /// The instruction set the engines run on.
    pub(crate) fn set(self) -> LaneSet {
        self.0
    }
}

/// Whether this CPU runs `set` (whatever backend is selected: the tests
/// run every engine the CPU can), saying so where it does not.
#[cfg(test)]
pub(crate) fn supported(set: LaneSet) -> bool {
    let runs = set.is_available();
    if !runs {
        eprintln!("skipped: the CPU lacks this engine's instruction set");
    }
    runs
}

/// A value made by the engine of one instruction set, which only that
/// set's engine reads (a group's decoded batch).
pub(crate) enum BySet<I, A> {
    /// Made by the AVX-512 IFMA engine.
    Ifma(I),
    /// Made by the AVX2 engine.
    Avx2(A),
}

impl<I, A> BySet<I, A> {
    /// The IFMA engine's value, if it is one.
    pub(crate) fn ifma(value: Option<&Self>) -> Option<&I> {
        match value {
            Some(BySet::Ifma(value)) => Some(value),
            _ => None,
        }
    }

    /// The AVX2 engine's value, if it is one.
    pub(crate) fn avx2(value: Option<&Self>) -> Option<&A> {
        match value {
            Some(BySet::Avx2(value)) => Some(value),
            _ => None,
        }
    }
}

/// Runs `$call` with `$engine` the engine of the group `$group` (its
/// module in `lanes::ifma` and `lanes::avx2`) for the instruction set the
/// `LaneCpu` `$cpu` names, and `$batch` that engine's value of the
/// `Option<&BySet>` `$decoded` (`None` where the other set's engine made
/// it: then the engine decodes again); or without a batch.
macro_rules! on_engine {
    ($cpu:expr, $group:ident, $engine:ident, $batch:ident <- $decoded:expr, $call:expr) => {
        match $cpu.set() {
            $crate::group::lanes::LaneSet::Ifma => {
                use $crate::group::lanes::ifma::$group as $engine;
                let $batch = $crate::group::lanes::cpu::BySet::ifma($decoded);
                // SAFETY: the CPU has AVX-512F, DQ and IFMA (a `LaneCpu`
                // naming this set).
                unsafe { $call }
            }
            $crate::group::lanes::LaneSet::Avx2 => {
                use $crate::group::lanes::avx2::$group as $engine;
                let $batch = $crate::group::lanes::cpu::BySet::avx2($decoded);
                // SAFETY: the CPU has AVX2 (a `LaneCpu` naming this set).
                unsafe { $call }
            }
        }
    };
    ($cpu:expr, $group:ident, $engine:ident, $call:expr) => {
        $crate::group::lanes::cpu::on_engine!($cpu, $group, $engine, _batch <- None::<&$crate::group::lanes::cpu::BySet<(), ()>>, $call)
    };
}
pub(crate) use on_engine;
