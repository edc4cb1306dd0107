//! Scalar multiplication of whole batches on BLS12-381 G1, 8 elements per
//! vector, with the GLV endomorphism, the products encoded with one
//! inversion per pass of about 256 elements (`toolkit::passes`): the
//! server's evaluation (multiply the decoded elements by the key) and the
//! client's unblinding (each element by its blind's inverse).
//!
//! GLV. `σ(x, y) = (βx, y)` multiplies the points of G1 by `λ = u² − 1`
//! (`λ² + λ + 1 = r`). A scalar `k < r` splits as `k = k₁ + k₂·λ` with
//! `k₁ = k mod λ < 2^128` and `k₂ = k div λ ≤ λ + 1 < 2^128` ([`split`]:
//! a long division by the public λ whose steps are masks, so constant time
//! in k), and `k·P = k₁·P + k₂·σ(P)`: 128 doublings shared by two tables,
//! `1·P .. 8·P` and their images by σ (8 multiplications by β).
//!
//! Constant time in the scalars (key, blinds' inverses): each half's
//! signed radix-16 digits (`[-8, 8]`, `toolkit::per_lane_digits`) are read
//! in a fixed order and become lane masks by vector comparisons that scan
//! every entry of the table (`toolkit::select`); whether the running sum
//! or the selected entry is the identity is a lane mask too, applied by
//! blends; the instruction stream depends only on the number of elements.
//! The received elements and their encodings are public; the unblinded
//! products are secret and their buffers are wiped.
//!
//! Why the incomplete additions are right here (`point.rs`). Before the
//! additions at digit position `j`, the sum is `a·P + b·λP` for the
//! integers `a = 16·v₁`, `b = 16·v₂` (`v` the value of the digits above
//! `j`), and it meets `±d·P` or `±d·λP` (`|d| ≤ 8`) only if `(a ∓ d) +
//! (b)·λ ≡ 0` or `a + (b ∓ d)·λ ≡ 0 (mod r)`. A non-zero `(x, y)` with
//! `x + y·λ ≡ 0` has `x² − xy + y² ≥ r` (its norm in `Z[ω]` is a non-zero
//! multiple of r), so `max(|x|, |y|) ≥ √(r/3) > 2^126`; for `j ≥ 1`, `|a|,
//! |b| ≤ 2^124 + 16`, so the operands are equal or opposite only when
//! both are zero, which the identity masks handle, and the sum is never
//! the identity by cancellation. At `j = 0` they can be (`k = λ² + 1`:
//! `k₁ = 1`, `k₂ = λ`, whose digits make the sum `(λ + 1)·λP = −P`
//! before it meets `P`): those two additions are
//! [`Jacobian8::add_mixed_or_double`], and the identity a cancellation
//! leaves (`Z = 0`) is read from Z before the second one and at the end.
//! The table's additions `k·P + P` (`k` from 2 to 7) never meet equal or
//! opposite operands (P has order r).

use core::arch::x86_64::*;

use super::codec::{decode_each, encode_affine, ENCODING_LEN, GENERATOR_ENCODING};
use super::field::Fp8;
use super::map::{hash_to_curve, UNIFORM_LEN};
use super::point::{Affine8, Jacobian8};
use crate::group::lanes::field::invert_all;
use crate::group::lanes::toolkit::{
    broadcast_digits, in_pairs, lanes_of, passes, per_lane_digits, select, wipe, LANES,
};
use zeroize::Zeroizing;

/// `λ = u² − 1`, the eigenvalue of σ on G1.
const LAMBDA: u128 = 0xac45a4010001a40200000000ffffffff;

/// Bits of each GLV half.
const HALF_BITS: usize = 128;

/// Vectors of 8 points whose tables share one inversion, and whose
/// encodings another (up to an eighth more: `toolkit::passes`).
const VECTORS_PER_INVERSION: usize = 32;

/// The affine multiples `1·P .. 8·P` of 8 points, and their images by σ.
type Tables = [[Affine8; 8]; 2];

