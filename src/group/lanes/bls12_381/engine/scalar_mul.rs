//! Scalar multiplication of whole batches on BLS12-381 G1, 8 elements per
//! vector, the products encoded with one inversion per pass of about 256
//! elements (`toolkit::passes`): the server's evaluation (multiply the
//! decoded elements by the key), the client's unblinding (each element by
//! its blind's inverse) and its blinding (each hashed input by its blind).
//!
//! Decompositions (`decompose.rs`). A decoded element comes with `Q =
//! u·P` (`u = |z|`), which its subgroup check computed on the way: a
//! scalar `k < r` splits into its base-u digits, and `k·P = c₀·P + c₁·Q +
//! c₂·σ(P) + c₃·σ(Q)` with `σ(x, y) = (βx, y)` and `c_t < 2^65`: 17 signed
//! radix-16 digits each, 64 doublings shared by four tables (`1·P ..
//! 8·P`, `1·Q .. 8·Q` and their images by σ, 8 multiplications by β each;
//! the two tables' 16 `Z` inverted with those of the pass's other vectors).
//! A hashed input has no Q (computing it would cost the doublings it
//! saves): there GLV's `k·P = k₁·P + k₂·σ(P)`, `k₁ < 2u²` and `k₂ < u²`
//! (below `2^129`), 33 digits, 128 doublings, two tables. A point kept
//! without Q (a client's own blinded element evaluated in process) gets it
//! from `codec::times_u_vartime` (public). Either way the sum runs from the top digit: four doublings,
//! then one mixed addition per table, of the entry the digit selects.
//!
//! Constant time in the scalars (key, blinds, blinds' inverses): the
//! decompositions are divisions by the public u whose corrections are
//! masks; each coefficient's signed radix-16 digits (`[-8, 8]`,
//! `toolkit::per_lane_digits`) are read in a fixed order and become lane
//! masks by vector comparisons that scan every entry of the table
//! (`scan::select`); whether the running sum or the selected entry is
//! the identity is a lane mask too, applied by blends; the instruction
//! stream depends only on the number of elements. The received elements,
//! their multiples by u and their encodings are public; the unblinded
//! products are secret and their buffers are wiped.
//!
//! Why the incomplete additions are right here (`point.rs`). Let the
//! tables' bases be `T_t = τ_t·P` (`τ = (1, u, λ, uλ)`, or `(1, λ)`) and
//! the coefficients `c_t = Σ_i d_{t,i}·16^i` (`|d_{t,i}| ≤ 8`). Before the
//! addition of table `t` at digit position `j`, the sum is `Σ_s g_s·T_s`
//! with `g_s = Σ_{i≥j} d_{s,i}·16^{i−j}` for the tables already added at
//! `j` and `g_s = 16·Σ_{i>j} d_{s,i}·16^{i−j−1}` for the others, `t`
//! included; since `|Σ_{i<j} d_{s,i}·16^i| < 16^j`, `|g_s| ≤ c_s/16^j + 9`.
//! The sum and the entry `±d·T_t` (`d ≠ 0`; `d = 0` is the identity, a
//! mask) are equal or opposite only if `Σ_s g'_s·τ_s ≡ 0 (mod r)` (P has
//! order r) for `g'` = `g` with `g_t ∓ d` in place of `g_t`, and the sum
//! is the identity by cancellation only if that holds with `g' = g`. For
//! `j ≥ 1` this forces `g' = 0`:
//! - four bases: with `λ = u² − 1`, `Σ g'_s·τ_s = f₀ + f₁u + f₂u² + f₃u³`
//!   for `f = (g'₀ − g'₂, g'₁ − g'₃, g'₂, g'₃)`. As `c₀, c₁ < 2u` and `c₂,
//!   c₃ < u`, `|f₀|, |f₁| ≤ 3u/16 + 34 < u` and `|f₂|, |f₃| ≤ u/16 + 17`, so
//!   `|Σ f_i·u^i| < u⁴/8 < r` (`r = u⁴ − u² + 1 > u⁴/2`): the sum is `0` as
//!   an integer. Then `f₀ ≡ 0 (mod u)` with `|f₀| < u` gives `f₀ = 0`, and
//!   dividing by u, in turn `f₁ = f₂ = f₃ = 0`: `g' = 0`.
//! - two bases: a non-zero `(x, y)` with `x + y·λ ≡ 0` has `x² − xy + y² ≥
//!   r` (its norm in `Z[ω]` is a non-zero multiple of r), so `max(|x|, |y|)
//!   ≥ √(r/3) > u²/2`, while `|g'_s| ≤ 2u²/16 + 17 < u²/2`.
//!
//! `g' = 0` with `g_t ∓ d` would make `g_t = ±d`, which a multiple of 16
//! is not: the operands are never equal or opposite. `g' = g = 0` is the
//! sum of no entry at all, exactly what the identity masks track (a sum
//! of signed digits is zero only if every digit is: the lowest non-zero
//! one fixes it modulo the next power of 16). At `j = 0` the bounds fail
//! (`|g_s|` up to `2u`, or `2u²`), and they do meet: `k = 2(u³ − u)` has
//! the digits `(0, u − 2, u − 1, 1)`, so `c₃ = 1` and the last addition
//! adds `σ(Q)` to `σ(Q)`; `k = 2λ` (`k₁ = λ`, `k₂ = 1`) adds `σ(P)` to
//! `λP = σ(P)` (`tests.rs` checks this argument on a model of the
//! additions, for edge and random scalars). The additions of the
//! last position are therefore [`Jacobian8::add_mixed_or_double`], and the
//! identity a cancellation leaves (`Z = 0`) is read from Z after each. The
//! tables' additions `k·T + T` (`k` from 2 to 7) never meet equal or
//! opposite operands (T has order r: P is in G1, and `u ≢ 0 (mod r)`).

