//! The bn_mod_exp target's C half (`fuzz/c/bn_mod_exp_shim.c`): one case
//! run through OpenSSL's `BN_mod_exp` and through the header-only shim
//! `oblivex_openssl.h`, compared in C (the shim's API is `BIGNUM`s).

use core::ffi::c_int;

// The C half calls oblivex's C ABI (`oblivex_mod_exp_batch`, …) and no
// Rust code of this module names the crate: link it all the same.
extern crate oblivex;

/// The base of a case: arbitrary bytes or a value next to the modulus.
#[derive(Clone, Copy, Debug)]
#[repr(i32)]
pub enum BaseKind {
    /// The case's bytes.
    Bytes = 0,
    /// 0.
    Zero = 1,
    /// 1.
    One = 2,
    /// |m| − 1.
    ModulusMinusOne = 3,
    /// |m|.
    Modulus = 4,
    /// |m| + 1.
    ModulusPlusOne = 5,
}

/// How the shim is called.
#[derive(Clone, Copy, Debug)]
#[repr(i32)]
pub enum Form {
    /// `oblivex_BN_mod_exp(r, a, p, m, ctx)`.
    Single = 0,
    /// The result written over the base (`r == a`).
    AliasBase = 1,
    /// The result written over the exponent (`r == p`).
    AliasExponent = 2,
    /// Through `oblivex_BN_mont_ctx_new` (which must refuse exactly the
    /// even moduli and those above the limit) and `oblivex_BN_mod_exp_mont`.
    MontContext = 3,
    /// `oblivex_BN_mod_exp_batch` on the base and its 4 successors.
    Batch = 4,
}

/// A case's operands: big-endian magnitudes and signs.
pub struct Case<'a> {
    /// The modulus.
    pub modulus: &'a [u8],
    /// Whether the modulus is negative (its sign is ignored).
    pub modulus_negative: bool,
    /// What the base is.
    pub base_kind: BaseKind,
    /// The base's bytes (for [`BaseKind::Bytes`]).
    pub base: &'a [u8],
    /// Whether the base is negated.
    pub base_negative: bool,
    /// The exponent.
    pub exponent: &'a [u8],
    /// Whether the exponent is negative (its sign is ignored).
    pub exponent_negative: bool,
}

extern "C" {
    fn fuzz_compare_bn_mod_exp(
        m: *const u8,
        m_len: usize,
        m_negative: c_int,
        base_kind: c_int,
        a: *const u8,
        a_len: usize,
        a_negative: c_int,
        p: *const u8,
        p_len: usize,
        p_negative: c_int,
        form: c_int,
    ) -> c_int;
}

/// Runs `case` through OpenSSL and through the shim in `form`: `Ok` when
/// both return the same status and the same values, else what differed.
pub fn compare(case: &Case<'_>, form: Form) -> Result<(), &'static str> {
    // SAFETY: every pointer and length pair is a live slice; the C half
    // only reads them.
    let outcome = unsafe {
        fuzz_compare_bn_mod_exp(
            case.modulus.as_ptr(),
            case.modulus.len(),
            c_int::from(case.modulus_negative),
            case.base_kind as c_int,
            case.base.as_ptr(),
            case.base.len(),
            c_int::from(case.base_negative),
            case.exponent.as_ptr(),
            case.exponent.len(),
            c_int::from(case.exponent_negative),
            form as c_int,
        )
    };
    match outcome {
        0 => Ok(()),
        1 => Err("the shim and BN_mod_exp returned different statuses"),
        2 => Err("the shim's result differs from BN_mod_exp's"),
        3 => Err("oblivex_BN_mont_ctx_new refused a modulus it takes, or took one it refuses"),
        _ => Err("out of memory"),
    }
}
