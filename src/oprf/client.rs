//! The client side of RFC 9497, batched, one type per mode: a client
//! (its configuration: the server's public key where the mode needs one)
//! blinds a batch of inputs into a single-use batch, which checks the
//! server's answer (and proof) and finalizes the outputs.

use rand_core::CryptoRng;
use zeroize::Zeroizing;

use super::context::{len2, Context, Mode};
use super::dleq::{verify_proof, Proof, Relation};
use super::server::poprf_tweaked_key;
use crate::blinding::Blinding;
use crate::group::PrimeOrderGroup;
use crate::message::{BlindedElements, EvaluatedElements};
use crate::Error;

/// One PRF output (the suite's hash length), wiped on drop.
pub type Output = Zeroizing<Vec<u8>>;

/// The RFC 9497 `Finalize` hash of each input with its unblinded element
/// `N_i` (the encodings `unblinded`, in order; and the POPRF `info`, if
/// given); the outputs are wiped on drop.
pub(crate) fn finalize_outputs<G: PrimeOrderGroup>(
    inputs: &[Vec<u8>],
    unblinded: &[u8],
    poprf_info: Option<&[u8]>,
) -> Vec<Output> {
    let input_lens: Vec<[u8; 2]> = inputs.iter().map(|input| len2(input)).collect();
    let info_len = poprf_info.map(len2);
    // Every element's encoding has the same length (at most 97 bytes).
    let n_len = (G::ELEMENT_LEN as u16).to_be_bytes();
    let messages: Vec<Vec<&[u8]>> = inputs
        .iter()
        .zip(&input_lens)
        .zip(unblinded.chunks_exact(G::ELEMENT_LEN))
        .map(|((input, input_len), n)| {
            let mut parts: Vec<&[u8]> = vec![input_len, input];
            if let (Some(info), Some(info_len)) = (poprf_info, &info_len) {
                parts.extend([&info_len[..], info]);
            }
            parts.extend([&n_len[..], n, b"Finalize"]);
            parts
        })
        .collect();
    G::hash_each(&messages)
}

/// The outputs of a batch for the server's answer as received: unblinded
/// (a group may work from the answer's encodings) and hashed.
pub(crate) fn finalize_received<G: PrimeOrderGroup>(
    blinding: &Blinding<G>,
    response: &EvaluatedElements<G>,
    poprf_info: Option<&[u8]>,
) -> Vec<Output> {
    let unblinded = blinding.unblind_received(response);
    finalize_outputs::<G>(&blinding.inputs, &unblinded, poprf_info)
}

/// [`Error::BadLength`] unless the answer has one element per input.
fn check_answer<G: PrimeOrderGroup>(
    blinding: &Blinding<G>,
    response: &EvaluatedElements<G>,
) -> Result<(), Error> {
    if response.len() != blinding.request.len() {
        return Err(Error::BadLength);
    }
    Ok(())
}

/// The single-use batch types share their accessors.
macro_rules! batch_common {
    ($name:ident) => {
        impl<G: PrimeOrderGroup> core::fmt::Debug for $name<G> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("suite", &G::SUITE_ID)
                    .field("inputs", &self.len())
                    .finish_non_exhaustive()
            }
        }

        impl<G: PrimeOrderGroup> $name<G> {
            /// The blinded elements to send to the server, one per input.
            pub fn request(&self) -> &BlindedElements<G> {
                &self.blinding.request
            }

            /// The number of inputs (and of outputs).
            pub fn len(&self) -> usize {
                self.blinding.inputs.len()
            }

            /// Never true: a batch has at least one input.
            pub fn is_empty(&self) -> bool {
                self.blinding.inputs.is_empty()
            }
        }
    };
}

/// An OPRF-mode client: no public key, no proof (it trusts the server's use
/// of its key; [`super::CheckedOprfClient`] does not need to).
#[derive(Clone, Debug)]
pub struct OprfClient<G: PrimeOrderGroup> {
    context: Context,
    group: core::marker::PhantomData<G>,
}

impl<G: PrimeOrderGroup> Default for OprfClient<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: PrimeOrderGroup> OprfClient<G> {
    /// The client of the suite of `G`.
    pub fn new() -> Self {
        OprfClient {
            context: Context::new::<G>(Mode::Oprf),
            group: core::marker::PhantomData,
        }
    }

