//! RFC 9380's `BLS12381G1_XMD:SHA-256_SSWU_RO_` after
//! `expand_message_xmd`, 8 inputs at once: `hash_to_field` (two 64-byte
//! strings reduced modulo p), the simplified SWU map of each to the
//! 11-isogenous curve `E': y² = x³ + A'x + B'` (the straight-line form of
//! RFC 9380 appendix F.2 for p ≡ 3 mod 4, its cases merged by lane
//! masks, the two exponentiations side by side), the 11-isogeny to E
//! (its four polynomials by Horner's rule in homogeneous form: no
//! inversion), the sum of the two points, and the cofactor clearing by
//! `h_eff = 1 − z`. Constant time in the inputs (a client's private
//! inputs): every case is a mask, including the additions' (an operand
//! the identity, equal operands).

use oblivex_macros::lane_features;

use super::chains::pow_each;
use super::field::{constant, constants, splat, Constant, Fp8};
use super::point::Jacobian8;
use crate::group::lanes::toolkit::LANES;
use zeroize::Zeroizing;

/// Bytes of `expand_message_xmd` per input: two field elements of 64.
pub(crate) const UNIFORM_LEN: usize = 128;

/// `|z|` for the curve's parameter `z = −0xd201000000010000`: the cofactor
/// clearing multiplies by `h_eff = 1 − z = |z| + 1`.
const Z_ABS: u64 = 0xd201000000010000;

/// `(p − 3)/4`, big-endian (`c1` of `sqrt_ratio` for p ≡ 3 mod 4).
const P_MINUS_3_OVER_4: [u8; 48] = [
    0x06, 0x80, 0x44, 0x7a, 0x8e, 0x5f, 0xf9, 0xa6, 0x92, 0xc6, 0xe9, 0xed, 0x90, 0xd2, 0xeb, 0x35,
    0xd9, 0x1d, 0xd2, 0xe1, 0x3c, 0xe1, 0x44, 0xaf, 0xd9, 0xcc, 0x34, 0xa8, 0x3d, 0xac, 0x3d, 0x89,
    0x07, 0xaa, 0xff, 0xff, 0xac, 0x54, 0xff, 0xff, 0xee, 0x7f, 0xbf, 0xff, 0xff, 0xff, 0xea, 0xaa,
];

/// `2^384`, in Montgomery form (`hash_to_field`'s high part).
const TWO_POW_384: Constant = constant([
    0x551039a1d2c25,
    0xc857a984373dc,
    0x3331128e8da66,
    0xba38b82e8f651,
    0xbb197b6252a29,
    0xcbe4f4e32928c,
    0x80ef81f158c5d,
    0x000000000e91f,
]);

/// `A'` of the isogenous curve, in Montgomery form.
const A_PRIME: Constant = constant([
    0xef04ef21a1d3d,
    0xbbb7dd060d393,
    0xff807c891fa32,
    0x4fa226001e542,
    0x07bb9118160f3,
    0x1b290faa81f81,
    0x9d3a96a7ea346,
    0x000000000f49b,
]);

/// `B'` of the isogenous curve, in Montgomery form.
const B_PRIME: Constant = constant([
    0x3b73bc2a9d2a5,
    0x15a68b00ba2c3,
    0x9cc6f3e45ccb6,
    0x954434d7b95ae,
    0xabe57e8ae707a,
    0x09f7da2e4af85,
    0xb2d5637f0c3a9,
    0x0000000013315,
]);

/// RFC 9380's `Z = 11`, in Montgomery form.
const Z: Constant = constant([
    0xd18a1420da52d,
    0x668c0a2ed1269,
    0xa4219d0526a63,
    0xf508c07e4cd00,
    0x74ad0852fdcb0,
    0x1c842acdc01ab,
    0xafa7a8a245d49,
    0x000000001499a,
]);

