//! The AVX2 field against num-bigint: every operation on the edges, random
//! values and non-canonical elements (values up to 2^257 − 1, every digit
//! at its bound), and long chains that keep feeding results back in.

use core::arch::x86_64::*;

use num_bigint::BigUint;

use super::{Fe8, DIGITS, DIGIT_BOUND, TOP_DIGIT_BOUND};
use crate::group::lanes::halves::{digits_of_halves, halves_of};
use crate::group::p256::test_values::{p, random_bytes, values};

/// Lanes per element vector.
const LANES: usize = 8;

fn supported() -> bool {
    std::is_x86_feature_detected!("avx2")
}

fn value_of_digits(digits: &[u64; DIGITS]) -> BigUint {
    digits
        .iter()
        .rev()
        .fold(BigUint::from(0u32), |acc, &d| (acc << 29u32) + d)
}

fn digits_of(value: &BigUint) -> [u64; DIGITS] {
    let mask = BigUint::from((1u64 << 29) - 1);
    core::array::from_fn(|i| {
        let digit = (value >> (29 * i)) & &mask;
        digit.iter_u64_digits().next().unwrap_or(0)
    })
}

/// The Montgomery radix 2^261.
fn r() -> BigUint {
    BigUint::from(1u32) << 261u32
}

/// 8 plain values (cycled) as an element, into Montgomery form.
#[target_feature(enable = "avx2")]
fn field_of(values: &[BigUint]) -> Fe8 {
    let digits = core::array::from_fn(|j| digits_of(&values[j % values.len()]));
    Fe8::from_canonical_digits(halves_of(&digits))
}

/// The canonical values of an element's lanes, checked to be below p.
#[target_feature(enable = "avx2")]
fn values_of(x: &Fe8) -> Vec<BigUint> {
    digits_of_halves(&x.canonical())
        .iter()
        .map(|digits| {
            assert!(
                digits.iter().all(|&d| d < 1 << 29),
                "a canonical digit above 2^29"
            );
            let value = value_of_digits(digits);
            assert!(value < p(), "a canonical value not below p");
            value
        })
        .collect()
}

/// The Montgomery representatives of an element (`x·R`, maybe ≥ p), as
/// values, with each digit checked against the module's bounds.
#[target_feature(enable = "avx2")]
fn representatives_of(x: &Fe8) -> Vec<BigUint> {
    digits_of_halves(&x.0)
        .iter()
        .map(|digits| {
            let below = |d: &u64, bound: i64| *d < bound as u64;
            assert!(
                digits[..DIGITS - 1].iter().all(|d| below(d, DIGIT_BOUND)),
                "a digit too big"
            );
            assert!(
                below(&digits[DIGITS - 1], TOP_DIGIT_BOUND),
                "a top digit too big"
            );
            value_of_digits(digits)
        })
        .collect()
}

#[test]
fn constants_are_what_their_names_say() {
    let p = p();
    assert_eq!(
        p,
        (BigUint::from(1u32) << 256u32) - (BigUint::from(1u32) << 224u32)
            + (BigUint::from(1u32) << 192u32)
            + (BigUint::from(1u32) << 96u32)
            - 1u32
    );
    let value = |d: [u32; DIGITS]| value_of_digits(&d.map(u64::from));
    assert_eq!(value(super::P), p);
    assert_eq!(value(super::MINUS_P), (BigUint::from(1u32) << 261u32) - &p);
    assert_eq!(value(super::FOUR_P), &p * 4u32);
    assert_eq!(value(super::ONE), r() % &p);
    assert_eq!(value(super::R_SQUARED), r() * r() % &p);
    let surplus = (BigUint::from(1u32) << 224u32) * (r() - 1u32);
    assert_eq!(
        (value(super::CANCEL_SURPLUS) + surplus) % &p,
        BigUint::from(0u32)
    );
}

