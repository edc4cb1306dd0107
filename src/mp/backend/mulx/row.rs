//! The one loop the MULX/ADX kernels are made of, `acc += x·y` over a row
//! of 64-bit limbs, as assembly text that each kernel (`kernel.rs`,
//! `square.rs`) pastes into its own `asm!` block: no call and no register
//! shuffling between rows, which cost as much as a short row's products
//! when this was a function. The text comes whole (`mul_add_row`, any
//! length) or in parts (passes of eight, pieces of 4, 2 or 1 limbs, the
//! close) for kernels that unroll a row's head.
//!
//! Each limb's product `x_j·y` (MULX: 128 bits, leaving the flags alone)
//! adds its low half to the high half of the limb before through the CF
//! chain (ADCX) and to the accumulator limb through the OF chain (ADOX).
//! The two chains are independent, so the additions of one limb do not
//! wait on each other. Nothing inside the row may touch the flags: the
//! loops step with LEA and test with JRCXZ. Eight limbs per pass, then a
//! piece of four and single limbs for the rest. Each pass steps its two
//! pointers: addressing through an index register instead (one counter
//! for both operands) ran 1.6 times slower on Zen 3. Constant time: the
//! instructions and addresses depend only on the row length (public),
//! never on the limbs.

/// One limb of the row, at the displacement `$d` (bytes) from `{x}` and
/// `{acc}`: `x·y`'s low half plus the carry-in high half (in the register
/// named `$carry_in`) through CF, plus the accumulator limb through OF;
/// the high half goes to `$carry_out`. Consecutive limbs alternate the two
/// high-half registers, so a product never waits for the one before.
#[rustfmt::skip]
macro_rules! one_limb {
    ($carry_in:literal, $carry_out:literal, $d:literal) => {
        concat!(
            "mulx {", $carry_out, "}, {lo}, qword ptr [{x} + ", $d, "]\n",
            "adcx {lo}, {", $carry_in, "}\n",
            "adox {lo}, qword ptr [{acc} + ", $d, "]\n",
            "mov qword ptr [{acc} + ", $d, "], {lo}\n",
        )
    };
}
pub(super) use one_limb;

/// Four limbs of the row at the displacements `$d0` to `$d3`, carry-in
/// and carry-out in `{hi}`.
#[rustfmt::skip]
macro_rules! four_limbs {
    ($d0:literal, $d1:literal, $d2:literal, $d3:literal) => {
        concat!(
            $crate::mp::backend::mulx::row::one_limb!("hi", "hi2", $d0),
            $crate::mp::backend::mulx::row::one_limb!("hi2", "hi", $d1),
            $crate::mp::backend::mulx::row::one_limb!("hi", "hi2", $d2),
            $crate::mp::backend::mulx::row::one_limb!("hi2", "hi", $d3),
        )
    };
}
pub(super) use four_limbs;

/// The row's passes of eight limbs: RCX holds minus their count (0 for
/// none) and counts up to zero; `{x}` and `{acc}` step past them. The
/// chains and `{hi}` carry through. Uses the local labels 2 to 4.
#[rustfmt::skip]
macro_rules! passes_of_eight {
    () => {
        concat!(
            "jmp 4f\n",
            "2:\n",
            $crate::mp::backend::mulx::row::four_limbs!("0", "8", "16", "24"),
            $crate::mp::backend::mulx::row::four_limbs!("32", "40", "48", "56"),
            "lea {x}, [{x} + 64]\n",
            "lea {acc}, [{acc} + 64]\n",
            "lea rcx, [rcx + 1]\n",
            // The test sits at the bottom: JRCXZ reaches only 127 bytes,
            // less than a pass.
            "4:\n",
            "jrcxz 3f\n",
            "jmp 2b\n",
            "3:\n",
        )
    };
}
pub(super) use passes_of_eight;

/// A whole row of sixteen limbs (a 1024-bit modulus), unrolled: `{x}` and
/// `{acc}` stay put (the limbs at displacements 0 to 120, the carry limb's
/// place at 128), with no counter, pointer step or branch. In: `rdx` =
/// `y`, `{hi}` = 0 and CF = OF = 0. Out: the carry limb is `{hi}` + CF +
/// OF, as [`mul_add_row_open`] leaves it.
#[rustfmt::skip]
macro_rules! sixteen_limbs {
    () => {
        concat!(
            $crate::mp::backend::mulx::row::four_limbs!("0", "8", "16", "24"),
            $crate::mp::backend::mulx::row::four_limbs!("32", "40", "48", "56"),
            $crate::mp::backend::mulx::row::four_limbs!("64", "72", "80", "88"),
            $crate::mp::backend::mulx::row::four_limbs!("96", "104", "112", "120"),
        )
    };
}
pub(super) use sixteen_limbs;