/// `Z·A'`, in Montgomery form (the denominator where `−A'·tv2` is 0).
const Z_A_PRIME: Constant = constant([
    0xa53646721419d,
    0x18be87429319b,
    0x78290c58db82e,
    0xfb7b36dc5dd84,
    0x8f627fb717555,
    0x84d566bfcf9ba,
    0x09aee94096640,
    0x000000000c249,
]);

/// `sqrt(−Z³)`, in Montgomery form.
const SQRT_MINUS_Z_CUBED: Constant = constant([
    0x1609a746f34c0,
    0x2471ecbcf7b4e,
    0xe27bda0f54066,
    0x3ba01ba17b338,
    0x7f68aaea20d6c,
    0x4d90f06070654,
    0x8fc33dff483e8,
    0x000000000cc7d,
]);

/// The isogeny's `x` numerator `k_(1,0) .. k_(1,11)` (RFC 9380 appendix
/// E.2), lowest degree first, in Montgomery form.
const X_NUM: [Constant; 12] = constants([
    [
        0xc30e54cea954c,
        0x2c005849d7971,
        0xd715c29ae0148,
        0x907020e3a53bd,
        0x7c6a16c411041,
        0xe69948dd0a956,
        0x9d40a27f1ed3b,
        0x000000000f5e1,
    ],
    [
        0xfd4a28549b8f4,
        0x56c8ab28c709f,
        0x4a67a9bb63a5c,
        0x9daed82e709b4,
        0x36ecc71ec6721,
        0xa57a94c7caca4,
        0xbc4ec6861fa43,
        0x0000000005ede,
    ],
    [
        0xc7ef4d37bbe85,
        0x92236a05eef27,
        0xd6fc0574db435,
        0x3663519c3ca70,
        0x316b333e9dff5,
        0x3c576c7a140f5,
        0xc92ab8490ac71,
        0x000000000c4fc,
    ],
    [
        0x05716e5f794dd,
        0xfc61184e8d686,
        0x30e1d3e38b48c,
        0x6151fcd7ea3a6,
        0xa0e4a02f70bc7,
        0x3dcfb71d31c24,
        0x47d0c8984635a,
        0x000000000af4a,
    ],
    [
        0x26de7d1f60d67,
        0x8182188436307,
        0xd73a043fb5b43,
        0xe7d4ff3121ef7,
        0xa701cd8b6ae46,
        0x75c170e4dcf03,
        0xea6a1303cc944,
        0x000000000d60a,
    ],
    [
        0xf789b832e2aed,
        0xf78958405b096,
        0xfddfe71baaf92,
        0x47d0b0a82cad0,
        0x4d90c1c0deb6a,
        0xb15bce09e5c9a,
        0xcdc0886c55d30,
        0x000000000bdbd,
    ],
    [
        0x06a97ce04f560,
        0x00fffdd551b32,
        0x47199ac9bff50,
        0xb47c3597902bb,
        0xcdfbac357584a,
        0x8f6efa5ed8ad2,
        0xf9fd7f04327ca,
        0x00000000122a7,
    ],
    [
        0xcc5403ae7a87e,
        0x1cc773e1e0b98,
        0xa2efbf4da56bf,
        0x3d4fc6fd23363,
        0x26df55044c6ba,
        0xc367629c7621c,
        0xc38f193386049,
        0x0000000011aaf,
    ],
    [
        0x8d0883a03a57f,
        0x5d571d7b705a5,
        0x8cf1bb2d88085,
        0x1247837354aad,
        0x575ff8502bf85,
        0x6c46c26133291,
        0x71d8be7e1ff34,
        0x0000000016b25,
    ],
    [
        0xe905be53dfb6d,
        0xf6bde5df1763a,
        0xa8cf5b1ffaffb,
        0xf0b25ec567037,
        0x21fac7580f013,
        0x7d472ca751155,
        0xf19372639955d,
        0x0000000016a9c,
    ],
    [
        0x43b35628fe157,
        0x193ba130f07bd,
        0x49e1f1f500ce8,
        0x4d6b24785544c,
        0xd353ccf34ad83,
        0x4391e89fca1f7,
        0xbb58c7c4740de,
        0x000000000b65d,
    ],
    [
        0x1c778b758a254,
        0x81bbfc8021969,
        0x3ada674994d40,
        0xeda7fbab772de,
        0x383c94462de09,
        0xc611796de0d20,
        0xb32401cd85fe7,
        0x0000000003653,
    ],
]);

