//! The `oblivex` command line answers `--help` and refuses what it does not
//! know or this CPU cannot run, without running any measurement, and `speed
//! dkg` (whose runs take milliseconds) reports every size and purpose.

use std::process::Command;

fn oblivex(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_oblivex"))
        .args(args)
        .output()
        .expect("the oblivex binary runs")
}

#[test]
fn help_prints_the_usage_and_succeeds() {
    for args in [
        &["--help"][..],
        &["speed", "--help"],
        &["speed", "modexp", "-h"],
    ] {
        let out = oblivex(args);
        assert!(out.status.success(), "{args:?} exits 0");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("usage: oblivex speed"),
            "{args:?} prints the usage: {text}"
        );
    }
}

#[test]
fn unknown_options_and_bad_values_are_refused() {
    for args in [
        &["speed", "--frobnicate"][..],
        &["speed", "modexp", "--bits", "1"],
        &["speed", "oprf", "--n", "0"],
        &["speed", "--seconds"],
        &["nonsense"],
    ] {
        let out = oblivex(args);
        assert_eq!(out.status.code(), Some(2), "{args:?} exits 2");
        assert!(!out.stderr.is_empty(), "{args:?} says why on stderr");
    }
}

#[test]
fn version_matches_the_crate() {
    let out = oblivex(&["version"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        env!("CARGO_PKG_VERSION")
    );
}

#[test]
fn svg_output_is_a_well_formed_picture() {
    let path = std::env::temp_dir().join(format!("oblivex-cli-{}.svg", std::process::id()));
    let out = oblivex(&[
        "speed",
        "modexp",
        "--bits",
        "64,96",
        "--seconds",
        "0.01",
        "--svg",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&path).expect("the picture was written");
    std::fs::remove_file(&path).ok();
    let root = well_formed(&svg).unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{svg}"));
    assert_eq!(root, "svg");
    assert!(svg.contains("64 bits") && svg.contains("oblivex-portable"));
    assert!(svg.contains("<rect"), "bars were drawn");
}

#[test]
fn a_backend_this_cpu_cannot_run_is_refused_before_the_run() {
    let mut refused = vec!["no-such-backend"];
    refused.extend(
        oblivex::Backend::ALL
            .iter()
            .filter(|backend| !backend.is_available())
            .map(|backend| backend.name()),
    );
    for name in refused {
        for what in [
            &[][..],
            &["modexp"],
            &["oprf"],
            &["threshold"],
            &["dkg"],
            &["server", "P256-SHA256"],
        ] {
            let out = Command::new(env!("CARGO_BIN_EXE_oblivex"))
                .arg("speed")
                .args(what)
                .args(["--seconds", "0.01"])
                .env("OBLIVEX_BACKEND", name)
                .output()
                .expect("the oblivex binary runs");
            assert_eq!(out.status.code(), Some(2), "{name}, speed {what:?}");
            assert!(
                out.stdout.is_empty(),
                "{name}, speed {what:?}: nothing measured"
            );
            let why = String::from_utf8_lossy(&out.stderr);
            assert!(
                why.contains("OBLIVEX_BACKEND") && why.contains(name),
                "{name}, speed {what:?}: {why}"
            );
        }
    }
}

#[test]
fn an_unknown_avx2_profile_is_refused_before_the_run() {
    let out = Command::new(env!("CARGO_BIN_EXE_oblivex"))
        .args(["speed", "modexp", "--seconds", "0.01"])
        .env("OBLIVEX_AVX2_PROFILE", "no-such-profile")
        .output()
        .expect("the oblivex binary runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "nothing measured");
    let why = String::from_utf8_lossy(&out.stderr);
    assert!(
        why.contains("OBLIVEX_AVX2_PROFILE") && why.contains("no-such-profile"),
        "{why}"
    );
}

#[test]
fn an_unwritable_svg_path_is_refused_before_the_run() {
    let out = oblivex(&["speed", "modexp", "--svg", "/nonexistent-dir/x.svg"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
}

#[test]
fn the_xml_checker_rejects_broken_documents() {
    assert_eq!(well_formed("<a x=\"1\"><b/>t &amp; u</a>"), Ok("a".into()));
    for broken in [
        "<a><b></a>",
        "<a x=1/>",
        "<a>&bogus;</a>",
        "<a>1 < 2</a>",
        "<a/><b/>",
        "<a>",
    ] {
        assert!(well_formed(broken).is_err(), "{broken}");
    }
}

/// Checks XML well-formedness (the subset SVG writers use: a declaration,
/// elements with quoted attributes, character data with the predefined
/// entities) and returns the root element's name.
fn well_formed(xml: &str) -> Result<String, String> {
    let mut rest = xml.trim();
    if let Some(after) = rest.strip_prefix("<?xml") {
        rest = after[after.find("?>").ok_or("unterminated declaration")? + 2..].trim_start();
    }
    let mut open: Vec<String> = Vec::new();
    let mut root = None;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            check_text(rest)?;
            if !open.is_empty() || root.is_none() {
                return Err("text outside the root".into());
            }
            break;
        };
        check_text(&rest[..lt])?;
        if open.is_empty() && !rest[..lt].trim().is_empty() {
            return Err("text outside the root".into());
        }
        let gt = rest[lt..].find('>').ok_or("unterminated tag")? + lt;
        let tag = &rest[lt + 1..gt];
        rest = &rest[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            match open.pop() {
                Some(top) if top == name.trim() => {}
                _ => return Err(format!("mismatched </{name}>")),
            }
            if open.is_empty() && rest.trim().is_empty() {
                rest = "";
            }
            continue;
        }
        if open.is_empty() && root.is_some() {
            return Err("a second root element".into());
        }
        let self_closing = tag.ends_with('/');
        let body = tag.trim_end_matches('/');
        let name: String = body.chars().take_while(|c| !c.is_whitespace()).collect();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_alphanumeric() || ":-_.".contains(c))
        {
            return Err(format!("bad element name {name:?}"));
        }
        check_attributes(&body[name.len()..])?;
        root.get_or_insert_with(|| name.clone());
        if !self_closing {
            open.push(name);
        } else if open.is_empty() && rest.trim().is_empty() {
            rest = "";
        }
    }
    if !open.is_empty() {
        return Err(format!("unclosed <{}>", open.last().unwrap()));
    }
    root.ok_or_else(|| "no root element".into())
}

fn check_text(text: &str) -> Result<(), String> {
    if text.contains('<') || text.contains('>') {
        return Err("a bare < or > in text".into());
    }
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        let end = rest[amp..].find(';').ok_or("an unterminated entity")? + amp;
        let entity = &rest[amp + 1..end];
        let known =
            ["amp", "lt", "gt", "quot", "apos"].contains(&entity) || entity.starts_with('#');
        if !known {
            return Err(format!("unknown entity &{entity};"));
        }
        rest = &rest[end + 1..];
    }
    Ok(())
}

fn check_attributes(mut attributes: &str) -> Result<(), String> {
    loop {
        attributes = attributes.trim_start();
        if attributes.is_empty() {
            return Ok(());
        }
        let eq = attributes.find('=').ok_or("an attribute without a value")?;
        let name = attributes[..eq].trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!("bad attribute name {name:?}"));
        }
        let value = attributes[eq + 1..].trim_start();
        let quote = value
            .chars()
            .next()
            .filter(|c| *c == '"' || *c == '\'')
            .ok_or("an unquoted attribute")?;
        let end = value[1..].find(quote).ok_or("an unterminated attribute")? + 1;
        check_text(&value[1..end])?;
        attributes = &value[end + 1..];
    }
}

