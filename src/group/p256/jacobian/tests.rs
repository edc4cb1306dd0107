//! The Jacobian multiplication against `p256`'s own (complete formulas),
//! on the scalars where the incomplete formulas would go wrong if a case
//! were missed: zero, small ones, those near q (the last addition meets
//! equal operands for `q − 2`), carries into the extra top digit.

use p256::elliptic_curve::group::Group;
use p256::ProjectivePoint;
use p256::Scalar as P256Scalar;

use super::{encode_compressed, mul, mul_affine};
use crate::group::p256::Scalar;
use crate::group::{PrimeOrderGroup, P256};

/// The scalars of the edge cases, then hashed ones.
fn scalars() -> Vec<P256Scalar> {
    let minus = |k: u64| -P256Scalar::from(k);
    let mut out = vec![
        P256Scalar::ZERO,
        P256Scalar::ONE,
        P256Scalar::from(2u64),
        P256Scalar::from(8u64),
        P256Scalar::from(15u64),
        P256Scalar::from(16u64),
        P256Scalar::from(0x88u64),
        P256Scalar::from(u64::MAX),
        minus(1),
        minus(2),
        minus(3),
        minus(8),
        minus(16),
        // 2^255 + small: the top digit's carry.
        P256Scalar::from(1u64 << 63).pow_vartime(&[4]) * P256Scalar::from(8u64) + P256Scalar::ONE,
    ];
    for i in 0u64..24 {
        out.push(P256::hash_to_scalar(&[&i.to_le_bytes()], b"jacobian test").0);
    }
    out
}

/// Points: the generator, hashed ones, and the identity.
fn points() -> Vec<ProjectivePoint> {
    let mut out = vec![ProjectivePoint::GENERATOR];
    for i in 0u64..6 {
        out.push(P256::hash_to_group(&[&i.to_le_bytes()], b"jacobian points"));
    }
    // A point with Z ≠ 1 in p256's own representation.
    out.push(out[1] + out[2]);
    out.push(ProjectivePoint::IDENTITY);
    out
}

#[test]
fn products_equal_p256s() {
    for point in points() {
        for s in scalars() {
            let expected = point * s;
            let got = mul(&point, &Scalar(s));
            assert_eq!(got, expected, "s·P for s = {s:?}");
        }
    }
}

#[test]
fn encodings_equal_the_groups() {
    for point in points() {
        for s in scalars() {
            let mut expected = [0u8; 33];
            P256::encode(&(point * s), &mut expected);
            let (affine, identity) = mul_affine(&point, &Scalar(s));
            let mut got = [0xaau8; 33];
            encode_compressed(&affine, identity, &mut got);
            assert_eq!(got, expected, "encoding of s·P for s = {s:?}");
            assert_eq!(
                bool::from(identity),
                bool::from((point * s).is_identity()),
                "identity flag"
            );
        }
    }
}

/// Where one multiplication's time goes, against `p256`'s own (a
/// profile, not a check: `cargo test --release --lib
/// p256::jacobian::tests::timing -- --ignored --nocapture`).
#[test]
#[ignore]
fn timing() {
    use std::hint::black_box;
    use std::time::Instant;
    let point = P256::hash_to_group(&[b"t"], b"timing");
    let s = Scalar(P256::hash_to_scalar(&[b"s"], b"timing").0);
    let (affine, _) = super::affine_of(&point);
    let runs = 2000;
    let per_run = |work: &dyn Fn()| {
        let start = Instant::now();
        for _ in 0..runs {
            work();
        }
        start.elapsed().as_nanos() as f64 / f64::from(runs)
    };
    let to_affine = per_run(&|| {
        black_box(super::affine_of(black_box(&point)));
    });
    let multiply = per_run(&|| {
        black_box(super::multiply(black_box(&affine), &s));
    });
    let whole = per_run(&|| {
        black_box(mul_affine(black_box(&point), &s));
    });
    let theirs = per_run(&|| {
        black_box(black_box(point) * s.0);
    });
    eprintln!(
        "ns: affine_of {to_affine:.0}, multiply {multiply:.0}, mul_affine {whole:.0}; \
         p256's ProjectivePoint * Scalar {theirs:.0} ({:.2}x mul_affine)",
        theirs / whole
    );
}
