//! The malicious-server batch check against cheating
//! servers: every strategy is a test named `cheating_*` (`cargo test
//! --release cheating_` runs them all), run on every group, with both checks
//! where the strategy applies, over several batches of random sizes, with
//! κ = 64. Honest servers must always pass, the checked OPRF must give the
//! semi-honest outputs, and with κ = 4 a single compensated cheat must pass
//! about once in 16 trials (the 2^-κ bound is tight, not vacuous).

use num_bigint::BigUint;
use oblivex::group::{encode_to_vec, Bls12381G1, Ffdhe2048, PrimeOrderGroup, Ristretto255, P256};
use oblivex::message::{BlindedElements, EvaluatedElements};
use oblivex::oblivious::{Check, Kappa};
use oblivex::oprf::{CheckedOprfClient, OprfClient, OprfServer};
use oblivex::Error;
use rand_core::{Rng, UnwrapErr};

fn rng() -> UnwrapErr<getrandom::SysRng> {
    UnwrapErr(getrandom::SysRng)
}

fn below(bound: usize) -> usize {
    (rng().next_u64() % bound as u64) as usize
}

/// Group-specific encodings a cheater might send.
trait Suite: PrimeOrderGroup {
    /// Batches per strategy, check and group (the slow groups run fewer).
    const TRIALS: usize;
    /// A non-canonical or malformed encoding derived from a valid one.
    fn non_canonical(valid: &[u8]) -> Vec<u8>;
    /// A well-formed encoding of something outside the prime-order group.
    fn outside_group(valid: &[u8]) -> Vec<u8>;
}

impl Suite for Ristretto255 {
    const TRIALS: usize = 12;
    /// `p - s`: the same point's negative (odd) field encoding, which
    /// RFC 9496 decoding rejects.
    fn non_canonical(valid: &[u8]) -> Vec<u8> {
        let p = (BigUint::from(1u32) << 255u32) - 19u32;
        let s = BigUint::from_bytes_le(valid);
        let mut bytes = (p - s).to_bytes_le();
        bytes.resize(32, 0);
        bytes
    }
    /// A field element that is not the encoding of any point.
    fn outside_group(_: &[u8]) -> Vec<u8> {
        (2u8..)
            .step_by(2)
            .map(|s| {
                let mut b = vec![0u8; 32];
                b[0] = s;
                b
            })
            .find(|b| Ristretto255::decode(b).is_err())
            .unwrap()
    }
}

impl Suite for P256 {
    const TRIALS: usize = 6;
    /// The uncompressed tag on a compressed-length encoding.
    fn non_canonical(valid: &[u8]) -> Vec<u8> {
        let mut b = valid.to_vec();
        b[0] = 0x04;
        b
    }
    /// An x with no curve point.
    fn outside_group(_: &[u8]) -> Vec<u8> {
        (1u8..)
            .map(|x| {
                let mut b = vec![0u8; 33];
                b[0] = 0x02;
                b[32] = x;
                b
            })
            .find(|b| P256::decode(b).is_err())
            .unwrap()
    }
}

impl Suite for Bls12381G1 {
    const TRIALS: usize = 6;
    /// The compression flag cleared.
    fn non_canonical(valid: &[u8]) -> Vec<u8> {
        let mut b = valid.to_vec();
        b[0] &= 0x7f;
        b
    }
    /// A curve point outside the order-r subgroup (small-order component).
    fn outside_group(_: &[u8]) -> Vec<u8> {
        (1u8..=255)
            .map(|x| {
                let mut c = vec![0u8; 48];
                c[0] = 0x80;
                c[47] = x;
                c
            })
            .find(|c| {
                let mut affine = blst::blst_p1_affine::default();
                // SAFETY: `c` holds 48 bytes.
                let ok = unsafe { blst::blst_p1_uncompress(&mut affine, c.as_ptr()) }
                    == blst::BLST_ERROR::BLST_SUCCESS;
                // SAFETY: `affine` is initialised.
                ok && !unsafe { blst::blst_p1_affine_in_g1(&affine) }
            })
            .unwrap()
    }
}

