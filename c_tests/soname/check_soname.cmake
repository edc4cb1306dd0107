# ctest's soname (and consumer_install, go_bindings, swift_bindings on their
# installs): the shared library's soname, its links and the programs linked
# against it follow the version policy of the README ("Stability"),
# computed here from Cargo.toml on its own: while the version is 0.x a minor
# release may break the ABI, so the soname is liboblivex.so.0.MINOR; from
# 1.0 on it is liboblivex.so.MAJOR. The CMake package's version file must
# accept the same versions: 0.x only the same minor, then the same major.
# Inputs: CARGO_TOML; LIB_DIR (holding liboblivex.so); optional READELF
# (else found on the PATH), PROGRAMS (a list of programs that must load
# exactly that soname) and CONFIG_VERSION (an oblivexConfigVersion.cmake).

file(STRINGS "${CARGO_TOML}" version_line REGEX "^version = ")
if(NOT version_line MATCHES "^version = \"([0-9]+)\\.([0-9]+)\\.([0-9]+)\"")
    message(FATAL_ERROR "no version in ${CARGO_TOML}")
endif()
set(major ${CMAKE_MATCH_1})
set(minor ${CMAKE_MATCH_2})
set(version "${major}.${minor}.${CMAKE_MATCH_3}")
if(major EQUAL 0)
    set(expected "liboblivex.so.0.${minor}")
else()
    set(expected "liboblivex.so.${major}")
endif()

if(NOT READELF)
    find_program(READELF readelf REQUIRED)
endif()

# The value of every dynamic entry of kind `tag` (SONAME, NEEDED) of `file`.
function(dynamic_entries file tag out)
    execute_process(COMMAND "${READELF}" -d "${file}"
        OUTPUT_VARIABLE dump RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${READELF} -d ${file} failed: ${err}")
    endif()
    string(REGEX MATCHALL "\\(${tag}\\)[^\n]*\\[[^]\n]*\\]" lines "${dump}")
    set(values "")
    foreach(line IN LISTS lines)
        string(REGEX REPLACE ".*\\[([^]]*)\\]$" "\\1" value "${line}")
        list(APPEND values "${value}")
    endforeach()
    set(${out} "${values}" PARENT_SCOPE)
endfunction()

set(failures "")

set(library "${LIB_DIR}/liboblivex.so")
if(NOT EXISTS "${library}")
    message(FATAL_ERROR "no ${library}")
endif()
dynamic_entries("${library}" SONAME soname)
if(NOT soname STREQUAL expected)
    list(APPEND failures "${library}: soname \"${soname}\", the policy for ${version} gives ${expected}")
endif()
# The link a program's loader looks for must lead to the same file as the
# development link the linker reads.
file(REAL_PATH "${library}" library_file)
if(NOT EXISTS "${LIB_DIR}/${expected}")
    list(APPEND failures "no ${LIB_DIR}/${expected}")
else()
    file(REAL_PATH "${LIB_DIR}/${expected}" soname_file)
    if(NOT soname_file STREQUAL library_file)
        list(APPEND failures "${LIB_DIR}/${expected} is ${soname_file}, not ${library_file}")
    endif()
endif()

foreach(program IN LISTS PROGRAMS)
    dynamic_entries("${program}" NEEDED needed)
    list(FILTER needed INCLUDE REGEX "^liboblivex")
    if(NOT needed STREQUAL expected)
        list(APPEND failures "${program} needs \"${needed}\", not ${expected}")
    endif()
endforeach()

# What find_package(oblivex <requested>) must accept: (requested version,
# expected answer) pairs around this version.
if(CONFIG_VERSION)
    math(EXPR next_major "${major} + 1")
    math(EXPR next_minor "${minor} + 1")
    set(cases "${version}" TRUE "${major}.${minor}" TRUE "${next_major}.0" FALSE)
    if(major EQUAL 0)
        list(APPEND cases "0.${next_minor}" FALSE)
        if(minor GREATER 0)
            math(EXPR previous_minor "${minor} - 1")
            list(APPEND cases "0.${previous_minor}" FALSE)
        endif()
    else()
        list(APPEND cases "${major}.0" TRUE)
    endif()
    function(compatible requested out)
        set(PACKAGE_FIND_VERSION "${requested}")
        string(REPLACE "." ";" parts "${requested}.0.0")
        list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)
        list(GET parts 1 PACKAGE_FIND_VERSION_MINOR)
        list(GET parts 2 PACKAGE_FIND_VERSION_PATCH)
        include("${CONFIG_VERSION}")
        if(PACKAGE_VERSION_COMPATIBLE)
            set(${out} TRUE PARENT_SCOPE)
        else()
            set(${out} FALSE PARENT_SCOPE)
        endif()
    endfunction()
    while(cases)
        list(POP_FRONT cases requested want)
        compatible("${requested}" got)
        if(NOT got STREQUAL want)
            list(APPEND failures "${CONFIG_VERSION}: find_package(oblivex ${requested}) compatible ${got}, the policy says ${want}")
        endif()
    endwhile()
endif()

if(failures)
    list(JOIN failures "\n  " text)
    message(FATAL_ERROR "soname policy (README, Stability) broken:\n  ${text}")
endif()
message(STATUS "soname: ${expected} for ${version} in ${LIB_DIR}")
