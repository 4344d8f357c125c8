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
