//! The client side of RFC 9497, batched: blind n inputs, then verify (in
//! VOPRF/POPRF mode) and finalize the server's answers.

use rand_core::CryptoRng;
use zeroize::{Zeroize, Zeroizing};

use super::context::{len2, Context, Mode, MAX_INPUT_LEN};
use super::dleq::{verify_proof, Proof, Relation};
use super::server::poprf_tweaked_key;
use crate::group::PrimeOrderGroup;
use crate::Error;

/// One batch on the client: the inputs, their secret blinds and the blinded
/// elements to send. It cannot be cloned, and [`ClientBatch::finalize`]
/// consumes it, so blinds are never reused; they are wiped on drop.
pub struct ClientBatch<G: PrimeOrderGroup> {
    context: Context,
    inputs: Zeroizing<Vec<Vec<u8>>>,
    info: Vec<u8>,
    blinds: Vec<G::Scalar>,
    blinded: Vec<G::Element>,
    blinded_bytes: Vec<u8>,
    /// The key the server's proof is checked against: `pkS` (VOPRF) or the
    /// tweaked key (POPRF).
    proof_key: Option<G::Element>,
}

impl<G: PrimeOrderGroup> Drop for ClientBatch<G> {
    fn drop(&mut self) {
        self.blinds.iter_mut().for_each(Zeroize::zeroize);
    }
}

