#!/bin/sh
# ctest's ct_trace_selftest*, ct_trace and ct_trace_planted_*: builds the
# trace harness (c_tests/ct/trace/harness, the binary `ct_trace_harness` of
# the feature `ct-trace-harness`), then runs its cases under ct_trace (see
# main.c), two at a time (one per core), each case's runs in lockstep.
#
# Usage: run-cases.sh MODE TRACER CARGO TARGET_DIR WORK_DIR [CASE...]
#        run-cases.sh selftest|selftest-avx512 TRACER SELFTEST WORK_DIR
#   MODE  selftest every case of the tracer's own test program SELFTEST
#                  (selftest.c) must end as that program says (same trace,
#                  divergence or unclassified); selftest-avx512 its AVX-512
#                  cases (opmasks, gathers, scatters);
#         check    every case (or the CASEs named) on the ifma backend must
#                  give the same trace in all its runs;
#         check-avx2  the same for the CASEs named, on the avx2 backend;
#         planted  the harness is built with the test-only feature
#                  `ct-planted-leak`; each CASE, given as CASE:BACKEND:SYMBOL,
#                  must diverge, and the report must name SYMBOL, the
#                  planted leak live in that run (OBLIVEX_PLANTED_LEAK).
#                  BACKEND `best` is ifma where the CPU has it, else
#                  portable; `avx2` needs AVX2.
# Exits 77 (skipped, with the reason) where the CPU lacks what a case needs
# or ptrace is refused.
set -u
mode=$1 tracer=$2
started=$(date +%s)

has_ifma() { grep -q avx512ifma /proc/cpuinfo && grep -q avx512dq /proc/cpuinfo; }
has_avx2() { grep -qw avx2 /proc/cpuinfo; }

if [ "$mode" = selftest ] || [ "$mode" = selftest-avx512 ]; then
    selftest=$3 work=$4
    avx512=0
    if [ "$mode" = selftest-avx512 ]; then
        grep -q avx512f /proc/cpuinfo || { echo "ct_trace: skipped, this CPU has no AVX-512F"; exit 77; }
        avx512=1
    fi
    mkdir -p "$work"
    "$selftest" --list | awk -v a="$avx512" '$3 == a' >"$work/cases" || exit 1
    failed=0
    while read -r name expected _; do
        "$tracer" --runs 4 -- "$selftest" "$name" >"$work/$name.log" 2>&1
        status=$?
        [ "$status" -eq 77 ] && { cat "$work/$name.log"; exit 77; }
        if [ "$status" -eq "$expected" ]; then
            echo "ct_trace selftest: $name: exit $status, as expected"
        else
            cat "$work/$name.log"
            echo "ct_trace selftest: $name: exit $status, expected $expected"
            failed=$((failed + 1))
        fi
    done <"$work/cases"
    [ "$failed" -eq 0 ]
    exit $?
fi

cargo=$3 target_dir=$4 work=$5
shift 5
source_dir=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$work"

if [ "$mode" = check ] && ! has_ifma; then
    echo "ct_trace: skipped, this CPU has no AVX-512 IFMA and DQ (the traced paths are the IFMA engines')"
    exit 77
fi
if [ "$mode" = check-avx2 ] && ! has_avx2; then
    echo "ct_trace: skipped, this CPU has no AVX2 (the traced paths are the AVX2 backend's)"
    exit 77
fi

# The harness to trace: Cargo profile `ct-trace` (the release build with
# line tables, for the reports' source lines). The planted one: the release
# profile with the features of ct_planted_leak's library (run-planted.sh),
# in its target directory, so that both share one build of the crate (a
# report names the planted function from the symbol table).
if [ "$mode" = planted ]; then
    build="--release --features ct-trace-harness,ct-planted-leak" harness="$target_dir/release/ct_trace_harness"
else
    build="--profile ct-trace --features ct-trace-harness" harness="$target_dir/ct-trace/ct_trace_harness"
fi
# shellcheck disable=SC2086 # $build is several flags
(cd "$source_dir" && CARGO_TARGET_DIR="$target_dir" "$cargo" build --locked --bin ct_trace_harness $build) || exit 1

# The tracer's own probe: ptrace and turning address randomisation off.
probe=$(OBLIVEX_BACKEND=portable "$tracer" --runs 2 -- "$harness" empty 2>&1)
case $? in
0) ;;
77) echo "ct_trace: skipped, ${probe#*skipped, }"; exit 77 ;;
*) echo "$probe"; echo "ct_trace: the tracer's probe failed"; exit 1 ;;
esac

# One case: `run_case NAME RUNS BACKEND LOG`.
run_case() {
    OBLIVEX_BACKEND=$3 "$tracer" --runs "$2" -- "$harness" "$1" >"$4" 2>&1
}

if [ "$mode" = check ] || [ "$mode" = check-avx2 ]; then
    backend=ifma
    [ "$mode" = check-avx2 ] && backend=avx2
    list="$work/cases"
    if [ $# -gt 0 ]; then
        for name in "$@"; do "$harness" --list | grep "^$name " || { echo "no case $name"; exit 1; }; done >"$list"
    else
        "$harness" --list | grep -v '^empty ' >"$list"
    fi
    # Two cases at a time; each prints its tracer's summary or report.
    export tracer harness work backend
    # shellcheck disable=SC2016 # expanded by the inner shell
    xargs -P 2 -L 1 sh -c '
        log="$work/$0.log"
        OBLIVEX_BACKEND=$backend "$tracer" --runs "$1" -- "$harness" "$0" >"$log" 2>&1
        echo "$?" >"$work/$0.status"
        tail -n 1 "$log"' <"$list"
    failed=0
    while read -r name runs; do
        status=$(cat "$work/$name.status" 2>/dev/null || echo missing)
        if [ "$status" != 0 ]; then
            failed=$((failed + 1))
            echo "---- $name (exit $status):"
            cat "$work/$name.log"
        fi
    done <"$list"
    cases=$(wc -l <"$list")
    echo "ct_trace ($backend): $cases cases, $failed failed, $(($(date +%s) - started)) s"
    [ "$failed" -eq 0 ]
    exit $?
fi

# planted: each CASE:BACKEND:SYMBOL must be caught, in SYMBOL.
for spec in "$@"; do
    name=${spec%%:*} rest=${spec#*:}
    backend=${rest%%:*} symbol=${rest#*:}
    if [ "$backend" = best ]; then
        backend=portable
        has_ifma && backend=ifma
    fi
    if [ "$backend" = ifma ] && ! has_ifma; then
        echo "ct_trace: skipped, this CPU has no AVX-512 IFMA and DQ (the planted leak in $name is on the IFMA engine)"
        exit 77
    fi
    if [ "$backend" = avx2 ] && ! has_avx2; then
        echo "ct_trace: skipped, this CPU has no AVX2 (the planted leak in $name is on the AVX2 backend)"
        exit 77
    fi
    log="$work/$name.planted.log"
    # The one planted leak live in this run (src/planted_leak.rs).
    export OBLIVEX_PLANTED_LEAK="$symbol"
    runs=$("$harness" --list | awk -v n="$name" '$1 == n { print $2 }')
    run_case "$name" "$runs" "$backend" "$log"
    status=$?
    if [ "$status" -eq 1 ] && grep -q "DIVERGENCE" "$log" && grep -q "$symbol" "$log"; then
        echo "ct_trace: the planted leak in $name ($backend) was caught in $symbol, as it must be"
        continue
    fi
    cat "$log"
    echo "ct_trace: $name ($backend) exited $status without a divergence in $symbol: the trace check is not live"
    exit 1
done
