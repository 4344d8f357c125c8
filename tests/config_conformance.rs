//! Every configuration folder of the graph conformance cases loads without error diagnostics,
//! and the schemas, states and changes that go with them parse.

use std::path::{Path, PathBuf};
use tfgraph::config::{self, Severity};

fn conformance_dir() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("TFGRAPH_CONFORMANCE") {
        return Some(PathBuf::from(p));
    }
    let local = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance");
    if local.is_dir() {
        return Some(local);
    }
    let shared = PathBuf::from("/work/shared/conformance");
    shared.is_dir().then_some(shared)
}

fn cases() -> Vec<PathBuf> {
    let Some(root) = conformance_dir() else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = std::fs::read_dir(root.join("graph"))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn conformance_configs_load() {
    let mut n = 0;
    for case in cases() {
        let dir = case.join("config");
        if !dir.is_dir() {
            continue;
        }
        let (cfg, diags) = config::load_dir(&dir);
        let errors: Vec<String> = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.to_string())
            .collect();
        assert!(
            errors.is_empty(),
            "{}: {}",
            case.display(),
            errors.join("\n")
        );
        assert!(cfg.is_some(), "{}", case.display());
        n += 1;
    }
    eprintln!("{n} conformance configurations loaded");
}

#[test]
fn conformance_inputs_parse() {
    for case in cases() {
        if let Ok(t) = std::fs::read_to_string(case.join("schemas.json")) {
            tfgraph::schema::parse_schemas_json(&t)
                .unwrap_or_else(|d| panic!("{}: {d}", case.display()));
        }
        if let Ok(t) = std::fs::read_to_string(case.join("state.json")) {
            tfgraph::state::parse_state_json(&t)
                .unwrap_or_else(|d| panic!("{}: {d}", case.display()));
        }
        let c: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(case.join("case.json")).unwrap())
                .unwrap();
        if let Some(ch) = c.get("changes") {
            tfgraph::plan::changes_from_conformance(ch)
                .unwrap_or_else(|d| panic!("{}: {d}", case.display()));
        }
        for key in ["targets", "excludes"] {
            for t in c.get(key).and_then(|v| v.as_array()).into_iter().flatten() {
                let s = t.as_str().unwrap_or_default();
                tfgraph::addrs::Targetable::parse(s)
                    .unwrap_or_else(|e| panic!("{}: {s}: {e}", case.display()));
            }
        }
    }
}
