//! One oblivious batch exponentiation with the balancer check: the request
//! the client sends (its elements plus the balancer) and the verification
//! of the server's answer (docs/PROTOCOLS.md §3).

use rand_core::CryptoRng;
use zeroize::Zeroize;

use super::secrets::{place_balancer, place_factor, sample_below, sample_factor, sample_factors};
use super::{Check, Kappa};
use crate::group::batch::{self, ReceivedBatch};
use crate::group::{PrimeOrderGroup, ShortScalar};
use crate::message::{BlindedElements, EvaluatedElements, MAX_BATCH};
use crate::Error;

/// The key-free check pads the batch with random elements until the
/// secret factors together have this many bits: `(sent − 1)·κ ≥ 256`. The
/// balancer's own coefficient is the public 1, so only the other elements'
/// factors are secret; with fewer secret bits a server could search for the
/// relation (a kangaroo search costs about the square root of its size)
/// and then choose the outputs.
const KEY_FREE_MIN_SECRET_BITS: u32 = 256;

/// A batch of elements to be raised to a server's secret key, with the
/// balancer that lets the client check the answer. Holds the client's secret
/// coins (verification factors, the committed-key modifier `s`, the
/// balancer's position), wiped on drop; it cannot be cloned, and
/// [`Request::verify`] consumes it, so coins are never reused.
pub struct Request<G: PrimeOrderGroup> {
    kappa: Kappa,
    /// The server's commitment `C = k·B` (committed-key check), or `None`
    /// (key-free check).
    key: Option<G::Element>,
    /// How many of the caller's elements lead the batch (the rest of the
    /// non-balancer elements are padding).
    count: usize,
    /// `d_i` for the non-balancer elements, in their order.
    factors: Vec<ShortScalar>,
    /// `d` of the balancer (committed-key check; 1 for key-free).
    balancer_factor: ShortScalar,
    /// `s` (committed-key check only).
    modifier: Option<G::Scalar>,
    /// The balancer's slot in the elements sent.
    position: usize,
    /// The elements sent: the caller's and padding, in order, with the
    /// balancer at `position`.
    sent: BlindedElements<G>,
}

impl<G: PrimeOrderGroup> Drop for Request<G> {
    fn drop(&mut self) {
        self.factors.iter_mut().for_each(Zeroize::zeroize);
        self.balancer_factor.zeroize();
        self.position.zeroize();
    }
}

