//! Every group honours the trait's contract: group laws, batch operations
//! equal their one-by-one forms, and the decoders reject every invalid
//! encoding (non-canonical, off-curve, outside the subgroup, identity,
//! out-of-range or zero scalars). Plus the RFC 9380 hash-to-curve vectors
//! for BLS12-381 G1.

use oblivex::group::batch::{self, CheckedBatch, ReceivedBatch};
use oblivex::group::{
    encode_scalar_to_vec, encode_to_vec, Bls12381G1, Ffdhe2048, Ffdhe3072, Ffdhe4096,
    PrimeOrderGroup, Ristretto255, ShortScalar, P256,
};
use oblivex::Error;
use rand_core::{Rng, UnwrapErr};
use serde_json::Value;

fn rng() -> UnwrapErr<getrandom::SysRng> {
    UnwrapErr(getrandom::SysRng)
}

fn laws<G: PrimeOrderGroup>() {
    let mut rng = rng();
    let (a, b) = (G::random_scalar(&mut rng), G::random_scalar(&mut rng));
    let (pa, pb) = (G::mul_base(&a), G::mul_base(&b));
    assert_eq!(
        G::add(&pa, &pb),
        G::mul_base(&G::scalar_add(&a, &b)),
        "{} add",
        G::SUITE_ID
    );
    assert_eq!(
        G::add(&pa, &G::neg(&pb)),
        G::mul_base(&G::scalar_sub(&a, &b)),
        "{} neg",
        G::SUITE_ID
    );
    assert_eq!(
        G::mul(&pa, &b),
        G::mul_base(&G::scalar_mul(&a, &b)),
        "{} mul",
        G::SUITE_ID
    );
    assert_eq!(
        G::mul(&G::mul(&pa, &b), &G::scalar_invert(&b)),
        pa,
        "{} invert",
        G::SUITE_ID
    );
    assert!(G::is_identity(&G::add(&pa, &G::neg(&pa))));
    assert_eq!(G::mul_base(&G::scalar_from_u64(1)), G::generator());

    // Batch forms equal the one-by-one forms.
    let elements: Vec<G::Element> = (0..5)
        .map(|i| G::hash_to_group(&[b"element", &[i]], b"test-dst"))
        .collect();
    let scalars: Vec<G::Scalar> = (0..5).map(|_| G::random_scalar(&mut rng)).collect();
    let batch = G::mul_batch(&a, &elements);
    for (e, product) in elements.iter().zip(&batch) {
        assert_eq!(G::mul(e, &a), *product);
    }
    let mut fused = vec![0u8; 5 * G::ELEMENT_LEN];
    G::mul_batch_encode(&a, &elements, &mut fused);
    let mut each = vec![0u8; 5 * G::ELEMENT_LEN];
    let products = G::mul_each_encode(&scalars, &elements, &mut each);
    for i in 0..5 {
        assert_eq!(
            fused[i * G::ELEMENT_LEN..][..G::ELEMENT_LEN],
            encode_to_vec::<G>(&batch[i])[..]
        );
        let expected = G::mul(&elements[i], &scalars[i]);
        assert_eq!(products[i], expected);
        assert_eq!(
            each[i * G::ELEMENT_LEN..][..G::ELEMENT_LEN],
            encode_to_vec::<G>(&expected)[..]
        );
    }
    let msm = G::msm_vartime(&scalars, &elements);
    let sum = elements
        .iter()
        .zip(&scalars)
        .fold(G::identity(), |acc, (e, s)| G::add(&acc, &G::mul(e, s)));
    assert_eq!(msm, sum, "{} msm", G::SUITE_ID);
    let mut inverses = scalars.clone();
    G::batch_invert(&mut inverses);
    for (s, inv) in scalars.iter().zip(&inverses) {
        assert_eq!(
            encode_scalar_to_vec::<G>(&G::scalar_invert(s)),
            encode_scalar_to_vec::<G>(inv)
        );
    }

    // Encodings round-trip; the batch decoder checks lengths.
    let bytes = encode_to_vec::<G>(&pa);
    assert_eq!(G::decode(&bytes).unwrap(), pa);
    assert_eq!(
        G::decode_batch(&[bytes.clone(), bytes.clone()].concat())
            .unwrap()
            .len(),
        2
    );
    assert_eq!(G::decode_batch(&bytes[1..]), Err(Error::BadLength));
    assert_eq!(G::decode_batch(&[]), Err(Error::BadLength));
    let s = encode_scalar_to_vec::<G>(&a);
    assert_eq!(encode_scalar_to_vec::<G>(&G::decode_scalar(&s).unwrap()), s);
}

