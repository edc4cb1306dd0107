//! The 8-lane curve engines (ristretto255, P-256 and BLS12-381 G1, on
//! AVX-512 IFMA and on AVX2) against the portable path, on arbitrary
//! bytes:
//! - the hash-to-group maps on arbitrary uniform bytes (the engines' own
//!   entry points, `oblivex::group::fuzzing`), against curve25519-dalek's
//!   `from_uniform_bytes` and p256's SSWU map;
//! - decoding (`batch::check`, the engine's batch decoder) against
//!   `decode_batch` (one element at a time, on the crates: BLS12-381's
//!   on blst, its subgroup check included): the same verdict on every
//!   input;
//! - what follows a decoding: the server's evaluation, the client's
//!   unblinding and the balancer's short-scalar MSM, each equal to the
//!   same products computed one element at a time;
//! - the client's hashing and blinding of arbitrary inputs, equal to
//!   `hash_to_group` and a multiplication per input.
//!
//! The engines run where the backend selected has them: `ifma` (all
//! three), `avx2` (all three too; CI runs the target a second time with
//! `OBLIVEX_BACKEND=avx2`). Elsewhere the batch paths are the
//! portable ones and still checked against the one-at-a-time results;
//! the map comparisons then have nothing to compare and return early.

#![no_main]

use std::any::TypeId;
use std::cell::RefCell;
use std::collections::HashMap;

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::Scalar as DalekScalar;
use libfuzzer_sys::fuzz_target;
use oblivex::group::batch::{self, ReceivedBatch};
use oblivex::group::fuzzing::{p256_map_and_blind, ristretto255_map_and_blind};
use oblivex::group::{encode_to_vec, Bls12381G1, PrimeOrderGroup, Ristretto255, ShortScalar, P256};
use oblivex::Error;
use oblivex_fuzz::Cursor;
use p256::elliptic_curve::hash2curve::{FromOkm, MapToCurve};
use p256::elliptic_curve::ops::Reduce;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::elliptic_curve::Field;
use p256::{FieldElement, U256};

/// At most this many elements per batch: two vectors of 8 and a partial
/// one, so that full, partial and multiple passes are all reached.
const MAX_BATCH: usize = 17;

fuzz_target!(|data: &[u8]| {
    let mut input = Cursor::new(data);
    match input.byte() % 7 {
        0 => ristretto255_map(&mut input),
        1 => p256_map(&mut input),
        2 => received::<Ristretto255>(&mut input),
        3 => received::<P256>(&mut input),
        4 => hash_and_blind::<Ristretto255>(&mut input),
        5 => hash_and_blind::<P256>(&mut input),
        _ => received::<Bls12381G1>(&mut input),
    }
});

fn ristretto255_map(input: &mut Cursor<'_>) {
    let count = 1 + usize::from(input.byte()) % MAX_BATCH;
    let uniform: Vec<[u8; 64]> = (0..count).map(|_| input.array()).collect();
    let half_scalars: Vec<[u8; 32]> = (0..count)
        .map(|_| {
            let mut h = input.array::<32>();
            h[31] &= 0x1f; // h < 2^253, as the engine requires
            h
        })
        .collect();
    let Some(engine) = ristretto255_map_and_blind(&uniform, &half_scalars) else {
        return;
    };
    for (i, (u, h)) in uniform.iter().zip(&half_scalars).enumerate() {
        let two_h = DalekScalar::from_bytes_mod_order(*h) * DalekScalar::from(2u8);
        let want = (RistrettoPoint::from_uniform_bytes(u) * two_h).compress();
        assert_eq!(
            &engine[32 * i..32 * (i + 1)],
            want.as_bytes(),
            "element {i}"
        );
    }
}

