#!/bin/sh
# ctest's rust_release_api: the test-only entry points of oblivex (fixed
# blinds, fixed proof nonces, an insecure kappa) are not reachable from a
# build without the `danger` feature. Compiles ./src/main.rs, which calls
# each of them, against oblivex as a user would, and passes only if the
# compiler rejects every one of those calls.
# Usage: check.sh CARGO TARGET_DIR
set -u
cargo=$1
target_dir=$2
here=$(cd "$(dirname "$0")" && pwd)
log="$target_dir/release-api-check.log"
mkdir -p "$target_dir"
# With the feature the file compiles: so every call in it is right, and
# without the feature nothing but the feature can be missing.
if ! CARGO_TARGET_DIR="$target_dir" "$cargo" check --release --locked --quiet \
    --manifest-path "$here/Cargo.toml" --features oblivex/danger >"$log" 2>&1; then
    echo "rust_release_api: src/main.rs does not compile even with the danger feature"
    cat "$log"
    exit 1
fi
if CARGO_TARGET_DIR="$target_dir" "$cargo" check --release --locked --quiet \
    --manifest-path "$here/Cargo.toml" >"$log" 2>&1; then
    echo "rust_release_api: a build without the danger feature reaches test-only entry points"
    exit 1
fi
status=0
for name in insecure_for_tests blind_with evaluate_with_nonce; do
    if ! grep -q "no .*named \`$name\`" "$log"; then
        echo "rust_release_api: $name was not rejected as missing"
        status=1
    fi
done
[ "$status" -eq 0 ] || cat "$log"
[ "$status" -eq 0 ] && echo "rust_release_api: every test-only entry point is absent without the danger feature"
exit "$status"
