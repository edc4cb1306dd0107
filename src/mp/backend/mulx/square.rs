//! The MULX/ADX backend's square `t = a^2` (a kernel of
//! [`WordKernel`](crate::mp::limbs::montgomery::WordKernel)): the cross
//! products `a_i·a_j`, `i < j`, once each, then one pass that doubles them
//! and adds the squares `a_i^2`.
//!
//! Row `i` of the cross products has `n − 1 − i` limbs, every length from
//! `n − 1` down to 1, so a row loop spends much of its time on the rows'
//! odd ends. Where `n` is a multiple of 8 (every key size) the rows go in
//! blocks of 8: row `r` of a block starts with a head of `7 − r` limbs,
//! unrolled, and ends with passes of eight over the limbs after the block,
//! the same count for all 8 rows. Other sizes take the rows one at a time
//! (`row::mul_add_row`).
//!
//! The module's contract is `kernel.rs`'s: callers guarantee BMI2 and ADX;
//! every branch and address depends only on the limb count.

use core::arch::asm;

use super::row::{asm_with_rows, mul_add_row};

/// `t = a^2`: `a` has `n ≥ 1` limbs, `t` has `2n`.
pub(super) fn square(t: &mut [u64], a: &[u64]) {
    let n = a.len();
    assert!(n >= 1 && t.len() == 2 * n);
    t.fill(0);
    if n == 16 {
        // A 1024-bit modulus: every loop unrolled.
        cross_products_16(t, a);
        double_and_add_squares_16(t, a);
        return;
    }
    if n.is_multiple_of(8) {
        cross_products_in_blocks(t, a);
    } else if n >= 2 {
        cross_products_by_rows(t, a);
    }
    double_and_add_squares(t, a);
}

/// Row `r` of a block: `y = a_{8b+r}` at byte `$y` from `{a}` (the block's
/// first limb), `x` from byte `$x` (the next limb), the accumulator from
/// byte `$acc` of `{t}` (limb `2(8b + r) + 1`); a head of `7 − r` limbs
/// given as its pieces (`[4, 2, 1]` for 7), then the passes after the
/// block (minus their count in `{passes}`); the carry limb lands in the
/// limb after the row.
#[rustfmt::skip]
macro_rules! block_row {
    ($y:literal, $x:literal, $acc:literal, [$($piece:tt),*]) => {
        concat!(
            self::row_start!($y, $x, $acc),
            $($crate::mp::backend::mulx::row::piece!($piece),)*
            "mov rcx, {passes}\n",
            $crate::mp::backend::mulx::row::passes_of_eight!(),
            self::row_end!(),
        )
    };
}

/// The start of a row of the square: `y = a_{i}` at byte `$y` from `{a}`,
/// `x` from byte `$x`, the accumulator from byte `$acc` of `{t}`, both
/// chains empty.
#[rustfmt::skip]
macro_rules! row_start {
    ($y:literal, $x:literal, $acc:literal) => {
        concat!(
            "mov rdx, qword ptr [{a} + ", $y, "]\n",
            "lea {x}, [{a} + ", $x, "]\n",
            "lea {acc}, [{t} + ", $acc, "]\n",
            // {hi} = 0, and XOR clears CF and OF: both chains start empty.
            "xor {hi:e}, {hi:e}\n",
        )
    };
}
use row_start;

/// The end of a row of the square: its carry limb stored in the limb
/// after the row.
#[rustfmt::skip]
macro_rules! row_end {
    () => {
        concat!(
            $crate::mp::backend::mulx::row::close_row!(),
            "mov qword ptr [{acc}], {hi}\n",
        )
    };
}
use row_end;

// Named by path below (`self::block_row!`): asm! expands its template
// eagerly, and rustc cannot resolve a textually scoped macro's inner
// macro paths there.
use block_row;