/// The `x` denominator `k_(2,0) .. k_(2,9)` (monic, degree 10).
const X_DEN: [Constant; 10] = constants([
    [
        0xffddaabaf4fbb,
        0x461a3978d1a87,
        0x7664f4474c135,
        0xf0d3c9516dc8b,
        0x42fc35a3eacfc,
        0xadfbad50c4be4,
        0x9406f1317f701,
        0x0000000015301,
    ],
    [
        0xedcc280d3b998,
        0xdb32db8cb9c83,
        0x51de68c8451b1,
        0x65186bc0bb95b,
        0xb015d2931b2ca,
        0xc32558bbd773f,
        0x7305d71c631f4,
        0x000000000187c,
    ],
    [
        0xe1ebde057ede6,
        0xf701bf8ac5cee,
        0x89a384bf63519,
        0xe7f682522c877,
        0x26455e2d04bf4,
        0x7c6a0d8918a6c,
        0xc33a3b1de2f3c,
        0x0000000006671,
    ],
    [
        0xf2b59a37e76be,
        0x5910cce3f4423,
        0x2fb1a5639f07a,
        0x2c420e7c4a1ec,
        0x7ec4a742c1ce0,
        0x1ba3cc82c18db,
        0xaa9dc18dc8167,
        0x0000000011e48,
    ],
    [
        0xc4633ef4c7aa5,
        0x5a8704113ea0d,
        0x0c0c6a885ab6b,
        0x585465bcc8947,
        0xb3bfcdde4c33e,
        0x4f1c0c814a1c4,
        0x9f307fde31339,
        0x0000000017e63,
    ],
    [
        0xa2f6e963dfe1e,
        0xa76d66529a36b,
        0x58975ad56bfc3,
        0x86b89e35375ca,
        0x3990cdf47e935,
        0xec17b5350fa5e,
        0xf8e88e2e9e4ff,
        0x000000000cc98,
    ],
    [
        0x3685d907c46b5,
        0xa0fec5847d039,
        0x9edd4f00a367b,
        0xc96012039bdb9,
        0x168aaeb0fe2eb,
        0xe8d3b77326562,
        0x9a6932b2dbc15,
        0x00000000008a1,
    ],
    [
        0xd164d7bc5e18e,
        0x083a76217257c,
        0x77ba353b75913,
        0x403a89f68d8bc,
        0x649cba6d7b1b0,
        0x17b92b2176137,
        0xb07860155e4ff,
        0x0000000000958,
    ],
    [
        0xb3e92c39cbf78,
        0x699e7d70f4eda,
        0xf635bfd2e9274,
        0x3ad3521dd7157,
        0xa2555359d81f5,
        0x788d4799d7ed3,
        0x511320650b4fc,
        0x000000000df73,
    ],
    [
        0x4fc3b96132cb8,
        0x3278cc21b9058,
        0xc19c0527c7db4,
        0xb603dfc4b22dd,
        0x65d0b4d5f9882,
        0x363e3797de199,
        0x3517f42efb781,
        0x0000000000ec2,
    ],
]);

