//! `include/oblivex.h` must be exactly what cbindgen generates from the
//! current sources. Regenerate it with
//! `OBLIVEX_BLESS_HEADER=1 cargo test --test header`.

use std::path::Path;

#[test]
fn header_is_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config =
        cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml parses");
    let bindings = cbindgen::Builder::new()
        .with_crate(root)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header");
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let fresh = String::from_utf8(fresh).expect("header is UTF-8");

    let path = root.join("include/oblivex.h");
    if std::env::var_os("OBLIVEX_BLESS_HEADER").is_some() {
        std::fs::write(&path, &fresh).expect("write include/oblivex.h");
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == fresh,
        "include/oblivex.h is stale: run `OBLIVEX_BLESS_HEADER=1 cargo test --test header` and commit it"
    );
}
