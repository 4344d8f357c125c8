//! Every configuration folder of the graph conformance cases loads without error diagnostics,
//! and the schemas, states and changes that go with them parse.

mod support;

use std::path::PathBuf;

fn cases() -> Vec<PathBuf> {
    let root = support::conformance().join("graph");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| {
            e.unwrap_or_else(|e| panic!("{}: {e}", root.display()))
                .path()
        })
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no graph cases under {}", root.display());
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
        support::load_dir(&dir);
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
