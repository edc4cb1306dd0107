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
