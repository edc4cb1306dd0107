//! The MULX/ADX backend's three kernels (the loops of
//! [`WordKernel`](crate::mp::limbs::montgomery::WordKernel)): the full
//! product, the full square and the reduction's rounds, each one `asm!`
//! block with its rows pasted in (`row::mul_add_row`), so that nothing but
//! a few pointer steps runs between rows.
//!
//! Callers guarantee the CPU has BMI2 (MULX) and ADX (ADCX, ADOX): only
//! `MulxKernel` calls these, and `WordSerialArith::new` refuses to build an
//! arithmetic on it where `MulxKernel::runs_here` is false. Constant time:
//! every branch and address depends only on the limb count.

use core::arch::asm;

use super::row::{asm_with_rows, mul_add_row};

/// A row length `len` split as the row text wants it: `[len >> 3, len & 4,
/// len & 3]`.
fn row_shape(len: usize) -> [u64; 3] {
    let len = len as u64;
    [len >> 3, len & 4, len & 3]
}

/// `t = a·b`: `a` and `b` have `n ≥ 1` limbs, `t` has `2n`. Row `i` adds
/// `b·a_i` at limb `i` and stores its carry limb at `i + n`, which no
/// earlier row has reached.
pub(super) fn product(t: &mut [u64], a: &[u64], b: &[u64]) {
    let n = a.len();
    assert!(n >= 1 && b.len() == n && t.len() == 2 * n);
    t[..n].fill(0);
    let shape = row_shape(n);
    // SAFETY: row i reads `n` limbs of `b` and `a[i]`, and reads and
    // writes `t[i..=i + n]`, for `i < n`: all inside the slices checked
    // above (`t` has `2n` limbs). The loop ends when `{a}` reaches `a_end`,
    // one past `a`'s last limb; `a_end` is in bounds-plus-one of `a`. The
    // shape is read through its pointer and not written. No stack is used;
    // MULX, ADCX and ADOX exist (the module's contract).
    unsafe {
        asm_with_rows!(
            "8:",
            "mov rdx, qword ptr [{a}]",
            "mov {x}, {b}",
            "mov {acc}, {t}",
            mul_add_row!(
                "qword ptr [{shape}]",
                "qword ptr [{shape} + 8]",
                "qword ptr [{shape} + 16]"
            ),
            "mov qword ptr [{acc}], {hi}",
            "lea {a}, [{a} + 8]",
            "lea {t}, [{t} + 8]",
            "cmp {a}, {a_end}",
            "jne 8b",
            a = inout(reg) a.as_ptr() => _,
            a_end = in(reg) a.as_ptr_range().end,
            b = in(reg) b.as_ptr(),
            t = inout(reg) t.as_mut_ptr() => _,
            shape = in(reg) shape.as_ptr(),
        );
    }
}

/// `t = a^2`: `a` has `n ≥ 1` limbs, `t` has `2n`. The cross products
/// `a_i·a_j`, `i < j`, row by row (row `i` has `n − 1 − i` limbs), then
/// one pass that doubles them and adds the squares `a_i^2`.
pub(super) fn square(t: &mut [u64], a: &[u64]) {
    let n = a.len();
    assert!(n >= 1 && t.len() == 2 * n);
    t.fill(0);
    if n >= 2 {
        // SAFETY: row i (for i < n − 1) reads `a[i..n]` and reads and
        // writes `t[2i + 1..=i + n]`, all below `2n`; the loop runs `n − 1`
        // rows, counted down in `{len}` (the row length). No stack is
        // used; the instructions exist (the module's contract).
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
    // The doubling is ADCX of a limb with itself (a shift left through
    // CF), the squares' halves go in through the OF chain. a^2 < 2^(128n),
    // so both chains end empty.
    // SAFETY: iteration j (for j < n) reads `a[j]` and reads and writes
    // `t[2j]` and `t[2j + 1]`, inside the slices checked above; RCX counts
    // the `n` iterations down. No stack is used; the instructions exist.
    unsafe {
        asm!(
            "xor {limb:e}, {limb:e}",
            "8:",
            "jrcxz 9f",
            "mov rdx, qword ptr [{a}]",
            "mulx {hi}, {lo}, rdx",
            "mov {limb}, qword ptr [{t}]",
            "adcx {limb}, {limb}",
            "adox {limb}, {lo}",
            "mov qword ptr [{t}], {limb}",
            "mov {limb}, qword ptr [{t} + 8]",
            "adcx {limb}, {limb}",
            "adox {limb}, {hi}",
            "mov qword ptr [{t} + 8], {limb}",
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

/// The `n` rounds of Montgomery reduction of the `2n`-limb `t` by the
/// `n`-limb `m` (see `WordKernel::reduce_rounds`): round `i` adds
/// `u_i·m` at limb `i`, `u_i = t_i·m_inv_neg`, then folds the row's carry
/// limb and the previous round's carry bit into limb `i + n`. Returns the
/// last carry bit.
pub(super) fn reduce_rounds(t: &mut [u64], m: &[u64], m_inv_neg: u64) -> u64 {
    let n = m.len();
    assert!(n >= 1 && t.len() == 2 * n);
    let [eight, four, ones] = row_shape(n);
    let rounds = t.as_mut_ptr();
    // The row shape, the inverse and where the rounds end, read from
    // memory: the rounds' registers are all in use.
    let params: [u64; 5] = [eight, four, ones, m_inv_neg, rounds.wrapping_add(n) as u64];
    let top: u64;
    // SAFETY: round i (for i < n) reads `m` (`n` limbs) and reads and
    // writes `t[i..=i + n]`, below `2n`; the rounds end when `{t}` reaches
    // `t + n` limbs (params[4]). `params` is only read. No stack is used;
    // the instructions exist (the module's contract).
    unsafe {
        asm_with_rows!(
            "8:",
            "mov rdx, qword ptr [{t}]",
            "imul rdx, qword ptr [{params} + 24]",
            "mov {x}, {m}",
            "mov {acc}, {t}",
            mul_add_row!(
                "qword ptr [{params}]",
                "qword ptr [{params} + 8]",
                "qword ptr [{params} + 16]"
            ),
            // t[i + n] += carry limb + top; top = the carry out (0 or 1
            // for t < m·R, two bits' room here).
            "add {hi}, qword ptr [{acc}]",
            "mov {lo:e}, 0",
            "adc {lo}, 0",
            "add {hi}, {top}",
            "adc {lo}, 0",
            "mov qword ptr [{acc}], {hi}",
            "mov {top}, {lo}",
            "lea {t}, [{t} + 8]",
            "cmp {t}, qword ptr [{params} + 32]",
            "jne 8b",
            t = inout(reg) rounds => _,
            m = in(reg) m.as_ptr(),
            params = in(reg) params.as_ptr(),
            top = inout(reg) 0u64 => top,
        );
    }
    top
}
