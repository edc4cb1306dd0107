//! Which kind of code runs, for the whole library: one [`Backend`] per
//! kind, what this CPU runs, and the process-wide choice
//! ([`Backend::selected`], made once from [`BACKEND_ENV`]).
//!
//! A kind names an instruction set, not a piece of code: `ifma` selects
//! both the batch exponentiation's IFMA arithmetic (`mp`) and the curves'
//! 8-lane engines (`group`), which read the choice here; `avx2` selects the
//! exponentiation's AVX2 arithmetic and the curves' engines compiled for
//! AVX2 (P-256's, ristretto255's and BLS12-381's); `mulx` selects the
//! exponentiation's one-value MULX/ADX arithmetic. This module uses nothing
//! of the library but [`Error`] and the leaf `secret_marks` (is valgrind
//! running?), so both can stand on it.

use std::ffi::CStr;
use std::sync::OnceLock;

// From `error` itself, not through the crate root, which re-exports this
// module: the ground floor points at nothing above it.
use crate::error::Error;

/// The environment variable that forces a backend: `portable`, `mulx`,
/// `avx2`, `ifma` or `auto` (the default: the fastest one this CPU runs).
pub const BACKEND_ENV: &str = "OBLIVEX_BACKEND";

/// A kind of code the library runs: the batch exponentiation's arithmetic
/// and, for `Ifma`, the curves' 8-lane engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// 64-bit limbs, one value at a time; any CPU. The reference.
    Portable,
    /// AVX-512 IFMA, 8 values at once in radix 2^52 (x86-64 CPUs with
    /// AVX-512F and AVX-512 IFMA).
    Ifma,
    /// AVX2, 4 values at once in 27- to 29-bit digits (x86-64 CPUs with
    /// AVX2: Haswell, Zen 1 and every later one).
    Avx2,
    /// MULX/ADX, one value at a time on 64-bit limbs (x86-64 CPUs with BMI2
    /// and ADX: Broadwell, Zen 1 and every later one). The SIMD backends
    /// hand it what would leave their lanes mostly empty.
    Mulx,
}

impl Backend {
    /// Every backend this build knows, fastest first.
    pub const ALL: &'static [Backend] = &[
        Backend::Ifma,
        Backend::Avx2,
        Backend::Mulx,
        Backend::Portable,
    ];

    /// The backend's name as `OBLIVEX_BACKEND` spells it.
    pub fn name(self) -> &'static str {
        self.c_name().to_str().expect("names are ASCII")
    }

    /// [`Backend::name`] as a NUL-terminated string (for the C ABI).
    pub const fn c_name(self) -> &'static CStr {
        match self {
            Backend::Portable => c"portable",
            Backend::Ifma => c"ifma",
            Backend::Avx2 => c"avx2",
            Backend::Mulx => c"mulx",
        }
    }

    /// What the backend needs of the CPU, as people name it (for messages
    /// that say why a backend does not run here).
    pub fn requirement(self) -> &'static str {
        match self {
            Backend::Portable => "any CPU",
            Backend::Ifma => "AVX-512F and AVX-512 IFMA",
            Backend::Avx2 => "AVX2",
            Backend::Mulx => "BMI2 and ADX",
        }
    }

    /// Whether this CPU can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            Backend::Ifma => ifma_supported(),
            Backend::Avx2 => avx2_supported(),
            Backend::Mulx => mulx_supported(),
        }
    }

    /// The fastest backend this CPU runs.
    pub fn best_available() -> Backend {
        Backend::ALL
            .iter()
            .copied()
            .find(|b| b.is_available())
            .unwrap_or(Backend::Portable)
    }

    /// Parses an `OBLIVEX_BACKEND` value (`auto` or empty = the best
    /// available). A known backend this CPU cannot run, and an unknown name,
    /// are both [`Error::UnsupportedBackend`]: forcing a backend never falls
    /// back silently.
    pub fn from_name(name: &str) -> Result<Backend, Error> {
        match name.trim() {
            "" | "auto" => Ok(Backend::best_available()),
            wanted => Backend::ALL
                .iter()
                .copied()
                .find(|b| b.name() == wanted && b.is_available())
                .ok_or(Error::UnsupportedBackend),
        }
    }

    /// `backend` if this CPU runs it ([`Error::UnsupportedBackend`]
    /// otherwise, or where [`AVX2_PROFILE_ENV`] names no profile), or for
    /// `None` the process-wide choice.
    pub(crate) fn resolve(backend: Option<Backend>) -> Result<Backend, Error> {
        match backend {
            None => Backend::selected(),
            Some(b) if b.is_available() => Avx2Profile::forced().map(|_| b),
            Some(_) => Err(Error::UnsupportedBackend),
        }
    }

    /// The backend chosen by `OBLIVEX_BACKEND`, read once per process
    /// ([`Error::UnsupportedBackend`] too where [`AVX2_PROFILE_ENV`] names
    /// no profile: a forced choice never falls back silently).
    pub fn selected() -> Result<Backend, Error> {
        static SELECTED: OnceLock<Result<Backend, Error>> = OnceLock::new();
        *SELECTED.get_or_init(|| {
            Avx2Profile::forced()?;
            from_env(BACKEND_ENV, Backend::from_name, Backend::best_available)
        })
    }
}

