//! Multiples of one fixed public point `P`, 8 secret scalars at once, and
//! their sums with a batch's points: `X_i + s_i·P`, the committed-key
//! client's additive blinding (`H(x_i) + r_i·B`) and unblinding
//! (`Y_i + (−r_i)·C`, docs/PROTOCOLS.md §3).
//!
//! Why: `P` is known ahead, so its multiples `(1..8)·16^j·P` are computed
//! once ([`FixedBase`]) and a product costs one table addition per signed
//! radix-16 digit and no doubling: 65 mixed additions and masked scans
//! per vector, against 64 of each plus 256 doublings for a point met once
//! (`scalar_mul::multiply`).
//!
//! Every lane reads the same tables (each entry holds its point in all 8
//! lanes), the digit of its own scalar selecting by lane masks, so the
//! scan and the additions are those of `scalar_mul.rs`: constant time in
//! the scalars and in the batch's points.
//!
//! Why the incomplete mixed addition is right here: with the digits `d_i`
//! of `s < q` (least significant first), the addition at position `j`
//! adds `d_j·16^j·P` to `Σ_{i<j} d_i·16^i·P`, whose multiplier is below
//! `16^j` in absolute value (`|d_i| ≤ 8`) and is 0 only if all those
//! digits are (a digit of 8 or −8 is not a multiple of 16). Up to `j =
//! 63`, `16^j + 8·16^j < q`, so the operands are equal or opposite only
//! when both are the identity, which the masks handle. At `j = 64` the
//! digit is 0 or 1 and the addition adds `2^256·P`; with `c = 2^256 − q`
//! (about `2^224`) and `m = s − 2^256` the lower sum's multiplier, the
//! operands are equal only if `m` is `c` or `c − q`, opposite only if it
//! is `−c` or `q − c`. `m = c` and `m = q − c` make `s` exceed `q`, `m =
//! −c` makes `s = q`, and `m = c − q` makes `s = 2c`, about `2^225`, whose
//! top digit is 0, not 1. Scalars are below `q`: none of these occurs.

use oblivex_macros::lane_features;

use super::codec::ENCODING_LEN;
use super::coordinates::Coordinates;
use super::field::Fe8;
use super::map::UNIFORM_LEN;
use super::point::{Affine8, Jacobian8};
use super::scalar_mul::{
    affine_tables, encode_products, hash_vectors, points_of, VECTORS_PER_INVERSION,
};
use super::scan::select;
use crate::group::lanes::toolkit::{passes, per_lane_digits, wipe, LANES};
use crate::group::straus::digit_count;

/// Bits of a scalar (`q < 2^256`).
const SCALAR_BITS: usize = 256;

/// The tables of one public point `P`: for each signed radix-16 digit
/// position `j` of a 256-bit scalar, `(k+1)·16^j·P` for `k` in `0..8`, in
/// affine coordinates and in every lane. 65 × 8 entries, about 330 KB on
/// IFMA and 600 KB on AVX2.
pub(crate) struct FixedBase {
    tables: Vec<[Affine8; 8]>,
}

