//! One P-256 element's scalar multiplication `s·P`, constant time in `s`
//! and `P`, on this crate's field (`field.rs`), not `p256`'s points:
//! Jacobian coordinates `(X : Y : Z)` for `(X/Z², Y/Z³)` with the fast
//! incomplete formulas for `a = −3` (doubling `dbl-2001-b` with `Z3 =
//! 2·Y·Z` as a product, 4M + 4S; addition `add-2007-bl` with the table
//! entry's `Z²` and `Z³` kept, 11M + 3S; the table built by
//! `madd-2007-bl` from the affine input, with `Z3 = 2·Z1·H`, 8M + 3S),
//! where `p256`'s complete projective formulas cost 12M and 29 additions
//! per addition and 8M + 3S and 21 additions per doubling. 1.5 times
//! faster than `p256`'s multiplication on x86-64 (PERFORMANCE.md, "One
//! element in Jacobian coordinates").
//! It serves every one-element product of the suite: the portable
//! backend's, and the few elements past the 8-lane engines' last vector
//! (a checked batch's balancer element on AVX2).
//!
//! The scalar is read as signed radix-16 digits (`straus::signed_digits`)
//! from the top: four doublings, then the addition of the table entry
//! `|d|·P` (negated for `d < 0`), read by a scan of the whole table
//! `1·P .. 8·P`. Where the formulas are not exact is decided by masks,
//! never branches, as in the lane engine (`lanes/p256/engine/
//! scalar_mul.rs`, whose argument this follows): an operand that is the
//! identity (a zero digit, or only zero digits so far) is a mask, and the
//! operands can be equal only at the last addition (e.g. `s = q − 2`),
//! which also computes the doubling and takes it there. The scalar is
//! below q, so the operands are never opposite with a non-zero sum.

use p256::ProjectivePoint;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

use super::coordinates::{coordinates_of, point_of_coordinates, write_compressed};
use super::field::Fe as FieldElement;
use super::{le_bytes, Scalar};
use crate::group::straus::{sign_and_magnitude, signed_digits};

/// Bits of a scalar (`q < 2^256`).
const SCALAR_BITS: usize = 256;

/// A point in Jacobian coordinates (the identity has `Z = 0`).
#[derive(Clone, Copy, Default)]
struct Jacobian {
    x: FieldElement,
    y: FieldElement,
    z: FieldElement,
}

/// A table entry: a point with its `Z²` and `Z³`, which every addition
/// of it would otherwise compute again.
#[derive(Clone, Copy, Default)]
struct Entry {
    point: Jacobian,
    zz: FieldElement,
    zzz: FieldElement,
}

/// An affine point `(x, y)` (the input, and the result before encoding).
#[derive(Clone, Copy, Default)]
pub(super) struct Affine {
    pub(super) x: FieldElement,
    pub(super) y: FieldElement,
}

// Wiped field by field: each field element's wipe is a volatile write,
// which an assignment of zeros is not (the compiler may drop a store that
// nothing reads).
impl Zeroize for Jacobian {
    fn zeroize(&mut self) {
        self.x.zeroize();
        self.y.zeroize();
        self.z.zeroize();
    }
}

impl Zeroize for Entry {
    fn zeroize(&mut self) {
        self.point.zeroize();
        self.zz.zeroize();
        self.zzz.zeroize();
    }
}

impl Zeroize for Affine {
    fn zeroize(&mut self) {
        self.x.zeroize();
        self.y.zeroize();
    }
}

impl ConditionallySelectable for Jacobian {
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        Jacobian {
            x: FieldElement::conditional_select(&a.x, &b.x, choice),
            y: FieldElement::conditional_select(&a.y, &b.y, choice),
            z: FieldElement::conditional_select(&a.z, &b.z, choice),
        }
    }
}

impl ConditionallySelectable for Entry {
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        Entry {
            point: Jacobian::conditional_select(&a.point, &b.point, choice),
            zz: FieldElement::conditional_select(&a.zz, &b.zz, choice),
            zzz: FieldElement::conditional_select(&a.zzz, &b.zzz, choice),
        }
    }
}

impl Jacobian {
    /// The point `(x, y)`.
    fn from_affine(p: &Affine) -> Jacobian {
        Jacobian {
            x: p.x,
            y: p.y,
            z: FieldElement::ONE,
        }
    }

