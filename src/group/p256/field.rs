//! Arithmetic modulo P-256's prime p = 2^256 − 2^224 + 2^192 + 2^96 − 1,
//! one element at a time (the Jacobian multiplication's field, `jacobian.rs`):
//! four 64-bit words in Montgomery form `x·R`, `R = 2^256`, every element
//! fully reduced (below p), so that equality and zero are plain word
//! tests. Constant time: 128-bit products and carries, masks for the
//! conditional subtractions, the same instructions whatever the values
//! (on x86-64 MUL and ADC; on aarch64 MUL and UMULH).
//!
//! It is `p256`'s own Montgomery arithmetic with two changes that matter
//! on the hot path: a squaring with each cross product once (10 products,
//! not 16), and a reduction that uses p's shape more (one product per
//! round, not two): a chain of products 17.6 ns each against `p256`'s
//! 20.5, of squares 16.0 against 19.1, and `s·P` on it 47 µs against 67
//! with the same formulas on `p256`'s field (Zen 5; PERFORMANCE.md).

use subtle::{Choice, ConditionallySelectable};
use zeroize::Zeroize;

/// p, least significant word first.
const P: [u64; 4] = [
    0xffff_ffff_ffff_ffff,
    0x0000_0000_ffff_ffff,
    0x0000_0000_0000_0000,
    0xffff_ffff_0000_0001,
];

/// `R mod p`: 1 in Montgomery form.
const R_MOD_P: [u64; 4] = [
    0x0000_0000_0000_0001,
    0xffff_ffff_0000_0000,
    0xffff_ffff_ffff_ffff,
    0x0000_0000_ffff_fffe,
];

/// `R² mod p`: multiplying by it enters Montgomery form.
const R_SQUARED: [u64; 4] = [
    0x0000_0000_0000_0003,
    0xffff_fffb_ffff_ffff,
    0xffff_ffff_ffff_fffe,
    0x0000_0004_ffff_fffd,
];

/// An element of GF(p) in Montgomery form, below p.
#[derive(Clone, Copy, Default)]
pub(super) struct Fe([u64; 4]);

impl Zeroize for Fe {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl ConditionallySelectable for Fe {
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        Fe(core::array::from_fn(|i| {
            u64::conditional_select(&a.0[i], &b.0[i], choice)
        }))
    }
}

/// `a + b + carry`: the low word and the carry out.
#[inline(always)]
fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let sum = u128::from(a) + u128::from(b) + u128::from(carry);
    (sum as u64, (sum >> 64) as u64)
}

/// `a − b − borrow`: the low word and the borrow out (0 or 1).
#[inline(always)]
fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let difference = u128::from(a)
        .wrapping_sub(u128::from(b))
        .wrapping_sub(u128::from(borrow));
    (difference as u64, (difference >> 127) as u64)
}

/// `acc + a·b + carry`: the low word and the high word (no overflow:
/// `(2^64 − 1)² + 2·(2^64 − 1) < 2^128`).
#[inline(always)]
fn mac(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    let sum = u128::from(a) * u128::from(b) + u128::from(acc) + u128::from(carry);
    (sum as u64, (sum >> 64) as u64)
}

/// The value `words + top·2^256` less p if it is at least p; for values
/// below 2p.
#[inline(always)]
fn subtract_p_if_above(words: [u64; 4], top: u64) -> Fe {
    let mut difference = [0u64; 4];
    let mut borrow = 0;
    for i in 0..4 {
        (difference[i], borrow) = sbb(words[i], P[i], borrow);
    }
    let (_, below_p) = sbb(top, 0, borrow);
    // All ones where the value was below p: keep it.
    let keep = 0u64.wrapping_sub(below_p);
    Fe(core::array::from_fn(|i| {
        (words[i] & keep) | (difference[i] & !keep)
    }))
}

