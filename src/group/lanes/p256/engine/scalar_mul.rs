//! Scalar multiplication of whole batches on P-256, 8 elements per
//! vector, the products encoded with one inversion per pass of about 256
//! elements (`toolkit::passes`): the server's evaluation (decode the blinded elements,
//! multiply each by the key) and the client's unblinding (decode the
//! answers, multiply each by its blind's inverse; from the affine tables
//! the answer's check kept, where it ran: `mul_each_tabled`).
//!
//! Constant time in the scalars (key, blinds and their inverses) and the
//! hashed inputs (`map.rs` merges its cases by masks): each scalar's
//! signed radix-16 digits (`[-8, 8]`, straus.rs's recoding, 8 lanes
//! at once: `toolkit::per_lane_digits`) are read in a
//! fixed order; each becomes a lane mask by vector comparisons that scan
//! every entry of the table `1·P .. 8·P`; whether the running sum or the
//! selected entry is the identity (a digit of 0, or only 0 digits so far)
//! is a lane mask too, applied by blends; and the instruction stream
//! depends only on the number of elements. The received elements, their
//! validity and the encodings sent are public; the unblinded products are
//! secret and their buffers are wiped.
//!
//! Why the incomplete addition is right here (`point.rs`): for a scalar
//! `s < 2^256` with digits `d_j` and `v_j = Σ_{i ≥ j} d_i·16^(i−j)`, the
//! addition at position `j` adds `d_j·P` to `16·v_{j+1}·P`. For `j ≥ 1`,
//! `|16·v_{j+1}| ≤ s/16 + 16 < q`, so the operands are equal only if
//! `16·v_{j+1} = d_j` (both 0: the identity masks) and opposite only if
//! `v_j = 0`, which likewise needs both to be 0. At `j = 0` the operands
//! can be equal (e.g. `s = q − 2`: `16·v_1 = q − 1` and `d_0 = −1`): that
//! addition is [`Jacobian8::add_or_double`]; and opposite when `s ≡ 0 mod
//! q` with `s ≠ 0` (`s = q`), which gives `Z = 0`, the identity, and is
//! flagged as such by [`multiply`]. The table's additions `k·P + P` (`k`
//! from 2 to 7) never meet equal operands (P has order q).

use std::borrow::Cow;
use std::ops::Range;

use oblivex_macros::lane_features;

use super::chains::invert_all;
use super::codec::{decode_each, encode_affine, ENCODING_LEN, GENERATOR_ENCODING};
use super::field::Fe8;
use super::map::{hash_to_curve, UNIFORM_LEN};
use super::point::{Affine8, Jacobian8};
use super::scan::select;
use crate::group::lanes::toolkit::{
    broadcast_digits, in_pairs, lanes_of, passes, per_lane_digits, wipe, LanePoints, LANES,
};
use zeroize::Zeroizing;

/// Bits of a scalar (`q < 2^256`).
const SCALAR_BITS: usize = 256;

/// Vectors of 8 points whose tables share one inversion, and whose
/// encodings another (up to an eighth more: `toolkit::passes`).
pub(super) const VECTORS_PER_INVERSION: usize = 32;

/// The multiples `1·P .. 8·P` of 8 points.
pub(super) type Table = [Jacobian8; 8];

/// The points of up to 8 encodings if every one is valid (padding lanes:
/// the generator).
#[lane_features]
pub(super) fn decode_vector(chunk: &[u8]) -> Option<Jacobian8> {
    let [point] = decode_chunks([chunk]);
    point
}

/// [`decode_vector`] of `N` chunks, their square roots side by side
/// (`exponents::sqrt_candidate_each`).
#[lane_features]
fn decode_chunks<const N: usize>(chunks: [&[u8]; N]) -> [Option<Jacobian8>; N] {
    let lanes = chunks.map(|chunk| lanes_of(chunk, &GENERATOR_ENCODING));
    let decoded = decode_each(&lanes.map(|(encodings, _)| encodings));
    core::array::from_fn(|i| {
        let ((point, valid), (_, used)) = (decoded[i], lanes[i]);
        (valid & used == used).then_some(point)
    })
}

/// The points of the encodings in `encoded`, 8 per vector (`None`: a
/// vector holds an invalid encoding), decoded two vectors at a time.
#[lane_features]
fn decode_vectors(encoded: &[u8]) -> impl Iterator<Item = Option<Jacobian8>> + '_ {
    in_pairs(
        encoded,
        LANES * ENCODING_LEN,
        |chunk| decode_vector(chunk),
        |first, second| decode_chunks([first, second]),
    )
}

