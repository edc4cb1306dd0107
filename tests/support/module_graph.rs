//! Which file of a crate uses which, read from the source: the `use`
//! declarations and inline `super::`/`crate::` paths of every file (test
//! modules aside). The layering tests (`tests/layers.rs`,
//! `tests/mp_layers.rs`) hold the graph to their rules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module file and the module path it defines (`mp::limbs`; the crate
/// root, `lib.rs` or `main.rs`, is the empty path).
pub struct ModuleFile {
    pub path: PathBuf,
    pub module: Vec<String>,
}

/// The files of one crate and, for each, the files it uses.
pub struct ModuleGraph {
    pub files: Vec<ModuleFile>,
    pub edges: Vec<BTreeSet<usize>>,
}

impl ModuleGraph {
    /// The crate whose root file (`lib.rs` or `main.rs`) is in `dir`, with
    /// every `.rs` file below it except under the folders `skip` names
    /// (another crate's, such as `src/bin`).
    pub fn of_crate(dir: &Path, skip: &[&str]) -> ModuleGraph {
        let files = module_files(dir, skip);
        let modules: BTreeMap<Vec<String>, usize> = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.module.clone(), i))
            .collect();
        // Each file's paths from the crate root, and whether the file only
        // hands the name on: a face re-exporting a name of a module below
        // it (a folder's `mod.rs`, the crate root) uses nothing itself.
        let read: Vec<Vec<(Vec<String>, bool)>> = files
            .iter()
            .map(|file| {
                let source = std::fs::read_to_string(&file.path).expect("readable source");
                references(&code_of(&source))
                    .into_iter()
                    .filter_map(|r| {
                        let path = absolute_path(&file.module, &r.path)?;
                        let (_, source) = module_of(&path, &modules);
                        let below = files[source].module.len() > file.module.len()
                            && files[source].module.starts_with(&file.module);
                        Some((path, r.reexport && below))
                    })
                    .collect()
            })
            .collect();
        let edges = read
            .iter()
            .enumerate()
            .map(|(i, references)| {
                references
                    .iter()
                    .filter(|(_, hands_on)| !hands_on)
                    .map(|(path, _)| resolve(path, &modules, &read))
                    .filter(|&j| j != i)
                    .collect()
            })
            .collect();
        ModuleGraph { files, edges }
    }

    /// The index of the file of `module` (`"mp::limbs"`; `"crate"` for the
    /// root).
    pub fn index(&self, module: &str) -> usize {
        (0..self.files.len())
            .find(|&i| self.name(i) == module)
            .unwrap_or_else(|| panic!("{module} is a file of the crate"))
    }

    /// File `i`'s module path, `crate` for the root.
    pub fn name(&self, i: usize) -> String {
        match self.files[i].module.as_slice() {
            [] => "crate".to_string(),
            module => module.join("::"),
        }
    }

    /// The files whose module path starts with `prefix`.
    pub fn under(&self, prefix: &[&str]) -> Vec<usize> {
        (0..self.files.len())
            .filter(|&i| starts_with(&self.files[i].module, prefix))
            .collect()
    }

    /// Fails with the files of a cycle, if the graph has one.
    pub fn assert_no_cycle(&self, what: &str) {
        if let Some(cycle) = find_cycle(&self.edges) {
            let names: Vec<String> = cycle.iter().map(|&i| self.name(i)).collect();
            panic!("a cycle between {what} files: {}", names.join(" -> "));
        }
    }

    /// Every file `start` reaches through its uses, directly or not.
    pub fn reachable(&self, start: usize) -> BTreeSet<usize> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![start];
        while let Some(v) = stack.pop() {
            for &w in &self.edges[v] {
                if seen.insert(w) {
                    stack.push(w);
                }
            }
        }
        seen
    }

    /// Fails unless the files `starts` reach only files under the
    /// `allowed` prefixes.
    pub fn assert_reaches_only(&self, starts: &[usize], allowed: &[&[&str]]) {
        for &start in starts {
            for j in self.reachable(start) {
                assert!(
                    allowed
                        .iter()
                        .any(|p| starts_with(&self.files[j].module, p)),
                    "{} reaches {}, outside its layer",
                    self.name(start),
                    self.name(j)
                );
            }
        }
    }
}

fn starts_with(module: &[String], prefix: &[&str]) -> bool {
    module.len() >= prefix.len() && module.iter().zip(prefix).all(|(a, b)| a == b)
}