/// The environment variable that names the avx2 backend's tuning profile
/// ([`Avx2Profile`]: `zen3` or `golden-cove`) instead of the one its CPU
/// table gives: for a CPU the table does not know, and for the
/// constant-time check under valgrind, whose CPUID names a Haswell (the
/// Karatsuba kernels run only in `golden-cove`'s shapes). Unset or empty:
/// the table's. A name no profile has fails [`Backend::selected`] (so the
/// exponentiations fail, and the curves' engines do not run), as an
/// unknown backend does.
pub const AVX2_PROFILE_ENV: &str = "OBLIVEX_AVX2_PROFILE";

/// The avx2 backend's tuning profiles: the kernel shapes and windows of
/// its exponentiation (`mp::backend::avx2::tuning`), one per family of
/// cores whose best shapes differ. Every profile computes the same
/// results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Avx2Profile {
    /// AMD Zen 3: two VPMULUDQ per cycle, about 1.5 products with their
    /// additions per cycle in the steady sweep.
    Zen3,
    /// Intel's Golden Cove and Raptor Cove cores: two VPMULUDQ per cycle
    /// as on Zen 3, but on ports 0 and 1, which the additions share with
    /// port 5 only; the longest reduction blocks pay there.
    GoldenCove,
}

impl Avx2Profile {
    /// Every profile.
    pub(crate) const ALL: &'static [Avx2Profile] = &[Avx2Profile::Zen3, Avx2Profile::GoldenCove];

    /// The profile's name as [`AVX2_PROFILE_ENV`] spells it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Avx2Profile::Zen3 => "zen3",
            Avx2Profile::GoldenCove => "golden-cove",
        }
    }

    /// Parses an [`AVX2_PROFILE_ENV`] value: `None` for an empty one (the
    /// CPU table's profile), [`Error::UnsupportedBackend`] for a name no
    /// profile has.
    fn from_name(name: &str) -> Result<Option<Avx2Profile>, Error> {
        match name.trim() {
            "" => Ok(None),
            wanted => Avx2Profile::ALL
                .iter()
                .copied()
                .find(|p| p.name() == wanted)
                .map(Some)
                .ok_or(Error::UnsupportedBackend),
        }
    }

    /// The profile [`AVX2_PROFILE_ENV`] forces, read once per process
    /// (`None`: the CPU table's).
    pub(crate) fn forced() -> Result<Option<Avx2Profile>, Error> {
        static FORCED: OnceLock<Result<Option<Avx2Profile>, Error>> = OnceLock::new();
        *FORCED.get_or_init(|| from_env(AVX2_PROFILE_ENV, Avx2Profile::from_name, || None))
    }
}

