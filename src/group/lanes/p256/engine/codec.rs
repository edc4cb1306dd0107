//! SEC1 compressed encodings of 8 P-256 points at once (`02 | y odd`,
//! then x big-endian).

use oblivex_macros::lane_features;
use zeroize::Zeroizing;

use super::exponents::sqrt_candidate_each;
use super::field::Fe8;
use super::point::{curve_rhs, Jacobian8};
use crate::group::lanes::toolkit::{lane_byte_mask, LANES};

/// Bytes of a compressed encoding.
pub(super) const ENCODING_LEN: usize = 33;

/// The SEC1 compressed encoding of the generator: what padding lanes hold
/// (a valid point, so a batch inversion never meets a zero there).
pub(super) const GENERATOR_ENCODING: [u8; ENCODING_LEN] = [
    0x03, 0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5, 0x63, 0xa4, 0x40,
    0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2,
    0x96,
];

/// p, big-endian: a coordinate's encoding must be below it.
const P_BYTES: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
];

/// Whether 32 big-endian bytes are below p (public data: a received
/// encoding).
fn below_p_vartime(bytes: &[u8; 32]) -> bool {
    bytes < &P_BYTES
}

/// The points of `N` vectors of 8 compressed encodings each, and the mask
/// of the lanes that hold a valid one: prefix 02 or 03, x below p, `x³ −
/// 3x + b` a square; its root (`y`) of the prefix's parity. The `N`
/// square roots run side by side (`exponents::sqrt_candidate_each`). The
/// encodings are public (a received message), so the byte checks may
/// branch.
#[lane_features]
pub(super) fn decode_each<const N: usize>(
    encodings: &[[[u8; ENCODING_LEN]; LANES]; N],
) -> [(Jacobian8, u8); N] {
    let mut bytes_valid = [0u8; N];
    let mut odd = [0u8; N];
    let mut xs = [[[0u8; 32]; LANES]; N];
    for (i, vector) in encodings.iter().enumerate() {
        for (lane, encoding) in vector.iter().enumerate() {
            let x: &[u8; 32] = encoding[1..].try_into().expect("32 bytes");
            if matches!(encoding[0], 0x02 | 0x03) && below_p_vartime(x) {
                bytes_valid[i] |= 1 << lane;
                odd[i] |= (encoding[0] & 1) << lane;
                xs[i][lane] = *x;
            }
        }
    }
    let x = xs.map(|xs| Fe8::from_be_bytes_each(&xs));
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
#[lane_features]
pub(super) fn encode_affine(x: &Fe8, y: &Fe8, identity: u8) -> [[u8; ENCODING_LEN]; LANES] {
    let xs = Zeroizing::new(x.be_bytes_each());
    // The parity is secret (an unblinded element), and so may be the
    // identity lanes: masks, never branched on (`lane_byte_mask`).
    let odd = y.is_odd();
    core::array::from_fn(|lane| {
        let keep = !lane_byte_mask(identity, lane);
        let mut out = [0u8; ENCODING_LEN];
        out[0] = (2 | (lane_byte_mask(odd, lane) & 1)) & keep;
        for (o, x) in out[1..].iter_mut().zip(&xs[lane]) {
            *o = x & keep;
        }
        out
    })
}
