//! The secrets each run tries, and the randomness inside the region.
//!
//! Every run builds *all* variants of a secret, in the same order with the
//! same allocations, and keeps a copy of its own ([`pick`]): so the runs
//! reach the region with identical heaps and stacks, and differ only in
//! the secret bytes. Run 0 is the reference: the first two variants are
//! random (random vs random), the next ones sparse and dense (few vs many
//! non-zero digits) and edge values of the type.

use core::convert::Infallible;

use oblivex::group::PrimeOrderGroup;
use rand_core::{TryCryptoRng, TryRng};

/// The variant that run `run` of a case of `runs` runs tries. Four runs:
/// variants 0 to 3 (random, random, sparse, dense). Three: the reference
/// random one, sparse and dense, the second random one left out: every run
/// is compared with run 0, so the pairs kept are the extremes against a
/// random secret, and a quarter of the stops go (CI's time budget). Two:
/// random against random (the longest cases, and the DKG's, whose secrets
/// are whole coin streams).
pub fn variant_of_run(runs: usize, run: usize) -> usize {
    match runs {
        3 => [0, 2, 3][run],
        _ => run,
    }
}

/// A copy of variant `index` in a buffer of its own.
pub fn pick(variants: &[Vec<u8>], index: usize) -> Vec<u8> {
    variants[index].clone()
}

/// SplitMix64: a deterministic stream, no secret.
fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `len` deterministic bytes from `seed`.
pub fn random_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed;
    (0..len).map(|_| split_mix(&mut state) as u8).collect()
}

/// The randomness a protocol draws inside the region: each 8-byte word
/// is `(stream & keep) | fixed`, by the same code for every variant (so
/// that the region runs the same instructions), with the variant in the
/// data: a random stream, another random stream, a sparse one (every word
/// 1: scalars with few non-zero digits, small factors) and a dense one
/// (every byte 0x7f: below every group order, many non-zero digits). After
/// `varied` words, every variant continues with the same fixed stream: the
/// coins a protocol publishes later (a check's factors, spent once the
/// answer is in) are then equal in every run.
pub struct PatternRng {
    state: u64,
    keep: u64,
    fixed: u64,
    varied: u64,
    shared_state: u64,
}

impl PatternRng {
    /// The stream of variant `index` (0 to 3; run 0's is the first), for
    /// every draw.
    pub fn variant(index: usize) -> PatternRng {
        Self::variant_then_shared(index, usize::MAX)
    }

    /// The stream of variant `index` for the first `bytes` bytes drawn,
    /// then the same stream in every run.
    pub fn variant_then_shared(index: usize, bytes: usize) -> PatternRng {
        let patterns = [
            (0x5eed_0001, u64::MAX, 0),
            (0x5eed_0002, u64::MAX, 0),
            (0, 0, 1),
            (0, 0, 0x7f7f_7f7f_7f7f_7f7f),
        ];
        let (state, keep, fixed) = patterns[index % patterns.len()];
        PatternRng {
            state,
            keep,
            fixed,
            varied: (bytes / 8) as u64,
            shared_state: 0x5eed_0003,
        }
    }

    /// The warm-up stream, the same in every run.
    pub fn warm_up() -> PatternRng {
        PatternRng {
            state: 0x3a3a_3a3a,
            keep: u64::MAX,
            fixed: 0,
            varied: u64::MAX,
            shared_state: 0,
        }
    }
}

/// How many bytes `G::random_scalar` draws (counted on one draw).
pub fn scalar_draw_bytes<G: PrimeOrderGroup>() -> usize {
    struct Counting(PatternRng, usize);
    impl TryRng for Counting {
        type Error = Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Infallible> {
            self.1 += 4;
            self.0.try_next_u32()
        }
        fn try_next_u64(&mut self) -> Result<u64, Infallible> {
            self.1 += 8;
            self.0.try_next_u64()
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
            self.1 += dst.len();
            self.0.try_fill_bytes(dst)
        }
    }
    impl TryCryptoRng for Counting {}
    let mut counting = Counting(PatternRng::warm_up(), 0);
    drop(G::random_scalar(&mut counting));
    counting.1
}

impl TryRng for PatternRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.try_next_u64()? as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        // Both streams advance on every word; which one is used depends on
        // the count of words drawn only (public), through a mask.
        let varied = (split_mix(&mut self.state) & self.keep) | self.fixed;
        let shared = split_mix(&mut self.shared_state);
        let use_varied = 0u64.wrapping_sub(u64::from(self.varied > 0));
        self.varied = self.varied.saturating_sub(1);
        Ok((varied & use_varied) | (shared & !use_varied))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let word = self.try_next_u64()?.to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        Ok(())
    }
}

impl TryCryptoRng for PatternRng {}

/// Encoded scalars of `G`: random (two), `2^sparse_bit` (one non-zero
/// digit, even), `q − 2` (odd; on P-256's engine, the scalar whose last
/// addition is a doubling), `q − 1`, `1`. A case of 4 runs meets both
/// parities whatever the random ones are.
pub fn scalar_variants<G: PrimeOrderGroup>(sparse_bit: u32) -> Vec<Vec<u8>> {
    let encode = |s: &G::Scalar| {
        let mut out = vec![0u8; G::SCALAR_LEN];
        G::encode_scalar(s, &mut out);
        out
    };
    let two = G::scalar_from_u64(2);
    let sparse = (0..sparse_bit).fold(G::scalar_from_u64(1), |acc, _| G::scalar_mul(&acc, &two));
    let zero = G::scalar_from_u64(0);
    let one = G::scalar_from_u64(1);
    let minus_one = G::scalar_sub(&zero, &one);
    let minus_two = G::scalar_sub(&minus_one, &one);
    vec![
        encode(&G::random_scalar(&mut PatternRng::variant(0))),
        encode(&G::random_scalar(&mut PatternRng::variant(1))),
        encode(&sparse),
        encode(&minus_two),
        encode(&minus_one),
        encode(&one),
    ]
}

/// The scalar of variant `index`, decoded from a buffer of its own; the
/// sparse one is `2^252` (one digit, just below ristretto255's order).
pub fn scalar<G: PrimeOrderGroup>(index: usize) -> G::Scalar {
    scalar_with_sparse_bit::<G>(index, 252)
}

/// [`scalar`] with the sparse variant `2^sparse_bit`.
pub fn scalar_with_sparse_bit<G: PrimeOrderGroup>(index: usize, sparse_bit: u32) -> G::Scalar {
    let bytes = pick(&scalar_variants::<G>(sparse_bit), index);
    G::decode_scalar(&bytes).expect("every variant is a valid non-zero scalar")
}

/// `count` private inputs of `len` bytes each: random (two), all zero, all
/// 0xff.
pub fn input_variants(count: usize, len: usize) -> Vec<Vec<u8>> {
    vec![
        random_bytes(11, count * len),
        random_bytes(12, count * len),
        vec![0; count * len],
        vec![0xff; count * len],
    ]
}