    /// Blinds `inputs` with fresh random blinds. Errors:
    /// [`Error::EmptyInput`] for no input, [`Error::BadLength`] for more
    /// than [`crate::message::MAX_BATCH`] inputs or an input above 65535
    /// bytes,
    /// [`Error::InvalidInput`] if an input hashes to the identity.
    pub fn blind<R: CryptoRng + ?Sized>(
        &self,
        inputs: &[&[u8]],
        rng: &mut R,
    ) -> Result<OprfBatch<G>, Error> {
        Ok(OprfBatch {
            blinding: Blinding::random(&self.context.hash_to_group_dst, inputs, rng)?,
        })
    }

    /// [`OprfClient::blind`] with the blinds given: for reproducing test
    /// vectors only (blinds must be secret, uniform and never reused).
    /// Compiled only with the non-default feature `danger`.
    #[cfg(any(test, feature = "danger"))]
    pub fn blind_with(
        &self,
        inputs: &[&[u8]],
        blinds: Vec<G::Scalar>,
    ) -> Result<OprfBatch<G>, Error> {
        Ok(OprfBatch {
            blinding: Blinding::new(&self.context.hash_to_group_dst, inputs, blinds)?,
        })
    }
}

/// One OPRF-mode batch: inputs, blinds, blinded elements. Not clonable;
/// [`OprfBatch::finalize`] consumes it, so blinds are never reused; they are
/// wiped on drop.
pub struct OprfBatch<G: PrimeOrderGroup> {
    blinding: Blinding<G>,
}
batch_common!(OprfBatch);

impl<G: PrimeOrderGroup> OprfBatch<G> {
    /// Unblinds the server's answer and returns the PRF outputs, one per
    /// input, in order. [`Error::BadLength`] unless the answer has one
    /// element per input.
    pub fn finalize(self, response: &EvaluatedElements<G>) -> Result<Vec<Output>, Error> {
        check_answer(&self.blinding, response)?;
        Ok(finalize_received(&self.blinding, response, None))
    }
}

/// A VOPRF-mode client: checks the server's proof against its public key.
#[derive(Clone, Debug)]
pub struct VoprfClient<G: PrimeOrderGroup> {
    context: Context,
    public_key: G::Element,
}

impl<G: PrimeOrderGroup> VoprfClient<G> {
    /// The client of the server with this public key
    /// ([`Error::InvalidElement`] for the identity).
    pub fn new(public_key: G::Element) -> Result<Self, Error> {
        Ok(VoprfClient {
            context: Context::new::<G>(Mode::Voprf),
            public_key: usable_key::<G>(public_key)?,
        })
    }

    /// Blinds `inputs` with fresh random blinds; errors as
    /// [`OprfClient::blind`].
    pub fn blind<R: CryptoRng + ?Sized>(
        &self,
        inputs: &[&[u8]],
        rng: &mut R,
    ) -> Result<VoprfBatch<G>, Error> {
        Ok(self.batch(Blinding::random(
            &self.context.hash_to_group_dst,
            inputs,
            rng,
        )?))
    }

    /// [`VoprfClient::blind`] with the blinds given: for reproducing test
    /// vectors only. Compiled only with the non-default feature `danger`.
    #[cfg(any(test, feature = "danger"))]
    pub fn blind_with(
        &self,
        inputs: &[&[u8]],
        blinds: Vec<G::Scalar>,
    ) -> Result<VoprfBatch<G>, Error> {
        Ok(self.batch(Blinding::new(
            &self.context.hash_to_group_dst,
            inputs,
            blinds,
        )?))
    }

    fn batch(&self, blinding: Blinding<G>) -> VoprfBatch<G> {
        VoprfBatch {
            blinding,
            context: self.context.clone(),
            public_key: self.public_key.clone(),
        }
    }
}

/// One VOPRF-mode batch; single use, like [`OprfBatch`].
pub struct VoprfBatch<G: PrimeOrderGroup> {
    blinding: Blinding<G>,
    context: Context,
    public_key: G::Element,
}
batch_common!(VoprfBatch);

