//! The batch operations of the protocols, each written once for every
//! group: the group's 8-lane engine ([`PrimeOrderGroup::Lanes`]) where it
//! runs, else the group's one-at-a-time methods, which give the same
//! result. One dispatch per operation, here and nowhere else.
//!
//! A batch received (a request a server evaluates, an answer a client
//! unblinds and checks) travels with its encodings and whichever decoded
//! forms exist: the elements, or the points the engine's check kept
//! ([`LaneBatch`]). Not part of the public API: the fuzz targets and tests
//! reach it, nothing else outside the crate should.

use std::borrow::Cow;

use zeroize::Zeroizing;

use super::lanes::{LaneCpu, LaneEngine, Timing};
use super::straus::ShortScalar;
use super::PrimeOrderGroup;
use crate::Error;

/// The engine of group `G`.
type Lanes<G> = <G as PrimeOrderGroup>::Lanes;

/// What the engine's check keeps of a batch: the points of its head,
/// decoded by the engine, and the elements of its tail (the engine's
/// `portable_tail`), decoded one at a time.
pub struct LaneBatch<G: PrimeOrderGroup> {
    /// The head's points, as the engine decoded (or computed) them.
    vectors: <Lanes<G> as LaneEngine>::Decoded,
    /// The tail's elements.
    tail: Vec<G::Element>,
}

impl<G: PrimeOrderGroup> LaneBatch<G> {
    /// The points of a batch the engine computed whole (a client's
    /// blinded elements): no tail.
    pub(super) fn of_head(vectors: <Lanes<G> as LaneEngine>::Decoded) -> Self {
        LaneBatch {
            vectors,
            tail: Vec::new(),
        }
    }
}

/// What [`check`] keeps of a batch it validated, and [`hash_and_blind`] of
/// a batch it computed.
pub enum CheckedBatch<G: PrimeOrderGroup> {
    /// The decoded elements.
    Elements(Vec<G::Element>),
    /// The engine's points.
    Lanes(LaneBatch<G>),
}

/// A validated batch received: its concatenated encodings, the elements if
/// they are decoded, and the engine's points if a check kept them.
pub struct ReceivedBatch<'a, G: PrimeOrderGroup> {
    /// The encodings, concatenated.
    pub encoded: &'a [u8],
    /// The elements, when decoded.
    pub elements: Option<&'a [G::Element]>,
    /// The engine's points, when kept.
    pub lanes: Option<&'a LaneBatch<G>>,
}

impl<G: PrimeOrderGroup> Clone for ReceivedBatch<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: PrimeOrderGroup> Copy for ReceivedBatch<'_, G> {}

impl<'a, G: PrimeOrderGroup> ReceivedBatch<'a, G> {
    /// A batch of encodings and, where given, their elements.
    pub fn new(encoded: &'a [u8], elements: Option<&'a [G::Element]>) -> Self {
        ReceivedBatch {
            encoded,
            elements,
            lanes: None,
        }
    }

    /// A batch as [`check`] or [`hash_and_blind`] left it, with its
    /// encodings.
    pub fn of_checked(encoded: &'a [u8], checked: &'a CheckedBatch<G>) -> Self {
        match checked {
            CheckedBatch::Elements(elements) => ReceivedBatch::new(encoded, Some(elements)),
            CheckedBatch::Lanes(lanes) => ReceivedBatch {
                encoded,
                elements: None,
                lanes: Some(lanes),
            },
        }
    }

    pub(super) fn count(&self) -> usize {
        self.encoded.len() / G::ELEMENT_LEN
    }

