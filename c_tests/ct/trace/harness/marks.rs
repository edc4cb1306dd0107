//! The region marks `ct_trace` stops on: `int3` with rax = the magic
//! ("oblvtrce") and rdi = 1 (start) or 2 (end), as `c_tests/ct/trace/tracer.h`
//! defines them. Run outside `ct_trace`, a mark's trap kills the process:
//! the harness is only ever run under it.

use core::hint::black_box;

const MAGIC: u64 = 0x6f62_6c76_7472_6365;
const START: u64 = 1;
const END: u64 = 2;

fn mark(which: u64) {
    // SAFETY: `int3` stops the process for its tracer, which checks the two
    // registers and resumes it after the instruction (the end mark's int3
    // is skipped by the tracer); no register or memory is changed. Not
    // `nomem`, so the compiler keeps every memory access of the measured
    // call between the marks.
    unsafe {
        core::arch::asm!("int3", in("rax") MAGIC, in("rdi") which, options(nostack));
    }
}

/// Runs `call` between the start and end marks; its inputs and output pass
/// through `black_box` so that none of its work moves out of the region.
pub fn traced<T, R>(input: T, call: impl FnOnce(T) -> R) -> R {
    let input = black_box(input);
    mark(START);
    let output = black_box(call(input));
    mark(END);
    output
}
