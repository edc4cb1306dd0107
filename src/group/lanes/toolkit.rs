//! What the 8-lane engines share beyond their fields (`field.rs`): the
//! lane count, the wiping of buffers of limb vectors that may hold
//! secrets, the scalars' digits in lanes, what a table scan (`scan.rs`)
//! needs of points and digits, decoding in pairs, the passes a batch is cut
//! into, and AVX-512's secret lane choices.

use core::arch::x86_64::*;
use core::ops::Range;

use crate::group::straus::{digit_count, signed_digits};
use zeroize::Zeroizing;

/// Field elements (and points) per vector: one per 64-bit lane of a zmm
/// register.
pub(crate) const LANES: usize = 8;

/// Types made of limb vectors only, for which all-zero bytes are a valid
/// value, so that a buffer of them can be wiped byte by byte.
///
/// # Safety
///
/// An implementor must consist of limb vectors of one kind only
/// (`__m512i` or `__m256i`, directly or in arrays and structs of them),
/// with no padding.
pub(crate) unsafe trait PlainLimbs: Copy {}

// SAFETY: an array of limb-vector types is limb vectors, without padding.
unsafe impl<T: PlainLimbs, const N: usize> PlainLimbs for [T; N] {}

// SAFETY: one limb vector.
unsafe impl PlainLimbs for __m512i {}

// SAFETY: one limb vector (the AVX2 engines').
unsafe impl PlainLimbs for __m256i {}

/// Overwrites the values of `values` with zero bytes (volatile writes, as
/// `zeroize` does): vectors of field elements that may be secret.
pub(crate) fn wipe<T: PlainLimbs>(values: &mut [T]) {
    let len = core::mem::size_of_val(values);
    // SAFETY: the bytes of `values` are `len` initialized bytes it owns,
    // and all-zero bytes are a valid `T` (`PlainLimbs`).
    let bytes = unsafe { core::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<u8>(), len) };
    zeroize::Zeroize::zeroize(bytes);
}

/// The signed radix-16 digits (`[-8, 8]`, least significant first) of one
/// scalar below `2^bits` (little-endian bytes) in every lane, as the
/// engines' table selects read them (secret: wiped on drop).
pub(crate) fn broadcast_digits(scalar: &[u8], bits: usize) -> Zeroizing<Vec<[i64; LANES]>> {
    let digits = signed_digits(scalar, bits);
    Zeroizing::new(digits.iter().map(|&d| [i64::from(d); LANES]).collect())
}

/// The signed digits of up to 8 scalars below `2^bits` (`bits ≤ 256`),
/// lane `i` holding those of `scalars[i]` (lanes past the scalars: zero),
/// wiped on drop: `straus::signed_digits`'s recoding, the 8 lanes side by
/// side in plain integer arithmetic (no branch, no index on a digit), so
/// one function serves every instruction set (a recoding costs about a
/// thousandth of the scalar multiplication that reads it).
pub(crate) fn per_lane_digits<S: AsRef<[u8]>>(
    scalars: &[S],
    bits: usize,
) -> Zeroizing<Vec<[i64; LANES]>> {
    debug_assert!(bits <= 256, "scalars of at most 256 bits");
    // The scalars' 64-bit words, `words[w][lane]`, zero past each scalar
    // (a fifth word of zeros for the carry digit of 256-bit scalars).
    let mut words = Zeroizing::new([[0u64; LANES]; 5]);
    for (lane, scalar) in scalars.iter().take(LANES).enumerate() {
        for (i, &byte) in scalar.as_ref().iter().take(32).enumerate() {
            words[i / 8][lane] |= u64::from(byte) << (8 * (i % 8));
        }
    }
    let mut digits = Zeroizing::new(vec![[0i64; LANES]; digit_count(bits)]);
    let mut carry = Zeroizing::new([0i64; LANES]);
    for (j, digit) in digits.iter_mut().enumerate() {
        for lane in 0..LANES {
            let nibble = ((words[j / 16][lane] >> (4 * (j % 16))) & 15) as i64 + carry[lane];
            // carry = 1 iff nibble >= 8 (nibble is in [0, 16]).
            carry[lane] = (nibble + 8) >> 4;
            digit[lane] = nibble - (carry[lane] << 4);
        }
    }
    digits
}