    /// The engine's points, if kept.
    pub(super) fn vectors(&self) -> Option<&'a <Lanes<G> as LaneEngine>::Decoded> {
        self.lanes.map(|lanes| &lanes.vectors)
    }

    /// The elements: decoded already, handed over by the engine from the
    /// points its check kept, or decoded here from the (validated)
    /// encodings.
    pub(crate) fn elements(&self) -> Cow<'a, [G::Element]> {
        if let Some(elements) = self.elements {
            return Cow::Borrowed(elements);
        }
        let handed_over = self.lanes.and_then(|lanes| {
            let head = self.count() - lanes.tail.len();
            let mut elements = Lanes::<G>::elements_of(Lanes::<G>::runs()?, &lanes.vectors, head)?;
            elements.extend_from_slice(&lanes.tail);
            Some(elements)
        });
        Cow::Owned(
            handed_over.unwrap_or_else(|| {
                G::decode_batch(self.encoded).expect("validated encodings decode")
            }),
        )
    }

    /// The last `tail` elements as a batch of their own, with the elements
    /// where they are decoded (by the check, or by whoever built the
    /// batch).
    pub(super) fn tail(&self, tail: usize) -> ReceivedBatch<'a, G> {
        let count = self.count();
        let elements = self
            .lanes
            .map(|lanes| lanes.tail.as_slice())
            .filter(|elements| elements.len() == tail)
            .or(self.elements.map(|e| &e[count - tail..]));
        ReceivedBatch::new(&self.encoded[(count - tail) * G::ELEMENT_LEN..], elements)
    }
}

/// Validates a concatenation of encodings exactly as
/// [`PrimeOrderGroup::decode_batch`] does ([`Error::BadLength`] unless a
/// non-zero multiple of `ELEMENT_LEN`, [`Error::InvalidElement`] for an
/// invalid one), keeping the engine's points for the operations that
/// follow, else the elements.
pub fn check<G: PrimeOrderGroup>(bytes: &[u8]) -> Result<CheckedBatch<G>, Error> {
    if bytes.is_empty() || !bytes.len().is_multiple_of(G::ELEMENT_LEN) {
        return Err(Error::BadLength);
    }
    if let Some(cpu) = Lanes::<G>::runs() {
        let count = bytes.len() / G::ELEMENT_LEN;
        let split = (count - Lanes::<G>::portable_tail(cpu, count)) * G::ELEMENT_LEN;
        let (head, tail) = bytes.split_at(split);
        let vectors = Lanes::<G>::decode(cpu, head).ok_or(Error::InvalidElement)?;
        let tail = tail
            .chunks_exact(G::ELEMENT_LEN)
            .map(G::decode)
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(CheckedBatch::Lanes(LaneBatch { vectors, tail }));
    }
    G::decode_batch(bytes).map(CheckedBatch::Elements)
}

/// `k·X_i` for every element of a batch received, encoded into `out`
/// (`ELEMENT_LEN` bytes each): the server's evaluation, constant time in
/// the key. The engine takes the batch but its `portable_tail`.
pub fn mul_by_key<G: PrimeOrderGroup>(
    key: &G::Scalar,
    batch: ReceivedBatch<'_, G>,
    out: &mut [u8],
) {
    if let Some(cpu) = Lanes::<G>::runs() {
        let count = batch.count();
        let tail = Lanes::<G>::portable_tail(cpu, count);
        let (head_out, tail_out) = out.split_at_mut((count - tail) * G::ELEMENT_LEN);
        let head = &batch.encoded[..head_out.len()];
        if Lanes::<G>::mul_by_key(cpu, key, head, batch.vectors(), head_out) {
            // The evaluated elements are sent: public from here (as the
            // one-at-a-time path's `mul_batch_encode` declares them).
            crate::secret_marks::declassify(&*head_out);
            if tail > 0 {
                G::mul_batch_encode(key, &batch.tail(tail).elements(), tail_out);
            }
            return;
        }
    }
    G::mul_batch_encode(key, &batch.elements(), out)
}

/// `s_i·X_i` for every element of a batch received, encoded into `out`
/// (`ELEMENT_LEN` bytes each), constant time in the scalars: the client's
/// unblinding. The engine takes the batch but its `portable_tail` (a
/// checked request's answer has one element past the caller's, its
/// balancer's, which the check decoded one at a time). The products are
/// secret: nothing of them is kept.
pub fn mul_each<G: PrimeOrderGroup>(
    scalars: &[G::Scalar],
    batch: ReceivedBatch<'_, G>,
    out: &mut [u8],
) {
    per_element(
        Lanes::<G>::runs(),
        scalars,
        batch,
        out,
        |cpu, scalars, encoded, vectors, out| {
            Lanes::<G>::mul_each(cpu, scalars, encoded, vectors, out)
        },
        |scalars, elements, out| {
            // The products are secret: wiped.
            let _products = Zeroizing::new(G::mul_each_encode(scalars, elements, out));
        },
    );
}

