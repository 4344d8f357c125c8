//! The `tfgraph` binary as a user runs it.

use std::process::Command;

fn tfgraph(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tfgraph"))
        .args(args)
        .output()
        .expect("run tfgraph");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tfgraph-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn outline_lists_blocks_with_positions() {
    let f = temp_file(
        "ok.tf",
        "variable \"a\" {}\n\nresource \"aws_vpc\" \"main\" {\n}\n",
    );
    let (code, out, _) = tfgraph(&["outline", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    let p = f.display();
    assert_eq!(
        out,
        format!("{p}:1:1: variable \"a\"\n{p}:3:1: resource \"aws_vpc\" \"main\"\n")
    );
}

#[test]
fn outline_reports_parse_error_with_file_line_column() {
    let f = temp_file("bad.tf", "resource \"a\" \"b\" {\n  x = \n}\n");
    let (code, _, err) = tfgraph(&["outline", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with(&format!("Error: {}:2:7: ", f.display())),
        "{err}"
    );
}

#[test]
fn outline_of_missing_file_is_an_error_not_a_panic() {
    let (code, _, err) = tfgraph(&["outline", "/nonexistent/x.tf"]);
    assert_eq!(code, 1);
    assert!(err.contains("/nonexistent/x.tf"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn unknown_subcommand_is_a_usage_error() {
    let (code, _, err) = tfgraph(&["frobnicate"]);
    assert_eq!(code, 2);
    assert!(err.contains("Usage"), "{err}");
}
