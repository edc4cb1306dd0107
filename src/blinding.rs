//! The first step every hashing client shares (the OPRF clients, blind
//! signing): the inputs hashed to the group and blinded with fresh secret
//! scalars, `X_i = r_i·H(x_i)`, and, once the server has raised them to its
//! key, unblinded again. The committed-key checked client may blind
//! additively instead, `X_i = H(x_i) + r_i·B`, where the group's engine
//! has tables of the generator and of the server's public key
//! ([`crate::group::offset`]; docs/PROTOCOLS.md §3).

use std::sync::Arc;

use rand_core::CryptoRng;
use zeroize::Zeroizing;

use crate::group::batch::ReceivedBatch;
use crate::group::offset::{self, FixedBases};
use crate::group::PrimeOrderGroup;
use crate::message::{BlindedElements, EvaluatedElements, MAX_BATCH};
use crate::Error;

/// The longest input (OPRF input, POPRF info, message to sign) accepted:
/// its length is framed in two bytes.
pub const MAX_INPUT_LEN: usize = u16::MAX as usize;

/// What every batch keeps between blinding and finalizing: the inputs,
/// their secret blinds (wiped on drop), how they were applied and the
/// blinded elements sent.
pub(crate) struct Blinding<G: PrimeOrderGroup> {
    pub(crate) inputs: Zeroizing<Vec<Vec<u8>>>,
    blinds: Vec<G::Scalar>,
    /// `None`: multiplicative blinding, `X_i = r_i·H(x_i)`, unblinded by
    /// `r_i^{-1}`. Else additive, `X_i = H(x_i) + r_i·B`, unblinded as
    /// `Y_i + (−r_i)·C` by these tables of `B` and `C`.
    offsets: Option<Arc<FixedBases<G>>>,
    pub(crate) request: BlindedElements<G>,
}

impl<G: PrimeOrderGroup> Blinding<G> {
    /// Checks the batch limits, hashes every input to the group with `dst`
    /// and blinds it with its blind: `X_i = r_i·H(x_i)`.
    /// [`Error::EmptyInput`] for no input, [`Error::BadLength`] for more
    /// than [`MAX_BATCH`] inputs or an input above [`MAX_INPUT_LEN`] bytes,
    /// [`Error::InvalidInput`] if an input hashes to the identity.
    pub(crate) fn new(dst: &[u8], inputs: &[&[u8]], blinds: Vec<G::Scalar>) -> Result<Self, Error> {
        check_inputs(inputs)?;
        debug_assert_eq!(blinds.len(), inputs.len());
        let request = hash_and_blind::<G>(dst, inputs, &blinds)?;
        Ok(Blinding {
            inputs: owned(inputs),
            blinds,
            offsets: None,
            request,
        })
    }

    /// [`Blinding::new`] with fresh random blinds.
    pub(crate) fn random<R: CryptoRng + ?Sized>(
        dst: &[u8],
        inputs: &[&[u8]],
        rng: &mut R,
    ) -> Result<Self, Error> {
        check_inputs(inputs)?;
        let blinds = G::random_scalars(inputs.len(), rng);
        Self::new(dst, inputs, blinds)
    }

    /// Additive blinding with fresh random blinds, `X_i = H(x_i) + r_i·B`,
    /// to be unblinded against the public key `C` of `bases` (drawn again
    /// in the rare case, about one in the group's order per input, that a
    /// blinded element is the identity). Errors as [`Blinding::new`].
    pub(crate) fn random_offset<R: CryptoRng + ?Sized>(
        dst: &[u8],
        inputs: &[&[u8]],
        bases: &Arc<FixedBases<G>>,
        rng: &mut R,
    ) -> Result<Self, Error> {
        check_inputs(inputs)?;
        loop {
            let blinds = G::random_scalars(inputs.len(), rng);
            let mut bytes = vec![0u8; inputs.len() * G::ELEMENT_LEN];
            let Some(blinded) =
                offset::hash_and_offset::<G>(inputs, dst, bases, &blinds, &mut bytes)?
            else {
                continue;
            };
            // The blinded elements are sent: public from here.
            crate::secret_marks::declassify(bytes.as_slice());
            return Ok(Blinding {
                inputs: owned(inputs),
                blinds,
                offsets: Some(Arc::clone(bases)),
                request: BlindedElements::from_computed(blinded, bytes),
            });
        }
    }

    /// The encodings of the unblinded answers `Y_i` (`r_i^{-1}·Y_i`, or
    /// `Y_i + (−r_i)·C`): secret, so wiped on drop (and so are the
    /// elements on the way).
    pub(crate) fn unblind(&self, evaluated: &[G::Element]) -> Zeroizing<Vec<u8>> {
        let mut unblinded = Zeroizing::new(vec![0u8; evaluated.len() * G::ELEMENT_LEN]);
        let scalars = self.unblinding_scalars();
        match &self.offsets {
            Some(bases) => offset::offset_one_at_a_time(bases, &scalars, evaluated, &mut unblinded),
            None => {
                // The products are secret: wiped.
                let _products =
                    Zeroizing::new(G::mul_each_encode(&scalars, evaluated, &mut unblinded));
            }
        }
        unblinded
    }