/// An operation on each element of a batch received with its own scalar,
/// encoded into `out` (`ELEMENT_LEN` bytes each): `engine` on `cpu`
/// takes the batch but its `portable_tail`, whose elements the check
/// decoded one at a time and `one_at_a_time` takes; `one_at_a_time`
/// takes the whole batch where there is no engine or it declines. The
/// client's unblinding, in either blinding's form.
pub(super) fn per_element<G: PrimeOrderGroup>(
    cpu: Option<LaneCpu>,
    scalars: &[G::Scalar],
    batch: ReceivedBatch<'_, G>,
    out: &mut [u8],
    engine: impl FnOnce(
        LaneCpu,
        &[G::Scalar],
        &[u8],
        Option<&<Lanes<G> as LaneEngine>::Decoded>,
        &mut [u8],
    ) -> bool,
    one_at_a_time: impl Fn(&[G::Scalar], &[G::Element], &mut [u8]),
) {
    if let Some(cpu) = cpu.filter(|_| scalars.len() == batch.count()) {
        let count = batch.count();
        let tail = Lanes::<G>::portable_tail(cpu, count);
        let head = count - tail;
        let (head_out, tail_out) = out.split_at_mut(head * G::ELEMENT_LEN);
        let head_encoded = &batch.encoded[..head_out.len()];
        if head == 0
            || engine(
                cpu,
                &scalars[..head],
                head_encoded,
                batch.vectors(),
                head_out,
            )
        {
            if tail > 0 {
                one_at_a_time(&scalars[head..], &batch.tail(tail).elements(), tail_out);
            }
            return;
        }
    }
    one_at_a_time(scalars, &batch.elements(), out);
}

/// `Σ d_i·X_i` on the engine for scalars given as little-endian bytes, if
/// it takes the batch. Where the engine's check left a tail to
/// the one-at-a-time path (a checked request's answer: the balancer's
/// element past the caller's; on P-256's AVX2 engine a batch one past a
/// multiple of 8), the tail's elements, decoded already, are summed by
/// `tail_sum` (given the index of the tail's first scalar: the group's
/// one-at-a-time method of the same timing) and added, rather than decoded
/// again in a vector of their own.
fn engine_msm<G: PrimeOrderGroup>(
    cpu: LaneCpu,
    timing: Timing,
    scalars: &[&[u8]],
    batch: &ReceivedBatch<'_, G>,
    bits: usize,
    tail_sum: impl FnOnce(usize, &[G::Element]) -> G::Element,
) -> Option<G::Element> {
    let count = batch.count();
    if scalars.len() != count {
        return None;
    }
    let tail = batch.lanes.map_or(0, |lanes| lanes.tail.len());
    if tail == 0 {
        return Lanes::<G>::msm(cpu, timing, scalars, batch.encoded, batch.vectors(), bits);
    }
    let head = count - tail;
    let tail_elements = batch.tail(tail).elements();
    if head == 0 {
        return Some(tail_sum(0, &tail_elements));
    }
    let encoded = &batch.encoded[..head * G::ELEMENT_LEN];
    let sum = Lanes::<G>::msm(
        cpu,
        timing,
        &scalars[..head],
        encoded,
        batch.vectors(),
        bits,
    )?;
    Some(G::add(&sum, &tail_sum(head, &tail_elements)))
}

/// The little-endian bytes of short scalars, as the engine takes them.
fn short_bytes(scalars: &[ShortScalar]) -> Vec<&[u8]> {
    scalars.iter().map(|s| &s.as_le_bytes()[..]).collect()
}

/// `Σ d_i·X_i` for short *secret* scalars `d_i < 2^bits`, constant time in
/// the `d_i` (the balancer of the batch check; `bits` is public).
pub fn msm_short_ct<G: PrimeOrderGroup>(
    scalars: &[ShortScalar],
    batch: ReceivedBatch<'_, G>,
    bits: usize,
) -> G::Element {
    Lanes::<G>::runs()
        .and_then(|cpu| {
            engine_msm(
                cpu,
                Timing::Constant,
                &short_bytes(scalars),
                &batch,
                bits,
                |head, tail| G::msm_short_ct(&scalars[head..], tail, bits),
            )
        })
        .unwrap_or_else(|| G::msm_short_ct(scalars, &batch.elements(), bits))
}

