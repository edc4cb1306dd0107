//! The 8-lane engine against curve25519-dalek and num-bigint.

use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use num_bigint::BigUint;

use super::codec::{decode, encode, LANES};
use super::constants::{
    D, D2, D_MINUS_ONE_SQ, INVSQRT_A_MINUS_D, ONE_MINUS_D_SQ, SQRT_AD_MINUS_ONE, SQRT_M1,
};
use super::field::{splat, Fe8};
use super::map::from_uniform_bytes;
use super::roots::sqrt_ratio_m1;
use crate::group::straus::{short_msm_ct as generic_short_msm_ct, Elements};
use crate::group::{Ristretto255, ShortScalar};

/// Whether this CPU runs this instruction set (`cpu::supported`).
fn supported() -> bool {
    crate::group::lanes::cpu::supported(super::super::SET)
}

fn p() -> BigUint {
    (BigUint::from(1u32) << 255u32) - 19u32
}

fn to_big(bytes: &[u8; 32]) -> BigUint {
    BigUint::from_bytes_le(bytes)
}

fn from_big(x: &BigUint) -> [u8; 32] {
    let mut b = x.to_bytes_le();
    b.resize(32, 0);
    b.try_into().unwrap()
}

/// Deterministic test values (xorshift), including the edges.
fn values() -> Vec<BigUint> {
    let p = p();
    let mut out = vec![
        BigUint::from(0u32),
        BigUint::from(1u32),
        &p - 1u32,
        &p - 2u32,
        BigUint::from(19u32),
        (BigUint::from(1u32) << 51u32) - 1u32,
        BigUint::from(1u32) << 204u32,
        // Limb edges of the AVX2 field's radix 2^25.5: a full first limb,
        // full odd and even limbs, the top limb alone.
        (BigUint::from(1u32) << 26u32) - 1u32,
        (BigUint::from(1u32) << 255u32) - (BigUint::from(1u32) << 230u32) - 1u32,
        BigUint::from(1u32) << 230u32,
    ];
    let mut x = 0x1234_5678_9abc_def0u64;
    while out.len() < 64 {
        let mut bytes = [0u8; 32];
        for b in bytes.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *b = x as u8;
        }
        out.push(to_big(&bytes) % &p);
    }
    out
}

fn lanes(values: &[BigUint]) -> [[u8; 32]; LANES] {
    core::array::from_fn(|i| from_big(&values[i % values.len()]))
}

/// The engine's decoding of a batch (the CPU was checked: `supported`).
fn decoded_batch(encoded: &[u8]) -> Option<super::DecodedBatch> {
    // SAFETY: the callers checked that the CPU has this engine's
    // instruction set (`supported`).
    unsafe { super::decode(encoded) }
}

/// The engine's per-element multiplication (see [`decoded_batch`]).
fn mul_each(
    half_scalars: &[[u8; 32]],
    encoded: &[u8],
    decoded: Option<&super::DecodedBatch>,
    out: &mut [u8],
) -> bool {
    // SAFETY: as in `decoded_batch`.
    unsafe { super::mul_each(half_scalars, encoded, decoded, out) }
}

/// The engine's multi-scalar multiplication (see [`decoded_batch`]).
fn msm_ct(
    encoded: &[u8],
    decoded: Option<&super::DecodedBatch>,
    scalars: &[&[u8]],
    bits: usize,
) -> Option<[u8; 32]> {
    // SAFETY: as in `decoded_batch`.
    unsafe { super::msm_ct(encoded, decoded, scalars, bits) }
}

