//! A threshold server's evaluation with its key share (the threshold OPRF's
//! server, a blind BLS signer, an ElGamal decryption server: all three run
//! `threshold::evaluate_share`), with a quorum named, so that the share is
//! first multiplied by its public Lagrange weight.

use oblivex::group::PrimeOrderGroup;
use oblivex::message::BlindedElements;
use oblivex::oblivious::Kappa;
use oblivex::oprf::{ThresholdOprfBatch, ThresholdOprfClient};
use oblivex::threshold::{deal, evaluate_share, lagrange_for, KeyShare, PartyId, Response};

use super::oprf::{inputs, request, slices};
use crate::marks::traced;
use crate::variants::{scalar, PatternRng};

const QUORUM: [PartyId; 3] = [1, 2, 4];
const ID: PartyId = 2;

/// Server `ID` of the quorum evaluates `count` elements with its share.
pub fn share_evaluation<G: PrimeOrderGroup>(count: usize, variant: usize) -> Result<(), String> {
    let request = request::<G>(count)?;
    let share = KeyShare::<G>::new(ID, scalar::<G>(variant)).map_err(|e| e.to_string())?;
    let warm = KeyShare::<G>::new(ID, scalar::<G>(0)).map_err(|e| e.to_string())?;
    drop(evaluate_share(&warm, Some(&QUORUM), &request));
    let response = traced(&request, |r| evaluate_share(&share, Some(&QUORUM), r))
        .map_err(|e| e.to_string())?;
    let weight = lagrange_for::<G>(&QUORUM, ID).map_err(|e| e.to_string())?;
    let key = G::scalar_mul(&weight, share.secret());
    let expected: Vec<G::Element> = request.elements().iter().map(|x| G::mul(x, &key)).collect();
    if response.elements() != expected.as_slice() {
        return Err("the share's evaluation differs from one-by-one products".into());
    }
    Ok(())
}

/// The threshold OPRF client checks server `ID`'s honest answer as it
/// arrives (`check_response`), its coins (factors, the balancer's
/// position) still secret: drawn from the variant's pattern.
pub fn client_check<G: PrimeOrderGroup>(count: usize, variant: usize) -> Result<(), String> {
    let err = |e: oblivex::Error| e.to_string();
    let key = G::scalar_from_u64(0x5eed);
    let (shares, commitments) =
        deal::<G, _>(&key, 2, 3, &mut PatternRng::warm_up()).map_err(err)?;
    let client = ThresholdOprfClient::new(commitments, Kappa::default());
    let owned = inputs(count, 0);
    let inputs = slices(&owned);
    let answer_of = |batch: &ThresholdOprfBatch<G>| {
        let request = BlindedElements::<G>::from_bytes(batch.request().as_bytes()).map_err(err)?;
        let answer = evaluate_share(&shares[usize::from(ID) - 1], None, &request).map_err(err)?;
        Ok::<_, String>(answer.to_bytes())
    };
    let warm = client
        .blind(&inputs, &mut PatternRng::warm_up())
        .map_err(err)?;
    let warm_answer = answer_of(&warm)?;
    let warm_response = Response {
        party: ID,
        elements: &warm_answer,
    };
    if !matches!(warm.check_response(&warm_response), Ok(true)) {
        return Err("the warm-up answer did not pass".into());
    }
    let batch = client
        .blind(&inputs, &mut PatternRng::variant(variant))
        .map_err(err)?;
    let answer = answer_of(&batch)?;
    let response = Response {
        party: ID,
        elements: &answer,
    };
    match traced(&response, |r| batch.check_response(r)) {
        Ok(true) => Ok(()),
        other => Err(format!("an honest answer did not pass: {other:?}")),
    }
}