/// `t / R mod p` for `t < p·R`, below p: four rounds of Montgomery
/// reduction. `−p^{-1} ≡ 1 (mod 2^64)`, so round `i`'s multiplier is the
/// word `q = t[i]` itself, and `q·p = q·2^256 − q·2^224 + q·2^192 +
/// q·2^96 − q`: the `−q` clears word `i`, `q·2^96` is `q` shifted into
/// words `i + 1` and `i + 2`, and the rest is `q·(2^64 − 2^32 + 1)`
/// (p's top word) at words `i + 3` and `i + 4`: one product a round.
///
/// A round's carry out of word `i + 4` waits for the next round, which
/// adds it to word `i + 5` with its own high word, instead of rippling
/// up: a sum of two words and a carry of up to 2 is below 2^65, so the
/// carries stay 0 or 1.
#[inline(always)]
fn reduce(mut t: [u64; 8]) -> Fe {
    let mut pending = 0;
    for i in 0..4 {
        let q = t[i];
        let (low, high) = mac(0, q, P[3], 0);
        let mut carry;
        (t[i + 1], carry) = adc(t[i + 1], q << 32, 0);
        (t[i + 2], carry) = adc(t[i + 2], q >> 32, carry);
        (t[i + 3], carry) = adc(t[i + 3], low, carry);
        (t[i + 4], pending) = adc(t[i + 4], high, carry + pending);
    }
    subtract_p_if_above([t[4], t[5], t[6], t[7]], pending)
}

impl Fe {
    /// 0.
    pub(super) const ZERO: Fe = Fe([0; 4]);

    /// 1.
    pub(super) const ONE: Fe = Fe(R_MOD_P);

    /// `self·other`.
    #[inline]
    pub(super) fn mul(&self, other: &Fe) -> Fe {
        let (a, b) = (&self.0, &other.0);
        let mut t = [0u64; 8];
        for i in 0..4 {
            let mut carry = 0;
            for j in 0..4 {
                (t[i + j], carry) = mac(t[i + j], a[i], b[j], carry);
            }
            t[i + 4] = carry;
        }
        reduce(t)
    }

    /// `self²`: the six cross products once, doubled, then the four
    /// squares.
    #[inline]
    pub(super) fn square(&self) -> Fe {
        let a = &self.0;
        let mut t = [0u64; 8];
        let mut carry;
        (t[1], carry) = mac(0, a[0], a[1], 0);
        (t[2], carry) = mac(0, a[0], a[2], carry);
        (t[3], t[4]) = mac(0, a[0], a[3], carry);
        (t[3], carry) = mac(t[3], a[1], a[2], 0);
        (t[4], t[5]) = mac(t[4], a[1], a[3], carry);
        (t[5], t[6]) = mac(t[5], a[2], a[3], 0);
        t[7] = t[6] >> 63;
        for i in (2..7).rev() {
            t[i] = (t[i] << 1) | (t[i - 1] >> 63);
        }
        t[1] <<= 1;
        carry = 0;
        for i in 0..4 {
            let (low, high) = mac(0, a[i], a[i], 0);
            (t[2 * i], carry) = adc(t[2 * i], low, carry);
            (t[2 * i + 1], carry) = adc(t[2 * i + 1], high, carry);
        }
        reduce(t)
    }

    /// `self + other`.
    #[inline]
    pub(super) fn add(&self, other: &Fe) -> Fe {
        let mut sum = [0u64; 4];
        let mut carry = 0;
        for (i, word) in sum.iter_mut().enumerate() {
            (*word, carry) = adc(self.0[i], other.0[i], carry);
        }
        subtract_p_if_above(sum, carry)
    }

    /// `2·self`.
    #[inline]
    pub(super) fn double(&self) -> Fe {
        self.add(self)
    }

    /// `self − other`: the difference, plus p where it went below zero.
    #[inline]
    pub(super) fn sub(&self, other: &Fe) -> Fe {
        let mut difference = [0u64; 4];
        let mut borrow = 0;
        for (i, word) in difference.iter_mut().enumerate() {
            (*word, borrow) = sbb(self.0[i], other.0[i], borrow);
        }
        let mask = 0u64.wrapping_sub(borrow);
        let mut carry = 0;
        for (i, word) in difference.iter_mut().enumerate() {
            (*word, carry) = adc(*word, P[i] & mask, carry);
        }
        Fe(difference)
    }

