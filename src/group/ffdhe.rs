//! The RFC 7919 finite-field groups (`FFDHE2048/3072/4096-SHA512`, this
//! library's suites): the subgroup of prime order `q = (p - 1)/2` of `Z_p^*`
//! (the quadratic residues), generator 2. "Adding" is multiplying mod p and
//! `k·X` is `X^k mod p`; the same-scalar batch multiplication is one call of
//! the `mp` batch engine, so it runs on AVX-512 IFMA where the CPU has it.
//!
//! Encodings: an element is `len(p)` bytes big-endian, valid iff `1 < x < p`
//! and `x` is a quadratic residue (Jacobi symbol +1, computed in variable
//! time: elements are public); a scalar is `len(q)` bytes big-endian in
//! `[1, q)`. Hash to group: `v = expand_message_xmd(SHA-512, msg, DST,
//! len(p) + 16)` as an integer mod p, element `v^2 mod p`. Hash to scalar:
//! `len(q) + 16` bytes of expand_message_xmd, mod q.

use std::marker::PhantomData;
use std::sync::OnceLock;

use rand_core::CryptoRng;
use sha2::{Digest, Sha512};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

use super::ffdhe_params::{FFDHE2048_P, FFDHE3072_P, FFDHE4096_P};
use super::xmd::expand_message_xmd;
use super::{PrimeOrderGroup, ShortScalar};
use crate::mp::limbs::{be_bytes_to_limbs, bit_length_vartime, limbs_for_bytes, limbs_to_be_bytes};
use crate::mp::MontContext;
use crate::Error;

/// One RFC 7919 group: its name and prime.
pub trait FfdheParams: 'static + Send + Sync {
    /// The suite identifier.
    const SUITE_ID: &'static str;
    /// `p` in hexadecimal.
    const P_HEX: &'static str;
    /// Bytes of `p` (and of an element).
    const P_LEN: usize;
    /// The moduli p and q, computed once.
    fn moduli() -> &'static Moduli;
}

/// The Montgomery contexts of `p` and `q = (p - 1)/2`.
pub struct Moduli {
    p: MontContext,
    q: MontContext,
    /// Bytes of `q`.
    q_len: usize,
}

impl Moduli {
    fn from_hex(p_hex: &str) -> Moduli {
        let p_bytes: Vec<u8> = (0..p_hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&p_hex[i..i + 2], 16).expect("hex constant"))
            .collect();
        // q = (p - 1) / 2: p is odd, so this is p >> 1.
        let mut q_bytes = vec![0u8; p_bytes.len()];
        let mut carry = 0u8;
        for (q, &p) in q_bytes.iter_mut().zip(&p_bytes) {
            *q = (p >> 1) | (carry << 7);
            carry = p & 1;
        }
        let p = MontContext::new(&p_bytes).expect("RFC 7919 primes are odd");
        let q = MontContext::new(&q_bytes).expect("q is an odd prime");
        let q_len = q.modulus_len();
        Moduli { p, q, q_len }
    }
}

macro_rules! ffdhe_group {
    ($params:ident, $alias:ident, $id:literal, $hex:ident, $len:literal) => {
        /// Parameters of one RFC 7919 group.
        #[derive(Clone, Copy, Debug)]
        pub struct $params;

        impl FfdheParams for $params {
            const SUITE_ID: &'static str = $id;
            const P_HEX: &'static str = $hex;
            const P_LEN: usize = $len;
            fn moduli() -> &'static Moduli {
                static MODULI: OnceLock<Moduli> = OnceLock::new();
                MODULI.get_or_init(|| Moduli::from_hex($hex))
            }
        }

        #[doc = concat!("The `", $id, "` group.")]
        pub type $alias = Ffdhe<$params>;
    };
}

ffdhe_group!(Params2048, Ffdhe2048, "FFDHE2048-SHA512", FFDHE2048_P, 256);
ffdhe_group!(Params3072, Ffdhe3072, "FFDHE3072-SHA512", FFDHE3072_P, 384);
ffdhe_group!(Params4096, Ffdhe4096, "FFDHE4096-SHA512", FFDHE4096_P, 512);

/// An RFC 7919 group (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct Ffdhe<P: FfdheParams>(PhantomData<P>);

/// An element: a residue mod p (64-bit limbs, `< p`). Compared in constant
/// time: elements can be secret (a hashed private input, an unblinded
/// output, a decrypted plaintext).
#[derive(Clone, Debug)]
pub struct Residue(Vec<u64>);

