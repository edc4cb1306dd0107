# Sourced by the bindings' run-tests.sh: installs the CMake build tree
# $build_dir into $work_dir/prefix (after emptying $work_dir) and exports
# PKG_CONFIG_PATH and LD_LIBRARY_PATH so that pkg-config and the loader find
# that install of oblivex; defines check_soname. Expects build_dir, work_dir
# and cmake set.
rm -rf "$work_dir"
"$cmake" --install "$build_dir" --prefix "$work_dir/prefix" >/dev/null
pc_file=$(find "$work_dir/prefix" -name oblivex.pc | head -n 1)
lib_file=$(find "$work_dir/prefix" -name 'liboblivex.so' | head -n 1)
PKG_CONFIG_PATH=$(dirname "$pc_file")
LD_LIBRARY_PATH=$(dirname "$lib_file")
export PKG_CONFIG_PATH LD_LIBRARY_PATH
source_dir=$(cd "$(dirname "$0")/../.." && pwd)

# check_soname PROGRAM: the installed library, and PROGRAM built against
# it, follow the soname policy (c_tests/soname/check_soname.cmake).
check_soname() {
    "$cmake" -DCARGO_TOML="$source_dir/Cargo.toml" -DLIB_DIR="$LD_LIBRARY_PATH" -DPROGRAMS="$1" \
        -P "$source_dir/c_tests/soname/check_soname.cmake"
}