/// The `y` numerator `k_(3,0) .. k_(3,15)`.
const Y_NUM: [Constant; 16] = constants([
    [
        0xf9dad592d7b8c,
        0xf850a6da6e97d,
        0xae950b4a141e3,
        0xbfea543499d7e,
        0xafeaab0d7181a,
        0xf6e48aefa4f7e,
        0x999907c668735,
        0x0000000019e2b,
    ],
    [
        0x06be07d286036,
        0xab6d53525838a,
        0x298f6a1b91f61,
        0x3725c992e9e88,
        0x5763151c652c2,
        0xd71a27da45a6f,
        0xd8c73e90d7636,
        0x000000001583f,
    ],
    [
        0xb37bdc3e5fa96,
        0xc91740538f2e9,
        0x403df2a4170e9,
        0x51b80c7290ec2,
        0xd06f6a864b7f1,
        0x2b5fcd8a29239,
        0x0335a8b09bc01,
        0x000000000e40d,
    ],
    [
        0x1e42b7f5004ea,
        0xd9b038d8dfbcf,
        0xc16eb0b20be7a,
        0x34267196a920d,
        0xf262ef74540a4,
        0x2f1009a65fea2,
        0xdc431a6aab1f9,
        0x000000000476d,
    ],
    [
        0x05ccf50b6f90e,
        0x26964ff12b986,
        0xb16ab608c5d27,
        0xbe037f65f1212,
        0x6688dadb6132f,
        0x6b1dac26d7e63,
        0x4346754610e94,
        0x00000000143b8,
    ],
    [
        0x5c3662214d762,
        0xf2f505a11e26f,
        0x41cbd90893e8e,
        0x13d3e73de1d43,
        0x7a0646c6025f3,
        0xf13d5df46d13d,
        0x26351734aed13,
        0x000000000c11d,
    ],
    [
        0xdf34be53600ce,
        0xe18fbe77fbd93,
        0x1e768c3f467ee,
        0x2413bbc59b9df,
        0xa069fb72b31c4,
        0x3b95dbf3de6ff,
        0x74a552e5ec78d,
        0x0000000001ead,
    ],
    [
        0x8f0b015ffc674,
        0x73a73a074c7c6,
        0x3b9c0a1cbb3d0,
        0x580deaa0ed8fa,
        0x648ca6442d838,
        0xddf55ec64c756,
        0x65f92299b08e7,
        0x000000000fd4b,
    ],
    [
        0x5a2f70eaf5858,
        0x9d4730edf6150,
        0x13686a15c1147,
        0xf61ea7788c214,
        0x50f5ba4cb5cc8,
        0xfcc1b9cbcfd54,
        0x40c6bdcfd8725,
        0x000000001290c,
    ],
    [
        0xfe21f62e94d11,
        0xefa78d5b8962d,
        0x4ab2ec29442e3,
        0xfa16ce68e1658,
        0x1cf92d0916f8f,
        0x2d0f0f0053dc5,
        0x328814dd6bb6c,
        0x000000000f92d,
    ],
    [
        0xa69c6f01c7ced,
        0x37c8a4a933a92,
        0x8612117bb22c2,
        0x0ad4d7d9007c2,
        0x4cc615637c8d7,
        0x5b04d185d9c71,
        0x2d11a6da8b672,
        0x0000000019b12,
    ],
    [
        0xd457e74bed92f,
        0x4902b5b99df1f,
        0x79447848057fa,
        0xbded2c938162f,
        0xe3952608d0683,
        0xa4b361909a216,
        0x49288a28e5ae3,
        0x0000000003662,
    ],
    [
        0xa275dfe732ba4,
        0x71f9002eedfc5,
        0x6a06bd966cf49,
        0xbe246a4e90afd,
        0x31f1ded8269d8,
        0x339ae5add7c65,
        0x65145bc21ed0e,
        0x0000000003e72,
    ],
    [
        0xd548eef5dacd3,
        0xac679da95e1c5,
        0x9e743fc55302b,
        0x8271b9baea1f5,
        0xe8516db679329,
        0x54c42817c86f6,
        0x3a69e3cc50ec5,
        0x0000000016708,
    ],
    [
        0xf8812ea87e0ab,
        0xa5ef196f66863,
        0xac23b49f1c41f,
        0x6d9cf742da483,
        0x9f8ae3febaaf6,
        0x4c31fc9f90bb4,
        0xc63485c8d4593,
        0x0000000009d40,
    ],
    [
        0x6867f567c1e46,
        0x67b24c0ba5b6c,
        0x4f67a8886e934,
        0xe0d48bf62767f,
        0xfc467796a9479,
        0x70f725189f0d4,
        0x71f515f9f7db6,
        0x0000000017f2e,
    ],
]);