impl ConstantTimeEq for Residue {
    fn ct_eq(&self, other: &Self) -> Choice {
        // Every residue of one group has the same (public) limb count.
        self.0.ct_eq(&other.0)
    }
}

impl PartialEq for Residue {
    fn eq(&self, other: &Self) -> bool {
        bool::from(self.ct_eq(other))
    }
}

impl Eq for Residue {}

impl Zeroize for Residue {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

/// The limbs are on the heap: a residue that held a secret (a Diffie–Hellman
/// value, a plaintext) is wiped when it goes, wherever that is.
impl Drop for Residue {
    fn drop(&mut self) {
        self.zeroize();
    }
}

/// A scalar: a residue mod q (64-bit limbs, `< q`). Keys, blinds and nonces
/// are scalars, so it is wiped on drop and neither `Copy` nor `Debug`.
#[derive(Clone)]
pub struct Exponent(Vec<u64>);

impl Zeroize for Exponent {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Drop for Exponent {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for Exponent {}

impl<P: FfdheParams> Ffdhe<P> {
    /// Bits of a secret exponent (a scalar, below q): q's length, public.
    /// The trace harness may cut it (`mp::trace_cut`).
    fn secret_exponent_bits() -> usize {
        crate::mp::trace_cut::secret_exponent_bits(Self::q().modulus_bits())
    }

    /// The limbs of `s` that [`Self::secret_exponent_bits`] counts.
    fn secret_exponent(s: &Exponent) -> &[u64] {
        &s.0[..Self::secret_exponent_bits().div_ceil(64)]
    }

    fn p() -> &'static MontContext {
        &P::moduli().p
    }

    fn q() -> &'static MontContext {
        &P::moduli().q
    }

    fn q_len() -> usize {
        P::moduli().q_len
    }

    fn residue_from_u64(v: u64, ctx: &MontContext) -> Vec<u64> {
        let mut limbs = vec![0u64; ctx.limbs()];
        limbs[0] = v;
        limbs
    }

    /// `Π X_i^(d_i)` for short exponents `d_i < 2^bits`: one batch
    /// exponentiation with `bits`-bit exponents (constant time in their
    /// values, like every `mp` exponentiation), then the product.
    fn short_power_product(scalars: &[ShortScalar], elements: &[Residue], bits: usize) -> Residue {
        let n = scalars.len().min(elements.len());
        if n == 0 {
            return Self::identity();
        }
        let bits = bits.clamp(1, 8 * 17);
        // Each factor as three little-endian limbs (17 bytes), wiped.
        let limbs: Zeroizing<Vec<[u64; 3]>> = Zeroizing::new(
            scalars[..n]
                .iter()
                .map(|d| {
                    let mut bytes = [0u8; 24];
                    bytes[..17].copy_from_slice(d.as_le_bytes());
                    let limbs = core::array::from_fn(|i| {
                        u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"))
                    });
                    bytes.zeroize();
                    limbs
                })
                .collect(),
        );
        let exponents: Vec<&[u64]> = limbs.iter().map(|l| &l[..bits.div_ceil(64)]).collect();
        let bases: Vec<&Residue> = elements[..n].iter().collect();
        Self::pow_batch(&bases, &exponents, bits)
            .iter()
            .fold(Self::identity(), |acc, x| Self::add(&acc, x))
    }

    /// `bases[i] ^ exponents[i] mod p` for every `i` in one batch call on
    /// the residues themselves (no byte conversion), the exponents limbs of
    /// which the low `exponent_bits` (public) count.
    fn pow_batch(bases: &[&Residue], exponents: &[&[u64]], exponent_bits: usize) -> Vec<Residue> {
        let bases: Vec<&[u64]> = bases.iter().map(|b| b.0.as_slice()).collect();
        Self::p()
            .mod_exp_residues(&bases, exponents, exponent_bits)
            .into_iter()
            .map(|power| Residue(power.to_vec()))
            .collect()
    }