/// `count` vectors cut into passes of at most `most + 1`: as many passes as
/// `most` vectors each would need for all but one vector, of balanced
/// sizes, in order, so that one vector past a multiple of `most` (a
/// checked request's extra element) never makes a pass of its own: its
/// inversion, or its multi-scalar multiplication's doublings. No vectors
/// make one empty pass, as `passes` always did (a multi-scalar
/// multiplication of no points then doubles the identity: still right).
pub(crate) fn pass_ranges(count: usize, most: usize) -> impl Iterator<Item = Range<usize>> {
    let passes = count.saturating_sub(1).div_ceil(most).max(1);
    let (base, longer) = (count / passes, count % passes);
    let mut first = 0;
    (0..passes).map(move |pass| {
        let size = base + usize::from(pass < longer);
        first += size;
        first - size..first
    })
}

/// `out` (a batch's encodings, `vector_len` bytes per vector, the last
/// vector possibly partial) cut into the passes that share one inversion
/// each ([`pass_ranges`]). Yields each pass's first vector and its bytes.
pub(crate) fn passes(
    out: &mut [u8],
    vector_len: usize,
    most: usize,
) -> impl Iterator<Item = (usize, &mut [u8])> {
    let mut rest = out;
    pass_ranges(rest.len().div_ceil(vector_len), most).map(move |pass| {
        let remaining = core::mem::take(&mut rest);
        let (this, tail) = remaining.split_at_mut((pass.len() * vector_len).min(remaining.len()));
        rest = tail;
        (pass.start, this)
    })
}

/// Up to 8 encodings of `LEN` bytes as lanes (missing lanes hold
/// `padding`, an encoding of a valid point, so that a batch inversion
/// never meets a zero there) and the mask of the lanes in use.
pub(crate) fn lanes_of<const LEN: usize>(
    chunk: &[u8],
    padding: &[u8; LEN],
) -> ([[u8; LEN]; LANES], u8) {
    let mut lanes = [*padding; LANES];
    let mut used = 0u8;
    for (lane, encoding) in chunk.chunks_exact(LEN).enumerate() {
        lanes[lane].copy_from_slice(encoding);
        used |= 1 << lane;
    }
    (lanes, used)
}

/// The vectors of `encoded` (chunks of `vector_len` bytes) decoded two at
/// a time by `two`, and by `one` where a single vector is left at the end:
/// the engines decode in pairs so that two square roots run side by side
/// (see `chains::square_times_each`).
pub(crate) fn in_pairs<'a, T: 'a>(
    encoded: &'a [u8],
    vector_len: usize,
    one: impl Fn(&'a [u8]) -> T + 'a,
    two: impl Fn(&'a [u8], &'a [u8]) -> [T; 2] + 'a,
) -> impl Iterator<Item = T> + 'a {
    encoded.chunks(2 * vector_len).flat_map(move |pair| {
        let (first, second) = pair.split_at(pair.len().min(vector_len));
        let decoded = if second.is_empty() {
            [Some(one(first)), None]
        } else {
            two(first, second).map(Some)
        };
        decoded.into_iter().flatten()
    })
}

/// Points of 8 lanes a table scan (`scan.rs`) can choose among: limb
/// vectors only, lane choices and lane negations.
pub(crate) trait LanePoints: PlainLimbs {
    /// The instruction set the points are written for (`ifma::Set` or
    /// `avx2::Set`): a table scan compiled for one set takes only its own
    /// set's points.
    type Set;

    /// `other` in the lanes of `mask`, `self` elsewhere (the mask may be
    /// secret: chosen bit by bit).
    ///
    /// # Safety
    ///
    /// The CPU has the points' instruction set (every method here).
    unsafe fn chosen_where(&self, other: &Self, mask: u8) -> Self;

    /// `−self` in the lanes of `mask`.
    ///
    /// # Safety
    ///
    /// As [`LanePoints::chosen_where`].
    unsafe fn negated_where(&self, mask: u8) -> Self;
}

/// The lanes a table scan keeps for one vector of signed digits
/// (`[-8, 8]`): `hits[k]`, where `|d| = k + 1`; where `d < 0`; where `d =
/// 0`. Each instruction set makes them with its own vector comparisons
/// (`digit_masks` of the `ifma` and `avx2` modules).
pub(crate) struct DigitMasks {
    pub(crate) hits: [u8; 8],
    pub(crate) negative: u8,
    pub(crate) zero: u8,
}

/// All-ones in the lanes of `mask`, zeros elsewhere, as a vector the
/// optimiser cannot see through. A blend or masked operation written with
/// the mask itself lets the compiler load an operand under the mask (a
/// spilled value, a table entry): where the mask is secret, an access whose
/// opmask depends on a secret, which the trace check (`ct_trace`) counts,
/// as it should. The engines choose between secret values with these lanes
/// and [`bitselect`] instead: every operand is then read whole.
#[inline]
#[target_feature(enable = "avx512f,avx512dq")]
pub(crate) fn opaque_lanes(mask: __mmask8) -> __m512i {
    let mut lanes = _mm512_movm_epi64(mask);
    // SAFETY: an empty instruction sequence: `lanes` is unchanged, only
    // hidden from the optimiser (no memory, stack or flags touched).
    unsafe {
        core::arch::asm!("/* {0} */", inout(zmm_reg) lanes, options(pure, nomem, nostack, preserves_flags));
    }
    lanes
}

