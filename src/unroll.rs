//! Compile-time unrolling for register-resident arrays (the `mp`
//! backends' kernels, the lane engines' fields).
//!
//! `unrolled!(k < BOUND => { ... })` repeats the block with `k` bound to
//! each constant `0, 1, …` below `BOUND` (a const generic or constant; the
//! `k < BOUND` test folds at compile time). Loops over arrays of registers
//! must be unrolled this way: a `for` loop that LLVM's loop passes see first
//! would turn the array into memory (for example a `memmove` for a sliding
//! window), whereas constant indices let every element live in a register.
//!
//! The written-out list bounds the expansion (nested unrolling multiplies
//! it, and an unbounded one exhausts the compiler's memory): `unrolled!`
//! covers rows and steps of a strip (up to 11), `unrolled_window!` the
//! digits of a register window (25).

macro_rules! unrolled {
    ($k:ident < $bound:expr => $body:block) => {
        unrolled!(@each $k $bound, $body, 0 1 2 3 4 5 6 7 8 9 10)
    };
    (@each $k:ident $bound:expr, $body:block, $($n:literal)*) => {
        $(
            #[allow(clippy::reversed_empty_ranges, unused_comparisons, unconditional_panic)]
            {
                let $k: usize = $n;
                if $k < $bound $body
            }
        )*
    };
}

macro_rules! unrolled_window {
    ($k:ident < $bound:expr => $body:block) => {
        unrolled!(@each $k $bound, $body, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24)
    };
}
