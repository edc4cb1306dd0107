//! The operating system's randomness, for callers that pass no RNG (the C
//! API). Rust callers pass their own `CryptoRng` to every protocol function.

use rand_core::UnwrapErr;

use crate::Error;

/// The OS random source as an infallible `CryptoRng`, after checking it
/// works ([`Error::RngFailure`] otherwise). A later failure of the source
/// (not seen on supported systems once it has worked) panics, which the C
/// ABI reports as `OBLIVEX_ERR_PANIC`.
pub fn os_rng() -> Result<UnwrapErr<getrandom::SysRng>, Error> {
    let mut probe = [0u8; 1];
    getrandom::fill(&mut probe).map_err(|_| Error::RngFailure)?;
    Ok(UnwrapErr(getrandom::SysRng))
}
