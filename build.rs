//! Gives the shared library a soname, so the installed `liboblivex.so.0`
//! can be upgraded within a major version without relinking programs.

fn main() {
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" || target_os == "android" || target_os.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,liboblivex.so.{major}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
