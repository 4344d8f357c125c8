//! Runs every `graph/` conformance case and requires that none fails.

use std::path::PathBuf;
use tfgraph::conformance::{Outcome, Summary, run_path};

fn corpus() -> PathBuf {
    if let Ok(p) = std::env::var("TFGRAPH_CONFORMANCE") {
        return PathBuf::from(p);
    }
    let sibling = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance");
    if sibling.is_dir() {
        return sibling;
    }
    PathBuf::from("/work/shared/conformance")
}

#[test]
fn graph_cases_conform() {
    let dir = corpus().join("graph");
    let results = run_path(&dir).expect("graph corpus readable");
    for r in &results {
        println!("{r}");
    }
    let s = Summary::of(&results);
    println!("{s}");
    let skipped = results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Skip(_)))
        .count();
    assert!(skipped <= 3, "too many skipped cases");
    assert_eq!(s.failed, 0, "graph conformance failures");
}

/// The builder's own small loader must give the same results as the crate's loader.
#[test]
fn graph_cases_conform_with_builder_loader() {
    use tfgraph::conformance::graph::{Loader, run_case_with};
    let dir = corpus().join("graph");
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("graph corpus")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    let mut failures = Vec::new();
    for p in entries.iter().filter(|p| p.join("case.json").is_file()) {
        if let Outcome::Fail(why) = run_case_with(p, Loader::Builder) {
            failures.push(format!("{}: {why}", p.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
