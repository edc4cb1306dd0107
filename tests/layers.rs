//! Every crate of `src` reads bottom-up: no file uses a file that uses it
//! back, directly or through others, and the backend selection is a
//! ground floor that uses nothing of the library but its error type. The
//! graph (every `use` and inline path of every file, test modules aside)
//! is read by `support::module_graph`; `tests/mp_layers.rs` holds the
//! layers inside `src/mp`.

mod support;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use support::module_graph::{code_of, find_cycle, references, ModuleGraph};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_library_has_no_import_cycle() {
    let graph = ModuleGraph::of_crate(&src(), &["bin"]);
    assert!(graph.files.len() > 100, "src was found");
    // Uses the reader must see, or it would find no cycle in anything: a
    // `super::` group, a relative `use` from a facade, `crate::` paths
    // followed through re-exports (the root's, `mp`'s) to the file that
    // defines the name. A face's re-export of a name from below it hands
    // the name on and is no use of its own; a re-export from beside it is.
    let uses = |from: &str, to: &str| graph.edges[graph.index(from)].contains(&graph.index(to));
    assert!(uses("ffi::guard", "ffi::status"));
    assert!(uses("mp::backend::ifma", "mp::backend::ifma::constants"));
    assert!(uses("mp::context", "error"));
    assert!(uses("group::ffdhe", "mp::context"));
    assert!(!uses("crate", "error"));
    assert!(uses("ffi::guard", "ffi::unwind"));
    graph.assert_no_cycle("src");
}

#[test]
fn every_binary_has_no_import_cycle() {
    let bins = std::fs::read_dir(src().join("bin")).expect("src/bin is readable");
    let mut seen = 0;
    for entry in bins {
        let dir = entry.expect("directory entry").path();
        if dir.join("main.rs").is_file() {
            let graph = ModuleGraph::of_crate(&dir, &[]);
            graph.assert_no_cycle(&dir.display().to_string());
            seen += 1;
        }
    }
    assert!(seen >= 1, "the binaries were found");
}

#[test]
fn backend_selection_is_a_ground_floor() {
    // `secret_marks`, a leaf itself, answers whether valgrind runs (which
    // hides ADX from CPUID).
    let graph = ModuleGraph::of_crate(&src(), &["bin"]);
    graph.assert_reaches_only(&[graph.index("backend")], &[&["error"], &["secret_marks"]]);
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let edges = vec![
        BTreeSet::from([1]),
        BTreeSet::from([2]),
        BTreeSet::from([0]),
        BTreeSet::new(),
    ];
    assert_eq!(find_cycle(&edges), Some(vec![0, 1, 2, 0]));
    let acyclic = vec![BTreeSet::from([1, 2]), BTreeSet::from([2]), BTreeSet::new()];
    assert_eq!(find_cycle(&acyclic), None);
}

#[test]
fn paths_are_read_from_use_groups_and_code() {
    let code = code_of(
        "use super::{ct, limbs::{a, b}};\npub use child::Item;\npub(crate) use self::x::*;\nfn f() { super::super::ifma::go(); crate::mp::x::Y }\n// super::comment\n#[cfg(test)]\nmod tests { use super::hidden; }\n",
    );
    let found: Vec<(String, bool)> = references(&code)
        .iter()
        .map(|r| (r.path.join("::"), r.reexport))
        .collect();
    let expected = [
        ("super::ct", false),
        ("super::limbs::a", false),
        ("super::limbs::b", false),
        ("self::child::Item", true),
        ("self::x::*", false),
        ("super::super::ifma::go", false),
        ("crate::mp::x::Y", false),
    ];
    assert_eq!(
        found,
        expected.map(|(path, reexport)| (path.to_string(), reexport))
    );
}
