#!/bin/sh
# ctest's go_bindings (and a manual run): install the CMake build tree into
# a scratch prefix, then gofmt, go vet, go test and a race-detector run of
# the concurrency tests against it through pkg-config.
# Usage: run-tests.sh BUILD_DIR WORK_DIR [CMAKE]
set -eu
build_dir=$1
work_dir=$2
cmake=${3:-cmake}
if ! command -v go >/dev/null 2>&1; then
    echo "go_bindings: skipped, no Go toolchain (apt-get install golang-go; scripts/test-all does)"
    exit 77
fi
. "$(dirname "$0")/../install-prefix.sh"
cd "$(dirname "$0")"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
    echo "gofmt: not formatted: $unformatted"
    exit 1
fi
go version
go vet ./...
go test -count=1 ./...
go test -count=1 -race -run 'Concurrent|Threshold' ./...
