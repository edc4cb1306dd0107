//! Differential tests of the batch exponentiation against num-bigint, on
//! every backend this CPU runs, for moduli up to 8192 bits: the
//! constant-time calls and the public-exponent (`_vartime`) one.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use oblivex::mp::{
    mod_exp_batch_multi_on, mod_exp_batch_multi_vartime_on, multi_result_len, Backend, MontContext,
    MAX_MODULUS_BITS,
};
use oblivex::Error;
use proptest::prelude::*;

fn backends() -> Vec<Backend> {
    Backend::ALL
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect()
}

fn reference(base: &[u8], exponent: &[u8], modulus: &[u8]) -> BigUint {
    let m = BigUint::from_bytes_be(modulus);
    BigUint::from_bytes_be(base).modpow(&BigUint::from_bytes_be(exponent), &m)
}

fn padded(value: &BigUint, len: usize) -> Vec<u8> {
    let bytes = if value.is_zero() {
        vec![]
    } else {
        value.to_bytes_be()
    };
    let mut out = vec![0u8; len - bytes.len()];
    out.extend_from_slice(&bytes);
    out
}

/// An odd modulus of exactly `bits` bits drawn from `seed` bytes.
fn odd_modulus(seed: &[u8], bits: usize) -> Vec<u8> {
    let len = bits.div_ceil(8);
    let mut m: Vec<u8> = seed.iter().cycle().take(len).copied().collect();
    let top = bits - 8 * (len - 1);
    m[0] &= 0xffu8 >> (8 - top);
    m[0] |= 1 << (top - 1);
    m[len - 1] |= 1;
    m
}

