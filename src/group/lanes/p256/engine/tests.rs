//! The P-256 engine against num-bigint (field) and RustCrypto's `p256`
//! (points, through the crate's portable `P256` group).

use num_bigint::BigUint;
use p256::elliptic_curve::ff::PrimeField;
use p256::{ProjectivePoint, Scalar};

use oblivex_macros::lane_features;

use super::chains::invert_all;
use super::codec::{decode_each, ENCODING_LEN, GENERATOR_ENCODING};
use super::exponents::sqrt_candidate_each;
use super::field::Fe8;
use super::map::{hash_to_curve, UNIFORM_LEN};
use super::point::Jacobian8;
use super::scalar_mul;
use crate::group::lanes::toolkit::LANES;
use crate::group::lanes::Timing;
use crate::group::p256::test_values::{be32, p, random_bytes, values};
use crate::group::{PrimeOrderGroup, P256};

/// The encodings of 8 points in Jacobian coordinates (zeros for the
/// identity, `Z = 0`), with an inversion of their own.
#[lane_features]
fn encoded_lanes(p: &Jacobian8) -> [[u8; ENCODING_LEN]; LANES] {
    let identity = p.z.is_zero();
    let inverse = p.z.select(&Fe8::one(), identity).invert();
    let inverse_squared = inverse.square();
    super::codec::encode_affine(
        &p.x.mul(&inverse_squared),
        &p.y.mul(&inverse_squared.mul(&inverse)),
        identity,
    )
}

/// Whether this CPU runs this instruction set (`cpu::supported`).
pub(super) fn supported() -> bool {
    crate::group::lanes::cpu::supported(super::super::SET)
}

fn q() -> BigUint {
    BigUint::from_bytes_be(&Scalar::from(0u64).sub(&Scalar::ONE).to_repr()) + 1u32
}

/// 8 values as an element (into Montgomery form).
#[lane_features]
fn field_of(values: &[BigUint]) -> Fe8 {
    Fe8::from_be_bytes_each(&core::array::from_fn(|i| be32(&values[i % values.len()])))
}

/// The canonical values of an element.
#[lane_features]
fn values_of(x: &Fe8) -> Vec<BigUint> {
    x.be_bytes_each()
        .iter()
        .map(|b| BigUint::from_bytes_be(b))
        .collect()
}

#[test]
fn field_operations_match_bigint() {
    if !supported() {
        return;
    }
    let p = p();
    let all = values();
    let mut rotated = all.clone();
    rotated.rotate_left(5);
    for (a, b) in all.chunks(LANES).zip(rotated.chunks(LANES)) {
        // SAFETY: the CPU has this set's features (checked above).
        let results = unsafe {
            let (x, y) = (field_of(a), field_of(b));
            [
                values_of(&x),
                values_of(&x.add(&y)),
                values_of(&x.sub(&y)),
                values_of(&x.neg()),
                values_of(&x.mul(&y)),
                values_of(&x.square()),
                values_of(&x.times_3()),
                values_of(&x.times_pow2::<3>()),
                values_of(&x.invert()),
                values_of(&sqrt_candidate_each(&[x])[0]),
            ]
        };
        let exponent_sqrt = (&p + 1u32) >> 2u32;
        let exponent_inverse = &p - 2u32;
        for lane in 0..LANES {
            let (x, y) = (&a[lane], &b[lane]);
            let expected = [
                x.clone(),
                (x + y) % &p,
                (x + &p - y) % &p,
                (&p - x) % &p,
                (x * y) % &p,
                (x * x) % &p,
                (x * 3u32) % &p,
                (x * 8u32) % &p,
                x.modpow(&exponent_inverse, &p),
                x.modpow(&exponent_sqrt, &p),
            ];
            for (k, (got, want)) in results.iter().zip(&expected).enumerate() {
                assert_eq!(&got[lane], want, "operation {k}, x = {x}, y = {y}");
            }
        }
    }
}

