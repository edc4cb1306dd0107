#!/bin/sh
# Builds or runs the cargo-fuzz targets for ctest (label fuzz):
#   run-ci.sh build <target-dir>
#   run-ci.sh run <target-dir> <work-dir> <target> <seconds>
# (OBLIVEX_FUZZ_SECONDS, when set, overrides <seconds>.)
# Builds with `--sanitizer none` (libFuzzer's coverage guidance works on
# stable Rust; ASan needs nightly) and `-O` with oblivex's own debug
# assertions and overflow checks on (fuzz/Cargo.toml), so the limb and
# carry bounds the arithmetic asserts are checked on every fuzzed input
# while the dependencies run at release speed.
# OBLIVEX_BACKEND, when set, chooses the backend the target runs on (skipped
# when it is avx2 and the CPU has no AVX2).
# A run starts from the committed seed corpus fuzz/corpus/<target> (read
# only) and writes what it finds to <work-dir>; a crashing input is saved
# there too and printed. Exit 77 (skipped) when cargo-fuzz is missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# Through cargo, which also finds a cargo-fuzz in ${CARGO_HOME}/bin that is
# not on the PATH.
cargo fuzz --version >/dev/null 2>&1 || {
    echo "fuzz: skipped, cargo-fuzz is not installed (cargo install --locked cargo-fuzz; scripts/test-all does)"
    exit 77
}
mode=$1
target_dir=$2
cd "$here/.."
case "$mode" in
build)
    exec cargo fuzz build -O --sanitizer none --target-dir "$target_dir"
    ;;
run)
    if [ "${OBLIVEX_BACKEND:-}" = avx2 ] && ! grep -qw avx2 /proc/cpuinfo; then
        echo "fuzz: skipped, OBLIVEX_BACKEND=avx2 and this CPU has no AVX2"
        exit 77
    fi
    work=$3
    target=$4
    seconds=${OBLIVEX_FUZZ_SECONDS:-$5}
    rm -rf "$work/$target"
    mkdir -p "$work/$target/found" "$work/$target/artifacts"
    log="$work/$target/log"
    status=0
    cargo fuzz run -O --sanitizer none --target-dir "$target_dir" "$target" \
        "$work/$target/found" "$here/corpus/$target" -- \
        -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 \
        -artifact_prefix="$work/$target/artifacts/" >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    seeds=$(ls "$here/corpus/$target" | wc -l)
    found=$(ls "$work/$target/found" | wc -l)
    echo "fuzz $target: ${runs:-?} executions in $seconds s from $seeds seeds ($found new corpus inputs)"
    if [ "$status" -ne 0 ]; then
        tail -n 60 "$log"
        for crash in "$work/$target/artifacts"/*; do
            [ -f "$crash" ] && { echo "crashing input $crash:"; od -An -tx1 "$crash" | head -n 20; }
        done
        exit "$status"
    fi
    ;;
*)
    echo "usage: $0 build <target-dir> | run <target-dir> <work-dir> <target> <seconds>" >&2
    exit 2
    ;;
esac
