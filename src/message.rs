//! The typed messages every protocol exchanges: a batch of elements a client
//! sends a server ([`BlindedElements`]) and the server's answer
//! ([`EvaluatedElements`]), the same key applied to each element in order.
//! The OPRF's proof is [`crate::oprf::Proof`].
//!
//! A message holds its elements and their canonical encodings together:
//! built by the library from elements, or by [`BlindedElements::from_bytes`]
//! / [`EvaluatedElements::from_bytes`] from bytes received, which validate
//! every element (canonical, in the prime-order group, not the identity).
//! So a value of these types is always a well-formed, non-empty batch of at
//! most [`MAX_BATCH`] elements.

use std::sync::OnceLock;

use crate::group::batch::{self, CheckedBatch, LaneBatch, ReceivedBatch};
use crate::group::PrimeOrderGroup;
use crate::Error;

/// The most elements a message holds (RFC 9497 numbers a batch's elements
/// in two bytes).
pub const MAX_BATCH: usize = u16::MAX as usize;

/// Valid elements and their concatenated encodings, in the same order. The
/// elements of an encoding the library made itself (a server's answer) are
/// decoded only if asked for: a server that sends its answer never pays for
/// them.
pub(crate) struct Elements<G: PrimeOrderGroup> {
    elements: OnceLock<Vec<G::Element>>,
    bytes: Vec<u8>,
    /// The points the group's engine decoded when it checked the batch
    /// (see [`batch::check`]), or computed when it blinded it.
    lanes: Option<LaneBatch<G>>,
}

impl<G: PrimeOrderGroup> Clone for Elements<G> {
    /// A clone without the engine's points (a clone is rare, the points
    /// large): its evaluation works from the encodings.
    fn clone(&self) -> Self {
        Elements {
            elements: self.elements.clone(),
            bytes: self.bytes.clone(),
            lanes: None,
        }
    }
}

impl<G: PrimeOrderGroup> PartialEq for Elements<G> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl<G: PrimeOrderGroup> Elements<G> {
    /// Decodes and validates: [`Error::BadLength`] unless `bytes` is a
    /// whole, non-zero number of encodings, at most [`MAX_BATCH`];
    /// [`Error::InvalidElement`] for any invalid one. The check
    /// ([`batch::check`]) keeps the elements or the engine's points; the
    /// elements are then decoded if and when asked for.
    fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() / G::ELEMENT_LEN > MAX_BATCH {
            return Err(Error::BadLength);
        }
        Ok(Self::from_checked(
            batch::check::<G>(bytes)?,
            bytes.to_vec(),
        ))
    }

    /// Encodings `bytes` the check validated, or the library computed,
    /// with what it kept of them.
    fn from_checked(checked: CheckedBatch<G>, bytes: Vec<u8>) -> Self {
        let (elements, lanes) = match checked {
            CheckedBatch::Elements(elements) => (OnceLock::from(elements), None),
            CheckedBatch::Lanes(lanes) => (OnceLock::new(), Some(lanes)),
        };
        Elements {
            elements,
            bytes,
            lanes,
        }
    }

    /// Elements the library computed, with their encodings (`bytes` must be
    /// exactly the encodings of `elements`, which are valid and non-empty).
    fn from_parts(elements: Vec<G::Element>, bytes: Vec<u8>) -> Self {
        debug_assert!(!elements.is_empty() && elements.len() <= MAX_BATCH);
        debug_assert_eq!(bytes.len(), elements.len() * G::ELEMENT_LEN);
        Elements {
            elements: OnceLock::from(elements),
            bytes,
            lanes: None,
        }
    }

    /// The encodings of valid elements the library computed (decoded on
    /// first use).
    fn from_encodings(bytes: Vec<u8>) -> Self {
        debug_assert!(!bytes.is_empty() && bytes.len().is_multiple_of(G::ELEMENT_LEN));
        Elements {
            elements: OnceLock::new(),
            bytes,
            lanes: None,
        }
    }

    fn elements(&self) -> &[G::Element] {
        self.elements
            .get_or_init(|| self.received().elements().into_owned())
    }

    /// The elements if they are decoded already.
    fn decoded(&self) -> Option<&[G::Element]> {
        self.elements.get().map(Vec::as_slice)
    }

    /// The batch with whichever decoded forms exist.
    fn received(&self) -> ReceivedBatch<'_, G> {
        ReceivedBatch {
            encoded: &self.bytes,
            elements: self.decoded(),
            lanes: self.lanes.as_ref(),
        }
    }

    fn len(&self) -> usize {
        self.bytes.len() / G::ELEMENT_LEN
    }
}

