//! The repository's copies of the shared test vectors are the shared files.

use std::path::Path;

#[test]
fn copies_match_the_shared_vectors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/vectors");
    if !shared.is_dir() {
        eprintln!("../shared/vectors is not present here; nothing to compare");
        return;
    }
    for name in ["rfc9497.json", "ffdhe.json", "rfc9380_bls12381g1.json"] {
        let ours = std::fs::read(root.join("tests/vectors").join(name)).unwrap();
        let theirs = std::fs::read(shared.join(name)).unwrap();
        assert!(
            ours == theirs,
            "tests/vectors/{name} differs from ../shared/vectors/{name}"
        );
    }
}
