//! Which arithmetic backend runs the batch engine, chosen once per process.

use std::ffi::CStr;
use std::sync::OnceLock;

use crate::Error;

/// The environment variable that forces a backend: `portable`, `ifma` or
/// `auto` (the default: the fastest one this CPU runs).
pub const BACKEND_ENV: &str = "OBLIVEX_BACKEND";

/// An arithmetic backend of the batch exponentiation engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// 64-bit limbs, one value at a time; any CPU. The reference.
    Portable,
    /// AVX-512 IFMA, 8 values at once in radix 2^52 (x86-64 CPUs with
    /// AVX-512F and AVX-512 IFMA).
    Ifma,
}

impl Backend {
    /// Every backend this build knows, fastest first.
    pub const ALL: &'static [Backend] = &[Backend::Ifma, Backend::Portable];

    /// The backend's name as `OBLIVEX_BACKEND` spells it.
    pub fn name(self) -> &'static str {
        self.c_name().to_str().expect("names are ASCII")
    }

    /// [`Backend::name`] as a NUL-terminated string (for the C ABI).
    pub const fn c_name(self) -> &'static CStr {
        match self {
            Backend::Portable => c"portable",
            Backend::Ifma => c"ifma",
        }
    }

    /// Whether this CPU can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Ifma => super::ifma::cpu_supported(),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Ifma => false,
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

    /// The backend chosen by `OBLIVEX_BACKEND`, read once per process.
    pub fn selected() -> Result<Backend, Error> {
        static SELECTED: OnceLock<Result<Backend, Error>> = OnceLock::new();
        *SELECTED.get_or_init(|| match std::env::var(BACKEND_ENV) {
            Ok(value) => Backend::from_name(&value),
            Err(std::env::VarError::NotPresent) => Ok(Backend::best_available()),
            Err(std::env::VarError::NotUnicode(_)) => Err(Error::UnsupportedBackend),
        })
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
    }
}
