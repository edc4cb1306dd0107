//! The header-only OpenSSL shim (`include/oblivex_openssl.h`) against
//! OpenSSL's own `BN_mod_exp`: the same return value and the same result
//! for every modulus (odd, even — which the shim hands to OpenSSL and
//! `oblivex_BN_mont_ctx_new` refuses —, zero, one, negative, above
//! oblivex's 8192-bit limit), every base (arbitrary, negative, 0, 1,
//! m − 1, m, m + 1) and every exponent (zero, negative, longer than the
//! modulus), called singly, with the result over the base or the
//! exponent, through a reused context, and as a batch.
//!
//! Most inputs use moduli up to 512 bits and exponents up to 128 bits or
//! a little longer than the modulus; 1 input in 16 uses a modulus of up to
//! 8200 bits, with an exponent of up to 16 bits. The shim's C code is not instrumented for
//! coverage (the cc crate compiles it); the Rust code it calls is.

#![no_main]

use libfuzzer_sys::fuzz_target;
use oblivex_fuzz::openssl::{compare, BaseKind, Case, Form};
use oblivex_fuzz::Cursor;

fuzz_target!(|data: &[u8]| {
    let mut input = Cursor::new(data);
    let flags = input.byte();
    let modulus_len = match input.byte() {
        b @ 0..=239 => usize::from(b % 65),
        // Up to 1025 bytes: past the limit by 8 bits.
        b => usize::from(b - 239) * 64 + usize::from(input.byte() % 65),
    };
    let modulus = stretched(&mut input, modulus_len);
    let base_kind = match input.byte() % 8 {
        1 => BaseKind::Zero,
        2 => BaseKind::One,
        3 => BaseKind::ModulusMinusOne,
        4 => BaseKind::Modulus,
        5 => BaseKind::ModulusPlusOne,
        _ => BaseKind::Bytes,
    };
    let base = input.field(1).to_vec();
    let exponent_len = match input.byte() {
        // Large moduli take short exponents: an 8192-bit exponentiation
        // with a full exponent costs seconds under instrumentation.
        b if modulus_len > 64 => usize::from(b % 3),
        b @ 0..=239 => usize::from(b % 17),
        // Longer than the modulus.
        b => modulus_len + usize::from(b - 239),
    };
    let exponent = stretched(&mut input, exponent_len);
    let form = match input.byte() % 5 {
        0 => Form::Single,
        1 => Form::AliasBase,
        2 => Form::AliasExponent,
        3 => Form::MontContext,
        _ => Form::Batch,
    };
    let case = Case {
        modulus: &modulus,
        modulus_negative: flags & 1 != 0,
        base_kind,
        base: &base,
        base_negative: flags & 2 != 0,
        exponent: &exponent,
        exponent_negative: flags & 4 != 0,
    };
    if let Err(what) = compare(&case, form) {
        panic!(
            "{what}: {form:?}, m = {} ({} bytes), base {base_kind:?} {}, p = {}",
            hex(&modulus),
            modulus.len(),
            hex(&base),
            hex(&exponent)
        );
    }
});

/// `len` bytes: the next input bytes, repeated when the input is shorter
/// (so a short input can still describe an 8192-bit modulus).
fn stretched(input: &mut Cursor<'_>, len: usize) -> Vec<u8> {
    let seed = input.field(1);
    if seed.is_empty() {
        return vec![0xff; len];
    }
    seed.iter().copied().cycle().take(len).collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