/// The points of the 33-byte SEC1 compressed encodings in `encoded` (a
/// whole number of them), 8 per vector, if every one is valid (no
/// encoding of the identity is: it has no compressed form).
#[lane_features]
pub(super) fn decode_all(encoded: &[u8]) -> Option<Vec<Jacobian8>> {
    decode_vectors(encoded).collect()
}

/// `[1·P, …, 8·P]`.
#[lane_features]
pub(super) fn multiples(p: &Jacobian8) -> Table {
    let mut table = [*p; 8];
    table[1] = p.double();
    for k in 2..8 {
        table[k] = table[k - 1].add(p, 0, 0);
    }
    table
}

impl LanePoints for Affine8 {
    type Set = super::super::Set;

    #[inline]
    unsafe fn chosen_where(&self, other: &Self, mask: u8) -> Self {
        // SAFETY: the caller's CPU has the features (trait contract).
        unsafe { self.select(other, mask) }
    }

    #[inline]
    unsafe fn negated_where(&self, mask: u8) -> Self {
        // SAFETY: the caller's CPU has the features (trait contract).
        unsafe { self.negate_where(mask) }
    }
}

/// The tables `1·P .. 8·P` of the vectors `points` in affine form, their
/// `Z` inverted with one inversion (3 multiplications each, and 4 to
/// scale). Every lane of every point must be a point other than the
/// identity (padding lanes included: decoded batches pad with the
/// generator, kept products with their input point), so that no `Z` is
/// zero: one zero would zero the shared inversion of its lane.
#[lane_features]
pub(super) fn affine_tables(points: &[Jacobian8]) -> Vec<[Affine8; 8]> {
    let mut tables: Vec<Table> = points.iter().map(|p| multiples(p)).collect();
    let mut inverses: Vec<Fe8> = Vec::with_capacity(8 * points.len());
    for table in &tables {
        inverses.extend(table.iter().map(|e| e.z));
    }
    if cfg!(debug_assertions) {
        let zero = inverses.iter().fold(0, |any, z| any | z.is_zero());
        assert_eq!(zero, 0, "a table entry is the identity");
    }
    invert_all(&mut inverses);
    let affine = tables
        .iter()
        .zip(inverses.chunks_exact(8))
        .map(|(table, inverses)| {
            core::array::from_fn(|k| {
                let inverse_squared = inverses[k].square();
                Affine8 {
                    x: table[k].x.mul(&inverse_squared),
                    y: table[k].y.mul(&inverse_squared.mul(&inverses[k])),
                }
            })
        })
        .collect();
    wipe(&mut tables);
    wipe(&mut inverses);
    affine
}

/// `Σ digits[j]·16^j · P` per lane for the affine table of `P` and the
/// digits (least significant first), and the lanes where it is the
/// identity (all digits 0, or a multiple of q): four doublings and one table addition per
/// digit, from the top (see the module documentation for the additions'
/// cases).
#[lane_features]
pub(super) fn multiply(table: &[Affine8; 8], digits: &[[i64; LANES]]) -> (Jacobian8, u8) {
    let top = digits.len() - 1;
    let empty = Affine8 {
        x: Fe8::zero(),
        y: Fe8::zero(),
    };
    let (first, mut acc_identity) = select(table, empty, &digits[top]);
    let mut acc = Jacobian8::from_affine(first.x, first.y);
    for position in (0..top).rev() {
        acc = acc.double_times(4);
        let (entry, entry_identity) = select(table, empty, &digits[position]);
        acc = if position == 0 {
            acc.add_mixed_or_double(&entry, acc_identity, entry_identity)
        } else {
            acc.add_mixed(&entry, acc_identity, entry_identity)
        };
        acc_identity &= entry_identity;
    }
    // A scalar that is a multiple of q (q itself: its last addition meets
    // opposite operands) leaves Z = 0 with non-zero digits: the identity
    // too, flagged so that no caller inverts its Z.
    (acc, acc_identity | acc.z.is_zero())
}

/// `s·X_i` encoded into `out` for each element `X_i` of a batch, with
/// `scalar` the little-endian bytes of the secret `s < 2^256` (the
/// server's key). The batch's points are `decoded` if given (a check kept
/// them), else decoded from `encoded`; `false` (and `out` partly written)
/// if an encoding is invalid. `out` has the length of `encoded`.
#[lane_features]
pub(super) fn mul_by_key(
    scalar: &[u8; 32],
    decoded: Option<&[Jacobian8]>,
    encoded: &[u8],
    out: &mut [u8],
) -> bool {
    let digits = broadcast_digits(scalar, SCALAR_BITS);
    mul_vectors(points_of(decoded, encoded), |_| digits.clone(), out, None)
}

