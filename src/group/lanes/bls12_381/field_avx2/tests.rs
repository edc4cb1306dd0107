//! The AVX2 field against num-bigint: every operation on the edges (0, 1,
//! p − 1, p, 2p − 1, every digit at its bound, operands up to `2^11·p`),
//! random values, and chains that keep feeding results back in; the
//! constants' conversion from the AVX-512 field's form.

use num_bigint::BigUint;

use super::*;

fn supported() -> bool {
    crate::group::lanes::cpu::supported(crate::group::lanes::LaneSet::Avx2)
}

fn p() -> BigUint {
    BigUint::from_bytes_be(&crate::group::lanes::bls12_381::exponents::P_BYTES)
}

fn r() -> BigUint {
    BigUint::from(1u32) << 406u32
}

fn value_of(digits: &[u64; DIGITS]) -> BigUint {
    digits
        .iter()
        .rev()
        .fold(BigUint::from(0u32), |acc, &d| (acc << 29u32) + d)
}

fn digits_of_value(value: &BigUint) -> [u64; DIGITS] {
    let mask = BigUint::from(DIGIT_MASK);
    core::array::from_fn(|i| {
        let digit = if i + 1 < DIGITS {
            (value >> (29 * i)) & &mask
        } else {
            value >> (29 * i)
        };
        digit.iter_u64_digits().next().unwrap_or(0)
    })
}

/// A deterministic stream of 64-bit words (xorshift).
struct Words(u64);