    /// `2·self` (`dbl-2001-b`, for `a = −3`, with `Z3 = 2·Y·Z` as a
    /// product: here a product costs about a square and the three sums it
    /// replaces more); exact for every point, the identity included
    /// (P-256 has no point of order 2).
    fn double(&self) -> Jacobian {
        let delta = self.z.square();
        let gamma = self.y.square();
        let beta = self.x.mul(&gamma);
        let alpha = self.x.sub(&delta).mul(&self.x.add(&delta));
        let alpha = alpha.double().add(&alpha);
        let beta_4 = beta.double().double();
        let x = alpha.square().sub(&beta_4.double());
        let z = self.y.mul(&self.z).double();
        let gamma_squared_8 = gamma.square().double().double().double();
        let y = alpha.mul(&beta_4.sub(&x)).sub(&gamma_squared_8);
        Jacobian { x, y, z }
    }

    /// `self + entry` (`add-2007-bl`, the entry's `Z²` and `Z³` given),
    /// exact when neither is the identity and they are not equal (opposite
    /// operands give `Z = 0`, the identity, which is right too); also
    /// whether they are equal there (`H = 0` and `r = 0`).
    fn add_incomplete(&self, entry: &Entry) -> (Jacobian, Choice) {
        let z1z1 = self.z.square();
        let u1 = self.x.mul(&entry.zz);
        let u2 = entry.point.x.mul(&z1z1);
        let s1 = self.y.mul(&entry.zzz);
        let s2 = entry.point.y.mul(&self.z.mul(&z1z1));
        let h = u2.sub(&u1);
        let i = h.double().square();
        let j = h.mul(&i);
        let r = s2.sub(&s1).double();
        let v = u1.mul(&i);
        let x = r.square().sub(&j).sub(&v.double());
        let y = r.mul(&v.sub(&x)).sub(&s1.mul(&j).double());
        let z = self.z.mul(&entry.point.z).double().mul(&h);
        let equal = h.is_zero() & r.is_zero();
        (Jacobian { x, y, z }, equal)
    }

    /// `self + p` for an affine `p` (`madd-2007-bl`, `Z3 = 2·Z1·H` as a
    /// product), exact when `self`
    /// is neither the identity nor `±p` (building the table:
    /// `k·P + P` for `1 < k < 8`).
    fn add_affine(&self, p: &Affine) -> Jacobian {
        let z1z1 = self.z.square();
        let u2 = p.x.mul(&z1z1);
        let s2 = p.y.mul(&self.z.mul(&z1z1));
        let h = u2.sub(&self.x);
        let hh = h.square();
        let i = hh.double().double();
        let j = h.mul(&i);
        let r = s2.sub(&self.y).double();
        let v = self.x.mul(&i);
        let x = r.square().sub(&j).sub(&v.double());
        let y = r.mul(&v.sub(&x)).sub(&self.y.mul(&j).double());
        let z = self.z.mul(&h).double();
        Jacobian { x, y, z }
    }

    /// The affine point and whether it is the identity (`Z = 0`, whose
    /// coordinates are then zero), with one inversion.
    fn to_affine(self) -> (Affine, Choice) {
        let identity = self.z.is_zero();
        let mut z_inverse = self.z.invert();
        let mut z_inverse_squared = z_inverse.square();
        let affine = Affine {
            x: self.x.mul(&z_inverse_squared),
            y: self.y.mul(&z_inverse_squared.mul(&z_inverse)),
        };
        z_inverse.zeroize();
        z_inverse_squared.zeroize();
        (affine, identity)
    }
}

impl Entry {
    /// `p` with its `Z²` and `Z³`.
    fn of(point: Jacobian) -> Entry {
        let zz = point.z.square();
        Entry {
            point,
            zz,
            zzz: zz.mul(&point.z),
        }
    }
}

/// `[1·P, …, 8·P]` of an affine point (not the identity).
fn multiples(p: &Affine) -> Zeroizing<[Entry; 8]> {
    let mut table = Zeroizing::new([Entry::default(); 8]);
    let mut multiple = Jacobian::from_affine(p);
    table[0] = Entry::of(multiple);
    multiple = multiple.double();
    table[1] = Entry::of(multiple);
    for entry in table.iter_mut().skip(2) {
        multiple = multiple.add_affine(p);
        *entry = Entry::of(multiple);
    }
    table
}