impl<G: PrimeOrderGroup> core::fmt::Debug for Request<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Request")
            .field("group", &G::SUITE_ID)
            .field("check", &self.check())
            .field("kappa", &self.kappa.bits())
            .field("count", &self.count)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> Request<G> {
    /// A request checked against the server's commitment `public_key`
    /// (`C = k·B`): fresh factors and modifier, the balancer at a uniformly
    /// random position. [`Error::InvalidElement`] if the key is the
    /// identity, [`Error::BadLength`] if the request would exceed
    /// [`MAX_BATCH`] elements.
    pub fn committed_key<R: CryptoRng + ?Sized>(
        elements: &BlindedElements<G>,
        public_key: &G::Element,
        kappa: Kappa,
        rng: &mut R,
    ) -> Result<Self, Error> {
        if G::is_identity(public_key) {
            return Err(Error::InvalidElement);
        }
        Self::new(elements, Some(public_key.clone()), kappa, rng)
    }

    /// A request checked without any public key (one key, whichever, for
    /// the whole batch): fresh factors, random padding elements up to 256
    /// secret bits ([`request_len`]), the balancer at a uniformly random
    /// position. [`Error::BadLength`] if the request would exceed
    /// [`MAX_BATCH`] elements.
    pub fn key_free<R: CryptoRng + ?Sized>(
        elements: &BlindedElements<G>,
        kappa: Kappa,
        rng: &mut R,
    ) -> Result<Self, Error> {
        Self::new(elements, None, kappa, rng)
    }

    fn new<R: CryptoRng + ?Sized>(
        elements: &BlindedElements<G>,
        key: Option<G::Element>,
        kappa: Kappa,
        rng: &mut R,
    ) -> Result<Self, Error> {
        let check = if key.is_some() {
            Check::CommittedKey
        } else {
            Check::KeyFree
        };
        let count = elements.len();
        if request_len(check, kappa, count) > MAX_BATCH {
            return Err(Error::BadLength);
        }
        let (padding, padding_bytes) = padding::<G, R>(check, kappa, count, rng);
        // The elements where the caller's are decoded (a group may have
        // computed their encodings only, and then works from those).
        let all: Option<Vec<G::Element>> = elements
            .decoded()
            .map(|decoded| decoded.iter().chain(&padding).cloned().collect());
        let others = [elements.as_bytes(), &padding_bytes].concat();
        let others_count = count + padding.len();

        let bits = kappa.factor_bits();
        let factors = sample_factors(kappa, others_count, rng);
        // Σ d_i·X_i with the secret factors: constant time.
        // The engine's points of the caller's elements serve when no
        // padding follows them.
        let batch = ReceivedBatch {
            encoded: &others,
            elements: all.as_deref(),
            lanes: elements.received().lanes.filter(|_| padding.is_empty()),
        };
        let sum = batch::msm_short_ct(&factors, batch, bits);
        let (balancer, balancer_factor, modifier) = match check {
            Check::CommittedKey => {
                // X = d^{-1}·(s·B − Σ d_i·X_i): uniform, since s·B is.
                // Computed as (s/d)·B + (−1/d)·Σ: both products in one
                // batch call (one batch exponentiation on FFDHE, where a
                // negation would cost an inversion).
                let d = sample_factor(kappa, rng);
                let s = G::random_scalar(rng);
                let d_inverse = G::scalar_invert(&d.to_scalar::<G>());
                let scalars = [
                    G::scalar_mul(&s, &d_inverse),
                    G::scalar_sub(&G::scalar_from_u64(0), &d_inverse),
                ];
                let products = G::mul_each(&scalars, &[G::generator(), sum.clone()]);
                let balancer = G::add(&products[0], &products[1]);
                (balancer, d, Some(s))
            }
            Check::KeyFree => (sum.clone(), ShortScalar::from_parts(1, false), None),
        };
        // The balancer is sent: public from here.
        G::declassify_elements(core::slice::from_ref(&balancer));
        if G::is_identity(&balancer) {
            // Probability about 1/q: the relation would be visible. Start
            // again with fresh coins.
            return Self::new(elements, key, kappa, rng);
        }
        let position = sample_below(others_count + 1, rng);
        let sent = place_balancer::<G>(all.as_deref(), &others, &balancer, position);
        // The request is sent: public from here (the position stays
        // secret: every slot holds a uniform-looking element).
        if let Some(elements) = sent.decoded() {
            G::declassify_elements(elements);
        }
        crate::secret_marks::declassify(sent.as_bytes());
        Ok(Request {
            kappa,
            key,
            count,
            factors,
            balancer_factor,
            modifier,
            position,
            sent,
        })
    }

    /// The elements to send to the server ([`Request::len`] of them).
    pub fn message(&self) -> &BlindedElements<G> {
        &self.sent
    }

    /// The number of elements sent: the caller's, the padding, the balancer.
    pub fn len(&self) -> usize {
        self.sent.len()
    }

    /// Never true: a request holds at least one element and the balancer.
    pub fn is_empty(&self) -> bool {
        self.sent.is_empty()
    }

    /// The check this request was built for.
    pub fn check(&self) -> Check {
        if self.key.is_some() {
            Check::CommittedKey
        } else {
            Check::KeyFree
        }
    }

    /// Checks the server's answer (each element the server's key applied to
    /// the element sent in that slot) and returns the answers for the
    /// caller's elements, in order. [`Error::BadLength`] for an answer of
    /// the wrong size, [`Error::VerificationFailed`] if the server did not
    /// apply one key (its committed key, for the committed-key check) to
    /// every element: then nothing of the batch may be used. Variable
    /// time: it runs after the whole answer is in and the coins are
    /// discarded with `self`.
    pub fn verify(self, response: &EvaluatedElements<G>) -> Result<Vec<G::Element>, Error> {
        // The elements of the whole answer, then the caller's slots: where
        // an engine's check kept its points, they become the elements (an
        // answer without the balancer's slot would have lost them, and its
        // elements would be decoded again, one at a time).
        let slots = self.verify_slots(response)?;
        let elements = response.elements();
        Ok(slots
            .into_iter()
            .map(|slot| elements[slot].clone())
            .collect())
    }

    /// [`Request::verify`], the caller's answers kept as a message (their
    /// encodings, and their elements where decoded): a group may check and
    /// unblind from the encodings without decoding elements.
    pub(crate) fn verify_answer(
        self,
        response: &EvaluatedElements<G>,
    ) -> Result<EvaluatedElements<G>, Error> {
        self.check_answer(response)?;
        Ok(response.without_slot(self.position, self.count))
    }

    /// [`Request::verify`] for a caller that works on the whole answer in
    /// the order sent (a group's engine keeps the points of an answer it
    /// checked by slot, and an answer without the balancer's slot would
    /// lose them): the slots of the caller's answers, in order, public
    /// once the check has run.
    pub(crate) fn verify_slots(self, response: &EvaluatedElements<G>) -> Result<Vec<usize>, Error> {
        self.check_answer(response)?;
        Ok(caller_slots(self.position, self.count))
    }

    /// The check of [`Request::verify`], which spends the coins.
    fn check_answer(&self, response: &EvaluatedElements<G>) -> Result<(), Error> {
        if response.len() != self.len() {
            return Err(Error::BadLength);
        }
        self.spend_coins();
        let balancer_answer = || match response.decoded() {
            Some(answers) => answers[self.position].clone(),
            None => {
                let start = self.position * G::ELEMENT_LEN;
                let encoding = &response.as_bytes()[start..start + G::ELEMENT_LEN];
                G::decode(encoding).expect("a validated answer decodes")
            }
        };
        let holds = self.relation_holds(self.key.as_ref(), balancer_answer, |factors, bits| {
            batch::msm_short_vartime(factors, response.received(), bits)
        });
        if !holds {
            return Err(Error::VerificationFailed);
        }
        Ok(())
    }

    /// Marks the coins public for constant-time analysis ([`crate::secret_marks`]):
    /// once every answer is in they may be used in variable time, as the
    /// check does, and they are never used again.
    pub(crate) fn spend_coins(&self) {
        crate::secret_marks::declassify(self.factors.as_slice());
        crate::secret_marks::declassify(&self.balancer_factor);
        crate::secret_marks::declassify(&self.position);
        if let Some(s) = self.modifier.as_ref() {
            G::declassify_scalars(core::slice::from_ref(s));
        }
    }

    /// Whether `answers` (in the order sent, one per element sent) carry
    /// the hidden relation: `Σ d_i·Y_i = s·key` for the committed-key check
    /// (`key` required: the threshold protocols check each server against
    /// its own commitment), the balancer's answer equal to `Σ d_i·Y_i` for
    /// the key-free one. Does not consume the coins, so that one request
    /// can check the answers of several servers. Variable time: call it
    /// only once every answer it will ever check is in.
    pub(crate) fn holds(&self, answers: &[G::Element], key: Option<&G::Element>) -> bool {
        debug_assert_eq!(answers.len(), self.len());
        let balancer_answer = || answers[self.position].clone();
        self.relation_holds(key, balancer_answer, |factors, bits| {
            G::msm_short_vartime(factors, answers, bits)
        })
    }

    /// [`Request::holds`] for the committed-key check, constant time in
    /// the coins (the factors, the balancer's position, `s`): it may run
    /// as each server's answer arrives, before the others are in, and the
    /// coins stay secret for the checks still to come. Only the verdict is
    /// public; every answer checked gives its server one try at passing
    /// wrongly (probability at most 2^-κ), as [`Request::holds`] does.
    /// False for a key-free request (it has no committed key to check
    /// against).
    pub(crate) fn holds_ct(&self, answers: ReceivedBatch<'_, G>, key: &G::Element) -> bool {
        let Some(modifier) = self.modifier.as_ref() else {
            return false;
        };
        debug_assert_eq!(answers.encoded.len(), self.len() * G::ELEMENT_LEN);
        let factors = place_factor(&self.factors, &self.balancer_factor, self.position);
        let total = batch::msm_short_ct(&factors, answers, self.kappa.factor_bits());
        let expected = G::mul_each(core::slice::from_ref(modifier), core::slice::from_ref(key));
        // Element equality is constant time; the verdict is the output.
        crate::secret_marks::public_bool(total == expected[0])
    }

    /// The relation of [`Request::holds`], given the balancer's answer (for
    /// the key-free check) and
    /// `sum(factors, bits)`, the short multi-scalar multiplication of the
    /// answers in the order sent. The factors are aligned with the slots
    /// sent: `d_i` for the caller's elements and padding, at the
    /// balancer's slot `d` (committed key: `Σ d_i·Y_i + d·Y = s·key`) or
    /// 0 (key-free: `Σ d_i·Y_i = Y`).
    fn relation_holds(
        &self,
        key: Option<&G::Element>,
        balancer_answer: impl FnOnce() -> G::Element,
        sum: impl FnOnce(&[ShortScalar], usize) -> G::Element,
    ) -> bool {
        let bits = self.kappa.factor_bits();
        let balancer_factor = match self.check() {
            Check::CommittedKey => self.balancer_factor.clone(),
            Check::KeyFree => ShortScalar::from_parts(0, false),
        };
        // Sized up front: growing the vector would free a copy of the
        // factors without wiping it.
        let mut factors = Vec::with_capacity(self.factors.len() + 1);
        factors.extend(self.factors[..self.position].iter().cloned());
        factors.push(balancer_factor);
        factors.extend(self.factors[self.position..].iter().cloned());
        let total = sum(&factors, bits);
        factors.iter_mut().for_each(Zeroize::zeroize);
        match (self.check(), key, self.modifier.as_ref()) {
            (Check::CommittedKey, Some(key), Some(modifier)) => {
                // As a batch of one: a group may run it on its engine.
                let expected =
                    G::mul_each(core::slice::from_ref(modifier), core::slice::from_ref(key));
                total == expected[0]
            }
            (Check::KeyFree, _, _) => total == balancer_answer(),
            // A committed-key request without a key proves nothing.
            (Check::CommittedKey, _, _) => false,
        }
    }

    /// The answers to the caller's elements, in order, out of all the
    /// answers (balancer and padding dropped).
    pub(crate) fn callers_answers(&self, mut answers: Vec<G::Element>) -> Vec<G::Element> {
        answers.remove(self.position);
        answers.truncate(self.count);
        answers
    }
}