fn p256_map(input: &mut Cursor<'_>) {
    let count = 1 + usize::from(input.byte()) % MAX_BATCH;
    let uniform: Vec<[u8; 96]> = (0..count).map(|_| input.array()).collect();
    let scalars: Vec<p256::Scalar> = (0..count)
        .map(|_| {
            let s = <p256::Scalar as Reduce<U256>>::reduce_bytes(&input.array::<32>().into());
            if bool::from(s.is_zero()) {
                p256::Scalar::ONE
            } else {
                s
            }
        })
        .collect();
    let le_scalars: Vec<[u8; 32]> = scalars
        .iter()
        .map(|s| {
            let mut le: [u8; 32] = s.to_bytes().into();
            le.reverse();
            le
        })
        .collect();
    let Some(engine) = p256_map_and_blind(&uniform, &le_scalars) else {
        return;
    };
    let points: Vec<p256::ProjectivePoint> = uniform
        .iter()
        .map(|u| {
            let u0 = FieldElement::from_okm(u[..48].into());
            let u1 = FieldElement::from_okm(u[48..].into());
            u0.map_to_curve() + u1.map_to_curve()
        })
        .collect();
    let any_identity = points
        .iter()
        .any(|p| bool::from(p.to_affine().is_identity()));
    let Some(engine) = engine else {
        assert!(
            any_identity,
            "the engine found an identity the map did not give"
        );
        return;
    };
    assert!(!any_identity, "the engine missed an identity");
    for (i, (p, s)) in points.iter().zip(&scalars).enumerate() {
        let want = (*p * s).to_affine().to_encoded_point(true);
        assert_eq!(
            &engine[33 * i..33 * (i + 1)],
            want.as_bytes(),
            "element {i}"
        );
    }
}

/// A batch's bytes: mostly whole encodings, each either arbitrary or a
/// valid element (hashed from input bytes) with perhaps one byte changed,
/// sometimes with a stray tail (a bad length).
fn batch_bytes<G: PrimeOrderGroup>(input: &mut Cursor<'_>) -> Vec<u8> {
    let count = usize::from(input.byte()) % (MAX_BATCH + 1);
    let mut bytes = Vec::with_capacity(count * G::ELEMENT_LEN);
    for _ in 0..count {
        let how = input.byte();
        if how & 1 == 0 {
            let mut encoding = valid_encoding::<G>(input.take(4));
            if how & 2 != 0 {
                let at = usize::from(input.byte()) % G::ELEMENT_LEN;
                encoding[at] ^= input.byte() | 1;
            }
            bytes.extend_from_slice(&encoding);
        } else {
            bytes.extend_from_slice(&input.padded(G::ELEMENT_LEN));
        }
    }
    if input.byte() == 0xff {
        let tail = usize::from(input.byte()) % G::ELEMENT_LEN;
        bytes.resize(bytes.len() + tail, 0);
    }
    bytes
}

/// The encoding of the element hashed from `seed`, memoised for the
/// process (the same bytes for the same seed, so an input still replays
/// exactly): libFuzzer's mutations keep most of an input's seeds, and
/// hashing to the group costs more than the decoding it feeds. The memo
/// is emptied when it reaches [`MEMO_LIMIT`] seeds.
fn valid_encoding<G: PrimeOrderGroup>(seed: &[u8]) -> Vec<u8> {
    thread_local! {
        static MEMO: RefCell<Memo> = RefCell::new(HashMap::new());
    }
    let key = (TypeId::of::<G>(), seed.to_vec());
    if let Some(hit) = MEMO.with(|m| m.borrow().get(&key).cloned()) {
        return hit;
    }
    let encoding = encode_to_vec::<G>(&G::hash_to_group(&[seed], b"fuzz engines"));
    MEMO.with(|m| {
        let mut memo = m.borrow_mut();
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        memo.insert(key, encoding.clone());
    });
    encoding
}

/// Encodings by group and seed.
type Memo = HashMap<(TypeId, Vec<u8>), Vec<u8>>;