/// `|digit|·P`, negated if `digit < 0`, and whether it is the identity
/// (`digit = 0`): a scan of the whole table with masked selects.
fn select(table: &[Entry; 8], digit: i8) -> (Entry, Choice) {
    let (negative, magnitude) = sign_and_magnitude(digit);
    let mut chosen = table[0];
    for (k, entry) in table.iter().enumerate().skip(1) {
        chosen = Entry::conditional_select(&chosen, entry, magnitude.ct_eq(&(k as u8 + 1)));
    }
    let negated = chosen.point.y.neg();
    chosen.point.y.conditional_assign(&negated, negative);
    (chosen, magnitude.ct_eq(&0))
}

/// `s·P` for an affine `P` that is not the identity, and whether the
/// product is the identity (`s = 0`).
fn multiply(p: &Affine, s: &Scalar) -> (Jacobian, Choice) {
    let digits = signed_digits(&le_bytes(s)[..], SCALAR_BITS);
    let table = multiples(p);
    let top = digits.len() - 1;
    let (first, mut acc_identity) = select(&table, digits[top]);
    let mut acc = first.point;
    for position in (0..top).rev() {
        acc = acc.double().double().double().double();
        let (entry, entry_identity) = select(&table, digits[position]);
        let (mut sum, equal) = acc.add_incomplete(&entry);
        if position == 0 {
            sum.conditional_assign(&acc.double(), equal);
        }
        sum.conditional_assign(&entry.point, acc_identity);
        sum.conditional_assign(&acc, entry_identity & !acc_identity);
        acc = sum;
        acc_identity &= entry_identity;
    }
    let identity = acc_identity | acc.z.is_zero();
    (acc, identity)
}

/// The affine coordinates of a `p256` point in this field and whether it
/// is the identity (its coordinates then those of the generator, so that
/// the table it makes has no identity in it).
fn affine_of(point: &ProjectivePoint) -> (Affine, Choice) {
    let (xy, identity) = coordinates_of(point);
    // Canonical: `p256` encodes reduced coordinates.
    let coordinate =
        |bytes: &[u8]| FieldElement::from_be_bytes(bytes.try_into().expect("32 bytes")).0;
    let affine = Affine {
        x: coordinate(&xy[..32]),
        y: coordinate(&xy[32..]),
    };
    (affine, identity)
}

/// `s·P` in affine coordinates and whether it is the identity (`s = 0` or
/// `P` the identity; the coordinates are then zero).
pub(super) fn mul_affine(point: &ProjectivePoint, s: &Scalar) -> (Affine, Choice) {
    let (mut input, input_identity) = affine_of(point);
    let (mut product, product_identity) = multiply(&input, s);
    input.zeroize();
    let (mut affine, zero_z) = product.to_affine();
    product.zeroize();
    let identity = input_identity | product_identity | zero_z;
    affine.x.conditional_assign(&FieldElement::ZERO, identity);
    affine.y.conditional_assign(&FieldElement::ZERO, identity);
    (affine, identity)
}

/// `s·P` as a `p256` point.
pub(super) fn mul(point: &ProjectivePoint, s: &Scalar) -> ProjectivePoint {
    let (mut affine, identity) = mul_affine(point, s);
    let mut xy = Zeroizing::new([0u8; 64]);
    xy[..32].copy_from_slice(&*Zeroizing::new(affine.x.to_be_bytes()));
    xy[32..].copy_from_slice(&*Zeroizing::new(affine.y.to_be_bytes()));
    affine.zeroize();
    point_of_coordinates(&xy, identity)
}

/// The SEC1 compressed encoding of an affine point, or 33 zero bytes for
/// the identity (`coordinates::write_compressed`).
pub(super) fn encode_compressed(affine: &Affine, identity: Choice, out: &mut [u8]) {
    let x = Zeroizing::new(affine.x.to_be_bytes());
    write_compressed(&x[..], affine.y.is_odd(), identity, out);
}

#[cfg(test)]
mod tests;
