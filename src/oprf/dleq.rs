//! The batched discrete-log-equality proof of RFC 9497 §2.2 (VOPRF and
//! POPRF): the server shows that every `D_i = k·C_i` for the `k` with
//! `B = k·A`, by a Chaum–Pedersen proof on one random linear combination
//! (ComputeComposites). The composites are one multi-scalar multiplication,
//! not `n` separate ones.

use super::context::Context;
use crate::group::batch;
use crate::group::{encode_scalar_to_vec, encode_to_vec, PrimeOrderGroup};
use crate::message::{BlindedElements, EvaluatedElements};
use crate::Error;

/// A batch DLEQ proof `(c, s)`, encoded as
/// `SerializeScalar(c) || SerializeScalar(s)` ([`Proof::LEN`] bytes).
pub struct Proof<G: PrimeOrderGroup> {
    /// The challenge.
    pub(crate) c: G::Scalar,
    /// The response.
    pub(crate) s: G::Scalar,
}

impl<G: PrimeOrderGroup> Clone for Proof<G> {
    fn clone(&self) -> Self {
        Proof {
            c: self.c.clone(),
            s: self.s.clone(),
        }
    }
}

impl<G: PrimeOrderGroup> core::fmt::Debug for Proof<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Proof")
            .field("suite", &G::SUITE_ID)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> Proof<G> {
    /// Bytes of an encoded proof.
    pub const LEN: usize = 2 * G::SCALAR_LEN;

    /// The encoding `c || s`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = vec![0u8; Self::LEN];
        let (c, s) = out.split_at_mut(G::SCALAR_LEN);
        G::encode_scalar(&self.c, c);
        G::encode_scalar(&self.s, s);
        out
    }

    /// Decodes `c || s`, each a canonical scalar. Zero is accepted, as
    /// RFC 9497's `DeserializeScalar` accepts it: an honest proof has
    /// `c = 0` or `s = 0` with probability about 2/q, and such a proof
    /// verifies like any other.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != Self::LEN {
            return Err(Error::BadLength);
        }
        let (c, s) = bytes.split_at(G::SCALAR_LEN);
        Ok(Proof {
            c: G::decode_scalar_or_zero(c)?,
            s: G::decode_scalar_or_zero(s)?,
        })
    }
}

/// The composite weights `d_i` for the encoded `C_i`, `D_i` (RFC 9497
/// ComputeComposites: one seed from `B`, then a hash per pair).
fn composite_weights<G: PrimeOrderGroup>(
    context: &Context,
    b: &G::Element,
    c: &[u8],
    d: &[u8],
) -> Vec<G::Scalar> {
    let b_bytes = encode_to_vec::<G>(b);
    let seed_dst = &context.seed_dst;
    let seed = G::hash(&[&len2(&b_bytes), &b_bytes, &len2(seed_dst), seed_dst]);
    c.chunks_exact(G::ELEMENT_LEN)
        .zip(d.chunks_exact(G::ELEMENT_LEN))
        .enumerate()
        .map(|(i, (ci, di))| {
            let index = u16::try_from(i)
                .expect("batches are at most 65535 elements")
                .to_be_bytes();
            G::hash_to_scalar(
                &[
                    &len2(&seed),
                    &seed,
                    &index,
                    &len2(ci),
                    ci,
                    &len2(di),
                    di,
                    b"Composite",
                ],
                &context.hash_to_scalar_dst,
            )
        })
        .collect()
}

fn len2(x: &[u8]) -> [u8; 2] {
    super::context::len2(x)
}

/// The challenge hash of RFC 9497 GenerateProof/VerifyProof over the
/// encodings of `B, M, Z, t2, t3`.
fn challenge<G: PrimeOrderGroup>(context: &Context, encoded: [&[u8]; 5]) -> G::Scalar {
    let lengths: Vec<[u8; 2]> = encoded.iter().map(|e| len2(e)).collect();
    let mut parts: Vec<&[u8]> = Vec::with_capacity(11);
    for (len, e) in lengths.iter().zip(encoded) {
        parts.push(len);
        parts.push(e);
    }
    parts.push(b"Challenge");
    G::hash_to_scalar(&parts, &context.hash_to_scalar_dst)
}