/// Long chains of operations keep their bounds (checked in debug builds)
/// and their values.
#[test]
fn chained_operations_match_bigint() {
    if !supported() {
        return;
    }
    let p = p();
    let all = values();
    let mut want: Vec<BigUint> = all[..LANES].to_vec();
    let others = &all[LANES..2 * LANES];
    // SAFETY: the CPU has this set's features (checked above).
    unsafe {
        let mut x = field_of(&want);
        let y = field_of(others);
        for step in 0..300 {
            x = match step % 6 {
                0 => x.add(&x).add(&y),
                1 => x.sub(&y).sub(&y),
                2 => x.mul(&y).times_pow2::<3>(),
                3 => x.square().neg(),
                4 => x.times_3().sub(&x.square()),
                _ => x.add(&y).mul(&x.sub(&y)),
            };
            for (w, o) in want.iter_mut().zip(others) {
                let v = w.clone();
                *w = match step % 6 {
                    0 => (&v + &v + o) % &p,
                    1 => (&v + &p + &p - o - o) % &p,
                    2 => (&v * o * 8u32) % &p,
                    3 => (&p - (&v * &v) % &p) % &p,
                    4 => (&v * 3u32 + &p - (&v * &v) % &p) % &p,
                    _ => ((&v + o) * (&v + &p - o)) % &p,
                };
            }
            assert_eq!(values_of(&x), want, "step {step}");
        }
    }
}

#[test]
fn batch_inversion_inverts() {
    if !supported() {
        return;
    }
    let p = p();
    let all: Vec<BigUint> = values()
        .into_iter()
        .filter(|v| v != &BigUint::from(0u32))
        .collect();
    // SAFETY: the CPU has this set's features (checked above).
    let inverted: Vec<Vec<BigUint>> = unsafe {
        let mut elements: Vec<Fe8> = all.chunks(LANES).map(|c| field_of(c)).collect();
        invert_all(&mut elements);
        elements.iter().map(|e| values_of(e)).collect()
    };
    for (chunk, inverses) in all.chunks(LANES).zip(&inverted) {
        for lane in 0..LANES {
            let x = &chunk[lane % chunk.len()];
            assert_eq!((x * &inverses[lane]) % &p, BigUint::from(1u32));
        }
    }
}

/// `k·G` for deterministic `k`, and their negatives.
pub(super) fn random_points(count: usize, seed: u64) -> Vec<ProjectivePoint> {
    let mut state = seed | 1;
    (0..count)
        .map(|i| {
            let k = P256::hash_to_scalar(&[&random_bytes(&mut state)], b"test");
            let point = ProjectivePoint::GENERATOR * k.0;
            if i % 3 == 1 {
                -point
            } else {
                point
            }
        })
        .collect()
}

/// A point's affine coordinates (x then y, big-endian) and whether it is
/// the identity (zeros and 1 then), as the engine's sums give them.
pub(super) fn coordinates(point: &ProjectivePoint) -> ([u8; 64], u8) {
    use p256::elliptic_curve::sec1::ToEncodedPoint;
    let encoded = point.to_affine().to_encoded_point(false);
    let mut xy = [0u8; 64];
    match (encoded.x(), encoded.y()) {
        (Some(x), Some(y)) => {
            xy[..32].copy_from_slice(x);
            xy[32..].copy_from_slice(y);
            (xy, 0)
        }
        _ => (xy, 1),
    }
}

pub(super) fn encoding(point: &ProjectivePoint) -> [u8; ENCODING_LEN] {
    let mut out = [0u8; ENCODING_LEN];
    P256::encode(point, &mut out);
    out
}

#[test]
fn decode_encode_add_double_match_p256() {
    if !supported() {
        return;
    }
    for round in 0..6u64 {
        let points = random_points(LANES, round);
        let others = random_points(LANES, round + 100);
        let mut bytes: [[u8; ENCODING_LEN]; LANES] = core::array::from_fn(|i| encoding(&points[i]));
        if round == 1 {
            bytes[2] = bytes[5]; // the same point twice
        }
        let other_bytes: [[u8; ENCODING_LEN]; LANES] =
            core::array::from_fn(|i| encoding(&others[i]));
        // SAFETY: the CPU has this set's features (checked above).
        let (valid, valid_other, results) = unsafe {
            let [(a, valid), (b, valid_other)] = decode_each(&[bytes, other_bytes]);
            let minus_a = Jacobian8 { y: a.y.neg(), ..a };
            let sums = [
                a,
                a.add(&b, 0, 0),
                a.double(),
                a.add_or_double(&a, 0, 0),
                a.add_or_double(&b, 0, 0),
                a.add(&minus_a, 0, 0),
                a.add(&b, 0b0000_0101, 0b0011_0000),
            ];
            (valid, valid_other, sums.map(|s| encoded_lanes(&s)))
        };
        assert_eq!((valid, valid_other), (0xff, 0xff));
        for lane in 0..LANES {
            let a = P256::decode(&bytes[lane]).unwrap();
            let b = others[lane];
            let masked = match lane {
                0 | 2 => b,
                4 | 5 => a,
                _ => a + b,
            };
            let expected = [
                a,
                a + b,
                a + a,
                a + a,
                a + b,
                ProjectivePoint::IDENTITY,
                masked,
            ];
            for (k, (got, want)) in results.iter().zip(&expected).enumerate() {
                assert_eq!(got[lane], encoding(want), "result {k}, lane {lane}");
            }
        }
    }
}