    /// [`Blinding::unblind`] for an answer as received (a group may work
    /// from its encodings without decoding its elements).
    pub(crate) fn unblind_received(&self, evaluated: &EvaluatedElements<G>) -> Zeroizing<Vec<u8>> {
        let mut unblinded = Zeroizing::new(vec![0u8; evaluated.as_bytes().len()]);
        self.apply(
            &self.unblinding_scalars(),
            evaluated.received(),
            &mut unblinded,
        );
        unblinded
    }

    /// [`Blinding::unblind_received`] for an answer that holds this
    /// batch's answers among others (a checked request's balancer and
    /// padding) at `slots` (one per input, public): the whole answer is
    /// unblinded as received, the other slots by a scalar that leaves them
    /// as they are (1, or 0 for additive blinding) and their results
    /// dropped, so that a group's engine works from the points its check
    /// kept, which are laid out by slot.
    pub(crate) fn unblind_among(
        &self,
        evaluated: &EvaluatedElements<G>,
        slots: &[usize],
    ) -> Zeroizing<Vec<u8>> {
        debug_assert_eq!(slots.len(), self.blinds.len());
        let len = G::ELEMENT_LEN;
        let unchanged = G::scalar_from_u64(u64::from(self.offsets.is_none()));
        // Sized once: a vector that grew would free copies of the scalars
        // without wiping them.
        let mut scalars = Vec::with_capacity(evaluated.len());
        scalars.resize(evaluated.len(), unchanged);
        // Copied, not moved out: a moved-out scalar wipes only itself, and
        // the vector's buffer would be freed still holding it.
        let unblinding = self.unblinding_scalars();
        for (&slot, scalar) in slots.iter().zip(&unblinding) {
            scalars[slot] = scalar.clone();
        }
        let mut all = Zeroizing::new(vec![0u8; evaluated.as_bytes().len()]);
        self.apply(&scalars, evaluated.received(), &mut all);
        let mut unblinded = Zeroizing::new(vec![0u8; slots.len() * len]);
        for (out, &slot) in unblinded.chunks_exact_mut(len).zip(slots) {
            out.copy_from_slice(&all[slot * len..(slot + 1) * len]);
        }
        unblinded
    }

    /// The unblinding of each answer of `batch` by its scalar, encoded into
    /// `out`: `s_i·Y_i`, or `Y_i + s_i·C` for additive blinding.
    fn apply(&self, scalars: &[G::Scalar], batch: ReceivedBatch<'_, G>, out: &mut [u8]) {
        match &self.offsets {
            Some(bases) => offset::offset_each(bases, scalars, batch, out),
            None => crate::group::batch::mul_each(scalars, batch, out),
        }
    }

    /// What the unblinding applies to each answer: `r_i^{-1}` (one batch
    /// inversion) for multiplicative blinding, `−r_i` for additive; wiped
    /// on drop.
    fn unblinding_scalars(&self) -> Vec<G::Scalar> {
        match self.offsets {
            Some(_) => {
                let zero = G::scalar_from_u64(0);
                self.blinds
                    .iter()
                    .map(|r| G::scalar_sub(&zero, r))
                    .collect()
            }
            None => {
                let mut inverses = self.blinds.to_vec();
                G::batch_invert(&mut inverses);
                inverses
            }
        }
    }
}

/// The inputs as the batch keeps them, wiped on drop.
fn owned(inputs: &[&[u8]]) -> Zeroizing<Vec<Vec<u8>>> {
    Zeroizing::new(inputs.iter().map(|x| x.to_vec()).collect())
}

/// The batch limits shared by every client: at least one input, at most
/// [`MAX_BATCH`] of at most [`MAX_INPUT_LEN`] bytes each.
fn check_inputs(inputs: &[&[u8]]) -> Result<(), Error> {
    if inputs.is_empty() {
        return Err(Error::EmptyInput);
    }
    if inputs.len() > MAX_BATCH || inputs.iter().any(|x| x.len() > MAX_INPUT_LEN) {
        return Err(Error::BadLength);
    }
    Ok(())
}

/// `X_i = r_i·H(x_i)` for every input, as the message to send
/// ([`Error::InvalidInput`] if an input hashes to the identity).
fn hash_and_blind<G: PrimeOrderGroup>(
    dst: &[u8],
    inputs: &[&[u8]],
    blinds: &[G::Scalar],
) -> Result<BlindedElements<G>, Error> {
    let mut bytes = vec![0u8; inputs.len() * G::ELEMENT_LEN];
    let blinded = crate::group::batch::hash_and_blind::<G>(inputs, dst, blinds, &mut bytes)?;
    // The blinded elements are sent: public from here.
    crate::secret_marks::declassify(bytes.as_slice());
    Ok(BlindedElements::from_computed(blinded, bytes))
}