/// The multi-scalar multiplication equals the sum of products at sizes
/// that exercise different bucket windows, with small, zero-digit and
/// repeated scalars and a repeated point.
fn msm_sizes<G: PrimeOrderGroup>() {
    for n in [2usize, 3, 17, 130] {
        let mut elements: Vec<G::Element> = (0..n)
            .map(|_| G::mul_base(&G::random_scalar(&mut rng())))
            .collect();
        elements[n - 1] = elements[0].clone();
        let mut scalars: Vec<G::Scalar> = (0..n).map(|_| G::random_scalar(&mut rng())).collect();
        scalars[0] = G::scalar_from_u64(1);
        scalars[1] = G::scalar_from_u64(1 << 40);
        if n > 2 {
            scalars[2] = scalars[n - 1].clone();
        }
        let sum = elements
            .iter()
            .zip(&scalars)
            .fold(G::identity(), |acc, (e, s)| G::add(&acc, &G::mul(e, s)));
        assert_eq!(
            G::msm_vartime(&scalars, &elements),
            sum,
            "{} n={n}",
            G::SUITE_ID
        );
        let mut encoded = vec![0u8; n * G::ELEMENT_LEN];
        G::encode_batch(&elements, &mut encoded);
        for given in [Some(elements.as_slice()), None] {
            assert_eq!(
                batch::msm_vartime(&scalars, received::<G>(&encoded, given)),
                sum,
                "{} n={n} received, elements given: {}",
                G::SUITE_ID,
                given.is_some()
            );
        }

        // Short scalars (the batch check's): constant-time and variable-time
        // forms, with the extreme values 1, 2^64 and up to 2^123.
        let short: Vec<ShortScalar> = (0..n)
            .map(|i| match i % 4 {
                0 => ShortScalar::from_u128(1),
                1 => ShortScalar::from_u128(1 << 64),
                _ => ShortScalar::from_u128(u128::from(rng().next_u64()) << (i % 60)),
            })
            .collect();
        let expected = elements
            .iter()
            .zip(&short)
            .fold(G::identity(), |acc, (e, d)| {
                G::add(&acc, &G::mul(e, &d.to_scalar::<G>()))
            });
        for bits in [129, 136] {
            assert_eq!(
                batch::msm_short_ct(&short, received::<G>(&encoded, Some(&elements)), bits),
                expected,
                "{} n={n} ct",
                G::SUITE_ID
            );
            assert_eq!(
                G::msm_short_ct(&short, &elements, bits),
                expected,
                "{} n={n} ct one element at a time",
                G::SUITE_ID
            );
            assert_eq!(
                G::msm_short_vartime(&short, &elements, bits),
                expected,
                "{} n={n} vartime",
                G::SUITE_ID
            );
            for given in [Some(elements.as_slice()), None] {
                assert_eq!(
                    batch::msm_short_vartime(&short, received::<G>(&encoded, given), bits),
                    expected,
                    "{} n={n} vartime received, elements given: {}",
                    G::SUITE_ID,
                    given.is_some()
                );
            }
        }
        assert_eq!(
            batch::msm_short_ct(&short, received::<G>(&encoded, None), 129),
            expected,
            "{} n={n} ct without decoded elements",
            G::SUITE_ID
        );
    }
}

/// A batch received: its encodings and, if given, its elements.
fn received<'a, G: PrimeOrderGroup>(
    encoded: &'a [u8],
    elements: Option<&'a [G::Element]>,
) -> ReceivedBatch<'a, G> {
    ReceivedBatch::new(encoded, elements)
}

