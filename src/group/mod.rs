//! Prime-order groups behind one trait, so every protocol is written once.
//!
//! Additive notation throughout (`k·X`); on the FFDHE groups that is `X^k mod
//! p`. Every element that comes from outside is decoded *with validation*
//! (canonical encoding, in the prime-order group, not the identity), and
//! every scalar that comes from outside is checked to be in `[1, q)`.
//! Secret scalars (keys, blinds) only ever meet constant-time code; the
//! `_vartime` functions are for public data.

#[doc(hidden)]
pub mod batch;
pub mod bls12_381;
pub mod ffdhe;
mod ffdhe_params;
#[cfg(fuzzing)]
pub mod fuzzing;
pub(crate) mod lanes;
mod msm;
pub(crate) mod offset;
pub mod p256;
pub mod ristretto255;
mod straus;
pub(crate) mod xmd;

use rand_core::CryptoRng;
use subtle::Choice;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use self::lanes::LaneEngine;
use crate::Error;

pub use self::bls12_381::Bls12381G1;
pub use self::ffdhe::{Ffdhe2048, Ffdhe3072, Ffdhe4096};
pub use self::p256::P256;
pub use self::ristretto255::Ristretto255;
pub use self::straus::ShortScalar;

mod sealed {
    /// Seals [`super::PrimeOrderGroup`]: only this crate's groups implement
    /// it, so adding a method to it breaks nobody.
    pub trait Sealed {}
}

