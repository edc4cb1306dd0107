//! P-256 arithmetic on 8 points at once, wherever the protocols handle
//! batches and RustCrypto's `p256` takes over 100 µs per element here: the
//! check of a message's encodings (SEC1 compressed decoding, the points
//! kept), the server's evaluation (multiply by the key, encode with one
//! inversion per batch), the client's hashing to the curve with its
//! blinding and its unblinding (each element its own scalar), the
//! balancer's and the check's multi-scalar multiplications and a VOPRF
//! proof's composites (`engine/msm.rs`), `mul_each` on `p256` points
//! (`engine/coordinates.rs`), and the committed-key client's additive
//! blinding and unblinding by tables of a fixed point
//! (`engine/fixed_base.rs`).
//!
//! One engine (`engine/`), compiled once per instruction set: with AVX-512
//! IFMA over `field_ifma` (radix 2^52, one zmm register per digit) as
//! `lanes::ifma::p256`, and with AVX2 over `field_avx2` (radix 2^29, two
//! ymm registers per digit) as `lanes::avx2::p256`. This module's entry
//! points run the one the `LaneCpu` names.
//!
//! Constant time in keys, blinds, inverses, the balancer's factors and
//! hashed inputs: the argument is in `engine/scalar_mul.rs` (digits as
//! lane masks, every table entry read, the additions' exceptional cases
//! handled by masks, not branches), `engine/map.rs` and `engine/msm.rs`.
//! The one variable-time operation, [`msm`] with a variable [`Timing`], takes
//! public points and scalars only (an answer's check once the coins are
//! spent, a proof's composites). valgrind runs the
//! AVX2 engine (not AVX-512); `tests/dudect_oprf.rs` times the server's
//! evaluation and the client's blinding and unblinding with sparse against
//! random scalars.

pub(crate) mod field_avx2;
pub(crate) mod field_ifma;

use super::cpu::{on_engine, BySet};
use super::{avx2, ifma, LaneCpu, LaneSet, Timing};
pub(crate) use ifma::p256::{Coordinates, UNIFORM_LEN};

/// The points of a batch as the engine of one instruction set decoded
/// them, kept beside the batch's encodings (see each engine's
/// `DecodedBatch`).
pub struct DecodedBatch(BySet<ifma::p256::DecodedBatch, avx2::p256::DecodedBatch>);

/// The points of the 33-byte encodings in `encoded` if every one is a
/// valid SEC1 compressed encoding (as `P256::decode` requires), else
/// `None`.
pub(crate) fn decode(cpu: LaneCpu, encoded: &[u8]) -> Option<DecodedBatch> {
    match cpu.set() {
        // SAFETY: the CPU has AVX-512F, DQ and IFMA (a `LaneCpu` naming
        // this set).
        LaneSet::Ifma => unsafe { ifma::p256::decode(encoded) }.map(BySet::Ifma),
        // SAFETY: the CPU has AVX2 (a `LaneCpu` naming this set).
        LaneSet::Avx2 => unsafe { avx2::p256::decode(encoded) }.map(BySet::Avx2),
    }
    .map(DecodedBatch)
}

/// `k·X_i` encoded into `out` for every element `X_i` of a batch (`out` as
/// long as its encodings `encoded`), given the little-endian bytes of the
/// secret key `k < q`, constant time in the key. The points are those of
/// `decoded` when it holds the batch, else decoded from `encoded`. `false`
/// when an encoding is invalid (the caller then uses the portable
/// method).
pub(crate) fn mul_by_key(
    cpu: LaneCpu,
    key: &[u8; 32],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    on_engine!(cpu, p256, engine, batch <- decoded.map(|d| &d.0), engine::mul_by_key(key, encoded, batch, out))
}

/// As [`mul_by_key`], each element `X_i` with its own secret `s_i < q`
/// (little-endian bytes) in `scalars` (a client's unblinding), from the
/// affine tables an answer's check kept in `decoded` where it did.
pub(crate) fn mul_each(
    cpu: LaneCpu,
    scalars: &[[u8; 32]],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    on_engine!(cpu, p256, engine, batch <- decoded.map(|d| &d.0), engine::mul_each(scalars, encoded, batch, out))
}

/// `s_i·H_i` encoded into `out` (33 bytes per input), for `H_i` the
/// element RFC 9380's `P256_XMD:SHA-256_SSWU_RO_` gives the 96 bytes
/// `expand_message_xmd` made of input `i` (`uniform[i]`) and the secret
/// `s_i < q` (little-endian bytes; a client's blinding), constant time in
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
        LaneSet::Ifma => unsafe { ifma::p256::hash_mul_encode(uniform, scalars, out) }
            .map(|b| b.map(BySet::Ifma)),
        // SAFETY: the CPU has AVX2 (a `LaneCpu` naming this set).
        LaneSet::Avx2 => unsafe { avx2::p256::hash_mul_encode(uniform, scalars, out) }
            .map(|b| b.map(BySet::Avx2)),
    };
    blinded.map(|b| b.map(DecodedBatch))
}

/// The tables of one public point `P` (not the identity) for
/// [`hash_offset_encode`] and [`offset_each`], as one instruction set's
/// engine computed them: the multiples `(1..8)·16^j·P`, so that a product
/// by `P` needs no doubling (`engine/fixed_base.rs`).
pub struct FixedBase(BySet<ifma::p256::FixedBase, avx2::p256::FixedBase>);

