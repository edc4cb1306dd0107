#!/bin/sh
# ctest's rust_fmt and rust_clippy: `cargo fmt --check` (the library and
# the fuzz crate, a workspace of its own), or clippy on every target with
# warnings as errors (the constant-time trace's harness binary included,
# which its feature `ct-trace-harness` builds), then on the fuzz crate as
# cargo-fuzz builds it (`--cfg fuzzing`, in a target directory of its own
# so the library's build is not redone). Exit 77 (skipped) where the rustup
# component is not installed, so a missing linter is reported, not failed.
# Usage: ctest-lint.sh fmt|clippy CARGO
set -eu
lint=$1
cargo=$2
if ! "$cargo" "$lint" --version >/dev/null 2>&1; then
    echo "rust_$lint: skipped, the rustup component for cargo $lint is not installed (rustup component add $( [ "$lint" = fmt ] && echo rustfmt || echo clippy))"
    exit 77
fi
case "$lint" in
fmt)
    "$cargo" fmt --check
    exec "$cargo" fmt --check --manifest-path "$(dirname "$0")/../fuzz/Cargo.toml" ;;
clippy)
    "$cargo" clippy --release --locked --all-targets --features ct-trace-harness -- -D warnings
    RUSTFLAGS="--cfg fuzzing" exec "$cargo" clippy --release --locked --all-targets \
        --manifest-path "$(dirname "$0")/../fuzz/Cargo.toml" \
        --target-dir "${CARGO_TARGET_DIR:-target}/fuzz-clippy" -- -D warnings ;;
*) echo "usage: $0 fmt|clippy CARGO" >&2; exit 2 ;;
esac