impl FixedBase {
    /// The tables of the point of affine coordinates `xy` (on the curve,
    /// not the identity). Public work: `P` is public.
    #[lane_features]
    pub(super) fn new(xy: &Coordinates) -> FixedBase {
        let positions = digit_count(SCALAR_BITS);
        let coordinate = |at: usize| -> [u8; 32] { xy[at..at + 32].try_into().expect("32 bytes") };
        let point = Jacobian8::from_affine(
            Fe8::from_be_bytes_each(&[coordinate(0); LANES]),
            Fe8::from_be_bytes_each(&[coordinate(32); LANES]),
        );
        // Lane `l` of vector `v` holds `16^(8v + l)·P` (the lanes past the
        // last position keep `P`): then one `affine_tables` call computes
        // 8 positions' multiples per vector, with one inversion in all.
        let mut powers = vec![point; positions.div_ceil(LANES)];
        let mut power = point;
        for j in 0..positions {
            powers[j / LANES] = powers[j / LANES].select(&power, 1 << (j % LANES));
            power = power.double_times(4);
        }
        let by_lane = affine_tables(&powers);
        // Each position's multiples, from its lane into every lane.
        let mut tables = vec![
            [Affine8 {
                x: Fe8::zero(),
                y: Fe8::zero()
            }; 8];
            positions
        ];
        for (v, table) in by_lane.iter().enumerate() {
            for (k, entry) in table.iter().enumerate() {
                let (x, y) = (entry.x.be_bytes_each(), entry.y.be_bytes_each());
                for lane in 0..LANES {
                    if let Some(position) = tables.get_mut(v * LANES + lane) {
                        position[k] = Affine8 {
                            x: Fe8::from_be_bytes_each(&[x[lane]; LANES]),
                            y: Fe8::from_be_bytes_each(&[y[lane]; LANES]),
                        };
                    }
                }
            }
        }
        FixedBase { tables }
    }

    /// `s_l·P` in each lane `l` for the signed digits `digits` of the
    /// secret `s_l < q` (`toolkit::per_lane_digits`), and the lanes where
    /// it is the identity (`s_l = 0`): one masked scan and one mixed
    /// addition per digit (the module documentation says why the
    /// incomplete addition is right).
    #[lane_features]
    fn multiply(&self, digits: &[[i64; LANES]]) -> (Jacobian8, u8) {
        debug_assert_eq!(digits.len(), self.tables.len());
        let empty = Affine8 {
            x: Fe8::zero(),
            y: Fe8::zero(),
        };
        let (first, mut acc_identity) = select(&self.tables[0], empty, &digits[0]);
        let mut acc = Jacobian8::from_affine(first.x, first.y);
        for (table, digits) in self.tables.iter().zip(digits).skip(1) {
            let (entry, entry_identity) = select(table, empty, digits);
            acc = acc.add_mixed(&entry, acc_identity, entry_identity);
            acc_identity &= entry_identity;
        }
        (acc, acc_identity)
    }
}

/// `X_i + s_i·P` encoded into `out` for the points `X_i` that `points`
/// yields (8 per vector; `None`: an invalid encoding) and the secret
/// `s_i < q` (`scalars`, little-endian; lanes past them: 0), with
/// `base` the tables of `P`. Returns the sums, 8 per vector, and whether
/// some sum in `out` is the identity (encoded as zeros), or `None` (and
/// `out` partly written) for an invalid encoding. Constant time in the
/// scalars and points; every lane of every `X_i` must be a point other
/// than the identity. The sums may be secret (an unblinded element): the
/// caller wipes them, and they are not returned unless `keep`.
#[lane_features]
pub(super) fn offset_vectors(
    mut points: impl Iterator<Item = Option<Jacobian8>>,
    base: &FixedBase,
    scalars: &[[u8; 32]],
    out: &mut [u8],
    keep: bool,
) -> Option<(Vec<Jacobian8>, bool)> {
    let mut kept = Vec::new();
    let mut any_identity = 0u8;
    for (first, answers) in passes(out, LANES * ENCODING_LEN, VECTORS_PER_INVERSION) {
        let vectors = answers.len().div_ceil(LANES * ENCODING_LEN);
        let mut sums = Vec::with_capacity(vectors);
        let mut identities = Vec::with_capacity(vectors);
        for v in first..first + vectors {
            let Some(mut point) = points.next().flatten() else {
                wipe(&mut sums);
                return None;
            };
            let used = scalars.len().saturating_sub(v * LANES).min(LANES);
            let digits = per_lane_digits(&scalars[v * LANES..v * LANES + used], SCALAR_BITS);
            let (mut multiple, multiple_identity) = base.multiply(&digits);
            // `X + s·P` meets equal operands only where `X = s·P`: a
            // doubling then, in those lanes (masks, not a branch).
            let mut sum = point.add_or_double(&multiple, 0, multiple_identity);
            let identity = sum.z.is_zero();
            any_identity |= identity & ((1u16 << used) - 1) as u8;
            sums.push(sum);
            identities.push(identity);
            // `H(x_i)`, `s_i·P` and the sum may be secret: the stack's
            // copies wiped too.
            for copy in [&mut point, &mut multiple, &mut sum] {
                wipe(core::slice::from_mut(copy));
            }
        }
        if keep {
            kept.extend_from_slice(&sums);
        }
        encode_products(&mut sums, &identities, answers);
    }
    Some((kept, any_identity != 0))
}