    /// `base ^ exponent` modulo `ctx` for one residue and a public
    /// exponent of `ctx`'s size: the Fermat inversions.
    fn pow_one(ctx: &MontContext, base: &[u64], exponent: &[u64]) -> Vec<u64> {
        let bits = 64 * exponent.len();
        let power = ctx.mod_exp_residues(&[base], &[exponent], bits);
        power[0].to_vec()
    }
}

/// The Jacobi symbol `(a / n)` for odd `n` and `a < n` (binary algorithm,
/// variable time: for public values only).
fn jacobi_vartime(a: &[u64], n: &[u64]) -> i32 {
    let (mut a, mut n) = (a.to_vec(), n.to_vec());
    let mut t = 1;
    let is_zero = |x: &[u64]| x.iter().all(|&l| l == 0);
    loop {
        if is_zero(&a) {
            let one = n[0] == 1 && n[1..].iter().all(|&l| l == 0);
            return if one { t } else { 0 };
        }
        let zeros = trailing_zeros(&a);
        shift_right(&mut a, zeros);
        if zeros % 2 == 1 && matches!(n[0] & 7, 3 | 5) {
            t = -t;
        }
        if less_than(&a, &n) {
            core::mem::swap(&mut a, &mut n);
            if a[0] & 3 == 3 && n[0] & 3 == 3 {
                t = -t;
            }
        }
        // a >= n, both odd: a - n is even (or zero).
        subtract_in_place(&mut a, &n);
    }
}

fn trailing_zeros(x: &[u64]) -> usize {
    let limb = x.iter().position(|&l| l != 0).expect("non-zero");
    64 * limb + x[limb].trailing_zeros() as usize
}

fn shift_right(x: &mut [u64], bits: usize) {
    let (limbs, bits) = (bits / 64, bits % 64);
    for i in 0..x.len() {
        let lo = x.get(i + limbs).copied().unwrap_or(0);
        let hi = x.get(i + limbs + 1).copied().unwrap_or(0);
        x[i] = if bits == 0 {
            lo
        } else {
            (lo >> bits) | (hi << (64 - bits))
        };
    }
}

fn less_than(a: &[u64], b: &[u64]) -> bool {
    for (x, y) in a.iter().zip(b).rev() {
        if x != y {
            return x < y;
        }
    }
    false
}

fn subtract_in_place(a: &mut [u64], b: &[u64]) {
    let mut borrow = 0u64;
    for (x, &y) in a.iter_mut().zip(b) {
        let (d1, b1) = x.overflowing_sub(y);
        let (d2, b2) = d1.overflowing_sub(borrow);
        *x = d2;
        borrow = u64::from(b1 | b2);
    }
}

impl<P: FfdheParams> super::sealed::Sealed for Ffdhe<P> {}

impl<P: FfdheParams> PrimeOrderGroup for Ffdhe<P> {
    type Element = Residue;
    type Scalar = Exponent;
    type Lanes = super::lanes::NoLanes<Residue, Exponent>;

    const SUITE_ID: &'static str = P::SUITE_ID;
    const ELEMENT_LEN: usize = P::P_LEN;
    const SCALAR_LEN: usize = P::P_LEN;
    const HASH_LEN: usize = 64;

    fn hash(parts: &[&[u8]]) -> Vec<u8> {
        let mut h = Sha512::new();
        for part in parts {
            h.update(part);
        }
        h.finalize().to_vec()
    }

    fn generator() -> Residue {
        Residue(Self::residue_from_u64(2, Self::p()))
    }

    fn identity() -> Residue {
        Residue(Self::residue_from_u64(1, Self::p()))
    }

    /// A masked comparison with 1: the element may be a hashed private
    /// input or a decrypted plaintext.
    fn is_identity(element: &Residue) -> bool {
        bool::from(element.ct_eq(&Self::identity()))
    }

    fn add(a: &Residue, b: &Residue) -> Residue {
        Residue(Self::p().mul_mod(&a.0, &b.0))
    }

    fn ct_select(choice: Choice, if_true: &Residue, if_false: &Residue) -> Residue {
        Residue(
            if_true
                .0
                .iter()
                .zip(&if_false.0)
                .map(|(t, f)| u64::conditional_select(f, t, choice))
                .collect(),
        )
    }

    /// The inverse mod p, `a^(p-2)`, in constant time (the element may be
    /// secret, e.g. a Diffie–Hellman value).
    fn neg(a: &Residue) -> Residue {
        let p = Self::p();
        let p_minus_2 = p.sub_mod(&vec![0u64; p.limbs()], &Self::residue_from_u64(2, p)); // -2 mod p
        Residue(Self::pow_one(p, &a.0, &p_minus_2))
    }

    fn hash_to_group(msg: &[&[u8]], dst: &[u8]) -> Residue {
        // The message may be a private input: its hash is wiped, and the
        // zero test reads every limb.
        let uniform = Zeroizing::new(expand_message_xmd::<Sha512>(msg, dst, P::P_LEN + 16));
        let v = Zeroizing::new(Self::p().reduce(&uniform));
        let square = Self::p().mul_mod(&v, &v);
        if square.iter().fold(0u64, |acc, &l| acc | l) == 0 {
            // v ≡ 0 (probability 2^-2000): not a group element; the identity
            // makes the caller's identity check reject the input.
            return Self::identity();
        }
        Residue(square)
    }