#[test]
fn dkg_speed_reports_every_size_and_purpose() {
    let out = oblivex(&["speed", "dkg", "--seconds", "0.01", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("\"protocol\":\"dkg\""))
        .collect();
    assert_eq!(rows.len(), 4, "{text}");
    for (row, expected) in rows.iter().zip([
        "\"purpose\":\"keygen\",\"suite\":\"ristretto255-SHA512\",\"t\":3,\"n\":5",
        "\"purpose\":\"refresh\",\"suite\":\"ristretto255-SHA512\",\"t\":3,\"n\":5",
        "\"purpose\":\"keygen\",\"suite\":\"ristretto255-SHA512\",\"t\":5,\"n\":9",
        "\"purpose\":\"refresh\",\"suite\":\"ristretto255-SHA512\",\"t\":5,\"n\":9",
    ]) {
        assert!(row.contains(expected), "{row}");
        // n − 1 share pairs of 126 bytes: a 60-byte header, the
        // recipient, two scalars; in a refresh the header also carries
        // the old commitments' 32-byte digest.
        let private = row.split("\"private_bytes\":").nth(1).unwrap();
        let n: usize = if row.contains("\"n\":5") { 5 } else { 9 };
        let pair = if row.contains("refresh") { 158 } else { 126 };
        assert_eq!(private.trim_end_matches('}'), ((n - 1) * pair).to_string());
    }
}