/// Environment variable `name` as `parse` reads it, `unset()` where it is
/// absent; [`Error::UnsupportedBackend`] where it is not Unicode (a
/// forced choice never falls back silently).
fn from_env<T>(
    name: &str,
    parse: impl FnOnce(&str) -> Result<T, Error>,
    unset: impl FnOnce() -> T,
) -> Result<T, Error> {
    match std::env::var(name) {
        Ok(value) => parse(&value),
        Err(std::env::VarError::NotPresent) => Ok(unset()),
        Err(std::env::VarError::NotUnicode(_)) => Err(Error::UnsupportedBackend),
    }
}

/// Whether this CPU runs the IFMA backend (AVX-512 Foundation + IFMA;
/// only 512-bit registers are used, so AVX512VL is not needed).
pub(crate) fn ifma_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512ifma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU runs the AVX2 backend.
pub(crate) fn avx2_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU runs the MULX/ADX backend. Under valgrind, which runs
/// ADCX and ADOX but hides ADX from CPUID (3.19), BMI2 is enough: the
/// constant-time check (`c_tests/ct`) must run this backend.
pub(crate) fn mulx_supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("bmi2")
            && (std::is_x86_feature_detected!("adx") || crate::secret_marks::running_on_valgrind())
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The instruction sets the curves' 8-lane engines are compiled for (each
/// engine's one source, once per set: `group::lanes::ifma` and
/// `group::lanes::avx2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, reason = "the engines are x86-64 only")
)]
pub(crate) enum LaneSet {
    /// AVX-512F, DQ and IFMA: 8 lanes per zmm register, radix 2^52.
    Ifma,
    /// AVX2: 8 lanes in two ymm registers, 32-bit multiplier digits.
    Avx2,
}

/// The instruction set the curves' 8-lane engines run on, if any: AVX-512
/// IFMA where the `ifma` backend is selected (so the CPU has AVX-512F and
/// AVX-512 IFMA, checked at selection) and the CPU also has AVX-512DQ
/// (every CPU with IFMA so far does), whose 64-bit multiplication and lane
/// masks the engines use; AVX2 where the `avx2` backend is selected. The
/// other backends (`mulx`, `portable`: e.g. under valgrind's AVX-512-free
/// emulation) turn them off.
#[cfg(target_arch = "x86_64")]
pub(crate) fn lane_set_selected() -> Option<LaneSet> {
    match Backend::selected() {
        Ok(Backend::Ifma) if LaneSet::Ifma.is_available() => Some(LaneSet::Ifma),
        Ok(Backend::Avx2) => Some(LaneSet::Avx2),
        _ => None,
    }
}

#[cfg(target_arch = "x86_64")]
impl LaneSet {
    /// Whether this CPU runs the set, whatever backend is selected (the
    /// engines' tests run every set the CPU has).
    pub(crate) fn is_available(self) -> bool {
        match self {
            LaneSet::Ifma => ifma_supported() && std::is_x86_feature_detected!("avx512dq"),
            LaneSet::Avx2 => avx2_supported(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse() {
        assert_eq!(Backend::from_name("portable"), Ok(Backend::Portable));
        assert_eq!(Backend::from_name("auto"), Ok(Backend::best_available()));
        assert_eq!(Backend::from_name(""), Ok(Backend::best_available()));
        assert_eq!(
            Backend::from_name("ifma-ish"),
            Err(Error::UnsupportedBackend)
        );
        let avx2 = Backend::from_name("avx2");
        assert_eq!(
            avx2.is_ok(),
            avx2_supported(),
            "avx2 exactly where the CPU has it"
        );
    }

    #[test]
    fn profile_names_parse() {
        assert_eq!(Avx2Profile::from_name(""), Ok(None));
        assert_eq!(
            Avx2Profile::from_name(" zen3 "),
            Ok(Some(Avx2Profile::Zen3))
        );
        assert_eq!(
            Avx2Profile::from_name("zen4"),
            Err(Error::UnsupportedBackend)
        );
        for &profile in Avx2Profile::ALL {
            assert_eq!(Avx2Profile::from_name(profile.name()), Ok(Some(profile)));
        }
    }

    #[test]
    fn names_round_trip() {
        for &backend in Backend::ALL {
            assert_eq!(backend.c_name().to_str(), Ok(backend.name()));
            if backend.is_available() {
                assert_eq!(Backend::from_name(backend.name()), Ok(backend));
            }
        }
    }
}