use oblivex_macros::lane_features;

use super::chains::invert_all;
use super::codec::{
    decode_each, encode_affine, times_u_vartime, Decoded8, ENCODING_LEN, GENERATOR_ENCODING,
};
use super::decompose::{split, split_by_u, split_each, HALF_BITS, QUARTER_BITS};
use super::field::Fp8;
use super::map::{hash_to_curve, UNIFORM_LEN};
use super::point::{affine_of, Affine8, Jacobian8};
use super::scan::select;
use crate::group::lanes::toolkit::{
    broadcast_digits, lanes_of, passes, per_lane_digits, wipe, PlainLimbs, LANES,
};
use zeroize::Zeroizing;

/// Vectors of 8 points whose tables share one inversion, and whose
/// encodings another (up to an eighth more: `toolkit::passes`).
const VECTORS_PER_INVERSION: usize = 32;

/// The affine multiples `1·T .. 8·T` of 8 points for each of `D` bases:
/// those of the points (and of their multiples by u), then their images by
/// σ.
type Tables<const D: usize> = [[Affine8; 8]; D];

/// Points a check (or a client's blinding) kept, 8 per vector: the points,
/// and their multiples by u where a decoding computed them (as many, or
/// none).
#[derive(Clone, Copy)]
pub(super) struct Kept<'a> {
    pub(super) points: &'a [Affine8],
    pub(super) times_u: &'a [Jacobian8],
}

impl Kept<'_> {
    /// No points.
    pub(super) const NONE: Kept<'static> = Kept {
        points: &[],
        times_u: &[],
    };
}

/// The points of up to 8 encodings if every one is valid (padding lanes:
/// the generator).
#[lane_features]
pub(super) fn decode_vector(chunk: &[u8]) -> Option<Affine8> {
    let [decoded] = decode_chunks([chunk]);
    decoded.map(|decoded| decoded.point)
}