/// The complete formulas (`complete.rs`): the doubling and the addition,
/// equal and opposite operands and the identity included, against `p256`.
#[test]
fn complete_formulas_match_p256() {
    use super::complete::Projective8;
    if !supported() {
        return;
    }
    for round in 0..4u64 {
        let points = random_points(LANES, round + 40);
        let bytes: [[u8; ENCODING_LEN]; LANES] = core::array::from_fn(|i| encoding(&points[i]));
        // SAFETY: the CPU has this set's features (checked above).
        let results = unsafe {
            let [(a, valid)] = decode_each(&[bytes]);
            assert_eq!(valid, 0xff);
            let p = Projective8::from_jacobian(&a);
            let identity = Projective8::identity();
            let minus_p = p.negate_where(0xff);
            let twice = p.double();
            [
                twice,
                p.add(&p),
                twice.add(&p),
                p.double_times(3),
                identity.double(),
                p.add(&minus_p),
                p.add(&identity),
                minus_p.double(),
            ]
            .map(|r| encoded_lanes(&r.to_jacobian()))
        };
        for lane in 0..LANES {
            let a = points[lane];
            let expected = [
                a + a,
                a + a,
                a + a + a,
                a * Scalar::from(8u64),
                ProjectivePoint::IDENTITY,
                ProjectivePoint::IDENTITY,
                a,
                -(a + a),
            ];
            for (k, (got, want)) in results.iter().zip(&expected).enumerate() {
                assert_eq!(got[lane], encoding(want), "result {k}, lane {lane}");
            }
        }
    }
}

#[test]
fn invalid_encodings_are_flagged_like_p256() {
    if !supported() {
        return;
    }
    let p_bytes = be32(&p());
    let mut cases: Vec<[u8; ENCODING_LEN]> = Vec::new();
    let good = encoding(&random_points(1, 7)[0]);
    let mut push = |prefix: u8, x: [u8; 32]| {
        let mut e = [prefix; ENCODING_LEN];
        e[1..].copy_from_slice(&x);
        cases.push(e);
    };
    let x: [u8; 32] = good[1..].try_into().unwrap();
    push(good[0], x); // valid
    push(good[0] ^ 1, x); // valid: the other root
    push(0x04, x);
    push(0x00, x);
    push(0x02, p_bytes);
    push(0x03, [0xff; 32]);
    push(0x02, [0; 32]);
    let mut state = 99u64;
    for _ in 0..25 {
        push(0x02 | (state as u8 & 1), random_bytes(&mut state));
    }
    for chunk in cases.chunks(LANES) {
        let lanes: [[u8; ENCODING_LEN]; LANES] =
            core::array::from_fn(|i| *chunk.get(i).unwrap_or(&GENERATOR_ENCODING));
        // SAFETY: the CPU has this set's features (checked above).
        let [(point, valid)] = unsafe { decode_each(&[lanes]) };
        // SAFETY: as above.
        let round_trip = unsafe { encoded_lanes(&point) };
        for lane in 0..LANES {
            let portable = P256::decode(&lanes[lane]);
            assert_eq!(
                valid >> lane & 1 == 1,
                portable.is_ok(),
                "lane {lane}: {:02x?}",
                lanes[lane]
            );
            if portable.is_ok() {
                assert_eq!(round_trip[lane], lanes[lane]);
            }
        }
    }
}