/// The two halves `(k mod λ, k div λ)` of a scalar `k < r` given as 32
/// little-endian bytes, each as 16 little-endian bytes (wiped on drop):
/// 256 steps of a long division whose every step is the same masked
/// subtraction, constant time in k.
pub(super) fn split(k: &[u8; 32]) -> Zeroizing<[[u8; 16]; 2]> {
    let words = Zeroizing::new([
        u128::from_le_bytes(k[..16].try_into().expect("16 bytes")),
        u128::from_le_bytes(k[16..].try_into().expect("16 bytes")),
    ]);
    let (mut remainder, mut quotient) = (0u128, 0u128);
    for i in (0..256).rev() {
        let bit = (words[i / 128] >> (i % 128)) & 1;
        // The remainder, below λ < 2^128, doubled: its 129th bit is `top`.
        let top = remainder >> 127;
        let doubled = (remainder << 1) | bit;
        let (difference, borrow) = doubled.overflowing_sub(LAMBDA);
        let take = top | u128::from(!borrow);
        let mask = take.wrapping_neg();
        remainder = (difference & mask) | (doubled & !mask);
        quotient = (quotient << 1) | take;
    }
    Zeroizing::new([remainder.to_le_bytes(), quotient.to_le_bytes()])
}

/// [`split`] of each scalar: the first halves, then the second halves.
fn split_each(scalars: &[[u8; 32]]) -> [Zeroizing<Vec<[u8; 16]>>; 2] {
    let mut halves = [
        Zeroizing::new(Vec::with_capacity(scalars.len())),
        Zeroizing::new(Vec::with_capacity(scalars.len())),
    ];
    for scalar in scalars {
        let [first, second] = *split(scalar);
        halves[0].push(first);
        halves[1].push(second);
    }
    halves
}

/// The points of up to 8 encodings if every one is valid (padding lanes:
/// the generator).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn decode_vector(chunk: &[u8]) -> Option<Affine8> {
    let [point] = decode_chunks([chunk]);
    point
}

/// The points of `N` chunks of up to 8 encodings, if every one is valid
/// (padding lanes: the generator), their square roots side by side.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn decode_chunks<const N: usize>(chunks: [&[u8]; N]) -> [Option<Affine8>; N] {
    let lanes = chunks.map(|chunk| lanes_of(chunk, &GENERATOR_ENCODING));
    let decoded = decode_each(&lanes.map(|(encodings, _)| encodings));
    core::array::from_fn(|i| {
        let ((point, valid), (_, used)) = (decoded[i], lanes[i]);
        (valid & used == used).then_some(point)
    })
}

/// The points of the encodings in `encoded`, 8 per vector (`None`: a
/// vector holds an invalid encoding), decoded two vectors at a time.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn decode_vectors(encoded: &[u8]) -> impl Iterator<Item = Option<Affine8>> + '_ {
    in_pairs(
        encoded,
        LANES * ENCODING_LEN,
        |chunk| decode_vector(chunk),
        |first, second| decode_chunks([first, second]),
    )
}

/// The points of the 48-byte compressed encodings in `encoded` (a whole
/// number of them), 8 per vector, if every one is valid.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn decode_all(encoded: &[u8]) -> Option<Vec<Affine8>> {
    decode_vectors(encoded).collect()
}

/// `[1·P, …, 8·P]` in Jacobian coordinates.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn multiples(p: &Affine8) -> [Jacobian8; 8] {
    let mut table = [Jacobian8::from_affine(p); 8];
    table[1] = table[0].double();
    for k in 2..8 {
        table[k] = table[k - 1].add_mixed(p, 0, 0);
    }
    table
}

/// The tables of the vectors `points` ([`Tables`]), their `Z` inverted
/// with one inversion. Every lane must hold a point of G1 other than the
/// identity (padding lanes included), so that no `Z` is zero.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn affine_tables(points: &[Affine8]) -> Vec<Tables> {
    let mut jacobian: Vec<[Jacobian8; 8]> = points.iter().map(|p| multiples(p)).collect();
    let mut inverses: Vec<Fp8> = Vec::with_capacity(8 * points.len());
    for table in &jacobian {
        inverses.extend(table.iter().map(|e| e.z));
    }
    if cfg!(debug_assertions) {
        let zero = inverses.iter().fold(0, |any, z| any | z.is_zero());
        assert_eq!(zero, 0, "a table entry is the identity");
    }
    invert_all(&mut inverses);
    let tables = jacobian
        .iter()
        .zip(inverses.chunks_exact(8))
        .map(|(table, inverses)| {
            let affine: [Affine8; 8] = core::array::from_fn(|k| {
                let inverse_squared = inverses[k].square();
                Affine8 {
                    x: table[k].x.mul(&inverse_squared),
                    y: table[k].y.mul(&inverse_squared.mul(&inverses[k])),
                }
            });
            [affine, affine.map(|e| e.endomorphism())]
        })
        .collect();
    wipe(&mut jacobian);
    wipe(&mut inverses);
    tables
}