/// As [`mul_by_key`], each element with its own secret `s_i < 2^256` in
/// `scalars` (the client's inverses of its blinds).
#[lane_features]
pub(super) fn mul_each(
    scalars: &[[u8; 32]],
    decoded: Option<&[Jacobian8]>,
    encoded: &[u8],
    out: &mut [u8],
) -> bool {
    let digits = |vector: usize| per_lane_digits(&scalars[vector * LANES..], SCALAR_BITS);
    mul_vectors(points_of(decoded, encoded), digits, out, None)
}

/// As [`mul_each`], the points given by their affine tables (`tables`,
/// one per vector, as [`affine_tables`] computes them: an answer's check
/// computed them already).
#[lane_features]
pub(super) fn mul_each_tabled(
    scalars: &[[u8; 32]],
    tables: &[[Affine8; 8]],
    out: &mut [u8],
) -> bool {
    let digits = |vector: usize| per_lane_digits(&scalars[vector * LANES..], SCALAR_BITS);
    mul_tables(
        |pass| tables.get(pass).map(Cow::Borrowed),
        digits,
        out,
        None,
    )
}

/// `s_i·H_i` encoded into `out`, with `H_i` the element RFC 9380 hashes
/// the `expand_message_xmd` output `uniform[i]` to and `s_i` in `scalars`
/// (a client's blinding), constant time in both; `None` if some `H_i` is
/// the identity (only that is revealed), else the products, 8 per vector
/// (public, like their encodings). `out` holds 33 bytes per input.
#[lane_features]
pub(super) fn hash_mul_encode(
    uniform: &[[u8; UNIFORM_LEN]],
    scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Option<Vec<Jacobian8>> {
    let mut hashed = hash_vectors(uniform)?;
    let digits = |vector: usize| per_lane_digits(&scalars[vector * LANES..], SCALAR_BITS);
    let mut blinded = Vec::with_capacity(hashed.len());
    let points = hashed.iter().map(|p| Some(*p));
    let written = mul_vectors(points, digits, out, Some(&mut blinded));
    debug_assert!(written, "every hashed point is a point");
    wipe(&mut hashed);
    // The blinded points are sent (as their encodings): public from here.
    crate::secret_marks::declassify(blinded.as_slice());
    Some(blinded)
}

/// The points `H_i` RFC 9380 hashes the `expand_message_xmd` outputs
/// `uniform` to, 8 per vector (padding lanes: the hash of zeros), constant
/// time in them; `None` (the points wiped) if some `H_i` is the identity,
/// which is all that is revealed. They are as secret as the inputs: the
/// caller wipes them.
#[lane_features]
pub(super) fn hash_vectors(uniform: &[[u8; UNIFORM_LEN]]) -> Option<Vec<Jacobian8>> {
    let mut hashed = Vec::with_capacity(uniform.len().div_ceil(LANES));
    let mut any_identity = 0u8;
    for chunk in uniform.chunks(LANES) {
        // Padding lanes hash zeros.
        let mut lanes = Zeroizing::new([[0u8; UNIFORM_LEN]; LANES]);
        lanes[..chunk.len()].copy_from_slice(chunk);
        let point = hash_to_curve(&lanes);
        let used = (1u16 << chunk.len()) - 1;
        any_identity |= point.z.is_zero() & used as u8;
        hashed.push(point);
    }
    // H(x_i) is as private as x_i: only whether one is the identity is
    // public.
    if crate::secret_marks::public_bool(any_identity != 0) {
        wipe(&mut hashed);
        return None;
    }
    Some(hashed)
}

/// The vectors of a batch: `decoded` (all of them when given), else
/// decoded from `encoded` (`None`: a vector holds an invalid encoding).
/// An iterator on the stack, not boxed: the decoder's pairs hold
/// uninitialized bytes where an odd batch ends, and a heap block would
/// carry them (whatever earlier work left on the stack) to the allocator.
#[lane_features]
pub(super) fn points_of<'a>(
    decoded: Option<&'a [Jacobian8]>,
    encoded: &'a [u8],
) -> impl Iterator<Item = Option<Jacobian8>> + 'a {
    let (vectors, rest) = match decoded {
        Some(vectors) => (vectors, &encoded[..0]),
        None => (&[][..], encoded),
    };
    vectors.iter().map(|p| Some(*p)).chain(decode_vectors(rest))
}

