//! What an 8-lane engine provides, and the engine of a group that has
//! none. The generic code that chooses between a group's engine and its
//! one-at-a-time methods (`group::batch`) is written once against this
//! trait; a group names its engine in `PrimeOrderGroup::Lanes`.

use core::convert::Infallible;
use core::marker::PhantomData;

use zeroize::Zeroizing;

use super::cpu::LaneCpu;
use crate::Error;

/// Whether a multi-scalar multiplication's inputs are secret
/// ([`LaneEngine::msm`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Constant time in the scalars: the balancer's secret factors.
    Constant,
    /// Public points and scalars: a proof's composites.
    Variable,
    /// Public points and scalars of an answer the client unblinds next
    /// (its check, once its coins are spent): as [`Timing::Variable`], and
    /// the engine may keep in the batch's decoded points what the
    /// unblinding reads.
    VariableThenUnblind,
}

/// A group's 8-lane engine: its operations on whole batches, each from the
/// batch's encodings and, where a check kept them, the engine's own decoded
/// points (`Decoded`). Every operation may decline (`false` or `None`): the
/// caller then takes the group's one-at-a-time path, which gives the same
/// result. Constant time in every secret, as the one-at-a-time path is.
/// Sealed in effect: the trait lives in a private module.
pub trait LaneEngine {
    /// The group's element.
    type Element;
    /// The group's scalar.
    type Scalar;
    /// A batch decoded by the engine, 8 points per vector, kept beside the
    /// batch's encodings for the operations that follow.
    type Decoded: Send + Sync;

    /// A proof that the engine may run now (see [`LaneCpu`]), or `None`.
    fn runs() -> Option<LaneCpu>;

    /// The tail policy: how many trailing elements of a batch of `count`
    /// a check, a server's evaluation and a client's unblinding leave to
    /// the one-at-a-time path on the lane set `cpu` runs (where a vector
    /// of 8 lanes costs more than those elements one at a time; a short
    /// multi-scalar multiplication then adds the tail a check decoded one
    /// at a time too). Depends only on the set and `count`.
    fn portable_tail(cpu: LaneCpu, count: usize) -> usize;

    /// The points of the concatenated encodings `encoded` if every one is
    /// valid and not the identity (as the group's `decode` requires), else
    /// `None`. Accepts exactly the encodings the group's `decode` accepts.
    fn decode(cpu: LaneCpu, encoded: &[u8]) -> Option<Self::Decoded>;

    /// `k·X_i` encoded into `out` (as long as `encoded`) for the elements
    /// of `encoded`, the points those of `decoded` where it holds them:
    /// the server's evaluation, constant time in the key. `false` if the
    /// engine declines.
    fn mul_by_key(
        cpu: LaneCpu,
        key: &Self::Scalar,
        encoded: &[u8],
        decoded: Option<&Self::Decoded>,
        out: &mut [u8],
    ) -> bool;

    /// As [`LaneEngine::mul_by_key`], each element with its own secret
    /// scalar: a client's unblinding.
    fn mul_each(
        cpu: LaneCpu,
        scalars: &[Self::Scalar],
        encoded: &[u8],
        decoded: Option<&Self::Decoded>,
        out: &mut [u8],
    ) -> bool;

    /// Bits of a scalar (below the group order).
    const SCALAR_BITS: usize;

    /// The little-endian bytes of a scalar, as [`LaneEngine::msm`] reads
    /// them (wiped on drop: the scalar may be secret).
    fn scalar_bytes(s: &Self::Scalar) -> Zeroizing<[u8; 32]>;

    /// `Σ d_i·X_i` for the elements of `encoded` (the points those of
    /// `decoded` where it holds them) and scalars `d_i < 2^bits` given as
    /// little-endian bytes, constant time in the `d_i` (the balancer's
    /// short factors). With the other [`Timing`]s the points and scalars
    /// are public (a client's check of an answer once its coins are spent,
    /// a proof's composites): an engine may then compute in variable time,
    /// and for [`Timing::VariableThenUnblind`] keep in `decoded` what the
    /// unblinding reads. `None` if the engine declines.
    fn msm(
        cpu: LaneCpu,
        timing: Timing,
        scalars: &[&[u8]],
        encoded: &[u8],
        decoded: Option<&Self::Decoded>,
        bits: usize,
    ) -> Option<Self::Element>;

    /// `r_i·H(x_i)` encoded into `out` for every input `x_i` and secret
    /// blind `r_i`, `H` the group's hash to the group under `dst`: a
    /// client's blinding, constant time in the inputs and blinds. The
    /// blinded points are kept (they are public); [`Error::InvalidInput`]
    /// if an input hashes to the identity. `None` if the engine declines.
    fn hash_and_blind(
        cpu: LaneCpu,
        inputs: &[&[u8]],
        dst: &[u8],
        blinds: &[Self::Scalar],
        out: &mut [u8],
    ) -> Option<Result<Self::Decoded, Error>>;