/// `Σ_j 16^j·(d₁ⱼ·P + d₂ⱼ·σ(P))` per lane for the tables of P and the two
/// halves' digits (least significant first, as many for each), and the
/// lanes where it is the identity: four doublings and two table additions
/// per digit, from the top (see the module documentation for the
/// additions' cases).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn multiply(tables: &Tables, digits: [&[[i64; LANES]]; 2]) -> (Jacobian8, __mmask8) {
    let top = digits[0].len() - 1;
    let empty = Affine8 {
        x: Fp8::zero(),
        y: Fp8::zero(),
    };
    let (first, mut acc_identity) = select(&tables[0], empty, &digits[0][top]);
    let mut acc = Jacobian8::from_affine(&first);
    let (entry, entry_identity) = select(&tables[1], empty, &digits[1][top]);
    acc = acc.add_mixed(&entry, acc_identity, entry_identity);
    acc_identity &= entry_identity;
    for position in (0..top).rev() {
        acc = acc.double_times(4);
        for (table, digits) in tables.iter().zip(digits) {
            let (entry, entry_identity) = select(table, empty, &digits[position]);
            if position == 0 {
                acc = acc.add_mixed_or_double(&entry, acc_identity, entry_identity);
                acc_identity = (acc_identity & entry_identity) | acc.z.is_zero();
            } else {
                acc = acc.add_mixed(&entry, acc_identity, entry_identity);
                acc_identity &= entry_identity;
            }
        }
    }
    (acc, acc_identity)
}

/// `s·X_i` encoded into `out` for each element `X_i` of a batch, with
/// `scalar` the little-endian bytes of the secret `s < r` (the server's
/// key). The batch's first vectors are `decoded` (those a check kept), the
/// rest decoded from `encoded`; `false` (and `out` partly written) if an
/// encoding is invalid. `out` has the length of `encoded`.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn mul_by_key(
    scalar: &[u8; 32],
    decoded: &[Affine8],
    encoded: &[u8],
    out: &mut [u8],
) -> bool {
    let halves = split(scalar);
    let digits = [
        broadcast_digits(&halves[0], HALF_BITS),
        broadcast_digits(&halves[1], HALF_BITS),
    ];
    mul_vectors(points_of(decoded, encoded), |_| digits.clone(), out, None)
}

/// As [`mul_by_key`], each element with its own secret `s_i < r` in
/// `scalars` (the client's inverses of its blinds).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn mul_each(
    scalars: &[[u8; 32]],
    decoded: &[Affine8],
    encoded: &[u8],
    out: &mut [u8],
) -> bool {
    let halves = split_each(scalars);
    let digits = |vector: usize| {
        [
            per_lane_digits(&halves[0][vector * LANES..], HALF_BITS),
            per_lane_digits(&halves[1][vector * LANES..], HALF_BITS),
        ]
    };
    mul_vectors(points_of(decoded, encoded), digits, out, None)
}

/// `s_i·H_i` encoded into `out`, with `H_i` the point RFC 9380 hashes the
/// `expand_message_xmd` output `uniform[i]` to and `s_i < r` in `scalars`
/// (a client's blinding), constant time in both; `None` if some `H_i` is
/// the identity (only that is revealed), else the products, 8 per vector
/// (public, like their encodings). `out` holds 48 bytes per input.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn hash_mul_encode(
    uniform: &[[u8; UNIFORM_LEN]],
    scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Option<Vec<Affine8>> {
    let mut hashed = Vec::with_capacity(uniform.len().div_ceil(LANES));
    let mut any_identity = 0u8;
    for chunk in uniform.chunks(LANES) {
        // Padding lanes hash zeros; their scalars are zero.
        let mut lanes = Zeroizing::new([[0u8; UNIFORM_LEN]; LANES]);
        lanes[..chunk.len()].copy_from_slice(chunk);
        let point = hash_to_curve(&lanes);
        let used = ((1u16 << chunk.len()) - 1) as u8;
        any_identity |= point.z.is_zero() & used;
        hashed.push(point);
    }
    // H(x_i) is as private as x_i: only whether one is the identity is
    // public.
    if crate::secret_marks::public_bool(any_identity != 0) {
        wipe(&mut hashed);
        return None;
    }
    // Affine coordinates with one inversion (a padding lane's Z, were it
    // zero, inverts 1 instead: its lane alone would be wrong, and it is
    // not written).
    let mut inverses: Vec<Fp8> = hashed
        .iter()
        .map(|p| p.z.select(&Fp8::one(), p.z.is_zero()))
        .collect();
    invert_all(&mut inverses);
    let mut affine: Vec<Affine8> = hashed
        .iter()
        .zip(&inverses)
        .map(|(p, inverse)| {
            let inverse_squared = inverse.square();
            Affine8 {
                x: p.x.mul(&inverse_squared),
                y: p.y.mul(&inverse_squared.mul(inverse)),
            }
        })
        .collect();
    wipe(&mut hashed);
    wipe(&mut inverses);
    let halves = split_each(scalars);
    let digits = |vector: usize| {
        [
            per_lane_digits(&halves[0][vector * LANES..], HALF_BITS),
            per_lane_digits(&halves[1][vector * LANES..], HALF_BITS),
        ]
    };
    let mut blinded = Vec::with_capacity(affine.len());
    let points = affine.iter().map(|p| Some(*p));
    let written = mul_vectors(points, digits, out, Some(&mut blinded));
    debug_assert!(written, "every hashed point is a point");
    wipe(&mut affine);
    Some(blinded)
}