/// A piece of `len` limbs (1, 2 or 4) of a row, stepping `{x}` and
/// `{acc}` past it; the carry-in and carry-out high half in `{hi}`.
#[rustfmt::skip]
macro_rules! piece {
    (4) => {
        concat!(
            $crate::mp::backend::mulx::row::four_limbs!("0", "8", "16", "24"),
            "lea {x}, [{x} + 32]\n",
            "lea {acc}, [{acc} + 32]\n",
        )
    };
    (2) => {
        concat!(
            $crate::mp::backend::mulx::row::one_limb!("hi", "hi2", "0"),
            $crate::mp::backend::mulx::row::one_limb!("hi2", "hi", "8"),
            "lea {x}, [{x} + 16]\n",
            "lea {acc}, [{acc} + 16]\n",
        )
    };
    (1) => {
        concat!(
            $crate::mp::backend::mulx::row::one_limb!("hi", "hi2", "0"),
            "mov {hi}, {hi2}\n",
            "lea {x}, [{x} + 8]\n",
            "lea {acc}, [{acc} + 8]\n",
        )
    };
}
pub(super) use piece;

/// The end of a row: `{hi}` becomes the carry limb, the last high half
/// plus both chains' carries (MOV, not XOR, so the flags survive until
/// added).
#[rustfmt::skip]
macro_rules! close_row {
    () => {
        concat!(
            "mov {lo:e}, 0\n",
            "adcx {hi}, {lo}\n",
            "adox {hi}, {lo}\n",
        )
    };
}
pub(super) use close_row;

/// The row `acc += x·y` as assembly text, for any length, with its last
/// carries still in the flags.
///
/// - In: `rdx` = `y`; `{x}` and `{acc}` point at the row's first limbs;
///   `$eight`, `$four` and `$ones` are operands (register or memory)
///   holding the row length `len ≥ 1` split as `len >> 3` (the passes of
///   eight), `len & 4` and `len & 3`. The flags are free.
/// - Out: the carry limb is `{hi}` + CF + OF (the sum is below
///   `2^(64(len+1))`, so it fits); `{x}` and `{acc}` point just past the
///   row (`{acc}` at the limb the carry belongs to).
/// - Clobbers `rcx`, `{hi2}`, `{lo}`. Uses the local labels 2 to 7.
#[rustfmt::skip]
macro_rules! mul_add_row_open {
    ($eight:literal, $four:literal, $ones:literal) => {
        concat!(
            "mov rcx, ", $eight, "\n",
            "neg rcx\n",
            // {hi} = 0, and XOR clears CF and OF: both chains start empty.
            "xor {hi:e}, {hi:e}\n",
            $crate::mp::backend::mulx::row::passes_of_eight!(),
            "mov rcx, ", $four, "\n",
            "jrcxz 5f\n",
            $crate::mp::backend::mulx::row::piece!(4),
            "5:\n",
            "mov rcx, ", $ones, "\n",
            "6:\n",
            "jrcxz 7f\n",
            $crate::mp::backend::mulx::row::piece!(1),
            "lea rcx, [rcx - 1]\n",
            "jmp 6b\n",
            "7:\n",
        )
    };
}
pub(super) use mul_add_row_open;

/// [`mul_add_row_open`] closed: `{hi}` is the carry limb; the flags are
/// clobbered.
#[rustfmt::skip]
macro_rules! mul_add_row {
    ($eight:literal, $four:literal, $ones:literal) => {
        concat!(
            $crate::mp::backend::mulx::row::mul_add_row_open!($eight, $four, $ones),
            $crate::mp::backend::mulx::row::close_row!(),
        )
    };
}
pub(super) use mul_add_row;

/// `asm!` over rows: the caller's template and operands (ending in a
/// comma), then the registers the row text works in (`{x}`, `{acc}`,
/// `{hi}`, `{hi2}`, `{lo}`, RCX and RDX, all clobbered) and `nostack`.
macro_rules! asm_with_rows {
    ($($template_and_operands:tt)*) => {
        core::arch::asm!(
            $($template_and_operands)*
            x = out(reg) _,
            acc = out(reg) _,
            hi = out(reg) _,
            hi2 = out(reg) _,
            lo = out(reg) _,
            out("rcx") _,
            out("rdx") _,
            options(nostack),
        )
    };
}
pub(super) use asm_with_rows;