#[test]
fn field_operations_match_bigint() {
    if !supported() {
        return;
    }
    let p = p();
    let all = values();
    let mut rotated = all.clone();
    rotated.rotate_left(3);
    for (a_vals, b_vals) in all.chunks(LANES).zip(rotated.chunks(LANES)) {
        // SAFETY: the CPU has this engine's instruction set (checked above).
        let (sum, difference, product, square, negative) = unsafe {
            let a = Fe8::from_le_bytes_each(&lanes(a_vals));
            let b = Fe8::from_le_bytes_each(&lanes(b_vals));
            (
                a.add(&b).le_bytes_each(),
                a.sub(&b).le_bytes_each(),
                a.mul(&b).le_bytes_each(),
                a.square().le_bytes_each(),
                a.neg().le_bytes_each(),
            )
        };
        for lane in 0..LANES {
            let a = &a_vals[lane % a_vals.len()];
            let b = &b_vals[lane % b_vals.len()];
            assert_eq!(to_big(&sum[lane]), (a + b) % &p);
            assert_eq!(to_big(&difference[lane]), (a + &p - b) % &p);
            assert_eq!(to_big(&product[lane]), (a * b) % &p);
            assert_eq!(to_big(&square[lane]), (a * a) % &p);
            assert_eq!(to_big(&negative[lane]), (&p - a) % &p);
        }
    }
}

/// A long chain of operations on the engine's internal (reduced, not
/// canonical) forms, checked once at the end.
#[test]
fn chained_operations_match_bigint() {
    if !supported() {
        return;
    }
    let p = p();
    let all = values();
    let (a_vals, b_vals) = (&all[..LANES], &all[LANES..2 * LANES]);
    let mut expected: Vec<BigUint> = a_vals.to_vec();
    // SAFETY: the CPU has this engine's instruction set (checked above).
    let result = unsafe {
        let mut x = Fe8::from_le_bytes_each(&lanes(a_vals));
        let y = Fe8::from_le_bytes_each(&lanes(b_vals));
        for round in 0..300 {
            x = match round % 4 {
                0 => x.square().add(&y),
                1 => x.mul(&y).sub(&x),
                2 => x.neg().add(&x.square()),
                _ => x.sub(&y).mul(&x.add(&y)),
            };
        }
        x.le_bytes_each()
    };
    for (lane, x) in expected.iter_mut().enumerate() {
        let y = &b_vals[lane];
        for round in 0..300 {
            *x = match round % 4 {
                0 => (&*x * &*x + y) % &p,
                1 => (&*x * y + &p - &*x) % &p,
                2 => (&p - &*x + &*x * &*x) % &p,
                _ => ((&*x + &p - y) * (&*x + y)) % &p,
            };
        }
        assert_eq!(to_big(&result[lane]), *x, "lane {lane}");
    }
}

#[test]
fn constants_are_what_they_claim() {
    if !supported() {
        return;
    }
    let p = p();
    let big = |limbs: [u64; 5]| {
        limbs
            .iter()
            .rev()
            .fold(BigUint::from(0u32), |acc, &l| (acc << 51u32) + l)
    };
    let d = big(D);
    assert_eq!((&d * 121666u32 + 121665u32) % &p, BigUint::from(0u32));
    assert_eq!(big(D2), (&d * 2u32) % &p);
    assert_eq!((big(SQRT_M1).pow(2) + 1u32) % &p, BigUint::from(0u32));
    // (a − d)·invsqrt² = 1 with a = −1.
    let a_minus_d = (&p - 1u32 + &p - &d) % &p;
    assert_eq!(
        (a_minus_d * big(INVSQRT_A_MINUS_D).pow(2)) % &p,
        BigUint::from(1u32)
    );
    let one = BigUint::from(1u32);
    assert_eq!(big(ONE_MINUS_D_SQ), (&p + &one - (&d * &d) % &p) % &p);
    assert_eq!(big(D_MINUS_ONE_SQ), ((&d + &p - &one) % &p).pow(2) % &p);
    // sqrt(a·d − 1)² = −d − 1 with a = −1.
    assert_eq!(
        big(SQRT_AD_MINUS_ONE).pow(2) % &p,
        (&p - &d + &p - &one) % &p
    );
    // SAFETY: the CPU has this engine's instruction set (checked above).
    let root = unsafe {
        let (square, root) = sqrt_ratio_m1(&splat([4, 0, 0, 0, 0]), &Fe8::one());
        assert_eq!(square, 0xff);
        root.le_bytes_each()
    };
    assert_eq!(to_big(&root[0]), BigUint::from(2u32));
}