/// Scalars at the edges of the window method and of the formulas, then
/// random ones: 0, 1, 2, small values, q − 1, q − 2 (its last addition is
/// a doubling), q − 16 − 1, all-8 digits, all-ones bits below q.
pub(super) fn edge_and_random_scalars(count: usize) -> Vec<Scalar> {
    let q = q();
    let from_big = |x: &BigUint| Scalar::from_repr(be32(x).into()).unwrap();
    let mut out: Vec<Scalar> = [0u64, 1, 2, 3, 8, 9, 15, 16, 17]
        .iter()
        .map(|&v| Scalar::from(v))
        .collect();
    for below in [1u32, 2, 3, 17, 18, 33] {
        out.push(from_big(&(&q - below)));
    }
    out.push(from_big(&BigUint::from_bytes_be(&[0x88; 32])));
    out.push(from_big(&BigUint::from_bytes_be(&[0x77; 32])));
    out.push(from_big(&((BigUint::from(1u32) << 255u32) - 1u32)));
    let mut state = 5u64;
    while out.len() < count {
        out.push(P256::hash_to_scalar(&[&random_bytes(&mut state)], b"k").0);
    }
    out.truncate(count);
    out
}

pub(super) fn le_bytes(s: &Scalar) -> [u8; 32] {
    let mut bytes: [u8; 32] = s.to_repr().into();
    bytes.reverse();
    bytes
}

#[test]
fn key_multiplication_matches_p256() {
    if !supported() {
        return;
    }
    let points = random_points(270, 3);
    for key in edge_and_random_scalars(22).iter().skip(1) {
        for count in [1usize, 7, 8, 9, 17, 257, 270] {
            let encoded: Vec<u8> = points[..count].iter().flat_map(encoding).collect();
            let mut out = vec![0u8; encoded.len()];
            // SAFETY: the CPU has this set's features (checked above).
            let decoded = unsafe { scalar_mul::decode_all(&encoded) }.unwrap();
            let from_decoded = count == 9;
            let decoded = from_decoded.then_some(decoded.as_slice());
            // SAFETY: as above.
            assert!(unsafe { scalar_mul::mul_by_key(&le_bytes(key), decoded, &encoded, &mut out) });
            for (i, answer) in out.chunks_exact(ENCODING_LEN).enumerate() {
                assert_eq!(
                    answer,
                    encoding(&(points[i] * key)),
                    "count {count}, element {i}"
                );
            }
            if count > 9 && key != &Scalar::ONE {
                break; // the long batches once per key are enough
            }
        }
    }
}

#[test]
fn per_element_multiplication_matches_p256() {
    if !supported() {
        return;
    }
    let scalars = edge_and_random_scalars(40);
    let mut points = random_points(40, 11);
    points[5] = points[4]; // P twice in one vector
    points[6] = -points[4]; // and −P
    let encoded: Vec<u8> = points.iter().flat_map(encoding).collect();
    let bytes: Vec<[u8; 32]> = scalars.iter().map(le_bytes).collect();
    let mut out = vec![0u8; encoded.len()];
    // SAFETY: the CPU has this set's features (checked above).
    assert!(unsafe { scalar_mul::mul_each(&bytes, None, &encoded, &mut out) });
    for (i, answer) in out.chunks_exact(ENCODING_LEN).enumerate() {
        // The zero scalar's product, the identity, encodes as zeros.
        assert_eq!(answer, encoding(&(points[i] * scalars[i])), "element {i}");
    }
}

#[test]
fn invalid_encodings_stop_the_multiplication() {
    if !supported() {
        return;
    }
    let points = random_points(20, 4);
    let mut encoded: Vec<u8> = points.iter().flat_map(encoding).collect();
    encoded[13 * ENCODING_LEN] = 0x04;
    let mut out = vec![0u8; encoded.len()];
    // SAFETY: the CPU has this set's features (checked above).
    assert!(unsafe { scalar_mul::decode_all(&encoded) }.is_none());
    // SAFETY: as above.
    assert!(!unsafe { scalar_mul::mul_by_key(&[1; 32], None, &encoded, &mut out) });
}

