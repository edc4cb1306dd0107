//! `p256` points to and from their affine coordinates as 64 bytes (`x`
//! then `y`, big-endian), and the compressed encoding written from
//! coordinates, none of them branching on the point (which may be
//! secret): what the 8-lane engine and the one-element multiplication
//! (`jacobian.rs`) exchange with `p256`.

use p256::elliptic_curve::point::AffineCoordinates;
use p256::elliptic_curve::sec1::{FromEncodedPoint, ToEncodedPoint};
use p256::{AffinePoint, EncodedPoint, ProjectivePoint};
use subtle::{Choice, ConditionallySelectable};
use zeroize::Zeroizing;

/// The affine coordinates of a point and whether it is the identity,
/// which has none: its coordinates are then the generator's, so that
/// whatever reads them (a table, a lane) meets a point, and the caller
/// masks the result. One `p256` inversion.
pub(super) fn coordinates_of(point: &ProjectivePoint) -> (Zeroizing<[u8; 64]>, Choice) {
    let affine = point.to_affine();
    let identity = affine.is_identity();
    // `finite` is never the identity, so the encoder's test for it always
    // goes the same way.
    let finite = AffinePoint::conditional_select(&affine, &AffinePoint::GENERATOR, identity);
    let encoded = Zeroizing::new(finite.to_encoded_point(false));
    // The encoding's tag is 04 whatever the point, but the valgrind check
    // cannot know it, and `EncodedPoint` reads its bytes only through a
    // test of the tag: the whole encoding is declared public for the tag's
    // sake, and the coordinates copied out then take the marks of `x`
    // (read without a test), as secret as the point was.
    crate::secret_marks::declassify(&*encoded);
    let mut xy = Zeroizing::new([0u8; 64]);
    xy[..32].copy_from_slice(encoded.x().expect("a finite point"));
    xy[32..].copy_from_slice(encoded.y().expect("uncompressed"));
    let x = finite.x();
    crate::secret_marks::copy_marks(&x, &xy[..32]);
    crate::secret_marks::copy_marks(&x, &xy[32..]);
    (xy, identity)
}

/// The point of affine coordinates `xy`, or the identity where `identity`
/// is set, in constant time: the coordinates go through the uncompressed
/// form (its tag is a constant, the point's validity a `CtOption`), and
/// the identity is chosen by a mask. A secret point (an unblinded
/// element, the balancer's sum) thus never meets the decoder of received
/// encodings.
pub(super) fn point_of_coordinates(xy: &[u8; 64], identity: Choice) -> ProjectivePoint {
    let encoded = Zeroizing::new(EncodedPoint::from_affine_coordinates(
        (&xy[..32]).into(),
        (&xy[32..]).into(),
        false,
    ));
    let point = AffinePoint::from_encoded_point(&encoded);
    let finite = ProjectivePoint::from(point.unwrap_or(AffinePoint::GENERATOR));
    ProjectivePoint::conditional_select(&finite, &ProjectivePoint::IDENTITY, identity)
}

/// SEC1 compressed (`02 | y odd`, then the 32 bytes of `x`), or 33 zero
/// bytes for the identity (which has no compressed form and which no
/// decoder accepts), without branching on either.
pub(super) fn write_compressed(x: &[u8], y_odd: Choice, identity: Choice, out: &mut [u8]) {
    let prefix = 2 | y_odd.unwrap_u8();
    out[0] = u8::conditional_select(&prefix, &0, identity);
    for (o, b) in out[1..].iter_mut().zip(x) {
        *o = u8::conditional_select(b, &0, identity);
    }
}
