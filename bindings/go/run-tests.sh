#!/bin/sh
# ctest's go_bindings (and a manual run): install the CMake build tree into
# a scratch prefix, then gofmt, go vet, go test and a race-detector run of
# the concurrency tests against it through pkg-config, the soname check of
# the test binary, and the compile-fail check of the mode types.
# Usage: run-tests.sh BUILD_DIR WORK_DIR [CMAKE]
set -eu
build_dir=$1
work_dir=$2
cmake=${3:-cmake}
go_dir=$(cd "$(dirname "$0")" && pwd)
. "$go_dir/find-go.sh"
require_go go_bindings
. "$(dirname "$0")/../install-prefix.sh"
cd "$(dirname "$0")"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
    echo "gofmt: not formatted: $unformatted"
    exit 1
fi
go version
go vet ./...
go test -count=1 .  # the keyserver tests (cmd/, internal/) are ctest's keyserver
go test -count=1 -race -run 'Concurrent|Threshold' .

# Linked through pkg-config, the package loads the library by its soname.
go test -c -o "$work_dir/oblivex.test" .
check_soname "$work_dir/oblivex.test"

# The mode is in the type: each testdata/compilefail program but control
# must fail to compile with exactly its expected error; control must
# compile.
compile() {
    go build -o /dev/null "./testdata/compilefail/$1" >"$work_dir/compile.log" 2>&1
}
if ! compile control; then
    echo "go_bindings: testdata/compilefail/control must compile:"
    cat "$work_dir/compile.log"
    exit 1
fi
expect_failure() {
    if compile "$1"; then
        echo "go_bindings: testdata/compilefail/$1 compiled, but must not"
        exit 1
    fi
    if ! grep -q ": $2" "$work_dir/compile.log" || [ "$(grep -c '\.go:[0-9]*:[0-9]*: ' "$work_dir/compile.log")" -ne 1 ]; then
        echo "go_bindings: testdata/compilefail/$1 failed without (only) the error \"$2\":"
        cat "$work_dir/compile.log"
        exit 1
    fi
    echo "  testdata/compilefail/$1: refused as expected: $2"
}
expect_failure oprf_server_info "too many arguments in call to server.Evaluate"
expect_failure oprf_client_info "too many arguments in call to client.Blind"
expect_failure voprf_finalize_without_proof "not enough arguments in call to batch.Finalize"
for dir in testdata/compilefail/*/; do
    case $dir in
    */control/ | */oprf_server_info/ | */oprf_client_info/ | */voprf_finalize_without_proof/) ;;
    *)
        echo "go_bindings: $dir has no expected error in run-tests.sh"
        exit 1
        ;;
    esac
done