impl<G: PrimeOrderGroup> VoprfBatch<G> {
    /// Checks the server's proof once for the whole batch and returns the
    /// PRF outputs, in order: [`Error::VerificationFailed`] and no output
    /// if the proof does not hold, [`Error::BadLength`] unless the answer
    /// has one element per input.
    pub fn finalize(
        self,
        response: &EvaluatedElements<G>,
        proof: &Proof<G>,
    ) -> Result<Vec<Output>, Error> {
        check_answer(&self.blinding, response)?;
        verify_proof::<G>(
            &self.context,
            Relation::EvaluatedIsKeyTimesBlinded,
            &self.public_key,
            &self.blinding.request,
            response,
            proof,
        )?;
        Ok(finalize_received(&self.blinding, response, None))
    }
}

/// A POPRF-mode client: each batch has a public `info` string that tweaks
/// the server's key; the proof is checked against the tweaked public key.
#[derive(Clone, Debug)]
pub struct PoprfClient<G: PrimeOrderGroup> {
    context: Context,
    public_key: G::Element,
}

impl<G: PrimeOrderGroup> PoprfClient<G> {
    /// The client of the server with this public key
    /// ([`Error::InvalidElement`] for the identity).
    pub fn new(public_key: G::Element) -> Result<Self, Error> {
        Ok(PoprfClient {
            context: Context::new::<G>(Mode::Poprf),
            public_key: usable_key::<G>(public_key)?,
        })
    }

    /// Blinds `inputs` for the public `info` with fresh random blinds.
    /// Errors as [`OprfClient::blind`], and [`Error::BadLength`] for `info`
    /// above 65535 bytes, [`Error::InvalidInput`] if `info` tweaks the key
    /// to the identity.
    pub fn blind<R: CryptoRng + ?Sized>(
        &self,
        inputs: &[&[u8]],
        info: &[u8],
        rng: &mut R,
    ) -> Result<PoprfBatch<G>, Error> {
        let tweaked_key = poprf_tweaked_key::<G>(&self.context, &self.public_key, info)?;
        let blinding = Blinding::random(&self.context.hash_to_group_dst, inputs, rng)?;
        Ok(self.batch(blinding, info, tweaked_key))
    }

    /// [`PoprfClient::blind`] with the blinds given: for reproducing test
    /// vectors only. Compiled only with the non-default feature `danger`.
    #[cfg(any(test, feature = "danger"))]
    pub fn blind_with(
        &self,
        inputs: &[&[u8]],
        info: &[u8],
        blinds: Vec<G::Scalar>,
    ) -> Result<PoprfBatch<G>, Error> {
        let tweaked_key = poprf_tweaked_key::<G>(&self.context, &self.public_key, info)?;
        let blinding = Blinding::new(&self.context.hash_to_group_dst, inputs, blinds)?;
        Ok(self.batch(blinding, info, tweaked_key))
    }

    fn batch(&self, blinding: Blinding<G>, info: &[u8], tweaked_key: G::Element) -> PoprfBatch<G> {
        PoprfBatch {
            blinding,
            context: self.context.clone(),
            info: info.to_vec(),
            tweaked_key,
        }
    }
}

/// One POPRF-mode batch; single use, like [`OprfBatch`].
pub struct PoprfBatch<G: PrimeOrderGroup> {
    blinding: Blinding<G>,
    context: Context,
    info: Vec<u8>,
    tweaked_key: G::Element,
}
batch_common!(PoprfBatch);

impl<G: PrimeOrderGroup> PoprfBatch<G> {
    /// The public info string of this batch.
    pub fn info(&self) -> &[u8] {
        &self.info
    }

    /// Checks the server's proof (against the key tweaked by the batch's
    /// info) and returns the PRF outputs, in order; errors as
    /// [`VoprfBatch::finalize`].
    pub fn finalize(
        self,
        response: &EvaluatedElements<G>,
        proof: &Proof<G>,
    ) -> Result<Vec<Output>, Error> {
        check_answer(&self.blinding, response)?;
        verify_proof::<G>(
            &self.context,
            Relation::BlindedIsKeyTimesEvaluated,
            &self.tweaked_key,
            &self.blinding.request,
            response,
            proof,
        )?;
        Ok(finalize_received(
            &self.blinding,
            response,
            Some(&self.info),
        ))
    }
}

/// A server's public key as a client takes it: anything but the identity
/// ([`Error::InvalidElement`]), which would make every output the same.
pub(super) fn usable_key<G: PrimeOrderGroup>(public_key: G::Element) -> Result<G::Element, Error> {
    if G::is_identity(&public_key) {
        return Err(Error::InvalidElement);
    }
    Ok(public_key)
}
