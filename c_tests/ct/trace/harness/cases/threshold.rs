//! A threshold server's evaluation with its key share (the threshold OPRF's
//! server, a blind BLS signer, an ElGamal decryption server: all three run
//! `threshold::evaluate_share`), with a quorum named, so that the share is
//! first multiplied by its public Lagrange weight.

use oblivex::group::PrimeOrderGroup;
use oblivex::threshold::{evaluate_share, lagrange_for, KeyShare, PartyId};

use super::oprf::request;
use crate::marks::traced;
use crate::variants::scalar;

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