impl<G: PrimeOrderGroup> core::fmt::Debug for ClientBatch<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ClientBatch")
            .field("suite", &G::SUITE_ID)
            .field("mode", &self.context.mode)
            .field("inputs", &self.inputs.len())
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> ClientBatch<G> {
    /// Blinds `inputs` with fresh random blinds. `public_key` (the server's
    /// `pkS`) is required in VOPRF and POPRF mode; `info` is the POPRF public
    /// input (must be empty otherwise). Fails with [`Error::InvalidInput`]
    /// if an input hashes to the identity, [`Error::EmptyInput`] for no
    /// inputs, [`Error::BadLength`] for an input or info above 65535 bytes.
    pub fn blind<R: CryptoRng + ?Sized>(
        mode: Mode,
        inputs: &[&[u8]],
        info: &[u8],
        public_key: Option<&G::Element>,
        rng: &mut R,
    ) -> Result<Self, Error> {
        let blinds = (0..inputs.len()).map(|_| G::random_scalar(rng)).collect();
        Self::with_blinds(mode, inputs, info, public_key, blinds)
    }

    /// [`ClientBatch::blind`] with the blinds given: for reproducing test
    /// vectors only (blinds must be secret, uniform and never reused).
    /// Compiled only with the non-default feature `danger`.
    #[cfg(any(test, feature = "danger"))]
    pub fn blind_with(
        mode: Mode,
        inputs: &[&[u8]],
        info: &[u8],
        public_key: Option<&G::Element>,
        blinds: Vec<G::Scalar>,
    ) -> Result<Self, Error> {
        Self::with_blinds(mode, inputs, info, public_key, blinds)
    }

    fn with_blinds(
        mode: Mode,
        inputs: &[&[u8]],
        info: &[u8],
        public_key: Option<&G::Element>,
        blinds: Vec<G::Scalar>,
    ) -> Result<Self, Error> {
        let result = Self::build(mode, inputs, info, public_key, &blinds);
        match result {
            Ok((context, blinded, blinded_bytes, proof_key)) => Ok(ClientBatch {
                context,
                inputs: copy_inputs(inputs),
                info: info.to_vec(),
                blinds,
                blinded,
                blinded_bytes,
                proof_key,
            }),
            // The blinds wipe themselves on drop.
            Err(e) => Err(e),
        }
    }

    #[allow(clippy::type_complexity)]
    fn build(
        mode: Mode,
        inputs: &[&[u8]],
        info: &[u8],
        public_key: Option<&G::Element>,
        blinds: &[G::Scalar],
    ) -> Result<(Context, Vec<G::Element>, Vec<u8>, Option<G::Element>), Error> {
        check_inputs(inputs, blinds.len())?;
        if info.len() > MAX_INPUT_LEN {
            return Err(Error::BadLength);
        }
        let context = Context::new::<G>(mode);
        let proof_key = match mode {
            Mode::Oprf => None,
            Mode::Voprf => Some(public_key.ok_or(Error::NullPointer)?.clone()),
            Mode::Poprf => Some(poprf_tweaked_key::<G>(
                &context,
                public_key.ok_or(Error::NullPointer)?,
                info,
            )?),
        };
        if mode != Mode::Poprf && !info.is_empty() {
            return Err(Error::BadLength);
        }
        let (blinded, blinded_bytes) = hash_and_blind::<G>(&context, inputs, blinds)?;
        Ok((context, blinded, blinded_bytes, proof_key))
    }

    /// The blinded elements to send to the server (`ELEMENT_LEN` bytes each).
    pub fn blinded_elements(&self) -> &[u8] {
        &self.blinded_bytes
    }

    /// The number of inputs.
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// Always false: a batch has at least one input.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.context.mode
    }

    /// Checks the server's answer and returns the PRF outputs, one per
    /// input, in order (each wiped on drop). `evaluated` holds the server's encoded elements (one
    /// per input, each validated); `proof` is required in VOPRF and POPRF
    /// mode and is checked once for the whole batch ([`Error::VerificationFailed`]
    /// and no output if it does not hold).
    pub fn finalize(
        self,
        evaluated: &[u8],
        proof: Option<&Proof<G>>,
    ) -> Result<Vec<Zeroizing<Vec<u8>>>, Error> {
        let elements = G::decode_batch(evaluated)?;
        if elements.len() != self.inputs.len() {
            return Err(Error::BadLength);
        }
        if let Some(key) = &self.proof_key {
            let proof = proof.ok_or(Error::NullPointer)?;
            let relation = match self.context.mode {
                Mode::Poprf => Relation::BlindedIsKeyTimesEvaluated,
                _ => Relation::EvaluatedIsKeyTimesBlinded,
            };
            verify_proof::<G>(
                &self.context,
                relation,
                key,
                &self.blinded,
                &self.blinded_bytes,
                &elements,
                evaluated,
                proof,
            )?;
        }
        Ok(self.unblind_and_hash(&elements))
    }

    /// `N_i = r_i^{-1}·Y_i` and the RFC 9497 Finalize hash of each.
    pub(crate) fn unblind_and_hash(&self, evaluated: &[G::Element]) -> Vec<Zeroizing<Vec<u8>>> {
        let poprf_info = (self.context.mode == Mode::Poprf).then_some(&self.info[..]);
        unblind_and_finalize::<G>(&self.inputs, poprf_info, &self.blinds, evaluated)
    }
}

/// The batch limits shared by every client: at least one input, as many
/// blinds as inputs, at most 65535 inputs (RFC 9497 frames indices in two
/// bytes) of at most 65535 bytes each.
pub(crate) fn check_inputs(inputs: &[&[u8]], blinds: usize) -> Result<(), Error> {
    if inputs.is_empty() || blinds != inputs.len() {
        return Err(Error::EmptyInput);
    }
    if inputs.len() > u16::MAX as usize || inputs.iter().any(|x| x.len() > MAX_INPUT_LEN) {
        return Err(Error::BadLength);
    }
    Ok(())
}

/// The client's copy of its private inputs, wiped on drop.
pub(crate) fn copy_inputs(inputs: &[&[u8]]) -> Zeroizing<Vec<Vec<u8>>> {
    Zeroizing::new(inputs.iter().map(|x| x.to_vec()).collect())
}