/// The vectors of a batch: its first ones `decoded`, the rest decoded
/// from `encoded` (`None`: a vector holds an invalid encoding).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn points_of<'a>(
    decoded: &'a [Affine8],
    encoded: &'a [u8],
) -> impl Iterator<Item = Option<Affine8>> + 'a {
    let rest = &encoded[(decoded.len() * LANES * ENCODING_LEN).min(encoded.len())..];
    decoded.iter().map(|p| Some(*p)).chain(decode_vectors(rest))
}

/// The work of [`mul_by_key`] on the vectors `points` yields (`None`: an
/// invalid encoding), as many as `out` has room for, vector `v` multiplied
/// by the two halves' lane digits `digits(v)`; with `kept`, the products'
/// affine points are pushed there too (public ones only: a client's
/// blinded elements; a lane whose product is the identity keeps its input
/// point, so that the kept points can serve as table input again). The
/// products and their affine forms may be secret (a client's unblinded
/// elements): wiped.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
fn mul_vectors(
    mut points: impl Iterator<Item = Option<Affine8>>,
    digits: impl Fn(usize) -> [Zeroizing<Vec<[i64; LANES]>>; 2],
    out: &mut [u8],
    mut kept: Option<&mut Vec<Affine8>>,
) -> bool {
    if out.is_empty() {
        return true; // no pass, and no inversion of nothing
    }
    for (first, answers) in passes(out, LANES * ENCODING_LEN, VECTORS_PER_INVERSION) {
        let vectors = answers.len().div_ceil(LANES * ENCODING_LEN);
        let mut pass_points = Vec::with_capacity(vectors);
        for _ in 0..vectors {
            let Some(point) = points.next().flatten() else {
                wipe(&mut pass_points);
                return false;
            };
            pass_points.push(point);
        }
        let mut tables = affine_tables(&pass_points);
        wipe(&mut pass_points);
        let mut products = Vec::with_capacity(vectors);
        let mut identities = Vec::with_capacity(vectors);
        for (v, table) in tables.iter().enumerate() {
            let [first_half, second_half] = digits(first + v);
            let (product, identity) =
                multiply(table, [first_half.as_slice(), second_half.as_slice()]);
            products.push(product);
            identities.push(identity);
        }
        // An identity lane (a zero scalar) inverts 1 instead and encodes
        // as the identity.
        let mut inverses: Vec<Fp8> = products
            .iter()
            .zip(&identities)
            .map(|(p, identity)| p.z.select(&Fp8::one(), *identity))
            .collect();
        invert_all(&mut inverses);
        for (((p, inverse), (identity, answer)), table) in products
            .iter()
            .zip(&inverses)
            .zip(
                identities
                    .iter()
                    .zip(answers.chunks_mut(LANES * ENCODING_LEN)),
            )
            .zip(&tables)
        {
            let inverse_squared = inverse.square();
            let mut x = p.x.mul(&inverse_squared);
            let mut y = p.y.mul(&inverse_squared.mul(inverse));
            if let Some(kept) = kept.as_mut() {
                let input = &table[0][0];
                kept.push(Affine8 {
                    x: x.select(&input.x, *identity),
                    y: y.select(&input.y, *identity),
                });
            }
            let encodings = Zeroizing::new(encode_affine(&x, &y, *identity));
            wipe(core::slice::from_mut(&mut x));
            wipe(core::slice::from_mut(&mut y));
            for (slot, encoding) in answer.chunks_exact_mut(ENCODING_LEN).zip(encodings.iter()) {
                slot.copy_from_slice(encoding);
            }
        }
        wipe(&mut products);
        wipe(&mut inverses);
        wipe(&mut tables);
    }
    true
}
