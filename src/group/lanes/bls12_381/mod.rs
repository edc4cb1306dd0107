//! BLS12-381 G1 arithmetic on 8 points at once, where `blst` takes about
//! 145 to 165 µs per element of a server's evaluation: the check of a message's
//! encodings (48-byte compressed decoding with the subgroup check, the
//! points kept), the server's evaluation (multiply by the key, encode with
//! one inversion per pass), the client's hashing to the group (RFC 9380,
//! `engine/map.rs`) with its blinding, and its unblinding (each element
//! its own scalar), and the balancer's, the check's and a VOPRF proof's
//! multi-scalar multiplications (`engine/msm.rs`). Scalar multiplication
//! splits the scalar in base `|z|` through the points' multiples by `|z|`
//! that the subgroup check computes, and by the GLV endomorphism where
//! those are not at hand (`engine/decompose.rs`, `engine/scalar_mul.rs`).
//!
//! One engine (`engine/`), compiled once per instruction set: with AVX-512
//! IFMA over `field_ifma` (8 limbs of 52 bits, the generic Montgomery
//! arithmetic of `lanes::montgomery`) as `lanes::ifma::bls12_381`, and
//! with AVX2 over `field_avx2` (14 digits of 29 bits, its products in
//! generated assembly) as `lanes::avx2::bls12_381`. This module's entry
//! points run the one the `LaneCpu` names.
//!
//! Constant time in keys, blinds' inverses and the unblinded products: the
//! argument is in `engine/scalar_mul.rs` (divisions by the public `|z|`
//! and λ made of masks, digits as lane masks, every table entry read, the
//! additions' exceptional cases handled by masks, not branches) and
//! `engine/codec.rs` (encoding); decoding and its subgroup check work on
//! received, public encodings.

pub(crate) mod exponents;
pub(crate) mod field_avx2;
pub(crate) mod field_ifma;

use super::cpu::{on_engine, BySet};
use super::{avx2, ifma, LaneCpu, LaneSet};
pub(crate) use ifma::bls12_381::{Coordinates, UNIFORM_LEN};

/// The points of a batch as the engine of one instruction set decoded
/// them (or a client's blinding computed them), kept beside the batch's
/// encodings (see each engine's `DecodedBatch`).
pub struct DecodedBatch(BySet<ifma::bls12_381::DecodedBatch, avx2::bls12_381::DecodedBatch>);

/// The points of the 48-byte encodings in `encoded` if every one is valid,
/// not the identity and in G1 (as `Bls12381G1::decode` requires), else
/// `None`.
pub(crate) fn decode(cpu: LaneCpu, encoded: &[u8]) -> Option<DecodedBatch> {
    match cpu.set() {
        // SAFETY: the CPU has AVX-512F, DQ and IFMA (a `LaneCpu` naming
        // this set).
        LaneSet::Ifma => unsafe { ifma::bls12_381::decode(encoded) }.map(BySet::Ifma),
        // SAFETY: the CPU has AVX2 (a `LaneCpu` naming this set).
        LaneSet::Avx2 => unsafe { avx2::bls12_381::decode(encoded) }.map(BySet::Avx2),
    }
    .map(DecodedBatch)
}

/// The affine coordinates of the first `count` points a check decoded
/// (`decoded`), so the group's one-at-a-time code takes them without
/// decoding the encodings again (a square root and a subgroup check each).
/// `None` if `decoded` holds fewer, or another set's. Public data: the
/// points of a received message.
pub(crate) fn affine_coordinates(
    cpu: LaneCpu,
    decoded: &DecodedBatch,
    count: usize,
) -> Option<Vec<Coordinates>> {
    match (cpu.set(), &decoded.0) {
        // SAFETY: the CPU has AVX-512F, DQ and IFMA (a `LaneCpu` naming
        // this set).
        (LaneSet::Ifma, BySet::Ifma(batch)) => unsafe {
            ifma::bls12_381::affine_coordinates(batch, count)
        },
        // SAFETY: the CPU has AVX2 (a `LaneCpu` naming this set).
        (LaneSet::Avx2, BySet::Avx2(batch)) => unsafe {
            avx2::bls12_381::affine_coordinates(batch, count)
        },
        _ => None,
    }
}

/// `k·X_i` encoded into `out` for every element `X_i` of a batch (`out` as
/// long as its encodings `encoded`), given the little-endian bytes of the
/// secret key `k < r`, constant time in the key. The points are those of
/// `decoded` where it holds them, the others decoded from `encoded`.
/// `false` when an encoding is invalid (the caller then uses the portable
/// method).
pub(crate) fn mul_by_key(
    cpu: LaneCpu,
    key: &[u8; 32],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    on_engine!(cpu, bls12_381, engine, batch <- decoded.map(|d| &d.0), engine::mul_by_key(key, encoded, batch, out))
}

/// As [`mul_by_key`], each element `X_i` with its own secret `s_i < r`
/// (little-endian bytes) in `scalars` (a client's unblinding).
pub(crate) fn mul_each(
    cpu: LaneCpu,
    scalars: &[[u8; 32]],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    on_engine!(cpu, bls12_381, engine, batch <- decoded.map(|d| &d.0), engine::mul_each(scalars, encoded, batch, out))
}

/// `Σ d_i·P_i` as affine coordinates and whether it is the identity (1,
/// coordinates zero) for the encoded points `encoded` and secret scalars
/// `d_i < 2^bits` (`bits ≤ 256`) given as little-endian bytes, constant
/// time in the `d_i`; `None` when an encoding is invalid or the lengths
/// disagree (the caller then uses the portable method). The points may be
/// given decoded (`decoded`: a check kept them).
pub(crate) fn msm_ct(
    cpu: LaneCpu,
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    scalars: &[&[u8]],
    bits: usize,
) -> Option<zeroize::Zeroizing<(Coordinates, u8)>> {
    on_engine!(cpu, bls12_381, engine, batch <- decoded.map(|d| &d.0), engine::msm_ct(encoded, batch, scalars, bits))
}

/// `s_i·H_i` encoded into `out` (48 bytes per input), for `H_i` the point
/// RFC 9380's `BLS12381G1_XMD:SHA-256_SSWU_RO_` gives the 128 bytes
/// `expand_message_xmd` made of input `i` (`uniform[i]`) and the secret
/// `s_i < r` (little-endian bytes; a client's blinding), constant time in
/// both. `None` if the lengths disagree, `Some(None)` if some `H_i` is the
/// identity, else the blinded points for later use.
pub(crate) fn hash_mul_encode(
    cpu: LaneCpu,
    uniform: &[[u8; UNIFORM_LEN]],
    scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Option<Option<DecodedBatch>> {
    let blinded = match cpu.set() {
        // SAFETY: the CPU has AVX-512F, DQ and IFMA (a `LaneCpu` naming
        // this set).
        LaneSet::Ifma => unsafe { ifma::bls12_381::hash_mul_encode(uniform, scalars, out) }
            .map(|b| b.map(BySet::Ifma)),
        // SAFETY: the CPU has AVX2 (a `LaneCpu` naming this set).
        LaneSet::Avx2 => unsafe { avx2::bls12_381::hash_mul_encode(uniform, scalars, out) }
            .map(|b| b.map(BySet::Avx2)),
    };
    blinded.map(|b| b.map(DecodedBatch))
}
