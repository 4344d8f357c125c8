//! `tfgraph::hclsyntax` (HCL's scanner and parser, for its diagnostics) finds no error in any
//! configuration file of the corpora that hcl-edit reads, and agrees with hcl-edit about which
//! files are broken: a false error there would refuse a configuration that OpenTofu loads.

mod support;

use std::path::Path;

fn tf_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            tf_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "tf" || e == "tfvars") {
            out.push(p);
        }
    }
}

#[test]
fn files_hcl_edit_reads_have_no_hcl_syntax_error() {
    let mut files = Vec::new();
    tf_files(&support::realworld(), &mut files);
    tf_files(&support::conformance(), &mut files);
    tf_files(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples")),
        &mut files,
    );
    let mut checked = 0;
    let mut wrong = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        if hcl::edit::parser::parse_body(&text).is_err() {
            continue;
        }
        checked += 1;
        match tfgraph::hclsyntax::check_config(&text, "main.tf") {
            Some(errors) if errors.is_empty() => {}
            other => wrong.push(format!("{}: {other:?}", f.display())),
        }
    }
    assert!(checked > 100, "only {checked} files checked");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