fn random_points(count: usize, seed: u8) -> Vec<RistrettoPoint> {
    (0..count)
        .map(|i| {
            let mut bytes = [seed; 64];
            bytes[0] = i as u8;
            bytes[1] = (i >> 8) as u8;
            RistrettoPoint::from_uniform_bytes(&bytes)
        })
        .collect()
}

#[test]
fn decode_encode_add_double_match_dalek() {
    if !supported() {
        return;
    }
    for round in 0..8u8 {
        let points = random_points(LANES, round);
        let others = random_points(LANES, round + 100);
        let mut bytes: [[u8; 32]; LANES] =
            core::array::from_fn(|i| points[i].compress().to_bytes());
        if round == 0 {
            bytes[3] = [0; 32]; // the identity
        }
        let other_bytes: [[u8; 32]; LANES] =
            core::array::from_fn(|i| others[i].compress().to_bytes());
        // SAFETY: the CPU has this engine's instruction set (checked above).
        let (valid, round_trip, sums, doubles) = unsafe {
            let (p, valid) = decode(&bytes);
            let (q, valid_q) = decode(&other_bytes);
            assert_eq!(valid_q, 0xff);
            (
                valid,
                encode(&p),
                encode(&p.add(&q.cached())),
                encode(&p.double()),
            )
        };
        assert_eq!(valid, 0xff);
        for lane in 0..LANES {
            let p = CompressedRistretto(bytes[lane]).decompress().unwrap();
            assert_eq!(round_trip[lane], bytes[lane]);
            assert_eq!(sums[lane], (p + others[lane]).compress().to_bytes());
            assert_eq!(doubles[lane], (p + p).compress().to_bytes());
        }
    }
}

#[test]
fn invalid_encodings_are_flagged_like_dalek() {
    if !supported() {
        return;
    }
    let generator = curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT
        .compress()
        .to_bytes();
    let mut high_bit = generator;
    high_bit[31] |= 0x80;
    let mut negative = [0u8; 32];
    negative[0] = 1;
    let non_canonical = from_big(&(p() + 2u32).min(BigUint::from(1u32) << 255u32));
    let candidates: Vec<[u8; 32]> = vec![generator, high_bit, negative, non_canonical, [0xff; 32]]
        .into_iter()
        .chain((2u8..40).step_by(2).map(|s| {
            let mut b = [0u8; 32];
            b[0] = s;
            b
        }))
        .collect();
    for chunk in candidates.chunks(LANES) {
        let bytes: [[u8; 32]; LANES] = core::array::from_fn(|i| chunk[i % chunk.len()]);
        // SAFETY: the CPU has this engine's instruction set (checked above).
        let (_, valid) = unsafe { decode(&bytes) };
        for (lane, encoding) in bytes.iter().enumerate() {
            let dalek_ok = CompressedRistretto(*encoding).decompress().is_some();
            assert_eq!(valid >> lane & 1 == 1, dalek_ok, "{encoding:?}");
        }
    }
}

#[test]
fn lane_sum_adds_the_eight_points() {
    if !supported() {
        return;
    }
    let points = random_points(LANES, 7);
    let bytes: [[u8; 32]; LANES] = core::array::from_fn(|i| points[i].compress().to_bytes());
    // SAFETY: the CPU has this engine's instruction set (checked above).
    let sum = unsafe { encode(&decode(&bytes).0.sum_lanes()) };
    let expected: RistrettoPoint = points.iter().sum();
    assert!(sum.iter().all(|s| *s == expected.compress().to_bytes()));
}

/// The engine's multi-scalar multiplication of short scalars.
fn short_msm(
    encoded: &[u8],
    decoded: Option<&super::DecodedBatch>,
    scalars: &[ShortScalar],
    bits: usize,
) -> Option<[u8; 32]> {
    let bytes: Vec<&[u8]> = scalars.iter().map(|s| &s.as_le_bytes()[..]).collect();
    msm_ct(encoded, decoded, &bytes, bits)
}

