//! Secrets are wiped before their memory goes back to the allocator.
//!
//! This test binary installs a global allocator that, while a check is
//! watching, searches every block handed back to it (by `dealloc`, and by
//! `realloc` moving a block) for the secrets the check knows, before
//! releasing it. The search is glibc's `memmem`, called from the allocator
//! on a block it still owns: no Rust code reads possibly-uninitialized
//! bytes, so nothing here relies on undefined behaviour.
//!
//! The secrets are known to the test in their in-memory form:
//! - long-term keys (OPRF server keys, key shares, RSA keys) are chosen by
//!   the test and go through the C ABI (`oblivex_*_new` / `_from_bytes`,
//!   `_free`);
//! - a client's coins (blinds, verification factors `d_i` and `d`, the
//!   modifier `s`, the balancer's position) come from a deterministic RNG
//!   the test replays, and the replay is proven right by recomputing the
//!   request from it, so a replay drifting from the library fails the test
//!   instead of making it vacuous.
//!
//! Each check watches a handle's whole life (creation, use, free), so a
//! temporary copy of a secret dropped without wiping is caught too, and
//! each has a control: the same secrets dropped without wiping must be
//! found, proving the search sees that representation.
//!
//! Limits: stack copies are not covered (they are not freed), and a secret
//! is recognised by 16 bytes of its own in-memory form, not after a change
//! of representation (e.g. the IFMA engine's radix-2^52 digits).

mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::c_void;
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use oblivex::bls::{self, SigningClient};
use oblivex::elgamal::{self, DecryptionClient};
use oblivex::ffi::*;
use oblivex::group::{
    encode_scalar_to_vec, encode_to_vec, Bls12381G1, Ffdhe2048, Ffdhe3072, Ffdhe4096,
    PrimeOrderGroup, Ristretto255, ShortScalar, P256,
};
use oblivex::message::{BlindedElements, EvaluatedElements};
use oblivex::oblivious::Kappa;
use oblivex::oprf::{CheckedOprfClient, KeyPair, OprfClient, ThresholdOprfClient};
use oblivex::threshold::dkg::{
    DkgParams, DkgParty, Received, PEDERSEN_GENERATOR_DST, SESSION_ID_LEN,
};
use oblivex::threshold::{deal, evaluate_share, Commitments, KeyShare, Response};
use oblivex::Backend;
use rand_core::Rng;
use support::replay_rng::ReplayRng;
use support::rsa_keys::{RsaTestKey, TestRng};

// ---------------------------------------------------------------------------
// The watching allocator.

/// Bytes of a secret the allocator searches for.
const NEEDLE: usize = 16;
/// Secrets one check can watch.
const MAX_NEEDLES: usize = 256;

static WATCHING: AtomicBool = AtomicBool::new(false);
static NEEDLE_COUNT: AtomicUsize = AtomicUsize::new(0);
static NEEDLES: [[AtomicU64; 2]; MAX_NEEDLES] =
    [const { [AtomicU64::new(0), AtomicU64::new(0)] }; MAX_NEEDLES];
static HITS: AtomicUsize = AtomicUsize::new(0);
/// `OBLIVEX_SHOW_LEAKS=1`: print where each leaking block is freed.
static SHOW_WHERE: AtomicBool = AtomicBool::new(false);
static LARGEST_HIT_BLOCK: AtomicUsize = AtomicUsize::new(0);

extern "C" {
    fn memmem(
        haystack: *const c_void,
        haystack_len: usize,
        needle: *const c_void,
        needle_len: usize,
    ) -> *mut c_void;
}

struct WatchingAllocator;

impl WatchingAllocator {
    /// # Safety
    /// `block` is a live allocation of `len` bytes owned by the caller.
    unsafe fn search(block: *const u8, len: usize) {
        if !WATCHING.load(Ordering::Acquire) || len < NEEDLE {
            return;
        }
        // No allocation in here: the allocator must not re-enter itself.
        let mut bytes = [0u8; NEEDLE];
        for (index, needle) in NEEDLES[..NEEDLE_COUNT.load(Ordering::Acquire)]
            .iter()
            .enumerate()
        {
            bytes[..8].copy_from_slice(&needle[0].load(Ordering::Relaxed).to_le_bytes());
            bytes[8..].copy_from_slice(&needle[1].load(Ordering::Relaxed).to_le_bytes());
            // SAFETY: `block` holds `len` bytes (the caller's contract) and
            // `bytes` is NEEDLE bytes; memmem only reads them (as C
            // unsigned chars, for which any bit pattern is a value).
            let found = unsafe { memmem(block.cast(), len, bytes.as_ptr().cast(), NEEDLE) };
            wipe(&mut bytes);
            if !found.is_null() {
                HITS.fetch_add(1, Ordering::AcqRel);
                LARGEST_HIT_BLOCK.fetch_max(len, Ordering::AcqRel);
                if SHOW_WHERE.load(Ordering::Acquire) {
                    // Stop watching while the backtrace allocates.
                    WATCHING.store(false, Ordering::Release);
                    eprintln!(
                        "a {len}-byte block freed holding secret #{index}:\n{}",
                        std::backtrace::Backtrace::force_capture()
                    );
                    WATCHING.store(true, Ordering::Release);
                }
            }
        }
    }
}

/// Zeroes the search's copy of a needle. Left on the stack of whichever
/// thread freed a block (any thread, while a check watches), it would
/// reach a later block through a value's uninitialized bytes (an `Option`
/// payload or padding, copied from the stack with the value) and be
/// counted as that block's leak: seen with tests running side by side, a
/// DKG party's unset `Option<[u8; 32]>` holding another test's secret.
fn wipe(bytes: &mut [u8; NEEDLE]) {
    for byte in bytes.iter_mut() {
        // SAFETY: `byte` is a valid, aligned, exclusive reference; the
        // volatile write keeps the compiler from dropping a store to a
        // value that is never read again.
        unsafe { ptr::write_volatile(byte, 0) };
    }
}

// SAFETY: every request is passed to the system allocator unchanged; the
// search only reads a block the caller is handing back, before it goes.
unsafe impl GlobalAlloc for WatchingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // Zeroed: a block handed out again must not carry bytes an earlier
        // owner left (a free this allocator did not see, or one before a
        // check), which its next free would count as that check's leak;
        // only what is written into a block during its life is judged.
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `block` is live with `layout.size()` bytes until freed
        // below, and ours to write until then.
        unsafe {
            Self::search(block, layout.size());
            System.dealloc(block, layout)
        }
    }
    // `realloc` keeps the default (alloc, copy, dealloc): a block a secret
    // moves out of is searched like any other.
}

