//! The first step every hashing client shares (the OPRF clients, blind
//! signing): the inputs hashed to the group and blinded with fresh secret
//! scalars, `X_i = r_i·H(x_i)`, and, once the server has raised them to its
//! key, unblinded again.

use rand_core::CryptoRng;
use zeroize::Zeroizing;

use crate::group::PrimeOrderGroup;
use crate::message::{BlindedElements, EvaluatedElements, MAX_BATCH};
use crate::Error;

/// The longest input (OPRF input, POPRF info, message to sign) accepted:
/// its length is framed in two bytes.
pub const MAX_INPUT_LEN: usize = u16::MAX as usize;

/// What every batch keeps between blinding and finalizing: the inputs,
/// their secret blinds (wiped on drop) and the blinded elements sent.
pub(crate) struct Blinding<G: PrimeOrderGroup> {
    pub(crate) inputs: Zeroizing<Vec<Vec<u8>>>,
    blinds: Vec<G::Scalar>,
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
            inputs: Zeroizing::new(inputs.iter().map(|x| x.to_vec()).collect()),
            blinds,
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

    /// The encodings of `r_i^{-1}·Y_i` for the answers `Y_i` (one batch
    /// inversion): the unblinded elements, secret, so wiped on drop (and so
    /// are the elements on the way).
    pub(crate) fn unblind(&self, evaluated: &[G::Element]) -> Zeroizing<Vec<u8>> {
        let mut unblinded = Zeroizing::new(vec![0u8; evaluated.len() * G::ELEMENT_LEN]);
        let _elements = Zeroizing::new(G::mul_each_encode(
            &self.inverted_blinds(),
            evaluated,
            &mut unblinded,
        ));
        unblinded
    }

    /// [`Blinding::unblind`] for an answer as received (a group may work
    /// from its encodings without decoding its elements).
    pub(crate) fn unblind_received(&self, evaluated: &EvaluatedElements<G>) -> Zeroizing<Vec<u8>> {
        let mut unblinded = Zeroizing::new(vec![0u8; evaluated.as_bytes().len()]);
        crate::group::batch::mul_each(
            &self.inverted_blinds(),
            evaluated.received(),
            &mut unblinded,
        );
        unblinded
    }

    /// [`Blinding::unblind_received`] for an answer that holds this
    /// batch's answers among others (a checked request's balancer and
    /// padding) at `slots` (one per input, public): the whole answer is
    /// unblinded as received, the other slots by 1 and their results
    /// dropped, so that a group's engine works from the points its check
    /// kept, which are laid out by slot.
    pub(crate) fn unblind_among(
        &self,
        evaluated: &EvaluatedElements<G>,
        slots: &[usize],
    ) -> Zeroizing<Vec<u8>> {
        debug_assert_eq!(slots.len(), self.blinds.len());
        let len = G::ELEMENT_LEN;
        let inverses = self.inverted_blinds();
        // Sized once: a vector that grew would free copies of the inverses
        // without wiping them.
        let mut scalars = Vec::with_capacity(evaluated.len());
        scalars.resize(evaluated.len(), G::scalar_from_u64(1));
        for (&slot, inverse) in slots.iter().zip(inverses) {
            scalars[slot] = inverse;
        }
        let mut all = Zeroizing::new(vec![0u8; evaluated.as_bytes().len()]);
        crate::group::batch::mul_each(&scalars, evaluated.received(), &mut all);
        let mut unblinded = Zeroizing::new(vec![0u8; slots.len() * len]);
        for (out, &slot) in unblinded.chunks_exact_mut(len).zip(slots) {
            out.copy_from_slice(&all[slot * len..(slot + 1) * len]);
        }
        unblinded
    }

    /// `r_i^{-1}` for every blind (one batch inversion), wiped on drop.
    fn inverted_blinds(&self) -> Vec<G::Scalar> {
        let mut inverses = self.blinds.to_vec();
        G::batch_invert(&mut inverses);
        inverses
    }
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
