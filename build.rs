//! Gives the shared library a soname that names its ABI (README,
//! "Stability"): `liboblivex.so.0.MINOR` while the version is 0.x, where a
//! minor release may break the ABI, `liboblivex.so.MAJOR` from 1.0 on. A
//! program built against 0.1 then refuses to load 0.2 instead of calling it
//! with the old meaning of its arguments. cmake/OblivexCargo.cmake names the
//! installed files after the same soname; ctest's `soname` checks both.

fn main() {
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
    let minor = std::env::var("CARGO_PKG_VERSION_MINOR").expect("cargo sets the version");
    let abi = if major == "0" {
        format!("0.{minor}")
    } else {
        major
    };
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" || target_os == "android" || target_os.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,liboblivex.so.{abi}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
