//! Compiles the bn_mod_exp target's C half (`c/bn_mod_exp_shim.c`, which
//! includes the header-only OpenSSL shim `include/oblivex_openssl.h`) and
//! links OpenSSL's libcrypto, the shim's reference.

fn main() {
    for path in [
        "c/bn_mod_exp_shim.c",
        "../include/oblivex_openssl.h",
        "../include/oblivex.h",
    ] {
        println!("cargo:rerun-if-changed={path}");
    }
    cc::Build::new()
        .file("c/bn_mod_exp_shim.c")
        .include("../include")
        .warnings(true)
        .compile("bn_mod_exp_shim");
    println!("cargo:rustc-link-lib=crypto");
}
