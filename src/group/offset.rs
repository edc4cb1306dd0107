//! The committed-key client's additive blinding, as batch operations
//! (docs/PROTOCOLS.md §3): it sends `X_i = H(x_i) + r_i·B` and unblinds
//! the answer `Y_i` as `Y_i + (−r_i)·C`, `B` the generator and `C` the
//! server's public key. Both are products by a fixed point, which a
//! group's engine computes from tables of its multiples, with no
//! doubling ([`FixedBases`]); without those tables multiplicative blinding
//! costs less, and the client uses it.
//!
//! Written once for every group: the engine where it runs, the group's
//! one-at-a-time methods for what it declines (the tail its check decoded
//! one at a time). Constant time in the inputs, the `r_i` and the
//! unblinded elements.

use std::any::Any;
use std::sync::{Arc, Mutex};

use zeroize::Zeroizing;

use super::batch::{hash_each, per_element, CheckedBatch, LaneBatch, ReceivedBatch};
use super::lanes::{LaneCpu, LaneEngine, LaneSet};
use super::PrimeOrderGroup;
use crate::Error;

/// The engine of group `G`.
type Lanes<G> = <G as PrimeOrderGroup>::Lanes;

/// The engine's tables of one point.
type Tables<G> = Arc<<Lanes<G> as LaneEngine>::FixedBase>;

/// The engine's tables of the generator `B` and of a server's public key
/// `C`, for the CPU that computed them. Shared by the batches of one
/// client, and with other clients of the same key through a small cache
/// ([`tables_of`]): half a millisecond (IFMA) to a millisecond (AVX2) to
/// compute, each, which a client made per batch (the C API's) would
/// otherwise pay every time.
pub(crate) struct FixedBases<G: PrimeOrderGroup> {
    cpu: LaneCpu,
    generator: Tables<G>,
    key: Tables<G>,
    /// `C` itself, for what the engine declines.
    public_key: G::Element,
}

impl<G: PrimeOrderGroup> core::fmt::Debug for FixedBases<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FixedBases")
            .field("group", &G::SUITE_ID)
            .field("public_key", &self.public_key)
            .finish_non_exhaustive()
    }
}

impl<G: PrimeOrderGroup> FixedBases<G> {
    /// The tables of the generator and of `public_key` (not the
    /// identity), where the group's engine runs on this CPU and has
    /// fixed-base products; else `None`.
    pub(crate) fn new(public_key: &G::Element) -> Option<Arc<Self>> {
        let cpu = Lanes::<G>::runs()?;
        Some(Arc::new(FixedBases {
            cpu,
            generator: tables_of::<G>(cpu, &G::generator())?,
            key: tables_of::<G>(cpu, public_key)?,
            public_key: public_key.clone(),
        }))
    }
}

/// How many public keys' tables the cache keeps (the most recently used),
/// beside the generators' (kept for good): about 330 KB each on IFMA,
/// 600 KB on AVX2.
const CACHED_KEYS: usize = 4;

/// A cached point's tables: its group, the instruction set of the engine
/// that computed them, its encoding, whether it is the group's generator
/// (never dropped), the tables.
struct CacheEntry {
    suite: &'static str,
    set: LaneSet,
    encoding: Vec<u8>,
    generator: bool,
    tables: Arc<dyn Any + Send + Sync>,
}

/// The tables of the points most recently asked for, the latest first.
static CACHE: Mutex<Vec<CacheEntry>> = Mutex::new(Vec::new());

