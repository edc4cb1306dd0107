//! `mp::RsaCrtKey` against num-bigint's `c^d mod n`, on every backend the
//! CPU runs: RSA-2048, -3072 and -4096 keys and sizes around and between
//! the engine's dedicated ones, each key in both orders of its primes (so
//! `q > p` and `q < p` both occur), batches that leave a partial lane
//! group, and the ciphertexts 0, 1 and n − 1.

mod support;

use num_bigint::BigUint;
use num_traits::{One, Zero};
use oblivex::mp::RsaCrtKey;
use oblivex::Backend;
use support::rsa_keys::{RsaTestKey, TestRng};

fn check_key(rng: &mut TestRng, prime_bits: usize, random_ciphertexts: usize) {
    let key = RsaTestKey::generate(rng, prime_bits);
    let mut ciphertexts = vec![BigUint::zero(), BigUint::one(), &key.n - 1u32];
    ciphertexts.extend((0..random_ciphertexts).map(|_| rng.below(&key.n)));
    let batch: Vec<u8> = ciphertexts.iter().flat_map(|c| key.padded(c)).collect();
    let expected: Vec<u8> = ciphertexts
        .iter()
        .flat_map(|c| key.padded(&c.modpow(&key.d, &key.n)))
        .collect();
    for swapped in [false, true] {
        let [p, q, dp, dq, qinv] = key.crt_params(swapped);
        let ours = RsaCrtKey::new(&p, &q, &dp, &dq, &qinv).expect("a valid key");
        assert_eq!(ours.modulus_be(), key.n.to_bytes_be().as_slice());
        for &backend in Backend::ALL {
            if !backend.is_available() {
                continue;
            }
            let got = ours.private_batch_on(backend, &batch).unwrap();
            assert!(
                got.as_slice() == expected.as_slice(),
                "RSA with {prime_bits}-bit primes on {backend:?}, swapped {swapped}"
            );
        }
    }
}

#[test]
fn rsa_2048_partial_groups() {
    // 3 + 8 ciphertexts: 22 halves, two full lane groups and a partial one.
    check_key(&mut TestRng(0x2048), 1024, 8);
}

#[test]
fn rsa_3072_and_4096() {
    let mut rng = TestRng(0x4096);
    check_key(&mut rng, 1536, 1);
    check_key(&mut rng, 2048, 1);
}

#[test]
fn sizes_between_the_dedicated_kernels() {
    let mut rng = TestRng(0x5eed);
    // 1030 bits still runs the 20-digit kernel (up to 1038 bits); the
    // others run the generic path.
    for prime_bits in [64, 300, 520, 1030, 1040] {
        check_key(&mut rng, prime_bits, 2);
    }
}
