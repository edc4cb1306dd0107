//! The MULX/ADX backend against the portable one: its kernels against
//! the plain loops at every limb count the row's passes of eight, four and
//! one split differently, whole exponentiations, and the carry edge cases
//! of 64-bit limbs.

use super::super::test_support::{base_of_montgomery_form_one, data};
use super::MulxKernel;
use crate::backend::{mulx_supported, Backend};
use crate::mp::context::MontContext;
use crate::mp::limbs::montgomery::{neg_inverse_mod_2_64, WordKernel, WordLoop};

/// Limbs of `bytes` (8 per limb, little-endian), for kernel inputs.
fn limbs(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// The product, the square and the reduction's rounds equal the plain
/// loops' for 1 to 25 limbs (every split into passes of eight, four and
/// one, with and without an eight-limb pass) and the block sizes of the
/// square (multiples of 8) up to 64, on all-ones operands (every carry
/// chain at its longest) and on random ones.
#[test]
fn kernels_agree_with_the_plain_loops() {
    if !mulx_supported() {
        eprintln!("skipped: this CPU has no BMI2 and ADX");
        return;
    }
    for n in (1..=25).chain([32, 40, 48, 64]) {
        let random = |seed| limbs(&data(seed, 8 * n));
        let all_ones = vec![u64::MAX; n];
        for (a, b) in [(all_ones.clone(), all_ones.clone()), (random(1), random(2))] {
            let mut expected = vec![0; 2 * n];
            let mut got = vec![1; 2 * n];
            WordLoop::product(&mut expected, &a, &b);
            MulxKernel::product(&mut got, &a, &b);
            assert_eq!(got, expected, "product, {n} limbs");
            WordLoop::square(&mut expected, &a);
            MulxKernel::square(&mut got, &a);
            assert_eq!(got, expected, "square, {n} limbs");
        }
        // Reduction rounds of t < m·R: t all ones but its top limb by an
        // all-ones m (the largest carries), and random t below a random odd
        // m with its top bit set.
        let mut m = random(3);
        m[0] |= 1;
        m[n - 1] |= 1 << 63;
        let mut t = random(4);
        t.extend(random(5));
        t[2 * n - 1] &= m[n - 1] - 1;
        let mut largest = vec![u64::MAX; 2 * n];
        largest[2 * n - 1] -= 1;
        for (t, m) in [(largest, vec![u64::MAX; n]), (t, m)] {
            let k = neg_inverse_mod_2_64(m[0]);
            let mut expected = t.clone();
            let mut got = t.clone();
            let expected_top = WordLoop::reduce_rounds(&mut expected, &m, k);
            let top = MulxKernel::reduce_rounds(&mut got, &m, k);
            assert_eq!((got, top), (expected, expected_top), "rounds, {n} limbs");
        }
    }
}

/// The powers of `bases` (one modulus) on mulx and on portable agree.
fn assert_agrees(modulus: &[u8], bases: &[u8], exponents: &[u8], what: &str) {
    let len = modulus.len();
    let ctx = MontContext::new(modulus).unwrap();
    let run = |backend| {
        ctx.mod_exp_batch_on(backend, bases, len, exponents, len)
            .unwrap()
    };
    assert!(
        run(Backend::Mulx) == run(Backend::Portable),
        "{what}: mulx and portable differ"
    );
}

/// 1 to 17 limbs (every split of a row into passes of eight, four and one,
/// in the product, the square's shorter rows and the reduction), the key
/// sizes and 8192 bits, 3 values each.
#[test]
fn every_limb_count_matches_portable() {
    if !mulx_supported() {
        return;
    }
    let sizes = (1usize..=17)
        .map(|limbs| 64 * limbs - 3)
        .chain([1024, 1536, 2048, 3072, 4096, 8192]);
    for (s, bits) in sizes.enumerate() {
        let len = bits.div_ceil(8);
        let mut m = data(s as u64 + 1, len);
        m[0] |= 0x80 >> ((8 - bits % 8) % 8);
        m[0] &= 0xff >> ((8 - bits % 8) % 8);
        m[len - 1] |= 1;
        let exponents = data(s as u64 + 200, 3 * len);
        assert_agrees(
            &m,
            &data(s as u64 + 100, 3 * len),
            &exponents,
            &format!("{bits} bits"),
        );
    }
}

/// Moduli of all-ones limbs (every product and carry at its largest) and
/// just under a limb boundary, with the bases 0, 1, `R mod m` (the base
/// whose Montgomery form is `R²`), `R^{-1} mod m` (whose form is 1),
/// `m − 1`, `m`, `m + 1` and all ones (above `m`), exponents all ones
/// (and 0 for the first).
#[test]
fn edge_inputs_match_portable() {
    if !mulx_supported() {
        return;
    }
    for bits in [64usize, 1023, 1024, 2048, 4096] {
        let len = bits.div_ceil(8);
        let all_ones = vec![0xffu8; len];
        let mut just_under = vec![0xffu8; len];
        just_under[0] = 0xff >> ((8 - bits % 8) % 8);
        just_under[len - 2] = 0xfe;
        for m in [all_ones, just_under] {
            let ctx = MontContext::new(&m).unwrap();
            let mut m_minus_1 = m.clone();
            m_minus_1[len - 1] -= 1;
            let mut m_plus_1 = m.clone();
            m_plus_1[len - 1] = m_plus_1[len - 1].wrapping_add(1);
            let mut one = vec![0u8; len];
            one[len - 1] = 1;
            let mut r_mod_m = vec![0u8; len];
            let r = ctx.pow2_mod_vartime(64 * ctx.limbs());
            crate::mp::limbs::convert::limbs_to_be_bytes(&r, &mut r_mod_m);
            let bases: Vec<u8> = [
                vec![0u8; len],
                one,
                r_mod_m,
                base_of_montgomery_form_one(&m, 64 * ctx.limbs()),
                m_minus_1,
                m.clone(),
                m_plus_1,
                vec![0xff; len],
            ]
            .concat();
            let mut exponents = vec![0xffu8; bases.len()];
            exponents[..len].fill(0);
            assert_agrees(&m, &bases, &exponents, &format!("{bits}-bit edge moduli"));
        }
    }
}
