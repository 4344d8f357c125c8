//! Runs the `walker-*` and `acyclic-walk*` dag conformance cases through the async simulated
//! walker (`tfgraph::walk`), which must give the outcomes OpenTofu's tests expect, as the
//! synchronous `dag::Walker` does. Each walk case runs under several parallelism settings and
//! duration models (zero, uniform, jittered): the expectations must hold for all of them.
//!
//! The corpus is found by `support::conformance`.

mod support;

use serde_json::Value;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;
use tfgraph::conformance::dag::{WalkerStep, build, connect_names, pair, strs, walker_script};
use tfgraph::dag::Graph;
use tfgraph::walk::{
    Behaviour, DurationModel, Execution, Executor, Transition, VertexRef, Walk, WalkOptions,
};

/// The Go test's callback: records visits, fails where told, runs the script.
struct Callback {
    g: Rc<RefCell<Graph<String>>>,
    steps: Rc<Vec<WalkerStep>>,
    fail_on: BTreeSet<String>,
    visits: Rc<RefCell<Vec<String>>>,
    durations: DurationModel,
}

impl Callback {
    fn apply(&self, walk: &Walk, actions: &[Value]) {
        for a in actions {
            if let Some(n) = a["add_vertex"].as_str() {
                let mut g = self.g.borrow_mut();
                if g.find_by_name(n).is_none() {
                    g.add(n.to_string());
                }
            } else if let Some((f, t)) = pair(&a["add_edge"]) {
                connect_names(&mut self.g.borrow_mut(), &f, &t);
            } else if let Some(n) = a["remove_vertex"].as_str() {
                let mut g = self.g.borrow_mut();
                if let Some(v) = g.find_by_name(n) {
                    g.remove(v);
                }
            } else if a["update"].as_bool() == Some(true) {
                walk.update(&*self.g.borrow());
            }
        }
    }

    fn during(&self, walk: &Walk, name: &str, before_record: bool) {
        for s in self.steps.iter() {
            if s.during.as_ref() == Some(&(name.to_string(), before_record)) {
                self.apply(walk, &s.actions);
            }
        }
    }
}

impl Behaviour for Callback {
    fn execute(&mut self, walk: &Walk, v: &VertexRef) -> Execution {
        self.during(walk, &v.name, true);
        let result = if self.fail_on.contains(&v.name) {
            Err(format!("error on {}", v.name))
        } else {
            self.visits.borrow_mut().push(v.name.clone());
            Ok(())
        };
        self.during(walk, &v.name, false);
        Execution {
            duration: self.durations.duration_of(&v.name),
            result,
            expand: None,
        }
    }

    fn completed(&mut self, walk: &Walk, v: &VertexRef, _outcome: &Transition) {
        for s in self.steps.iter() {
            if s.after.as_deref() == Some(v.name.as_str()) {
                self.apply(walk, &s.actions);
            }
        }
    }
}

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

/// Runs a `walk`/`walker` case; returns a description of the first mismatch.
fn run_walk_case(case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let expected = &case["expected"];
    let reverse = input["reverse"]
        .as_bool()
        .unwrap_or(case["operation"] == "walk");
    let steps = Rc::new(walker_script(case));
    let fail_on: BTreeSet<String> = strs(&input["fail_on"]).into_iter().collect();
    let repeat = input["repeat"].as_u64().unwrap_or(1).clamp(1, 5);
    for (p, durations) in settings() {
        for _ in 0..repeat {
            let g = Rc::new(RefCell::new(build(case)));
            let visits = Rc::new(RefCell::new(Vec::new()));
            let cb = Callback {
                g: g.clone(),
                steps: steps.clone(),
                fail_on: fail_on.clone(),
                visits: visits.clone(),
                durations: durations.clone(),
            };
            let mut exec = Executor::new();
            let start = g.borrow().clone();
            let walk = Walk::start(
                &exec,
                &start,
                &WalkOptions {
                    parallelism: p,
                    reverse,
                },
                cb,
            );
            exec.run_to_end();
            let r = walk.result();
            let ctx = format!("(parallelism {p}, {durations:?})");
            if !r.is_complete() {
                return Err(format!("walk did not finish {ctx}"));
            }
            if let Some(want) = expected["error"].as_bool()
                && r.has_errors() != want
            {
                return Err(format!("walk error: expected {want} {ctx}"));
            }
            let got = visits.borrow().clone();
            if let Some(one_of) = expected["visits_one_of"].as_array() {
                let options: Vec<Vec<String>> = one_of.iter().map(strs).collect();
                if !options.contains(&got) {
                    return Err(format!("visits {got:?} not in {options:?} {ctx}"));
                }
            } else if got != strs(&expected["visits"]) {
                return Err(format!(
                    "visits: expected {:?}, got {got:?} {ctx}",
                    strs(&expected["visits"])
                ));
            }
        }
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
            Some("walk" | "walker") => run_walk_case(&case),
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
