//! `src/mp` reads bottom-up: the slice-level leaf (`limbs/`) knows nothing
//! of contexts or backends, and the modulus context (every file of
//! `context/`) knows no backend, neither `mp`'s arithmetic backends nor
//! the selection below `mp` (it may tell the constant-time check what is
//! public, `secret_marks`). The graph is read by `support::module_graph`;
//! `tests/layers.rs` holds the whole crate to having no cycle.

mod support;

use std::path::Path;

use support::module_graph::ModuleGraph;

fn library() -> ModuleGraph {
    ModuleGraph::of_crate(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &["bin"])
}

#[test]
fn the_reader_sees_mp_s_uses() {
    let graph = library();
    assert!(graph.under(&["mp"]).len() > 10, "src/mp was found");
    // The reader sees the uses it must see (or it would find no layer
    // break in anything): one through a `use` group, one from the entry
    // points down to the context, one out of `mp` to the backend selection.
    let uses = |from: &str, to: &str| graph.edges[graph.index(from)].contains(&graph.index(to));
    assert!(uses("mp::fixed_window", "mp::backend"));
    assert!(uses("mp::exp", "mp::context"));
    assert!(uses("mp::schedule", "backend"));
}

#[test]
fn the_slice_leaf_knows_nothing_of_contexts_or_backends() {
    let graph = library();
    let leaf = graph.under(&["mp", "limbs"]);
    assert!(leaf.len() >= 4, "the leaf's files were found");
    graph.assert_reaches_only(&leaf, &[&["mp", "limbs"], &["mp", "limits"], &["error"]]);
}

#[test]
fn the_modulus_context_knows_no_backend() {
    let graph = library();
    let context = graph.under(&["mp", "context"]);
    assert!(context.len() >= 3, "the context's files were found");
    graph.assert_reaches_only(
        &context,
        &[
            &["mp", "context"],
            &["mp", "limbs"],
            &["mp", "limits"],
            &["secret_marks"],
            &["error"],
        ],
    );
}
