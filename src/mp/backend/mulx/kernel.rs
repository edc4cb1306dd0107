//! Two of the MULX/ADX backend's three kernels (the loops of
//! [`WordKernel`](crate::mp::limbs::montgomery::WordKernel)): the full
//! product and the reduction's rounds (the square is `square.rs`), each
//! one `asm!` block with its rows pasted in (`row::mul_add_row`, and its
//! open form for the rounds, whose fold runs in the row's carry chains),
//! so that nothing but a few pointer steps runs between rows.
//!
//! Callers guarantee the CPU has BMI2 (MULX) and ADX (ADCX, ADOX): only
//! `MulxKernel` calls these, and its users check `MulxKernel::runs_here`
//! first: `WordSerialArith::new` refuses to build an arithmetic on it, and
//! the RSA batch's work around the engine (`rsa_crt/private.rs`) takes it
//! only where `schedule::mulx_serves`, which checks the CPU. Constant time:
//! every branch and address depends only on the limb count.

use super::row::{asm_with_rows, mul_add_row, mul_add_row_open, sixteen_limbs};

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

/// The end of a reduction round, after its row (`{hi}` + CF + OF the
/// carry limb): `t[i + n]`, at byte `$carry` from `{acc}`, += the carry
/// limb + `{top}` (the round before's carry bit), in the chains
/// themselves: `{hi}` + `{top}` + CF (a high half is at most 2^64 − 2, so
/// this carries at most 1), then + `t[i + n]` + OF; `{top}` = the two
/// carries out (0 or 1 in all for t < m·R).
#[rustfmt::skip]
macro_rules! fold_round {
    ($carry:literal) => {
        concat!(
            "adcx {hi}, {top}\n",
            "adox {hi}, qword ptr [{acc} + ", $carry, "]\n",
            "mov qword ptr [{acc} + ", $carry, "], {hi}\n",
            "mov {lo:e}, 0\n",
            "mov {top:e}, 0\n",
            "adcx {top}, {lo}\n",
            "adox {top}, {lo}\n",
        )
    };
}

/// The `n` rounds of Montgomery reduction of the `2n`-limb `t` by the
/// `n`-limb `m` (see `WordKernel::reduce_rounds`): round `i` adds
/// `u_i·m` at limb `i`, `u_i = t_i·m_inv_neg`, then folds the row's carry
/// limb and the previous round's carry bit into limb `i + n`. Returns the
/// last carry bit.
pub(super) fn reduce_rounds(t: &mut [u64], m: &[u64], m_inv_neg: u64) -> u64 {
    let n = m.len();
    assert!(n >= 1 && t.len() == 2 * n);
    if n == 16 {
        return reduce_rounds_16(t, m, m_inv_neg);
    }
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
            mul_add_row_open!(
                "qword ptr [{params}]",
                "qword ptr [{params} + 8]",
                "qword ptr [{params} + 16]"
            ),
            fold_round!("0"),
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

/// [`reduce_rounds`] for a 16-limb (1024-bit) `m`, each round's row
/// unrolled ([`sixteen_limbs`]): the same products and carries without the
/// row's counter, pointer steps and branches, which weigh most where rows
/// are short. A 1024-bit exponentiation (an RSA-2048 key's half) ran 8 to
/// 9 % faster on Zen 5; rows of 32 to 64 limbs unrolled the same way ran
/// no faster, and keep the loop.
fn reduce_rounds_16(t: &mut [u64], m: &[u64], m_inv_neg: u64) -> u64 {
    assert!(m.len() == 16 && t.len() == 32);
    let rounds = t.as_mut_ptr();
    let end = rounds.wrapping_add(16);
    let top: u64;
    // SAFETY: round i (for i < 16) reads `m` (16 limbs) and reads and
    // writes `t[i..=i + 16]`, below 32; the rounds end when `{t}` reaches
    // `t + 16` limbs. No stack is used; the instructions exist (the
    // module's contract).
    unsafe {
        asm_with_rows!(
            "mov {x}, {m}",
            "8:",
            "mov rdx, qword ptr [{t}]",
            "imul rdx, {m_inv_neg}",
            "mov {acc}, {t}",
            // {hi} = 0, and XOR clears CF and OF: both chains start empty.
            "xor {hi:e}, {hi:e}",
            sixteen_limbs!(),
            fold_round!("128"),
            "lea {t}, [{t} + 8]",
            "cmp {t}, {end}",
            "jne 8b",
            t = inout(reg) rounds => _,
            m = in(reg) m.as_ptr(),
            m_inv_neg = in(reg) m_inv_neg,
            end = in(reg) end,
            top = inout(reg) 0u64 => top,
        );
    }
    top
}
