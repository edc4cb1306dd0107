//! The BLS12-381 G1 engine against num-bigint (field, GLV split) and
//! `blst` (points, through the crate's `Bls12381G1` group; the
//! multi-scalar multiplications through `group::batch`, whose engine path
//! they take).

use oblivex_macros::lane_features;

use num_bigint::BigUint;

use super::chains::invert_all;
use super::codec::{decode_each, encode_affine, ENCODING_LEN, GENERATOR_ENCODING};
use super::complete::Projective8;
use super::decompose::{split, split_by_u, Coefficient, HALF_BITS, LAMBDA, QUARTER_BITS, U};
use super::field::{sqrt_candidate_each, Fp8};
use super::map::{hash_to_curve, UNIFORM_LEN};
use super::point::{Affine8, Jacobian8};
use super::scalar_mul::{self, Kept};
use crate::group::batch::{self, ReceivedBatch};
use crate::group::bls12_381::{Fr, G1};
use crate::group::lanes::bls12_381::exponents::P_BYTES;
use crate::group::lanes::toolkit::LANES;
use crate::group::straus::signed_digits;
use crate::group::{Bls12381G1, PrimeOrderGroup, ShortScalar};

/// The encodings of 8 points in Jacobian coordinates, with an inversion
/// of their own.
#[lane_features]
fn encoded_lanes(p: &Jacobian8) -> [[u8; ENCODING_LEN]; LANES] {
    let identity = p.z.is_zero();
    let inverse = p.z.select(&Fp8::one(), identity).invert();
    let inverse_squared = inverse.square();
    encode_affine(
        &p.x.mul(&inverse_squared),
        &p.y.mul(&inverse_squared.mul(&inverse)),
        identity,
    )
}

fn supported() -> bool {
    crate::group::lanes::cpu::supported(super::super::SET)
}

fn p() -> BigUint {
    BigUint::from_bytes_be(&P_BYTES)
}

fn r() -> BigUint {
    BigUint::parse_bytes(
        b"73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
        16,
    )
    .unwrap()
}

fn lambda() -> BigUint {
    BigUint::from(LAMBDA)
}

/// `u = |z|`.
fn u() -> BigUint {
    BigUint::from(U)
}

/// The 32 little-endian bytes of `k < 2^256`.
fn le32(k: &BigUint) -> [u8; 32] {
    let mut le = [0u8; 32];
    let bytes = k.to_bytes_le();
    le[..bytes.len()].copy_from_slice(&bytes);
    le
}

fn be48(x: &BigUint) -> [u8; 48] {
    let bytes = x.to_bytes_be();
    let mut out = [0u8; 48];
    out[48 - bytes.len()..].copy_from_slice(&bytes);
    out
}

/// xorshift bytes.
fn random_bytes<const N: usize>(state: &mut u64) -> [u8; N] {
    core::array::from_fn(|_| {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state as u8
    })
}

/// Field test values: the edges, then random values below p.
fn values() -> Vec<BigUint> {
    let p = p();
    let one = BigUint::from(1u32);
    let mut out = vec![
        BigUint::from(0u32),
        one.clone(),
        &p - 1u32,
        &p - 2u32,
        (&one << 52u32) - 1u32,
        &one << 380u32,
        (&one << 364u32) - 1u32,
        &p >> 1u32,
    ];
    let mut state = 0x0123_4567_89ab_cdefu64;
    while out.len() < 96 {
        out.push(BigUint::from_bytes_be(&random_bytes::<48>(&mut state)) % &p);
    }
    out
}

/// 8 values as an element (into Montgomery form).
#[lane_features]
fn field_of(values: &[BigUint]) -> Fp8 {
    Fp8::from_be_bytes_each(&core::array::from_fn(|i| be48(&values[i % values.len()])))
}

/// The canonical values of an element.
#[lane_features]
fn values_of(x: &Fp8) -> Vec<BigUint> {
    x.be_bytes_each()
        .iter()
        .map(|bytes| BigUint::from_bytes_be(bytes))
        .collect()
}

