//! A clone of the repository is all a user gets: every document a file
//! cites must be in it. This test reads every text file the repository
//! keeps and fails on a citation of a `.md` file that does not exist, on a
//! `docs/PROTOCOLS.md §N` whose section does not exist, and on any path
//! into the design notes' directory beside the clone.

use std::path::{Path, PathBuf};

/// The one file allowed to name the directory beside the clone:
/// `scripts/install-prerequisites`
/// takes its offline crate kit from there by default (CI machines keep it
/// there; `OBLIVEX_OFFLINE_KIT` names another). Nothing is read from it
/// by the build or the tests.
const OFFLINE_KIT_USER: &str = "scripts/install-prerequisites";

/// Directories that hold no source of the repository's own.
const SKIPPED_DIRS: &[&str] = &["target", "build", ".git", "corpus", "artifacts", ".build"];

const TEXT_ENDINGS: &[&str] = &[
    "md", "rs", "c", "h", "go", "swift", "sh", "txt", "cmake", "toml", "json", "yml", "yaml", "in",
];

fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable directory") {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_str()) {
                text_files(&path, out);
            }
        } else if TEXT_ENDINGS
            .iter()
            .any(|e| path.extension().is_some_and(|x| x == *e))
            || is_script(&path, &name)
        {
            out.push(path);
        }
    }
}

/// The extension-less scripts of `scripts/` and `.ci/`.
fn is_script(path: &Path, name: &str) -> bool {
    !name.contains('.')
        && path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|dir| dir == "scripts" || dir == ".ci")
}

/// Every `something.md` the text names (a path or a bare file name).
fn cited_documents(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices(".md") {
        let after = text[at + 3..].chars().next();
        if after.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let start = text[..at]
            .rfind(|c: char| !(c.is_alphanumeric() || "_-./".contains(c)))
            .map_or(0, |i| i + 1);
        let name = &text[start..at + 3];
        if name.len() > 3 && !name.starts_with("http") {
            found.push(name.to_string());
        }
    }
    found
}

/// Where a cited document may live: beside the citing file, at the
/// repository root, or in `docs/`.
fn resolves(root: &Path, citing: &Path, name: &str) -> bool {
    let name = name.trim_start_matches("./");
    let beside = citing.parent().unwrap().join(name);
    [beside, root.join(name), root.join("docs").join(name)]
        .iter()
        .any(|p| p.is_file())
}

/// The section numbers of `docs/PROTOCOLS.md` (`## N. Title`).
fn protocol_sections(root: &Path) -> Vec<String> {
    std::fs::read_to_string(root.join("docs/PROTOCOLS.md"))
        .expect("docs/PROTOCOLS.md exists")
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter_map(|l| l.split_once('.').map(|(n, _)| n.to_string()))
        .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
        .collect()
}

/// The section numbers a text cites as `PROTOCOLS.md §N` or `§N–M`.
fn cited_sections(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("PROTOCOLS.md §") {
        let rest = &text[at + "PROTOCOLS.md §".len()..];
        let cited: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '–' || *c == '-')
            .collect();
        for n in cited.split(['–', '-']).filter(|n| !n.is_empty()) {
            found.push(n.to_string());
        }
    }
    found
}

fn problems(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    text_files(root, &mut files);
    let sections = protocol_sections(root);
    // Spelled in two pieces so that this file does not cite it itself.
    let notes_dir = format!("{}/{}", "..", "shared");
    let mut found = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(root).unwrap();
        if relative == Path::new("tests/doc_references.rs") {
            continue; // its own examples of broken citations
        }
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        if text.contains(&notes_dir) && relative != Path::new(OFFLINE_KIT_USER) {
            found.push(format!("{}: cites {notes_dir}", relative.display()));
        }
        for name in cited_documents(&text) {
            if !resolves(root, file, &name) {
                found.push(format!(
                    "{}: cites {name}, not in the repository",
                    relative.display()
                ));
            }
        }
        for n in cited_sections(&text) {
            if !sections.contains(&n) {
                found.push(format!(
                    "{}: cites PROTOCOLS.md §{n}, no such section",
                    relative.display()
                ));
            }
        }
    }
    found
}

#[test]
fn every_cited_document_is_in_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = problems(root);
    assert!(found.is_empty(), "broken references:\n{}", found.join("\n"));
}

#[test]
fn citations_are_found_where_they_are() {
    assert_eq!(
        cited_documents("see docs/PROTOCOLS.md §3, README.md and (IFMA_NOTES.md); not foo.mdx"),
        ["docs/PROTOCOLS.md", "README.md", "IFMA_NOTES.md"]
    );
    assert_eq!(
        cited_sections("PROTOCOLS.md §4–6 and docs/PROTOCOLS.md §3."),
        ["4", "6", "3"]
    );
}

#[test]
fn a_missing_document_and_a_missing_section_are_reported() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let here = root.join("tests/doc_references.rs");
    assert!(!resolves(root, &here, "IFMA_NOTES.md"));
    assert!(resolves(root, &here, "PROTOCOLS.md"));
    assert!(resolves(root, &here, "docs/TESTING.md"));
    assert!(!protocol_sections(root).contains(&"42".to_string()));
}