/// The `y` denominator `k_(4,0) .. k_(4,14)` (monic, degree 15).
const Y_DEN: [Constant; 15] = constants([
    [
        0xc4db6a5bce253,
        0x83fa8395c58ae,
        0xed5f623f566e1,
        0xe71ad70400834,
        0xbb377632db3c9,
        0xd3490133a835b,
        0x8d8d7b43db972,
        0x0000000003c37,
    ],
    [
        0xfed6ea13f80a2,
        0x103117db25ef4,
        0xef5dd8c9a2eed,
        0x237bad1da31d0,
        0x5e5bc6d67e984,
        0xb5d7f4268ed4d,
        0x2f7d5af2a49a3,
        0x000000000ba58,
    ],
    [
        0x60b62cfdb2a5e,
        0x34df2ee301595,
        0xcb011202bf34c,
        0x18e9e4abbfd7d,
        0xcaa29772ee1c7,
        0xde303f65a16b7,
        0xac97f2abc4f47,
        0x0000000002670,
    ],
    [
        0x8db5a6b0707cf,
        0x482d0d0e05560,
        0x337f5efd4fbd5,
        0xb8c132be9767c,
        0x8965976c8b21a,
        0x6d9031a813689,
        0xf402bedcbec7b,
        0x000000001983a,
    ],
    [
        0x4fcc3fb40f6c1,
        0x3b763e1ebe6c2,
        0xaf4673dcdb23b,
        0xb148ec91429a2,
        0x9f309bbd90a62,
        0xc9cc5c4925c85,
        0x428d85899e813,
        0x00000000118e0,
    ],
    [
        0xde6d3a8918dd8,
        0x64886cbd58152,
        0x9f8124a2e17e9,
        0x688de231488a0,
        0x181f5b8918623,
        0xf0595b0899faf,
        0xa6c0858cb1d19,
        0x0000000018999,
    ],
    [
        0x918feb8437407,
        0xbb784b79de459,
        0x27138db7d6a78,
        0x33bc9ad5c014f,
        0xe6a2dabf66686,
        0x84abe4b700b38,
        0xe85a6ca0cd682,
        0x000000000b017,
    ],
    [
        0xa0faca34d86b6,
        0xd0824b8e827b6,
        0x20851d5dea5fc,
        0xa1050678b2ea3,
        0x4696cf8e59acb,
        0xb74cb1adfdce2,
        0xa452cbdeb3bff,
        0x0000000012bf8,
    ],
    [
        0x104b5b3b31b3c,
        0x0bea051d6e62c,
        0xec153815d0b3a,
        0x2a183bd0bb2b6,
        0x7a6d0fb2d0c03,
        0xfab5b2290c03e,
        0xcb1b25347a626,
        0x0000000000a0c,
    ],
    [
        0x6d7490d94c750,
        0xefc505f5a6540,
        0x26ffe513f84e8,
        0x05927941cb99e,
        0x7b3ecb2907ee7,
        0xc8bd8f21b4e47,
        0xf812eedcb47af,
        0x0000000004e02,
    ],
    [
        0x8938e7f8e1ca7,
        0x489c687a72320,
        0x0dc613cdf68cc,
        0x0a4d24b4683e6,
        0xd0d87a47e7203,
        0x25191bf3d6ecf,
        0x9ad30ce30b1d2,
        0x000000000ed06,
    ],
    [
        0xc9842e1b3e524,
        0xfb2bca2feb44c,
        0xd17b7f74f7a49,
        0x24def9a5fa320,
        0x5ca95cd6851f1,
        0x615179fb4a7f5,
        0xba1240dd8750a,
        0x0000000010a78,
    ],
    [
        0x711d3138c9baa,
        0xfb2bba3769e04,
        0x951a989fde949,
        0xec54b1b3151d1,
        0xf03ac0befa941,
        0xecf6fd6da686a,
        0x5581003f326d1,
        0x00000000085cf,
    ],
    [
        0xaa0031c5a4d1f,
        0xfaebbc96bd4bf,
        0xa7e7f497532ba,
        0xfbf00e082cb86,
        0x60d206e1a2df3,
        0x1a142fc13187f,
        0x9b725fbc17e8d,
        0x000000000c0b7,
    ],
    [
        0x77a59611cc314,
        0x4bb5323295884,
        0xa26a07bbabc8e,
        0x1105cfa70b44c,
        0x18b90f40f64c4,
        0xd15d5363cd266,
        0x4fa3ee4679341,
        0x0000000001623,
    ],
]);

