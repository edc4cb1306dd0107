//! The one loop the MULX/ADX backend is made of: `acc += x·y` over a row
//! of 64-bit limbs, in assembly, because no compiler keeps two carry
//! chains in flight at once.
//!
//! Each limb's product `x_j·y` (MULX: 128 bits, leaving the flags alone)
//! adds its low half to the limb below through the CF chain (ADCX) and the
//! accumulator limb through the OF chain (ADOX). The two chains are
//! independent, so the additions of one limb do not wait on each other,
//! and the loop counter is stepped with LEA and tested with JRCXZ, which
//! leave both flags alone. Constant time: the instructions and addresses
//! depend only on the row length (public), never on the limbs.

use core::arch::asm;

/// Limbs per pass of the unrolled loop.
const UNROLL: usize = 4;

/// `acc += x·y` over `acc.len() == x.len()` limbs; returns the carry limb
/// (the sum is below `2^(64(n+1))`, so it fits).
///
/// The caller guarantees the CPU has BMI2 (MULX) and ADX (ADCX, ADOX):
/// only `MulxRow` calls this, and `WordSerialArith::new` refuses to build
/// an arithmetic on it where `MulxRow::runs_here` is false.
#[inline]
pub(crate) fn add_mul_row(acc: &mut [u64], x: &[u64], y: u64) -> u64 {
    assert_eq!(
        acc.len(),
        x.len(),
        "a row and its multiplicand have one length"
    );
    let n = x.len();
    // Two loop counts, each negated so that stepping it up to zero ends
    // its loop (JRCXZ tests RCX without touching the flags).
    let passes = (n / UNROLL).wrapping_neg();
    let singles = (n % UNROLL).wrapping_neg();
    let carry: u64;
    // SAFETY: the loops read `n` limbs of `x` and read and write `n` limbs
    // of `acc` (both checked to have `n`), through the pointers stepped
    // here and nowhere else; no stack is used. MULX, ADCX and ADOX exist:
    // see the function's contract.
    unsafe {
        asm!(
            // carry_hi = 0, and XOR clears CF and OF: both chains start empty.
            "xor {hi:e}, {hi:e}",
            "2:",
            "jrcxz 3f",
            "mulx {hi2}, {lo}, qword ptr [{x}]",
            "adcx {lo}, {hi}",
            "adox {lo}, qword ptr [{acc}]",
            "mov qword ptr [{acc}], {lo}",
            "mulx {hi}, {lo}, qword ptr [{x} + 8]",
            "adcx {lo}, {hi2}",
            "adox {lo}, qword ptr [{acc} + 8]",
            "mov qword ptr [{acc} + 8], {lo}",
            "mulx {hi2}, {lo}, qword ptr [{x} + 16]",
            "adcx {lo}, {hi}",
            "adox {lo}, qword ptr [{acc} + 16]",
            "mov qword ptr [{acc} + 16], {lo}",
            "mulx {hi}, {lo}, qword ptr [{x} + 24]",
            "adcx {lo}, {hi2}",
            "adox {lo}, qword ptr [{acc} + 24]",
            "mov qword ptr [{acc} + 24], {lo}",
            "lea {x}, [{x} + 32]",
            "lea {acc}, [{acc} + 32]",
            "lea rcx, [rcx + 1]",
            "jmp 2b",
            "3:",
            "mov rcx, {singles}",
            "4:",
            "jrcxz 5f",
            "mulx {hi2}, {lo}, qword ptr [{x}]",
            "adcx {lo}, {hi}",
            "adox {lo}, qword ptr [{acc}]",
            "mov qword ptr [{acc}], {lo}",
            "mov {hi}, {hi2}",
            "lea {x}, [{x} + 8]",
            "lea {acc}, [{acc} + 8]",
            "lea rcx, [rcx + 1]",
            "jmp 4b",
            "5:",
            // The carry limb: the last high half plus both chains' carries
            // (MOV, not XOR, so the flags survive).
            "mov {lo:e}, 0",
            "adcx {hi}, {lo}",
            "adox {hi}, {lo}",
            x = inout(reg) x.as_ptr() => _,
            acc = inout(reg) acc.as_mut_ptr() => _,
            singles = in(reg) singles,
            inout("rcx") passes => _,
            in("rdx") y,
            hi = out(reg) carry,
            hi2 = out(reg) _,
            lo = out(reg) _,
            options(nostack),
        );
    }
    carry
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mp::limbs::montgomery::{MulAddRow, WordLoop};

    fn mulx_runs() -> bool {
        crate::backend::Backend::Mulx.is_available()
    }

    #[test]
    fn rows_agree_with_the_word_loop() {
        if !mulx_runs() {
            eprintln!("skipped: this CPU has no BMI2 and ADX");
            return;
        }
        let max = u64::MAX;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in 1..=13 {
            // All-ones rows carry through every limb; random rows the rest.
            let rows: [(Vec<u64>, Vec<u64>, u64); 3] = [
                (vec![max; n], vec![max; n], max),
                (
                    (0..n).map(|_| next()).collect(),
                    (0..n).map(|_| next()).collect(),
                    next(),
                ),
                (vec![0; n], (0..n).map(|_| next()).collect(), 0),
            ];
            for (acc, x, y) in rows {
                let mut expected = acc.clone();
                let expected_carry = WordLoop::add_mul_row(&mut expected, &x, y);
                let mut got = acc.clone();
                let carry = add_mul_row(&mut got, &x, y);
                assert_eq!((got, carry), (expected, expected_carry), "{n} limbs");
            }
        }
    }
}