/// The client's batch operations equal their one-by-one forms: hashing
/// and blinding (`r_i·H(x_i)`), and unblinding an answer as received, with
/// its elements decoded or not, across partial vectors of 8 and (for
/// ristretto255, whose IFMA engine inverts per 256 elements) more than one
/// pass.
fn client_batches<G: PrimeOrderGroup>() {
    let mut rng = rng();
    let dst = b"oblivex test client batches";
    let mut sizes = vec![1usize, 9, 70];
    if G::SUITE_ID.starts_with("ristretto") {
        sizes.push(300);
    }
    for n in sizes {
        let inputs: Vec<Vec<u8>> = (0..n).map(|i| vec![i as u8; i % 50]).collect();
        let input_refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let blinds: Vec<G::Scalar> = (0..n).map(|_| G::random_scalar(&mut rng)).collect();
        let expected: Vec<G::Element> = inputs
            .iter()
            .zip(&blinds)
            .map(|(x, r)| G::mul(&G::hash_to_group(&[x], dst), r))
            .collect();
        let mut expected_bytes = vec![0u8; n * G::ELEMENT_LEN];
        G::encode_batch(&expected, &mut expected_bytes);
        let mut out = vec![0u8; n * G::ELEMENT_LEN];
        let blinded = batch::hash_and_blind::<G>(&input_refs, dst, &blinds, &mut out).unwrap();
        assert!(out == expected_bytes, "{} n={n} blinded", G::SUITE_ID);
        if let CheckedBatch::Elements(blinded) = blinded {
            assert!(
                blinded == expected,
                "{} n={n} blinded elements",
                G::SUITE_ID
            );
        }

        let answers: Vec<G::Element> = (0..n)
            .map(|_| G::mul_base(&G::random_scalar(&mut rng)))
            .collect();
        let mut answer_bytes = vec![0u8; n * G::ELEMENT_LEN];
        G::encode_batch(&answers, &mut answer_bytes);
        let products: Vec<G::Element> = answers
            .iter()
            .zip(&blinds)
            .map(|(y, r)| G::mul(y, r))
            .collect();
        G::encode_batch(&products, &mut expected_bytes);
        for given in [Some(answers.as_slice()), None] {
            batch::mul_each(&blinds, received::<G>(&answer_bytes, given), &mut out);
            assert!(
                out == expected_bytes,
                "{} n={n} unblinded, elements given: {}",
                G::SUITE_ID,
                given.is_some()
            );
        }
    }
}

/// `mul_each` (which a group may run on its own engine) equals one-by-one
/// `mul`, with the identity and a zero scalar among the operands and
/// batches longer than one vector of 8, with and without a tail the
/// engine leaves to the one-at-a-time path.
fn mul_each_edges<G: PrimeOrderGroup>() {
    let mut rng = rng();
    let mut elements: Vec<G::Element> = (0..11u8)
        .map(|i| G::hash_to_group(&[b"each", &[i]], b"test-dst"))
        .collect();
    elements[3] = G::identity();
    elements[9] = elements[8].clone();
    let mut scalars: Vec<G::Scalar> = (0..11).map(|_| G::random_scalar(&mut rng)).collect();
    scalars[5] = G::scalar_from_u64(0);
    scalars[6] = G::scalar_from_u64(1);
    for count in [1usize, 2, 9, 10, 11] {
        let products = G::mul_each(&scalars[..count], &elements[..count]);
        for i in 0..count {
            let expected = G::mul(&elements[i], &scalars[i]);
            assert!(
                products[i] == expected,
                "{} mul_each {i} of {count}",
                G::SUITE_ID
            );
        }
    }
}

/// A message's elements, where the group's engine checked it and hands
/// its points over (BLS12-381 on the ifma backend), are the elements the
/// one-at-a-time decoder gives, in order, for batches with and without a
/// tail the engine leaves to the portable path.
fn received_elements<G: PrimeOrderGroup>() {
    for count in [1usize, 2, 3, 8, 9, 10, 11, 17] {
        let elements: Vec<G::Element> = (0..count)
            .map(|_| G::mul_base(&G::random_scalar(&mut rng())))
            .collect();
        let mut encoded = vec![0u8; count * G::ELEMENT_LEN];
        G::encode_batch(&elements, &mut encoded);
        let message = oblivex::message::EvaluatedElements::<G>::from_bytes(&encoded).unwrap();
        assert_eq!(message.elements(), elements, "{} n={count}", G::SUITE_ID);
    }
}

#[test]
fn received_elements_match_the_decoder() {
    received_elements::<Ristretto255>();
    received_elements::<P256>();
    received_elements::<Bls12381G1>();
}

#[test]
fn mul_each_matches_one_by_one() {
    mul_each_edges::<Ristretto255>();
    mul_each_edges::<P256>();
    mul_each_edges::<Bls12381G1>();
    mul_each_edges::<Ffdhe2048>();
}

#[test]
fn client_batches_match_one_by_one() {
    client_batches::<Ristretto255>();
    client_batches::<P256>();
    client_batches::<Bls12381G1>();
    client_batches::<Ffdhe2048>();
}

#[test]
fn msm_matches_the_sum_of_products() {
    msm_sizes::<Ristretto255>();
    msm_sizes::<P256>();
    msm_sizes::<Bls12381G1>();
    msm_sizes::<Ffdhe2048>();
}

