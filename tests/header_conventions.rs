//! The C header keeps one convention (see the banner of
//! `include/oblivex.h`): this test parses the header and fails on any
//! break of it, so a new function cannot drift into a second naming scheme.
//! The rules are checked on the real header and, so that each can be seen
//! to fail, on small headers that break one rule each.

use std::path::Path;

/// One declaration of the header with the doc comment right above it.
struct Item {
    doc: String,
    text: String,
}

/// A parsed function prototype.
struct Function {
    doc: String,
    returns: String,
    name: String,
    params: Vec<Param>,
}

struct Param {
    ty: String,
    name: String,
}

/// Verbs a step may not use: each has a one-word synonym in the
/// convention (create is `_new`/`_derive`/`_generate`/`_deal`, then
/// `_blind`, `_evaluate`, `_finalize`, `_free`), and `client` handles are
/// `_batch` handles.
const FORBIDDEN_WORDS: &[&str] = &[
    "finish", "complete", "done", "init", "create", "make", "build", "destroy", "release",
    "delete", "dispose", "unblind", "respond", "answer", "process", "client",
];

/// The verbs that make a handle (it goes to `*<noun>_out`). A protocol's
/// last step may too: a DKG party's `_finalize` makes its key share and
/// the joint commitments.
const CREATE_VERBS: &[&str] = &[
    "new",
    "derive",
    "generate",
    "deal",
    "from_bytes",
    "blind",
    "finalize",
];

