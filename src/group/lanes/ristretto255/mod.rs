//! ristretto255 arithmetic on 8 points at once (word-sliced: one element
//! per lane, a vector per limb), for the operations where
//! curve25519-dalek's per-point API is the bottleneck: the server's
//! evaluation (decode, `k·X`, encode, working from the encodings the
//! request carries) and the check of a message's encodings; the
//! client's hashing to the group (`map.rs`) and blinding, and its
//! unblinding (each element its own scalar); and the batch check's
//! constant-time short-scalar multi-scalar multiplication (with dalek's
//! additions it costs 14 µs per point here; this engine works from the
//! encodings the client already has, or the points a check kept).
//!
//! One engine (`engine/`), compiled once per instruction set: with AVX-512
//! IFMA over `field_ifma` (radix 2^51, one zmm register per limb; its
//! 64-bit multiplication of AVX-512DQ folds the high product columns) as
//! `lanes::ifma::ristretto255`, and with AVX2 over `field_avx2` (radix
//! 2^25.5, two ymm registers per limb) as `lanes::avx2::ristretto255`. This
//! module's entry points run the one the `LaneCpu` names; the curve
//! constants (`constants`) are shared, in radix 2^51.

pub(crate) mod constants;
pub(crate) mod field_avx2;
pub(crate) mod field_ifma;

use super::cpu::{on_engine, BySet};
use super::{avx2, ifma, LaneCpu, LaneSet};
pub(crate) use ifma::ristretto255::LANES;

/// Points of a batch, 8 per vector, in order, kept beside its encodings:
/// those a message's check decoded, or a client's blinded elements as it
/// computed them. Only the engine of the instruction set that made them
/// reads them.
pub struct DecodedBatch(BySet<ifma::ristretto255::DecodedBatch, avx2::ristretto255::DecodedBatch>);

/// `Σ d_i·P_i` (encoded) for the encoded points `encoded` and secret
/// scalars `d_i < 2^bits` given as little-endian bytes (the balancer's
/// short factors; 253 bits for any scalar modulo ℓ), constant time in the
/// `d_i`; `None` when an encoding is invalid (the caller then uses the
/// portable method). The first vectors may be given decoded (`decoded`: a
/// check kept them).
pub(crate) fn msm_ct(
    cpu: LaneCpu,
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    scalars: &[&[u8]],
    bits: usize,
) -> Option<[u8; 32]> {
    on_engine!(cpu, ristretto255, engine, batch <- decoded.map(|d| &d.0), engine::msm_ct(encoded, batch, scalars, bits))
}

/// The points of the 32-byte encodings in `encoded` if every one is valid
/// and not the identity (as `Ristretto255::decode` requires), else
/// `None`.
pub(crate) fn decode(cpu: LaneCpu, encoded: &[u8]) -> Option<DecodedBatch> {
    match cpu.set() {
        // SAFETY: the CPU has AVX-512F, DQ and IFMA (a `LaneCpu` naming
        // this set).
        LaneSet::Ifma => unsafe { ifma::ristretto255::decode(encoded) }.map(BySet::Ifma),
        // SAFETY: the CPU has AVX2 (a `LaneCpu` naming this set).
        LaneSet::Avx2 => unsafe { avx2::ristretto255::decode(encoded) }.map(BySet::Avx2),
    }
    .map(DecodedBatch)
}

/// `k·X_i` encoded into `out` for every element `X_i` of a batch (`out` as
/// long as its encodings `encoded`), given `half_key`, the little-endian
/// bytes of the secret `k/2 mod ℓ` (the encodings of doubled points share
/// one inversion), constant time in the key. The points are those of
/// `decoded` (a check kept them) as far as it goes, then decoded from
/// `encoded`. `false` when an encoding is invalid (the caller then uses
/// the portable method).
pub(crate) fn mul_by_key(
    cpu: LaneCpu,
    half_key: &[u8; 32],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    on_engine!(cpu, ristretto255, engine, batch <- decoded.map(|d| &d.0), engine::mul_by_key(half_key, encoded, batch, out))
}

/// As [`mul_by_key`], each element `X_i` with its own secret `h_i < 2^253`
/// in `half_scalars` (the encodings `2·h_i·X_i`: a client's unblinding).
pub(crate) fn mul_each(
    cpu: LaneCpu,
    half_scalars: &[[u8; 32]],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    on_engine!(cpu, ristretto255, engine, batch <- decoded.map(|d| &d.0), engine::mul_each(half_scalars, encoded, batch, out))
}

/// `2·h_i·H_i` encoded into `out`, for `H_i` the element RFC 9496's
/// one-way map gives the 64 uniform bytes `uniform[i]` and the secret
/// `h_i < 2^253` in `half_scalars` (a client's blinding), constant time in
/// both, and the points encoded (public: the blinded elements). An `H_i`
/// that is the identity encodes as 32 zero bytes. `None` if the lengths
/// disagree.
pub(crate) fn hash_mul_encode(
    cpu: LaneCpu,
    uniform: &[[u8; 64]],
    half_scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Option<DecodedBatch> {
    let blinded = match cpu.set() {
        // SAFETY: the CPU has AVX-512F, DQ and IFMA (a `LaneCpu` naming
        // this set).
        LaneSet::Ifma => unsafe { ifma::ristretto255::hash_mul_encode(uniform, half_scalars, out) }
            .map(BySet::Ifma),
        // SAFETY: the CPU has AVX2 (a `LaneCpu` naming this set).
        LaneSet::Avx2 => unsafe { avx2::ristretto255::hash_mul_encode(uniform, half_scalars, out) }
            .map(BySet::Avx2),
    };
    blinded.map(DecodedBatch)
}
