//! Whether the lane engines may run, as a value: a [`LaneCpu`] exists only
//! where they may, and every engine entry point takes one, so the unsafe
//! calls into AVX-512 code rest on one check made once per operation.

/// Proof that the 8-lane engines may run here: the `ifma` backend is
/// selected (so the CPU has AVX-512F and AVX-512 IFMA, checked at
/// selection, and `OBLIVEX_BACKEND=portable` turns the engines off, e.g.
/// under valgrind) and the CPU has AVX-512DQ (every CPU with IFMA so far
/// does), whose 64-bit multiplication and lane masks the engines use. Only
/// [`LaneCpu::detect`] makes one.
#[derive(Clone, Copy, Debug)]
pub struct LaneCpu(());

impl LaneCpu {
    /// A proof if the engines may run now, else `None`.
    pub fn detect() -> Option<LaneCpu> {
        #[cfg(target_arch = "x86_64")]
        if crate::mp::Backend::selected() == Ok(crate::mp::Backend::Ifma)
            && std::is_x86_feature_detected!("avx512dq")
        {
            return Some(LaneCpu(()));
        }
        None
    }
}