    /// `−self`.
    #[inline]
    pub(super) fn neg(&self) -> Fe {
        Fe::ZERO.sub(self)
    }

    /// Whether `self` is 0.
    pub(super) fn is_zero(&self) -> Choice {
        let any = self.0.iter().fold(0, |any, word| any | word);
        // 1 exactly when every bit of `any` is 0.
        Choice::from((((any | any.wrapping_neg()) >> 63) ^ 1) as u8)
    }

    /// `self^(2^k)`.
    fn square_times(&self, k: usize) -> Fe {
        let mut x = *self;
        for _ in 0..k {
            x = x.square();
        }
        x
    }

    /// `1/self` (0 for 0), as `self^(p − 2)`. The exponent's bits from the
    /// top: 32 ones, 31 zeros, a one, 96 zeros, 94 ones, a zero, a one;
    /// built from `x_k = self^(2^k − 1)`, with `x_{j+k} = x_j^(2^k)·x_k`.
    pub(super) fn invert(&self) -> Fe {
        let x1 = *self;
        let x2 = x1.square().mul(&x1);
        let x4 = x2.square_times(2).mul(&x2);
        let x6 = x4.square_times(2).mul(&x2);
        let x8 = x4.square_times(4).mul(&x4);
        let x14 = x8.square_times(6).mul(&x6);
        let x16 = x8.square_times(8).mul(&x8);
        let x30 = x16.square_times(14).mul(&x14);
        let x32 = x16.square_times(16).mul(&x16);
        // Bits 255..224, then 223..192 (0…01), 191..96 (zeros) with
        // 95..64 (ones), 63..32 (ones), 31..2 (ones), 1..0 (01).
        let mut r = x32.square_times(32).mul(&x1);
        r = r.square_times(96 + 32).mul(&x32);
        r = r.square_times(32).mul(&x32);
        r = r.square_times(30).mul(&x30);
        r.square_times(2).mul(&x1)
    }

    /// The element of 32 big-endian bytes and whether they encode a value
    /// below p (0 where they do not).
    pub(super) fn from_be_bytes(bytes: &[u8; 32]) -> (Fe, Choice) {
        let words: [u64; 4] = core::array::from_fn(|i| {
            let start = 32 - 8 * (i + 1);
            u64::from_be_bytes(bytes[start..start + 8].try_into().expect("8 bytes"))
        });
        let mut borrow = 0;
        for i in 0..4 {
            (_, borrow) = sbb(words[i], P[i], borrow);
        }
        let below_p = Choice::from(borrow as u8);
        let plain = Fe::conditional_select(&Fe::ZERO, &Fe(words), below_p);
        (plain.mul(&Fe(R_SQUARED)), below_p)
    }

    /// The canonical value as 32 big-endian bytes (secret where the
    /// element is: the caller wipes them).
    pub(super) fn to_be_bytes(self) -> [u8; 32] {
        let mut plain = self.to_plain();
        let mut bytes = [0u8; 32];
        for (i, word) in plain.iter().enumerate() {
            bytes[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&word.to_be_bytes());
        }
        plain.zeroize();
        bytes
    }

    /// Whether the canonical value is odd.
    pub(super) fn is_odd(&self) -> Choice {
        let mut plain = self.to_plain();
        let odd = Choice::from((plain[0] & 1) as u8);
        plain.zeroize();
        odd
    }

    /// The canonical value's words (out of Montgomery form: a product by
    /// a plain 1).
    fn to_plain(self) -> [u64; 4] {
        let mut t = [0u64; 8];
        t[..4].copy_from_slice(&self.0);
        let plain = reduce(t).0;
        t.zeroize();
        plain
    }
}

#[cfg(test)]
mod tests;