impl Suite for Ffdhe2048 {
    const TRIALS: usize = 2;
    /// A value at or above p (the encoding is fixed-width, so `y + p`
    /// itself does not fit).
    fn non_canonical(_: &[u8]) -> Vec<u8> {
        vec![0xff; Self::ELEMENT_LEN]
    }
    /// `p - y`: a non-residue (−1 is one modulo a safe prime), outside the
    /// order-q subgroup.
    fn outside_group(valid: &[u8]) -> Vec<u8> {
        let y = BigUint::from_bytes_be(valid);
        let p = ffdhe2048_p();
        let b = (&p - y).to_bytes_be();
        [vec![0u8; Self::ELEMENT_LEN - b.len()], b].concat()
    }
}

fn ffdhe2048_p() -> BigUint {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/vectors/ffdhe.json"
    ))
    .unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    BigUint::parse_bytes(
        json["groups"]["ffdhe2048"]["p"]
            .as_str()
            .unwrap()
            .as_bytes(),
        16,
    )
    .unwrap()
}

/// What a cheater sees and can use: the honest server, another key, the
/// request.
struct Scene<'a, G: PrimeOrderGroup> {
    server: &'a OprfServer<G>,
    other: &'a OprfServer<G>,
    request: &'a BlindedElements<G>,
}

impl<G: PrimeOrderGroup> Scene<'_, G> {
    fn slots(&self) -> usize {
        self.request.len()
    }
    fn honest(&self) -> Vec<u8> {
        self.server.evaluate(self.request).to_bytes()
    }
    fn answer(response: &[u8], slot: usize) -> G::Element {
        G::decode(&response[slot * G::ELEMENT_LEN..][..G::ELEMENT_LEN]).unwrap()
    }
    fn set(response: &mut [u8], slot: usize, element: &G::Element) {
        G::encode(
            element,
            &mut response[slot * G::ELEMENT_LEN..][..G::ELEMENT_LEN],
        );
    }
    fn set_bytes(response: &mut [u8], slot: usize, bytes: &[u8]) {
        response[slot * G::ELEMENT_LEN..][..G::ELEMENT_LEN].copy_from_slice(bytes);
    }
    fn random_element() -> G::Element {
        G::mul_base(&G::random_scalar(&mut rng()))
    }
}

/// The client of `check` for `server`'s key.
fn client<G: PrimeOrderGroup>(
    check: Check,
    kappa: Kappa,
    server: &OprfServer<G>,
) -> CheckedOprfClient<G> {
    match check {
        Check::CommittedKey => {
            CheckedOprfClient::committed_key(server.public_key().clone(), kappa).unwrap()
        }
        Check::KeyFree => CheckedOprfClient::key_free(kappa),
    }
}

/// One checked OPRF batch of `n` random inputs whose answer `cheat` forges
/// (as bytes, decoded by the client as it would be off the wire).
fn batch<G: PrimeOrderGroup>(
    check: Check,
    kappa: Kappa,
    n: usize,
    server: &OprfServer<G>,
    other: &OprfServer<G>,
    cheat: &dyn Fn(&Scene<G>) -> Vec<u8>,
) -> Result<Vec<Vec<u8>>, Error> {
    let inputs: Vec<Vec<u8>> = (0..n)
        .map(|_| rng().next_u64().to_le_bytes().to_vec())
        .collect();
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let batch = client(check, kappa, server)
        .blind(&refs, &mut rng())
        .unwrap();
    let scene = Scene {
        server,
        other,
        request: batch.request(),
    };
    let response = EvaluatedElements::from_bytes(&cheat(&scene))?;
    batch
        .finalize(&response)
        .map(|outputs| outputs.iter().map(|o| o.to_vec()).collect())
}

/// Runs `cheat` on `G` over `G::TRIALS` batches per check and checks each
/// outcome with `expect(check, result)`.
fn run_on<G: Suite>(
    cheat: &dyn Fn(&Scene<G>) -> Vec<u8>,
    expect: &dyn Fn(Check, Result<Vec<Vec<u8>>, Error>),
) {
    let server = OprfServer::<G>::generate(&mut rng());
    let other = OprfServer::<G>::generate(&mut rng());
    for check in [Check::CommittedKey, Check::KeyFree] {
        for _ in 0..G::TRIALS {
            let n = 1 + below(6);
            expect(
                check,
                batch(check, Kappa::DEFAULT, n, &server, &other, cheat),
            );
        }
    }
}