/// The tables of the point of affine coordinates `xy` (on the curve, not
/// the identity: a public key or the generator).
pub(crate) fn fixed_base(cpu: LaneCpu, xy: &Coordinates) -> FixedBase {
    FixedBase(match cpu.set() {
        // SAFETY: the CPU has AVX-512F, DQ and IFMA (a `LaneCpu` naming
        // this set).
        LaneSet::Ifma => BySet::Ifma(unsafe { ifma::p256::fixed_base(xy) }),
        // SAFETY: the CPU has AVX2 (a `LaneCpu` naming this set).
        LaneSet::Avx2 => BySet::Avx2(unsafe { avx2::p256::fixed_base(xy) }),
    })
}

/// `H_i + s_i·P` encoded into `out` (33 bytes per input), for `H_i` the
/// element RFC 9380's `P256_XMD:SHA-256_SSWU_RO_` gives the 96 bytes
/// `expand_message_xmd` made of input `i` (`uniform[i]`), `P` the point
/// of `base` and the secret `s_i < q` (little-endian bytes; the
/// committed-key client's additive blinding), constant time in the
/// inputs and scalars. `None` if the lengths disagree or `base` is
/// another set's, `Some(None)` if some `H_i` is the identity, else the
/// sums for later use and whether one of them is the identity (the
/// caller then blinds again).
pub(crate) fn hash_offset_encode(
    cpu: LaneCpu,
    uniform: &[[u8; UNIFORM_LEN]],
    base: &FixedBase,
    scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Option<Option<(DecodedBatch, bool)>> {
    let blinded = match (cpu.set(), &base.0) {
        (LaneSet::Ifma, BySet::Ifma(base)) => {
            // SAFETY: the CPU has AVX-512F, DQ and IFMA (a `LaneCpu`
            // naming this set).
            let blinded = unsafe { ifma::p256::hash_offset_encode(uniform, base, scalars, out) };
            blinded?.map(|(b, any_identity)| (BySet::Ifma(b), any_identity))
        }
        (LaneSet::Avx2, BySet::Avx2(base)) => {
            // SAFETY: the CPU has AVX2 (a `LaneCpu` naming this set).
            let blinded = unsafe { avx2::p256::hash_offset_encode(uniform, base, scalars, out) };
            blinded?.map(|(b, any_identity)| (BySet::Avx2(b), any_identity))
        }
        _ => return None,
    };
    Some(blinded.map(|(b, any_identity)| (DecodedBatch(b), any_identity)))
}

/// `Y_i + s_i·P` encoded into `out` (as long as `encoded`) for every
/// element `Y_i` of a batch, `P` the point of `base` and the secret `s_i
/// < q` (little-endian bytes; the committed-key client's unblinding, with
/// the negated blinds and the server's public key), constant time in the
/// scalars and elements. The points are those of `decoded` when it holds
/// the batch, else decoded from `encoded`. `false` when an encoding is
/// invalid or `base` is another set's (the caller then uses the portable
/// method).
pub(crate) fn offset_each(
    cpu: LaneCpu,
    base: &FixedBase,
    scalars: &[[u8; 32]],
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    out: &mut [u8],
) -> bool {
    let decoded = decoded.map(|d| &d.0);
    match (cpu.set(), &base.0) {
        // SAFETY: the CPU has AVX-512F, DQ and IFMA (a `LaneCpu` naming
        // this set).
        (LaneSet::Ifma, BySet::Ifma(base)) => unsafe {
            ifma::p256::offset_each(base, scalars, encoded, BySet::ifma(decoded), out)
        },
        // SAFETY: the CPU has AVX2 (a `LaneCpu` naming this set).
        (LaneSet::Avx2, BySet::Avx2(base)) => unsafe {
            avx2::p256::offset_each(base, scalars, encoded, BySet::avx2(decoded), out)
        },
        _ => false,
    }
}

/// `Σ d_i·P_i` as affine coordinates and whether it is the identity (1,
/// coordinates zero) for the encoded points `encoded` and scalars `d_i <
/// 2^bits` given as little-endian bytes; `None` when an encoding is
/// invalid (the caller then uses the portable method). The points may be
/// given decoded (`decoded`: a check kept them, or the client computed
/// them). [`Timing::Constant`]: constant time in the `d_i` (the balancer's
/// secret short factors). [`Timing::Variable`], for public points and
/// scalars (a proof's composites): faster (incomplete additions of affine
/// table entries), variable time where a server's points make two partial
/// sums meet. [`Timing::VariableThenUnblind`] (a client's check of an
/// answer once its coins are spent): the same, the affine tables of
/// `decoded`'s points kept in it for the [`mul_each`] that follows.
pub(crate) fn msm(
    cpu: LaneCpu,
    timing: Timing,
    encoded: &[u8],
    decoded: Option<&DecodedBatch>,
    scalars: &[&[u8]],
    bits: usize,
) -> Option<zeroize::Zeroizing<(Coordinates, u8)>> {
    on_engine!(cpu, p256, engine, batch <- decoded.map(|d| &d.0), engine::msm(timing, encoded, batch, scalars, bits))
}

/// `s_i·P_i` for points given by their affine coordinates (`identity`: a
/// bit per point, set where it is the identity) and secret scalars `s_i <
/// q` (little-endian bytes), constant time in both: each product's
/// coordinates and whether it is the identity (1, coordinates zero) or
/// not (0). `None` if the lengths disagree.
pub(crate) fn mul_each_coordinates(
    cpu: LaneCpu,
    scalars: &[[u8; 32]],
    points: &[Coordinates],
    identity: &[u8],
) -> Option<zeroize::Zeroizing<Vec<(Coordinates, u8)>>> {
    on_engine!(
        cpu,
        p256,
        engine,
        engine::mul_each_coordinates(scalars, points, identity)
    )
}
