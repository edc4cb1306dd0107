//! The one-element P-256 field against num-bigint, on the shared edge
//! values (0, 1, p − 1, words of all ones, `R mod p`) and random ones.

use num_bigint::BigUint;

use super::Fe;
use crate::group::p256::test_values::{be32, p, values};

fn element(x: &BigUint) -> Fe {
    let (fe, canonical) = Fe::from_be_bytes(&be32(x));
    assert!(bool::from(canonical), "{x:x} is below p");
    fe
}

fn value(x: Fe) -> BigUint {
    BigUint::from_bytes_be(&x.to_be_bytes())
}

#[test]
fn arithmetic_matches_bigint() {
    let p = p();
    let values = values();
    for a in &values {
        let x = element(a);
        assert_eq!(value(x), *a, "round trip");
        assert_eq!(value(x.square()), a * a % &p, "square of {a:x}");
        assert_eq!(value(x.double()), (a + a) % &p, "double");
        assert_eq!(value(x.neg()), (&p - a) % &p, "negation");
        assert_eq!(bool::from(x.is_zero()), *a == BigUint::from(0u32));
        assert_eq!(bool::from(x.is_odd()), a.bit(0), "parity");
        for b in values.iter().step_by(3) {
            let y = element(b);
            assert_eq!(value(x.mul(&y)), a * b % &p, "{a:x}·{b:x}");
            assert_eq!(value(x.add(&y)), (a + b) % &p, "{a:x}+{b:x}");
            assert_eq!(value(x.sub(&y)), (a + &p - b) % &p, "{a:x}−{b:x}");
        }
    }
}

#[test]
fn inverses() {
    let p = p();
    for a in values() {
        let inverse = value(element(&a).invert());
        if a == BigUint::from(0u32) {
            assert_eq!(inverse, BigUint::from(0u32));
        } else {
            assert_eq!(inverse * &a % &p, BigUint::from(1u32), "1/{a:x}");
        }
    }
}

#[test]
fn non_canonical_bytes_are_flagged() {
    let p = p();
    for x in [p.clone(), &p + 1u32, (BigUint::from(1u32) << 256u32) - 1u32] {
        let (fe, canonical) = Fe::from_be_bytes(&be32(&x));
        assert!(!bool::from(canonical), "{x:x} is not below p");
        assert!(bool::from(fe.is_zero()));
    }
}