/// Splits a header into its declarations (typedefs, prototypes and
/// `#define`s), each with its doc comment. Preprocessor conditionals and
/// the C++ `extern "C"` wrapper are dropped.
fn items(header: &str) -> Vec<Item> {
    let mut items = Vec::new();
    let mut doc = String::new();
    let mut text = String::new();
    let mut in_comment = false;
    for line in header.lines() {
        let trimmed = line.trim();
        if in_comment {
            doc.push_str(trimmed);
            doc.push('\n');
            in_comment = !trimmed.ends_with("*/");
            continue;
        }
        if trimmed.starts_with("/*") {
            doc = format!("{trimmed}\n");
            in_comment = !trimmed.ends_with("*/");
            continue;
        }
        if let Some(define) = trimmed.strip_prefix("#define ") {
            items.push(Item {
                doc: std::mem::take(&mut doc),
                text: format!("#define {define}"),
            });
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        if trimmed.starts_with('#') || trimmed == "extern \"C\" {" || trimmed.starts_with('}') {
            doc.clear();
            continue;
        }
        text.push_str(trimmed);
        text.push(' ');
        if trimmed.ends_with(';') {
            items.push(Item {
                doc: std::mem::take(&mut doc),
                text: std::mem::take(&mut text),
            });
        }
    }
    items
}

/// The last C identifier of `text`.
fn last_identifier(text: &str) -> String {
    let end = text
        .trim_end()
        .trim_end_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
    let start = end
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    end[start..].to_string()
}

fn function(item: &Item) -> Option<Function> {
    let open = item.text.find('(')?;
    let close = item.text.rfind(')')?;
    let head = &item.text[..open];
    let name = last_identifier(head);
    let returns = head[..head.len() - name.len()].trim().to_string();
    let inside = item.text[open + 1..close].trim();
    let params = if inside == "void" || inside.is_empty() {
        Vec::new()
    } else {
        inside
            .split(',')
            .map(|param| {
                let name = last_identifier(param);
                let ty = param.trim()[..param.trim().len() - name.len()]
                    .trim()
                    .to_string();
                Param { ty, name }
            })
            .collect()
    };
    Some(Function {
        doc: item.doc.clone(),
        returns,
        name,
        params,
    })
}

fn is_function(item: &Item) -> bool {
    !item.text.starts_with("typedef")
        && !item.text.starts_with("#define")
        && item.text.contains('(')
}

/// An array parameter: a pointer to plain data (not a handle, not a string).
fn is_data_pointer(ty: &str) -> bool {
    ty.contains('*') && !ty.contains("struct") && !ty.contains("char")
}

/// Whether the parameters from `from` on are a run of arrays closed by a
/// `size_t count` (parallel arrays of `count` entries).
fn closed_by_count(params: &[Param], from: usize) -> bool {
    params[from..]
        .iter()
        .find(|p| !p.ty.contains('*'))
        .is_some_and(|p| p.ty == "size_t" && p.name == "count")
}

/// Every break of the convention in `header`, one line each.
fn violations(header: &str) -> Vec<String> {
    let items = items(header);
    let mut found = Vec::new();
    let defined: Vec<String> = items
        .iter()
        .filter(|i| i.text.starts_with("#define"))
        .filter_map(|i| i.text.split_whitespace().nth(1).map(str::to_string))
        .collect();
    let handles: Vec<String> = items
        .iter()
        .filter(|i| i.text.starts_with("typedef struct"))
        .map(|i| last_identifier(&i.text))
        .collect();
    let functions: Vec<Function> = items
        .iter()
        .filter(|i| is_function(i))
        .filter_map(function)
        .collect();

    for item in items.iter().filter(|i| !is_function(i)) {
        let name = if item.text.starts_with("#define") {
            item.text
                .split_whitespace()
                .nth(1)
                .unwrap_or_default()
                .to_string()
        } else {
            last_identifier(&item.text)
        };
        if name == "OBLIVEX_H" {
            continue;
        }
        if !name.to_lowercase().starts_with("oblivex_") {
            found.push(format!("{name}: outside the oblivex_ prefix"));
        }
        if item.doc.trim().is_empty() {
            found.push(format!("{name}: undocumented"));
        }
    }
    for handle in &handles {
        let free = format!("{handle}_free");
        if !functions
            .iter()
            .any(|f| f.name == free && f.returns == "void")
        {
            found.push(format!("{handle}: no void {free}"));
        }
    }
    for f in &functions {
        check_function(f, &defined, &mut found);
    }
    found
}

fn check_function(f: &Function, defined: &[String], found: &mut Vec<String>) {
    let name = &f.name;
    if !name.starts_with("oblivex_") {
        found.push(format!("{name}: outside the oblivex_ prefix"));
    }
    // Documentation: what it does, its errors, its pointer rules.
    if f.doc.trim().is_empty() {
        found.push(format!("{name}: undocumented"));
    }
    if f.returns == "oblivex_status" && !f.doc.contains("Errors") {
        found.push(format!("{name}: no error list"));
    }
    if f.params.iter().any(|p| p.ty.contains('*')) && !f.doc.contains("# Safety") {
        found.push(format!(
            "{name}: takes pointers but has no # Safety section"
        ));
    }
    for code in f.doc.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if code.starts_with("OBLIVEX_ERR_") && !defined.iter().any(|d| d == code) {
            found.push(format!("{name}: documents {code}, which is not defined"));
        }
    }
    // One verb per step.
    let words: Vec<&str> = name.split('_').collect();
    for word in FORBIDDEN_WORDS {
        if words.contains(word) {
            found.push(format!(
                "{name}: `{word}` is a second verb or handle name for a step"
            ));
        }
    }
    for window in words.windows(2) {
        if window == ["verify", "finalize"] || window == ["blind", "evaluate"] {
            found.push(format!("{name}: two steps in one name"));
        }
    }
    // Handles: created by a create verb into `*<noun>_out`; a batch is
    // made by `_blind` and used only by `_finalize` (and freed).
    for p in &f.params {
        if p.ty.contains("**") && p.ty.contains("struct") {
            if !p.name.ends_with("_out") {
                found.push(format!("{name}: new handle `{}` is not a *_out", p.name));
            }
            if !CREATE_VERBS
                .iter()
                .any(|v| name.ends_with(&format!("_{v}")))
            {
                found.push(format!("{name}: makes a handle but is not a create verb"));
            }
            if p.ty.contains("_batch") && !name.ends_with("_blind") {
                found.push(format!("{name}: makes a batch but is not _blind"));
            }
            if !f.doc.contains("_free") {
                found.push(format!(
                    "{name}: does not say which _free releases its handle"
                ));
            }
        }
    }
    if let Some(first) = f.params.first() {
        let mutable_batch = first.ty.starts_with("struct") && first.ty.contains("_batch *");
        if mutable_batch && !(name.ends_with("_finalize") || name.ends_with("_free")) {
            found.push(format!(
                "{name}: uses a batch but is not _finalize or _free"
            ));
        }
    }
    check_buffers(f, found);
}