macro_rules! on_every_group {
    ($cheat:ident, $expect:expr) => {
        run_on::<Ristretto255>(&$cheat::<Ristretto255>, &$expect);
        run_on::<P256>(&$cheat::<P256>, &$expect);
        run_on::<Bls12381G1>(&$cheat::<Bls12381G1>, &$expect);
        run_on::<Ffdhe2048>(&$cheat::<Ffdhe2048>, &$expect);
    };
}

fn rejected_as(expected: Error) -> impl Fn(Check, Result<Vec<Vec<u8>>, Error>) {
    move |check, result| {
        assert_eq!(result.err(), Some(expected), "{check:?}");
    }
}

/// Committed-key check rejects; the key-free check, by design, accepts a
/// consistent change of key (documented as its weaker guarantee).
fn rejected_unless_key_free(check: Check, result: Result<Vec<Vec<u8>>, Error>) {
    match check {
        Check::CommittedKey => assert_eq!(result.err(), Some(Error::VerificationFailed)),
        Check::KeyFree => assert!(result.is_ok()),
    }
}

fn wrong_key_on_one<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    let mut response = scene.honest();
    let slot = below(scene.slots());
    let len = G::ELEMENT_LEN;
    let one = BlindedElements::from_bytes(&scene.request.as_bytes()[slot * len..][..len]).unwrap();
    Scene::<G>::set_bytes(&mut response, slot, scene.other.evaluate(&one).as_bytes());
    response
}

#[test]
fn cheating_wrong_key_on_one_element() {
    on_every_group!(wrong_key_on_one, rejected_as(Error::VerificationFailed));
}

fn wrong_key_on_all<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    scene.other.evaluate(scene.request).to_bytes()
}

#[test]
fn cheating_wrong_key_on_every_element() {
    on_every_group!(wrong_key_on_all, rejected_unless_key_free);
}

fn random_answer<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    let mut response = scene.honest();
    Scene::<G>::set(
        &mut response,
        below(scene.slots()),
        &Scene::<G>::random_element(),
    );
    response
}

#[test]
fn cheating_random_element_in_place_of_one_answer() {
    on_every_group!(random_answer, rejected_as(Error::VerificationFailed));
}

fn identity_answer<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    let mut response = scene.honest();
    Scene::<G>::set_bytes(
        &mut response,
        below(scene.slots()),
        &encode_to_vec::<G>(&G::identity()),
    );
    response
}

#[test]
fn cheating_identity_as_an_answer() {
    on_every_group!(identity_answer, rejected_as(Error::InvalidElement));
}

fn swapped<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    let mut response = scene.honest();
    let a = below(scene.slots());
    let b = (a + 1 + below(scene.slots() - 1)) % scene.slots();
    let (ya, yb) = (
        Scene::<G>::answer(&response, a),
        Scene::<G>::answer(&response, b),
    );
    Scene::<G>::set(&mut response, a, &yb);
    Scene::<G>::set(&mut response, b, &ya);
    response
}

#[test]
fn cheating_two_answers_swapped() {
    on_every_group!(swapped, rejected_as(Error::VerificationFailed));
}

/// `Y_a + E` and `Y_b − E` for a random `E`: passes only if `d_a = d_b`.
fn compensated<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    let mut response = scene.honest();
    let a = below(scene.slots());
    let b = (a + 1 + below(scene.slots() - 1)) % scene.slots();
    let e = Scene::<G>::random_element();
    let ya = G::add(&Scene::<G>::answer(&response, a), &e);
    let yb = G::add(&Scene::<G>::answer(&response, b), &G::neg(&e));
    Scene::<G>::set(&mut response, a, &ya);
    Scene::<G>::set(&mut response, b, &yb);
    response
}

#[test]
fn cheating_compensating_errors_on_two_answers() {
    on_every_group!(compensated, rejected_as(Error::VerificationFailed));
}

fn scaled<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    let honest = scene.honest();
    let c = G::random_scalar(&mut rng());
    let answers = G::decode_batch(&honest).unwrap();
    let mut response = vec![0u8; honest.len()];
    G::encode_batch(&G::mul_batch(&c, &answers), &mut response);
    response
}

#[test]
fn cheating_every_answer_scaled_by_one_factor() {
    on_every_group!(scaled, rejected_unless_key_free);
}

