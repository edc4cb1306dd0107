//! The batch exponentiation at the dedicated kernels' sizes (1024, 2048,
//! 3072 and 4096 bits, top bit set) and one byte past the largest allowed,
//! against GMP and between backends (`oblivex_fuzz::modexp`), as the
//! `modexp` target checks the generic sizes. These inputs cost
//! milliseconds each under instrumentation (the portable backend's
//! 4096-bit products above all), so they have their own target: the
//! `modexp` target stays fast, and a campaign gives these sizes a fixed
//! share of its time.
//!
//! Input: flags (bit 0: one modulus per value, at most two distinct ones
//! given to the values in turn, so a lane group mixes moduli while only
//! two contexts are made; bit 6: any parity, else the low bit is set),
//! count (1 to 9: a full lane group and a partial one), base length,
//! exponent length (0 to 2 bytes), then per modulus a size selector and a
//! field stretched to that size, then bases, exponents and a seed.

#![no_main]

use libfuzzer_sys::fuzz_target;
use oblivex::mp::MAX_MODULUS_BITS;
use oblivex_fuzz::modexp::{check, stretch, Batch, Limits};
use oblivex_fuzz::Cursor;

const KERNEL_BYTES: [usize; 5] = [128, 256, 384, 512, MAX_MODULUS_BITS / 8 + 1];
const LIMITS: Limits = Limits {
    max_count: 9,
    max_exponent_len: 2,
    max_moduli: 2,
};

fuzz_target!(|data: &[u8]| {
    let mut input = Cursor::new(data);
    let flags = input.byte();
    let batch = Batch::read(&mut input, flags, &LIMITS, |input| {
        let len = KERNEL_BYTES[usize::from(input.byte()) % KERNEL_BYTES.len()];
        let mut m = stretch(input.field(1), len, &[0x5A]);
        m[0] |= 0x80;
        if flags & 0x40 == 0 {
            m[len - 1] |= 1;
        }
        m
    });
    check(&batch, &mut input);
});
