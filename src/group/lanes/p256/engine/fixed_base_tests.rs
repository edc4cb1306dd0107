//! The fixed-base products (`fixed_base.rs`) against RustCrypto's `p256`:
//! the tables, `Y_i + s_i·P` (equal and opposite operands included) and
//! the additive blinding `H(x_i) + r_i·B`.

use p256::elliptic_curve::ff::PrimeField;
use p256::{ProjectivePoint, Scalar};

use super::codec::ENCODING_LEN;
use super::fixed_base::{self, FixedBase};
use super::scalar_mul;
use super::tests::{
    coordinates, edge_and_random_scalars, encoding, le_bytes, random_points, supported,
    test_inputs, uniform_of,
};
use crate::group::{PrimeOrderGroup, P256};

/// The tables of `point` (not the identity).
fn tables_of(point: &ProjectivePoint) -> FixedBase {
    let (xy, identity) = coordinates(point);
    assert_eq!(identity, 0);
    // SAFETY: the caller checked that the CPU has this set's features.
    unsafe { FixedBase::new(&xy) }
}

/// Scalars whose top signed digit (position 64) is 1 or 0, beside the
/// edges of the window method: the last table addition's cases.
fn scalars(count: usize) -> Vec<Scalar> {
    let mut all = edge_and_random_scalars(count.max(4));
    let half = Scalar::from_str_vartime(
        "57896044618658097711785492504343953926634992332820282019728792003956564819968",
    )
    .unwrap(); // 2^255
    all[count / 2] = half;
    all[count / 2 + 1] = half - Scalar::ONE;
    all.truncate(count);
    all
}

#[test]
fn tables_hold_the_multiples_in_every_lane() {
    if !supported() {
        return;
    }
    let point = random_points(1, 21)[0];
    let tables = tables_of(&point);
    // SAFETY: the CPU has this set's features (checked above).
    assert!(unsafe { fixed_base::lanes_agree(&tables) });
    let mut power = point;
    for j in 0..65 {
        for k in 0..8 {
            // SAFETY: as above.
            let entry = unsafe { fixed_base::table_entry(&tables, j, k) };
            let expected = power * Scalar::from(k as u64 + 1);
            assert_eq!(
                entry,
                coordinates(&expected).0,
                "position {j}, multiple {}",
                k + 1
            );
        }
        power *= Scalar::from(16u64);
    }
}

#[test]
fn offsets_match_p256() {
    if !supported() {
        return;
    }
    let base = random_points(1, 22)[0];
    let tables = tables_of(&base);
    let all_scalars = scalars(270);
    let mut points = random_points(270, 23);
    // Lanes where `Y = s·P` (a doubling) and `Y = −s·P` (the identity).
    points[3] = base * all_scalars[3];
    points[4] = -(base * all_scalars[4]);
    points[12] = base * all_scalars[12];
    for count in [1usize, 8, 13, 40, 270] {
        let encoded: Vec<u8> = points[..count].iter().flat_map(encoding).collect();
        let bytes: Vec<[u8; 32]> = all_scalars[..count].iter().map(le_bytes).collect();
        // SAFETY: the CPU has this set's features (checked above).
        let decoded = unsafe { scalar_mul::decode_all(&encoded) }.unwrap();
        for from_decoded in [false, true] {
            let decoded = from_decoded.then_some(decoded.as_slice());
            let mut out = vec![0u8; encoded.len()];
            // SAFETY: as above.
            let written = unsafe {
                fixed_base::offset_each_encode(&tables, &bytes, decoded, &encoded, &mut out)
            };
            assert!(written);
            for (i, sum) in out.chunks_exact(ENCODING_LEN).enumerate() {
                let expected = points[i] + base * all_scalars[i];
                // The identity encodes as zeros.
                assert_eq!(sum, encoding(&expected), "count {count}, element {i}");
            }
        }
        // Whether a sum is the identity is reported for the lanes in use.
        let points_iter = decoded.iter().map(|p| Some(*p));
        let mut out = vec![0u8; encoded.len()];
        // SAFETY: as above.
        let (kept, any_identity) =
            unsafe { fixed_base::offset_vectors(points_iter, &tables, &bytes, &mut out, true) }
                .unwrap();
        assert_eq!(kept.len(), count.div_ceil(8));
        assert_eq!(any_identity, count > 4, "count {count}");
    }
}

#[test]
fn an_invalid_encoding_stops_the_offsets() {
    if !supported() {
        return;
    }
    let tables = tables_of(&ProjectivePoint::GENERATOR);
    let points = random_points(20, 24);
    let mut encoded: Vec<u8> = points.iter().flat_map(encoding).collect();
    encoded[13 * ENCODING_LEN] = 0x04;
    let bytes = vec![[1u8; 32]; 20];
    let mut out = vec![0u8; encoded.len()];
    // SAFETY: the CPU has this set's features (checked above).
    let written =
        unsafe { fixed_base::offset_each_encode(&tables, &bytes, None, &encoded, &mut out) };
    assert!(!written);
}

#[test]
fn additive_blinding_matches_p256() {
    if !supported() {
        return;
    }
    let dst = b"HashToGroup-OPRFV1-\x00-P256-SHA256";
    let tables = tables_of(&ProjectivePoint::GENERATOR);
    for count in [1usize, 8, 13, 40, 300] {
        let inputs = test_inputs(count);
        let uniform = uniform_of(&inputs, dst);
        let blinds = scalars(count);
        let bytes: Vec<[u8; 32]> = blinds.iter().map(le_bytes).collect();
        let mut out = vec![0u8; ENCODING_LEN * count];
        // SAFETY: the CPU has this set's features (checked above).
        let (kept, any_identity) =
            unsafe { fixed_base::hash_offset_encode(&uniform, &tables, &bytes, &mut out) }.unwrap();
        assert!(!any_identity);
        assert_eq!(kept.len(), count.div_ceil(8));
        for (i, blinded) in out.chunks_exact(ENCODING_LEN).enumerate() {
            let expected =
                P256::hash_to_group(&[&inputs[i]], dst) + ProjectivePoint::GENERATOR * blinds[i];
            assert_eq!(blinded, encoding(&expected), "count {count}, input {i}");
        }
        // The kept points are the blinded elements: multiplied by 1 they
        // encode the same.
        let mut again = vec![0u8; out.len()];
        let ones = vec![le_bytes(&Scalar::ONE); count];
        // SAFETY: as above.
        assert!(unsafe { scalar_mul::mul_each(&ones, Some(&kept), &out, &mut again) });
        assert_eq!(again, out);
    }
}