/// Which elements play `C` and `D` in a proof: VOPRF proves
/// `evaluated = k·blinded`; POPRF proves `blinded = t·evaluated` (it
/// evaluates with `t^{-1}`).
#[derive(Clone, Copy)]
pub(crate) enum Relation {
    EvaluatedIsKeyTimesBlinded,
    BlindedIsKeyTimesEvaluated,
}

/// GenerateProof for `B = k·G` (B is `public`): the composite is
/// `Σ d_i·X_i` over the *blinded* elements `X_i`, from which both composites
/// follow without the evaluated elements (`M = Σ d_i·C_i`, `Z = k·M`, with
/// `C = X` for VOPRF, and `C = k^{-1}·X`, `M = k^{-1}·composite`,
/// `Z = composite` for POPRF).
pub(crate) fn generate_proof<G: PrimeOrderGroup>(
    context: &Context,
    relation: Relation,
    k: &G::Scalar,
    public: &G::Element,
    blinded: &BlindedElements<G>,
    evaluated: &EvaluatedElements<G>,
    nonce: &G::Scalar,
) -> Proof<G> {
    let (c_bytes, d_bytes) = match relation {
        Relation::EvaluatedIsKeyTimesBlinded => (blinded.as_bytes(), evaluated.as_bytes()),
        Relation::BlindedIsKeyTimesEvaluated => (evaluated.as_bytes(), blinded.as_bytes()),
    };
    let weights = composite_weights::<G>(context, public, c_bytes, d_bytes);
    // The blinded elements and the weights are public.
    let composite = batch::msm_vartime(&weights, blinded.received());
    // The three secret-scalar products of the proof in one batch call (one
    // batch exponentiation on FFDHE, one shared inversion when encoding on
    // ristretto255): VOPRF `Z = k·M`, POPRF `M = k^{-1}·composite`, and
    // `t2 = r·G`, `t3 = r·M` (for POPRF `(r·k^{-1})·composite`).
    let len = G::ELEMENT_LEN;
    let mut products = vec![0u8; 3 * len];
    let composite_bytes = encode_to_vec::<G>(&composite);
    let scalars = match relation {
        Relation::EvaluatedIsKeyTimesBlinded => vec![k.clone(), nonce.clone(), nonce.clone()],
        Relation::BlindedIsKeyTimesEvaluated => {
            let k_inverse = G::scalar_invert(k);
            let nonce_over_k = G::scalar_mul(nonce, &k_inverse);
            vec![k_inverse, nonce.clone(), nonce_over_k]
        }
    };
    G::mul_each_encode(
        &scalars,
        &[composite.clone(), G::generator(), composite],
        &mut products,
    );
    let (first, t2, t3) = (
        &products[..len],
        &products[len..2 * len],
        &products[2 * len..],
    );
    let (m, z) = match relation {
        Relation::EvaluatedIsKeyTimesBlinded => (&composite_bytes[..], first),
        Relation::BlindedIsKeyTimesEvaluated => (first, &composite_bytes[..]),
    };
    let public_bytes = encode_to_vec::<G>(public);
    let c = challenge::<G>(context, [&public_bytes, m, z, t2, t3]);
    let s = G::scalar_sub(nonce, &G::scalar_mul(&c, k));
    // The proof is sent: public from here on (`s` hides `k` behind the
    // nonce, as a Schnorr response does).
    G::declassify_scalars(core::slice::from_ref(&c));
    G::declassify_scalars(core::slice::from_ref(&s));
    Proof { c, s }
}

