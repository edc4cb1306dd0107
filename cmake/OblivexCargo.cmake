# Builds the Rust crate with cargo and exposes the result as imported targets:
#   oblivex::oblivex         the shared library (soname below)
#   oblivex::oblivex_static  the static library
# The libraries are staged in ${OBLIVEX_STAGE_DIR} with the versioned file
# name and soname links that an installed copy has, so programs in the build
# tree run exactly as installed ones do.

find_program(CARGO_EXECUTABLE cargo HINTS "$ENV{CARGO_HOME}/bin" "$ENV{HOME}/.cargo/bin" REQUIRED)
find_package(Threads REQUIRED)

set(OBLIVEX_CARGO_TARGET_DIR "${PROJECT_SOURCE_DIR}/target" CACHE PATH
    "cargo's target directory (shared with plain `cargo` runs, so nothing is built twice)")
set(OBLIVEX_STAGE_DIR "${PROJECT_BINARY_DIR}/lib")

set(_cargo_out "${OBLIVEX_CARGO_TARGET_DIR}/release")
set(OBLIVEX_SHARED_FILE "liboblivex.so.${PROJECT_VERSION}")
# The soname names the ABI (README, "Stability"; build.rs sets it in the
# library): while the version is 0.x a minor release may break the ABI, so
# 0.MINOR; from 1.0 on, MAJOR. The CMake package's version compatibility
# follows the same line.
if(PROJECT_VERSION_MAJOR EQUAL 0)
    set(OBLIVEX_ABI_VERSION "0.${PROJECT_VERSION_MINOR}")
    set(OBLIVEX_PACKAGE_COMPATIBILITY SameMinorVersion)
else()
    set(OBLIVEX_ABI_VERSION "${PROJECT_VERSION_MAJOR}")
    set(OBLIVEX_PACKAGE_COMPATIBILITY SameMajorVersion)
endif()
set(OBLIVEX_SONAME "liboblivex.so.${OBLIVEX_ABI_VERSION}")
# What rustc says a C program linking the static library needs
# (`cargo rustc --lib --crate-type staticlib -- --print native-static-libs`).
set(OBLIVEX_STATIC_DEPS Threads::Threads ${CMAKE_DL_LIBS} m rt util)

add_custom_target(oblivex_cargo ALL
    COMMAND ${CMAKE_COMMAND} -E env "CARGO_TARGET_DIR=${OBLIVEX_CARGO_TARGET_DIR}"
            "${CARGO_EXECUTABLE}" build --release --lib --locked
            --manifest-path "${PROJECT_SOURCE_DIR}/Cargo.toml"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${OBLIVEX_STAGE_DIR}"
    COMMAND ${CMAKE_COMMAND} -E copy_if_different "${_cargo_out}/liboblivex.so"
            "${OBLIVEX_STAGE_DIR}/${OBLIVEX_SHARED_FILE}"
    COMMAND ${CMAKE_COMMAND} -E create_symlink "${OBLIVEX_SHARED_FILE}"
            "${OBLIVEX_STAGE_DIR}/${OBLIVEX_SONAME}"
    COMMAND ${CMAKE_COMMAND} -E create_symlink "${OBLIVEX_SONAME}"
            "${OBLIVEX_STAGE_DIR}/liboblivex.so"
    COMMAND ${CMAKE_COMMAND} -E copy_if_different "${_cargo_out}/liboblivex.a"
            "${OBLIVEX_STAGE_DIR}/liboblivex.a"
    BYPRODUCTS "${OBLIVEX_STAGE_DIR}/${OBLIVEX_SHARED_FILE}" "${OBLIVEX_STAGE_DIR}/liboblivex.a"
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
    COMMENT "Building liboblivex with cargo"
    USES_TERMINAL)

add_library(oblivex_shared SHARED IMPORTED GLOBAL)
set_target_properties(oblivex_shared PROPERTIES
    IMPORTED_LOCATION "${OBLIVEX_STAGE_DIR}/${OBLIVEX_SHARED_FILE}"
    IMPORTED_SONAME "${OBLIVEX_SONAME}"
    INTERFACE_INCLUDE_DIRECTORIES "${PROJECT_SOURCE_DIR}/include")
add_dependencies(oblivex_shared oblivex_cargo)
add_library(oblivex::oblivex ALIAS oblivex_shared)

add_library(oblivex_static STATIC IMPORTED GLOBAL)
set_target_properties(oblivex_static PROPERTIES
    IMPORTED_LOCATION "${OBLIVEX_STAGE_DIR}/liboblivex.a"
    INTERFACE_INCLUDE_DIRECTORIES "${PROJECT_SOURCE_DIR}/include"
    INTERFACE_LINK_LIBRARIES "${OBLIVEX_STATIC_DEPS}")
add_dependencies(oblivex_static oblivex_cargo)
add_library(oblivex::oblivex_static ALIAS oblivex_static)
