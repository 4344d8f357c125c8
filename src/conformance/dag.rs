//! Runner for the `dag/` conformance cases (OpenTofu's `internal/dag` tests): each case builds a
//! graph of named vertices and runs one operation on it (see the corpus README and each case's
//! `notes`).

use super::{Outcome, read_json};
use crate::dag::{Graph, VertexId, WalkOrder, Walker};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// Runs one `dag` case.
pub fn run_case(path: &Path) -> Outcome {
    let case = match read_json(path) {
        Ok(v) => v,
        Err(e) => return Outcome::Fail(e),
    };
    match run(&case) {
        Ok(()) => Outcome::Pass,
        Err(why) => Outcome::Fail(why),
    }
}

/// The strings of a JSON array (non-strings skipped; empty if `v` is not an array).
pub fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The first two entries of a JSON array of strings, such as an edge `["from", "to"]`.
pub fn pair(v: &Value) -> Option<(String, String)> {
    let a = v.as_array()?;
    Some((
        a.first()?.as_str()?.to_string(),
        a.get(1)?.as_str()?.to_string(),
    ))
}

/// Builds the case graph. Go's `Connect` does not check that the ends were added (one case connects
/// a never-added vertex `0`); our graph cannot hold such an edge, so it is left out. That edge only
/// ever lies upstream of what the case asks about.
pub fn build(case: &Value) -> Graph<String> {
    let mut g = Graph::new();
    for name in strs(&case["vertices"]) {
        g.add(name);
    }
    for e in case["edges"].as_array().into_iter().flatten() {
        if let Some((f, t)) = pair(e) {
            connect_names(&mut g, &f, &t);
        }
    }
    g
}

/// Connects the vertices named `f` and `t`; does nothing if either is missing.
pub fn connect_names(g: &mut Graph<String>, f: &str, t: &str) {
    if let (Some(f), Some(t)) = (g.find_by_name(f), g.find_by_name(t)) {
        g.connect(f, t);
    }
}

fn id(g: &Graph<String>, name: &str) -> Result<VertexId, String> {
    g.find_by_name(name)
        .ok_or_else(|| format!("case names unknown vertex {name:?}"))
}

fn name_set(g: &Graph<String>, ids: impl IntoIterator<Item = VertexId>) -> BTreeSet<String> {
    ids.into_iter().map(|i| g.name_of(i)).collect()
}

fn expect_eq<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: expected {want:?}, got {got:?}"))
    }
}

fn expected_error(case: &Value) -> Option<bool> {
    case["expected"]["error"].as_bool()
}

fn input_of(g: &Graph<String>, case: &Value) -> Result<VertexId, String> {
    id(g, case["input"]["of"].as_str().ok_or("input.of missing")?)
}

