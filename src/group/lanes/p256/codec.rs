//! SEC1 compressed encodings of 8 P-256 points at once (`02 | y odd`,
//! then x big-endian), and the transposition between per-point bytes and
//! word-sliced limbs.

use core::arch::x86_64::*;

use super::field::{sqrt_candidate_each, Fe8, P};
use super::point::{curve_rhs, Jacobian8};
use crate::group::lanes::toolkit::{opaque_lanes, LANES};

/// Bytes of a compressed encoding.
pub(super) const ENCODING_LEN: usize = 33;

/// The SEC1 compressed encoding of the generator: what padding lanes hold
/// (a valid point, so a batch inversion never meets a zero there).
pub(super) const GENERATOR_ENCODING: [u8; ENCODING_LEN] = [
    0x03, 0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5, 0x63, 0xa4, 0x40,
    0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2,
    0x96,
];

/// `2^52 − 1`.
const LOW_52: u64 = (1 << 52) - 1;

/// The five 52-bit limbs of a 256-bit big-endian string.
pub(super) fn limbs_of_be(bytes: &[u8; 32]) -> [u64; 5] {
    let w: [u64; 4] = core::array::from_fn(|i| {
        let start = 32 - 8 * (i + 1);
        u64::from_be_bytes(bytes[start..start + 8].try_into().expect("8 bytes"))
    });
    [
        w[0] & LOW_52,
        ((w[0] >> 52) | (w[1] << 12)) & LOW_52,
        ((w[1] >> 40) | (w[2] << 24)) & LOW_52,
        ((w[2] >> 28) | (w[3] << 36)) & LOW_52,
        w[3] >> 16,
    ]
}

/// The 256-bit big-endian string of five 52-bit limbs of a value below
/// 2^256.
pub(super) fn be_of_limbs(l: &[u64; 5]) -> [u8; 32] {
    let w = [
        l[0] | (l[1] << 52),
        (l[1] >> 12) | (l[2] << 40),
        (l[2] >> 24) | (l[3] << 28),
        (l[3] >> 36) | (l[4] << 16),
    ];
    let mut out = [0u8; 32];
    for (i, word) in w.iter().enumerate() {
        out[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// Word-sliced limbs of 8 values (lane `j`: `values[j]`).
#[target_feature(enable = "avx512f")]
pub(super) fn slice(values: &[[u64; 5]; LANES]) -> [__m512i; 5] {
    core::array::from_fn(|i| {
        let lanes: [u64; LANES] = core::array::from_fn(|j| values[j][i]);
        // SAFETY: [u64; 8] and __m512i have the same size; unaligned load.
        unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
    })
}

/// The per-lane values of word-sliced limbs.
#[target_feature(enable = "avx512f")]
pub(super) fn unslice(limbs: &[__m512i; 5]) -> [[u64; 5]; LANES] {
    let mut columns = [[0u64; LANES]; 5];
    for (column, limb) in columns.iter_mut().zip(limbs) {
        // SAFETY: [u64; 8] and __m512i have the same size; unaligned store.
        unsafe { _mm512_storeu_si512(column.as_mut_ptr().cast(), *limb) };
    }
    core::array::from_fn(|j| core::array::from_fn(|i| columns[i][j]))
}

/// Whether 32 big-endian bytes are below p (public data: a received
/// encoding).
fn below_p_vartime(bytes: &[u8; 32]) -> bool {
    let p = be_of_limbs(&P);
    bytes < &p
}

/// The points of `N` vectors of 8 compressed encodings each, and the mask
/// of the lanes that hold a valid one: prefix 02 or 03, x below p, `x³ −
/// 3x + b` a square; its root (`y`) of the prefix's parity. The `N`
/// square roots run side by side (`field::sqrt_candidate_each`). The
/// encodings are public (a received message), so the byte checks may
/// branch.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn decode_each<const N: usize>(
    encodings: &[[[u8; ENCODING_LEN]; LANES]; N],
) -> [(Jacobian8, __mmask8); N] {
    let mut bytes_valid = [0u8; N];
    let mut odd = [0u8; N];
    let mut xs = [[[0u64; 5]; LANES]; N];
    for (i, vector) in encodings.iter().enumerate() {
        for (lane, encoding) in vector.iter().enumerate() {
            let x: &[u8; 32] = encoding[1..].try_into().expect("32 bytes");
            if matches!(encoding[0], 0x02 | 0x03) && below_p_vartime(x) {
                bytes_valid[i] |= 1 << lane;
                odd[i] |= (encoding[0] & 1) << lane;
                xs[i][lane] = limbs_of_be(x);
            }
        }
    }
    let x = xs.map(|xs| Fe8::from_canonical_limbs(slice(&xs)));
    let rhs = x.map(|x| curve_rhs(&x));
    let roots = sqrt_candidate_each(&rhs);
    core::array::from_fn(|i| {
        let is_root = roots[i].square().equals(&rhs[i]);
        let y = roots[i].negate_where(roots[i].is_odd() ^ odd[i]);
        (Jacobian8::from_affine(x[i], y), bytes_valid[i] & is_root)
    })
}

/// The compressed encodings of the affine points `(x, y)`, zeros in the
/// lanes of `identity` (the identity has no compressed form). Constant
/// time in the points (an unblinded element is secret).
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) fn encode_affine(x: &Fe8, y: &Fe8, identity: __mmask8) -> [[u8; ENCODING_LEN]; LANES] {
    let keep = opaque_lanes(!identity);
    let xs = unslice(&x.canonical().map(|l| _mm512_and_si512(l, keep)));
    // The parity is secret (an unblinded element): a mask-free 0/1.
    let odd = _mm512_and_si512(opaque_lanes(y.is_odd()), _mm512_set1_epi64(1));
    let prefix = _mm512_and_si512(_mm512_or_si512(odd, _mm512_set1_epi64(2)), keep);
    let mut prefixes = [0u64; LANES];
    // SAFETY: [u64; 8] and __m512i have the same size; unaligned store.
    unsafe { _mm512_storeu_si512(prefixes.as_mut_ptr().cast(), prefix) };
    core::array::from_fn(|lane| {
        let mut out = [0u8; ENCODING_LEN];
        out[0] = prefixes[lane] as u8;
        out[1..].copy_from_slice(&be_of_limbs(&xs[lane]));
        out
    })
}