/// `Σ d_i·X_i` for short scalars `d_i < 2^bits`, variable time: the
/// client's check of an answer (the engine's variable-time method where it
/// runs: the answer's points are then never decoded one at a time, and the
/// engine may keep what the unblinding reads next, its tables).
pub fn msm_short_vartime<G: PrimeOrderGroup>(
    scalars: &[ShortScalar],
    batch: ReceivedBatch<'_, G>,
    bits: usize,
) -> G::Element {
    Lanes::<G>::runs()
        .and_then(|cpu| {
            engine_msm(
                cpu,
                Timing::VariableThenUnblind,
                &short_bytes(scalars),
                &batch,
                bits,
                |head, tail| G::msm_short_vartime(&scalars[head..], tail, bits),
            )
        })
        .unwrap_or_else(|| G::msm_short_vartime(scalars, &batch.elements(), bits))
}

/// `Σ s_i·X_i` for public scalars, variable time: a VOPRF proof's
/// composites (the engine's variable-time method over every bit of the
/// scalars where it runs).
pub fn msm_vartime<G: PrimeOrderGroup>(
    scalars: &[G::Scalar],
    batch: ReceivedBatch<'_, G>,
) -> G::Element {
    // The engine's scalar encodings only where it runs.
    Lanes::<G>::runs()
        .and_then(|cpu| {
            let bytes: Vec<Zeroizing<[u8; 32]>> =
                scalars.iter().map(Lanes::<G>::scalar_bytes).collect();
            let refs: Vec<&[u8]> = bytes.iter().map(|b| &b[..]).collect();
            engine_msm(
                cpu,
                Timing::Variable,
                &refs,
                &batch,
                Lanes::<G>::SCALAR_BITS,
                |head, tail| G::msm_vartime(&scalars[head..], tail),
            )
        })
        .unwrap_or_else(|| G::msm_vartime(scalars, &batch.elements()))
}

/// `r_i·H(x_i)` for every input `x_i` and secret blind `r_i`, with `H`
/// [`PrimeOrderGroup::hash_to_group`] under `dst`, encoded into `out`
/// (`ELEMENT_LEN` bytes each, public from here): a client's blinding.
/// Returns the blinded elements, or the engine's points of them, and
/// [`Error::InvalidInput`] if an input hashes to the identity. Constant
/// time in the inputs and blinds.
pub fn hash_and_blind<G: PrimeOrderGroup>(
    inputs: &[&[u8]],
    dst: &[u8],
    blinds: &[G::Scalar],
    out: &mut [u8],
) -> Result<CheckedBatch<G>, Error> {
    if let Some(cpu) = Lanes::<G>::runs() {
        if let Some(vectors) = Lanes::<G>::hash_and_blind(cpu, inputs, dst, blinds, out) {
            // The blinded elements are sent: public from here.
            crate::secret_marks::declassify(&*out);
            return Ok(CheckedBatch::Lanes(LaneBatch::of_head(vectors?)));
        }
    }
    let hashed = hash_each::<G>(inputs, dst)?;
    let blinded = G::mul_each_encode(blinds, &hashed, out);
    // The blinded elements are sent: public from here.
    G::declassify_elements(&blinded);
    Ok(CheckedBatch::Elements(blinded))
}

/// `H(x_i)` for every input, [`PrimeOrderGroup::hash_to_group`] under
/// `dst`, one at a time: as private as the inputs, so wiped, and tested
/// in constant time ([`Error::InvalidInput`] if one is the identity, which
/// is all that is revealed).
pub(super) fn hash_each<G: PrimeOrderGroup>(
    inputs: &[&[u8]],
    dst: &[u8],
) -> Result<Zeroizing<Vec<G::Element>>, Error> {
    let hashed: Zeroizing<Vec<G::Element>> =
        Zeroizing::new(inputs.iter().map(|x| G::hash_to_group(&[x], dst)).collect());
    let any_identity = hashed.iter().fold(false, |any, h| any | G::is_identity(h));
    if crate::secret_marks::public_bool(any_identity) {
        return Err(Error::InvalidInput);
    }
    Ok(hashed)
}