/// An honest answer from an earlier batch of the same client inputs' kind,
/// replayed into one slot.
fn replayed<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    let earlier_batch = client(Check::CommittedKey, Kappa::DEFAULT, scene.server)
        .blind(&[b"an earlier input"], &mut rng())
        .unwrap();
    let earlier = Scene {
        server: scene.server,
        other: scene.other,
        request: earlier_batch.request(),
    }
    .honest();
    let mut response = scene.honest();
    let slot = below(scene.slots());
    Scene::<G>::set_bytes(
        &mut response,
        slot,
        &earlier[below(earlier.len() / G::ELEMENT_LEN) * G::ELEMENT_LEN..][..G::ELEMENT_LEN],
    );
    response
}

#[test]
fn cheating_answer_replayed_from_an_earlier_batch() {
    on_every_group!(replayed, rejected_as(Error::VerificationFailed));
}

/// The server corrupts one answer and recomputes a guessed balancer's
/// answer to satisfy the relation it would have with all factors equal:
/// the balancer is `Σ X_i` (key-free) or compensates the error.
fn balancer_recomputed<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    let mut response = scene.honest();
    let slots = scene.slots();
    let guess = below(slots);
    let victim = (guess + 1 + below(slots - 1)) % slots;
    let forged = Scene::<G>::random_element();
    Scene::<G>::set(&mut response, victim, &forged);
    let sum = (0..slots)
        .filter(|&i| i != guess)
        .map(|i| Scene::<G>::answer(&response, i))
        .fold(G::identity(), |acc, y| G::add(&acc, &y));
    if !G::is_identity(&sum) {
        Scene::<G>::set(&mut response, guess, &sum);
    }
    response
}

#[test]
fn cheating_balancer_answer_recomputed_for_a_guessed_relation() {
    on_every_group!(balancer_recomputed, rejected_as(Error::VerificationFailed));
}

fn truncated<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    let mut response = scene.honest();
    if below(2) == 0 {
        response.truncate(response.len() - G::ELEMENT_LEN);
    } else {
        response.pop();
    }
    response
}

#[test]
fn cheating_truncated_response() {
    on_every_group!(truncated, rejected_as(Error::BadLength));
}

fn extended<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    let mut response = scene.honest();
    let extra = Scene::<G>::random_element();
    response.extend(encode_to_vec::<G>(&extra));
    response
}

#[test]
fn cheating_extended_response() {
    on_every_group!(extended, rejected_as(Error::BadLength));
}

fn non_canonical<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    let mut response = scene.honest();
    let slot = below(scene.slots());
    let bad = G::non_canonical(&response[slot * G::ELEMENT_LEN..][..G::ELEMENT_LEN]);
    Scene::<G>::set_bytes(&mut response, slot, &bad);
    response
}

#[test]
fn cheating_non_canonical_encoding() {
    on_every_group!(non_canonical, rejected_as(Error::InvalidElement));
}

fn outside_group<G: Suite>(scene: &Scene<G>) -> Vec<u8> {
    let mut response = scene.honest();
    let slot = below(scene.slots());
    let bad = G::outside_group(&response[slot * G::ELEMENT_LEN..][..G::ELEMENT_LEN]);
    Scene::<G>::set_bytes(&mut response, slot, &bad);
    response
}

#[test]
fn cheating_answer_outside_the_prime_order_group() {
    on_every_group!(outside_group, rejected_as(Error::InvalidElement));
}

/// Honest servers are never rejected, and the outputs equal the
/// semi-honest OPRF's under the same key.
fn honest_trials<G: PrimeOrderGroup>(trials: usize) {
    let server = OprfServer::<G>::generate(&mut rng());
    for trial in 0..trials {
        let check = if trial % 2 == 0 {
            Check::CommittedKey
        } else {
            Check::KeyFree
        };
        let n = 1 + below(8);
        let inputs: Vec<Vec<u8>> = (0..n)
            .map(|i| format!("{trial}/{i}").into_bytes())
            .collect();
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let batch = client(check, Kappa::DEFAULT, &server)
            .blind(&refs, &mut rng())
            .unwrap();
        let response = server.evaluate(batch.request());
        let outputs = batch
            .finalize(&response)
            .unwrap_or_else(|e| panic!("{} honest trial {trial} rejected: {e:?}", G::SUITE_ID));
        if trial % 25 == 0 {
            let plain = OprfClient::<G>::new().blind(&refs, &mut rng()).unwrap();
            let evaluated = server.evaluate(plain.request());
            assert_eq!(plain.finalize(&evaluated).unwrap(), outputs);
        }
    }
}