fn rejects<G: PrimeOrderGroup>(invalid_elements: &[Vec<u8>]) {
    let identity = {
        // The identity has no valid encoding; encode it where a group can.
        let mut out = vec![0u8; G::ELEMENT_LEN];
        G::encode(&G::identity(), &mut out);
        out
    };
    assert_eq!(
        G::decode(&identity),
        Err(Error::InvalidElement),
        "{} identity",
        G::SUITE_ID
    );
    for bad in invalid_elements {
        assert_eq!(
            G::decode(bad),
            Err(Error::InvalidElement),
            "{} accepted {}",
            G::SUITE_ID,
            hex::encode(bad)
        );
    }
    let good = encode_to_vec::<G>(&G::generator());
    assert_eq!(
        G::decode(&good[1..]),
        Err(Error::InvalidElement),
        "{} short",
        G::SUITE_ID
    );
    assert_eq!(
        G::decode(&[good.clone(), vec![0]].concat()),
        Err(Error::InvalidElement),
        "{} long",
        G::SUITE_ID
    );
    for (bytes, what) in [
        (vec![0u8; G::SCALAR_LEN], "zero"),
        (vec![0xffu8; G::SCALAR_LEN], ">= q"),
        (vec![1u8; G::SCALAR_LEN - 1], "short"),
    ] {
        assert!(
            matches!(G::decode_scalar(&bytes), Err(Error::InvalidScalar)),
            "{} scalar {what}",
            G::SUITE_ID
        );
    }
}

#[test]
fn ristretto255_contract() {
    laws::<Ristretto255>();
    let mut high_bit = encode_to_vec::<Ristretto255>(&Ristretto255::generator());
    high_bit[31] |= 0x80;
    // RFC 9496 §A.2: non-canonical field encodings and negative values.
    let non_canonical =
        hex::decode("00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f").unwrap();
    let negative =
        hex::decode("0100000000000000000000000000000000000000000000000000000000000000").unwrap();
    rejects::<Ristretto255>(&[high_bit, non_canonical, negative, vec![0xff; 32]]);
}

#[test]
fn p256_contract() {
    laws::<P256>();
    let generator = encode_to_vec::<P256>(&P256::generator());
    let mut uncompressed_tag = generator.clone();
    uncompressed_tag[0] = 0x04;
    let mut x_too_large = vec![0x02];
    x_too_large.extend([0xff; 32]);
    // An x for which x^3 - 3x + b is not a square mod p: no curve point.
    let field = num_bigint::BigUint::parse_bytes(
        b"ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
        16,
    )
    .unwrap();
    let b = num_bigint::BigUint::parse_bytes(
        b"5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
        16,
    )
    .unwrap();
    let off_curve_x = (1u32..)
        .map(num_bigint::BigUint::from)
        .find(|x| {
            let rhs = (x * x * x + &field * 3u32 - x * 3u32 + &b) % &field;
            rhs.modpow(&((&field - 1u32) >> 1), &field) != num_bigint::BigUint::from(1u32)
        })
        .unwrap();
    let x_bytes = off_curve_x.to_bytes_be();
    let mut off_curve = vec![0x02];
    off_curve.extend(vec![0u8; 32 - x_bytes.len()]);
    off_curve.extend(x_bytes);
    rejects::<P256>(&[uncompressed_tag, x_too_large, off_curve]);
}

#[test]
fn bls12_381_g1_contract() {
    laws::<Bls12381G1>();
    let generator = encode_to_vec::<Bls12381G1>(&Bls12381G1::generator());
    let mut not_compressed = generator.clone();
    not_compressed[0] &= 0x7f;
    let mut x_too_large = vec![0xff; 48];
    x_too_large[0] = 0x9f; // compressed flag, x >= p
                           // A point on the curve but outside the order-r subgroup: most x that
                           // give a curve point do (the cofactor is large).
    let outside = (1u8..=255)
        .map(|x| {
            let mut c = vec![0u8; 48];
            c[0] = 0x80;
            c[47] = x;
            c
        })
        .find(|c| {
            let mut affine = blst::blst_p1_affine::default();
            // SAFETY: `c` holds 48 bytes.
            let ok = unsafe { blst::blst_p1_uncompress(&mut affine, c.as_ptr()) }
                == blst::BLST_ERROR::BLST_SUCCESS;
            // SAFETY: `affine` is initialised.
            ok && !unsafe { blst::blst_p1_affine_in_g1(&affine) }
        })
        .expect("some small x gives a curve point outside G1");
    rejects::<Bls12381G1>(&[not_compressed, x_too_large, outside]);
}

