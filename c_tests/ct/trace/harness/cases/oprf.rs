//! The OPRF's secret paths on one group: the server's evaluation (its
//! key), a VOPRF evaluation with its proof (key and nonce), the client's
//! hashing and blinding (inputs and blinds), its unblinding and
//! finalization (blinds, inputs), and the checked client's two steps (the
//! balancer's multi-scalar multiplication with secret factors and its
//! position before sending; the check's multi-scalar multiplication, the
//! committed-key products and the unblinding after). Each step's result
//! is checked outside the region against the plain protocol.

use oblivex::group::{Ffdhe2048, PrimeOrderGroup};
use oblivex::message::{BlindedElements, EvaluatedElements};
use oblivex::mp::cut_exponents_for_trace;
use oblivex::oblivious::Kappa;
use oblivex::oprf::{
    CheckedOprfClient, KeyPair, OprfClient, OprfServer, Output, VoprfClient, VoprfServer,
};

use crate::marks::traced;
use crate::variants::{
    input_variants, pick, scalar, scalar_draw_bytes, scalar_with_sparse_bit, PatternRng,
};

/// Bytes of each private input.
const INPUT_LEN: usize = 24;

fn err(e: oblivex::Error) -> String {
    e.to_string()
}

/// `count` inputs of variant `variant`, each in its own buffer.
pub(super) fn inputs(count: usize, variant: usize) -> Vec<Vec<u8>> {
    let all = pick(&input_variants(count, INPUT_LEN), variant);
    all.chunks(INPUT_LEN).map(<[u8]>::to_vec).collect()
}

pub(super) fn slices(inputs: &[Vec<u8>]) -> Vec<&[u8]> {
    inputs.iter().map(Vec::as_slice).collect()
}

/// A public request of `count` elements, as a server receives it (decoded
/// and checked from its bytes).
pub(super) fn request<G: PrimeOrderGroup>(count: usize) -> Result<BlindedElements<G>, String> {
    let public_inputs = input_variants(count, INPUT_LEN).swap_remove(0);
    let inputs: Vec<&[u8]> = public_inputs.chunks(INPUT_LEN).collect();
    let batch = OprfClient::<G>::new()
        .blind(&inputs, &mut PatternRng::warm_up())
        .map_err(err)?;
    BlindedElements::from_bytes(batch.request().as_bytes()).map_err(err)
}

/// The server's fixed key, for the client's cases (not a client secret).
fn fixed_server<G: PrimeOrderGroup>() -> OprfServer<G> {
    OprfServer::new(KeyPair::from_secret(G::scalar_from_u64(0x5eed)))
}

fn expect_products<G: PrimeOrderGroup>(
    key: &G::Scalar,
    request: &BlindedElements<G>,
    response: &EvaluatedElements<G>,
) -> Result<(), String> {
    let expected: Vec<G::Element> = request.elements().iter().map(|x| G::mul(x, key)).collect();
    if response.elements() != expected.as_slice() {
        return Err("the evaluation differs from one-by-one products".into());
    }
    Ok(())
}

/// The server's evaluation of `count` elements under its secret key.
pub fn server_evaluation<G: PrimeOrderGroup>(count: usize, variant: usize) -> Result<(), String> {
    evaluation_under::<G>(count, scalar::<G>(variant))
}

/// FFDHE-2048's server evaluation of one element with the key's
/// exponentiation cut to its low 64 bits ([`cut_exponents_for_trace`]), as
/// the exponentiation cases' exponents are short (see their module): a
/// full 2047-bit one takes most of an hour to single-step. The sparse key
/// is `2^63`, which the cut keeps (`2^252` would become zero); the check
/// after the region uses the same cut.
pub fn ffdhe_server_evaluation(variant: usize) -> Result<(), String> {
    let cut_bits = cut_exponents_for_trace();
    let sparse_bit = u32::try_from(cut_bits - 1).expect("a small bit count");
    let key = scalar_with_sparse_bit::<Ffdhe2048>(variant, sparse_bit);
    evaluation_under::<Ffdhe2048>(1, key)
}

/// The server's evaluation of `count` elements under `key`.
fn evaluation_under<G: PrimeOrderGroup>(count: usize, key: G::Scalar) -> Result<(), String> {
    let request = request::<G>(count)?;
    let server = OprfServer::new(KeyPair::<G>::from_secret(key));
    drop(OprfServer::<G>::new(KeyPair::from_secret(scalar::<G>(0))).evaluate(&request));
    let response = traced(&request, |r| server.evaluate(r));
    expect_products(server.key().secret(), &request, &response)
}

/// A VOPRF evaluation with its proof, the proof's nonce varied. The key
/// is the same in every run: another key changes the public values the
/// proof hashes and combines in variable time by design (its composites);
/// the key's own operations are those of [`server_evaluation`] and of the
/// constant-time scalar arithmetic.
pub fn voprf_evaluation<G: PrimeOrderGroup>(count: usize, variant: usize) -> Result<(), String> {
    let request = request::<G>(count)?;
    let server = VoprfServer::new(KeyPair::<G>::from_secret(scalar::<G>(0)));
    let mut rng = PatternRng::variant(variant);
    drop(
        VoprfServer::<G>::new(KeyPair::from_secret(scalar::<G>(0)))
            .evaluate(&request, &mut PatternRng::warm_up()),
    );
    let (response, proof) = traced(&request, |r| server.evaluate(r, &mut rng));
    expect_products(server.key().secret(), &request, &response)?;
    // The proof verifies: a VOPRF client accepts the answer.
    let inputs = input_variants(count, INPUT_LEN).swap_remove(0);
    let inputs: Vec<&[u8]> = inputs.chunks(INPUT_LEN).collect();
    let client = VoprfClient::new(server.public_key().clone()).map_err(err)?;
    let batch = client
        .blind(&inputs, &mut PatternRng::warm_up())
        .map_err(err)?;
    let (answer, proof_again) = server.evaluate(batch.request(), &mut PatternRng::warm_up());
    drop(proof);
    batch.finalize(&answer, &proof_again).map_err(err)?;
    Ok(())
}