#[test]
fn honest_servers_always_pass_with_semi_honest_outputs() {
    honest_trials::<Ristretto255>(2000);
    honest_trials::<P256>(400);
    honest_trials::<Bls12381G1>(400);
    honest_trials::<Ffdhe2048>(50);
}

/// The committed-key client blinds additively where the group's engine
/// has fixed-base tables (P-256 on IFMA and AVX2) and multiplicatively
/// elsewhere: at every length around a vector's and a pass's edges (the
/// balancer adds one element) its outputs are the semi-honest client's.
#[test]
fn committed_key_outputs_are_the_semi_honest_outputs_at_every_length() {
    fn outputs_agree<G: PrimeOrderGroup>(lengths: impl Iterator<Item = usize>) {
        let server = OprfServer::<G>::generate(&mut rng());
        let checked = client(Check::CommittedKey, Kappa::DEFAULT, &server);
        for n in lengths {
            let inputs: Vec<Vec<u8>> = (0..n).map(|i| format!("{n}/{i}").into_bytes()).collect();
            let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
            let batch = checked.blind(&refs, &mut rng()).unwrap();
            let response = server.evaluate(batch.request());
            let outputs = batch.finalize(&response).unwrap();
            let plain = OprfClient::<G>::new().blind(&refs, &mut rng()).unwrap();
            let response = server.evaluate(plain.request());
            let expected = plain.finalize(&response).unwrap();
            assert_eq!(outputs, expected, "{} n = {n}", G::SUITE_ID);
        }
    }
    outputs_agree::<P256>((1..=17).chain([23, 24, 25, 255, 256, 257, 300]));
    outputs_agree::<Ristretto255>([1, 7, 8, 9, 16].into_iter());
}

/// With κ = 4 a compensated cheat (`+E` on one answer, `−E` on another)
/// passes exactly when the two factors agree: probability 1/16.
#[test]
fn kappa_4_acceptance_rate_is_close_to_the_bound() {
    type G = Ristretto255;
    let server = OprfServer::<G>::generate(&mut rng());
    let other = OprfServer::<G>::generate(&mut rng());
    let trials = 3000;
    let accepted = (0..trials)
        .filter(|_| {
            batch(
                Check::CommittedKey,
                Kappa::insecure_for_tests(4),
                3,
                &server,
                &other,
                &compensated::<G>,
            )
            .is_ok()
        })
        .count();
    // Expected 187.5, standard deviation 13.3: five deviations either way.
    assert!(
        (121..=254).contains(&accepted),
        "{accepted} of {trials} accepted, expected about {}",
        trials / 16
    );
}

#[test]
fn every_batch_draws_fresh_coins() {
    type G = Ristretto255;
    let inputs: [&[u8]; 2] = [b"a", b"b"];
    let server = OprfServer::<G>::generate(&mut rng());
    let key_free = client(Check::KeyFree, Kappa::DEFAULT, &server);
    let first = key_free.blind(&inputs, &mut rng()).unwrap();
    let second = key_free.blind(&inputs, &mut rng()).unwrap();
    assert_ne!(first.request(), second.request());
    // Key-free padding: the secret factors, (n + padding)·κ, reach 256 bits.
    assert_eq!(first.request().len(), 5);
    let kappa_32 = client(Check::KeyFree, Kappa::new(32).unwrap(), &server);
    assert_eq!(
        kappa_32.blind(&inputs, &mut rng()).unwrap().request().len(),
        9
    );
    let committed = client(Check::CommittedKey, Kappa::DEFAULT, &server);
    assert_eq!(
        committed
            .blind(&inputs, &mut rng())
            .unwrap()
            .request()
            .len(),
        3
    );
}

#[test]
fn committed_key_check_needs_a_valid_key() {
    assert_eq!(
        CheckedOprfClient::<Ristretto255>::committed_key(Ristretto255::identity(), Kappa::DEFAULT)
            .err(),
        Some(Error::InvalidElement)
    );
}