/// A group of prime order `q` with a fixed generator `B`, together with the
/// hash of its RFC 9497-style ciphersuite. Sealed: implemented by this
/// crate's groups only ([`Ristretto255`], [`P256`], [`Bls12381G1`], the
/// FFDHE groups).
pub trait PrimeOrderGroup: sealed::Sealed + 'static + Sized + Send + Sync {
    /// A group element. Equality is constant time; elements that hold a
    /// secret (a hashed private input, an unblinded output, a plaintext)
    /// are wiped with `zeroize` where they are dropped.
    type Element: Clone + PartialEq + Send + Sync + core::fmt::Debug + Zeroize;
    /// An integer modulo `q`. Keys, blinds and nonces are scalars, so it is
    /// wiped on drop and is neither `Copy` nor `Debug`.
    type Scalar: Clone + Send + Sync + Zeroize + ZeroizeOnDrop;
    /// The group's 8-lane engine, or `NoLanes`: what `group::batch` runs
    /// where the CPU allows. Not part of the public API.
    #[doc(hidden)]
    type Lanes: LaneEngine<Element = Self::Element, Scalar = Self::Scalar>;

    /// The ciphersuite identifier (RFC 9497 §4, or this library's own).
    const SUITE_ID: &'static str;
    /// Bytes of an encoded element.
    const ELEMENT_LEN: usize;
    /// Bytes of an encoded scalar.
    const SCALAR_LEN: usize;
    /// Bytes of the suite's hash output.
    const HASH_LEN: usize;

    /// The suite's hash (SHA-256 or SHA-512) of the concatenated `parts`.
    fn hash(parts: &[&[u8]]) -> Vec<u8>;

    /// [`Self::hash`] of each message (given as its parts), wiped on drop:
    /// the messages may hold private inputs (a client's `Finalize`).
    /// ristretto255 hashes 8 at a time when its IFMA engine runs.
    fn hash_each(messages: &[Vec<&[u8]>]) -> Vec<Zeroizing<Vec<u8>>> {
        hash_one_by_one::<Self>(messages)
    }

    /// The generator `B`.
    fn generator() -> Self::Element;
    /// The identity element.
    fn identity() -> Self::Element;
    /// Whether `element` is the identity, computed in constant time (the
    /// element may be secret, e.g. a hashed private input; the answer is
    /// returned).
    fn is_identity(element: &Self::Element) -> bool;
    /// `a + b`.
    fn add(a: &Self::Element, b: &Self::Element) -> Self::Element;
    /// `-a`.
    fn neg(a: &Self::Element) -> Self::Element;
    /// `if_true` if `choice` is set, else `if_false`, in constant time.
    fn ct_select(
        choice: Choice,
        if_true: &Self::Element,
        if_false: &Self::Element,
    ) -> Self::Element;

    /// Hash to the group (RFC 9380 for the curves) with domain separation
    /// tag `dst`; `msg` is the concatenation of the parts.
    fn hash_to_group(msg: &[&[u8]], dst: &[u8]) -> Self::Element;
    /// Hash to a scalar with domain separation tag `dst` (may be 0).
    fn hash_to_scalar(msg: &[&[u8]], dst: &[u8]) -> Self::Scalar;

    /// A uniformly random non-zero scalar.
    fn random_scalar<R: CryptoRng + ?Sized>(rng: &mut R) -> Self::Scalar;
    /// `count` uniformly random non-zero scalars, as [`Self::random_scalar`]
    /// draws them one after the other (the same scalars from the same
    /// random bytes); a group may draw all the bytes in one call
    /// (ristretto255: one call of `64·count` bytes instead of one system
    /// call per scalar from the OS generator).
    fn random_scalars<R: CryptoRng + ?Sized>(count: usize, rng: &mut R) -> Vec<Self::Scalar> {
        (0..count).map(|_| Self::random_scalar(rng)).collect()
    }
    /// The scalar `v mod q`.
    fn scalar_from_u64(v: u64) -> Self::Scalar;
    /// `a + b mod q` (constant time).
    fn scalar_add(a: &Self::Scalar, b: &Self::Scalar) -> Self::Scalar;
    /// `a - b mod q` (constant time).
    fn scalar_sub(a: &Self::Scalar, b: &Self::Scalar) -> Self::Scalar;
    /// `a · b mod q` (constant time).
    fn scalar_mul(a: &Self::Scalar, b: &Self::Scalar) -> Self::Scalar;
    /// `s^{-1} mod q` for `s != 0` (constant time).
    fn scalar_invert(s: &Self::Scalar) -> Self::Scalar;
    /// Whether `s` is zero (constant time in `s`; the answer is returned).
    fn scalar_is_zero(s: &Self::Scalar) -> bool;

    /// Inverts every scalar in place with one inversion (Montgomery's
    /// trick); constant time, all scalars non-zero.
    fn batch_invert(scalars: &mut [Self::Scalar]) {
        if scalars.is_empty() {
            return;
        }
        // prefix[i] = s_0 · … · s_i
        let mut prefix: Vec<Self::Scalar> = Vec::with_capacity(scalars.len());
        let mut running = scalars[0].clone();
        prefix.push(running.clone());
        for s in &scalars[1..] {
            running = Self::scalar_mul(&running, s);
            prefix.push(running.clone());
        }
        let mut inverse = Self::scalar_invert(&running);
        for i in (1..scalars.len()).rev() {
            let inv_i = Self::scalar_mul(&inverse, &prefix[i - 1]);
            inverse = Self::scalar_mul(&inverse, &scalars[i]);
            scalars[i] = inv_i;
        }
        scalars[0] = inverse;
        running.zeroize();
        prefix.iter_mut().for_each(Zeroize::zeroize);
    }

    /// `s·X`, constant time in `s` and `X`.
    fn mul(element: &Self::Element, s: &Self::Scalar) -> Self::Element;
    /// `s·B`, constant time in `s`.
    fn mul_base(s: &Self::Scalar) -> Self::Element;
    /// `s·X_i` for every `i`: the server's hot path (one secret scalar, many
    /// elements), constant time in `s`.
    fn mul_batch(s: &Self::Scalar, elements: &[Self::Element]) -> Vec<Self::Element> {
        elements.iter().map(|e| Self::mul(e, s)).collect()
    }
    /// `s·X_i` for every `i`, encoded into `out` (`ELEMENT_LEN` bytes each):
    /// the server's answer, public from here (a group may fuse the
    /// multiplication with a batch encoding).
    fn mul_batch_encode(s: &Self::Scalar, elements: &[Self::Element], out: &mut [u8]) {
        let products = Self::mul_batch(s, elements);
        Self::declassify_elements(&products);
        Self::encode_batch(&products, out);
    }
    /// Marks elements computed from secrets as public from here on, for the
    /// constant-time analysis under valgrind (nothing happens on a real
    /// CPU): only for values the design publishes. Not part of the public
    /// API: it may change without notice.
    #[doc(hidden)]
    fn declassify_elements(elements: &[Self::Element]) {
        crate::secret_marks::declassify(elements);
    }
    /// As [`Self::declassify_elements`], for scalars (spent coins). Not
    /// part of the public API.
    #[doc(hidden)]
    fn declassify_scalars(scalars: &[Self::Scalar]) {
        crate::secret_marks::declassify(scalars);
    }
    /// `s_i·X_i` for every `i` (a scalar per element), constant time in the
    /// scalars; a group may batch the work (FFDHE: one batch
    /// exponentiation with an exponent per lane).
    /// The group's engine where it runs and takes the elements, but for
    /// its tail ([`LaneEngine::portable_tail`]): one product on P-256's
    /// AVX2 engine would cost a vector of 8.
    fn mul_each(scalars: &[Self::Scalar], elements: &[Self::Element]) -> Vec<Self::Element> {
        // Sized once: the products may be secret (an unblinding's), and a
        // vector that grew would free copies of them unwiped.
        let mut products = Vec::with_capacity(elements.len());
        if let Some(cpu) = Self::Lanes::runs().filter(|_| scalars.len() == elements.len()) {
            let head = elements.len() - Self::Lanes::portable_tail(cpu, elements.len());
            let engine = (head > 0)
                .then(|| Self::Lanes::mul_each_element(cpu, &scalars[..head], &elements[..head]))
                .flatten()
                .map(Zeroizing::new);
            if let Some(engine) = engine {
                products.extend_from_slice(&engine);
            }
        }
        let done = products.len();
        products.extend(
            scalars[done..]
                .iter()
                .zip(&elements[done..])
                .map(|(s, e)| Self::mul(e, s)),
        );
        products
    }
    /// [`Self::mul_each`], the products also encoded into `out`
    /// (`ELEMENT_LEN` bytes each): the client's blinding and unblinding,
    /// and the proof's three products.
    fn mul_each_encode(
        scalars: &[Self::Scalar],
        elements: &[Self::Element],
        out: &mut [u8],
    ) -> Vec<Self::Element> {
        let products = Self::mul_each(scalars, elements);
        Self::encode_batch(&products, out);
        products
    }
    /// `Σ s_i·X_i`, variable time: for public scalars and elements only.
    fn msm_vartime(scalars: &[Self::Scalar], elements: &[Self::Element]) -> Self::Element;
    /// `Σ_j w_j·columns[j][i]` for every row `i` (all columns have the same
    /// length): the Lagrange combination of t servers' answers. Variable
    /// time: public weights and elements only. By default one small
    /// multi-scalar multiplication per row.
    fn weighted_sums_vartime(
        weights: &[Self::Scalar],
        columns: &[&[Self::Element]],
    ) -> Vec<Self::Element> {
        let rows = columns.first().map_or(0, |c| c.len());
        (0..rows)
            .map(|i| {
                let row: Vec<Self::Element> = columns.iter().map(|c| c[i].clone()).collect();
                Self::msm_vartime(weights, &row)
            })
            .collect()
    }
    /// `Σ d_i·X_i` for short *secret* scalars `d_i < 2^bits`, constant time
    /// in the `d_i` (the balancer of the batch check; `bits` is public),
    /// one element at a time: `group::batch` runs the group's engine
    /// instead where it can. Not part of the public API.
    #[doc(hidden)]
    fn msm_short_ct(
        scalars: &[ShortScalar],
        elements: &[Self::Element],
        bits: usize,
    ) -> Self::Element {
        straus::short_msm_ct::<straus::Elements<Self>>(scalars, elements, bits)
    }
    /// `Σ d_i·X_i` for short scalars `d_i < 2^bits`, variable time (the
    /// client's check, after which the `d_i` are discarded). A group may
    /// process only `bits` bits per scalar. By default the full-width
    /// variable-time multi-scalar multiplication (for ristretto255, dalek's
    /// Pippenger: its vectorized additions beat a short-scalar method over
    /// the serial additions this crate can reach, 1.9 µs against about
    /// 5 µs per point at 64 bits and n = 1024, measured here).
    fn msm_short_vartime(
        scalars: &[ShortScalar],
        elements: &[Self::Element],
        bits: usize,
    ) -> Self::Element {
        let _ = bits;
        let mut full: Vec<Self::Scalar> =
            scalars.iter().map(ShortScalar::to_scalar::<Self>).collect();
        let sum = Self::msm_vartime(&full, elements);
        full.iter_mut().for_each(Zeroize::zeroize);
        sum
    }

    /// The canonical encoding of `element` into `out` (`ELEMENT_LEN` bytes).
    fn encode(element: &Self::Element, out: &mut [u8]);
    /// Encodes every element, `ELEMENT_LEN` bytes each (a group may share
    /// work across the batch, e.g. one field inversion).
    fn encode_batch(elements: &[Self::Element], out: &mut [u8]) {
        for (element, slot) in elements.iter().zip(out.chunks_exact_mut(Self::ELEMENT_LEN)) {
            Self::encode(element, slot);
        }
    }
    /// Decodes and validates one element: canonical, in the prime-order
    /// group, not the identity ([`Error::InvalidElement`] otherwise).
    fn decode(bytes: &[u8]) -> Result<Self::Element, Error>;
    /// Decodes a concatenation of encodings ([`Error::BadLength`] unless
    /// the length is a non-zero multiple of `ELEMENT_LEN`).
    fn decode_batch(bytes: &[u8]) -> Result<Vec<Self::Element>, Error> {
        if bytes.is_empty() || !bytes.len().is_multiple_of(Self::ELEMENT_LEN) {
            return Err(Error::BadLength);
        }
        bytes
            .chunks_exact(Self::ELEMENT_LEN)
            .map(Self::decode)
            .collect()
    }

    /// The canonical encoding of a scalar into `out` (`SCALAR_LEN` bytes).
    fn encode_scalar(s: &Self::Scalar, out: &mut [u8]);
    /// The scalar of `SCALAR_LEN` encoded bytes and whether the encoding is
    /// canonical (`< q`; zero is canonical), computed without branching on
    /// the bytes, which may be secret (zero when not canonical).
    fn scalar_from_bytes(bytes: &[u8]) -> (Self::Scalar, bool);
    /// Decodes a scalar, rejecting non-canonical values (`>= q`) and zero
    /// ([`Error::InvalidScalar`]): keys, shares. Only the verdict is public.
    fn decode_scalar(bytes: &[u8]) -> Result<Self::Scalar, Error> {
        if bytes.len() != Self::SCALAR_LEN {
            return Err(Error::InvalidScalar);
        }
        let (s, canonical) = Self::scalar_from_bytes(bytes);
        if !crate::secret_marks::public_bool(canonical & !Self::scalar_is_zero(&s)) {
            return Err(Error::InvalidScalar);
        }
        Ok(s)
    }
    /// Decodes a scalar that may be zero, rejecting non-canonical values
    /// ([`Error::InvalidScalar`]): RFC 9497's `DeserializeScalar`, for the
    /// public scalars of a proof.
    fn decode_scalar_or_zero(bytes: &[u8]) -> Result<Self::Scalar, Error> {
        if bytes.len() != Self::SCALAR_LEN {
            return Err(Error::InvalidScalar);
        }
        let (s, canonical) = Self::scalar_from_bytes(bytes);
        if !crate::secret_marks::public_bool(canonical) {
            return Err(Error::InvalidScalar);
        }
        Ok(s)
    }
}

/// The encoding of one element as a vector.
pub fn encode_to_vec<G: PrimeOrderGroup>(element: &G::Element) -> Vec<u8> {
    let mut out = vec![0u8; G::ELEMENT_LEN];
    G::encode(element, &mut out);
    out
}

/// The encoding of one scalar as a vector (wipe it if the scalar is secret).
pub fn encode_scalar_to_vec<G: PrimeOrderGroup>(s: &G::Scalar) -> Vec<u8> {
    let mut out = vec![0u8; G::SCALAR_LEN];
    G::encode_scalar(s, &mut out);
    out
}

/// [`PrimeOrderGroup::hash`] of each message, one at a time, wiped on drop:
/// the default of [`PrimeOrderGroup::hash_each`], and a group's fallback.
fn hash_one_by_one<G: PrimeOrderGroup>(messages: &[Vec<&[u8]>]) -> Vec<Zeroizing<Vec<u8>>> {
    messages
        .iter()
        .map(|parts| Zeroizing::new(G::hash(parts)))
        .collect()
}