fn run(case: &Value) -> Result<(), String> {
    let op = case["operation"].as_str().ok_or("no operation")?;
    let mut g = build(case);
    let expected = &case["expected"];
    let text = |g: &Graph<String>| g.string().trim().to_string();
    match op {
        "root" => match (g.root(), expected) {
            (Ok(r), Value::String(want)) => expect_eq("root", g.name_of(r), want.clone()),
            (Err(_), _) if expected_error(case) == Some(true) => Ok(()),
            (got, _) => Err(format!("root: expected {expected}, got {got:?}")),
        },
        "validate" => {
            let got = g.validate();
            expect_eq(
                "validate error",
                got.is_err(),
                expected_error(case).unwrap_or(false),
            )
            .map_err(|e| format!("{e} ({got:?})"))
        }
        "transitive_reduction" => {
            g.transitive_reduction();
            expect_eq(
                "String()",
                text(&g),
                expected.as_str().unwrap_or("").to_string(),
            )
        }
        "string" => expect_eq(
            "String()",
            text(&g),
            expected.as_str().unwrap_or("").to_string(),
        ),
        "remove" => {
            let v = id(&g, case["input"]["remove"].as_str().unwrap_or(""))?;
            g.remove(v);
            expect_eq(
                "String()",
                text(&g),
                expected.as_str().unwrap_or("").to_string(),
            )
        }
        "replace" => {
            let v = id(&g, case["input"]["original"].as_str().unwrap_or(""))?;
            let r = case["input"]["replacement"]
                .as_str()
                .unwrap_or("")
                .to_string();
            g.replace(v, r).ok_or("replace: original missing")?;
            expect_eq(
                "String()",
                text(&g),
                expected.as_str().unwrap_or("").to_string(),
            )
        }
        "ancestors" => {
            let v = input_of(&g, case)?;
            let got = name_set(&g, g.ancestors(v));
            expect_eq(
                "ancestors",
                got,
                strs(&expected["set"]).into_iter().collect(),
            )
        }
        "has_vertex" => {
            let got: Vec<bool> = strs(&case["input"]["queries"])
                .iter()
                .map(|q| g.find_by_name(q).is_some_and(|i| g.has_vertex(i)))
                .collect();
            let want: Vec<bool> = expected
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_bool)
                .collect();
            expect_eq("HasVertex", got, want)
        }
        "has_edge" => {
            let (f, t) = pair(&case["input"]["edge"]).ok_or("input.edge missing")?;
            let got = g.has_edge(id(&g, &f)?, id(&g, &t)?);
            expect_eq("HasEdge", got, expected.as_bool().unwrap_or(false))
        }
        "edges_from" | "edges_to" => {
            let v = input_of(&g, case)?;
            let edges = if op == "edges_from" {
                g.edges_from(v)
            } else {
                g.edges_to(v)
            };
            let got: BTreeSet<(String, String)> = edges
                .into_iter()
                .map(|(f, t)| (g.name_of(f), g.name_of(t)))
                .collect();
            for want in expected["includes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(pair)
            {
                if !got.contains(&want) {
                    return Err(format!("{op}: {want:?} missing from {got:?}"));
                }
            }
            Ok(())
        }
        "up_down_edges" => {
            let v = input_of(&g, case)?;
            expect_eq(
                "UpEdges",
                name_set(&g, g.up_edges(v)),
                strs(&expected["up_edges"]).into_iter().collect(),
            )?;
            expect_eq(
                "DownEdges",
                name_set(&g, g.down_edges(v)),
                strs(&expected["down_edges"]).into_iter().collect(),
            )
        }
        "strongly_connected" => {
            // testSCCStr: names sorted within each component, lines sorted.
            let mut lines: Vec<String> = g
                .strongly_connected()
                .into_iter()
                .map(|c| {
                    let mut names: Vec<String> = c.into_iter().map(|i| g.name_of(i)).collect();
                    names.sort();
                    names.join(",")
                })
                .collect();
            lines.sort();
            expect_eq(
                "StronglyConnected",
                lines.join("\n"),
                expected.as_str().unwrap_or("").to_string(),
            )
        }
        "walk_order" => walk_order(&g, case),
        "topological_order" => topological_order(&g, case),
        "walk" | "walker" => walker(g, case),
        other => Err(format!("unknown operation {other:?}")),
    }
}