#[test]
fn short_msm_matches_the_generic_method() {
    if !supported() {
        return;
    }
    let mut x = 99u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for (n, bits) in [
        (1, 65),
        (2, 65),
        (7, 65),
        (8, 65),
        (9, 33),
        (20, 129),
        (300, 65),
    ] {
        let points = random_points(n, n as u8);
        let encoded: Vec<u8> = points
            .iter()
            .flat_map(|p| p.compress().to_bytes())
            .collect();
        let scalars: Vec<ShortScalar> = (0..n)
            .map(|i| match i % 5 {
                0 => ShortScalar::from_parts(0, bits > 128), // 2^128 or 0
                1 => ShortScalar::from_u128(1),
                _ => ShortScalar::from_u128(
                    (u128::from(next()) << 64 | u128::from(next())) >> (128 - (bits - 1).min(128)),
                ),
            })
            .collect();
        let fast = short_msm(&encoded, None, &scalars, bits).unwrap();
        let reference = generic_short_msm_ct::<Elements<Ristretto255>>(&scalars, &points, bits);
        assert_eq!(
            fast,
            reference.compress().to_bytes(),
            "n = {n}, bits = {bits}"
        );
        // The same with the first vectors' points decoded already (as a
        // check keeps them), the rest from their encodings.
        let head = &encoded[..(n / LANES) * LANES * 32];
        let decoded = decoded_batch(head).unwrap();
        let with_points = short_msm(&encoded, Some(&decoded), &scalars, bits).unwrap();
        assert_eq!(with_points, fast, "n = {n}, bits = {bits}, decoded head");
        let by_scalars: RistrettoPoint = scalars
            .iter()
            .zip(&points)
            .map(|(d, p)| p * d.to_scalar::<Ristretto255>().0)
            .sum();
        assert_eq!(reference, by_scalars);
    }
}

#[test]
fn select_uses_masks_only() {
    // The lookup's masks come from vector comparisons of the digits; a
    // smoke test that every digit value picks the right multiple.
    if !supported() {
        return;
    }
    let points = random_points(1, 42);
    let encoded = points[0].compress().to_bytes();
    for d in [0u128, 1, 7, 8, 9, 15, 16, 255, 256] {
        let fast = short_msm(&encoded, None, &[ShortScalar::from_u128(d)], 12).unwrap();
        let expected = points[0] * Scalar::from(d as u64);
        assert_eq!(fast, expected.compress().to_bytes(), "d = {d}");
    }
}

/// Scalars at the edges of the signed-digit recoding and the group order,
/// then pseudo-random ones.
fn edge_and_random_scalars(count: usize) -> Vec<Scalar> {
    let mut all_ones_windows = [0xffu8; 32];
    all_ones_windows[31] = 0x0f; // 2^252 − 1 < ℓ
    let mut eights = [0x88u8; 32]; // every digit 8: the recoding's carries
    eights[31] = 0x08;
    let mut scalars = vec![
        Scalar::ZERO,
        Scalar::ONE,
        Scalar::from(2u64),
        Scalar::from(8u64),
        Scalar::from(9u64),
        -Scalar::ONE, // ℓ − 1
        -Scalar::from(8u64),
        Scalar::from_bytes_mod_order(all_ones_windows),
        Scalar::from_bytes_mod_order(eights),
    ];
    let mut i = 0u16;
    while scalars.len() < count {
        let mut wide = [(i as u8).wrapping_mul(37) ^ 0x5a; 64];
        wide[..2].copy_from_slice(&i.to_le_bytes());
        scalars.push(Scalar::from_bytes_mod_order_wide(&wide));
        i += 1;
    }
    scalars
}