macro_rules! element_message {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub struct $name<G: PrimeOrderGroup>(Elements<G>);

        impl<G: PrimeOrderGroup> Clone for $name<G> {
            fn clone(&self) -> Self {
                $name(self.0.clone())
            }
        }

        impl<G: PrimeOrderGroup> PartialEq for $name<G> {
            fn eq(&self, other: &Self) -> bool {
                self.0 == other.0
            }
        }

        impl<G: PrimeOrderGroup> Eq for $name<G> {}

        impl<G: PrimeOrderGroup> core::fmt::Debug for $name<G> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("suite", &G::SUITE_ID)
                    .field("len", &self.len())
                    .finish()
            }
        }

        impl<G: PrimeOrderGroup> $name<G> {
            /// Decodes a message received: the concatenation of 1 to
            /// [`MAX_BATCH`] element encodings, each validated.
            /// [`Error::BadLength`] for a length that is not a whole,
            /// non-zero number of encodings (or too many);
            /// [`Error::InvalidElement`] for any element that is not
            /// canonical, not in the group, or the identity.
            pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                Elements::from_bytes(bytes).map($name)
            }

            /// The encoding: the elements' canonical encodings, concatenated.
            pub fn to_bytes(&self) -> Vec<u8> {
                self.0.bytes.clone()
            }

            /// The encoding, borrowed.
            pub fn as_bytes(&self) -> &[u8] {
                &self.0.bytes
            }

            /// The number of elements.
            pub fn len(&self) -> usize {
                self.0.len()
            }

            /// Never true: a message holds at least one element.
            pub fn is_empty(&self) -> bool {
                self.0.bytes.is_empty()
            }

            /// The elements, in order.
            pub fn elements(&self) -> &[G::Element] {
                self.0.elements()
            }

            /// The elements if they are decoded already (a request built
            /// from elements; a message received, when the group's check
            /// kept them).
            pub(crate) fn decoded(&self) -> Option<&[G::Element]> {
                self.0.decoded()
            }

            /// The message as a batch for the group: its encodings and
            /// whichever decoded forms exist.
            pub(crate) fn received(&self) -> ReceivedBatch<'_, G> {
                self.0.received()
            }
        }
    };
}

element_message!(
    /// A batch of elements a client sends a server to raise to its key:
    /// blinded OPRF inputs or messages, or ciphertext parts to decrypt,
    /// with a checked batch's balancer (and padding) hidden among them. A
    /// server cannot tell which is which, so it must count every element
    /// it evaluates (rate and issuance limits).
    BlindedElements
);

element_message!(
    /// A server's answer to [`BlindedElements`]: its key (or key share)
    /// applied to each element, in the same order.
    EvaluatedElements
);

impl<G: PrimeOrderGroup> BlindedElements<G> {
    /// A request of elements the library computed and encoded (a client's
    /// blinded inputs).
    pub(crate) fn from_parts(elements: Vec<G::Element>, bytes: Vec<u8>) -> Self {
        BlindedElements(Elements::from_parts(elements, bytes))
    }

    /// A request of encodings the library computed (a client's blinded
    /// inputs, when the group computed the encodings only), decoded only
    /// if asked for.
    pub(crate) fn from_encodings(bytes: Vec<u8>) -> Self {
        BlindedElements(Elements::from_encodings(bytes))
    }

    /// A request the library computed (a client's blinded inputs): their
    /// encodings `bytes` with the elements or the engine's points of them
    /// (see [`batch::hash_and_blind`]).
    pub(crate) fn from_computed(computed: CheckedBatch<G>, bytes: Vec<u8>) -> Self {
        BlindedElements(Elements::from_checked(computed, bytes))
    }

    /// The answer `k·X_i` for every element `X_i`, in order (constant time
    /// in `key`; the answer is public from here), on the group's engine
    /// where it runs (see [`batch::mul_by_key`]).
    pub(crate) fn evaluate_with(&self, key: &G::Scalar) -> EvaluatedElements<G> {
        let mut bytes = vec![0u8; self.0.bytes.len()];
        batch::mul_by_key(key, self.received(), &mut bytes);
        EvaluatedElements::from_encodings(bytes)
    }
}

impl<G: PrimeOrderGroup> EvaluatedElements<G> {
    /// An answer the library computed and encoded (a server's), its
    /// elements decoded only if asked for.
    pub(crate) fn from_encodings(bytes: Vec<u8>) -> Self {
        EvaluatedElements(Elements::from_encodings(bytes))
    }

    /// The answers without the one at `slot`, the first `count` of the
    /// rest (a checked request's caller's answers, without its balancer
    /// and padding), with their elements if decoded. `slot` and `count`
    /// are public (the check has run).
    pub(crate) fn without_slot(&self, slot: usize, count: usize) -> Self {
        let len = G::ELEMENT_LEN;
        debug_assert!(slot < self.len() && count < self.len());
        let kept = |i: usize| i != slot;
        let bytes: Vec<u8> = self
            .as_bytes()
            .chunks_exact(len)
            .enumerate()
            .filter(|(i, _)| kept(*i))
            .take(count)
            .flat_map(|(_, e)| e.iter().copied())
            .collect();
        let elements = self.decoded().map(|elements| {
            elements
                .iter()
                .enumerate()
                .filter(|(i, _)| kept(*i))
                .take(count)
                .map(|(_, e)| e.clone())
                .collect()
        });
        match elements {
            Some(elements) => EvaluatedElements(Elements::from_parts(elements, bytes)),
            None => EvaluatedElements(Elements::from_encodings(bytes)),
        }
    }
}