/// The cross products of an `n`-limb `a`, `n` a multiple of 8, added into
/// the zeroed `t`, in blocks of 8 rows.
fn cross_products_in_blocks(t: &mut [u64], a: &[u64]) {
    let n = a.len();
    debug_assert!(n.is_multiple_of(8) && n >= 8 && t.len() == 2 * n);
    let blocks = (n / 8) as i64;
    // SAFETY: block b (for b < n/8) reads `a[8b..n]` and reads and writes
    // `t[16b + 1..=8b + 7 + n]`, its row i = 8b + r reading `a[i..n]` and
    // reading and writing `t[2i + 1..=i + n]`: all inside the slices (the
    // last row, `i = n − 1`, multiplies nothing and stores its zero carry
    // at `t[2n − 1]`). `{passes}` runs from `−(n/8 − 1)` up to 0, one
    // block each. No stack is used; the instructions exist.
    unsafe {
        asm_with_rows!(
            "8:",
            self::block_row!("0", "8", "8", [4, 2, 1]),
            self::block_row!("8", "16", "24", [4, 2]),
            self::block_row!("16", "24", "40", [4, 1]),
            self::block_row!("24", "32", "56", [4]),
            self::block_row!("32", "40", "72", [2, 1]),
            self::block_row!("40", "48", "88", [2]),
            self::block_row!("48", "56", "104", [1]),
            self::block_row!("56", "64", "120", []),
            "lea {a}, [{a} + 64]",
            "lea {t}, [{t} + 128]",
            "inc {passes}",
            "jle 8b",
            a = inout(reg) a.as_ptr() => _,
            t = inout(reg) t.as_mut_ptr() => _,
            passes = inout(reg) 1 - blocks => _,
        );
    }
}

/// [`block_row`] with every limb of the row in its pieces (no passes of
/// eight): the rows of a 16-limb square, whose lengths are all known.
#[rustfmt::skip]
macro_rules! straight_row {
    ($y:literal, $x:literal, $acc:literal, [$($piece:tt),*]) => {
        concat!(
            self::row_start!($y, $x, $acc),
            $($crate::mp::backend::mulx::row::piece!($piece),)*
            self::row_end!(),
        )
    };
}
use straight_row;

/// The cross products of a 16-limb `a` (a 1024-bit modulus) added into
/// the zeroed `t`: [`cross_products_in_blocks`]'s two blocks of 8 rows
/// with each row's pass of eight unrolled into its pieces, and no loop.
fn cross_products_16(t: &mut [u64], a: &[u64]) {
    assert!(a.len() == 16 && t.len() == 32);
    // SAFETY: row i (for i < 16) reads `a[i..16]` and reads and writes
    // `t[2i + 1..=i + 16]`, inside the slices checked above (the last row
    // multiplies nothing and stores its zero carry at `t[31]`). No stack
    // is used; the instructions exist.
    unsafe {
        asm_with_rows!(
            self::straight_row!("0", "8", "8", [4, 2, 1, 4, 4]),
            self::straight_row!("8", "16", "24", [4, 2, 4, 4]),
            self::straight_row!("16", "24", "40", [4, 1, 4, 4]),
            self::straight_row!("24", "32", "56", [4, 4, 4]),
            self::straight_row!("32", "40", "72", [2, 1, 4, 4]),
            self::straight_row!("40", "48", "88", [2, 4, 4]),
            self::straight_row!("48", "56", "104", [1, 4, 4]),
            self::straight_row!("56", "64", "120", [4, 4]),
            self::straight_row!("64", "72", "136", [4, 2, 1]),
            self::straight_row!("72", "80", "152", [4, 2]),
            self::straight_row!("80", "88", "168", [4, 1]),
            self::straight_row!("88", "96", "184", [4]),
            self::straight_row!("96", "104", "200", [2, 1]),
            self::straight_row!("104", "112", "216", [2]),
            self::straight_row!("112", "120", "232", [1]),
            self::straight_row!("120", "128", "248", []),
            a = in(reg) a.as_ptr(),
            t = in(reg) t.as_mut_ptr(),
        );
    }
}

/// The cross products of an `n`-limb `a`, `n ≥ 2`, added into the zeroed
/// `t`, one row at a time.
fn cross_products_by_rows(t: &mut [u64], a: &[u64]) {
    let n = a.len();
    debug_assert!(n >= 2 && t.len() == 2 * n);
    // SAFETY: row i (for i < n − 1) reads `a[i..n]` and reads and writes
    // `t[2i + 1..=i + n]`, all below `2n`; the loop runs `n − 1` rows,
    // counted down in `{len}` (the row length). No stack is used; the
    // instructions exist.
    unsafe {
        asm_with_rows!(
            "8:",
            "mov rdx, qword ptr [{a}]",
            "lea {x}, [{a} + 8]",
            "lea {acc}, [{t} + 8]",
            "mov rcx, {len}",
            "shr rcx, 3",
            "mov {four}, {len}",
            "and {four}, 4",
            "mov {ones}, {len}",
            "and {ones}, 3",
            mul_add_row!("rcx", "{four}", "{ones}"),
            "mov qword ptr [{acc}], {hi}",
            "lea {a}, [{a} + 8]",
            "lea {t}, [{t} + 16]",
            "dec {len}",
            "jnz 8b",
            a = inout(reg) a.as_ptr() => _,
            t = inout(reg) t.as_mut_ptr() => _,
            len = inout(reg) n - 1 => _,
            four = out(reg) _,
            ones = out(reg) _,
        );
    }
}