fn ffdhe_contract<G: PrimeOrderGroup>(p_hex: &str) {
    laws::<G>();
    let p = num_bigint::BigUint::parse_bytes(p_hex.as_bytes(), 16).unwrap();
    let bytes = |v: &num_bigint::BigUint| {
        let b = v.to_bytes_be();
        [vec![0u8; G::ELEMENT_LEN - b.len()], b].concat()
    };
    let one = num_bigint::BigUint::from(1u32);
    // -1 is not a quadratic residue mod a safe prime p ≡ 3 (mod 4); nor is
    // -x for a residue x; 0, 1, p, p + 1 are out of range.
    let x =
        num_bigint::BigUint::from_bytes_be(&encode_to_vec::<G>(&G::hash_to_group(&[b"x"], b"dst")));
    rejects::<G>(&[
        bytes(&(&p - &one)),
        bytes(&(&p - &x)),
        vec![0u8; G::ELEMENT_LEN],
        bytes(&one),
        bytes(&p),
        vec![0xffu8; G::ELEMENT_LEN],
    ]);
}

fn vector_p(name: &str) -> String {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/ffdhe.json"
    ))
    .unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    json["groups"][name]["p"].as_str().unwrap().to_string()
}

#[test]
fn ffdhe_contracts() {
    ffdhe_contract::<Ffdhe2048>(&vector_p("ffdhe2048"));
    ffdhe_contract::<Ffdhe3072>(&vector_p("ffdhe3072"));
    ffdhe_contract::<Ffdhe4096>(&vector_p("ffdhe4096"));
}

/// The compiled-in primes are the shared ones: `2^q = 1` for `q = (p-1)/2`
/// computed from the JSON's `p` (2 has order q exactly when p is our p).
#[test]
fn ffdhe_params_match_the_shared_vectors() {
    fn check<G: PrimeOrderGroup>(name: &str) {
        let p = num_bigint::BigUint::parse_bytes(vector_p(name).as_bytes(), 16).unwrap();
        let q: num_bigint::BigUint = (&p - 1u32) >> 1;
        let q_bytes = q.to_bytes_be();
        let q_scalar = [vec![0u8; G::SCALAR_LEN - q_bytes.len()], q_bytes].concat();
        assert!(
            G::decode_scalar(&q_scalar).is_err(),
            "{name}: q itself is out of range"
        );
        let q_minus_1 = (&q - 1u32).to_bytes_be();
        let s = G::decode_scalar(&[vec![0u8; G::SCALAR_LEN - q_minus_1.len()], q_minus_1].concat())
            .unwrap();
        // (q-1)·B + B = identity
        assert!(
            G::is_identity(&G::add(&G::mul_base(&s), &G::generator())),
            "{name}"
        );
        let p_bytes = p.to_bytes_be();
        assert!(G::decode(&p_bytes).is_err());
    }
    check::<Ffdhe2048>("ffdhe2048");
    check::<Ffdhe3072>("ffdhe3072");
    check::<Ffdhe4096>("ffdhe4096");
}

#[test]
fn rfc9380_bls12381g1_hash_to_curve_vectors() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/rfc9380_bls12381g1.json"
    ))
    .unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let dst = json["dst"].as_str().unwrap().as_bytes();
    let vectors = json["vectors"].as_array().unwrap();
    assert!(!vectors.is_empty());
    for v in vectors {
        let msg = v["msg"].as_str().unwrap().as_bytes();
        let point = Bls12381G1::hash_to_group(&[msg], dst);
        assert_eq!(
            hex::encode(encode_to_vec::<Bls12381G1>(&point)),
            v["P"]["compressed"].as_str().unwrap()
        );
    }
    // All the vectors in one batch, blinded by 1: the 8-lane engine's
    // hashing where the CPU runs it (else blst's again).
    let messages: Vec<&[u8]> = vectors
        .iter()
        .map(|v| v["msg"].as_str().unwrap().as_bytes())
        .collect();
    let ones: Vec<_> = messages
        .iter()
        .map(|_| Bls12381G1::scalar_from_u64(1))
        .collect();
    let mut out = vec![0u8; messages.len() * Bls12381G1::ELEMENT_LEN];
    oblivex::group::batch::hash_and_blind::<Bls12381G1>(&messages, dst, &ones, &mut out).unwrap();
    for (v, encoding) in vectors
        .iter()
        .zip(out.chunks_exact(Bls12381G1::ELEMENT_LEN))
    {
        assert_eq!(
            hex::encode(encoding),
            v["P"]["compressed"].as_str().unwrap()
        );
    }
}