    fn hash_to_scalar(msg: &[&[u8]], dst: &[u8]) -> Exponent {
        let mut uniform = expand_message_xmd::<Sha512>(msg, dst, Self::q_len() + 16);
        let s = Exponent(Self::q().reduce(&uniform));
        uniform.zeroize();
        s
    }

    fn random_scalar<R: CryptoRng + ?Sized>(rng: &mut R) -> Exponent {
        let mut wide = Zeroizing::new(vec![0u8; Self::q_len() + 16]);
        loop {
            rng.fill_bytes(&mut wide);
            let s = Exponent(Self::q().reduce(&wide));
            // The decision reveals only whether a discarded value was zero.
            if crate::secret_marks::public_bool(!Self::scalar_is_zero(&s)) {
                return s;
            }
        }
    }

    fn scalar_from_u64(v: u64) -> Exponent {
        let limbs = Self::residue_from_u64(v, Self::q());
        let mut bytes = vec![0u8; Self::q_len()];
        limbs_to_be_bytes(&limbs, &mut bytes);
        Exponent(Self::q().reduce(&bytes))
    }

    fn scalar_add(a: &Exponent, b: &Exponent) -> Exponent {
        Exponent(Self::q().add_mod(&a.0, &b.0))
    }

    fn scalar_sub(a: &Exponent, b: &Exponent) -> Exponent {
        Exponent(Self::q().sub_mod(&a.0, &b.0))
    }

    fn scalar_mul(a: &Exponent, b: &Exponent) -> Exponent {
        Exponent(Self::q().mul_mod(&a.0, &b.0))
    }

    /// `s^(q-2) mod q` (q is prime), constant time in `s`.
    fn scalar_invert(s: &Exponent) -> Exponent {
        let q = Self::q();
        let two = Self::residue_from_u64(2, q);
        let q_minus_2 = q.sub_mod(&vec![0u64; q.limbs()], &two); // -2 mod q = q - 2
        Exponent(Self::pow_one(q, &s.0, &q_minus_2))
    }

    fn scalar_is_zero(s: &Exponent) -> bool {
        s.0.iter().fold(0u64, |acc, &l| acc | l) == 0
    }

    fn mul(element: &Residue, s: &Exponent) -> Residue {
        Self::mul_batch(s, core::slice::from_ref(element))
            .pop()
            .expect("one result")
    }

    fn mul_base(s: &Exponent) -> Residue {
        Self::mul(&Self::generator(), s)
    }

    /// The limbs live on the heap: each residue is marked.
    fn declassify_elements(elements: &[Residue]) {
        elements
            .iter()
            .for_each(|r| crate::secret_marks::declassify(r.0.as_slice()));
    }

    /// The limbs live on the heap: each exponent is marked.
    fn declassify_scalars(scalars: &[Exponent]) {
        scalars
            .iter()
            .for_each(|s| crate::secret_marks::declassify(s.0.as_slice()));
    }

    /// One batch exponentiation with the same exponent in every lane.
    fn mul_batch(s: &Exponent, elements: &[Residue]) -> Vec<Residue> {
        let bases: Vec<&Residue> = elements.iter().collect();
        let exponents = vec![Self::secret_exponent(s); elements.len()];
        Self::pow_batch(&bases, &exponents, Self::secret_exponent_bits())
    }

    /// One batch exponentiation with an exponent per lane.
    fn mul_each(scalars: &[Exponent], elements: &[Residue]) -> Vec<Residue> {
        let bases: Vec<&Residue> = elements.iter().take(scalars.len()).collect();
        let exponents: Vec<&[u64]> = scalars
            .iter()
            .take(bases.len())
            .map(Self::secret_exponent)
            .collect();
        Self::pow_batch(&bases, &exponents, Self::secret_exponent_bits())
    }

    /// `Π X_i^(s_i)`: one batch exponentiation with per-lane exponents, then
    /// the product.
    fn msm_vartime(scalars: &[Exponent], elements: &[Residue]) -> Residue {
        Self::mul_each(scalars, elements)
            .iter()
            .fold(Self::identity(), |acc, x| Self::add(&acc, x))
    }