/// One limb `j` of the doubling pass: `a_j` at byte `$a` of `{a}`,
/// `t_{2j}` and `t_{2j+1}` at bytes `$lo` and `$hi` of `{t}` (the loop's
/// limb at 0, 0 and 8; the unrolled 16-limb pass's at their places).
#[rustfmt::skip]
macro_rules! double_and_add_square {
    ($a:literal, $lo:literal, $hi:literal) => {
        concat!(
            "mov rdx, qword ptr [{a} + ", $a, "]\n",
            "mulx {hi}, {lo}, rdx\n",
            "mov {limb}, qword ptr [{t} + ", $lo, "]\n",
            "adcx {limb}, {limb}\n",
            "adox {limb}, {lo}\n",
            "mov qword ptr [{t} + ", $lo, "], {limb}\n",
            "mov {limb}, qword ptr [{t} + ", $hi, "]\n",
            "adcx {limb}, {limb}\n",
            "adox {limb}, {hi}\n",
            "mov qword ptr [{t} + ", $hi, "], {limb}\n",
        )
    };
}
use double_and_add_square;

/// `t = 2t + Σ a_i^2·2^(128i)`: the doubling is ADCX of a limb with itself
/// (a shift left through CF), the squares' halves go in through the OF
/// chain. `a^2 < 2^(128n)`, so both chains end empty.
fn double_and_add_squares(t: &mut [u64], a: &[u64]) {
    let n = a.len();
    debug_assert!(t.len() == 2 * n);
    // SAFETY: iteration j (for j < n) reads `a[j]` and reads and writes
    // `t[2j]` and `t[2j + 1]`, inside the slices; RCX counts the `n`
    // iterations down. No stack is used; the instructions exist.
    unsafe {
        asm!(
            "xor {limb:e}, {limb:e}",
            "8:",
            "jrcxz 9f",
            self::double_and_add_square!("0", "0", "8"),
            "lea {a}, [{a} + 8]",
            "lea {t}, [{t} + 16]",
            "lea rcx, [rcx - 1]",
            "jmp 8b",
            "9:",
            a = inout(reg) a.as_ptr() => _,
            t = inout(reg) t.as_mut_ptr() => _,
            limb = out(reg) _,
            hi = out(reg) _,
            lo = out(reg) _,
            inout("rcx") n => _,
            out("rdx") _,
            options(nostack),
        );
    }
}

/// [`double_and_add_squares`] for 16 limbs (a 1024-bit modulus), unrolled:
/// no counter, pointer steps or branches between the limbs.
fn double_and_add_squares_16(t: &mut [u64], a: &[u64]) {
    assert!(a.len() == 16 && t.len() == 32);
    // SAFETY: reads `a[0..16]` and reads and writes `t[0..32]`, inside the
    // slices checked above. No stack is used; the instructions exist.
    unsafe {
        asm!(
            "xor {limb:e}, {limb:e}",
            self::double_and_add_square!("0", "0", "8"),
            self::double_and_add_square!("8", "16", "24"),
            self::double_and_add_square!("16", "32", "40"),
            self::double_and_add_square!("24", "48", "56"),
            self::double_and_add_square!("32", "64", "72"),
            self::double_and_add_square!("40", "80", "88"),
            self::double_and_add_square!("48", "96", "104"),
            self::double_and_add_square!("56", "112", "120"),
            self::double_and_add_square!("64", "128", "136"),
            self::double_and_add_square!("72", "144", "152"),
            self::double_and_add_square!("80", "160", "168"),
            self::double_and_add_square!("88", "176", "184"),
            self::double_and_add_square!("96", "192", "200"),
            self::double_and_add_square!("104", "208", "216"),
            self::double_and_add_square!("112", "224", "232"),
            self::double_and_add_square!("120", "240", "248"),
            a = in(reg) a.as_ptr(),
            t = in(reg) t.as_mut_ptr(),
            limb = out(reg) _,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
}