/// The field elements of the 64-byte strings at `start` of 8 inputs,
/// big-endian, reduced modulo p (RFC 9380's `hash_to_field`): `hi·2^384 +
/// lo` for their first 16 and last 48 bytes, each entered as an element
/// (below 2^384). The copies of the private strings are wiped.
#[lane_features]
fn field_of_64(uniform: &[[u8; UNIFORM_LEN]; LANES], start: usize) -> Fp8 {
    let mut high = Zeroizing::new([[0u8; 48]; LANES]);
    let mut low = Zeroizing::new([[0u8; 48]; LANES]);
    for ((high, low), input) in high.iter_mut().zip(low.iter_mut()).zip(uniform) {
        high[32..].copy_from_slice(&input[start..start + 16]);
        low.copy_from_slice(&input[start + 16..start + 64]);
    }
    let high = Fp8::from_be_bytes_each(&high).mul(&splat(TWO_POW_384));
    high.add(&Fp8::from_be_bytes_each(&low))
}

/// RFC 9380 `map_to_curve_simple_swu` to E' of each of `N` vectors (the
/// straight-line form for p ≡ 3 mod 4, `sqrt_ratio`'s exponentiations
/// side by side), each result `(xn/xd, y)` in Jacobian coordinates
/// `(xn·xd, y·xd³, xd)` (no inversion).
#[lane_features]
fn map_to_isogenous_each<const N: usize>(u: &[Fp8; N]) -> [Jacobian8; N] {
    let (a, b, z) = (splat(A_PRIME), splat(B_PRIME), splat(Z));
    let uu = u.map(|u| u.square());
    let z_uu = uu.map(|uu| z.mul(&uu));
    let tv2 = z_uu.map(|t| t.square().add(&t));
    let x1n = tv2.map(|t| t.add(&Fp8::one()).mul(&b));
    let x2n: [Fp8; N] = core::array::from_fn(|i| z_uu[i].mul(&x1n[i]));
    // xd = −A'·tv2, or Z·A' where that is 0.
    let xd = tv2.map(|t| {
        let xd = a.mul(&t).neg();
        xd.select(&splat(Z_A_PRIME), xd.is_zero())
    });
    let xd2 = xd.map(|xd| xd.square());
    let gxd: [Fp8; N] = core::array::from_fn(|i| xd[i].mul(&xd2[i]));
    // gx1 = x1n³ + A'·x1n·xd² + B'·xd³.
    let gx1: [Fp8; N] = core::array::from_fn(|i| {
        x1n[i]
            .square()
            .add(&a.mul(&xd2[i]))
            .mul(&x1n[i])
            .add(&b.mul(&gxd[i]))
    });
    let tv2: [Fp8; N] = core::array::from_fn(|i| gx1[i].mul(&gxd[i]));
    let tv4: [Fp8; N] = core::array::from_fn(|i| gxd[i].square().mul(&tv2[i]));
    let powers = pow_each(&tv4, &P_MINUS_3_OVER_4);
    core::array::from_fn(|i| {
        let y1 = powers[i].mul(&tv2[i]);
        // y1² = gx1/gxd where that is a square (RFC 9380's e2).
        let is_square = y1.square().mul(&gxd[i]).equals(&gx1[i]);
        let y2 = y1.mul(&splat(SQRT_MINUS_Z_CUBED)).mul(&uu[i]).mul(&u[i]);
        let xn = x2n[i].select(&x1n[i], is_square);
        let y = y2.select(&y1, is_square);
        let y = y.negate_where(u[i].is_odd() ^ y.is_odd());
        Jacobian8 {
            x: xn.mul(&xd[i]),
            y: y.mul(&gxd[i]),
            z: xd[i],
        }
    })
}