#[global_allocator]
static ALLOCATOR: WatchingAllocator = WatchingAllocator;

/// One check at a time: the needles are global.
static ONE_CHECK: Mutex<()> = Mutex::new(());

/// Runs `f` while searching every freed block for the first `NEEDLE`
/// bytes of each secret; returns how many freed blocks held one.
fn freed_blocks_holding<T>(secrets: &[Vec<u8>], f: impl FnOnce() -> T) -> (T, usize) {
    assert!(secrets.len() <= MAX_NEEDLES);
    for (slot, secret) in NEEDLES.iter().zip(secrets) {
        assert!(secret.len() >= NEEDLE);
        // A needle must be recognisable: mostly non-zero random bytes.
        assert!(secret[..NEEDLE].iter().filter(|&&b| b != 0).count() >= 8);
        slot[0].store(
            u64::from_le_bytes(secret[..8].try_into().unwrap()),
            Ordering::Relaxed,
        );
        slot[1].store(
            u64::from_le_bytes(secret[8..16].try_into().unwrap()),
            Ordering::Relaxed,
        );
    }
    NEEDLE_COUNT.store(secrets.len(), Ordering::Release);
    HITS.store(0, Ordering::Release);
    WATCHING.store(true, Ordering::Release);
    let result = f();
    WATCHING.store(false, Ordering::Release);
    (result, HITS.load(Ordering::Acquire))
}

/// Watches `f` (which must not leak), then a control dropping `copies` of
/// the same secrets unwiped (which must be seen). The control runs second:
/// its unwiped blocks go back to the allocator, which may hand them out
/// again, and a block reused without being fully overwritten would look
/// like a leak of whatever freed it next.
fn assert_wiped<T>(
    what: &str,
    secrets: &[Vec<u8>],
    copies: impl FnOnce(),
    f: impl FnOnce() -> T,
) -> T {
    let _one = ONE_CHECK.lock().unwrap_or_else(|e| e.into_inner());
    SHOW_WHERE.store(
        std::env::var_os("OBLIVEX_SHOW_LEAKS").is_some(),
        Ordering::Release,
    );
    let (result, leaks) = freed_blocks_holding(secrets, f);
    assert_eq!(
        leaks,
        0,
        "{what}: {leaks} freed block(s) held a secret (largest {} bytes; \
         OBLIVEX_SHOW_LEAKS=1 shows where)",
        LARGEST_HIT_BLOCK.load(Ordering::Acquire)
    );
    SHOW_WHERE.store(false, Ordering::Release);
    let (_, control) = freed_blocks_holding(secrets, copies);
    assert!(
        control > 0,
        "{what}: the control's unwiped secrets were not seen"
    );
    result
}

// ---------------------------------------------------------------------------
// Secrets in their in-memory form.

/// How a group's scalar sits in memory.
trait InMemory: PrimeOrderGroup {
    /// The C ABI's suite value.
    const SUITE: oblivex_suite;
    /// The bytes of `s` as the library stores them.
    fn scalar_in_memory(s: &Self::Scalar) -> Vec<u8>;
    /// Copies of `scalars` in the library's representation, dropped
    /// without wiping (every scalar type wipes itself on drop, so the copies
    /// are plain bytes).
    fn drop_unwiped(scalars: &[Self::Scalar]) -> Box<dyn FnOnce()> {
        let copies: Vec<Vec<u8>> = scalars.iter().map(Self::scalar_in_memory).collect();
        Box::new(move || drop(copies))
    }
}

/// The bytes of a value whose type has no padding (checked by the caller:
/// 32-byte scalars made of byte or u64 arrays).
fn value_bytes<T>(value: &T) -> Vec<u8> {
    assert_eq!(std::mem::size_of::<T>(), 32);
    // SAFETY: `value` is a live, initialized T of 32 bytes with no padding
    // (a [u8; 32] or [u64; 4] inside), so all 32 bytes are initialized.
    unsafe { std::slice::from_raw_parts((value as *const T).cast::<u8>(), 32) }.to_vec()
}

impl InMemory for Ristretto255 {
    const SUITE: oblivex_suite = OBLIVEX_SUITE_RISTRETTO255_SHA512;
    fn scalar_in_memory(s: &Self::Scalar) -> Vec<u8> {
        value_bytes(s)
    }
}
impl InMemory for P256 {
    const SUITE: oblivex_suite = OBLIVEX_SUITE_P256_SHA256;
    fn scalar_in_memory(s: &Self::Scalar) -> Vec<u8> {
        value_bytes(s)
    }
}
impl InMemory for Bls12381G1 {
    const SUITE: oblivex_suite = OBLIVEX_SUITE_BLS12381G1_SHA256;
    fn scalar_in_memory(s: &Self::Scalar) -> Vec<u8> {
        value_bytes(s)
    }
}
/// FFDHE exponents are little-endian 64-bit limbs on the heap.
macro_rules! ffdhe_in_memory {
    ($group:ty, $suite:expr) => {
        impl InMemory for $group {
            const SUITE: oblivex_suite = $suite;
            fn scalar_in_memory(s: &Self::Scalar) -> Vec<u8> {
                let mut bytes = encode_scalar_to_vec::<Self>(s);
                bytes.reverse();
                bytes
            }
        }
    };
}
ffdhe_in_memory!(Ffdhe2048, OBLIVEX_SUITE_FFDHE2048_SHA512);
ffdhe_in_memory!(Ffdhe3072, OBLIVEX_SUITE_FFDHE3072_SHA512);
ffdhe_in_memory!(Ffdhe4096, OBLIVEX_SUITE_FFDHE4096_SHA512);

// ---------------------------------------------------------------------------
// Long-term keys through the C ABI.