#[test]
fn evaluation_matches_dalek() {
    if !supported() {
        return;
    }
    // Sizes around the 8-lane chunks; a point and its negation, and a
    // point twice, in the same chunk.
    for n in [1usize, 7, 8, 9, 17, 8 * 33 + 3] {
        let mut points = random_points(n, n as u8 + 1);
        if n >= 8 {
            points[1] = -points[0];
            points[2] = points[0];
        }
        let encoded: Vec<u8> = points
            .iter()
            .flat_map(|p| p.compress().to_bytes())
            .collect();
        // SAFETY: the CPU has this engine's instruction set (checked above).
        let decoded = unsafe { super::evaluate::decode_non_identity(&encoded) }.unwrap();
        let keys = if n > 100 { 3 } else { 12 };
        for key in edge_and_random_scalars(keys) {
            let half_key = (key * Scalar::from(2u64).invert()).to_bytes();
            // From the encodings, from the points the check decoded, and
            // from the first half of those points and the rest's encodings.
            let mut from_encodings = vec![0u8; encoded.len()];
            let mut from_points = vec![0u8; encoded.len()];
            let mut from_both = vec![0u8; encoded.len()];
            let head = &decoded[..decoded.len() / 2];
            // SAFETY: as above.
            unsafe {
                use super::evaluate::mul_by_key;
                assert!(mul_by_key(&half_key, &[], &encoded, &mut from_encodings));
                assert!(mul_by_key(&half_key, &decoded, &encoded, &mut from_points));
                assert!(mul_by_key(&half_key, head, &encoded, &mut from_both));
            }
            assert_eq!(from_encodings, from_points);
            assert_eq!(from_encodings, from_both);
            for (p, answer) in points.iter().zip(from_encodings.chunks_exact(32)) {
                assert_eq!(answer, (p * key).compress().as_bytes(), "n = {n}");
            }
        }
    }
}

#[test]
fn evaluation_rejects_what_decoding_rejects() {
    if !supported() {
        return;
    }
    let good: Vec<u8> = random_points(9, 3)
        .iter()
        .flat_map(|p| p.compress().to_bytes())
        .collect();
    let mut negative_s = [0u8; 32];
    negative_s[0] = 1;
    for (position, bad) in [(0usize, [0u8; 32]), (8, negative_s), (4, [0xff; 32])] {
        let mut encoded = good.clone();
        encoded[32 * position..32 * position + 32].copy_from_slice(&bad);
        let mut out = vec![0u8; encoded.len()];
        // SAFETY: the CPU has this engine's instruction set (checked above).
        unsafe {
            assert!(super::evaluate::decode_non_identity(&encoded).is_none());
            // The identity decodes (zero bytes are its encoding): only the
            // check refuses it.
            let decodes = bad == [0; 32];
            let key = Scalar::from(5u64).to_bytes();
            assert_eq!(
                super::evaluate::mul_by_key(&key, &[], &encoded, &mut out),
                decodes
            );
        }
    }
}

#[test]
fn inversions_invert() {
    if !supported() {
        return;
    }
    let nonzero: Vec<BigUint> = values()
        .into_iter()
        .filter(|v| *v != BigUint::from(0u32))
        .collect();
    let vectors: Vec<[[u8; 32]; LANES]> = nonzero.chunks(LANES).map(lanes).collect();
    // SAFETY: the CPU has this engine's instruction set (checked above).
    unsafe {
        let elements: Vec<Fe8> = vectors.iter().map(|v| Fe8::from_le_bytes_each(v)).collect();
        let mut inverses = elements.clone();
        super::chains::invert_all(&mut inverses);
        let one = BigUint::from(1u32);
        for (x, batch_inverse) in elements.iter().zip(&inverses) {
            let by_batch = x.mul(batch_inverse).le_bytes_each();
            let by_one = x.mul(&x.invert()).le_bytes_each();
            assert!(by_batch.iter().chain(&by_one).all(|b| to_big(b) == one));
        }
    }
}

