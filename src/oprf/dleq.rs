//! The batched discrete-log-equality proof of RFC 9497 §2.2 (VOPRF and
//! POPRF): the server shows that every `D_i = k·C_i` for the `k` with
//! `B = k·A`, by a Chaum–Pedersen proof on one random linear combination
//! (ComputeComposites). The composites are one multi-scalar multiplication,
//! not `n` separate ones.

use rand_core::CryptoRng;
use zeroize::Zeroize;

use super::context::Context;
use crate::group::{encode_to_vec, PrimeOrderGroup};
use crate::Error;

/// A proof `(c, s)`; encoded as `SerializeScalar(c) || SerializeScalar(s)`.
pub struct Proof<G: PrimeOrderGroup> {
    /// The challenge.
    pub c: G::Scalar,
    /// The response.
    pub s: G::Scalar,
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

    /// `c || s`.
    pub fn encode(&self, out: &mut [u8]) {
        let (c, s) = out.split_at_mut(G::SCALAR_LEN);
        G::encode_scalar(&self.c, c);
        G::encode_scalar(&self.s, s);
    }

    /// Decodes `c || s`, each a canonical scalar. Zero is accepted, as
    /// RFC 9497's `DeserializeScalar` accepts it: an honest proof has
    /// `c = 0` or `s = 0` with probability about 2/q, and such a proof
    /// verifies like any other.
    pub fn decode(bytes: &[u8]) -> Result<Self, Error> {
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

/// GenerateProof for `B = k·G` (B is `public`): `composite` is
/// `Σ d_i·X_i` over the *blinded* elements `X_i`, from which both composites
/// follow without the evaluated elements (`M = Σ d_i·C_i`, `Z = k·M`, with
/// `C = X` for VOPRF, and `C = k^{-1}·X`, `M = k^{-1}·composite`,
/// `Z = composite` for POPRF). `blinded`/`evaluated` are the encodings.
#[allow(clippy::too_many_arguments)]
pub(crate) fn generate_proof<G: PrimeOrderGroup>(
    context: &Context,
    relation: Relation,
    k: &G::Scalar,
    public: &G::Element,
    blinded: &[G::Element],
    blinded_bytes: &[u8],
    evaluated_bytes: &[u8],
    nonce: &G::Scalar,
) -> Proof<G> {
    let (c_bytes, d_bytes) = match relation {
        Relation::EvaluatedIsKeyTimesBlinded => (blinded_bytes, evaluated_bytes),
        Relation::BlindedIsKeyTimesEvaluated => (evaluated_bytes, blinded_bytes),
    };
    let weights = composite_weights::<G>(context, public, c_bytes, d_bytes);
    let composite = G::msm_vartime(&weights, blinded); // blinded elements and weights are public
                                                       // The three secret-scalar products of the proof in one batch call (one
                                                       // batch exponentiation on FFDHE, one shared inversion when encoding on
                                                       // ristretto255): VOPRF `Z = k·M`, POPRF `M = k^{-1}·composite`, and
                                                       // `t2 = r·G`, `t3 = r·M` (for POPRF `(r·k^{-1})·composite`).
    let len = G::ELEMENT_LEN;
    let mut products = vec![0u8; 3 * len];
    let mut composite_bytes = vec![0u8; len];
    G::encode(&composite, &mut composite_bytes);
    let mut scalars = match relation {
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
    scalars.iter_mut().for_each(Zeroize::zeroize);
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
    let mut ck = G::scalar_mul(&c, k);
    let s = G::scalar_sub(nonce, &ck);
    ck.zeroize();
    Proof { c, s }
}

/// GenerateProof with a fresh random nonce.
#[allow(clippy::too_many_arguments)]
pub(crate) fn generate_proof_random<G: PrimeOrderGroup, R: CryptoRng + ?Sized>(
    context: &Context,
    relation: Relation,
    k: &G::Scalar,
    public: &G::Element,
    blinded: &[G::Element],
    blinded_bytes: &[u8],
    evaluated_bytes: &[u8],
    rng: &mut R,
) -> Proof<G> {
    let mut nonce = G::random_scalar(rng);
    let proof = generate_proof::<G>(
        context,
        relation,
        k,
        public,
        blinded,
        blinded_bytes,
        evaluated_bytes,
        &nonce,
    );
    nonce.zeroize();
    proof
}

/// VerifyProof for `B = k·G` over the batch (`C`/`D` by `relation`);
/// [`Error::VerificationFailed`] unless the proof holds. Everything here is
/// public: variable-time arithmetic.
#[allow(clippy::too_many_arguments)]
pub(crate) fn verify_proof<G: PrimeOrderGroup>(
    context: &Context,
    relation: Relation,
    public: &G::Element,
    blinded: &[G::Element],
    blinded_bytes: &[u8],
    evaluated: &[G::Element],
    evaluated_bytes: &[u8],
    proof: &Proof<G>,
) -> Result<(), Error> {
    let (c_elements, c_bytes, d_elements, d_bytes) = match relation {
        Relation::EvaluatedIsKeyTimesBlinded => {
            (blinded, blinded_bytes, evaluated, evaluated_bytes)
        }
        Relation::BlindedIsKeyTimesEvaluated => {
            (evaluated, evaluated_bytes, blinded, blinded_bytes)
        }
    };
    let weights = composite_weights::<G>(context, public, c_bytes, d_bytes);
    let m = G::msm_vartime(&weights, c_elements);
    let z = G::msm_vartime(&weights, d_elements);
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
    let mut expected_bytes = vec![0u8; G::SCALAR_LEN];
    let mut c_bytes = vec![0u8; G::SCALAR_LEN];
    G::encode_scalar(&expected, &mut expected_bytes);
    G::encode_scalar(&proof.c, &mut c_bytes);
    if expected_bytes == c_bytes {
        Ok(())
    } else {
        Err(Error::VerificationFailed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::{Ffdhe2048, Ristretto255, P256};
    use crate::oprf::{ClientBatch, KeyPair, Mode, Server};
    use rand_core::UnwrapErr;

    /// RFC 9497's DeserializeScalar accepts zero: a proof whose `c` or `s`
    /// is zero decodes, and is then refused by the verification itself.
    fn zero_proof_scalars_are_checked_not_rejected<G: PrimeOrderGroup>() {
        let mut rng = UnwrapErr(getrandom::SysRng);
        let server = Server::new(Mode::Voprf, KeyPair::<G>::generate(&mut rng));
        let inputs: [&[u8]; 2] = [b"a", b"b"];
        let public = server.key().public_key().clone();
        let mut evaluated = vec![0u8; 2 * G::ELEMENT_LEN];
        let honest = {
            let client =
                ClientBatch::<G>::blind(Mode::Voprf, &inputs, b"", Some(&public), &mut rng)
                    .unwrap();
            let proof = server
                .blind_evaluate(client.blinded_elements(), b"", &mut evaluated, &mut rng)
                .unwrap()
                .unwrap();
            let mut bytes = vec![0u8; Proof::<G>::LEN];
            proof.encode(&mut bytes);
            (client, bytes)
        };
        let (client, proof) = honest;
        for zeroed in [0..G::SCALAR_LEN, G::SCALAR_LEN..2 * G::SCALAR_LEN] {
            let mut bytes = proof.clone();
            bytes[zeroed].fill(0);
            let decoded = Proof::<G>::decode(&bytes).expect("zero is a canonical scalar");
            assert!(G::scalar_is_zero(&decoded.c) || G::scalar_is_zero(&decoded.s));
        }
        let mut bytes = proof.clone();
        bytes[G::SCALAR_LEN..].fill(0);
        let zero_s = Proof::<G>::decode(&bytes).unwrap();
        assert_eq!(
            client.finalize(&evaluated, Some(&zero_s)).err(),
            Some(Error::VerificationFailed)
        );
        // Non-canonical scalars are still refused at decoding.
        assert_eq!(
            Proof::<G>::decode(&vec![0xff; Proof::<G>::LEN]).err(),
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