/// The points of `N` chunks of up to 8 encodings, if every one is valid
/// (padding lanes: the generator), their square roots side by side.
#[lane_features]
fn decode_chunks<const N: usize>(chunks: [&[u8]; N]) -> [Option<Decoded8>; N] {
    let lanes = chunks.map(|chunk| lanes_of(chunk, &GENERATOR_ENCODING));
    let decoded = decode_each(&lanes.map(|(encodings, _)| encodings));
    core::array::from_fn(|i| {
        let ((decoded, valid), (_, used)) = (decoded[i], lanes[i]);
        (valid & used == used).then_some(decoded)
    })
}

/// The points of the encodings in `encoded`, 8 per vector (`None`: a
/// vector holds an invalid encoding), one vector at a time: this field's
/// products are out-of-line calls, each long enough to keep the
/// multiplier busy, so two square roots side by side (`toolkit::in_pairs`,
/// which the engines of inlined 5-limb fields gain from) only moved twice
/// the state through memory.
#[lane_features]
fn decode_vectors(encoded: &[u8]) -> impl Iterator<Item = Option<Decoded8>> + '_ {
    encoded.chunks(LANES * ENCODING_LEN).map(|chunk| {
        let [decoded] = decode_chunks([chunk]);
        decoded
    })
}

/// The points of the 48-byte compressed encodings in `encoded` (a whole
/// number of them), 8 per vector, if every one is valid.
#[lane_features]
pub(super) fn decode_all(encoded: &[u8]) -> Option<Vec<Decoded8>> {
    decode_vectors(encoded).collect()
}

/// `[1·T, …, 8·T]` in Jacobian coordinates, for `T` given in Jacobian
/// coordinates and `add` the addition of T (see the module documentation
/// for why it meets no exceptional case).
#[inline]
#[lane_features]
fn multiples_with(t: &Jacobian8, add: impl Fn(&Jacobian8) -> Jacobian8) -> [Jacobian8; 8] {
    let mut table = [*t; 8];
    table[1] = t.double();
    for k in 2..8 {
        table[k] = add(&table[k - 1]);
    }
    table
}

/// `[1·P, …, 8·P]` for affine P.
#[lane_features]
fn multiples(p: &Affine8) -> [Jacobian8; 8] {
    multiples_with(&Jacobian8::from_affine(p), |acc| acc.add_mixed(p, 0, 0))
}

/// `[1·Q, …, 8·Q]` for Q in Jacobian coordinates.
#[lane_features]
fn multiples_of_jacobian(q: &Jacobian8) -> [Jacobian8; 8] {
    multiples_with(q, |acc| acc.add_incomplete(q).0)
}

/// The tables of `B` bases per point of `points` (`multiples_of` gives
/// their Jacobian multiples), affine with one inversion of every `Z`,
/// followed by their images by σ (`D = 2B` tables). Every lane must hold a
/// point of G1 other than the identity (padding lanes included), so that
/// no `Z` is zero. Each vector's `X` and `Y` wait in its table for the
/// inversion and are made affine there: a pass's tables (32 KiB per vector
/// with four) are its only large buffer, which keeps a batch's peak memory
/// low enough for the allocator to reuse it rather than fault pages in
/// anew.
#[lane_features]
fn affine_tables<T, const B: usize, const D: usize>(
    points: &[T],
    multiples_of: impl Fn(&T) -> [[Jacobian8; 8]; B],
) -> Vec<Tables<D>> {
    const { assert!(D == 2 * B, "each base and its image") };
    let empty = Affine8 {
        x: Fp8::zero(),
        y: Fp8::zero(),
    };
    let mut tables: Vec<Tables<D>> = vec![[[empty; 8]; D]; points.len()];
    let mut inverses: Vec<Fp8> = Vec::with_capacity(8 * B * points.len());
    for (point, table) in points.iter().zip(tables.iter_mut()) {
        let mut jacobian = multiples_of(point);
        for (base, entries) in jacobian.iter().zip(table.iter_mut()) {
            for (multiple, entry) in base.iter().zip(entries.iter_mut()) {
                (entry.x, entry.y) = (multiple.x, multiple.y);
                inverses.push(multiple.z);
            }
        }
        wipe(&mut jacobian);
    }
    if cfg!(debug_assertions) {
        let zero = inverses.iter().fold(0, |any, z| any | z.is_zero());
        assert_eq!(zero, 0, "a table entry is the identity");
    }
    invert_all(&mut inverses);
    for (table, inverses) in tables.iter_mut().zip(inverses.chunks_exact(8 * B)) {
        let (bases, images) = table.split_at_mut(B);
        for ((entries, image), inverses) in bases.iter_mut().zip(images).zip(inverses.chunks(8)) {
            for ((entry, image), inverse) in entries.iter_mut().zip(image).zip(inverses) {
                *entry = affine_of(&entry.x, &entry.y, inverse);
                *image = entry.endomorphism();
            }
        }
    }
    wipe(&mut inverses);
    tables
}

