#!/bin/sh
# ctest's ct_planted_leak: proof that the constant-time check is live.
# Builds liboblivex with the test-only feature `ct-planted-leak` (among its
# planted leaks, a branch on a secret exponent digit; src/planted_leak.rs)
# into its own target directory (shared with the trace's planted checks,
# whose features it takes too, so that both use one build of the crate),
# runs the CT harness's modexp part against it under valgrind with that
# leak live (OBLIVEX_PLANTED_LEAK), on each backend valgrind can run, and
# passes only if memcheck reports that branch (in `planted_leak`) on each.
# Usage: run-planted.sh SOURCE_DIR WORK_DIR CARGO VALGRIND HARNESS SUPPRESSIONS
set -u
source_dir=$1 work_dir=$2 cargo=$3 valgrind=$4 harness=$5 suppressions=$6
mkdir -p "$work_dir"
(cd "$source_dir" && CARGO_TARGET_DIR="$work_dir/target" "$cargo" build --release --locked --lib \
    --features ct-trace-harness,ct-planted-leak) || exit 1
# The portable backend, and the AVX2 one where the CPU has it (valgrind
# runs AVX2): the planted branch lives in the shared exponentiation, so
# each backend's run shows the check sees through that backend's code.
backends=portable
if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
    backends="portable avx2"
else
    echo "ct_planted_leak: this CPU has no AVX2, the avx2 run is skipped"
fi
for backend in $backends; do
    log="$work_dir/planted-$backend.log"
    OBLIVEX_BACKEND=$backend OBLIVEX_PLANTED_LEAK=exponent_digit_branch \
        LD_PRELOAD="$work_dir/target/release/liboblivex.so" \
        "$valgrind" --error-exitcode=1 --suppressions="$suppressions" "$harness" modexp >"$log" 2>&1
    status=$?
    if [ "$status" -eq 1 ] && grep -q "planted_leak" "$log"; then
        echo "ct_planted_leak ($backend): the planted secret-dependent branch was caught, as it must be"
        continue
    fi
    cat "$log"
    echo "ct_planted_leak ($backend): valgrind exited $status without reporting planted_leak: the CT check is not live"
    exit 1
done
exit 0
