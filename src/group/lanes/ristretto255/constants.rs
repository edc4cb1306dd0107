//! Curve constants in radix 2^51 (limb 0 first), from RFC 9496 §4.1; the
//! unit tests check each against its definition.

/// `d = −121665/121666`, the Edwards curve constant.
pub(crate) const D: [u64; 5] = [
    929955233495203,
    466365720129213,
    1662059464998953,
    2033849074728123,
    1442794654840575,
];

/// `2·d`.
pub(crate) const D2: [u64; 5] = [
    1859910466990425,
    932731440258426,
    1072319116312658,
    1815898335770999,
    633789495995903,
];

/// `sqrt(−1)`, the non-negative root.
pub(crate) const SQRT_M1: [u64; 5] = [
    1718705420411056,
    234908883556509,
    2233514472574048,
    2117202627021982,
    765476049583133,
];

/// `1/sqrt(a − d)` with `a = −1`, the non-negative root.
pub(crate) const INVSQRT_A_MINUS_D: [u64; 5] = [
    278908739862762,
    821645201101625,
    8113234426968,
    1777959178193151,
    2118520810568447,
];

/// `1 − d²`, of the one-way map (RFC 9496 §4.3.4).
pub(crate) const ONE_MINUS_D_SQ: [u64; 5] = [
    1136626929484150,
    1998550399581263,
    496427632559748,
    118527312129759,
    45110755273534,
];

/// `(d − 1)²`, of the one-way map.
pub(crate) const D_MINUS_ONE_SQ: [u64; 5] = [
    1507062230895904,
    1572317787530805,
    683053064812840,
    317374165784489,
    1572899562415810,
];

/// `sqrt(a·d − 1)` with `a = −1`, the root RFC 9496 names (odd, as it is
/// listed there).
pub(crate) const SQRT_AD_MINUS_ONE: [u64; 5] = [
    2241493124984347,
    425987919032274,
    2207028919301688,
    1220490630685848,
    974799131293748,
];