fn module_files(root: &Path, skip: &[&str]) -> Vec<ModuleFile> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("the crate's folders are readable") {
            let path = entry.expect("directory entry").path();
            let relative = path.strip_prefix(root).unwrap();
            if path.is_dir() {
                if !skip.iter().any(|s| relative == Path::new(s)) {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut module: Vec<String> = relative
                    .with_extension("")
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if module.len() == 1 && (module[0] == "lib" || module[0] == "main") {
                    module.clear();
                }
                if module.last().is_some_and(|m| m == "mod") {
                    module.pop();
                }
                files.push(ModuleFile { path, module });
            }
        }
    }
    files
}

/// The source without comments and `#[cfg(test)]` inline modules (tests
/// may reach anything).
pub fn code_of(source: &str) -> String {
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

/// A path the code names, and whether a `pub use` names it (a re-export
/// of one name; a glob names nothing in particular).
pub struct Reference {
    pub path: Vec<String>,
    pub reexport: bool,
}

/// Every path a `use` declaration names (relative ones, `use child::Item`,
/// from `self`) and every other path of the code that starts at `super::`
/// or `crate::`, with groups (`use super::{a, b::c}`) expanded.
pub fn references(code: &str) -> Vec<Reference> {
    let mut found = Vec::new();
    let mut declarations = Vec::new();
    for (at, _) in code.match_indices("use ") {
        let bytes = code.as_bytes();
        let boundary = at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let Some(end) = code[at..].find(';') else {
            continue;
        };
        if !boundary {
            continue;
        }
        declarations.push(at..at + end);
        let path = code[at + 4..at + end].trim().trim_start_matches("::");
        let first = path.split("::").next().unwrap_or_default();
        let path = if ["crate", "super", "self"].contains(&first) {
            path.to_string()
        } else {
            format!("self::{path}")
        };
        let public = is_public(&code[..at]);
        let mut paths = Vec::new();
        expand(&path, &mut paths);
        found.extend(paths.into_iter().map(|path| Reference {
            reexport: public && path.last().is_some_and(|last| last != "*"),
            path,
        }));
    }
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        if let Some(declaration) = declarations.iter().find(|d| d.contains(&i)) {
            i = declaration.end;
            continue;
        }
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
            let mut paths = Vec::new();
            expand(&code[i..end], &mut paths);
            found.extend(paths.into_iter().map(|path| Reference {
                path,
                reexport: false,
            }));
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

/// Whether the code before a `use` ends with a visibility (`pub`,
/// `pub(crate)`, `pub(super)`, `pub(in path)`).
fn is_public(before: &str) -> bool {
    let before = before.trim_end();
    let before = match before.strip_suffix(')') {
        Some(inner) => inner
            .rfind('(')
            .map_or(before, |open| inner[..open].trim_end()),
        None => before,
    };
    before.strip_suffix("pub").is_some_and(|rest| {
        !rest
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
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

/// `path` (from `crate`, `self` or `super`) as a path from the crate root,
/// seen from the file whose module is `from`.
fn absolute_path(from: &[String], path: &[String]) -> Option<Vec<String>> {
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
    Some(absolute)
}

/// The file that defines what an absolute path names: the longest prefix
/// of the path that is a module file, or, when that file is a face that
/// hands the next name on from below (`pub use error::Error` in the crate
/// root, say), the file it takes the name from, and so on: a face is no
/// detour.
fn resolve(
    path: &[String],
    modules: &BTreeMap<Vec<String>, usize>,
    references: &[Vec<(Vec<String>, bool)>],
) -> usize {
    let (n, mut file) = module_of(path, modules);
    let Some(name) = path.get(n) else {
        return file;
    };
    // A bounded walk: Rust refuses a loop of re-exports, but this reader
    // need not trust its own reading of them.
    for _ in 0..modules.len() {
        let source = references[file]
            .iter()
            .filter(|(from, hands_on)| *hands_on && from.last() == Some(name))
            .find_map(|(from, _)| {
                let (m, source) = module_of(from, modules);
                (m + 1 == from.len() && source != file).then_some(source)
            });
        match source {
            Some(source) => file = source,
            None => break,
        }
    }
    file
}

/// The longest prefix of `path` that is a module file: its length and the
/// file.
fn module_of(path: &[String], modules: &BTreeMap<Vec<String>, usize>) -> (usize, usize) {
    (0..=path.len())
        .rev()
        .find_map(|n| modules.get(&path[..n]).map(|&file| (n, file)))
        .expect("the crate root is a module file")
}

/// A cycle of the graph, if there is one, as a list of files.
pub fn find_cycle(edges: &[BTreeSet<usize>]) -> Option<Vec<usize>> {
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