/// The four tables of decoded points: P, `Q = u·P`, σ(P), σ(Q).
#[lane_features]
pub(super) fn tables_with_times_u(points: &[Decoded8]) -> Vec<Tables<4>> {
    affine_tables(points, |d| {
        [multiples(&d.point), multiples_of_jacobian(&d.times_u)]
    })
}

/// The two tables of points: P and σ(P).
#[lane_features]
pub(super) fn glv_tables(points: &[Affine8]) -> Vec<Tables<2>> {
    affine_tables(points, |p| [multiples(p)])
}

/// `Σ_t Σ_j 16^j·d_{t,j}·T_t` per lane for the `D` tables of the bases `T_t`
/// and their coefficients' digits (least significant first, as many for
/// each), and the lanes where it is the identity: four doublings and `D`
/// table additions per digit, from the top (see the module documentation
/// for the additions' cases).
#[lane_features]
pub(super) fn multiply<const D: usize>(
    tables: &Tables<D>,
    digits: [&[[i64; LANES]]; D],
) -> (Jacobian8, u8) {
    let top = digits[0].len() - 1;
    let empty = Affine8 {
        x: Fp8::zero(),
        y: Fp8::zero(),
    };
    let (first, mut acc_identity) = select(&tables[0], empty, &digits[0][top]);
    let mut acc = Jacobian8::from_affine(&first);
    for (table, digits) in tables.iter().zip(digits).skip(1) {
        let (entry, entry_identity) = select(table, empty, &digits[top]);
        acc = acc.add_mixed(&entry, acc_identity, entry_identity);
        acc_identity &= entry_identity;
    }
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
/// key). The batch's first vectors are those a check `kept`, the rest
/// decoded from `encoded`; `false` (and `out` partly written) if an
/// encoding is invalid. `out` has the length of `encoded`.
#[lane_features]
pub(super) fn mul_by_key(scalar: &[u8; 32], kept: Kept, encoded: &[u8], out: &mut [u8]) -> bool {
    let coefficients = split_by_u(scalar);
    let digits: [_; 4] = core::array::from_fn(|t| broadcast_digits(&coefficients[t], QUARTER_BITS));
    mul_vectors(
        points_of(kept, encoded),
        |points| tables_with_times_u(points),
        |_| digits.clone(),
        out,
        None,
    )
}

/// As [`mul_by_key`], each element with its own secret `s_i < r` in
/// `scalars` (the client's inverses of its blinds).
#[lane_features]
pub(super) fn mul_each(scalars: &[[u8; 32]], kept: Kept, encoded: &[u8], out: &mut [u8]) -> bool {
    let coefficients = split_each(scalars, split_by_u);
    let digits = |vector: usize| -> [_; 4] {
        core::array::from_fn(|t| per_lane_digits(&coefficients[t][vector * LANES..], QUARTER_BITS))
    };
    mul_vectors(
        points_of(kept, encoded),
        |points| tables_with_times_u(points),
        digits,
        out,
        None,
    )
}

/// `s_i·H_i` encoded into `out`, with `H_i` the point RFC 9380 hashes the
/// `expand_message_xmd` output `uniform[i]` to and `s_i < r` in `scalars`
/// (a client's blinding), constant time in both; `None` if some `H_i` is
/// the identity (only that is revealed), else the products, 8 per vector
/// (public, like their encodings). `out` holds 48 bytes per input.
#[lane_features]
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
        .map(|(p, inverse)| p.affine(inverse))
        .collect();
    wipe(&mut hashed);
    wipe(&mut inverses);
    let halves = split_each(scalars, split);
    let digits = |vector: usize| -> [_; 2] {
        core::array::from_fn(|t| per_lane_digits(&halves[t][vector * LANES..], HALF_BITS))
    };
    let mut blinded = Vec::with_capacity(affine.len());
    let points = affine.iter().map(|p| Some(*p));
    let written = mul_vectors(points, |p| glv_tables(p), digits, out, Some(&mut blinded));
    debug_assert!(written, "every hashed point is a point");
    wipe(&mut affine);
    // The blinded points are sent (as their encodings): public from here.
    crate::secret_marks::declassify(blinded.as_slice());
    Some(blinded)
}