impl Words {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value below `bound`.
    fn below(&mut self, bound: &BigUint) -> BigUint {
        let words: Vec<u64> = (0..7).map(|_| self.next()).collect();
        let mut bytes = Vec::new();
        for w in &words {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        BigUint::from_bytes_le(&bytes) % bound
    }
}

/// The edge values below `bound`, then random ones.
fn values_below(bound: &BigUint, seed: u64, count: usize) -> Vec<BigUint> {
    let p = p();
    let one = BigUint::from(1u32);
    let mut out: Vec<BigUint> = [
        BigUint::from(0u32),
        one.clone(),
        &p - &one,
        p.clone(),
        &p + &one,
        (&p << 1u32) - &one,
        bound - &one,
        // Every low digit at its bound.
        value_of(&core::array::from_fn(|i| {
            if i + 1 < DIGITS {
                DIGIT_MASK
            } else {
                0
            }
        })),
    ]
    .into_iter()
    .filter(|v| v < bound)
    .collect();
    let mut words = Words(seed);
    while out.len() < count {
        out.push(words.below(bound));
    }
    out
}

/// 8 raw representatives (cycled from `values`, lane `j` gets `values[(j +
/// offset) % len]`) as an element: digits given as they are.
fn raw(values: &[BigUint], offset: usize) -> Fp8 {
    let digits = core::array::from_fn(|j| digits_of_value(&values[(j + offset) % values.len()]));
    // SAFETY: the tests run only where the CPU has AVX2 (`supported`).
    Fp8(unsafe { halves_of(&digits) })
}

/// The raw values of an element's lanes, with the bounds every returned
/// element keeps: low digits carried, value below `multiple·p`.
fn raw_values(x: &Fp8, multiple: u64) -> Vec<BigUint> {
    // SAFETY: as above.
    let lanes = unsafe { digits_of_halves(&x.0) };
    lanes
        .iter()
        .map(|digits| {
            assert!(
                digits[..DIGITS - 1].iter().all(|&d| d <= DIGIT_MASK),
                "a low digit above 2^29"
            );
            let value = value_of(digits);
            assert!(value < p() * multiple, "a value not below {multiple}·p");
            value
        })
        .collect()
}

/// `x/R mod p`, the element a raw value stands for, as a plain value.
fn meaning(x: &BigUint) -> BigUint {
    let p = p();
    let r_inverse = r().modpow(&(&p - 2u32), &p);
    x * r_inverse % p
}

fn lane_values(values: &[BigUint], offset: usize) -> Vec<BigUint> {
    (0..8)
        .map(|j| values[(j + offset) % values.len()].clone())
        .collect()
}

#[test]
fn products_squares_and_sums_of_products_are_montgomery_products_below_2p() {
    if !supported() {
        return;
    }
    let p = p();
    let widest = p.clone() * MAX_OPERAND_MULTIPLE;
    let values = values_below(&widest, 0x2545_f491_4f6c_dd1d, 64);
    let r_inverse = r().modpow(&(&p - 2u32), &p);
    for offset in 0..values.len() {
        let lanes = |k: usize| lane_values(&values, offset * 3 + k);
        let (a, b, c, d) = (
            raw(&values, offset * 3),
            raw(&values, offset * 3 + 1),
            raw(&values, offset * 3 + 2),
            raw(&values, offset * 3 + 3),
        );
        // SAFETY: AVX2 (`supported`).
        let (product, square, sum) = unsafe { (a.mul(&b), a.square(), a.mul_sum(&b, &c, &d)) };
        let (va, vb, vc, vd) = (lanes(0), lanes(1), lanes(2), lanes(3));
        for (j, got) in raw_values(&product, 2).iter().enumerate() {
            assert_eq!(got % &p, &va[j] * &vb[j] * &r_inverse % &p, "a·b, lane {j}");
        }
        for (j, got) in raw_values(&square, 2).iter().enumerate() {
            assert_eq!(got % &p, &va[j] * &va[j] * &r_inverse % &p, "a², lane {j}");
        }
        for (j, got) in raw_values(&sum, 2).iter().enumerate() {
            let want = (&va[j] * &vb[j] + &vc[j] * &vd[j]) * &r_inverse % &p;
            assert_eq!(got % &p, want, "a·b + c·d, lane {j}");
        }
    }
}

#[test]
fn long_chains_of_products_stay_exact() {
    if !supported() {
        return;
    }
    let p = p();
    let values = values_below(&(p.clone() << 1u32), 0x9e37_79b9_7f4a_7c15, 16);
    let mut x = raw(&values, 0);
    let mut y = raw(&values, 5);
    let mut want_x = lane_values(&values, 0);
    let mut want_y = lane_values(&values, 5);
    let r_inverse = r().modpow(&(&p - 2u32), &p);
    for _ in 0..2000 {
        // SAFETY: AVX2 (`supported`).
        let (next_x, next_y) = unsafe { (x.mul(&y), y.square()) };
        for j in 0..8 {
            want_x[j] = &want_x[j] * &want_y[j] * &r_inverse % &p;
            want_y[j] = &want_y[j] * &want_y[j] * &r_inverse % &p;
        }
        (x, y) = (next_x, next_y);
    }
    let got_x = raw_values(&x, 2);
    let got_y = raw_values(&y, 2);
    for j in 0..8 {
        assert_eq!(&got_x[j] % &p, want_x[j]);
        assert_eq!(&got_y[j] % &p, want_y[j]);
    }
}

#[test]
fn sums_differences_and_combinations_are_exact_and_bounded() {
    if !supported() {
        return;
    }
    let p = p();
    let values = values_below(&(p.clone() << 1u32), 0x0123_4567_89ab_cdef, 48);
    for offset in 0..values.len() {
        let (a, b) = (raw(&values, offset), raw(&values, offset + 7));
        let (va, vb) = (
            lane_values(&values, offset),
            lane_values(&values, offset + 7),
        );
        // SAFETY: AVX2 (`supported`).
        let (sum, difference, negated, lazy) =
            unsafe { (a.add(&b), a.sub(&b), a.neg(), a.add_lazy(&b)) };
        // `t1 + 8·t2 + 4·t2 + 24p − 8·b − 4·b`, as the doubling's formulas
        // write theirs.
        // SAFETY: AVX2 (`supported`).
        let combined =
            unsafe { Fp8::combination::<24, 50, 2, 2>([(&a, 0), (&b, 3)], [(&b, 3), (&b, 2)]) };
        let sum = raw_values(&sum, 2);
        let difference = raw_values(&difference, 2);
        let negated = raw_values(&negated, 2);
        let lazy = raw_values(&lazy, 4);
        let combined = raw_values(&combined, 50);
        for j in 0..8 {
            assert_eq!(&sum[j] % &p, (&va[j] + &vb[j]) % &p, "a + b");
            assert_eq!(&lazy[j], &(&va[j] + &vb[j]), "a + b unreduced");
            assert_eq!(
                &difference[j] % &p,
                (&va[j] + &p * 2u32 - &vb[j]) % &p,
                "a − b"
            );
            assert_eq!(&negated[j] % &p, (&p * 2u32 - &va[j]) % &p, "−a");
            let want = &va[j] + &p * 24u32 - &vb[j] * 4u32;
            assert_eq!(&combined[j], &want, "the combination, unreduced");
        }
    }
}

#[test]
fn canonical_values_predicates_and_bytes() {
    if !supported() {
        return;
    }
    let p = p();
    let values = values_below(&(p.clone() << 1u32), 0x5151_5151_aaaa_0001, 40);
    let half = (&p - 1u32) >> 1u32;
    for offset in 0..values.len() {
        let x = raw(&values, offset);
        let lanes = lane_values(&values, offset);
        // SAFETY: AVX2 (`supported`).
        let (canonical, bytes, largest, odd, zero) = unsafe {
            (
                digits_of_halves(&x.canonical()),
                x.be_bytes_each(),
                x.is_largest(),
                x.is_odd(),
                x.is_zero(),
            )
        };
        for j in 0..8 {
            let want = meaning(&lanes[j]);
            assert_eq!(value_of(&canonical[j]), want, "canonical, lane {j}");
            assert_eq!(BigUint::from_bytes_be(&bytes[j]), want, "bytes, lane {j}");
            assert_eq!(largest >> j & 1 == 1, want > half, "is_largest, lane {j}");
            assert_eq!(odd >> j & 1 == 1, want.bit(0), "is_odd, lane {j}");
            assert_eq!(
                zero >> j & 1 == 1,
                want == BigUint::from(0u32),
                "is_zero, lane {j}"
            );
        }
        // Bytes in: plain values below 2^384, reduced modulo p.
        let plain: [[u8; 48]; 8] = core::array::from_fn(|j| {
            let v = &lanes[j] << 2u32;
            let mut b = [0u8; 48];
            let be = v.to_bytes_be();
            b[48 - be.len()..].copy_from_slice(&be);
            b
        });
        // SAFETY: AVX2 (`supported`).
        let back = unsafe { Fp8::from_be_bytes_each(&plain).be_bytes_each() };
        for j in 0..8 {
            assert_eq!(
                BigUint::from_bytes_be(&back[j]),
                (&lanes[j] << 2u32) % &p,
                "bytes round trip"
            );
        }
    }
}

#[test]
fn inverses_roots_selections_and_rotations() {
    if !supported() {
        return;
    }
    let p = p();
    let values = values_below(&p, 0x7777_0000_1234_5678, 16);
    let x = raw(&values, 0);
    let lanes = lane_values(&values, 0);
    // SAFETY: AVX2 (`supported`).
    let (inverse, root, rotated, chosen) = unsafe {
        let [root] = sqrt_candidate_each(&[x]);
        (
            x.invert(),
            root,
            x.rotate_lanes::<1>(),
            x.select(&x.rotate_lanes::<4>(), 0b1010_0110),
        )
    };
    let inverse = raw_values(&inverse, 2);
    let root = raw_values(&root, 2);
    let rotated = raw_values(&rotated, 2);
    let chosen = raw_values(&chosen, 2);
    for j in 0..8 {
        let plain = meaning(&lanes[j]);
        let inverse_plain = meaning(&inverse[j]);
        if plain == BigUint::from(0u32) {
            assert_eq!(inverse_plain, BigUint::from(0u32));
        } else {
            assert_eq!(
                plain * inverse_plain % &p,
                BigUint::from(1u32),
                "1/x, lane {j}"
            );
        }
        let exponent = (&p + 1u32) >> 2u32;
        assert_eq!(
            meaning(&root[j]),
            meaning(&lanes[j]).modpow(&exponent, &p),
            "root, lane {j}"
        );
        assert_eq!(rotated[j], lanes[(j + 1) % 8], "rotation, lane {j}");
        let from = if 0b1010_0110 >> j & 1 == 1 {
            (j + 4) % 8
        } else {
            j
        };
        assert_eq!(chosen[j], lanes[from], "selection, lane {j}");
    }
}

#[test]
fn constants_convert_from_the_ifma_form() {
    let p = p();
    // 1 in the AVX-512 field's form is 2^416 mod p; here it is 2^406 mod p.
    let ifma_one = (BigUint::from(1u32) << 416u32) % &p;
    let limbs: [u64; 8] = core::array::from_fn(|i| {
        ((&ifma_one >> (52 * i)) & BigUint::from((1u64 << 52) - 1))
            .iter_u64_digits()
            .next()
            .unwrap_or(0)
    });
    assert_eq!(constant(limbs), ONE);
    assert_eq!(value_of(&ONE), r() % &p);
    assert_eq!(value_of(&R_SQUARED), r() * r() % &p);
    let mut words = Words(0xfeed_beef_cafe_f00d);
    for _ in 0..50 {
        let c = words.below(&p);
        let limbs: [u64; 8] = core::array::from_fn(|i| {
            ((&c >> (52 * i)) & BigUint::from((1u64 << 52) - 1))
                .iter_u64_digits()
                .next()
                .unwrap_or(0)
        });
        // c·2^-10 = c·2^(p − 11) modulo p.
        let want = &c * BigUint::from(2u32).modpow(&(&p - 11u32), &p) % &p;
        assert_eq!(value_of(&constant(limbs)), want);
    }
}