fn server_keys_are_wiped<G: InMemory>() {
    let mut rng = ReplayRng::new(G::SUITE_ID.as_bytes());
    let key = G::random_scalar(&mut rng);
    let encoded = encode_scalar_to_vec::<G>(&key);
    let secrets = vec![G::scalar_in_memory(&key)];
    assert_wiped(
        &format!("{} oprf_server", G::SUITE_ID),
        &secrets,
        G::drop_unwiped(std::slice::from_ref(&key)),
        || {
            let mut server = ptr::null_mut();
            // SAFETY: `encoded` holds its length; `server` is writable.
            let status = unsafe {
                oblivex_oprf_server_new(
                    G::SUITE,
                    OBLIVEX_OPRF_MODE_OPRF,
                    encoded.as_ptr(),
                    encoded.len(),
                    &mut server,
                )
            };
            assert_eq!(status, OBLIVEX_OK);
            // SAFETY: the live handle made above, freed once.
            unsafe { oblivex_oprf_server_free(server) };
        },
    );
    let share = KeyShare::<G>::new(3, key.clone()).unwrap().to_bytes();
    assert_wiped(
        &format!("{} key_share", G::SUITE_ID),
        &secrets,
        G::drop_unwiped(std::slice::from_ref(&key)),
        || {
            let mut handle = ptr::null_mut();
            // SAFETY: `share` holds its length; `handle` is writable.
            let status = unsafe {
                oblivex_key_share_from_bytes(G::SUITE, share.as_ptr(), share.len(), &mut handle)
            };
            assert_eq!(status, OBLIVEX_OK);
            // SAFETY: the live handle made above, freed once.
            unsafe { oblivex_key_share_free(handle) };
        },
    );
}

#[test]
fn server_keys_and_key_shares_are_wiped_on_free() {
    server_keys_are_wiped::<Ristretto255>();
    server_keys_are_wiped::<P256>();
    server_keys_are_wiped::<Bls12381G1>();
    server_keys_are_wiped::<Ffdhe2048>();
    server_keys_are_wiped::<Ffdhe3072>();
    server_keys_are_wiped::<Ffdhe4096>();
}

/// An RSA key through the C ABI, made, used on a batch and freed: its
/// primes and CRT exponents, held as little-endian 64-bit limbs (the
/// big-endian bytes reversed), must not be in any freed block.
#[test]
fn rsa_keys_are_wiped_on_free() {
    let mut rng = TestRng(0x5ec7e7);
    let key = RsaTestKey::generate(&mut rng, 1024);
    let [p, q, dp, dq, qinv] = key.crt_params(false);
    let in_memory = |be: &[u8]| be.iter().rev().copied().collect::<Vec<u8>>();
    let secrets = vec![in_memory(&p), in_memory(&q), in_memory(&dp), in_memory(&dq)];
    let count = 3;
    let ciphertexts: Vec<u8> = (0..count)
        .flat_map(|_| key.padded(&rng.below(&key.n)))
        .collect();
    let copies = secrets.clone();
    assert_wiped(
        "rsa_crt_key",
        &secrets,
        move || drop(copies),
        || {
            let mut handle = ptr::null_mut();
            // SAFETY: each parameter holds its length; `handle` is writable.
            let status = unsafe {
                oblivex_rsa_crt_key_new(
                    p.as_ptr(),
                    p.len(),
                    q.as_ptr(),
                    q.len(),
                    dp.as_ptr(),
                    dp.len(),
                    dq.as_ptr(),
                    dq.len(),
                    qinv.as_ptr(),
                    qinv.len(),
                    &mut handle,
                )
            };
            assert_eq!(status, OBLIVEX_OK);
            let mut results = vec![0u8; ciphertexts.len()];
            let mut written = 0;
            // SAFETY: the live handle made above; each buffer holds its length.
            let status = unsafe {
                oblivex_rsa_private_batch(
                    handle,
                    ciphertexts.as_ptr(),
                    ciphertexts.len(),
                    count,
                    results.as_mut_ptr(),
                    results.len(),
                    &mut written,
                )
            };
            assert_eq!((status, written), (OBLIVEX_OK, results.len()));
            // SAFETY: the live handle made above, freed once.
            unsafe { oblivex_rsa_crt_key_free(handle) };
            results
        },
    );
}

// ---------------------------------------------------------------------------
// A client's coins, replayed.

const KAPPA: u32 = 128;

/// The coins a checked batch draws, in the order it draws them: a blind
/// per element, then (committed-key check) a factor per element, the
/// balancer's factor `d`, the modifier `s` and the balancer's position.
struct Coins<G: PrimeOrderGroup> {
    blinds: Vec<G::Scalar>,
    factors: Vec<u128>,
    d: u128,
    s: G::Scalar,
    position: usize,
}

impl<G: InMemory> Coins<G> {
    fn replay(seed: &[u8], n: usize) -> Coins<G> {
        let mut rng = ReplayRng::new(seed);
        let blinds = (0..n).map(|_| G::random_scalar(&mut rng)).collect();
        let mut factor = || {
            let mut bytes = [0u8; 16];
            rng.fill_bytes(&mut bytes);
            u128::from_le_bytes(bytes).wrapping_add(1)
        };
        let factors = (0..n).map(|_| factor()).collect();
        let d = factor();
        let s = G::random_scalar(&mut rng);
        let mask = (n as u64 + 1).next_power_of_two() - 1;
        let position = loop {
            let candidate = rng.next_u64() & mask;
            if candidate <= n as u64 {
                break candidate as usize;
            }
        };
        Coins {
            blinds,
            factors,
            d,
            s,
            position,
        }
    }

    /// Every secret, as the allocator should never see it.
    fn secrets(&self) -> Vec<Vec<u8>> {
        let mut all: Vec<Vec<u8>> = self.blinds.iter().map(G::scalar_in_memory).collect();
        all.extend(
            self.factors
                .iter()
                .chain([&self.d])
                .map(|f| f.to_le_bytes().to_vec()),
        );
        all.push(G::scalar_in_memory(&self.s));
        all
    }

    /// What the unblinding derives from the blinds, as secret as they:
    /// `−r_i` (additive blinding) and `r_i^{-1}` (multiplicative), whichever
    /// the client computes.
    fn unblinding_secrets(&self) -> Vec<Vec<u8>> {
        let zero = G::scalar_from_u64(0);
        self.blinds
            .iter()
            .flat_map(|r| [G::scalar_sub(&zero, r), G::scalar_invert(r)])
            .map(|s| G::scalar_in_memory(&s))
            .collect()
    }

    /// The same secrets dropped unwiped.
    fn drop_unwiped(&self) -> impl FnOnce() + use<G> {
        let mut scalars = self.blinds.clone();
        scalars.push(self.s.clone());
        let factors: Vec<[u8; 17]> = self
            .factors
            .iter()
            .map(|f| *ShortScalar::from_u128(*f).as_le_bytes())
            .collect();
        let unwiped = G::drop_unwiped(&scalars);
        move || {
            unwiped();
            drop(factors);
        }
    }

