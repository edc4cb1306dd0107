#!/bin/sh
# ctest's swift_bindings (and a manual run): install the CMake build tree into
# a scratch prefix, then swift build, swift test, the concurrency tests under
# ThreadSanitizer, the soname check of the test binary and the compile-fail
# check (a batch finalized twice, used after finalizing, consumed by a
# `finalize` whose argument reads it, or shared between tasks, a DKG round
# state stepped twice, a POPRF info
# given to an OPRF server or client, and a VOPRF answer finalized without
# its proof must not compile; the control file must) against it through
# pkg-config.
# Everything SwiftPM writes goes under WORK_DIR: the source tree stays clean.
# Usage: run-tests.sh BUILD_DIR WORK_DIR [CMAKE]
set -eu
build_dir=$1
work_dir=$2
cmake=${3:-cmake}
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    PATH=/opt/swift/usr/bin:$PATH
    export PATH
fi
if ! command -v swift >/dev/null 2>&1 || ! command -v swiftc >/dev/null 2>&1; then
    echo "swift_bindings: skipped, no Swift toolchain (swift not on PATH nor in /opt/swift/usr/bin; see bindings/swift/README.md)"
    exit 77
fi
package_dir=$(cd "$(dirname "$0")" && pwd)
scratch=$work_dir/swiftpm

step() {
    echo "swift_bindings: $*"
}

step "installing $build_dir into $work_dir/prefix"
. "$package_dir/../install-prefix.sh"
cd "$package_dir"
swift --version 2>&1 | head -n 1

step "swift build"
swift build --scratch-path "$scratch"

step "swift test"
swift test --scratch-path "$scratch" --disable-xctest

# Linked through pkg-config, the package loads the library by its soname.
step "soname check of the test binary"
check_soname "$(swift build --scratch-path "$scratch" --show-bin-path)/OblivexPackageTests.xctest"

# As the Go bindings' race-detector run: the concurrency and threshold tests
# under ThreadSanitizer (a separate build).
step "swift test --sanitize=thread (concurrency and threshold tests)"
swift test --scratch-path "$work_dir/swiftpm-tsan" --disable-xctest --sanitize=thread \
    --filter 'ConcurrencyTests|ThresholdTests'

# The compile-fail check: each CompileFail/*.swift but control.swift must
# fail to compile against the package's own Oblivex module with exactly its
# expected diagnostic (ownership errors come from SIL passes: -emit-sil, not
# -typecheck); control.swift must compile.
step "compile-fail check"
modules=$(swift build --scratch-path "$scratch" --show-bin-path)/Modules
clang_flags=
for flag in $(pkg-config --cflags-only-I oblivex); do
    clang_flags="$clang_flags -Xcc $flag"
done
compile() {
    # shellcheck disable=SC2086 # clang_flags is a list of flags
    swiftc -swift-version 6 -diagnostic-style llvm -emit-sil -o /dev/null \
        -I "$modules" -I "$package_dir/Sources/COblivex" $clang_flags "$1" >"$work_dir/compile.log" 2>&1
}
expect_failure() {
    file=CompileFail/$1
    expected=$2
    if compile "$file"; then
        echo "swift_bindings: $file compiled, but must not"
        exit 1
    fi
    errors=$(grep -c ': error: ' "$work_dir/compile.log" || true)
    matching=$(grep -c ": error: $expected" "$work_dir/compile.log" || true)
    if [ "$matching" -eq 0 ] || [ "$errors" -ne "$matching" ]; then
        echo "swift_bindings: $file failed without (only) the diagnostic \"$expected\":"
        cat "$work_dir/compile.log"
        exit 1
    fi
    echo "  $file: refused as expected: $(grep -m 1 ': error: ' "$work_dir/compile.log" | sed 's/.*: error: //')"
}
if ! compile CompileFail/control.swift; then
    echo "swift_bindings: CompileFail/control.swift must compile:"
    cat "$work_dir/compile.log"
    exit 1
fi
echo "  CompileFail/control.swift: compiles"
expect_failure finalize_twice.swift "'batch' consumed more than once"
expect_failure use_after_finalize.swift "'batch' used after consume"
expect_failure batch_not_sendable.swift "conformance of 'CheckedBatch' to 'Sendable' is unavailable"
expect_failure consume_in_argument.swift "'batch' used after consume"
expect_failure bls_finalize_twice.swift "'batch' consumed more than once"
expect_failure elgamal_use_after_finalize.swift "'batch' used after consume"
expect_failure dkg_round_twice.swift "'round1' consumed more than once"
# The mode is in the type: a member of another mode's constrained extension.
expect_failure oprf_server_info.swift \
    "referencing instance method 'evaluate(_:info:)' on 'RFC9497Server' requires the types 'OPRFMode' and 'POPRFMode' be equivalent"
expect_failure oprf_client_info.swift \
    "referencing instance method 'blind(_:info:)' on 'RFC9497Client' requires the types 'OPRFMode' and 'POPRFMode' be equivalent"
expect_failure voprf_finalize_without_proof.swift \
    "referencing instance method 'finalize' on 'RFC9497Batch' requires the types 'VOPRFMode' and 'OPRFMode' be equivalent"
for file in CompileFail/*.swift; do
    case $file in
    */control.swift | */finalize_twice.swift | */use_after_finalize.swift | */batch_not_sendable.swift) ;;
    */consume_in_argument.swift | */bls_finalize_twice.swift | */elgamal_use_after_finalize.swift) ;;
    */dkg_round_twice.swift) ;;
    */oprf_server_info.swift | */oprf_client_info.swift | */voprf_finalize_without_proof.swift) ;;
    *)
        echo "swift_bindings: $file has no expected diagnostic in run-tests.sh"
        exit 1
        ;;
    esac
done
step "passed"
