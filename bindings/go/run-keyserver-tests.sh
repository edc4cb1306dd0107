#!/bin/sh
# ctest's keyserver (and a manual run): install the CMake build tree into a
# scratch prefix, vet oblivex-keyserver and oblivex-keyclient (also the
# test-only wrong-key build), then run their tests: servers on loopback,
# each test bounded, the soak for SOAK (default 60s, what CI runs).
# Usage: run-keyserver-tests.sh BUILD_DIR WORK_DIR [CMAKE] [SOAK]
set -eu
build_dir=$1
work_dir=$2
cmake=${3:-cmake}
soak=${4:-60s}
go_dir=$(cd "$(dirname "$0")" && pwd)
. "$go_dir/find-go.sh"
require_go keyserver
. "$(dirname "$0")/../install-prefix.sh"
cd "$(dirname "$0")"
go version
go vet -tags oblivex_wrongkey ./cmd/... ./internal/...
go test -count=1 ./internal/...
go test -count=1 -timeout 300s -v ./cmd/oblivex-keyserver -args -soak="$soak"
