//! The AVX2 backend against the portable one: every size class, the
//! kernels' block shapes, and the edge inputs of reduced-radix arithmetic.

use super::super::test_support::{
    assert_select_picks_each_lanes_entry, base_of_montgomery_form_one, data,
};
use super::tuning::{sweep, Tuning};
use super::*;
use crate::backend::Backend;

/// `count` powers on both backends; they must agree.
fn assert_agrees(
    modulus: &[u8],
    bases: &[u8],
    base_len: usize,
    exponents: &[u8],
    exponent_len: usize,
    what: &str,
) {
    let ctx = MontContext::new(modulus).unwrap();
    let avx2 = ctx
        .mod_exp_batch_on(Backend::Avx2, bases, base_len, exponents, exponent_len)
        .unwrap();
    let portable = ctx
        .mod_exp_batch_on(Backend::Portable, bases, base_len, exponents, exponent_len)
        .unwrap();
    assert!(avx2 == portable, "{what}: avx2 and portable differ");
}

/// The select gives each lane the entry of its own digit, whatever the
/// other lanes want, for every digit, in whole blocks of registers and in a
/// partial one.
#[test]
fn select_picks_each_lanes_entry() {
    if !avx2_supported() {
        return;
    }
    assert_select_picks_each_lanes_entry::<Avx2Arith<'_>>(32, &[37, 8, 3], 7);
}

/// Every digit layout (29, 28 and 27 bits, the boundaries between them),
/// the usual key sizes, and sizes between them; 9 values (two full groups
/// and a padded one), one modulus for all.
#[test]
fn every_size_matches_portable() {
    if !avx2_supported() {
        return;
    }
    let sizes = [
        64usize, 100, 256, 521, 897, 898, 1024, 1300, 1536, 2048, 3072, 3554, 3555, 4096, 8192,
    ];
    for (s, &bits) in sizes.iter().enumerate() {
        let len = bits.div_ceil(8);
        let mut m = data(s as u64 + 1, len);
        m[0] |= 0x80 >> ((8 - bits % 8) % 8);
        m[0] &= 0xff >> ((8 - bits % 8) % 8);
        m[len - 1] |= 1;
        let count = 9;
        let exponent_len = len.min(64);
        assert_agrees(
            &m,
            &data(s as u64 + 100, count * len),
            len,
            &data(s as u64 + 200, count * exponent_len),
            exponent_len,
            &format!("{bits} bits"),
        );
    }
}

/// The carry and bound edge cases: moduli of all-ones limbs (every digit
/// full), moduli just under and over a digit boundary, and the bases 0,
/// 1, `R mod m` (whose Montgomery form is `R²`… and 1's form is `R`),
/// `R^{-1} mod m` (whose form is 1), `m − 1`, `m`, `m + 1` and
/// `2^(8·len) − 1` (above `m`).
#[test]
fn edge_inputs_match_portable() {
    if !avx2_supported() {
        return;
    }
    for bits in [896usize, 1023, 1024, 2047, 2048, 2072, 3554, 4096, 4104] {
        let len = bits.div_ceil(8);
        let all_ones = vec![0xffu8; len];
        let mut just_under = vec![0xffu8; len];
        just_under[0] = 0xff >> ((8 - bits % 8) % 8);
        for m in [all_ones, just_under] {
            let ctx = MontContext::new(&m).unwrap();
            let mut bases = Vec::new();
            let mut m_minus_1 = m.clone();
            m_minus_1[len - 1] -= 1;
            let mut m_plus_1 = m.clone();
            m_plus_1[len - 1] = m_plus_1[len - 1].wrapping_add(1);
            let mut one = vec![0u8; len];
            one[len - 1] = 1;
            let layout = constants::layout_for_bits(ctx.modulus_bits());
            let r_bits = layout.digits * layout.digit_bits;
            let mut r_mod_m = vec![0u8; len];
            let r = ctx.pow2_mod_vartime(r_bits);
            crate::mp::limbs::convert::limbs_to_be_bytes(&r, &mut r_mod_m);
            for base in [
                vec![0u8; len],
                one,
                r_mod_m,
                base_of_montgomery_form_one(&m, r_bits),
                m_minus_1,
                m.clone(),
                m_plus_1,
                vec![0xff; len],
            ] {
                bases.extend_from_slice(&base);
            }
            let count = bases.len() / len;
            let mut exponents = vec![0xffu8; count * len];
            exponents[..len].fill(0);
            assert_agrees(
                &m,
                &bases,
                len,
                &exponents,
                len,
                &format!("{bits}-bit edge moduli"),
            );
        }
    }
}

/// Each lane its own modulus, of one layout: per-value moduli.
#[test]
fn per_value_moduli_match_portable() {
    if !avx2_supported() {
        return;
    }
    let len = 256;
    let moduli: Vec<Vec<u8>> = (0..6)
        .map(|i| {
            let mut m = data(40 + i, len);
            m[0] |= 0x80;
            m[len - 1] |= 1;
            m
        })
        .collect();
    let contexts: Vec<MontContext> = moduli
        .iter()
        .map(|m| MontContext::new(m).unwrap())
        .collect();
    let refs: Vec<&MontContext> = contexts.iter().collect();
    let bases = data(7, 6 * len);
    let exponents = data(8, 6 * len);
    let run = |backend| {
        crate::mp::mod_exp_batch_multi_on(backend, &refs, &bases, len, &exponents, len).unwrap()
    };
    assert!(run(Backend::Avx2) == run(Backend::Portable));
}

/// Every block shape the tuning may choose, with and without Karatsuba,
/// gives the same powers (1024 bits: an odd digit count, 37).
#[test]
fn every_block_shape_matches_portable() {
    if !avx2_supported() {
        return;
    }
    for bits in [1024usize, 1100, 2048] {
        let len = bits / 8;
        let mut m = data(bits as u64, len);
        m[0] |= 0x80;
        m[len - 1] |= 1;
        let ctx = MontContext::new(&m).unwrap();
        let bases = data(3, 4 * len);
        let exponents = data(4, 4 * 16);
        let expected = ctx
            .mod_exp_batch_on(Backend::Portable, &bases, len, &exponents, 16)
            .unwrap();
        for rows in [4, 6, 8] {
            for window_bits in [1, 4, 6] {
                for karatsuba in [false, true] {
                    sweep::force(Some(Tuning {
                        product_rows: rows,
                        square_rows: rows,
                        reduction_rows: 12 - rows,
                        window_bits,
                        karatsuba,
                    }));
                    let got = ctx.mod_exp_batch_on(Backend::Avx2, &bases, len, &exponents, 16);
                    sweep::force(None);
                    assert!(
                        got.unwrap() == expected,
                        "{bits} bits, {rows} rows, w = {window_bits}, Karatsuba {karatsuba}"
                    );
                }
            }
        }
    }
}
