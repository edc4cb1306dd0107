# ctest's consumer_install: install the build tree into a scratch prefix, then
# build and run c_tests/consumer against it, once with find_package(oblivex)
# (shared and static library) and once with pkg-config; then the soname
# check (c_tests/soname) on the installed library, its CMake package and the
# two programs linked against the shared library.
# Inputs: BUILD_DIR, CONSUMER_DIR, WORK_DIR, C_COMPILER, CARGO_TOML, READELF,
# SONAME_SCRIPT.

function(run)
    execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "failed (${rc}): ${ARGV}")
    endif()
endfunction()

set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")

# find_package
run(${CMAKE_COMMAND} -S "${CONSUMER_DIR}" -B "${WORK_DIR}/cmake-build"
    "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_C_COMPILER=${C_COMPILER}")
run(${CMAKE_COMMAND} --build "${WORK_DIR}/cmake-build")
run("${WORK_DIR}/cmake-build/consumer_shared")
run("${WORK_DIR}/cmake-build/consumer_static")

# pkg-config (the .pc file is relocatable: it finds the prefix from its own path)
file(GLOB_RECURSE pc_file "${prefix}/*/oblivex.pc")
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
execute_process(
    COMMAND ${CMAKE_COMMAND} -E env "PKG_CONFIG_PATH=${pc_dir}" pkg-config --cflags --libs oblivex
    OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config cannot find oblivex in ${pc_dir}")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run("${C_COMPILER}" "${CONSUMER_DIR}/main.c" -o "${WORK_DIR}/consumer_pkgconfig" ${flags})
file(GLOB lib_file "${prefix}/*/liboblivex.so")
get_filename_component(lib_dir "${lib_file}" DIRECTORY)
run(${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${lib_dir}" "${WORK_DIR}/consumer_pkgconfig")
message(STATUS "consumer: find_package (shared, static) and pkg-config builds run")

set(LIB_DIR "${lib_dir}")
set(PROGRAMS "${WORK_DIR}/cmake-build/consumer_shared" "${WORK_DIR}/consumer_pkgconfig")
set(CONFIG_VERSION "${lib_dir}/cmake/oblivex/oblivexConfigVersion.cmake")
include("${SONAME_SCRIPT}")
