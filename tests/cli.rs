//! The `oblivex` command line answers `--help` and refuses what it does not
//! know, without running any measurement.

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
