//! Whether the lane engines may run, as a value: a [`LaneCpu`] exists only
//! where they may, and every engine entry point takes one, so the unsafe
//! calls into AVX-512 code rest on one check made once per operation.

/// Proof that the 8-lane engines may run here
/// (`backend::lane_engines_selected`: the `ifma` backend is selected and
/// the CPU has AVX-512DQ). Only [`LaneCpu::detect`] makes one.
#[derive(Clone, Copy, Debug)]
pub struct LaneCpu(());

impl LaneCpu {
    /// A proof if the engines may run now, else `None`.
    pub fn detect() -> Option<LaneCpu> {
        #[cfg(target_arch = "x86_64")]
        if crate::backend::lane_engines_selected() {
            return Some(LaneCpu(()));
        }
        None
    }
}