    /// Every product of every column in one batch exponentiation (full
    /// SIMD lanes, unlike one small product per row), then the row sums.
    fn weighted_sums_vartime(weights: &[Exponent], columns: &[&[Residue]]) -> Vec<Residue> {
        let rows = columns.first().map_or(0, |c| c.len());
        let scalars: Vec<Exponent> = weights
            .iter()
            .flat_map(|w| core::iter::repeat_n(w.clone(), rows))
            .collect();
        let elements: Vec<Residue> = columns.iter().flat_map(|c| c.iter()).cloned().collect();
        let products = Self::mul_each(&scalars, &elements);
        (0..rows)
            .map(|i| {
                (0..columns.len()).fold(Self::identity(), |acc, j| {
                    Self::add(&acc, &products[j * rows + i])
                })
            })
            .collect()
    }

    /// The short power product of the batch's elements (one batch
    /// exponentiation with `bits`-bit exponents, then the product).
    fn msm_short_ct(scalars: &[ShortScalar], elements: &[Residue], bits: usize) -> Residue {
        Self::short_power_product(scalars, elements, bits)
    }

    /// The constant-time method (one batch exponentiation): the batch engine
    /// is the fastest way here either way.
    fn msm_short_vartime(scalars: &[ShortScalar], elements: &[Residue], bits: usize) -> Residue {
        Self::short_power_product(scalars, elements, bits)
    }

    fn encode(element: &Residue, out: &mut [u8]) {
        limbs_to_be_bytes(&element.0, out);
    }

    fn decode(bytes: &[u8]) -> Result<Residue, Error> {
        if bytes.len() != P::P_LEN {
            return Err(Error::InvalidElement);
        }
        let p = Self::p();
        let mut x = vec![0u64; p.limbs().max(limbs_for_bytes(bytes.len()))];
        be_bytes_to_limbs(bytes, &mut x);
        // 1 < x < p
        if bit_length_vartime(&x) <= 1 || !less_than(&x, p.modulus()) {
            return Err(Error::InvalidElement);
        }
        if jacobi_vartime(&x, p.modulus()) != 1 {
            return Err(Error::InvalidElement);
        }
        Ok(Residue(x))
    }

    fn encode_scalar(s: &Exponent, out: &mut [u8]) {
        limbs_to_be_bytes(&s.0, out);
    }

    /// `len(q)` bytes big-endian; the flag says whether the value is `< q`
    /// (zero passes: the trait's callers refuse it where they must).
    fn scalar_from_bytes(bytes: &[u8]) -> (Exponent, bool) {
        let q = Self::q();
        debug_assert_eq!(bytes.len(), Self::q_len());
        let mut s = Zeroizing::new(vec![0u64; q.limbs()]);
        be_bytes_to_limbs(bytes, &mut s);
        // The range check compares a secret with public q: done on a
        // borrow, without an early exit.
        let mut diff = Zeroizing::new(vec![0u64; q.limbs()]);
        let borrow = {
            let mut borrow = 0u64;
            for ((d, &x), &y) in diff.iter_mut().zip(s.iter()).zip(q.modulus()) {
                let (d1, b1) = x.overflowing_sub(y);
                let (d2, b2) = d1.overflowing_sub(borrow);
                *d = d2;
                borrow = u64::from(b1 | b2);
            }
            borrow
        };
        let canonical = borrow != 0;
        // Zero when not canonical, without a branch.
        let keep = Choice::from(u8::from(canonical));
        let limbs = s.iter().map(|l| u64::conditional_select(&0, l, keep));
        (Exponent(limbs.collect()), canonical)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jacobi_small() {
        // (a / 7): residues 1, 2, 4 are +1; 3, 5, 6 are -1.
        let expected = [0, 1, 1, -1, 1, -1, -1];
        for (a, &j) in expected.iter().enumerate() {
            assert_eq!(jacobi_vartime(&[a as u64, 0], &[7, 0]), j, "({a}/7)");
        }
        // (2 / 15) = (2/3)(2/5) = (-1)(-1) = 1
        assert_eq!(jacobi_vartime(&[2], &[15]), 1);
    }

    #[test]
    fn generator_has_order_q() {
        let q = Ffdhe2048::q();
        let mut q_bytes = vec![0u8; Ffdhe2048::q_len()];
        limbs_to_be_bytes(q.modulus(), &mut q_bytes);
        let mut two = vec![0u8; 256];
        two[255] = 2;
        let out = Ffdhe2048::p()
            .mod_exp_batch(&two, 256, &q_bytes, q_bytes.len())
            .unwrap();
        assert_eq!(out[255], 1);
        assert!(out[..255].iter().all(|&b| b == 0));
        assert!(Ffdhe2048::decode(&two).is_ok(), "2 is a quadratic residue");
    }
}
