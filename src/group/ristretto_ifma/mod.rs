//! ristretto255 arithmetic on 8 points at once with AVX-512 IFMA (the
//! word-sliced layout of the `mp` engine, for GF(2^255 − 19)), for the
//! operations where curve25519-dalek's per-point API is the bottleneck: the
//! server's evaluation (decode, `k·X`, encode, working from the encodings
//! the request carries) and the check of a request's encodings, and the
//! batch check's constant-time short-scalar multi-scalar multiplication
//! (with dalek's additions it costs 14 µs per point here; this engine works
//! from the encodings the client already has).
//!
//! Reached only when the `mp` backend selection chose `ifma` (so
//! `OBLIVEX_BACKEND=portable` turns it off, e.g. under valgrind).

mod codec;
mod constants;
mod evaluate;
mod field;
mod msm;
mod point;
#[cfg(test)]
mod tests;

use crate::group::ShortScalar;
use crate::mp::Backend;

/// `Σ d_i·P_i` (encoded) for the encoded points `encoded` and short secret
/// scalars `d_i < 2^bits`, constant time in the `d_i`; `None` when the IFMA
/// backend is not selected or an encoding is invalid (the caller then uses
/// the portable method).
pub(crate) fn short_msm_ct(
    encoded: &[u8],
    scalars: &[ShortScalar],
    bits: usize,
) -> Option<[u8; 32]> {
    if Backend::selected() != Ok(Backend::Ifma) {
        return None;
    }
    // SAFETY: the IFMA backend is only selectable on CPUs with AVX-512F and
    // AVX-512 IFMA (checked at selection).
    unsafe { msm::short_msm_ct(encoded, scalars, bits) }
}

/// Whether every 32-byte encoding in `encoded` is valid and not the
/// identity (as `Ristretto255::decode` requires); `None` when the IFMA
/// backend is not selected.
pub(crate) fn check_encodings(encoded: &[u8]) -> Option<bool> {
    if Backend::selected() != Ok(Backend::Ifma) {
        return None;
    }
    // SAFETY: the IFMA backend is only selectable on CPUs with AVX-512F and
    // AVX-512 IFMA (checked at selection).
    Some(unsafe { evaluate::all_valid_non_identity(encoded) })
}

/// `k·X_i` encoded into `out` for every encoding `X_i` in `encoded` (`out`
/// as long as `encoded`), `key` the little-endian bytes of the secret `k <
/// ℓ`, constant time in `k`; `false` when the IFMA backend is not selected
/// or an encoding is invalid (the caller then uses the portable method).
pub(crate) fn mul_encoded(key: &[u8; 32], encoded: &[u8], out: &mut [u8]) -> bool {
    if Backend::selected() != Ok(Backend::Ifma) || out.len() != encoded.len() {
        return false;
    }
    // SAFETY: as in `check_encodings`.
    unsafe { evaluate::mul_encoded(key, encoded, out) }
}