/// Inputs are `(noun, noun_len)` or `(noun, noun_lens)` arrays closed by a
/// count; outputs are `(noun, noun_capacity, noun_written)`; flags are
/// `bool`.
fn check_buffers(f: &Function, found: &mut Vec<String>) {
    let name = &f.name;
    let params = &f.params;
    for (i, p) in params.iter().enumerate() {
        let next = |k: usize| params.get(i + k);
        let is = |k: usize, ty: &str, suffix: &str| {
            next(k).is_some_and(|q| q.ty == ty && q.name == format!("{}{suffix}", p.name))
        };
        if p.ty == "int" {
            found.push(format!(
                "{name}: `int {}` (flags are bool, codes are typed)",
                p.name
            ));
        }
        if !is_data_pointer(&p.ty) || p.name.ends_with("_written") || p.name.ends_with("_lens") {
            continue;
        }
        if !p.ty.starts_with("const") {
            if !(is(1, "size_t", "_capacity") && is(2, "size_t *", "_written")) {
                found.push(format!(
                    "{name}: output `{}` without `{0}_capacity`, `{0}_written` after it",
                    p.name
                ));
            }
        } else if p.ty.contains("*const *") {
            if !(is(1, "const size_t *", "_lens") && closed_by_count(params, i)) {
                found.push(format!(
                    "{name}: array `{}` without `{0}_lens` and a count",
                    p.name
                ));
            }
        } else if !(is(1, "size_t", "_len") || closed_by_count(params, i)) {
            found.push(format!("{name}: input `{}` without `{0}_len`", p.name));
        }
    }
}

#[test]
fn the_header_keeps_the_convention() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/oblivex.h");
    let header = std::fs::read_to_string(path).expect("include/oblivex.h is readable");
    assert!(
        functions_in(&header) > 40,
        "the parser found too few functions: it no longer understands the header"
    );
    let found = violations(&header);
    assert!(found.is_empty(), "convention breaks:\n{}", found.join("\n"));
}

fn functions_in(header: &str) -> usize {
    items(header).iter().filter(|i| is_function(i)).count()
}

/// A well-formed stand-in for the header, and single breaks of it.
const GOOD: &str = r#"
/**
 * A batch.
 */
typedef struct oblivex_x_batch oblivex_x_batch;

/**
 * An error.
 */
#define OBLIVEX_ERR_BAD_LENGTH 2

/**
 * Blinds. Release the batch with `oblivex_x_batch_free`.
 *
 * Errors: `OBLIVEX_ERR_BAD_LENGTH`.
 *
 * # Safety
 * Pointers as usual.
 */
oblivex_status oblivex_x_batch_blind(const uint8_t *const *inputs,
                                     const size_t *inputs_lens,
                                     size_t count,
                                     const uint8_t *info,
                                     size_t info_len,
                                     uint8_t *blinded,
                                     size_t blinded_capacity,
                                     size_t *blinded_written,
                                     struct oblivex_x_batch **batch_out);

/**
 * Finalizes.
 *
 * Errors: `OBLIVEX_ERR_BAD_LENGTH`.
 *
 * # Safety
 * Pointers as usual.
 */