/// The outputs of the plain protocol on `inputs` under the fixed key.
fn plain_outputs<G: PrimeOrderGroup>(inputs: &[&[u8]]) -> Result<Vec<Output>, String> {
    let batch = OprfClient::<G>::new()
        .blind(inputs, &mut PatternRng::warm_up())
        .map_err(err)?;
    let response = fixed_server::<G>().evaluate(batch.request());
    batch.finalize(&response).map_err(err)
}

/// `Err(failure)` unless `outputs` are the plain protocol's on `inputs`.
fn expect_plain_outputs<G: PrimeOrderGroup>(
    outputs: &[Output],
    inputs: &[&[u8]],
    failure: &str,
) -> Result<(), String> {
    if outputs != plain_outputs::<G>(inputs)? {
        return Err(failure.into());
    }
    Ok(())
}

/// The client's hashing to the group and blinding of `count` private
/// inputs with secret blinds.
pub fn client_blind<G: PrimeOrderGroup>(count: usize, variant: usize) -> Result<(), String> {
    let owned = inputs(count, variant);
    let inputs = slices(&owned);
    let client = OprfClient::<G>::new();
    let mut rng = PatternRng::variant(variant);
    drop(client.blind(&slices(&self::inputs(count, 0)), &mut PatternRng::warm_up()));
    let batch = traced(&inputs, |i| client.blind(i, &mut rng)).map_err(err)?;
    let response = fixed_server::<G>().evaluate(batch.request());
    let outputs = batch.finalize(&response).map_err(err)?;
    expect_plain_outputs::<G>(&outputs, &inputs, "the blinded batch gives other outputs")
}

/// The client's unblinding and finalization (its blinds and inputs).
pub fn client_finalize<G: PrimeOrderGroup>(count: usize, variant: usize) -> Result<(), String> {
    let owned = inputs(count, variant);
    let inputs = slices(&owned);
    let client = OprfClient::<G>::new();
    let server = fixed_server::<G>();
    let warm = client
        .blind(&slices(&self::inputs(count, 0)), &mut PatternRng::warm_up())
        .map_err(err)?;
    let warm_response = server.evaluate(warm.request());
    drop(warm.finalize(&warm_response));
    let batch = client
        .blind(&inputs, &mut PatternRng::variant(variant))
        .map_err(err)?;
    let response = server.evaluate(batch.request());
    let outputs = traced(batch, |b| b.finalize(&response)).map_err(err)?;
    expect_plain_outputs::<G>(
        &outputs,
        &inputs,
        "the unblinded outputs differ from the plain protocol's",
    )
}

/// The checked client (committed key): hashing, blinding, the balancer's
/// secret factors, multi-scalar multiplication and position.
pub fn checked_blind<G: PrimeOrderGroup>(count: usize, variant: usize) -> Result<(), String> {
    let owned = inputs(count, variant);
    let inputs = slices(&owned);
    let server = fixed_server::<G>();
    let client = CheckedOprfClient::<G>::committed_key(server.public_key().clone(), Kappa::DEFAULT)
        .map_err(err)?;
    let mut rng = PatternRng::variant(variant);
    drop(client.blind(&slices(&self::inputs(count, 0)), &mut PatternRng::warm_up()));
    let batch = traced(&inputs, |i| client.blind(i, &mut rng)).map_err(err)?;
    let response = server.evaluate(batch.request());
    let outputs = batch.finalize(&response).map_err(err)?;
    expect_plain_outputs::<G>(&outputs, &inputs, "the checked batch gives other outputs")
}

/// The checked client's check of the answer, its unblinding and
/// finalization, with the inputs and blinds varied. The check's coins
/// (factors, position, the committed-key modifier) are the same in every
/// run: the check runs once the whole answer is in, when they are spent
/// and public by design (`Request::spend_coins`), in variable time.
pub fn checked_finalize<G: PrimeOrderGroup>(count: usize, variant: usize) -> Result<(), String> {
    let owned = inputs(count, variant);
    let inputs = slices(&owned);
    let server = fixed_server::<G>();
    let client = CheckedOprfClient::<G>::committed_key(server.public_key().clone(), Kappa::DEFAULT)
        .map_err(err)?;
    let warm = client
        .blind(&slices(&self::inputs(count, 0)), &mut PatternRng::warm_up())
        .map_err(err)?;
    let warm_response = server.evaluate(warm.request());
    drop(warm.finalize(&warm_response));
    let blinds = count * scalar_draw_bytes::<G>();
    let batch = client
        .blind(
            &inputs,
            &mut PatternRng::variant_then_shared(variant, blinds),
        )
        .map_err(err)?;
    let response = server.evaluate(batch.request());
    let outputs = traced(batch, |b| b.finalize(&response)).map_err(err)?;
    expect_plain_outputs::<G>(
        &outputs,
        &inputs,
        "the checked outputs differ from the plain protocol's",
    )
}