fn walk_order(g: &Graph<String>, case: &Value) -> Result<(), String> {
    let order_s = case["input"]["order"].as_str().unwrap_or("");
    let order = WalkOrder {
        depth_first: order_s.contains("depthFirst"),
        down: order_s.contains("downOrder"),
    };
    let start: Vec<VertexId> = strs(&case["input"]["start"])
        .iter()
        .map(|n| id(g, n))
        .collect::<Result<_, _>>()?;
    let mut got: Vec<(String, u64)> = Vec::new();
    let _ = g.walk_order(order, start, |v, d| {
        got.push((g.name_of(v), d as u64));
        Ok::<(), ()>(())
    });
    let want: Vec<(String, u64)> = case["expected"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            (
                e["vertex"].as_str().unwrap_or("").to_string(),
                e["depth"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    expect_eq("walk visits (vertex, depth)", got, want)
}

fn topological_order(g: &Graph<String>, case: &Value) -> Result<(), String> {
    let up = case["input"]["order"].as_str() == Some("upOrder");
    let order = if up {
        g.topological_order()
    } else {
        g.reverse_topological_order()
    }
    .map_err(|e| e.to_string())?;
    let mut seen: BTreeSet<VertexId> = BTreeSet::new();
    for v in &order {
        let before = if up { g.up_edges(*v) } else { g.down_edges(*v) };
        if let Some(missing) = before.iter().find(|b| !seen.contains(b)) {
            return Err(format!(
                "{} appears before {}",
                g.name_of(*v),
                g.name_of(*missing)
            ));
        }
        seen.insert(*v);
    }
    expect_eq("vertices in order", seen.len(), g.len())
}

/// One scripted graph change, applied by name.
fn apply(g: &mut Graph<String>, w: &mut Walker<String>, actions: &[Value]) {
    for a in actions {
        if let Some(n) = a["add_vertex"].as_str() {
            // Go's Add is a no-op for a vertex already present.
            if g.find_by_name(n).is_none() {
                g.add(n.to_string());
            }
        } else if let Some((f, t)) = pair(&a["add_edge"]) {
            connect_names(g, &f, &t);
        } else if let Some(n) = a["remove_vertex"].as_str() {
            if let Some(v) = g.find_by_name(n) {
                g.remove(v);
            }
        } else if a["update"].as_bool() == Some(true) {
            w.update(g);
        }
    }
}

/// A step of a walker case's script: when it fires and what it does (a `then` entry's actions
/// run right after the entry before it). Shared with the async walker's conformance test.
pub struct WalkerStep {
    /// Fires during this vertex's callback: before (`true`) or after it records its visit.
    pub during: Option<(String, bool)>,
    /// Fires after this vertex's callback returned.
    pub after: Option<String>,
    /// The graph changes to apply (`add_vertex`, `add_edge`, `remove_vertex`, `update`).
    pub actions: Vec<Value>,
}

/// The steps of a walker case's `input.script`, in order.
pub fn walker_script(case: &Value) -> Vec<WalkerStep> {
    let mut steps: Vec<WalkerStep> = Vec::new();
    for e in case["input"]["script"].as_array().into_iter().flatten() {
        if let Some(then) = e["then"].as_array() {
            if let Some(last) = steps.last_mut() {
                last.actions.extend(then.iter().cloned());
            }
            continue;
        }
        steps.push(WalkerStep {
            during: e["during_callback_of"]
                .as_str()
                .map(|n| (n.to_string(), e["before_record"].as_bool().unwrap_or(false))),
            after: e["after_callback_returns"].as_str().map(str::to_string),
            actions: e["do"].as_array().cloned().unwrap_or_default(),
        });
    }
    steps
}

fn walker(g0: Graph<String>, case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let expected = &case["expected"];
    // AcyclicGraph.Walk is a Walker with Reverse: true.
    let reverse = input["reverse"]
        .as_bool()
        .unwrap_or(case["operation"] == "walk");
    let fail_on: BTreeSet<String> = strs(&input["fail_on"]).into_iter().collect();
    let steps = walker_script(case);
    let repeat = input["repeat"].as_u64().unwrap_or(1).max(1);
    for _ in 0..repeat {
        let mut g = g0.clone();
        let mut w: Walker<String> = Walker::new(reverse);
        w.update(&g);
        let mut visits: Vec<String> = Vec::new();
        while let Some(v) = w.next_ready() {
            let name = g.name_of(v);
            let during: Vec<&WalkerStep> = steps
                .iter()
                .filter(|s| s.during.as_ref().is_some_and(|(n, _)| *n == name))
                .collect();
            for s in during
                .iter()
                .filter(|s| s.during.as_ref().is_some_and(|d| d.1))
            {
                apply(&mut g, &mut w, &s.actions);
            }
            let result = if fail_on.contains(&name) {
                Err(format!("error on {name}"))
            } else {
                visits.push(name.clone());
                Ok(())
            };
            for s in during
                .iter()
                .filter(|s| s.during.as_ref().is_some_and(|d| !d.1))
            {
                apply(&mut g, &mut w, &s.actions);
            }
            w.complete(v, result);
            for s in steps
                .iter()
                .filter(|s| s.after.as_deref() == Some(name.as_str()))
            {
                apply(&mut g, &mut w, &s.actions);
            }
        }
        let report = w.into_report();
        if let Some(want) = expected["error"].as_bool() {
            expect_eq("walk error", report.has_errors(), want)?;
        }
        if let Some(one_of) = expected["visits_one_of"].as_array() {
            let options: Vec<Vec<String>> = one_of.iter().map(strs).collect();
            if !options.contains(&visits) {
                return Err(format!(
                    "visits: expected one of {options:?}, got {visits:?}"
                ));
            }
        } else {
            expect_eq("visits", visits, strs(&expected["visits"]))?;
        }
    }
    Ok(())
}