/// The vectors of a batch: its first ones those `kept` (their multiples by
/// u computed here where a blinding kept them without), the rest decoded
/// from `encoded` (`None`: a vector holds an invalid encoding).
#[lane_features]
fn points_of<'a>(kept: Kept<'a>, encoded: &'a [u8]) -> impl Iterator<Item = Option<Decoded8>> + 'a {
    let rest = &encoded[(kept.points.len() * LANES * ENCODING_LEN).min(encoded.len())..];
    let kept = kept.points.iter().enumerate().map(move |(v, point)| {
        let times_u = match kept.times_u.get(v) {
            Some(times_u) => *times_u,
            None => times_u_vartime(point),
        };
        Some(Decoded8 {
            point: *point,
            times_u,
        })
    });
    kept.chain(decode_vectors(rest))
}

/// The work of [`mul_by_key`] on the vectors `points` yields (`None`: an
/// invalid encoding), as many as `out` has room for: the `D` tables of a
/// pass's vectors made by `tables_of` (one inversion), vector `v`
/// multiplied by its coefficients' lane digits `digits(v)`; with `kept`,
/// the products' affine points are pushed there too (public ones only: a
/// client's blinded elements; a lane whose product is the identity keeps
/// its input point, so that the kept points can serve as table input
/// again). The products and their affine forms may be secret (a client's
/// unblinded elements): wiped.
#[lane_features]
fn mul_vectors<const D: usize, T: PlainLimbs>(
    mut points: impl Iterator<Item = Option<T>>,
    tables_of: impl Fn(&[T]) -> Vec<Tables<D>>,
    digits: impl Fn(usize) -> [Zeroizing<Vec<[i64; LANES]>>; D],
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
        let mut tables = tables_of(&pass_points);
        wipe(&mut pass_points);
        let mut products = Vec::with_capacity(vectors);
        let mut identities = Vec::with_capacity(vectors);
        for (v, table) in tables.iter().enumerate() {
            let digits = digits(first + v);
            let (product, identity) = multiply(table, digits.each_ref().map(|d| d.as_slice()));
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
            let mut affine = p.affine(inverse);
            if let Some(kept) = kept.as_mut() {
                let input = &table[0][0];
                kept.push(Affine8 {
                    x: affine.x.select(&input.x, *identity),
                    y: affine.y.select(&input.y, *identity),
                });
            }
            let encodings = Zeroizing::new(encode_affine(&affine.x, &affine.y, *identity));
            wipe(core::slice::from_mut(&mut affine));
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