/// At most this many memoised encodings (a few megabytes).
const MEMO_LIMIT: usize = 1 << 16;

/// A non-zero scalar from the input (through `hash_to_scalar`, so every
/// input gives a full-width one).
fn scalar<G: PrimeOrderGroup>(input: &mut Cursor<'_>) -> G::Scalar {
    G::hash_to_scalar(&[input.take(8)], b"fuzz engines scalar")
}

fn received<G: PrimeOrderGroup>(input: &mut Cursor<'_>) {
    let bytes = batch_bytes::<G>(input);
    let portable = G::decode_batch(&bytes);
    let checked = batch::check::<G>(&bytes);
    let (elements, checked) = match (portable, checked) {
        (Ok(elements), Ok(checked)) => (elements, checked),
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "the decoders refuse for the same reason");
            return;
        }
        (portable, checked) => panic!(
            "the decoders disagree: portable {:?}, batch {:?}",
            portable.map(|_| ()),
            checked.map(|_| ())
        ),
    };
    let received = ReceivedBatch::of_checked(&bytes, &checked);
    let one_by_one = |products: Vec<G::Element>| -> Vec<u8> {
        products.iter().flat_map(encode_to_vec::<G>).collect()
    };
    let mut out = vec![0u8; bytes.len()];
    match input.byte() % 3 {
        0 => {
            let key = scalar::<G>(input);
            batch::mul_by_key(&key, received, &mut out);
            let want = one_by_one(elements.iter().map(|x| G::mul(x, &key)).collect());
            assert_eq!(out, want, "the server's evaluation");
        }
        1 => {
            let scalars: Vec<G::Scalar> = elements.iter().map(|_| scalar::<G>(input)).collect();
            batch::mul_each(&scalars, received, &mut out);
            let want = one_by_one(
                elements
                    .iter()
                    .zip(&scalars)
                    .map(|(x, s)| G::mul(x, s))
                    .collect(),
            );
            assert_eq!(out, want, "the client's unblinding");
        }
        _ => {
            let bits = 1 + usize::from(input.byte()) % 128;
            let shorts: Vec<ShortScalar> = elements
                .iter()
                .map(|_| {
                    let value = u128::from_le_bytes(input.array());
                    ShortScalar::from_u128(value >> (128 - bits))
                })
                .collect();
            let sum = batch::msm_short_ct(&shorts, received, bits);
            let want = elements
                .iter()
                .zip(&shorts)
                .fold(G::identity(), |acc, (x, d)| {
                    G::add(&acc, &G::mul(x, &d.to_scalar::<G>()))
                });
            assert_eq!(
                encode_to_vec::<G>(&sum),
                encode_to_vec::<G>(&want),
                "the balancer's sum"
            );
        }
    }
}

fn hash_and_blind<G: PrimeOrderGroup>(input: &mut Cursor<'_>) {
    let count = 1 + usize::from(input.byte()) % MAX_BATCH;
    let inputs: Vec<&[u8]> = (0..count).map(|_| input.field(1)).collect();
    let dst = input.field(1);
    let blinds: Vec<G::Scalar> = (0..count).map(|_| scalar::<G>(input)).collect();
    let mut out = vec![0u8; count * G::ELEMENT_LEN];
    let blinded = batch::hash_and_blind::<G>(&inputs, dst, &blinds, &mut out);
    let points: Vec<G::Element> = inputs
        .iter()
        .map(|x| G::hash_to_group(&[*x], dst))
        .collect();
    if points.iter().any(G::is_identity) {
        assert_eq!(blinded.err(), Some(Error::InvalidInput));
        return;
    }
    assert!(blinded.is_ok(), "hashing refused inputs that map to points");
    let want: Vec<u8> = points
        .iter()
        .zip(&blinds)
        .flat_map(|(h, r)| encode_to_vec::<G>(&G::mul(h, r)))
        .collect();
    assert_eq!(out, want, "the client's blinding");
}
