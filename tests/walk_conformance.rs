//! Runs the `walker-*` and `acyclic-walk*` dag conformance cases through the crate's walker
//! (`tfgraph::walk`, the one the conformance runner also uses, there with no parallelism limit
//! and instant callbacks) under several parallelism settings and duration models (zero, uniform,
//! jittered): OpenTofu's expectations must hold for all of them.
//!
//! The corpus is found by `support::conformance`.

mod support;

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;
use tfgraph::conformance::case_graph::build;
use tfgraph::conformance::walker::run_walk_case;
use tfgraph::walk::{DurationModel, Executor, Walk, WalkOptions};

fn settings() -> Vec<(usize, DurationModel)> {
    let mut out = Vec::new();
    for p in [1, 2, 10] {
        out.push((p, DurationModel::uniform(Duration::ZERO)));
        out.push((p, DurationModel::uniform(Duration::from_secs(1))));
        for seed in 0..3 {
            out.push((
                p,
                DurationModel::uniform(Duration::from_secs(10))
                    .with_jitter(0.9)
                    .with_seed(seed),
            ));
        }
    }
    out
}

/// Runs a `walk`/`walker` case under every setting; returns the first mismatch.
fn run_walk_case_everywhere(case: &Value) -> Result<(), String> {
    for (p, durations) in settings() {
        run_walk_case(case, Some(p), &durations)
            .map_err(|e| format!("{e} (parallelism {p}, {durations:?})"))?;
    }
    Ok(())
}

/// `topological_order` cases: the order the async walk starts vertices (one permit, `reverse`
/// as `AcyclicGraph.Walk`) must put each vertex after all of its dependencies and cover all.
fn run_topo_case(case: &Value) -> Result<(), String> {
    let g = build(case);
    let up = case["input"]["order"].as_str() == Some("upOrder");
    let order = {
        let mut exec = Executor::new();
        let walk = Walk::start(
            &exec,
            &g,
            &WalkOptions {
                parallelism: 1,
                reverse: !up,
            },
            tfgraph::walk::Scenario::new(DurationModel::uniform(Duration::from_secs(1))),
        );
        exec.run_to_end();
        let r = walk.result();
        r.started_order()
            .into_iter()
            .map(|t| r.tasks[t.index()].vertex)
            .collect::<Vec<_>>()
    };
    let mut seen = BTreeSet::new();
    for v in &order {
        let before = if up { g.up_edges(*v) } else { g.down_edges(*v) };
        if let Some(m) = before.iter().find(|b| !seen.contains(*b)) {
            return Err(format!(
                "{} started before {}",
                g.name_of(*v),
                g.name_of(*m)
            ));
        }
        seen.insert(*v);
    }
    if seen.len() != g.len() {
        return Err(format!("{} of {} vertices walked", seen.len(), g.len()));
    }
    Ok(())
}

#[test]
fn walker_cases_through_the_async_walker() {
    let root = support::conformance();
    let mut names: Vec<PathBuf> = std::fs::read_dir(root.join("dag"))
        .expect("corpus readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("walker-") || n.starts_with("acyclic-walk"))
        })
        .collect();
    names.sort();
    let (mut pass, mut skip, mut fail) = (0, 0, Vec::new());
    for path in &names {
        let text = std::fs::read_to_string(path).expect("case readable");
        let case: Value = serde_json::from_str(&text).expect("case is JSON");
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
        let outcome = match case["operation"].as_str() {
            Some("walk" | "walker") => run_walk_case_everywhere(&case),
            Some("topological_order") => run_topo_case(&case),
            Some(op) => {
                // walk_order: the sequential DFS/BFS visitor (`AcyclicGraph.walk`), not a
                // parallel walk; covered by the dag conformance runner.
                println!("SKIP {name}: {op} is not a parallel walk");
                skip += 1;
                continue;
            }
            None => Err("no operation".to_string()),
        };
        match outcome {
            Ok(()) => {
                println!("PASS {name}");
                pass += 1;
            }
            Err(why) => {
                println!("FAIL {name}: {why}");
                fail.push(format!("{name}: {why}"));
            }
        }
    }
    println!("{pass} passed, {} failed, {skip} skipped", fail.len());
    assert!(pass >= 8, "expected the walk cases, found {pass}");
    assert!(fail.is_empty(), "failures:\n{}", fail.join("\n"));
}