/// The engine's tables of the public point `point` on `cpu`: from the
/// cache, else computed and cached (the least recently used key's
/// dropped). `None` where the engine has no fixed-base products.
fn tables_of<G: PrimeOrderGroup>(cpu: LaneCpu, point: &G::Element) -> Option<Tables<G>> {
    let mut encoding = vec![0u8; G::ELEMENT_LEN];
    G::encode(point, &mut encoding);
    let lock = || {
        CACHE
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    let is_this = |entry: &CacheEntry| {
        entry.suite == G::SUITE_ID && entry.set == cpu.set() && entry.encoding == encoding
    };
    // One suite's tables are all of one type: the downcasts succeed.
    let cached = {
        let mut cache = lock();
        cache.iter().position(is_this).map(|at| {
            let entry = cache.remove(at);
            let tables = Arc::clone(&entry.tables);
            cache.insert(0, entry);
            tables
        })
    };
    if let Some(tables) = cached.and_then(|tables| tables.downcast().ok()) {
        return Some(tables);
    }
    // Computed outside the lock. Another thread may compute the same
    // tables meanwhile: the first to cache them wins, so that every
    // client of a point shares one copy.
    let tables = Arc::new(Lanes::<G>::fixed_base(cpu, point)?);
    let mut cache = lock();
    let theirs = cache.iter().find(|entry| is_this(entry));
    if let Some(theirs) = theirs.and_then(|entry| Arc::clone(&entry.tables).downcast().ok()) {
        return Some(theirs);
    }
    cache.insert(
        0,
        CacheEntry {
            suite: G::SUITE_ID,
            set: cpu.set(),
            encoding: encoding.clone(),
            generator: *point == G::generator(),
            tables: Arc::clone(&tables) as Arc<dyn Any + Send + Sync>,
        },
    );
    let mut keys = 0;
    cache.retain(|entry| {
        keys += usize::from(!entry.generator);
        entry.generator || keys <= CACHED_KEYS
    });
    Some(tables)
}

/// `X_i = H(x_i) + r_i·B` for every input `x_i` and secret `r_i`
/// (`blinds`), `H` [`PrimeOrderGroup::hash_to_group`] under `dst`,
/// encoded into `out` (`ELEMENT_LEN` bytes each, public from here): the
/// blinded elements, or the engine's points of them; `Ok(None)` if one is
/// the identity (probability about one in the group's order per input:
/// the caller draws new blinds), [`Error::InvalidInput`] if an input
/// hashes to the identity. Constant time in the inputs and blinds.
pub(crate) fn hash_and_offset<G: PrimeOrderGroup>(
    inputs: &[&[u8]],
    dst: &[u8],
    bases: &FixedBases<G>,
    blinds: &[G::Scalar],
    out: &mut [u8],
) -> Result<Option<CheckedBatch<G>>, Error> {
    let engine = Lanes::<G>::hash_and_offset(bases.cpu, inputs, dst, &bases.generator, blinds, out);
    if let Some(blinded) = engine {
        let Some(vectors) = blinded? else {
            return Ok(None);
        };
        // The blinded elements are sent: public from here.
        crate::secret_marks::declassify(&*out);
        return Ok(Some(CheckedBatch::Lanes(LaneBatch::of_head(vectors))));
    }
    let hashed = hash_each::<G>(inputs, dst)?;
    let generators = vec![G::generator(); blinds.len()];
    let multiples = Zeroizing::new(G::mul_each(blinds, &generators));
    let blinded = add_each::<G>(&hashed, &multiples);
    let any_identity = blinded.iter().fold(false, |any, x| any | G::is_identity(x));
    if crate::secret_marks::public_bool(any_identity) {
        return Ok(None);
    }
    G::encode_batch(&blinded, out);
    // The blinded elements are sent: public from here.
    G::declassify_elements(&blinded);
    Ok(Some(CheckedBatch::Elements(blinded.to_vec())))
}

/// `Y_i + s_i·C` for every element `Y_i` of a batch received and secret
/// `s_i` (`scalars`, one per element), `C` the server's public key,
/// encoded into `out` (`ELEMENT_LEN` bytes each): the client's
/// unblinding, with `s_i = −r_i`. The engine takes the batch but its
/// `portable_tail`. The sums are secret: nothing of them is kept.
pub(crate) fn offset_each<G: PrimeOrderGroup>(
    bases: &FixedBases<G>,
    scalars: &[G::Scalar],
    batch: ReceivedBatch<'_, G>,
    out: &mut [u8],
) {
    per_element(
        Some(bases.cpu),
        scalars,
        batch,
        out,
        |cpu, scalars, encoded, vectors, out| {
            Lanes::<G>::offset_each(cpu, &bases.key, scalars, encoded, vectors, out)
        },
        |scalars, elements, out| offset_one_at_a_time(bases, scalars, elements, out),
    );
}

/// `Y_i + s_i·C` for elements the caller holds, encoded into `out`, by
/// the group's one-at-a-time methods: the unblinding's path where the
/// engine declines. The sums are secret: wiped.
pub(crate) fn offset_one_at_a_time<G: PrimeOrderGroup>(
    bases: &FixedBases<G>,
    scalars: &[G::Scalar],
    elements: &[G::Element],
    out: &mut [u8],
) {
    let keys = vec![bases.public_key.clone(); scalars.len()];
    let multiples = Zeroizing::new(G::mul_each(scalars, &keys));
    let sums = add_each::<G>(elements, &multiples);
    G::encode_batch(&sums, out);
}

/// `a_i + b_i` for every pair, wiped on drop (the sums may be secret).
fn add_each<G: PrimeOrderGroup>(a: &[G::Element], b: &[G::Element]) -> Zeroizing<Vec<G::Element>> {
    Zeroizing::new(a.iter().zip(b).map(|(a, b)| G::add(a, b)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::batch::check;
    use crate::group::{Ristretto255, P256};

    /// A server's key and public key, and blinds, drawn from the OS.
    fn scalars<G: PrimeOrderGroup>(count: usize) -> Vec<G::Scalar> {
        G::random_scalars(count, &mut crate::rng::os_rng().unwrap())
    }

    fn encode_all<G: PrimeOrderGroup>(elements: &[G::Element]) -> Vec<u8> {
        let mut out = vec![0u8; elements.len() * G::ELEMENT_LEN];
        G::encode_batch(elements, &mut out);
        out
    }

    #[test]
    fn only_an_engine_with_fixed_base_products_gives_tables() {
        let key = P256::mul_base(&P256::scalar_from_u64(5));
        let engine = <P256 as PrimeOrderGroup>::Lanes::runs();
        assert_eq!(FixedBases::<P256>::new(&key).is_some(), engine.is_some());
        let key = Ristretto255::mul_base(&Ristretto255::scalar_from_u64(5));
        assert!(FixedBases::<Ristretto255>::new(&key).is_none());
    }

    #[test]
    fn clients_of_one_key_share_its_tables() {
        type G = P256;
        let key = G::mul_base(&G::scalar_from_u64(7));
        let (Some(first), Some(second)) = (FixedBases::<G>::new(&key), FixedBases::<G>::new(&key))
        else {
            eprintln!("skipped: no P-256 engine on this CPU or backend");
            return;
        };
        assert!(Arc::ptr_eq(&first.key, &second.key));
        assert!(Arc::ptr_eq(&first.generator, &second.generator));
        // More keys than the cache keeps push the first out, not the
        // generator.
        for k in 8..8 + CACHED_KEYS as u64 {
            FixedBases::<G>::new(&G::mul_base(&G::scalar_from_u64(k)));
        }
        let third = FixedBases::<G>::new(&key).unwrap();
        assert!(!Arc::ptr_eq(&first.key, &third.key));
        assert!(Arc::ptr_eq(&first.generator, &third.generator));
    }

    /// The engine's blinding and unblinding (its tail included: the
    /// answer's check decodes one or two elements past the last vector
    /// one at a time on AVX2) give what the group's own methods give.
    #[test]
    fn offsets_agree_with_the_one_at_a_time_methods() {
        type G = P256;
        let key = scalars::<G>(1).remove(0);
        let public_key = G::mul_base(&key);
        let Some(bases) = FixedBases::<G>::new(&public_key) else {
            eprintln!("skipped: no P-256 engine on this CPU or backend");
            return;
        };
        let dst = b"HashToGroup-OPRFV1-\x00-P256-SHA256";
        for count in [1usize, 2, 3, 8, 9, 10, 17, 40] {
            let inputs: Vec<Vec<u8>> = (0..count)
                .map(|i| format!("input {i}").into_bytes())
                .collect();
            let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
            let blinds = scalars::<G>(count);
            let mut blinded = vec![0u8; count * G::ELEMENT_LEN];
            let kept = hash_and_offset::<G>(&refs, dst, &bases, &blinds, &mut blinded)
                .unwrap()
                .expect("no blinded element is the identity");
            let expected: Vec<<G as PrimeOrderGroup>::Element> = refs
                .iter()
                .zip(&blinds)
                .map(|(x, r)| G::add(&G::hash_to_group(&[x], dst), &G::mul_base(r)))
                .collect();
            assert_eq!(blinded, encode_all::<G>(&expected), "count {count}");
            assert!(matches!(kept, CheckedBatch::Lanes(_)));

            let answers: Vec<<G as PrimeOrderGroup>::Element> =
                expected.iter().map(|x| G::mul(x, &key)).collect();
            let encoded = encode_all::<G>(&answers);
            let checked = check::<G>(&encoded).unwrap();
            let negated: Vec<<G as PrimeOrderGroup>::Scalar> = blinds
                .iter()
                .map(|r| G::scalar_sub(&G::scalar_from_u64(0), r))
                .collect();
            let mut unblinded = vec![0u8; encoded.len()];
            offset_each(
                &bases,
                &negated,
                ReceivedBatch::of_checked(&encoded, &checked),
                &mut unblinded,
            );
            let plain: Vec<<G as PrimeOrderGroup>::Element> = refs
                .iter()
                .map(|x| G::mul(&G::hash_to_group(&[x], dst), &key))
                .collect();
            assert_eq!(unblinded, encode_all::<G>(&plain), "count {count}");
        }
    }
}