/// `X_i = r_i·H(x_i)` for every input, and their encodings
/// ([`Error::InvalidInput`] if an input hashes to the identity).
pub(crate) fn hash_and_blind<G: PrimeOrderGroup>(
    context: &Context,
    inputs: &[&[u8]],
    blinds: &[G::Scalar],
) -> Result<(Vec<G::Element>, Vec<u8>), Error> {
    // H(x_i) is as private as x_i: wiped, and tested in constant time
    // (only whether some input hashed to the identity is public).
    let hashed: Zeroizing<Vec<G::Element>> = Zeroizing::new(
        inputs
            .iter()
            .map(|x| G::hash_to_group(&[x], &context.hash_to_group_dst))
            .collect(),
    );
    let any_identity = hashed.iter().fold(false, |any, h| any | G::is_identity(h));
    if crate::ct::public_bool(any_identity) {
        return Err(Error::InvalidInput);
    }
    let mut blinded_bytes = vec![0u8; inputs.len() * G::ELEMENT_LEN];
    let blinded = G::mul_each_encode(blinds, &hashed, &mut blinded_bytes);
    // The blinded elements are sent: public from here.
    G::declassify_elements(&blinded);
    crate::ct::declassify(blinded_bytes.as_slice());
    Ok((blinded, blinded_bytes))
}

/// Fresh blinds `r_i` and the blinded inputs `X_i = r_i·H(x_i)`, with
/// their encodings.
pub(crate) struct Blinded<G: PrimeOrderGroup> {
    pub(crate) blinds: Zeroizing<Vec<G::Scalar>>,
    pub(crate) elements: Vec<G::Element>,
    pub(crate) encoded: Vec<u8>,
}

/// The OPRF-mode first step of the checked and threshold clients: the
/// inputs checked, fresh blinds, the blinded inputs.
pub(crate) fn blind_oprf_mode<G: PrimeOrderGroup, R: CryptoRng + ?Sized>(
    inputs: &[&[u8]],
    rng: &mut R,
) -> Result<Blinded<G>, Error> {
    check_inputs(inputs, inputs.len())?;
    let blinds: Zeroizing<Vec<G::Scalar>> =
        Zeroizing::new((0..inputs.len()).map(|_| G::random_scalar(rng)).collect());
    let context = Context::new::<G>(Mode::Oprf);
    let (elements, encoded) = hash_and_blind::<G>(&context, inputs, &blinds)?;
    Ok(Blinded {
        blinds,
        elements,
        encoded,
    })
}

/// `N_i = r_i^{-1}·Y_i` (one batch inversion), then the RFC 9497 Finalize
/// hash of each input with its `N_i` (and the POPRF `info`, if given). The
/// unblinded elements and the outputs are secret: wiped on drop.
pub(crate) fn unblind_and_finalize<G: PrimeOrderGroup>(
    inputs: &[Vec<u8>],
    poprf_info: Option<&[u8]>,
    blinds: &[G::Scalar],
    evaluated: &[G::Element],
) -> Vec<Zeroizing<Vec<u8>>> {
    let mut inverses = Zeroizing::new(blinds.to_vec());
    G::batch_invert(&mut inverses);
    let mut unblinded = Zeroizing::new(vec![0u8; evaluated.len() * G::ELEMENT_LEN]);
    let _unblinded_elements =
        Zeroizing::new(G::mul_each_encode(&inverses, evaluated, &mut unblinded));
    inputs
        .iter()
        .zip(unblinded.chunks_exact(G::ELEMENT_LEN))
        .map(|(input, n)| {
            let mut parts: Vec<&[u8]> = vec![];
            let input_len = len2(input);
            let n_len = len2(n);
            parts.extend([&input_len[..], input]);
            let info_len;
            if let Some(info) = poprf_info {
                info_len = len2(info);
                parts.extend([&info_len[..], info]);
            }
            parts.extend([&n_len[..], n, b"Finalize"]);
            Zeroizing::new(G::hash(&parts))
        })
        .collect()
}