/// 96 bytes of expand_message_xmd per input, as `P256::hash_to_group`
/// makes them.
pub(super) fn uniform_of(inputs: &[Vec<u8>], dst: &[u8]) -> Vec<[u8; UNIFORM_LEN]> {
    inputs
        .iter()
        .map(|x| {
            let bytes = crate::group::xmd::expand_message_xmd::<sha2::Sha256>(&[x], dst, 96);
            bytes.as_slice().try_into().unwrap()
        })
        .collect()
}

pub(super) fn test_inputs(count: usize) -> Vec<Vec<u8>> {
    let mut state = 77u64;
    (0..count)
        .map(|i| match i {
            0 => Vec::new(),
            1 => b"abc".to_vec(),
            _ => random_bytes(&mut state)[..i % 32].to_vec(),
        })
        .collect()
}

#[test]
fn hash_to_curve_matches_p256() {
    if !supported() {
        return;
    }
    let dst = b"QUUX-V01-CS02-with-P256_XMD:SHA-256_SSWU_RO_";
    let inputs = test_inputs(40);
    let uniform = uniform_of(&inputs, dst);
    for (chunk, inputs) in uniform.chunks(LANES).zip(inputs.chunks(LANES)) {
        let lanes: [[u8; UNIFORM_LEN]; LANES] = core::array::from_fn(|i| chunk[i]);
        // SAFETY: the CPU has this set's features (checked above).
        let points = unsafe { encoded_lanes(&hash_to_curve(&lanes)) };
        for (lane, input) in inputs.iter().enumerate() {
            let expected = P256::hash_to_group(&[input], dst);
            assert_eq!(points[lane], encoding(&expected), "input {input:02x?}");
        }
    }
}