/// RFC 9496's one-way map, 8 lanes at once, equals dalek's
/// `from_uniform_bytes` on random inputs and on the edges of the field
/// encoding: zeros, ones, a set top bit (dropped), halves at and above `p`,
/// and the same input in two lanes.
#[test]
fn one_way_map_matches_dalek() {
    if !supported() {
        return;
    }
    let p_bytes = from_big(&p());
    let mut p_plus_one = p_bytes;
    p_plus_one[0] += 1;
    let mut inputs: Vec<[u8; 64]> = vec![[0u8; 64], [0xff; 64], [0x80; 64]];
    let mut one = [0u8; 64];
    one[0] = 1;
    one[32] = 1;
    inputs.push(one);
    let mut at_p = [0u8; 64];
    at_p[..32].copy_from_slice(&p_bytes);
    at_p[32..].copy_from_slice(&p_plus_one);
    inputs.push(at_p);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    while inputs.len() < 40 {
        let mut bytes = [0u8; 64];
        for b in bytes.iter_mut() {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            *b = (state >> 56) as u8;
        }
        inputs.push(bytes);
    }
    inputs.push(inputs[7]);
    for chunk in inputs.chunks(LANES) {
        let mut lanes = [[0u8; 64]; LANES];
        lanes[..chunk.len()].copy_from_slice(chunk);
        // SAFETY: the CPU has this engine's instruction set (checked above).
        let encoded = unsafe { encode(&from_uniform_bytes(&lanes)) };
        for (lane, input) in chunk.iter().enumerate() {
            let expected = RistrettoPoint::from_uniform_bytes(input).compress();
            assert_eq!(encoded[lane], expected.to_bytes(), "input {input:02x?}");
        }
    }
}

/// Each lane multiplied by its own scalar (the client's blinds and their
/// inverses) equals dalek, from encodings and from decoded points, over
/// partial vectors and more than one inversion pass, with the edge scalars
/// (zero among them) beside random ones.
#[test]
fn per_lane_multiplication_matches_dalek() {
    if !supported() {
        return;
    }
    for n in [1usize, 8, 13, 257, 300] {
        let points = random_points(n, n as u8);
        let mut scalars: Vec<Scalar> = edge_and_random_scalars(n);
        scalars.truncate(n);
        let half = Scalar::from(2u64).invert();
        let halves: Vec<[u8; 32]> = scalars.iter().map(|s| (s * half).to_bytes()).collect();
        let encoded: Vec<u8> = points
            .iter()
            .flat_map(|p| p.compress().to_bytes())
            .collect();
        let expected: Vec<u8> = points
            .iter()
            .zip(&scalars)
            .flat_map(|(p, s)| (p * s).compress().to_bytes())
            .collect();
        let mut out = vec![0u8; encoded.len()];
        assert!(mul_each(&halves, &encoded, None, &mut out));
        assert!(out == expected, "n={n} from encodings");
        let decoded = decoded_batch(&encoded).unwrap();
        out.fill(0);
        assert!(mul_each(&halves, &encoded, Some(&decoded), &mut out));
        assert!(out == expected, "n={n} from decoded points");
        // The first vectors' points decoded, the rest from encodings.
        let head = &encoded[..(n / 2) * 32];
        let decoded = decoded_batch(head).unwrap();
        out.fill(0);
        assert!(mul_each(&halves, &encoded, Some(&decoded), &mut out));
        assert!(out == expected, "n={n} from some decoded points");
    }
}

/// The multi-scalar multiplication over full-width scalars (a VOPRF
/// proof's composite weights) equals dalek's, from encodings and with the
/// first vectors' points decoded already, with the edge scalars among
/// random ones.
#[test]
fn full_width_msm_matches_dalek() {
    if !supported() {
        return;
    }
    for n in [1usize, 9, 300] {
        let points = random_points(n, 3 * n as u8);
        let mut scalars = edge_and_random_scalars(n);
        scalars.truncate(n);
        let encoded: Vec<u8> = points
            .iter()
            .flat_map(|p| p.compress().to_bytes())
            .collect();
        let bytes: Vec<[u8; 32]> = scalars.iter().map(Scalar::to_bytes).collect();
        let refs: Vec<&[u8]> = bytes.iter().map(|b| &b[..]).collect();
        let expected: RistrettoPoint = points.iter().zip(&scalars).map(|(p, s)| p * s).sum();
        let expected = expected.compress().to_bytes();
        assert_eq!(msm_ct(&encoded, None, &refs, 253), Some(expected), "n={n}");
        let head = &encoded[..(n / LANES) * LANES * 32];
        let decoded = decoded_batch(head).unwrap();
        assert_eq!(
            msm_ct(&encoded, Some(&decoded), &refs, 253),
            Some(expected),
            "n={n}, decoded head"
        );
    }
}