/// `H_i + s_i·P` encoded into `out`, with `H_i` the element RFC 9380
/// hashes the `expand_message_xmd` output `uniform[i]` to and `s_i` the
/// secret `scalars[i] < q` (the committed-key client's blinding, `P` its
/// generator): `None` if some `H_i` is the identity, else the sums, 8 per
/// vector (public, as their encodings are), and whether one of them is the
/// identity (encoded as zeros: the caller blinds again). Constant time in
/// the inputs and scalars; only those two facts are revealed.
#[lane_features]
pub(super) fn hash_offset_encode(
    uniform: &[[u8; UNIFORM_LEN]],
    base: &FixedBase,
    scalars: &[[u8; 32]],
    out: &mut [u8],
) -> Option<(Vec<Jacobian8>, bool)> {
    let mut hashed = hash_vectors(uniform)?;
    let points = hashed.iter().map(|p| Some(*p));
    let blinded = offset_vectors(points, base, scalars, out, true);
    wipe(&mut hashed);
    let (blinded, any_identity) = blinded.expect("every hashed point is a point");
    let any_identity = crate::secret_marks::public_bool(any_identity);
    // The blinded points are sent (as their encodings): public from here.
    crate::secret_marks::declassify(blinded.as_slice());
    Some((blinded, any_identity))
}

/// `Y_i + s_i·P` encoded into `out` (as long as `encoded`) for the
/// elements `Y_i` of a batch (the points of `decoded` when given, else
/// decoded from `encoded`) and the secret `scalars[i] < q` (the
/// committed-key client's unblinding, `P` the server's public key, `s_i`
/// the negated blinds): `false` (and `out` partly written) for an invalid
/// encoding. The sums are secret: wiped, and a sum that is the identity
/// is encoded as zeros.
#[lane_features]
pub(super) fn offset_each_encode(
    base: &FixedBase,
    scalars: &[[u8; 32]],
    decoded: Option<&[Jacobian8]>,
    encoded: &[u8],
    out: &mut [u8],
) -> bool {
    let sums = offset_vectors(points_of(decoded, encoded), base, scalars, out, false);
    sums.is_some()
}

/// The tables' points, for the tests: position `j`, multiple `k + 1`, as
/// affine coordinates (every lane holds the same).
#[cfg(test)]
#[lane_features]
pub(super) fn table_entry(base: &FixedBase, j: usize, k: usize) -> Coordinates {
    let entry = &base.tables[j][k];
    let mut xy = [0u8; 64];
    xy[..32].copy_from_slice(&entry.x.be_bytes_each()[0]);
    xy[32..].copy_from_slice(&entry.y.be_bytes_each()[0]);
    xy
}

/// Whether every entry of the tables holds the same point in all lanes,
/// for the tests.
#[cfg(test)]
#[lane_features]
pub(super) fn lanes_agree(base: &FixedBase) -> bool {
    base.tables.iter().flatten().all(|entry| {
        let (x, y) = (entry.x.be_bytes_each(), entry.y.be_bytes_each());
        x.iter().all(|lane| *lane == x[0]) && y.iter().all(|lane| *lane == y[0])
    })
}
