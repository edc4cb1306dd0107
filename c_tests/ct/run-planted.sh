#!/bin/sh
# ctest's ct_planted_leak: proof that the constant-time check is live.
# Builds liboblivex with the test-only feature `ct-planted-leak` (a branch
# on a secret exponent digit) into its own target directory, runs the CT
# harness's modexp part against it under valgrind, and passes only if
# memcheck reports that branch (in `planted_leak`).
# Usage: run-planted.sh SOURCE_DIR WORK_DIR CARGO VALGRIND HARNESS SUPPRESSIONS
set -u
source_dir=$1 work_dir=$2 cargo=$3 valgrind=$4 harness=$5 suppressions=$6
mkdir -p "$work_dir"
(cd "$source_dir" && CARGO_TARGET_DIR="$work_dir/target" "$cargo" build --release --locked --lib \
    --features ct-planted-leak) || exit 1
log="$work_dir/planted.log"
OBLIVEX_BACKEND=portable LD_PRELOAD="$work_dir/target/release/liboblivex.so" \
    "$valgrind" --error-exitcode=1 --suppressions="$suppressions" "$harness" modexp >"$log" 2>&1
status=$?
if [ "$status" -eq 1 ] && grep -q "planted_leak" "$log"; then
    echo "ct_planted_leak: the planted secret-dependent branch was caught, as it must be"
    exit 0
fi
cat "$log"
echo "ct_planted_leak: valgrind exited $status without reporting planted_leak: the CT check is not live"
exit 1