/// The work of [`mul_by_key`] on the vectors `points` yields (`None`: an
/// invalid encoding), as many as `out` has room for, vector `v` multiplied
/// by the lane digits `digits(v)`; with `kept`, the products are pushed
/// there too (public ones only: a client's blinded elements; a lane whose
/// product is the identity keeps its input point). The
/// products and their affine forms may be secret (a client's unblinded
/// elements): wiped.
#[lane_features]
fn mul_vectors(
    mut points: impl Iterator<Item = Option<Jacobian8>>,
    digits: impl Fn(usize) -> Zeroizing<Vec<[i64; LANES]>>,
    out: &mut [u8],
    kept: Option<&mut Vec<Jacobian8>>,
) -> bool {
    let pass_tables = |pass: Range<usize>| {
        let mut pass_points = Vec::with_capacity(pass.len());
        for _ in pass {
            let Some(point) = points.next().flatten() else {
                wipe(&mut pass_points);
                return None;
            };
            pass_points.push(point);
        }
        let tables = affine_tables(&pass_points);
        wipe(&mut pass_points);
        Some(Cow::Owned(tables))
    };
    mul_tables(pass_tables, digits, out, kept)
}

/// The work of [`mul_vectors`] given the affine tables of each pass's
/// vectors (`pass_tables`, `None`: an invalid encoding). Tables it is
/// handed over (`Cow::Owned`) may be of secret points: wiped.
#[lane_features]
fn mul_tables<'t>(
    mut pass_tables: impl FnMut(Range<usize>) -> Option<Cow<'t, [[Affine8; 8]]>>,
    digits: impl Fn(usize) -> Zeroizing<Vec<[i64; LANES]>>,
    out: &mut [u8],
    mut kept: Option<&mut Vec<Jacobian8>>,
) -> bool {
    for (first, answers) in passes(out, LANES * ENCODING_LEN, VECTORS_PER_INVERSION) {
        let vectors = answers.len().div_ceil(LANES * ENCODING_LEN);
        let Some(mut tables) = pass_tables(first..first + vectors) else {
            return false;
        };
        let mut products = Vec::with_capacity(vectors);
        let mut identities = Vec::with_capacity(vectors);
        for (v, table) in tables.iter().enumerate() {
            let (product, identity) = multiply(table, &digits(first + v));
            if let Some(kept) = kept.as_mut() {
                // A zero scalar's lane (padding) keeps its input point
                // instead of the identity, so that the kept points can
                // serve as `affine_tables` input again.
                let input = Jacobian8::from_affine(table[0].x, table[0].y);
                kept.push(product.select(&input, identity));
            }
            products.push(product);
            identities.push(identity);
        }
        encode_products(&mut products, &identities, answers);
        if let Cow::Owned(tables) = &mut tables {
            wipe(tables);
        }
    }
    true
}

/// The compressed encodings of a pass's `products` (one inversion for all
/// of them) written over `answers` (8 per vector, up to its length), the
/// lanes of `identities` encoded as zeros (a zero scalar: padding). The
/// products may be secret (a client's unblinded elements): they are wiped,
/// and so is everything computed from them.
#[lane_features]
pub(super) fn encode_products(products: &mut [Jacobian8], identities: &[u8], answers: &mut [u8]) {
    // An identity lane inverts 1 instead.
    let mut inverses: Vec<Fe8> = products
        .iter()
        .zip(identities)
        .map(|(p, identity)| p.z.select(&Fe8::one(), *identity))
        .collect();
    invert_all(&mut inverses);
    for ((p, inverse), (identity, answer)) in products.iter().zip(&inverses).zip(
        identities
            .iter()
            .zip(answers.chunks_mut(LANES * ENCODING_LEN)),
    ) {
        let inverse_squared = inverse.square();
        let mut x = p.x.mul(&inverse_squared);
        let mut y = p.y.mul(&inverse_squared.mul(inverse));
        let encodings = Zeroizing::new(encode_affine(&x, &y, *identity));
        wipe(core::slice::from_mut(&mut x));
        wipe(core::slice::from_mut(&mut y));
        for (slot, encoding) in answer.chunks_exact_mut(ENCODING_LEN).zip(encodings.iter()) {
            slot.copy_from_slice(encoding);
        }
    }
    wipe(products);
    wipe(&mut inverses);
}