/// How many elements a request for `count` elements sends: `count + 1`
/// (the balancer), and for the key-free check random padding on top until
/// the secret factors of the non-balancer elements have at least 256 bits,
/// `(sent − 1)·κ ≥ 256` (κ = 64, one input: 4 + 1 elements).
pub fn request_len(check: Check, kappa: Kappa, count: usize) -> usize {
    count + padding_count(check, kappa, count) + 1
}

/// The slots of a request's first `count` elements (the caller's) when
/// its balancer sits at slot `position` (the padding follows the caller's
/// elements): every slot but the balancer's, from the first.
fn caller_slots(position: usize, count: usize) -> Vec<usize> {
    (0..count).map(|i| i + usize::from(i >= position)).collect()
}

fn padding_count(check: Check, kappa: Kappa, count: usize) -> usize {
    match check {
        // `s` (a full-size secret scalar) hides the relation.
        Check::CommittedKey => 0,
        Check::KeyFree => {
            let secret_factors = KEY_FREE_MIN_SECRET_BITS.div_ceil(kappa.bits()) as usize;
            secret_factors.saturating_sub(count)
        }
    }
}

/// Random padding elements (and their encodings) for the key-free check:
/// enough that `(count + padding)·κ >= 256`. None for the committed-key
/// check.
fn padding<G: PrimeOrderGroup, R: CryptoRng + ?Sized>(
    check: Check,
    kappa: Kappa,
    count: usize,
    rng: &mut R,
) -> (Vec<G::Element>, Vec<u8>) {
    let needed = padding_count(check, kappa, count);
    let padding: Vec<G::Element> = (0..needed)
        .map(|_| {
            let mut r = G::random_scalar(rng);
            let element = G::mul_base(&r);
            r.zeroize();
            element
        })
        .collect();
    let mut bytes = vec![0u8; needed * G::ELEMENT_LEN];
    G::encode_batch(&padding, &mut bytes);
    // The padding is sent as it is (only the balancer's position among
    // the elements is secret): public from here.
    G::declassify_elements(&padding);
    crate::secret_marks::declassify(bytes.as_slice());
    (padding, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key-free relation's secret factors (every non-balancer element's)
    /// reach 256 bits, with no more padding than that needs; the
    /// committed-key check never pads.
    #[test]
    fn key_free_padding_reaches_256_secret_bits() {
        for bits in Kappa::MIN..=Kappa::MAX {
            let kappa = Kappa::new(bits).unwrap();
            for count in 1..=16 {
                let sent = request_len(Check::KeyFree, kappa, count);
                let secret_factors = sent - 1;
                assert!(secret_factors as u32 * bits >= 256, "κ {bits}, n {count}");
                assert!(secret_factors >= count);
                if secret_factors > count {
                    assert!(
                        (secret_factors as u32 - 1) * bits < 256,
                        "κ {bits}, n {count}"
                    );
                }
                assert_eq!(request_len(Check::CommittedKey, kappa, count), count + 1);
            }
        }
        // The two cases the old rule got wrong.
        assert_eq!(request_len(Check::KeyFree, Kappa::new(64).unwrap(), 1), 5);
        assert_eq!(request_len(Check::KeyFree, Kappa::new(128).unwrap(), 1), 3);
    }

    /// `verify` returns the caller's answers in order, for an answer
    /// received as bytes (whose check keeps the engine's points where an
    /// engine runs, handed over as the elements), and refuses an answer
    /// with one element off, with either check.
    #[test]
    fn verify_returns_the_callers_answers() {
        fn on<G: PrimeOrderGroup>() {
            let mut rng = crate::rng::os_rng().expect("OS randomness");
            let key = G::random_scalar(&mut rng);
            let public_key = G::mul_base(&key);
            let inputs: Vec<G::Element> = (0..20)
                .map(|_| G::mul_base(&G::random_scalar(&mut rng)))
                .collect();
            let encoded = |elements: &[G::Element]| {
                let mut out = vec![0u8; elements.len() * G::ELEMENT_LEN];
                G::encode_batch(elements, &mut out);
                out
            };
            let elements = BlindedElements::<G>::from_bytes(&encoded(&inputs)).unwrap();
            let expected: Vec<G::Element> = inputs.iter().map(|x| G::mul(x, &key)).collect();
            for committed in [true, false] {
                for cheat in [false, true] {
                    let request = if committed {
                        Request::committed_key(&elements, &public_key, Kappa::DEFAULT, &mut rng)
                    } else {
                        Request::key_free(&elements, Kappa::DEFAULT, &mut rng)
                    }
                    .unwrap();
                    let sent = request.message().elements();
                    let mut answers: Vec<G::Element> =
                        sent.iter().map(|x| G::mul(x, &key)).collect();
                    if cheat {
                        let last = answers.len() - 1;
                        answers[last] = G::add(&answers[last], &G::generator());
                    }
                    let answer = EvaluatedElements::<G>::from_bytes(&encoded(&answers)).unwrap();
                    let verified = request.verify(&answer);
                    if cheat {
                        assert!(matches!(verified, Err(Error::VerificationFailed)));
                    } else {
                        assert_eq!(
                            encoded(&verified.unwrap()),
                            encoded(&expected),
                            "{}",
                            G::SUITE_ID
                        );
                    }
                }
            }
        }
        on::<crate::group::Ristretto255>();
        on::<crate::group::P256>();
        on::<crate::group::Bls12381G1>();
    }

    /// The caller's slots are those `without_slot` and `callers_answers`
    /// keep: every slot but the balancer's, the first `count` of them.
    #[test]
    fn caller_slots_skip_the_balancer() {
        for sent in 2..=12 {
            for count in 1..sent {
                for position in 0..sent {
                    let mut kept: Vec<usize> = (0..sent).collect();
                    kept.remove(position);
                    kept.truncate(count);
                    assert_eq!(
                        caller_slots(position, count),
                        kept,
                        "{sent} {count} {position}"
                    );
                }
            }
        }
    }
}