/// `W^d·f(X/W)` for the polynomial `f` of degree `d` with the coefficients
/// `coefficients` (lowest degree first, and a leading 1 after them where
/// `monic`), given `w[k] = W^k`: Horner's rule, each step `acc·X +
/// c_i·W^(d−i)`.
#[lane_features]
fn homogeneous(coefficients: &[Constant], monic: bool, x: &Fp8, w: &[Fp8; 16]) -> Fp8 {
    let degree = coefficients.len() - usize::from(!monic);
    let mut acc = if monic {
        Fp8::one()
    } else {
        splat(coefficients[degree])
    };
    for i in (0..degree).rev() {
        acc = acc.mul(x).add(&splat(coefficients[i]).mul(&w[degree - i]));
    }
    acc
}

/// The 11-isogeny from E' to E of points in Jacobian coordinates: with
/// `W = Z²`, `x = Nx/(Dx·W)` and `y = Y·Ny/(Dy·Z³)` for the homogeneous
/// polynomials `Nx = W^11·x_num(X/W)`, `Dx = W^10·x_den`, `Ny =
/// W^15·y_num`, `Dy = W^15·y_den`, returned as `(xn·xd·yd², yn·xd³·yd²,
/// xd·yd)`. A point of the isogeny's kernel gives `Z = 0`, the identity.
#[lane_features]
fn isogeny(p: &Jacobian8) -> Jacobian8 {
    let mut w = [Fp8::one(); 16];
    w[1] = p.z.square();
    for k in 2..16 {
        w[k] = w[k - 1].mul(&w[1]);
    }
    let xn = homogeneous(&X_NUM, false, &p.x, &w);
    let xd = homogeneous(&X_DEN, true, &p.x, &w).mul(&w[1]);
    let yn = homogeneous(&Y_NUM, false, &p.x, &w).mul(&p.y);
    let yd = homogeneous(&Y_DEN, true, &p.x, &w).mul(&w[1].mul(&p.z));
    let z = xd.mul(&yd);
    Jacobian8 {
        x: xn.mul(&yd).mul(&z),
        y: yn.mul(&xd.square()).mul(&yd.mul(&z)),
        z,
    }
}

/// `h_eff·Q = (|z| + 1)·Q`: the bits of `|z|` from the top (a public
/// constant), every addition complete by masks (`Jacobian8::add_or_double`).
#[lane_features]
fn clear_cofactor(q: &Jacobian8) -> Jacobian8 {
    let mut acc = *q;
    for bit in (0..63).rev() {
        acc = acc.double();
        if (Z_ABS >> bit) & 1 == 1 {
            acc = acc.add_or_double(q);
        }
    }
    acc.add_or_double(q)
}

/// The points of 8 inputs' `expand_message_xmd` outputs (128 bytes each):
/// `h_eff·(iso(map(u0)) + iso(map(u1)))`, the two maps side by side. The
/// result is the identity (`Z = 0`) where RFC 9380's is; the caller tests
/// `Z`.
#[lane_features]
pub(super) fn hash_to_curve(uniform: &[[u8; UNIFORM_LEN]; LANES]) -> Jacobian8 {
    let u0 = field_of_64(uniform, 0);
    let u1 = field_of_64(uniform, 64);
    let [q0, q1] = map_to_isogenous_each(&[u0, u1]);
    let sum = isogeny(&q0).add_or_double(&isogeny(&q1));
    clear_cofactor(&sum)
}