#[test]
fn hashing_and_blinding_matches_p256() {
    if !supported() {
        return;
    }
    let dst = b"HashToGroup-OPRFV1-\x00-P256-SHA256";
    for count in [1usize, 8, 13, 40] {
        let inputs = test_inputs(count);
        let uniform = uniform_of(&inputs, dst);
        let blinds = edge_and_random_scalars(count + 1);
        let blinds = &blinds[1..]; // no zero blind
        let bytes: Vec<[u8; 32]> = blinds.iter().map(le_bytes).collect();
        let mut out = vec![0u8; ENCODING_LEN * count];
        // SAFETY: the CPU has this set's features (checked above).
        let kept = unsafe { scalar_mul::hash_mul_encode(&uniform, &bytes, &mut out) }.unwrap();
        assert_eq!(kept.len(), count.div_ceil(LANES));
        for (i, blinded) in out.chunks_exact(ENCODING_LEN).enumerate() {
            let expected = P256::hash_to_group(&[&inputs[i]], dst) * blinds[i];
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

#[test]
fn short_msm_matches_p256() {
    if !supported() {
        return;
    }
    let mut state = 31u64;
    let mut points = random_points(300, 21);
    points[3] = points[2]; // P twice
    points[4] = -points[2]; // and −P
    for count in [1usize, 2, 8, 9, 40, 300] {
        let scalars: Vec<[u8; 17]> = (0..count)
            .map(|i| match i {
                0 => [0; 17],
                1 => [0xff; 17],
                _ => {
                    let mut s = [0u8; 17];
                    s[..16].copy_from_slice(&random_bytes(&mut state)[..16]);
                    s[16] = (i & 1) as u8;
                    s
                }
            })
            .collect();
        let bytes: Vec<&[u8]> = scalars.iter().map(|s| &s[..]).collect();
        let encoded: Vec<u8> = points[..count].iter().flat_map(encoding).collect();
        let expected = sum_of(&points[..count], &bytes);
        // SAFETY: the CPU has this set's features (checked above).
        let decoded = unsafe { scalar_mul::decode_all(&encoded) }.unwrap();
        for kept in [None, Some(decoded.as_slice())] {
            // SAFETY: as above.
            let sum = unsafe { super::msm::msm_ct(&encoded, kept, &bytes, 136) }.unwrap();
            assert_eq!(*sum, coordinates(&expected), "count {count}");
        }
    }
    // A sum that is the identity: d·P + d·(−P).
    let pair = [points[2], -points[2]];
    let encoded: Vec<u8> = pair.iter().flat_map(encoding).collect();
    let s = [7u8; 17];
    // SAFETY: as above.
    let sum = unsafe { super::msm::msm_ct(&encoded, None, &[&s[..], &s[..]], 136) }.unwrap();
    assert_eq!(*sum, ([0u8; 64], 1));
}

/// `Σ s_i·P_i` by `p256`, for scalars given as little-endian bytes.
fn sum_of(points: &[ProjectivePoint], scalars: &[&[u8]]) -> ProjectivePoint {
    points
        .iter()
        .zip(scalars)
        .fold(ProjectivePoint::IDENTITY, |sum, (p, s)| {
            let mut wide = [0u8; 32];
            wide[..s.len()].copy_from_slice(s);
            wide.reverse();
            sum + p * &Scalar::from_repr(wide.into()).unwrap()
        })
}

#[test]
fn variable_time_msm_matches_p256_where_partial_sums_meet() {
    if !supported() {
        return;
    }
    let mut state = 41u64;
    // Two vectors whose lanes hold the same point (0..4: each lane's sum
    // meets the point's multiple, a doubling) or opposite points (4..8:
    // the sum becomes the identity) with the same factors, then random
    // points and factors, the first factors zero and all ones.
    let mut points = random_points(300, 23);
    for lane in 0..LANES {
        points[LANES + lane] = if lane < 4 {
            points[lane]
        } else {
            -points[lane]
        };
    }
    let mut scalars: Vec<[u8; 32]> = (0..300)
        .map(|i| match i {
            16 => [0; 32],
            17 => [0xff; 32],
            _ => random_bytes(&mut state),
        })
        .collect();
    for lane in 0..LANES {
        scalars[LANES + lane] = scalars[lane];
    }
    for (count, bits) in [
        (16usize, 64),
        (16, 136),
        (17, 64),
        (40, 136),
        (300, 64),
        (33, 256),
    ] {
        // Scalars below 2^bits (the top byte cut for 256 bits: below q).
        let cut: Vec<[u8; 32]> = scalars[..count]
            .iter()
            .map(|s| {
                let mut s = *s;
                s[bits.min(248) / 8..].fill(0);
                s
            })
            .collect();
        let bytes: Vec<&[u8]> = cut.iter().map(|s| &s[..bits.div_ceil(8)]).collect();
        let encoded: Vec<u8> = points[..count].iter().flat_map(encoding).collect();
        let expected = coordinates(&sum_of(&points[..count], &bytes));
        // SAFETY: the CPU has this set's features (checked above).
        let batch = unsafe { super::decode(&encoded) }.unwrap();
        // Tables computed per pass, then kept and read again.
        for (timing, decoded) in [
            (Timing::Variable, None),
            (Timing::Variable, Some(&batch)),
            (Timing::VariableThenUnblind, Some(&batch)),
            (Timing::VariableThenUnblind, Some(&batch)),
        ] {
            // SAFETY: as above.
            let sum = unsafe { super::msm(timing, &encoded, decoded, &bytes, bits) }.unwrap();
            assert_eq!(*sum, expected, "count {count}, bits {bits}, {timing:?}");
        }
    }
    // A sum that is the identity: d·P + d·(−P).
    let pair = [points[2], -points[2]];
    let encoded: Vec<u8> = pair.iter().flat_map(encoding).collect();
    let s = [7u8; 17];
    // SAFETY: as above.
    let sum =
        unsafe { super::msm(Timing::Variable, &encoded, None, &[&s[..], &s[..]], 136) }.unwrap();
    assert_eq!(*sum, ([0u8; 64], 1));
}

#[test]
fn unblinding_after_a_check_reads_its_tables() {
    if !supported() {
        return;
    }
    // 38 vectors, the last partly used: two passes of tables.
    let scalars = edge_and_random_scalars(299);
    let points = random_points(299, 12);
    let encoded: Vec<u8> = points.iter().flat_map(encoding).collect();
    let bytes: Vec<[u8; 32]> = scalars.iter().map(le_bytes).collect();
    let factors: Vec<&[u8]> = bytes.iter().map(|s| &s[..8]).collect();
    let expected = coordinates(&sum_of(&points, &factors));
    // SAFETY: the CPU has this set's features (checked above).
    let batch = unsafe { super::decode(&encoded) }.unwrap();
    for (timing, kept) in [
        (Timing::Variable, None),
        (Timing::VariableThenUnblind, Some(38)),
    ] {
        // SAFETY: as above.
        let sum = unsafe { super::msm(timing, &encoded, Some(&batch), &factors, 64) }.unwrap();
        assert_eq!(*sum, expected, "{timing:?}");
        assert_eq!(batch.tables.get().map(Vec::len), kept, "{timing:?}");
    }
    let mut out = vec![0u8; encoded.len()];
    // SAFETY: as above.
    assert!(unsafe { super::mul_each(&bytes, &encoded, Some(&batch), &mut out) });
    for (i, answer) in out.chunks_exact(ENCODING_LEN).enumerate() {
        assert_eq!(answer, encoding(&(points[i] * scalars[i])), "element {i}");
    }
}

/// Nanoseconds per call of `op` on 8 lanes, the best of 5 rounds of
/// `calls` calls.
fn best_ns<T>(calls: u32, mut op: impl FnMut() -> T) -> f64 {
    (0..5)
        .map(|_| {
            let start = std::time::Instant::now();
            for _ in 0..calls {
                core::hint::black_box(op());
            }
            start.elapsed().as_nanos() as f64 / f64::from(calls)
        })
        .fold(f64::INFINITY, f64::min)
}

/// Where the server's time goes on this set, per call on 8 elements: the
/// field's operations, the formulas, one table scan, one whole scalar
/// multiplication and the decoding of a vector, for profiling by hand:
/// `cargo test --release --lib p256::tests::print_timings -- --ignored
/// --nocapture`. It prints, and asserts nothing about time.
#[test]
#[ignore = "prints timings"]
fn print_timings() {
    if !supported() {
        return;
    }
    let points = random_points(8, 5);
    let encoded: Vec<u8> = points.iter().flat_map(encoding).collect();
    let key = le_bytes(&edge_and_random_scalars(8)[7]);
    let digits = crate::group::lanes::toolkit::broadcast_digits(&key, 256);
    // SAFETY: the CPU has this set's features (checked above), here and in
    // every closure below.
    let (point, tables) = unsafe {
        let vectors = scalar_mul::decode_all(&encoded).unwrap();
        (vectors[0], scalar_mul::affine_tables(&vectors))
    };
    let (x, y) = (point.x, point.y);
    let entry = tables[0][3];
    let print = |name: &str, ns: f64| println!("{name:>16}: {ns:10.1} ns per 8 elements");
    // SAFETY: as above (every call below).
    unsafe {
        print("mul", best_ns(20_000, || x.mul(&y)));
        print("square", best_ns(20_000, || x.square()));
        print("sub", best_ns(20_000, || x.sub(&y)));
        print("add", best_ns(20_000, || x.add(&y)));
        print("double", best_ns(5_000, || point.double()));
        print(
            "add_mixed",
            best_ns(5_000, || point.add_mixed(&entry, 0, 0)),
        );
        let projective = super::complete::Projective8::from_jacobian(&point);
        let other = super::complete::Projective8::from_jacobian(&point.double());
        print("complete add", best_ns(5_000, || projective.add(&other)));
        print("complete double", best_ns(5_000, || projective.double()));
        let empty = super::point::Affine8 {
            x: Fe8::zero(),
            y: Fe8::zero(),
        };
        print(
            "table scan",
            best_ns(5_000, || super::scan::select(&tables[0], empty, &digits[7])),
        );
        print(
            "k·P",
            best_ns(50, || scalar_mul::multiply(&tables[0], &digits)),
        );
        print(
            "decode",
            best_ns(200, || scalar_mul::decode_vector(&encoded)),
        );
        // A server's batch of 256, per vector of 8: the check's decoding,
        // then the evaluation from its points.
        let batch: Vec<u8> = random_points(256, 9).iter().flat_map(encoding).collect();
        let decoded = scalar_mul::decode_all(&batch).unwrap();
        let mut out = vec![0u8; batch.len()];
        print(
            "decode 256",
            best_ns(3, || scalar_mul::decode_all(&batch)) / 32.0,
        );
        print(
            "evaluate 256",
            best_ns(3, || {
                assert!(scalar_mul::mul_by_key(
                    &key,
                    Some(&decoded),
                    &batch,
                    &mut out
                ))
            }) / 32.0,
        );
        print(
            "tables 256",
            best_ns(3, || scalar_mul::affine_tables(&decoded)) / 32.0,
        );
    }
}