#[test]
fn operations_match_bigint() {
    if !supported() {
        eprintln!("skipped: no AVX2");
        return;
    }
    let p = p();
    let all = values();
    let mut rotated = all.clone();
    rotated.rotate_left(5);
    let mut third = all.clone();
    third.rotate_left(11);
    for ((a, b), c) in all
        .chunks(LANES)
        .zip(rotated.chunks(LANES))
        .zip(third.chunks(LANES))
    {
        // SAFETY: the CPU has AVX2 (checked above).
        let (results, masks) = unsafe {
            let (x, y, z) = (field_of(a), field_of(b), field_of(c));
            (
                [
                    values_of(&x),
                    values_of(&x.add(&y)),
                    values_of(&x.sub(&y)),
                    values_of(&x.neg()),
                    values_of(&x.mul(&y)),
                    values_of(&x.square()),
                    values_of(&x.times_3()),
                    values_of(&x.times_pow2::<3>()),
                    values_of(&x.sub_times_pow2::<3>(&y)),
                    values_of(&x.sub_two::<1>(&y, &z)),
                    values_of(&x.times_pow2_sub::<3>(&y)),
                    values_of(&x.sub_times_3(&y)),
                    values_of(&x.select(&y, 0b1010_0110)),
                    values_of(&x.negate_where(0b0101_1001)),
                    values_of(&x.square_times(5)),
                    values_of(&x.mul(&Fe8::one())),
                    values_of(&Fe8::zero().add(&x)),
                ],
                [x.is_zero(), x.equals(&y), x.equals(&x), x.is_odd()],
            )
        };
        for lane in 0..LANES {
            let (x, y, z) = (&a[lane], &b[lane], &c[lane]);
            let neg = |v: &BigUint| (&p - v) % &p;
            let pick = |mask: u8, yes: &BigUint, no: &BigUint| {
                if mask >> lane & 1 == 1 {
                    yes.clone()
                } else {
                    no.clone()
                }
            };
            let expected = [
                x.clone(),
                (x + y) % &p,
                (x + &p - y) % &p,
                neg(x),
                x * y % &p,
                x * x % &p,
                x * 3u32 % &p,
                x * 8u32 % &p,
                (x + neg(y) * 8u32) % &p,
                (x + neg(y) + neg(z) * 2u32) % &p,
                (x * 8u32 + neg(y)) % &p,
                (x + neg(y)) * 3u32 % &p,
                pick(0b1010_0110, y, x),
                pick(0b0101_1001, &neg(x), x),
                x.modpow(&BigUint::from(32u32), &p),
                x.clone(),
                x.clone(),
            ];
            for (k, (got, want)) in results.iter().zip(&expected).enumerate() {
                assert_eq!(
                    &got[lane], want,
                    "operation {k}, lane {lane}, x = {x:x}, y = {y:x}"
                );
            }
            let bit = |b: bool| u8::from(b) << lane;
            let zero = BigUint::from(0u32);
            assert_eq!(masks[0] & (1 << lane), bit(*x == zero), "is_zero");
            assert_eq!(masks[1] & (1 << lane), bit(x == y), "equals");
            assert_eq!(masks[2] & (1 << lane), bit(true), "equals itself");
            assert_eq!(masks[3] & (1 << lane), bit(x.bit(0)), "is_odd");
        }
    }
}

/// Elements whose representatives are not below p, up to `2^257 − 1`,
/// and whose digits are above 2^29 (up to [`DIGIT_BOUND`], what a sum's
/// one round of carries leaves), are valid operands: products and sums of
/// them agree with num-bigint and stay within the bounds.
#[test]
fn non_canonical_operands_at_the_digit_bounds() {
    if !supported() {
        eprintln!("skipped: no AVX2");
        return;
    }
    let p = p();
    let one = BigUint::from(1u32);
    let top = (&one << 257u32) - 1u32;
    let high_digits = |top_digit: u64| {
        let mut digits = [DIGIT_BOUND as u64 - 1; DIGITS];
        digits[DIGITS - 1] = top_digit;
        digits
    };
    let mut digit_edges = vec![
        high_digits(TOP_DIGIT_BOUND as u64 - 2),
        high_digits(1 << 24),
        high_digits(0),
        [
            DIGIT_BOUND as u64 - 1,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            TOP_DIGIT_BOUND as u64 - 1,
        ],
    ];
    let mut state = 0x5eed_u64;
    let mut values = vec![
        top.clone(),
        &top - 1u32,
        &p * 2u32,
        &p * 2u32 - 1u32,
        p.clone(),
        &p + 1u32,
        (&one << 256u32) - 1u32,
        (&one << 256u32) + (&one << 232u32),
    ];
    while values.len() + digit_edges.len() < 32 {
        // Below 2^257: 256 random bits and a random bit 256.
        let high = BigUint::from(random_bytes(&mut state)[0] & 1) << 256u32;
        values.push(high + BigUint::from_bytes_be(&random_bytes(&mut state)));
    }
    digit_edges.extend(values.iter().map(digits_of));
    let edges: Vec<BigUint> = digit_edges.iter().map(value_of_digits).collect();
    assert!(edges.iter().all(|e| *e <= top), "an edge above 2^257 − 1");
    let mut rotated = edges.clone();
    rotated.rotate_left(3);
    let r_inverse = r().modpow(&(&p - 2u32), &p);
    let mut rotated_digits = digit_edges.clone();
    rotated_digits.rotate_left(3);
    let chunks = edges.chunks(LANES).zip(rotated.chunks(LANES));
    let digit_chunks = digit_edges.chunks(LANES).zip(rotated_digits.chunks(LANES));
    for ((a, b), (a_digits, b_digits)) in chunks.zip(digit_chunks) {
        // SAFETY: the CPU has AVX2 (checked above).
        let (raw, results) = unsafe {
            let element =
                |digits: &[[u64; DIGITS]]| Fe8(halves_of(&core::array::from_fn(|j| digits[j])));
            let (x, y) = (element(a_digits), element(b_digits));
            (
                [
                    representatives_of(&x.mul(&y)),
                    representatives_of(&x.square()),
                    representatives_of(&x.add(&y)),
                    representatives_of(&x.sub(&y)),
                    representatives_of(&x.sub_times_3(&y)),
                ],
                [values_of(&x.mul(&y)), values_of(&x.sub(&y))],
            )
        };
        for lane in 0..LANES {
            let (x, y) = (&a[lane], &b[lane]);
            let expected = [
                x * y * &r_inverse % &p,
                x * x * &r_inverse % &p,
                (x + y) % &p,
                (x + &p * 4u32 - y) % &p,
                (x + &p * 4u32 - y) * 3u32 % &p,
            ];
            for (k, (got, want)) in raw.iter().zip(&expected).enumerate() {
                assert_eq!(
                    &got[lane] % &p,
                    *want,
                    "operation {k}, lane {lane}, {x:x}, {y:x}"
                );
            }
            // canonical() of a representative: the plain value of x·y/R
            // as a Montgomery element is x·y/R², and of x − y is (x − y)/R.
            assert_eq!(results[0][lane], x * y * &r_inverse * &r_inverse % &p);
            assert_eq!(results[1][lane], (x + &p * 4u32 - y) * &r_inverse % &p);
        }
    }
}

