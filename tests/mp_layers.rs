//! `src/mp` reads bottom-up: its files depend on each other without cycles,
//! the slice-level leaf (`limbs/`) knows nothing of contexts or backends,
//! and the modulus context knows nothing of any backend. This test reads
//! the `use` declarations and inline paths of every file (test modules
//! aside) and fails on a cycle or a layer break.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module file of `src/mp` and the module path it defines (`mp::limbs`).
struct ModuleFile {
    path: PathBuf,
    module: Vec<String>,
}

fn module_files(root: &Path) -> Vec<ModuleFile> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/mp is readable") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(root.parent().unwrap()).unwrap();
                let mut module: Vec<String> = relative
                    .with_extension("")
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if module.last().is_some_and(|m| m == "mod") {
                    module.pop();
                }
                files.push(ModuleFile { path, module });
            }
        }
    }
    files
}

/// The source without comments, string literals and `#[cfg(test)]` inline
/// modules (tests may reach anything).
fn code_of(source: &str) -> String {
    let mut code = String::new();
    for line in source.lines() {
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    while let Some(at) = code.find("#[cfg(test)]") {
        let rest = &code[at..];
        let Some(open) = rest.find('{') else { break };
        let header = &rest["#[cfg(test)]".len()..open];
        if !header.split_whitespace().any(|word| word == "mod") {
            // A test-only item that is not a module: drop the attribute only.
            code.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        }
        let mut depth = 0;
        let mut end = at + open;
        for (i, c) in code[at + open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = at + open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        code.replace_range(at..end, "");
    }
    code
}

/// Every path of the code that starts at `super::` or `crate::`, and every
/// path a `use` declaration names (relative ones, `use child::Item`, from
/// `self`), with `use` groups (`use super::{a, b::c}`) expanded.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("use ") {
        let boundary = at == 0 || !code.as_bytes()[at - 1].is_ascii_alphanumeric();
        let Some(end) = code[at..].find(';') else {
            continue;
        };
        let path = code[at + 4..at + end].trim().trim_start_matches("::");
        let first = path.split("::").next().unwrap_or_default();
        if boundary && !["crate", "super", "self"].contains(&first) {
            expand(&format!("self::{path}"), &mut found);
        }
    }
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        if !code.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let starts = ["super::", "crate::"]
            .iter()
            .any(|p| code[i..].starts_with(p));
        let boundary = i == 0
            || !(bytes[i - 1].is_ascii_alphanumeric()
                || bytes[i - 1] == b'_'
                || bytes[i - 1] == b':');
        if starts && boundary {
            let end = path_end(code, i);
            expand(&code[i..end], &mut found);
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

/// The end of the path at `start`: identifiers, `::` and one balanced
/// `{...}` group.
fn path_end(code: &str, start: usize) -> usize {
    let mut depth = 0;
    for (i, c) in code[start..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return start + i + 1;
                }
            }
            c if depth > 0 || c.is_alphanumeric() || c == '_' || c == ':' || c == '*' => {}
            _ => return start + i,
        }
    }
    code.len()
}

/// `a::{b, c::{d}}` into `a::b`, `a::c::d`.
fn expand(path: &str, out: &mut Vec<Vec<String>>) {
    let path: String = path.chars().filter(|c| !c.is_whitespace()).collect();
    match path.find('{') {
        None => out.push(
            path.split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        ),
        Some(open) => {
            let prefix = &path[..open];
            let inner = &path[open + 1..path.len() - 1];
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&format!("{prefix}{}", &inner[start..i]), out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            if start < inner.len() {
                expand(&format!("{prefix}{}", &inner[start..]), out);
            }
        }
    }
}

/// The module file a path names (its longest prefix that is a module of
/// `src/mp`), from the file whose module is `from`.
fn resolve(
    from: &[String],
    path: &[String],
    modules: &BTreeMap<Vec<String>, usize>,
) -> Option<usize> {
    let mut absolute: Vec<String> = Vec::new();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("self") => {
            absolute = from.to_vec();
            rest = &path[1..];
        }
        Some("super") => {
            absolute = from.to_vec();
            while rest.first().is_some_and(|p| p == "super") {
                absolute.pop();
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    absolute.extend(rest.iter().filter(|p| *p != "self").cloned());
    (1..=absolute.len())
        .rev()
        .find_map(|n| modules.get(&absolute[..n]).copied())
        .filter(|_| absolute.first().is_some_and(|m| m == "mp"))
}

/// The file-level dependency graph of `src/mp`: file index → files it uses.
fn graph(files: &[ModuleFile]) -> Vec<BTreeSet<usize>> {
    let modules: BTreeMap<Vec<String>, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.module.clone(), i))
        .collect();
    files
        .iter()
        .enumerate()
        .map(|(i, file)| {
            let source = std::fs::read_to_string(&file.path).expect("readable source");
            paths(&code_of(&source))
                .iter()
                .filter_map(|p| resolve(&file.module, p, &modules))
                .filter(|&j| j != i)
                .collect()
        })
        .collect()
}