    /// Proves the replay is the batch's own coins: `wire` must be the
    /// `sent` elements with the balancer `d^{-1}·(s·B − Σ d_i·X_i)` at
    /// the replayed position.
    fn assert_match(&self, sent: &[G::Element], wire: &BlindedElements<G>) {
        let wire = wire.as_bytes();
        let len = G::ELEMENT_LEN;
        let to_scalar = |v: u128| ShortScalar::from_u128(v).to_scalar::<G>();
        let sum = G::msm_vartime(
            &self
                .factors
                .iter()
                .map(|&f| to_scalar(f))
                .collect::<Vec<_>>(),
            sent,
        );
        let d_inverse = G::scalar_invert(&to_scalar(self.d));
        let balancer = G::mul(&G::add(&G::mul_base(&self.s), &G::neg(&sum)), &d_inverse);
        let mut expected: Vec<Vec<u8>> = sent.iter().map(encode_to_vec::<G>).collect();
        expected.insert(self.position, encode_to_vec::<G>(&balancer));
        assert_eq!(
            wire,
            expected.concat().as_slice(),
            "{}: the replay is not the batch's coins",
            G::SUITE_ID
        );
        assert_eq!(wire.len(), (sent.len() + 1) * len);
    }
}

/// `r_i·H(x_i)` for the replayed blinds: what the blinded request holds.
fn blinded_by<G: PrimeOrderGroup>(inputs: &[&[u8]], blinds: &[G::Scalar]) -> Vec<G::Element> {
    let batch = OprfClient::<G>::new()
        .blind_with(inputs, blinds.to_vec())
        .unwrap();
    batch.request().elements().to_vec()
}

/// What the committed-key checked client sends for the replayed blinds:
/// `H(x_i) + r_i·B` where it blinds additively (P-256 where its engine
/// runs: the ifma and avx2 backends; docs/PROTOCOLS.md §3), else
/// `r_i·H(x_i)`.
fn checked_blinded_by<G: PrimeOrderGroup>(
    inputs: &[&[u8]],
    blinds: &[G::Scalar],
) -> Vec<G::Element> {
    let engine = match Backend::selected() {
        Ok(Backend::Avx2) => true,
        // The IFMA engines also need AVX-512DQ.
        #[cfg(target_arch = "x86_64")]
        Ok(Backend::Ifma) => std::is_x86_feature_detected!("avx512dq"),
        _ => false,
    };
    if G::SUITE_ID != P256::SUITE_ID || !engine {
        return blinded_by::<G>(inputs, blinds);
    }
    let ones = vec![G::scalar_from_u64(1); inputs.len()];
    let hashed = blinded_by::<G>(inputs, &ones);
    hashed
        .iter()
        .zip(blinds)
        .map(|(h, r)| G::add(h, &G::mul_base(r)))
        .collect()
}

fn evaluate<G: PrimeOrderGroup>(
    key: &G::Scalar,
    request: &BlindedElements<G>,
) -> EvaluatedElements<G> {
    let mut out = vec![0u8; request.as_bytes().len()];
    G::encode_batch(&G::mul_batch(key, request.elements()), &mut out);
    EvaluatedElements::from_bytes(&out).unwrap()
}

fn client_batches_are_wiped<G: InMemory>() {
    let inputs: Vec<&[u8]> = vec![b"first", b"second", b"third"];
    let n = inputs.len();
    let key = KeyPair::<G>::from_secret(G::scalar_from_u64(0x5eed));

    // The OPRF client batch: its blinds.
    let seed = format!("{} oprf", G::SUITE_ID);
    let coins = Coins::<G>::replay(seed.as_bytes(), n);
    let secrets: Vec<Vec<u8>> = coins.blinds.iter().map(G::scalar_in_memory).collect();
    let expected = blinded_by::<G>(&inputs, &coins.blinds);
    let blinded = assert_wiped(
        &format!("{} oprf client", G::SUITE_ID),
        &secrets,
        G::drop_unwiped(&coins.blinds),
        || {
            let batch = OprfClient::<G>::new()
                .blind(&inputs, &mut ReplayRng::new(seed.as_bytes()))
                .unwrap();
            let blinded = batch.request().clone();
            let evaluated = evaluate::<G>(key.secret(), &blinded);
            batch.finalize(&evaluated).unwrap();
            blinded
        },
    );
    assert_eq!(
        blinded.elements(),
        expected.as_slice(),
        "the replayed blinds are not the batch's"
    );

    // The checked client: blinds, factors, d, s.
    let seed = format!("{} checked", G::SUITE_ID);
    let coins = Coins::<G>::replay(seed.as_bytes(), n);
    let mut secrets = coins.secrets();
    secrets.extend(coins.unblinding_secrets());
    let wire = assert_wiped(
        &format!("{} checked client", G::SUITE_ID),
        &secrets,
        coins.drop_unwiped(),
        || {
            let rng = &mut ReplayRng::new(seed.as_bytes());
            let batch = checked_client(&key).blind(&inputs, rng).unwrap();
            let wire = batch.request().clone();
            let evaluated = evaluate::<G>(key.secret(), &wire);
            batch.finalize(&evaluated).unwrap();
            wire
        },
    );
    coins.assert_match(&checked_blinded_by::<G>(&inputs, &coins.blinds), &wire);

    // The threshold client (2 of 3), and a batch dropped unused.
    let (shares, commitments) =
        deal::<G, _>(key.secret(), 2, 3, &mut ReplayRng::new(b"dealer")).unwrap();
    let seed = format!("{} threshold", G::SUITE_ID);
    let coins = Coins::<G>::replay(seed.as_bytes(), n);
    let wire = assert_wiped(
        &format!("{} threshold client", G::SUITE_ID),
        &coins.secrets(),
        coins.drop_unwiped(),
        || {
            let rng = &mut ReplayRng::new(seed.as_bytes());
            let batch = threshold_client(&commitments).blind(&inputs, rng).unwrap();
            let wire = batch.request().clone();
            threshold_finish(&shares, &wire, |responses| {
                batch.finalize(responses).map(|_| ())
            });
            wire
        },
    );
    coins.assert_match(&blinded_by::<G>(&inputs, &coins.blinds), &wire);
    assert_wiped(
        &format!("{} unused threshold client", G::SUITE_ID),
        &coins.secrets(),
        coins.drop_unwiped(),
        || {
            let rng = &mut ReplayRng::new(seed.as_bytes());
            drop(threshold_client(&commitments).blind(&inputs, rng).unwrap());
        },
    );

    // Threshold ElGamal decryption, blinded.
    let mut rng = ReplayRng::new(b"ciphertexts");
    let ciphertexts: Vec<elgamal::Ciphertext<G>> = (1..=n as u64)
        .map(|i| {
            elgamal::encrypt(
                commitments.public_key(),
                &G::mul_base(&G::scalar_from_u64(i)),
                &mut rng,
            )
            .unwrap()
        })
        .collect();
    let seed = format!("{} elgamal", G::SUITE_ID);
    let coins = Coins::<G>::replay(seed.as_bytes(), n);
    let wire = assert_wiped(
        &format!("{} elgamal client", G::SUITE_ID),
        &coins.secrets(),
        coins.drop_unwiped(),
        || {
            let rng = &mut ReplayRng::new(seed.as_bytes());
            let batch = decryption_client(&commitments, true)
                .blind_ciphertexts(&ciphertexts, rng)
                .unwrap();
            let wire = batch.request().clone();
            threshold_finish(&shares, &wire, |responses| {
                batch.finalize(responses).map(|_| ())
            });
            wire
        },
    );
    let sent: Vec<G::Element> = ciphertexts
        .iter()
        .zip(&coins.blinds)
        .map(|(c, r)| G::mul(&c.c1, r))
        .collect();
    coins.assert_match(&sent, &wire);
}