#[test]
fn bytes_round_trip_modulo_p() {
    if !supported() {
        return;
    }
    let mut state = 17u64;
    let p = p();
    for _ in 0..50 {
        let lanes: [[u8; 48]; LANES] = core::array::from_fn(|_| random_bytes(&mut state));
        // SAFETY: the CPU has this set (`supported`).
        let back = unsafe { Fp8::from_be_bytes_each(&lanes).be_bytes_each() };
        for (bytes, back) in lanes.iter().zip(&back) {
            assert_eq!(
                BigUint::from_bytes_be(back),
                BigUint::from_bytes_be(bytes) % &p
            );
        }
    }
    // SAFETY: as above.
    let p_is_zero = unsafe { Fp8::from_be_bytes_each(&[P_BYTES; LANES]).is_zero() };
    assert_eq!(p_is_zero, 0xff);
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
        // SAFETY: the CPU has this instruction set (checked above).
        let results = unsafe {
            let (x, y) = (field_of(a), field_of(b));
            [
                values_of(&x),
                values_of(&x.add(&y)),
                values_of(&x.sub(&y)),
                values_of(&x.neg()),
                values_of(&x.mul(&y)),
                values_of(&x.square()),
                values_of(&x.add_lazy(&y).mul(&x.add_lazy(&x))),
                values_of(&x.invert()),
                values_of(&sqrt_candidate_each(&[x])[0]),
                // 8x + 2y − 4x − 2y + 12p, then as a product's operands.
                values_of(
                    &Fp8::combination::<12, 32, 2, 2>([(&x, 3), (&y, 1)], [(&x, 2), (&y, 1)])
                        .mul(&Fp8::combination::<2, 4, 1, 1>([(&y, 0)], [(&x, 0)])),
                ),
                values_of(&x.mul_sum(&y, &x.add_lazy(&y), &x.add_lazy(&x))),
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
                ((x + y) * (x + x)) % &p,
                x.modpow(&exponent_inverse, &p),
                x.modpow(&exponent_sqrt, &p),
                (x * 4u32 * (y + &p - x)) % &p,
                (x * y + (x + y) * (x + x)) % &p,
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
    // SAFETY: the CPU has this instruction set (checked above).
    unsafe {
        let mut x = field_of(&want);
        let y = field_of(others);
        for step in 0..300 {
            x = match step % 6 {
                0 => x.add(&x).add(&y),
                1 => x.sub(&y).sub(&y),
                2 => {
                    let xy = x.mul(&y);
                    let twice = xy.add(&xy);
                    twice.add(&twice)
                }
                3 => x.square().neg(),
                4 => x.add(&x).add(&x).sub(&x.square()),
                _ => x.add_lazy(&y).mul(&x.sub(&y)),
            };
            for (w, o) in want.iter_mut().zip(others) {
                let v = w.clone();
                *w = match step % 6 {
                    0 => (&v + &v + o) % &p,
                    1 => (&v + &p + &p - o - o) % &p,
                    2 => (&v * o * 4u32) % &p,
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
    // SAFETY: the CPU has this instruction set (checked above).
    let inverted: Vec<Vec<BigUint>> = unsafe {
        let mut elements: Vec<Fp8> = all.chunks(LANES).map(|c| field_of(c)).collect();
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

fn scalar_of(x: &BigUint) -> Fr {
    let bytes = x.to_bytes_be();
    let mut be = [0u8; 32];
    be[32 - bytes.len()..].copy_from_slice(&bytes);
    let (s, canonical) = Bls12381G1::scalar_from_bytes(&be);
    assert!(canonical);
    s
}

fn le_bytes(s: &Fr) -> [u8; 32] {
    s.to_blst_scalar().b
}

/// `k·G` for deterministic `k`, and their negatives.
fn random_points(count: usize, seed: u64) -> Vec<G1> {
    let mut state = seed | 1;
    (0..count)
        .map(|i| {
            let k = Bls12381G1::hash_to_scalar(&[&random_bytes::<32>(&mut state)], b"test");
            let point = Bls12381G1::mul_base(&k);
            if i % 3 == 1 {
                Bls12381G1::neg(&point)
            } else {
                point
            }
        })
        .collect()
}

fn encoding(point: &G1) -> [u8; ENCODING_LEN] {
    let mut out = [0u8; ENCODING_LEN];
    Bls12381G1::encode(point, &mut out);
    out
}

#[test]
fn split_recombines() {
    let lambda = lambda();
    let u_squared = u() * u();
    for k in &edge_and_random_big(300) {
        let [k1, k2] = split(&le32(k)).map(|c| BigUint::from_bytes_le(&c));
        assert!(k1 < &u_squared * 2u32 && k2 < u_squared, "k = {k}");
        assert_eq!(&k1 + &k2 * &lambda, *k, "k = {k}");
    }
}

/// `k mod r` for the edge scalars of [`edge_scalars`] and random ones.
fn edge_and_random_big(count: usize) -> Vec<BigUint> {
    let r = r();
    let mut scalars: Vec<BigUint> = edge_scalars().iter().map(|k| k % &r).collect();
    let mut state = 3u64;
    while scalars.len() < count {
        scalars.push(BigUint::from_bytes_be(&random_bytes::<32>(&mut state)) % &r);
    }
    scalars
}

#[test]
fn split_by_u_recombines() {
    let (u, lambda) = (u(), lambda());
    for k in &edge_and_random_big(300) {
        let c = split_by_u(&le32(k)).map(|c| BigUint::from_bytes_le(&c));
        // The coefficients of P, u·P, σ(P) and σ(u·P): d₀ + d₂, d₁ + d₃,
        // d₂, d₃ for the base-u digits d.
        assert!(c[2] < u && c[3] < u, "k = {k}");
        assert!(c[0] >= c[2] && &c[0] - &c[2] < u, "k = {k}");
        assert!(c[1] >= c[3] && &c[1] - &c[3] < u, "k = {k}");
        assert!(c.iter().all(|c| c.bits() <= QUARTER_BITS as u64));
        assert_eq!(
            &c[0] + &c[1] * &u + &c[2] * &lambda + &c[3] * &u * &lambda,
            *k,
            "k = {k}"
        );
    }
}

/// Where `scalar_mul::multiply`'s additions meet the exceptional cases of
/// the incomplete formulas for coefficients `coefficients` of the bases
/// `τ_t·P` (as `(digit position, table)`): the running sum (not the
/// identity by its digits) equal or opposite to a non-zero entry, or the
/// identity by cancellation. A model over the integers mod r of the
/// additions' order; also checks that the sum is k.
fn exceptional_additions(
    k: &BigUint,
    coefficients: &[Coefficient],
    bits: usize,
    tau: &[BigUint],
) -> Vec<(usize, usize)> {
    let r = r();
    let digits: Vec<_> = coefficients
        .iter()
        .map(|c| signed_digits(c, bits))
        .collect();
    let (mut acc, mut no_digit, mut found) = (BigUint::from(0u32), true, Vec::new());
    for position in (0..digits[0].len()).rev() {
        acc = acc * 16u32 % &r;
        for (t, (digits, tau)) in digits.iter().zip(tau).enumerate() {
            let d = digits[position];
            let magnitude = tau * BigUint::from(d.unsigned_abs()) % &r;
            let entry = if d < 0 {
                (&r - magnitude) % &r
            } else {
                magnitude
            };
            let meets = acc == entry || (&acc + &entry) % &r == BigUint::from(0u32);
            if d != 0 && !no_digit && meets {
                found.push((position, t));
            }
            acc = (acc + entry) % &r;
            no_digit &= d == 0;
            if !no_digit && acc == BigUint::from(0u32) {
                found.push((position, t));
            }
        }
    }
    assert_eq!(acc, *k);
    found
}

/// The proof in `scalar_mul.rs`, checked on the edge scalars and random
/// ones for both decompositions: the additions meet equal, opposite or
/// cancelling operands only at the last digit position (where they are
/// doublings-or-additions), and the edge scalars do reach that case in
/// both (so that the tests against blst run it).
#[test]
fn additions_meet_exceptional_cases_only_at_the_last_digit() {
    let (r, u, lambda) = (r(), u(), lambda());
    let base_u = [
        BigUint::from(1u32),
        u.clone(),
        lambda.clone(),
        &u * &lambda % &r,
    ];
    let glv = [BigUint::from(1u32), lambda.clone()];
    let mut reached = [false; 2];
    for k in &edge_and_random_big(2000) {
        let le = le32(k);
        let found = [
            exceptional_additions(k, &*split_by_u(&le), QUARTER_BITS, &base_u),
            exceptional_additions(k, &*split(&le), HALF_BITS, &glv),
        ];
        for (reached, found) in reached.iter_mut().zip(&found) {
            assert!(
                found.iter().all(|&(position, _)| position == 0),
                "k = {k}: {found:?}"
            );
            *reached |= !found.is_empty();
        }
    }
    assert_eq!(reached, [true, true]);
    // 2(u³ − u) (digits 0, u − 2, u − 1, 1): the last addition adds σ(Q)
    // to σ(Q); 2λ (k₁ = λ, k₂ = 1): σ(P) to σ(P).
    let k = (&u * &u * &u - &u) * 2u32;
    let found = exceptional_additions(&k, &*split_by_u(&le32(&k)), QUARTER_BITS, &base_u);
    assert_eq!(found, [(0, 3)]);
    let k = &lambda * 2u32;
    let found = exceptional_additions(&k, &*split(&le32(&k)), HALF_BITS, &glv);
    assert_eq!(found, [(0, 1)]);
}

#[test]
fn decode_encode_add_double_match_blst() {
    if !supported() {
        return;
    }
    for round in 0..4u64 {
        let points = random_points(LANES, round);
        let others = random_points(LANES, round + 100);
        let mut bytes: [[u8; ENCODING_LEN]; LANES] = core::array::from_fn(|i| encoding(&points[i]));
        if round == 1 {
            bytes[2] = bytes[5]; // the same point twice
        }
        let other_bytes: [[u8; ENCODING_LEN]; LANES] =
            core::array::from_fn(|i| encoding(&others[i]));
        // SAFETY: the CPU has this instruction set (checked above).
        let (valid, valid_other, results) = unsafe {
            let [(a, valid), (b, valid_other)] = decode_each(&[bytes, other_bytes]);
            let (a, b) = (a.point, b.point);
            let ja = Jacobian8::from_affine(&a);
            let minus_a = Affine8 {
                x: a.x,
                y: a.y.neg(),
            };
            let sums = [
                ja,
                ja.add_mixed(&b, 0, 0),
                ja.double(),
                ja.double().double_times(3),
                ja.add_mixed_or_double(&a, 0, 0),
                ja.add_mixed_or_double(&b, 0, 0),
                ja.add_mixed(&minus_a, 0, 0),
                ja.add_mixed(&b, 0b0000_0101, 0b0011_0000),
                Jacobian8::from_affine(&a.endomorphism()),
            ];
            (valid, valid_other, sums.map(|s| encoded_lanes(&s)))
        };
        assert_eq!((valid, valid_other), (0xff, 0xff));
        let lambda = scalar_of(&lambda());
        for lane in 0..LANES {
            let a = Bls12381G1::decode(&bytes[lane]).unwrap();
            let b = others[lane];
            let masked = match lane {
                0 | 2 => b,
                4 | 5 => a,
                _ => Bls12381G1::add(&a, &b),
            };
            let two_a = Bls12381G1::add(&a, &a);
            let sixteen_a = Bls12381G1::mul(&a, &Bls12381G1::scalar_from_u64(16));
            let expected = [
                a,
                Bls12381G1::add(&a, &b),
                two_a,
                sixteen_a,
                two_a,
                Bls12381G1::add(&a, &b),
                Bls12381G1::identity(),
                masked,
                Bls12381G1::mul(&a, &lambda),
            ];
            for (k, (got, want)) in results.iter().zip(&expected).enumerate() {
                assert_eq!(got[lane], encoding(want), "result {k}, lane {lane}");
            }
        }
    }
}

/// The encodings of 8 points in projective coordinates, with an inversion
/// of their own.
#[lane_features]
fn encoded_projective(p: &Projective8) -> [[u8; ENCODING_LEN]; LANES] {
    let identity = p.z.is_zero();
    let inverse = p.z.select(&Fp8::one(), identity).invert();
    encode_affine(&p.x.mul(&inverse), &p.y.mul(&inverse), identity)
}

/// The complete addition and doubling against blst on their edge cases:
/// the identity either side, equal and opposite operands, and operands
/// with `Z ≠ 1` (sums and doubles).
#[test]
fn complete_formulas_match_blst() {
    if !supported() {
        return;
    }
    let points = random_points(LANES, 7);
    let others = random_points(LANES, 8);
    let bytes: [[u8; ENCODING_LEN]; LANES] = core::array::from_fn(|i| encoding(&points[i]));
    let other_bytes: [[u8; ENCODING_LEN]; LANES] = core::array::from_fn(|i| encoding(&others[i]));
    // SAFETY: the CPU has this instruction set (checked above).
    let results = unsafe {
        let [(a, _), (b, _)] = decode_each(&[bytes, other_bytes]);
        let (a, b) = (
            Projective8::from_affine(&a.point),
            Projective8::from_affine(&b.point),
        );
        let o = Projective8::identity();
        let two_a = a.add(&a);
        let sums = [
            o.add(&o),
            o.add(&a),
            a.add(&o),
            a.add(&b),
            two_a,
            a.add(&a.negate_where(0xff)),
            two_a.add(&a),
            two_a.add(&two_a.negate_where(0b1010_1010)),
            o.double(),
            a.double(),
            two_a.double(),
            a.add(&b).double_times(3),
            a.add(&b).add(&b.add(&a)),
        ];
        sums.map(|s| encoded_projective(&s))
    };
    for lane in 0..LANES {
        let (a, b, o) = (points[lane], others[lane], Bls12381G1::identity());
        let add = Bls12381G1::add;
        let times = |p: &G1, k: u64| Bls12381G1::mul(p, &Bls12381G1::scalar_from_u64(k));
        let expected = [
            o,
            a,
            a,
            add(&a, &b),
            times(&a, 2),
            o,
            times(&a, 3),
            if lane % 2 == 1 { o } else { times(&a, 4) },
            o,
            times(&a, 2),
            times(&a, 4),
            times(&add(&a, &b), 8),
            times(&add(&a, &b), 2),
        ];
        for (k, (got, want)) in results.iter().zip(&expected).enumerate() {
            assert_eq!(got[lane], encoding(want), "result {k}, lane {lane}");
        }
    }
}

/// The 48-byte encodings of points on the curve outside G1 (`x` small
/// integers with `x³ + 4` a square), with either sign.
fn outside_g1(count: usize) -> Vec<[u8; ENCODING_LEN]> {
    let p = p();
    let exponent = (&p - 1u32) >> 1u32;
    let mut out = Vec::new();
    let mut x = 1u32;
    while out.len() < count {
        x += 1;
        let rhs = (BigUint::from(x).pow(3) + 4u32) % &p;
        if rhs.modpow(&exponent, &p) != BigUint::from(1u32) {
            continue;
        }
        let mut e = be48(&BigUint::from(x));
        e[0] |= 0x80 | if x.is_multiple_of(2) { 0x20 } else { 0 };
        out.push(e);
    }
    out
}

/// Encodings every rule of blst's decoder refuses, and valid ones between
/// them.
fn mixed_encodings() -> Vec<[u8; ENCODING_LEN]> {
    let mut cases: Vec<[u8; ENCODING_LEN]> = Vec::new();
    let good = encoding(&random_points(1, 7)[0]);
    cases.push(good); // valid
    let mut other_root = good;
    other_root[0] ^= 0x20;
    cases.push(other_root); // valid: the other root
    let mut uncompressed = good;
    uncompressed[0] &= 0x7f;
    cases.push(uncompressed);
    let mut infinity_flag = good;
    infinity_flag[0] |= 0x40;
    cases.push(infinity_flag);
    let mut infinity = [0u8; ENCODING_LEN];
    infinity[0] = 0xc0;
    cases.push(infinity); // the identity: refused by the group
    infinity[0] = 0xe0;
    cases.push(infinity);
    let mut p_itself = P_BYTES;
    p_itself[0] |= 0x80;
    cases.push(p_itself);
    let mut above = [0xffu8; ENCODING_LEN];
    above[0] = 0x9f;
    cases.push(above);
    let mut zero = [0u8; ENCODING_LEN];
    zero[0] = 0x80;
    cases.push(zero); // x = 0: order 3
    zero[0] = 0xa0;
    cases.push(zero);
    cases.push(GENERATOR_ENCODING);
    cases.extend(outside_g1(12));
    let mut state = 99u64;
    for _ in 0..20 {
        let mut e: [u8; ENCODING_LEN] = random_bytes(&mut state);
        e[0] = 0x80 | (e[0] & 0x20) | (e[0] % 0x1a);
        cases.push(e);
    }
    cases.extend(random_points(6, 5).iter().map(encoding));
    cases
}

#[test]
fn invalid_encodings_are_flagged_like_blst() {
    if !supported() {
        return;
    }
    let cases = mixed_encodings();
    let mut accepted = 0;
    for chunk in cases.chunks(LANES) {
        let lanes: [[u8; ENCODING_LEN]; LANES] =
            core::array::from_fn(|i| *chunk.get(i).unwrap_or(&GENERATOR_ENCODING));
        // SAFETY: the CPU has this instruction set (checked above).
        let [(decoded, valid)] = unsafe { decode_each(&[lanes]) };
        // SAFETY: as above.
        let round_trip = unsafe { encoded_lanes(&Jacobian8::from_affine(&decoded.point)) };
        for lane in 0..LANES {
            let portable = Bls12381G1::decode(&lanes[lane]);
            assert_eq!(
                valid >> lane & 1 == 1,
                portable.is_ok(),
                "lane {lane}: {:02x?}",
                lanes[lane]
            );
            if portable.is_ok() {
                accepted += 1;
                assert_eq!(round_trip[lane], lanes[lane]);
            }
        }
    }
    assert!(accepted >= 10 && accepted < cases.len());
}

#[test]
fn invalid_encodings_anywhere_stop_the_batch() {
    if !supported() {
        return;
    }
    let points = random_points(20, 4);
    let valid: Vec<u8> = points.iter().flat_map(encoding).collect();
    for (position, bad) in [0usize, 7, 8, 13, 19]
        .into_iter()
        .zip(mixed_encodings()[2..].iter())
    {
        for bad in [*bad, outside_g1(position + 1)[position]] {
            let mut encoded = valid.clone();
            encoded[position * ENCODING_LEN..][..ENCODING_LEN].copy_from_slice(&bad);
            let mut out = vec![0u8; encoded.len()];
            // SAFETY: the CPU has this instruction set (checked above).
            assert!(unsafe { scalar_mul::decode_all(&encoded) }.is_none());
            // SAFETY: as above.
            assert!(!unsafe { scalar_mul::mul_by_key(&[1; 32], Kept::NONE, &encoded, &mut out) });
        }
    }
    // SAFETY: as above.
    assert!(unsafe { scalar_mul::decode_all(&valid) }.is_some());
}

/// Scalars at the edges of the window method, of the decompositions and
/// of the formulas (not reduced mod r): 0, 1, 2, small values, r − 1, r −
/// 2, λ and its neighbours, λ² + 1, 2λ (`k₁ = λ`, `k₂ = 1`: the last
/// addition of the GLV decomposition meets equal points), u and its powers
/// and their neighbours, `(u − 1)·u³` (`d₃ = u − 1`), `2(u³ − u)` (the
/// last addition of the base-u decomposition meets equal points), all-8
/// and all-7 digits in both decompositions.
fn edge_scalars() -> Vec<BigUint> {
    let r = r();
    let (lambda, u) = (lambda(), u());
    let mut big: Vec<BigUint> = [0u64, 1, 2, 3, 8, 9, 15, 16, 17]
        .iter()
        .map(|&v| BigUint::from(v))
        .collect();
    for below in [1u32, 2, 3, 17, 18, 33] {
        big.push(&r - below);
    }
    big.push(lambda.clone());
    big.push(&lambda - 1u32);
    big.push(&lambda + 1u32);
    big.push(&lambda * &lambda + 1u32);
    big.push(&lambda * &lambda + 2u32);
    big.push(&lambda * &lambda - 1u32);
    big.push(&lambda * 2u32);
    big.push(
        BigUint::from_bytes_be(&[0x88; 16]) * (&lambda + 1u32)
            + BigUint::from_bytes_be(&[0x88; 16]),
    );
    big.push(BigUint::from_bytes_be(&[0x77; 16]) * &lambda + BigUint::from_bytes_be(&[0xff; 15]));
    big.push((BigUint::from(1u32) << 254u32) - 1u32);
    let (u2, u3) = (&u * &u, &u * &u * &u);
    for power in [&u, &u2, &u3] {
        big.extend([power - 1u32, power.clone(), power + 1u32]);
    }
    big.push((&u - 1u32) * &u3);
    big.push((&u3 - &u) * 2u32);
    for digit in [0x8888_8888_8888_8888u64, 0x7777_7777_7777_7777] {
        let d = BigUint::from(digit);
        big.push(&d * (1u32 + &u + &u2 + &u3));
    }
    big
}

/// [`edge_scalars`] mod r, then random scalars, `count` in all.
fn edge_and_random_scalars(count: usize) -> Vec<Fr> {
    let r = r();
    let mut out: Vec<Fr> = edge_scalars()
        .iter()
        .map(|x| scalar_of(&(x % &r)))
        .collect();
    let mut state = 5u64;
    while out.len() < count {
        out.push(Bls12381G1::hash_to_scalar(
            &[&random_bytes::<32>(&mut state)],
            b"k",
        ));
    }
    out.truncate(count);
    out
}

#[test]
fn key_multiplication_matches_blst() {
    if !supported() {
        return;
    }
    let points = random_points(270, 3);
    for (index, key) in edge_and_random_scalars(44).iter().enumerate().skip(1) {
        for count in [1usize, 7, 8, 9, 17, 257, 270] {
            let encoded: Vec<u8> = points[..count].iter().flat_map(encoding).collect();
            let mut out = vec![0u8; encoded.len()];
            // SAFETY: the CPU has this instruction set (checked above).
            let decoded = unsafe { scalar_mul::decode_all(&encoded) }.unwrap();
            let affine: Vec<Affine8> = decoded.iter().map(|d| d.point).collect();
            let times_u: Vec<Jacobian8> = decoded.iter().map(|d| d.times_u).collect();
            // Decoded points for the whole batch, for its full vectors
            // only (a check's head; at 17 without their multiples by u, as
            // a blinding keeps them), or none.
            let kept = match count {
                9 => Kept {
                    points: &affine,
                    times_u: &times_u,
                },
                17 => Kept {
                    points: &affine[..count / LANES],
                    times_u: &[],
                },
                270 => Kept {
                    points: &affine[..count / LANES],
                    times_u: &times_u[..count / LANES],
                },
                _ => Kept::NONE,
            };
            // SAFETY: as above.
            assert!(unsafe { scalar_mul::mul_by_key(&le_bytes(key), kept, &encoded, &mut out) });
            for (i, answer) in out.chunks_exact(ENCODING_LEN).enumerate() {
                assert_eq!(
                    answer,
                    encoding(&Bls12381G1::mul(&points[i], key)),
                    "key {index}, count {count}, element {i}"
                );
            }
            if count > 9 && index != 1 {
                break; // the long batches once are enough
            }
        }
    }
}

#[test]
fn per_element_multiplication_matches_blst() {
    if !supported() {
        return;
    }
    let scalars = edge_and_random_scalars(48);
    let mut points = random_points(48, 11);
    points[5] = points[4]; // P twice in one vector
    points[6] = Bls12381G1::neg(&points[4]); // and −P
    let encoded: Vec<u8> = points.iter().flat_map(encoding).collect();
    let bytes: Vec<[u8; 32]> = scalars.iter().map(le_bytes).collect();
    let mut out = vec![0u8; encoded.len()];
    // SAFETY: the CPU has this instruction set (checked above).
    assert!(unsafe { scalar_mul::mul_each(&bytes, Kept::NONE, &encoded, &mut out) });
    for (i, answer) in out.chunks_exact(ENCODING_LEN).enumerate() {
        // The zero scalar's product, the identity, encodes as blst's.
        assert_eq!(
            answer,
            encoding(&Bls12381G1::mul(&points[i], &scalars[i])),
            "element {i}"
        );
    }
}

#[test]
fn msm_matches_blst() {
    if !supported() {
        return;
    }
    let mut state = 31u64;
    let mut points = random_points(300, 21);
    points[3] = points[2]; // P twice
    points[4] = Bls12381G1::neg(&points[2]); // and −P
    let full_scalars = edge_and_random_scalars(300);
    for count in [1usize, 2, 8, 9, 40, 300] {
        let scalars: Vec<ShortScalar> = (0..count)
            .map(|i| match i {
                0 => ShortScalar::from_u128(0),
                1 => ShortScalar::from_u128(u128::MAX), // all-ones windows
                2 => ShortScalar::from_parts(0, true),
                _ => ShortScalar::from_u128(u128::from_le_bytes(random_bytes(&mut state))),
            })
            .collect();
        let encoded: Vec<u8> = points[..count].iter().flat_map(encoding).collect();
        let sum_of = |scalars: &[Fr]| {
            points[..count]
                .iter()
                .zip(scalars)
                .fold(Bls12381G1::identity(), |sum, (p, s)| {
                    Bls12381G1::add(&sum, &Bls12381G1::mul(p, s))
                })
        };
        let short: Vec<Fr> = scalars
            .iter()
            .map(ShortScalar::to_scalar::<Bls12381G1>)
            .collect();
        let checked = batch::check::<Bls12381G1>(&encoded).unwrap();
        for received in [
            ReceivedBatch::new(&encoded, None),
            ReceivedBatch::of_checked(&encoded, &checked),
        ] {
            let sum = batch::msm_short_ct::<Bls12381G1>(&scalars, received, 136);
            assert_eq!(encoding(&sum), encoding(&sum_of(&short)), "count {count}");
            let full = &full_scalars[..count];
            let sum = batch::msm_vartime::<Bls12381G1>(full, received);
            assert_eq!(encoding(&sum), encoding(&sum_of(full)), "count {count}");
        }
    }
    // A malicious server's answers: one point everywhere, or one point
    // and its opposite in turn, so that partial sums meet table entries.
    let point = points[5];
    for opposite in [false, true] {
        let chosen: Vec<G1> = (0..40)
            .map(|i| match opposite && i % 2 == 1 {
                true => Bls12381G1::neg(&point),
                false => point,
            })
            .collect();
        let encoded: Vec<u8> = chosen.iter().flat_map(encoding).collect();
        let scalars: Vec<ShortScalar> = (0..40)
            .map(|i| {
                ShortScalar::from_u128(u128::from(random_bytes::<1>(&mut state)[0] % 4 + i % 2))
            })
            .collect();
        let expected = chosen
            .iter()
            .zip(&scalars)
            .fold(Bls12381G1::identity(), |sum, (p, d)| {
                Bls12381G1::add(&sum, &Bls12381G1::mul(p, &d.to_scalar::<Bls12381G1>()))
            });
        let sum =
            batch::msm_short_ct::<Bls12381G1>(&scalars, ReceivedBatch::new(&encoded, None), 65);
        assert_eq!(encoding(&sum), encoding(&expected), "opposite {opposite}");
    }
    // A sum that is the identity: d·P + d·(−P).
    let pair = [points[2], points[4]];
    let encoded: Vec<u8> = pair.iter().flat_map(encoding).collect();
    let d = [
        ShortScalar::from_u128(7 << 100),
        ShortScalar::from_u128(7 << 100),
    ];
    let sum = batch::msm_short_ct::<Bls12381G1>(&d, ReceivedBatch::new(&encoded, None), 136);
    assert!(Bls12381G1::is_identity(&sum));
}

/// 128 bytes of expand_message_xmd per input, as
/// `Bls12381G1::hash_to_group` makes them.
fn uniform_of(inputs: &[Vec<u8>], dst: &[u8]) -> Vec<[u8; UNIFORM_LEN]> {
    inputs
        .iter()
        .map(|x| {
            let bytes =
                crate::group::xmd::expand_message_xmd::<sha2::Sha256>(&[x], dst, UNIFORM_LEN);
            bytes.as_slice().try_into().unwrap()
        })
        .collect()
}

fn test_inputs(count: usize) -> Vec<Vec<u8>> {
    let mut state = 77u64;
    (0..count)
        .map(|i| match i {
            0 => Vec::new(),
            1 => b"abc".to_vec(),
            _ => random_bytes::<32>(&mut state)[..i % 32].to_vec(),
        })
        .collect()
}

#[test]
fn hash_to_curve_matches_blst() {
    if !supported() {
        return;
    }
    let dst = b"QUUX-V01-CS02-with-BLS12381G1_XMD:SHA-256_SSWU_RO_";
    let inputs = test_inputs(40);
    let uniform = uniform_of(&inputs, dst);
    for (chunk, inputs) in uniform.chunks(LANES).zip(inputs.chunks(LANES)) {
        let lanes: [[u8; UNIFORM_LEN]; LANES] = core::array::from_fn(|i| chunk[i]);
        // SAFETY: the CPU has this instruction set (checked above).
        let points = unsafe { encoded_lanes(&hash_to_curve(&lanes)) };
        for (lane, input) in inputs.iter().enumerate() {
            let expected = Bls12381G1::hash_to_group(&[input], dst);
            assert_eq!(points[lane], encoding(&expected), "input {input:02x?}");
        }
    }
}

#[test]
fn hashing_and_blinding_matches_blst() {
    if !supported() {
        return;
    }
    let dst = b"HashToGroup-OPRFV1-\x00-BLS12381G1-SHA256";
    for count in [1usize, 8, 13, 40] {
        let inputs = test_inputs(count);
        let uniform = uniform_of(&inputs, dst);
        let blinds = edge_and_random_scalars(count + 1);
        let blinds = &blinds[1..]; // no zero blind
        let bytes: Vec<[u8; 32]> = blinds.iter().map(le_bytes).collect();
        let mut out = vec![0u8; ENCODING_LEN * count];
        // SAFETY: the CPU has this instruction set (checked above).
        let kept = unsafe { scalar_mul::hash_mul_encode(&uniform, &bytes, &mut out) }.unwrap();
        assert_eq!(kept.len(), count.div_ceil(LANES));
        for (i, blinded) in out.chunks_exact(ENCODING_LEN).enumerate() {
            let expected =
                Bls12381G1::mul(&Bls12381G1::hash_to_group(&[&inputs[i]], dst), &blinds[i]);
            assert_eq!(blinded, encoding(&expected), "count {count}, input {i}");
        }
        // The kept points are the blinded elements: multiplied by 1 they
        // encode the same.
        let mut again = vec![0u8; out.len()];
        let ones = vec![le_bytes(&Bls12381G1::scalar_from_u64(1)); count];
        let kept = Kept {
            points: &kept,
            times_u: &[],
        };
        // SAFETY: as above.
        assert!(unsafe { scalar_mul::mul_each(&ones, kept, &out, &mut again) });
        assert_eq!(again, out);
    }
}