    /// The tables of one fixed public point (the generator, a server's
    /// public key) for products by it without doublings: the
    /// committed-key client's additive blinding
    /// ([`LaneEngine::hash_and_offset`], [`LaneEngine::offset_each`]).
    type FixedBase: Send + Sync + 'static;

    /// The tables of `base` (public, not the identity), or `None` where
    /// the engine has no fixed-base products, as by default: the client
    /// then blinds by multiplication, which costs less than additive
    /// blinding without them.
    fn fixed_base(_cpu: LaneCpu, _base: &Self::Element) -> Option<Self::FixedBase> {
        None
    }

    /// `H(x_i) + r_i·P` encoded into `out` for every input `x_i` and
    /// secret `r_i`, `H` the group's hash to the group under `dst` and `P`
    /// the point of `base` (the generator): the committed-key client's
    /// additive blinding, constant time in the inputs and the `r_i`. The
    /// blinded points are kept (they are public); [`Error::InvalidInput`]
    /// if an input hashes to the identity, `Ok(None)` if a blinded
    /// element is the identity (probability about one in the group's
    /// order per element: the caller draws new `r_i`). `None` if the
    /// engine declines, as it does by default.
    fn hash_and_offset(
        _cpu: LaneCpu,
        _inputs: &[&[u8]],
        _dst: &[u8],
        _base: &Self::FixedBase,
        _scalars: &[Self::Scalar],
        _out: &mut [u8],
    ) -> Option<Result<Option<Self::Decoded>, Error>> {
        None
    }

    /// `Y_i + s_i·P` encoded into `out` (as long as `encoded`) for the
    /// elements `Y_i` of `encoded` (the points those of `decoded` where it
    /// holds them), secret scalars `s_i` and `P` the point of `base` (the
    /// server's public key): the committed-key client's unblinding, with
    /// `s_i = −r_i`, constant time in the scalars and elements. `false` if
    /// the engine declines, as it does by default.
    fn offset_each(
        _cpu: LaneCpu,
        _base: &Self::FixedBase,
        _scalars: &[Self::Scalar],
        _encoded: &[u8],
        _decoded: Option<&Self::Decoded>,
        _out: &mut [u8],
    ) -> bool {
        false
    }

    /// The group's elements for the first `count` points of `decoded` (a
    /// batch the engine's check decoded), where handing them over costs
    /// less than decoding the encodings again. `None` if the engine
    /// declines, as it does by default.
    fn elements_of(
        _cpu: LaneCpu,
        _decoded: &Self::Decoded,
        _count: usize,
    ) -> Option<Vec<Self::Element>> {
        None
    }

    /// `s_i·X_i` for elements the group already holds in its own form,
    /// constant time in the scalars and elements. `None` if the engine
    /// declines, as it does where converting the group's form costs more
    /// than it saves.
    fn mul_each_element(
        cpu: LaneCpu,
        scalars: &[Self::Scalar],
        elements: &[Self::Element],
    ) -> Option<Vec<Self::Element>>;
}

/// The engine of a group that has none (or of any group on a CPU without
/// AVX-512): it never runs, so its operations are never called; each
/// declines, as [`LaneEngine`] allows.
pub struct NoLanes<Element, Scalar>(PhantomData<fn() -> (Element, Scalar)>);

impl<Element, Scalar> LaneEngine for NoLanes<Element, Scalar> {
    type Element = Element;
    type Scalar = Scalar;
    type Decoded = Infallible;
    type FixedBase = Infallible;

    fn runs() -> Option<LaneCpu> {
        None
    }

    fn portable_tail(_cpu: LaneCpu, count: usize) -> usize {
        count
    }

    fn decode(_: LaneCpu, _: &[u8]) -> Option<Infallible> {
        None
    }

    fn mul_by_key(_: LaneCpu, _: &Scalar, _: &[u8], _: Option<&Infallible>, _: &mut [u8]) -> bool {
        false
    }

    fn mul_each(_: LaneCpu, _: &[Scalar], _: &[u8], _: Option<&Infallible>, _: &mut [u8]) -> bool {
        false
    }

    const SCALAR_BITS: usize = 0;

    fn scalar_bytes(_: &Scalar) -> Zeroizing<[u8; 32]> {
        Zeroizing::new([0; 32])
    }

    fn msm(
        _: LaneCpu,
        _: Timing,
        _: &[&[u8]],
        _: &[u8],
        _: Option<&Infallible>,
        _: usize,
    ) -> Option<Element> {
        None
    }

    fn hash_and_blind(
        _: LaneCpu,
        _: &[&[u8]],
        _: &[u8],
        _: &[Scalar],
        _: &mut [u8],
    ) -> Option<Result<Infallible, Error>> {
        None
    }

    fn mul_each_element(_: LaneCpu, _: &[Scalar], _: &[Element]) -> Option<Vec<Element>> {
        None
    }
}
