//! Runs the `dag/` and `dot/` conformance cases mined from OpenTofu's tests and requires all to pass.
//! The corpus is found via `TFGRAPH_CONFORMANCE` (a corpus root), else `<crate>/../shared/conformance`,
//! else `/work/shared/conformance`.

use std::path::PathBuf;
use tfgraph::conformance::{Outcome, Summary, run_path};

fn corpus() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Ok(p) = std::env::var("TFGRAPH_CONFORMANCE") {
        candidates.push(PathBuf::from(p));
    }
    candidates.push(PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/conformance"
    )));
    candidates.push(PathBuf::from("/work/shared/conformance"));
    candidates.into_iter().find(|p| p.join("dag").is_dir())
}

fn run_kind(kind: &str) {
    let Some(root) = corpus() else {
        eprintln!("conformance corpus not found; skipping {kind} cases");
        return;
    };
    let results = run_path(&root.join(kind)).expect("corpus readable");
    for r in &results {
        println!("{r}");
    }
    let summary = Summary::of(&results);
    println!("{summary}");
    assert!(
        !results.is_empty(),
        "no {kind} cases found under {}",
        root.display()
    );
    let failed: Vec<String> = results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Fail(_)))
        .map(|r| r.to_string())
        .collect();
    assert!(
        failed.is_empty(),
        "{} failing:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn dag_cases() {
    run_kind("dag");
}

#[test]
fn dot_cases() {
    run_kind("dot");
}