/// All ones if bit `lane` of `mask` is set, else zero, made through a
/// value the optimiser cannot see: the engines' per-lane bytes chosen by a
/// secret mask (an encoding's prefix, an identity's zeroed coordinates) are
/// masked arithmetic, where a mask the compiler could follow became a
/// branch (valgrind's check caught one in `coordinates.rs`).
#[inline]
pub(crate) fn lane_byte_mask(mask: u8, lane: usize) -> u8 {
    let mut bit = (mask >> lane) & 1;
    // SAFETY: an empty instruction sequence: `bit` is unchanged, only
    // hidden from the optimiser (no memory, stack or flags touched).
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg_byte) bit, options(pure, nomem, nostack, preserves_flags));
    }
    0u8.wrapping_sub(bit)
}

/// `a` in the bits set in `lanes` (from [`opaque_lanes`]), `b` elsewhere.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn bitselect(lanes: __m512i, a: __m512i, b: __m512i) -> __m512i {
    // 0xca: lanes ? a : b, bit by bit.
    _mm512_ternarylogic_epi64::<0xca>(lanes, a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_cover_the_batch_in_balanced_order() {
        for (elements, expected) in [
            (1, vec![1]),
            (256, vec![32]),
            (257, vec![33]),
            (8 * 36, vec![18, 18]),
            (8 * 64, vec![32, 32]),
            (8 * 64 + 1, vec![33, 32]),
            (1025, vec![33, 32, 32, 32]),
            (8 * 288, vec![32; 9]),
            (8 * 288 + 1, [vec![33], vec![32; 8]].concat()),
        ] {
            let mut out = vec![0u8; 33 * elements];
            let sizes: Vec<usize> = passes(&mut out, 8 * 33, 32)
                .scan(0, |next, (first, bytes)| {
                    assert_eq!(first, *next, "passes in order");
                    *next += bytes.len().div_ceil(8 * 33);
                    Some(bytes.len().div_ceil(8 * 33))
                })
                .collect();
            assert_eq!(sizes, expected, "{elements} elements");
            let bytes: usize = passes(&mut out, 8 * 33, 32).map(|(_, b)| b.len()).sum();
            assert_eq!(bytes, out.len());
        }
    }

    /// A multi-scalar multiplication's slots: 257 points (33 slots) make
    /// one pass, not a second for one slot and its doublings.
    #[test]
    fn pass_ranges_leave_no_slot_alone() {
        for (count, expected) in [
            (0, vec![(0, 0)]),
            (1, vec![(0, 1)]),
            (32, vec![(0, 32)]),
            (33, vec![(0, 33)]),
            (34, vec![(0, 17), (17, 34)]),
            (129, vec![(0, 33), (33, 65), (65, 97), (97, 129)]),
        ] {
            let got: Vec<(usize, usize)> = pass_ranges(count, 32)
                .map(|pass| (pass.start, pass.end))
                .collect();
            assert_eq!(got, expected, "{count} slots");
        }
    }

    #[test]
    fn per_lane_digits_are_each_scalars_signed_digits() {
        let mut scalars: Vec<[u8; 32]> = vec![[0xff; 32], [0x88; 32], [0x77; 32], [0; 32]];
        scalars
            .extend((1u8..4).map(|i| core::array::from_fn(|j| (j as u8).wrapping_mul(0x3b) ^ i)));
        for bits in [12, 65, 129, 253, 256] {
            let mut masked = scalars.clone();
            for scalar in &mut masked {
                for (i, byte) in scalar.iter_mut().enumerate() {
                    // Keep the bits of this byte below `bits`.
                    *byte &= (0xffu32 >> (8 * (i + 1)).saturating_sub(bits).min(8)) as u8;
                }
            }
            let lanes = per_lane_digits(&masked, bits);
            for (lane, scalar) in masked.iter().enumerate() {
                let alone = signed_digits(scalar, bits);
                assert_eq!(lanes.len(), alone.len());
                assert!(lanes
                    .iter()
                    .zip(alone.iter())
                    .all(|(l, &d)| l[lane] == i64::from(d)));
            }
            assert!(
                lanes.iter().all(|l| l[masked.len()] == 0),
                "lane past the scalars"
            );
        }
    }
}