/// The checked client of `key`'s server (committed-key check).
fn checked_client<G: PrimeOrderGroup>(key: &KeyPair<G>) -> CheckedOprfClient<G> {
    CheckedOprfClient::committed_key(key.public_key().clone(), Kappa::new(KAPPA).unwrap()).unwrap()
}

/// The threshold OPRF client of `commitments`.
fn threshold_client<G: PrimeOrderGroup>(commitments: &Commitments<G>) -> ThresholdOprfClient<G> {
    ThresholdOprfClient::new(commitments.clone(), Kappa::new(KAPPA).unwrap())
}

/// The ElGamal decryption client of `commitments`.
fn decryption_client<G: PrimeOrderGroup>(
    commitments: &Commitments<G>,
    blinded: bool,
) -> DecryptionClient<G> {
    DecryptionClient::new(commitments.clone(), blinded, Kappa::new(KAPPA).unwrap())
}

/// Every server answers `wire` honestly; `finish` consumes the batch.
fn threshold_finish<G: PrimeOrderGroup, E: std::fmt::Debug>(
    shares: &[KeyShare<G>],
    wire: &BlindedElements<G>,
    finish: impl FnOnce(&[Response<'_>]) -> Result<(), E>,
) {
    let answers: Vec<Vec<u8>> = shares
        .iter()
        .map(|share| evaluate_share(share, None, wire).unwrap().to_bytes())
        .collect();
    let responses: Vec<Response<'_>> = shares
        .iter()
        .zip(&answers)
        .map(|(s, a)| Response {
            party: s.id(),
            elements: a,
        })
        .collect();
    finish(&responses).unwrap();
}

#[test]
fn client_coins_are_wiped_ristretto255() {
    client_batches_are_wiped::<Ristretto255>();
}

#[test]
fn client_coins_are_wiped_p256() {
    client_batches_are_wiped::<P256>();
}

#[test]
fn client_coins_are_wiped_bls12_381() {
    client_batches_are_wiped::<Bls12381G1>();
}

#[test]
fn client_coins_are_wiped_ffdhe2048() {
    client_batches_are_wiped::<Ffdhe2048>();
}

// ---------------------------------------------------------------------------
// What a client derives from its private inputs.

/// `n` private inputs of 32 random-looking bytes (recognisable needles).
fn private_inputs(seed: &[u8], n: usize) -> Vec<Vec<u8>> {
    let mut rng = ReplayRng::new(seed);
    (0..n)
        .map(|_| {
            let mut x = vec![0u8; 32];
            rng.fill_bytes(&mut x);
            x
        })
        .collect()
}

/// The encodings of `N_i = k·H(x_i)`, the unblinded elements an OPRF-mode
/// client computes for `inputs` under `key` (RFC 9497 HashToGroup DST).
fn unblinded_encodings<G: PrimeOrderGroup>(key: &G::Scalar, inputs: &[&[u8]]) -> Vec<Vec<u8>> {
    let dst = [
        b"HashToGroup-OPRFV1-\x00-".as_slice(),
        G::SUITE_ID.as_bytes(),
    ]
    .concat();
    inputs
        .iter()
        .map(|x| encode_to_vec::<G>(&G::mul(&G::hash_to_group(&[x], &dst), key)))
        .collect()
}

/// The OPRF, checked and threshold clients leave nothing of their inputs,
/// of the unblinded elements or of their outputs behind (the outputs wipe
/// themselves when the caller drops them).
fn client_private_values_are_wiped<G: InMemory>() {
    let owned = private_inputs(G::SUITE_ID.as_bytes(), 3);
    let inputs: Vec<&[u8]> = owned.iter().map(Vec::as_slice).collect();
    let key = KeyPair::<G>::from_secret(G::scalar_from_u64(0x5eed));
    let (shares, commitments) =
        deal::<G, _>(key.secret(), 2, 3, &mut ReplayRng::new(b"dealer")).unwrap();
    let outputs: Vec<Vec<u8>> = {
        let batch = OprfClient::<G>::new()
            .blind(&inputs, &mut ReplayRng::new(b"x"))
            .unwrap();
        let evaluated = evaluate::<G>(key.secret(), batch.request());
        let outputs = batch.finalize(&evaluated).unwrap();
        outputs.iter().map(|o| o.to_vec()).collect()
    };
    let mut secrets = owned.clone();
    secrets.extend(unblinded_encodings::<G>(key.secret(), &inputs));
    secrets.extend(outputs.iter().cloned());
    let copies = || {
        let copies = secrets.clone();
        move || drop(copies)
    };
    assert_wiped(
        &format!("{} oprf client's inputs and outputs", G::SUITE_ID),
        &secrets,
        copies(),
        || {
            let batch = OprfClient::<G>::new()
                .blind(&inputs, &mut ReplayRng::new(b"y"))
                .unwrap();
            let evaluated = evaluate::<G>(key.secret(), batch.request());
            let got = batch.finalize(&evaluated).unwrap();
            assert_eq!(got.len(), outputs.len());
        },
    );
    assert_wiped(
        &format!("{} checked client's inputs and outputs", G::SUITE_ID),
        &secrets,
        copies(),
        || {
            let batch = checked_client(&key)
                .blind(&inputs, &mut ReplayRng::new(b"z"))
                .unwrap();
            let evaluated = evaluate::<G>(key.secret(), batch.request());
            let got = batch.finalize(&evaluated).unwrap();
            assert_eq!(got.len(), outputs.len());
        },
    );
    assert_wiped(
        &format!("{} threshold client's inputs and outputs", G::SUITE_ID),
        &secrets,
        copies(),
        || {
            let rng = &mut ReplayRng::new(b"w");
            let batch = threshold_client(&commitments).blind(&inputs, rng).unwrap();
            let wire = batch.request().clone();
            threshold_finish(&shares, &wire, |responses| {
                batch
                    .finalize(responses)
                    .map(|got| assert_eq!(got.outputs.len(), 3))
            });
        },
    );
}

/// Threshold ElGamal leaves neither the decrypted Diffie–Hellman values
/// `sk·c1`, nor the plaintexts, nor the KEM secrets behind.
fn decrypted_values_are_wiped<G: InMemory>() {
    let secret = G::scalar_from_u64(0xdec0de);
    let (shares, commitments) =
        deal::<G, _>(&secret, 2, 3, &mut ReplayRng::new(b"dealer")).unwrap();
    let mut rng = ReplayRng::new(b"messages");
    let messages: Vec<G::Element> = (0..3)
        .map(|_| G::mul_base(&G::random_scalar(&mut rng)))
        .collect();
    let ciphertexts: Vec<elgamal::Ciphertext<G>> = messages
        .iter()
        .map(|m| elgamal::encrypt(commitments.public_key(), m, &mut rng).unwrap())
        .collect();
    let encapsulations: Vec<(G::Element, Vec<u8>)> = (0..3)
        .map(|_| {
            let (c1, shared) =
                elgamal::encapsulate::<G, _>(commitments.public_key(), &mut rng).unwrap();
            (c1, shared.to_vec())
        })
        .collect();
    let dh = |c1: &G::Element| encode_to_vec::<G>(&G::mul(c1, &secret));
    let mut plaintext_secrets: Vec<Vec<u8>> = messages.iter().map(encode_to_vec::<G>).collect();
    plaintext_secrets.extend(ciphertexts.iter().map(|c| dh(&c.c1)));
    let mut kem_secrets: Vec<Vec<u8>> = encapsulations.iter().map(|(_, s)| s.clone()).collect();
    kem_secrets.extend(encapsulations.iter().map(|(c1, _)| dh(c1)));
    for blinded in [false, true] {
        let copies = plaintext_secrets.clone();
        assert_wiped(
            &format!("{} elgamal plaintexts (blinded {blinded})", G::SUITE_ID),
            &plaintext_secrets,
            move || drop(copies),
            || {
                let rng = &mut ReplayRng::new(b"decrypt");
                let batch = decryption_client(&commitments, blinded)
                    .blind_ciphertexts(&ciphertexts, rng)
                    .unwrap();
                let wire = batch.request().clone();
                threshold_finish(&shares, &wire, |responses| {
                    batch
                        .finalize(responses)
                        .map(|got| assert_eq!(got.outputs.len(), 3))
                });
            },
        );
        let copies = kem_secrets.clone();
        let c1: Vec<G::Element> = encapsulations.iter().map(|(c1, _)| c1.clone()).collect();
        assert_wiped(
            &format!("{} elgamal KEM secrets (blinded {blinded})", G::SUITE_ID),
            &kem_secrets,
            move || drop(copies),
            || {
                let rng = &mut ReplayRng::new(b"decapsulate");
                let batch = decryption_client(&commitments, blinded)
                    .blind_encapsulations(&c1, rng)
                    .unwrap();
                let wire = batch.request().clone();
                threshold_finish(&shares, &wire, |responses| {
                    batch
                        .finalize(responses)
                        .map(|got| assert_eq!(got.outputs.len(), 3))
                });
            },
        );
    }
}

#[test]
fn client_private_values_are_wiped_on_every_suite() {
    client_private_values_are_wiped::<Ristretto255>();
    client_private_values_are_wiped::<P256>();
    client_private_values_are_wiped::<Bls12381G1>();
    client_private_values_are_wiped::<Ffdhe2048>();
}

#[test]
fn decrypted_values_are_wiped_on_every_suite() {
    decrypted_values_are_wiped::<Ristretto255>();
    decrypted_values_are_wiped::<P256>();
    decrypted_values_are_wiped::<Bls12381G1>();
    decrypted_values_are_wiped::<Ffdhe2048>();
}

/// The blind BLS signing client (BLS12-381 only): its blinds and coins.
#[test]
fn bls_signing_coins_are_wiped() {
    let mut rng = ReplayRng::new(b"bls dealer");
    let secret = Bls12381G1::random_scalar(&mut rng);
    let (shares, key_set) = bls::deal(&secret, 2, 3, &mut rng).unwrap();
    let messages: Vec<&[u8]> = vec![b"one", b"two"];
    let coins = Coins::<Bls12381G1>::replay(b"bls client", messages.len());
    let wire = assert_wiped("bls client", &coins.secrets(), coins.drop_unwiped(), || {
        let rng = &mut ReplayRng::new(b"bls client");
        let batch = SigningClient::new(key_set.clone(), Kappa::new(KAPPA).unwrap())
            .blind(&messages, rng)
            .unwrap();
        let wire = batch.request().clone();
        threshold_finish(&shares, &wire, |responses| {
            batch.finalize(responses).map(|_| ())
        });
        wire
    });
    let hashed: Vec<_> = messages
        .iter()
        .map(|m| Bls12381G1::hash_to_group(&[m], bls::SIGNATURE_DST))
        .collect();
    let sent: Vec<_> = hashed
        .iter()
        .zip(&coins.blinds)
        .map(|(h, r)| Bls12381G1::mul(h, r))
        .collect();
    coins.assert_match(&sent, &wire);
}

// ---------------------------------------------------------------------------
// A DKG refresh party through the C ABI.

/// A DKG party started through the C ABI from a dealt share (party 2 of a
/// `t`-of-`n` key) by `start`, given the share's and the commitments'
/// handles and the session, then freed with them: the old share, which the
/// party copies, must be in no freed block.
fn share_holding_party_is_wiped<G: InMemory>(
    what: &str,
    t: usize,
    n: usize,
    start: unsafe fn(
        *const oblivex_key_share,
        *const oblivex_commitments,
        &[u8; OBLIVEX_DKG_SESSION_ID_LEN],
    ) -> *mut oblivex_dkg_party,
) {
    let mut rng = ReplayRng::new(format!("{} {what}", G::SUITE_ID).as_bytes());
    let key = G::random_scalar(&mut rng);
    let (shares, commitments) = deal::<G, _>(&key, t, n, &mut rng).unwrap();
    let share = &shares[1];
    let share_bytes = share.to_bytes();
    let commitment_bytes = commitments.to_bytes();
    let session = [0x5e_u8; OBLIVEX_DKG_SESSION_ID_LEN];
    assert_wiped(
        &format!("{} {what}", G::SUITE_ID),
        &[G::scalar_in_memory(share.secret())],
        G::drop_unwiped(std::slice::from_ref(share.secret())),
        || {
            let (mut handle, mut committed) = (ptr::null_mut(), ptr::null_mut());
            // SAFETY: each buffer holds its length; the outputs are writable;
            // the handles made here are live until freed once below.
            unsafe {
                let status = oblivex_key_share_from_bytes(
                    G::SUITE,
                    share_bytes.as_ptr(),
                    share_bytes.len(),
                    &mut handle,
                );
                assert_eq!(status, OBLIVEX_OK);
                let status = oblivex_commitments_from_bytes(
                    G::SUITE,
                    commitment_bytes.as_ptr(),
                    commitment_bytes.len(),
                    &mut committed,
                );
                assert_eq!(status, OBLIVEX_OK);
                oblivex_dkg_party_free(start(handle, committed, &session));
                oblivex_commitments_free(committed);
                oblivex_key_share_free(handle);
            }
        },
    );
}

/// A refresh party (`oblivex_dkg_refresh_new`, 3 of 5), freed at once: it
/// holds a copy of the old share and its new polynomials.
///
/// # Safety
/// `share` and `commitments` are live handles of one suite.
unsafe fn start_refresh(
    share: *const oblivex_key_share,
    commitments: *const oblivex_commitments,
    session: &[u8; OBLIVEX_DKG_SESSION_ID_LEN],
) -> *mut oblivex_dkg_party {
    let mut party = ptr::null_mut();
    // SAFETY: live handles (the caller's contract), the session's length,
    // a writable output.
    let status = unsafe {
        oblivex_dkg_refresh_new(
            share,
            commitments,
            5,
            session.as_ptr(),
            session.len(),
            &mut party,
        )
    };
    assert_eq!(status, OBLIVEX_OK);
    party
}

/// A resharing's old party (`oblivex_dkg_reshare_dealer_new`, 2 of 3 to 2
/// of 3) stepped to its last round: it copies the old share and deals it
/// as its polynomial's constant term.
///
/// # Safety
/// `share` and `commitments` are live handles of one suite.
unsafe fn start_reshare_dealer(
    share: *const oblivex_key_share,
    commitments: *const oblivex_commitments,
    session: &[u8; OBLIVEX_DKG_SESSION_ID_LEN],
) -> *mut oblivex_dkg_party {
    let mut party = ptr::null_mut();
    // SAFETY: live handles (the caller's contract), the session's length,
    // a writable output; the party is live for both steps, which read
    // nothing (count 0).
    unsafe {
        let status = oblivex_dkg_reshare_dealer_new(
            share,
            commitments,
            3,
            2,
            3,
            session.as_ptr(),
            session.len(),
            &mut party,
        );
        assert_eq!(status, OBLIVEX_OK);
        let status = oblivex_dkg_party_round3(party, ptr::null(), ptr::null(), ptr::null(), 0);
        assert_eq!(status, OBLIVEX_OK);
        let status = oblivex_dkg_party_round4(party, ptr::null(), ptr::null(), ptr::null(), 0);
        assert_eq!(status, OBLIVEX_OK);
    }
    party
}

#[test]
fn reshare_dealers_are_wiped_on_free() {
    let dealer = "reshare dealer";
    share_holding_party_is_wiped::<Ristretto255>(dealer, 2, 3, start_reshare_dealer);
    share_holding_party_is_wiped::<P256>(dealer, 2, 3, start_reshare_dealer);
    share_holding_party_is_wiped::<Bls12381G1>(dealer, 2, 3, start_reshare_dealer);
    share_holding_party_is_wiped::<Ffdhe2048>(dealer, 2, 3, start_reshare_dealer);
}

#[test]
fn dkg_refresh_parties_are_wiped_on_free() {
    let refresh = "dkg refresh party";
    share_holding_party_is_wiped::<Ristretto255>(refresh, 3, 5, start_refresh);
    share_holding_party_is_wiped::<P256>(refresh, 3, 5, start_refresh);
    share_holding_party_is_wiped::<Bls12381G1>(refresh, 3, 5, start_refresh);
    share_holding_party_is_wiped::<Ffdhe2048>(refresh, 3, 5, start_refresh);
}

/// A DKG party's dealing (`DkgParty::start`, 3 of 9): its secret and
/// blinding polynomials, drawn from a replayed RNG, and the share and
/// blinding share of each of its 8 pairs, must be in no freed block once
/// its state and messages are dropped (9 parties: more pairs than a vector
/// grown push by push holds before it moves, which would leave the first
/// ones in the block it frees).
fn dealing_is_wiped<G: InMemory>() {
    let seed = format!("{} dealing", G::SUITE_ID);
    let (t, n) = (3, 9);
    let mut replay = ReplayRng::new(seed.as_bytes());
    let mut coefficients = G::random_scalars(t, &mut replay);
    coefficients.extend(G::random_scalars(t, &mut replay));
    let params = DkgParams::<G>::new(t, n, [0x5e; SESSION_ID_LEN]).unwrap();
    // The pairs' scalars, from a dealing of the same coins outside the
    // watch (each pair ends with its share and blinding share).
    let pair_scalars: Vec<G::Scalar> = {
        let (_, messages) =
            DkgParty::start(params, 1, &mut ReplayRng::new(seed.as_bytes())).unwrap();
        assert_eq!(messages.shares.len(), n - 1);
        messages
            .shares
            .iter()
            .flat_map(|pair| {
                let bytes = pair.to_bytes();
                let scalars = &bytes[bytes.len() - 2 * G::SCALAR_LEN..];
                let decoded: Vec<G::Scalar> = scalars
                    .chunks(G::SCALAR_LEN)
                    .map(|scalar| G::decode_scalar(scalar).unwrap())
                    .collect();
                decoded
            })
            .collect()
    };
    let watched: Vec<G::Scalar> = coefficients.iter().chain(&pair_scalars).cloned().collect();
    let secrets: Vec<Vec<u8>> = watched.iter().map(G::scalar_in_memory).collect();
    let commitments = assert_wiped(
        &format!("{} dkg dealing", G::SUITE_ID),
        &secrets,
        G::drop_unwiped(&watched),
        || {
            let rng = &mut ReplayRng::new(seed.as_bytes());
            let (state, messages) = DkgParty::start(params, 1, rng).unwrap();
            drop(state);
            messages.commitments.to_bytes()
        },
    );
    // The replay is the dealing's: its first commitment is a_0·B + b_0·H.
    let h = G::hash_to_group(&[G::SUITE_ID.as_bytes()], PEDERSEN_GENERATOR_DST);
    let first = G::add(
        &G::mul_base(&coefficients[0]),
        &G::mul(&h, &coefficients[t]),
    );
    assert!(
        commitments
            .windows(G::ELEMENT_LEN)
            .any(|w| w == encode_to_vec::<G>(&first).as_slice()),
        "{}: the replayed coefficients are not the dealing's",
        G::SUITE_ID
    );
}

#[test]
fn dkg_dealings_are_wiped_on_drop() {
    dealing_is_wiped::<Ristretto255>();
    dealing_is_wiped::<P256>();
    dealing_is_wiped::<Bls12381G1>();
    dealing_is_wiped::<Ffdhe2048>();
}

// ---------------------------------------------------------------------------
// Shares handed on: into C handles, and into a DKG party.

/// A 1-of-3 dealing of a given key through the C ABI
/// (`oblivex_threshold_deal`), its handles then freed: a polynomial of
/// degree 0 makes every share the key itself, so the key must be in no
/// block freed by the dealing (the shares' vector, once each share is in
/// its handle) or by the handles' release.
fn dealt_shares_are_wiped<G: InMemory>() {
    let mut rng = ReplayRng::new(format!("{} dealt shares", G::SUITE_ID).as_bytes());
    let key = G::random_scalar(&mut rng);
    let encoded = encode_scalar_to_vec::<G>(&key);
    assert_wiped(
        &format!("{} threshold_deal", G::SUITE_ID),
        &[G::scalar_in_memory(&key)],
        G::drop_unwiped(std::slice::from_ref(&key)),
        || {
            let mut shares = [ptr::null_mut(); 3];
            let mut commitments = ptr::null_mut();
            // SAFETY: `encoded` holds its length; 3 writable share
            // pointers and a writable commitments pointer.
            let status = unsafe {
                oblivex_threshold_deal(
                    G::SUITE,
                    encoded.as_ptr(),
                    encoded.len(),
                    1,
                    3,
                    shares.as_mut_ptr(),
                    &mut commitments,
                )
            };
            assert_eq!(status, OBLIVEX_OK);
            // SAFETY: the live handles made above, each freed once.
            unsafe {
                for share in shares {
                    oblivex_key_share_free(share);
                }
                oblivex_commitments_free(commitments);
            }
        },
    );
}

#[test]
fn dealt_shares_are_wiped_on_free() {
    dealt_shares_are_wiped::<Ristretto255>();
    dealt_shares_are_wiped::<P256>();
    dealt_shares_are_wiped::<Bls12381G1>();
    dealt_shares_are_wiped::<Ffdhe2048>();
}

/// Messages as a party takes them: sender and bytes.
fn as_received(messages: &[(u16, Vec<u8>)]) -> Vec<Received<'_>> {
    messages
        .iter()
        .map(|(from, bytes)| Received { from: *from, bytes })
        .collect()
}

/// Party 2 of a 2-of-3 key generation takes the other dealers' round-1
/// messages (`Round1State::round2`) and is then dropped: the share and
/// blinding share each dealer sent it (decoded from the pairs' last
/// `2·SCALAR_LEN` bytes) must be in no freed block.
fn received_pairs_are_wiped<G: InMemory>() {
    let params = DkgParams::<G>::new(2, 3, [0x5e; SESSION_ID_LEN]).unwrap();
    let rng = &mut ReplayRng::new(format!("{} received pairs", G::SUITE_ID).as_bytes());
    let mut parties: Vec<_> = (1..=3)
        .map(|id| DkgParty::start(params, id, rng).unwrap())
        .collect();
    let (receiver, _) = parties.remove(1);
    let from_dealers = || parties.iter().zip([1, 3]);
    let broadcasts: Vec<_> = from_dealers()
        .map(|((_, sent), from)| (from, sent.commitments.to_bytes()))
        .collect();
    let pairs: Vec<_> = from_dealers()
        .map(|((_, sent), from)| {
            let pair = sent.shares.iter().find(|p| p.recipient() == 2).unwrap();
            (from, pair.to_bytes().to_vec())
        })
        .collect();
    drop(parties);
    let received_scalars: Vec<G::Scalar> = pairs
        .iter()
        .flat_map(|(_, bytes)| bytes[bytes.len() - 2 * G::SCALAR_LEN..].chunks(G::SCALAR_LEN))
        .map(|scalar| G::decode_scalar(scalar).unwrap())
        .collect();
    let secrets: Vec<Vec<u8>> = received_scalars.iter().map(G::scalar_in_memory).collect();
    assert_wiped(
        &format!("{} dkg received pairs", G::SUITE_ID),
        &secrets,
        G::drop_unwiped(&received_scalars),
        || {
            let (state, complaints) = receiver
                .round2(&as_received(&broadcasts), &as_received(&pairs))
                .unwrap();
            assert!(complaints.accused().is_empty());
            drop(state);
        },
    );
}

#[test]
fn dkg_received_pairs_are_wiped_on_drop() {
    received_pairs_are_wiped::<Ristretto255>();
    received_pairs_are_wiped::<P256>();
    received_pairs_are_wiped::<Bls12381G1>();
    received_pairs_are_wiped::<Ffdhe2048>();
}
