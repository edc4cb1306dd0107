//! ristretto255 arithmetic on 8 points at once with AVX-512 IFMA (the
//! word-sliced layout of the `mp` engine, for GF(2^255 − 19)), for the
//! operations where curve25519-dalek's per-point API is the bottleneck: the
//! server's evaluation (decode, `k·X`, encode, working from the encodings
//! the request carries) and the check of a message's encodings; the
//! client's hashing to the group (`map.rs`) and blinding, and its
//! unblinding (each element its own scalar); and the batch check's
//! constant-time short-scalar multi-scalar multiplication (with dalek's
//! additions it costs 14 µs per point here; this engine works from the
//! encodings the client already has, or the points a check kept).
//!
//! Reached only when the `mp` backend selection chose `ifma` (so
//! `OBLIVEX_BACKEND=portable` turns it off, e.g. under valgrind) and the CPU
//! also has AVX-512DQ (every CPU with IFMA so far does), whose 64-bit
//! multiplication folds the high product columns.

mod codec;
mod constants;
mod evaluate;
mod field;
mod map;
mod msm;
mod point;
#[cfg(test)]
mod tests;

use crate::group::ShortScalar;
use crate::mp::Backend;
pub(crate) use codec::LANES;

/// Whether this engine runs: the `ifma` backend is selected (so the CPU
/// has AVX-512F and AVX-512 IFMA, checked at selection) and the CPU has
/// AVX-512DQ.
fn engine_selected() -> bool {
    Backend::selected() == Ok(Backend::Ifma) && std::is_x86_feature_detected!("avx512dq")
}

/// `Σ d_i·P_i` (encoded) for the encoded points `encoded` and short secret
/// scalars `d_i < 2^bits`, constant time in the `d_i`; `None` when the
/// engine is not selected or an encoding is invalid (the caller then uses
/// the portable method).
/// The first vectors may be given decoded (`decoded`: a check kept them).
pub(crate) fn short_msm_ct(
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    scalars: &[ShortScalar],
    bits: usize,
) -> Option<[u8; 32]> {
    if !engine_selected() {
        return None;
    }
    let decoded = decoded.map_or(&[][..], |batch| batch.0.as_slice());
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`engine_selected`).
    unsafe { msm::short_msm_ct(encoded, decoded, scalars, bits) }
}

/// A request's elements as its check decoded them, 8 per vector, kept for
/// its evaluation ([`mul_decoded`]).
pub(crate) struct DecodedBatch(Vec<point::Extended8>);

/// The points of the 32-byte encodings in `encoded` if every one is valid
/// and not the identity (as `Ristretto255::decode` requires), else
/// `Some(None)`; `None` when the engine is not selected.
pub(crate) fn decode_checked(encoded: &[u8]) -> Option<Option<DecodedBatch>> {
    if !engine_selected() {
        return None;
    }
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`engine_selected`).
    Some(unsafe { evaluate::decode_non_identity(encoded) }.map(DecodedBatch))
}

/// As [`mul_encoded`] for the points of a [`DecodedBatch`] (`out` as long as
/// their encodings).
pub(crate) fn mul_decoded(half_key: &[u8; 32], batch: &DecodedBatch, out: &mut [u8]) -> bool {
    if !engine_selected() || out.len().div_ceil(LANES * 32) != batch.0.len() {
        return false;
    }
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`engine_selected`).
    unsafe { evaluate::mul_decoded(half_key, &batch.0, out) }
}

/// `k·X_i` encoded into `out` for every encoding `X_i` in `encoded` (`out`
/// as long as `encoded`), given `half_key`, the little-endian bytes of the
/// secret `k/2 mod ℓ` (the encodings of doubled points share one
/// inversion), constant time in the key; `false` when the engine is not
/// selected or an encoding is invalid (the caller then uses the portable
/// method).
pub(crate) fn mul_encoded(half_key: &[u8; 32], encoded: &[u8], out: &mut [u8]) -> bool {
    if !engine_selected() || out.len() != encoded.len() {
        return false;
    }
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`engine_selected`).
    unsafe { evaluate::mul_encoded(half_key, encoded, out) }
}

/// `2·h_i·X_i` encoded into `out` for every encoding `X_i` in `encoded`
/// (valid: a message's check passed) and its own secret `h_i < 2^253` in
/// `half_scalars`, constant time in the `h_i`; decoded by the engine, or
/// taken from `decoded` when the check kept the points. `false` when the
/// engine is not selected (the caller then uses the portable method).
pub(crate) fn mul_each_encoded(
    half_scalars: &[[u8; 32]],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    let count = encoded.len() / 32;
    if !engine_selected() || out.len() != encoded.len() || half_scalars.len() != count {
        return false;
    }
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`engine_selected`).
    unsafe {
        match decoded {
            Some(batch) if batch.0.len() == count.div_ceil(LANES) => {
                evaluate::mul_each_decoded(half_scalars, &batch.0, out)
            }
            _ => evaluate::mul_each_encoded(half_scalars, encoded, out),
        }
    }
}

/// `2·h_i·H_i` encoded into `out`, for `H_i` the element RFC 9496's
/// one-way map gives the 64 uniform bytes `uniform[i]` and the secret
/// `h_i < 2^253` in `half_scalars` (a client's blinding), constant time in
/// both. An `H_i` that is the identity encodes as 32 zero bytes. `false`
/// when the engine is not selected.
pub(crate) fn hash_mul_encode(
    uniform: &[[u8; 64]],
    half_scalars: &[[u8; 32]],
    out: &mut [u8],
) -> bool {
    if !engine_selected() || half_scalars.len() != uniform.len() || out.len() != 32 * uniform.len()
    {
        return false;
    }
    // SAFETY: the CPU has AVX-512F, DQ and IFMA (`engine_selected`).
    unsafe { evaluate::hash_mul_encode(uniform, half_scalars, out) };
    true
}