fn check_batch(modulus: &[u8], bases: &[Vec<u8>], exponents: &[Vec<u8>]) {
    let ctx = MontContext::new(modulus).unwrap();
    let len = ctx.modulus_len();
    let base_len = bases[0].len();
    let exponent_len = exponents[0].len();
    let flat_bases: Vec<u8> = bases.concat();
    let flat_exponents: Vec<u8> = exponents.concat();
    let contexts = vec![&ctx; bases.len()];
    for backend in backends() {
        let secret = ctx
            .mod_exp_batch_on(
                backend,
                &flat_bases,
                base_len,
                &flat_exponents,
                exponent_len,
            )
            .unwrap();
        let public = mod_exp_batch_multi_vartime_on(
            backend,
            &contexts,
            &flat_bases,
            base_len,
            &flat_exponents,
            exponent_len,
        )
        .unwrap();
        for (out, kind) in [(secret, "secret"), (public, "public")] {
            assert_eq!(out.len(), bases.len() * len);
            for (i, result) in out.chunks(len).enumerate() {
                let expected = padded(&reference(&bases[i], &exponents[i], modulus), len);
                assert_eq!(
                    result,
                    &expected[..],
                    "{} lane {i}, {} bits, {kind} exponents",
                    backend.name(),
                    ctx.modulus_bits()
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_sizes_up_to_4096(
        bits in 2usize..=4096,
        seed in proptest::collection::vec(any::<u8>(), 1..64),
        count in 1usize..11,
        base_extra in 0usize..20,
        exponent_len in 1usize..80,
        data in proptest::collection::vec(any::<u8>(), 64),
    ) {
        let modulus = odd_modulus(&seed, bits);
        let base_len = modulus.len() + base_extra - 10.min(base_extra);
        let mut stream = data.iter().cycle().enumerate().map(|(i, &b)| b ^ (i as u8).wrapping_mul(151));
        let bases: Vec<Vec<u8>> = (0..count).map(|_| (&mut stream).take(base_len.max(1)).collect()).collect();
        let exponents: Vec<Vec<u8>> = (0..count).map(|_| (&mut stream).take(exponent_len).collect()).collect();
        check_batch(&modulus, &bases, &exponents);
    }
}

#[test]
fn full_size_exponents_at_the_standard_sizes() {
    for bits in [1024, 1536, 2048, 3072, 4096] {
        let modulus = odd_modulus(&[0x9d, 0x31, 0xe7, 0x55], bits);
        let len = modulus.len();
        let bases: Vec<Vec<u8>> = (0..3u8).map(|i| vec![0xa5 ^ i; len]).collect();
        let exponents: Vec<Vec<u8>> = (0..3u8).map(|i| vec![0x5a ^ i; len]).collect();
        check_batch(&modulus, &bases, &exponents);
    }
}

#[test]
fn largest_modulus_8192_bits() {
    let modulus = odd_modulus(&[0xc3, 0x17, 0x88], MAX_MODULUS_BITS);
    let bases = vec![vec![0x42u8; 2048], vec![0xffu8; 2048]];
    let exponents = vec![vec![0x81u8; 40], vec![0x7eu8; 40]];
    check_batch(&modulus, &bases, &exponents);
}

#[test]
fn edge_values() {
    let modulus = odd_modulus(&[0xe1, 0x02], 521);
    let m = BigUint::from_bytes_be(&modulus);
    let len = modulus.len();
    let m_minus_1 = padded(&(&m - 1u32), len);
    let bases = vec![
        vec![0u8; len], // 0
        padded(&BigUint::one(), len),
        m_minus_1.clone(),                           // -1
        modulus.clone(),                             // m ≡ 0
        padded(&(&m + 5u32), len + 1)[1..].to_vec(), // m + 5 (fits len bytes since top bit clear)
    ];
    for exponent in [vec![0u8; 3], vec![0, 0, 1], vec![0, 0, 2], vec![0xff; 3]] {
        let exponents = vec![exponent; bases.len()];
        check_batch(&modulus, &bases, &exponents);
    }
}

#[test]
fn tiny_moduli_including_one() {
    for m in [1u8, 3, 5, 7, 9, 15, 255] {
        let bases: Vec<Vec<u8>> = (0..=20u8).map(|b| vec![b]).collect();
        let exponents: Vec<Vec<u8>> = (0..=20u8).map(|e| vec![e % 4]).collect();
        check_batch(&[m], &bases, &exponents);
    }
}

#[test]
fn leading_zero_bytes_do_not_change_results() {
    let modulus = odd_modulus(&[0x77], 300);
    let ctx = MontContext::new(&modulus).unwrap();
    let len = ctx.modulus_len();
    let short = ctx
        .mod_exp_batch(&[3, 4], 1, &[0x12, 0x34, 0x56, 0x78], 2)
        .unwrap();
    let long = ctx
        .mod_exp_batch(
            &[0, 0, 3, 0, 0, 4],
            3,
            &[0, 0, 0x12, 0x34, 0, 0, 0x56, 0x78],
            4,
        )
        .unwrap();
    assert_eq!(short.len(), 2 * len);
    assert_eq!(short, long);
}

#[test]
fn per_value_moduli() {
    let moduli: Vec<Vec<u8>> = [64usize, 100, 1024, 521, 2048, 77, 1536, 3, 700]
        .iter()
        .enumerate()
        .map(|(i, &bits)| odd_modulus(&[i as u8 + 1, 0x3c, 0x99], bits))
        .collect();
    let contexts: Vec<MontContext> = moduli
        .iter()
        .map(|m| MontContext::new(m).unwrap())
        .collect();
    let refs: Vec<&MontContext> = contexts.iter().collect();
    let base_len = 300;
    let exponent_len = 130;
    let bases: Vec<u8> = (0..moduli.len() * base_len)
        .map(|i| (i * 37 + 11) as u8)
        .collect();
    let exponents: Vec<u8> = (0..moduli.len() * exponent_len)
        .map(|i| (i * 73 + 5) as u8)
        .collect();
    // Every result is as long as the longest modulus.
    let result_len = multi_result_len(&refs);
    assert_eq!(result_len, 256);
    let runs = [mod_exp_batch_multi_on, mod_exp_batch_multi_vartime_on];
    for (backend, run) in backends()
        .into_iter()
        .flat_map(|b| runs.map(|run| (b, run)))
    {
        let out = run(backend, &refs, &bases, base_len, &exponents, exponent_len).unwrap();
        assert_eq!(out.len(), moduli.len() * result_len);
        for (i, modulus) in moduli.iter().enumerate() {
            let expected = reference(
                &bases[i * base_len..(i + 1) * base_len],
                &exponents[i * exponent_len..(i + 1) * exponent_len],
                modulus,
            );
            assert_eq!(
                &out[i * result_len..(i + 1) * result_len],
                &padded(&expected, result_len)[..]
            );
        }
    }
}

#[test]
fn bad_operands_are_refused() {
    let ctx = MontContext::new(&[0xff, 0xf1]).unwrap();
    // (bases, base_len, exponents, exponent_len, expected error)
    type Case<'a> = (&'a [u8], usize, &'a [u8], usize, Error);
    let too_long = vec![1u8; oblivex::mp::MAX_OPERAND_BYTES + 1];
    let cases: [Case; 7] = [
        (&[], 1, &[], 1, Error::EmptyInput),
        (&[1], 0, &[1], 1, Error::EmptyInput),
        (&[1], 1, &[1], 0, Error::EmptyInput),
        (&[1, 2, 3], 2, &[1], 1, Error::BadLength),
        (&[1, 2], 1, &[1], 1, Error::BadLength),
        (&too_long, too_long.len(), &[1], 1, Error::BadLength),
        (&[1], 1, &too_long, too_long.len(), Error::BadLength),
    ];
    for (bases, base_len, exponents, exponent_len, error) in cases {
        let result = ctx.mod_exp_batch(bases, base_len, exponents, exponent_len);
        assert_eq!(result.err(), Some(error));
    }
}

#[test]
fn threaded_batches_match_single_threaded() {
    let modulus = odd_modulus(&[0x3d, 0x91], 1024);
    let ctx = MontContext::new(&modulus).unwrap();
    let len = ctx.modulus_len();
    let count = 37; // several groups of 8 and a partial one
    let bases: Vec<u8> = (0..count * len).map(|i| (i * 131 + 7) as u8).collect();
    let exponents: Vec<u8> = (0..count * 16).map(|i| (i * 29 + 3) as u8).collect();
    for backend in backends() {
        oblivex::mp::set_threads(1);
        let single = ctx
            .mod_exp_batch_on(backend, &bases, len, &exponents, 16)
            .unwrap();
        oblivex::mp::set_threads(3);
        let threaded = ctx
            .mod_exp_batch_on(backend, &bases, len, &exponents, 16)
            .unwrap();
        oblivex::mp::set_threads(0);
        assert_eq!(single, threaded, "{}", backend.name());
        for (i, result) in single.chunks(len).enumerate() {
            let expected = reference(
                &bases[i * len..(i + 1) * len],
                &exponents[i * 16..(i + 1) * 16],
                &modulus,
            );
            assert_eq!(result, &padded(&expected, len)[..]);
        }
    }
}