oblivex_status oblivex_x_batch_finalize(struct oblivex_x_batch *batch,
                                        const uint16_t *party_ids,
                                        const uint8_t *const *responses,
                                        const size_t *responses_lens,
                                        size_t count,
                                        bool strict);

/**
 * Releases.
 *
 * # Safety
 * A live handle or NULL.
 */
void oblivex_x_batch_free(struct oblivex_x_batch *batch);
"#;

fn broken(from: &str, to: &str) -> Vec<String> {
    assert!(GOOD.contains(from), "the stand-in header contains {from:?}");
    violations(&GOOD.replace(from, to))
}

fn assert_breaks(from: &str, to: &str, expected: &str) {
    let found = broken(from, to);
    assert!(
        found.iter().any(|v| v.contains(expected)),
        "replacing {from:?} by {to:?} should report {expected:?}, got {found:?}"
    );
}

#[test]
fn the_stand_in_header_is_clean() {
    assert_eq!(violations(GOOD), Vec::<String>::new());
}

#[test]
fn a_function_outside_the_prefix_is_reported() {
    assert_breaks(
        "void oblivex_x_batch_free(",
        "void x_batch_free(",
        "outside the oblivex_ prefix",
    );
}

#[test]
fn an_output_without_its_capacity_and_written_pair_is_reported() {
    assert_breaks(
        "size_t blinded_capacity",
        "size_t blinded_len",
        "output `blinded`",
    );
    assert_breaks(
        "size_t *blinded_written",
        "size_t *written",
        "output `blinded`",
    );
}

#[test]
fn an_input_without_its_length_is_reported() {
    assert_breaks("size_t info_len", "size_t len", "input `info`");
    assert_breaks(
        "const size_t *inputs_lens",
        "const size_t *lens",
        "array `inputs`",
    );
}

#[test]
fn undocumented_functions_and_missing_error_lists_are_reported() {
    assert_breaks(
        " * Finalizes.\n *\n * Errors: `OBLIVEX_ERR_BAD_LENGTH`.\n",
        " * Finalizes.\n",
        "no error list",
    );
    assert_breaks(
        "/**\n * Releases.\n *\n * # Safety\n * A live handle or NULL.\n */\n",
        "",
        "oblivex_x_batch_free: undocumented",
    );
    assert_breaks(
        "Finalizes.",
        "Finalizes (`OBLIVEX_ERR_NO_SUCH`).",
        "OBLIVEX_ERR_NO_SUCH",
    );
    assert_breaks(
        " * Releases.\n *\n * # Safety\n * A live handle or NULL.\n",
        " * Releases.\n",
        "no # Safety",
    );
    assert_breaks(
        "Release the batch with `oblivex_x_batch_free`.",
        "",
        "which _free",
    );
}

#[test]
fn a_second_verb_for_a_step_is_reported() {
    assert_breaks(
        "oblivex_x_batch_finalize(",
        "oblivex_x_batch_finish(",
        "second verb",
    );
    assert_breaks(
        "oblivex_x_batch_finalize(",
        "oblivex_x_batch_verify_finalize(",
        "two steps",
    );
    assert_breaks(
        "oblivex_x_batch_blind(",
        "oblivex_x_client_new(",
        "second verb",
    );
    assert_breaks(
        "oblivex_x_batch_blind(",
        "oblivex_x_batch_new(",
        "not _blind",
    );
    assert_breaks(
        "oblivex_x_batch_finalize(",
        "oblivex_x_batch_unblind(",
        "second verb",
    );
}

#[test]
fn int_flags_and_unfreeable_handles_are_reported() {
    assert_breaks("bool strict", "int strict", "flags are bool");
    assert_breaks(
        "void oblivex_x_batch_free(",
        "void oblivex_x_batch_drop(",
        "no void oblivex_x_batch_free",
    );
}