fn name(files: &[ModuleFile], i: usize) -> String {
    files[i].module.join("::")
}

/// A cycle of the graph, if there is one, as a list of files.
fn find_cycle(edges: &[BTreeSet<usize>]) -> Option<Vec<usize>> {
    // 0 unvisited, 1 on the current path, 2 done.
    fn visit(
        v: usize,
        edges: &[BTreeSet<usize>],
        state: &mut [u8],
        path: &mut Vec<usize>,
    ) -> Option<Vec<usize>> {
        state[v] = 1;
        path.push(v);
        for &w in &edges[v] {
            if state[w] == 1 {
                let start = path.iter().position(|&p| p == w).unwrap();
                let mut cycle = path[start..].to_vec();
                cycle.push(w);
                return Some(cycle);
            }
            if state[w] == 0 {
                if let Some(cycle) = visit(w, edges, state, path) {
                    return Some(cycle);
                }
            }
        }
        path.pop();
        state[v] = 2;
        None
    }
    let mut state = vec![0u8; edges.len()];
    (0..edges.len()).find_map(|v| {
        if state[v] == 0 {
            visit(v, edges, &mut state, &mut Vec::new())
        } else {
            None
        }
    })
}

fn mp_files() -> (Vec<ModuleFile>, Vec<BTreeSet<usize>>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/mp");
    let files = module_files(&root);
    let edges = graph(&files);
    (files, edges)
}

#[test]
fn mp_files_depend_on_each_other_without_cycles() {
    let (files, edges) = mp_files();
    assert!(files.len() > 10, "src/mp was found");
    // The reader sees the uses it must see (or it would find no cycle in
    // anything): one through a `use` group, one relative from a facade.
    let index = |m: &str| files.iter().position(|f| f.module.join("::") == m).unwrap();
    assert!(edges[index("mp::fixed_window")].contains(&index("mp::backend")));
    assert!(edges[index("mp")].contains(&index("mp::context")));
    if let Some(cycle) = find_cycle(&edges) {
        let names: Vec<String> = cycle.iter().map(|&i| name(&files, i)).collect();
        panic!("a cycle between src/mp files: {}", names.join(" -> "));
    }
}

/// Every file `module` (an exact module path) reaches through its uses,
/// directly or not.
fn reachable(files: &[ModuleFile], edges: &[BTreeSet<usize>], module: &[&str]) -> BTreeSet<usize> {
    let start = files
        .iter()
        .position(|f| f.module == module)
        .unwrap_or_else(|| panic!("{module:?} is a file of src/mp"));
    let mut seen = BTreeSet::new();
    let mut stack = vec![start];
    while let Some(v) = stack.pop() {
        for &w in &edges[v] {
            if seen.insert(w) {
                stack.push(w);
            }
        }
    }
    seen
}

/// The files `modules` reach only files under the `allowed` prefixes.
fn assert_reaches_only(modules: &[Vec<&str>], allowed: &[&[&str]]) {
    let (files, edges) = mp_files();
    let starts = |module: &[String], prefix: &[&str]| {
        module.len() >= prefix.len() && module.iter().zip(prefix).all(|(a, b)| a == b)
    };
    for module in modules {
        for j in reachable(&files, &edges, module) {
            assert!(
                allowed.iter().any(|p| starts(&files[j].module, p)),
                "{} reaches {}, outside its layer",
                module.join("::"),
                name(&files, j)
            );
        }
    }
}

#[test]
fn the_slice_leaf_knows_nothing_of_contexts_or_backends() {
    let (files, _) = mp_files();
    let leaf: Vec<Vec<&str>> = files
        .iter()
        .filter(|f| f.module.len() >= 2 && f.module[1] == "limbs")
        .map(|f| f.module.iter().map(String::as_str).collect())
        .collect();
    assert!(leaf.len() >= 4, "the leaf's files were found");
    assert_reaches_only(&leaf, &[&["mp", "limbs"], &["mp", "limits"]]);
}

#[test]
fn the_modulus_context_knows_no_backend() {
    assert_reaches_only(
        &[vec!["mp", "context"], vec!["mp", "context", "modular"]],
        &[&["mp", "context"], &["mp", "limbs"], &["mp", "limits"]],
    );
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
        "use super::{ct, limbs::{a, b}};\npub use child::Item;\nfn f() { super::super::ifma::go(); crate::mp::x::Y }\n// super::comment\n#[cfg(test)]\nmod tests { use super::hidden; }\n",
    );
    let found: Vec<String> = paths(&code).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        found,
        [
            "self::child::Item",
            "super::ct",
            "super::limbs::a",
            "super::limbs::b",
            "super::super::ifma::go",
            "crate::mp::x::Y"
        ]
    );
}