/// VerifyProof for `B = k·G` over the batch (`C`/`D` by `relation`);
/// [`Error::VerificationFailed`] unless the proof holds. Everything here is
/// public: variable-time arithmetic.
pub(crate) fn verify_proof<G: PrimeOrderGroup>(
    context: &Context,
    relation: Relation,
    public: &G::Element,
    blinded: &BlindedElements<G>,
    evaluated: &EvaluatedElements<G>,
    proof: &Proof<G>,
) -> Result<(), Error> {
    let (c, d) = match relation {
        Relation::EvaluatedIsKeyTimesBlinded => (blinded.received(), evaluated.received()),
        Relation::BlindedIsKeyTimesEvaluated => (evaluated.received(), blinded.received()),
    };
    let weights = composite_weights::<G>(context, public, c.encoded, d.encoded);
    let m = batch::msm_vartime(&weights, c);
    let z = batch::msm_vartime(&weights, d);
    let t2 = G::msm_vartime(
        &[proof.s.clone(), proof.c.clone()],
        &[G::generator(), public.clone()],
    );
    let t3 = G::msm_vartime(&[proof.s.clone(), proof.c.clone()], &[m.clone(), z.clone()]);
    let encoded: Vec<Vec<u8>> = [public, &m, &z, &t2, &t3]
        .iter()
        .map(|e| encode_to_vec::<G>(e))
        .collect();
    let expected = challenge::<G>(
        context,
        [
            &encoded[0],
            &encoded[1],
            &encoded[2],
            &encoded[3],
            &encoded[4],
        ],
    );
    if encode_scalar_to_vec::<G>(&expected) == encode_scalar_to_vec::<G>(&proof.c) {
        Ok(())
    } else {
        Err(Error::VerificationFailed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::{Ffdhe2048, Ristretto255, P256};
    use crate::oprf::{VoprfClient, VoprfServer};
    use rand_core::UnwrapErr;

    /// RFC 9497's DeserializeScalar accepts zero: a proof whose `c` or `s`
    /// is zero decodes, and is then refused by the verification itself.
    fn zero_proof_scalars_are_checked_not_rejected<G: PrimeOrderGroup>() {
        let mut rng = UnwrapErr(getrandom::SysRng);
        let server = VoprfServer::<G>::generate(&mut rng);
        let client = VoprfClient::new(server.public_key().clone()).unwrap();
        let batch = client.blind(&[b"a", b"b"], &mut rng).unwrap();
        let (evaluated, proof) = server.evaluate(batch.request(), &mut rng);
        let proof = proof.to_bytes();
        for zeroed in [0..G::SCALAR_LEN, G::SCALAR_LEN..2 * G::SCALAR_LEN] {
            let mut bytes = proof.clone();
            bytes[zeroed].fill(0);
            let decoded = Proof::<G>::from_bytes(&bytes).expect("zero is a canonical scalar");
            assert!(G::scalar_is_zero(&decoded.c) || G::scalar_is_zero(&decoded.s));
        }
        let mut bytes = proof.clone();
        bytes[G::SCALAR_LEN..].fill(0);
        let zero_s = Proof::<G>::from_bytes(&bytes).unwrap();
        assert_eq!(
            batch.finalize(&evaluated, &zero_s).err(),
            Some(Error::VerificationFailed)
        );
        // Non-canonical scalars are still refused at decoding.
        assert_eq!(
            Proof::<G>::from_bytes(&vec![0xff; Proof::<G>::LEN]).err(),
            Some(Error::InvalidScalar)
        );
    }

    #[test]
    fn zero_proof_scalars_ristretto255() {
        zero_proof_scalars_are_checked_not_rejected::<Ristretto255>();
    }

    #[test]
    fn zero_proof_scalars_p256() {
        zero_proof_scalars_are_checked_not_rejected::<P256>();
    }

    #[test]
    fn zero_proof_scalars_ffdhe2048() {
        zero_proof_scalars_are_checked_not_rejected::<Ffdhe2048>();
    }
}