/// Results fed back in 2,000 times (products, squares, sums, differences
/// and multiples mixed) agree with num-bigint at every step's end.
#[test]
fn long_chains_stay_exact() {
    if !supported() {
        eprintln!("skipped: no AVX2");
        return;
    }
    let p = p();
    let all = values();
    let (a, b) = (&all[8..16], &all[40..48]);
    // SAFETY: the CPU has AVX2 (checked above).
    let got = unsafe {
        let (mut x, y) = (field_of(a), field_of(b));
        for step in 0..2000 {
            x = match step % 5 {
                0 => x.mul(&y),
                1 => x.square(),
                2 => x.add(&x).add(&y),
                3 => x.sub_times_pow2::<2>(&y),
                _ => x.times_pow2_sub::<1>(&y),
            };
        }
        values_of(&x)
    };
    for lane in 0..LANES {
        let (mut x, y) = (a[lane].clone(), &b[lane]);
        for step in 0..2000 {
            x = match step % 5 {
                0 => &x * y % &p,
                1 => &x * &x % &p,
                2 => (&x * 2u32 + y) % &p,
                3 => (&x + (&p - y) * 4u32) % &p,
                _ => (&x * 2u32 + &p - y) % &p,
            };
        }
        assert_eq!(got[lane], x, "lane {lane}");
    }
}

/// Median TSC ticks of `run` over repetitions, divided by `per`.
fn ticks(per: u64, mut run: impl FnMut()) -> f64 {
    let mut samples: Vec<u64> = (0..31)
        .map(|_| {
            // SAFETY: RDTSC has no preconditions on x86-64.
            let start = unsafe { _rdtsc() };
            run();
            // SAFETY: as above.
            let end = unsafe { _rdtsc() };
            end - start
        })
        .collect();
    samples.sort_unstable();
    samples[samples.len() / 2] as f64 / per as f64
}

/// Steps of each chain in a timing.
const STEPS: u64 = 2000;

/// Median ticks per operation of `op` applied [`STEPS`] times to each of
/// `N` independent chains from `start`.
fn chain_ticks<const N: usize>(start: Fe8, op: impl Fn(Fe8) -> Fe8) -> f64 {
    let mut chains = [start; N];
    ticks(N as u64 * STEPS, || {
        for _ in 0..STEPS {
            for c in chains.iter_mut() {
                *c = op(*c);
            }
            core::hint::black_box(&chains);
        }
    })
}

/// TSC ticks per multiplication, squaring and subtraction of 8 elements,
/// one chain (latency) and four chains side by side (throughput), for
/// profiling by hand: `cargo test --release --lib field_avx2 -- --ignored
/// --nocapture`. It prints, and asserts nothing about time.
#[test]
#[ignore = "prints timings"]
fn print_timings() {
    if !supported() {
        eprintln!("skipped: no AVX2");
        return;
    }
    let all = values();
    // SAFETY: the CPU has AVX2 (checked above), here and in every closure
    // below.
    let (x, y) = unsafe { (field_of(&all[8..16]), field_of(&all[16..24])) };
    // SAFETY: as above.
    let mul = |c: Fe8| unsafe { c.mul(&y) };
    // SAFETY: as above.
    let square = |c: Fe8| unsafe { c.square() };
    // SAFETY: as above.
    let sub = |c: Fe8| unsafe { c.sub(&y) };
    let print = |name: &str, one: f64, four: f64| {
        println!("{name}: {one:.1} ticks one chain, {four:.1} per operation in four");
    };
    print("mul", chain_ticks::<1>(x, mul), chain_ticks::<4>(x, mul));
    print(
        "square",
        chain_ticks::<1>(x, square),
        chain_ticks::<4>(x, square),
    );
    print("sub", chain_ticks::<1>(x, sub), chain_ticks::<4>(x, sub));
}
