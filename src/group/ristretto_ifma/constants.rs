//! Curve constants in radix 2^51 (limb 0 first), from RFC 9496 §4.1; the
//! unit tests check each against its definition.

/// `d = −121665/121666`, the Edwards curve constant.
pub(super) const D: [u64; 5] = [
    929955233495203,
    466365720129213,
    1662059464998953,
    2033849074728123,
    1442794654840575,
];

/// `2·d`.
pub(super) const D2: [u64; 5] = [
    1859910466990425,
    932731440258426,
    1072319116312658,
    1815898335770999,
    633789495995903,
];

/// `sqrt(−1)`, the non-negative root.
pub(super) const SQRT_M1: [u64; 5] = [
    1718705420411056,
    234908883556509,
    2233514472574048,
    2117202627021982,
    765476049583133,
];

/// `1/sqrt(a − d)` with `a = −1`, the non-negative root.
pub(super) const INVSQRT_A_MINUS_D: [u64; 5] = [
    278908739862762,
    821645201101625,
    8113234426968,
    1777959178193151,
    2118520810568447,
];
