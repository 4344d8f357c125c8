//! Runner for the `dag/` conformance cases (OpenTofu's `internal/dag` tests): each case builds a
//! graph of named vertices and runs one operation on it (see the corpus README and each case's
//! `notes`).
//!
//! The graph is built with Go's membership rules: an edge may name a vertex that was never added
//! (Go's `Connect` does not check), which becomes a detached vertex of [`Graph`]. Walker cases run
//! on the crate's one walker (`super::walker`); the graph is built by `super::case_graph`. A
//! case with a field, operation, expectation or script action this runner does not understand
//! fails.

use super::case_graph::{build, expect_eq};
use super::strict::{self, keys, opt_array, opt_bool, opt_str, opt_strings, req_str};
use super::walker::run_walk_case;
use super::{Outcome, read_json};
use crate::dag::{Graph, VertexId, WalkOrder};
use crate::walk::DurationModel;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

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

fn id(g: &Graph<String>, name: &str) -> Result<VertexId, String> {
    g.find_known_by_name(name)
        .ok_or_else(|| format!("case names unknown vertex {name:?}"))
}

fn name_set(g: &Graph<String>, ids: impl IntoIterator<Item = VertexId>) -> BTreeSet<String> {
    ids.into_iter().map(|i| g.name_of(i)).collect()
}

/// The case's `expected`, which must be a string.
fn expected_text(case: &Value) -> Result<String, String> {
    case["expected"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("expected is not a string: {}", case["expected"]))
}

/// `expected` as `{"error": bool}`.
fn expected_error_flag(case: &Value) -> Result<bool, String> {
    let e = &case["expected"];
    keys(e, "expected", &["error"])?;
    opt_bool(e, "error", "expected")?.ok_or_else(|| "expected.error missing".to_string())
}

fn text(g: &Graph<String>) -> String {
    g.string().trim().to_string()
}

/// The input keys each operation understands.
fn input_keys(op: &str) -> Option<&'static [&'static str]> {
    Some(match op {
        "root" | "validate" | "transitive_reduction" | "string" | "strongly_connected" => &[],
        "remove" => &["remove"],
        "replace" => &["original", "replacement"],
        "ancestors" | "descendants" | "edges_from" | "edges_to" | "up_down_edges" => &["of"],
        "has_vertex" => &["queries"],
        "has_edge" => &["edge"],
        "walk_order" => &["order", "start", "sorted"],
        "topological_order" => &["order"],
        "walk" | "walker" => &["reverse", "fail_on", "repeat", "script"],
        _ => return None,
    })
}

fn run(case: &Value) -> Result<(), String> {
    keys(
        case,
        "case",
        &[
            "origin",
            "operation",
            "graph_type",
            "vertices",
            "edges",
            "input",
            "expected",
            "notes",
        ],
    )?;
    let op = req_str(case, "operation", "case")?;
    let allowed = input_keys(op).ok_or_else(|| format!("unknown operation {op:?}"))?;
    match opt_str(case, "graph_type", "case")? {
        None | Some("Graph" | "AcyclicGraph") => {}
        Some(other) => return Err(format!("unknown graph_type {other:?}")),
    }
    opt_strings(case, "vertices", "case")?;
    for e in opt_array(case, "edges", "case")? {
        strict::pair(e, "edge")?;
    }
    let input = match case.get("input") {
        None => &Value::Object(Default::default()),
        Some(i) => i,
    };
    keys(input, "input", allowed)?;
    let mut g = build(case);
    let expected = &case["expected"];
    match op {
        "root" => {
            let got = g.root();
            match expected {
                Value::String(want) => match got {
                    Ok(r) => expect_eq("root", g.name_of(r), want.clone()),
                    Err(e) => Err(format!("root: expected {want:?}, got error {e}")),
                },
                _ => {
                    let want_error = expected_error_flag(case)?;
                    if want_error != got.is_err() {
                        return Err(format!("root: expected {expected}, got {got:?}"));
                    }
                    Ok(())
                }
            }
        }
        "validate" => {
            let got = g.validate();
            expect_eq("validate error", got.is_err(), expected_error_flag(case)?)
                .map_err(|e| format!("{e} ({got:?})"))
        }
        "transitive_reduction" => {
            g.transitive_reduction();
            expect_eq("String()", text(&g), expected_text(case)?)
        }
        "string" => expect_eq("String()", text(&g), expected_text(case)?),
        "remove" => {
            let v = id(&g, req_str(input, "remove", "input")?)?;
            g.remove(v);
            expect_eq("String()", text(&g), expected_text(case)?)
        }
        "replace" => {
            let original = req_str(input, "original", "input")?;
            let replacement = req_str(input, "replacement", "input")?;
            replace(&mut g, original, replacement)?;
            expect_eq("String()", text(&g), expected_text(case)?)
        }
        "ancestors" | "descendants" => {
            let v = id(&g, req_str(input, "of", "input")?)?;
            keys(expected, "expected", &["set"])?;
            let got = if op == "ancestors" {
                g.ancestors(v)
            } else {
                g.descendants(v)
            };
            expect_eq(
                op,
                name_set(&g, got),
                opt_strings(expected, "set", "expected")?
                    .into_iter()
                    .collect(),
            )
        }
        "has_vertex" => {
            let got: Vec<bool> = opt_strings(input, "queries", "input")?
                .iter()
                .map(|q| g.find_by_name(q).is_some_and(|i| g.has_vertex(i)))
                .collect();
            let want: Vec<bool> = expected
                .as_array()
                .ok_or("expected is not an array")?
                .iter()
                .map(|b| b.as_bool().ok_or("expected holds a non-boolean"))
                .collect::<Result<_, _>>()?;
            expect_eq("HasVertex", got, want)
        }
        "has_edge" => {
            let (f, t) = strict::pair(&input["edge"], "input.edge")?;
            let got = match (g.find_known_by_name(&f), g.find_known_by_name(&t)) {
                (Some(f), Some(t)) => g.has_edge(f, t),
                _ => false,
            };
            let want = expected.as_bool().ok_or("expected is not a boolean")?;
            expect_eq("HasEdge", got, want)
        }
        "edges_from" | "edges_to" => {
            let v = id(&g, req_str(input, "of", "input")?)?;
            keys(expected, "expected", &["includes"])?;
            let edges = if op == "edges_from" {
                g.edges_from(v)
            } else {
                g.edges_to(v)
            };
            let got: BTreeSet<(String, String)> = edges
                .into_iter()
                .map(|(f, t)| (g.name_of(f), g.name_of(t)))
                .collect();
            for want in opt_array(expected, "includes", "expected")? {
                let want = strict::pair(want, "expected.includes")?;
                if !got.contains(&want) {
                    return Err(format!("{op}: {want:?} missing from {got:?}"));
                }
            }
            Ok(())
        }
        "up_down_edges" => {
            let v = id(&g, req_str(input, "of", "input")?)?;
            keys(expected, "expected", &["up_edges", "down_edges"])?;
            expect_eq(
                "UpEdges",
                name_set(&g, g.up_edges(v)),
                opt_strings(expected, "up_edges", "expected")?
                    .into_iter()
                    .collect(),
            )?;
            expect_eq(
                "DownEdges",
                name_set(&g, g.down_edges(v)),
                opt_strings(expected, "down_edges", "expected")?
                    .into_iter()
                    .collect(),
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
            expect_eq("StronglyConnected", lines.join("\n"), expected_text(case)?)
        }
        "walk_order" => walk_order(&g, case),
        "topological_order" => topological_order(&g, case),
        "walk" | "walker" => run_walk_case(case, None, &DurationModel::uniform(Duration::ZERO)),
        other => Err(format!("unknown operation {other:?}")),
    }
}

/// Go's `Graph.Replace(original, replacement)` with vertices identified by name: nothing unless
/// `original` is in the vertex set; replacing a vertex by itself changes nothing; a replacement
/// the graph already knows keeps its own edges and takes over `original`'s.
fn replace(g: &mut Graph<String>, original: &str, replacement: &str) -> Result<(), String> {
    let Some(o) = g.find_by_name(original) else {
        return Ok(());
    };
    if original == replacement {
        return Ok(());
    }
    match g.find_known_by_name(replacement) {
        None => {
            g.replace(o, replacement.to_string());
        }
        Some(r) => {
            g.admit(r);
            for t in g.down_edges(o) {
                g.connect(r, t);
            }
            for s in g.up_edges(o) {
                g.connect(s, r);
            }
            g.remove(o);
        }
    }
    Ok(())
}

fn walk_order(g: &Graph<String>, case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let order = match req_str(input, "order", "input")? {
        "depthFirst|downOrder" => WalkOrder::DEPTH_FIRST_DOWN,
        "depthFirst|upOrder" => WalkOrder::DEPTH_FIRST_UP,
        "breadthFirst|downOrder" => WalkOrder::BREADTH_FIRST_DOWN,
        "breadthFirst|upOrder" => WalkOrder::BREADTH_FIRST_UP,
        other => return Err(format!("unknown walk order {other:?}")),
    };
    // Go's test mode sorts the frontier; without it the order is Go's map order, which no
    // expectation can pin down.
    if opt_bool(input, "sorted", "input")? != Some(true) {
        return Err("walk_order without \"sorted\": true is Go's random order".to_string());
    }
    let start: Vec<VertexId> = opt_strings(input, "start", "input")?
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
        .ok_or("expected is not an array")?
        .iter()
        .map(|e| {
            keys(e, "expected visit", &["vertex", "depth"])?;
            Ok((
                req_str(e, "vertex", "expected visit")?.to_string(),
                e["depth"].as_u64().ok_or("expected visit: depth missing")?,
            ))
        })
        .collect::<Result<_, String>>()?;
    expect_eq("walk visits (vertex, depth)", got, want)
}

/// The properties the `topological_order` cases state, by order.
const TOPO_UP: &str =
    "every vertex appears after all of its up-edge sources (dependents first); all vertices appear";
const TOPO_DOWN: &str = "every vertex appears after all of its down-edge targets (dependencies first); all vertices appear";

fn topological_order(g: &Graph<String>, case: &Value) -> Result<(), String> {
    let up = match req_str(&case["input"], "order", "input")? {
        "upOrder" => true,
        "downOrder" => false,
        other => return Err(format!("unknown topological order {other:?}")),
    };
    keys(&case["expected"], "expected", &["property"])?;
    let property = req_str(&case["expected"], "property", "expected")?;
    if property != if up { TOPO_UP } else { TOPO_DOWN } {
        return Err(format!("unknown property {property:?}"));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn case(op: &str, input: Value, expected: Value) -> Value {
        json!({"origin": "test", "operation": op, "graph_type": "AcyclicGraph",
               "vertices": ["1", "2", "3"], "edges": [["1", "2"], ["1", "3"], ["3", "2"]],
               "input": input, "expected": expected, "notes": ""})
    }

    #[test]
    fn unknown_fields_operations_and_expectations_fail() {
        let ok = case("string", json!({}), json!("1\n  2\n  3\n2\n3\n  2"));
        assert_eq!(run(&ok), Ok(()));
        let mut extra = ok.clone();
        extra["surprise"] = json!(1);
        assert!(
            run(&extra)
                .unwrap_err()
                .contains("unknown field \"surprise\"")
        );
        let op = case("sideways", json!({}), json!(""));
        assert!(run(&op).unwrap_err().contains("unknown operation"));
        let input = case("string", json!({"of": "1"}), json!(""));
        assert!(run(&input).unwrap_err().contains("input: unknown field"));
        let graph_type = {
            let mut c = ok.clone();
            c["graph_type"] = json!("Multigraph");
            c
        };
        assert!(run(&graph_type).unwrap_err().contains("graph_type"));
        let expected = case("validate", json!({}), json!({"error": false, "why": 1}));
        assert!(
            run(&expected)
                .unwrap_err()
                .contains("unknown field \"why\"")
        );
        let order = case(
            "walk_order",
            json!({"order": "sideways|downOrder", "start": ["1"], "sorted": true}),
            json!([]),
        );
        assert!(run(&order).unwrap_err().contains("unknown walk order"));
        let property = case(
            "topological_order",
            json!({"order": "upOrder"}),
            json!({"property": "anything goes"}),
        );
        assert!(run(&property).unwrap_err().contains("unknown property"));
    }

    #[test]
    fn unknown_script_actions_and_entries_fail() {
        let walker = |script: Value| {
            case(
                "walker",
                json!({"reverse": false, "script": script}),
                json!({"error": false, "visits": ["1", "3", "2"]}),
            )
        };
        let dance = walker(json!([{"during_callback_of": "1", "before_record": true,
                                    "do": [{"dance": true}]}]));
        assert!(run(&dance).unwrap_err().contains("unknown script action"));
        let no_when = walker(json!([{"do": [{"update": true}]}]));
        assert!(run(&no_when).unwrap_err().contains("must say when"));
        let no_flag = walker(json!([{"during_callback_of": "1", "do": []}]));
        assert!(run(&no_flag).unwrap_err().contains("before_record"));
        let update_false = walker(json!([{"after_callback_returns": "1",
                                          "do": [{"update": false}]}]));
        assert!(run(&update_false).is_err());
        let lonely_then = walker(json!([{"then": [{"update": true}]}]));
        assert!(
            run(&lonely_then)
                .unwrap_err()
                .contains("no entry before it")
        );
        let on_timeout = walker(json!([{"during_callback_of": "3", "before_record": true,
            "do": [{"wait_for_callback_return_of": "2", "timeout_ms": 5,
                    "on_timeout": "shrug"}]}]));
        assert!(run(&on_timeout).unwrap_err().contains("on_timeout"));
        let late_gate = walker(json!([{"during_callback_of": "3", "before_record": false,
            "do": [{"wait_for_callback_return_of": "2", "timeout_ms": 5,
                    "on_timeout": "error"}]}]));
        assert!(
            run(&late_gate)
                .unwrap_err()
                .contains("only understood before")
        );
    }

    /// internal/dag/walk_test.go TestWalker_removeEdge: 1 runs first; its callback removes the
    /// edge that made 2 wait for 3 and updates the walker, so 2 no longer waits for 3; 3's
    /// callback then waits for 2's callback to return, which only works if the removal released
    /// 2 (internal/dag/walk.go `Walker.Update`, "Process removed edges").
    #[test]
    fn a_removed_edge_releases_its_waiter() {
        let script = json!([
            {"during_callback_of": "1", "before_record": true,
             "do": [{"remove_edge": ["3", "2"]}, {"update": true}]},
            {"during_callback_of": "3", "before_record": true,
             "do": [{"wait_for_callback_return_of": "2", "timeout_ms": 500,
                     "on_timeout": "error"}]}
        ]);
        let c = case(
            "walker",
            json!({"reverse": false, "script": script}),
            json!({"error": false, "visits": ["1", "2", "3"]}),
        );
        assert_eq!(run(&c), Ok(()));
        for p in [1, 2, 3] {
            for d in [Duration::ZERO, Duration::from_secs(2)] {
                assert_eq!(
                    run_walk_case(&c, Some(p), &DurationModel::uniform(d)),
                    Ok(()),
                    "parallelism {p}, {d:?}"
                );
            }
        }
        // Without the removal, 3 waits on 2 and 2 on 3's callback: the wait times out.
        let mut stuck = c.clone();
        stuck["input"]["script"][0]["do"] = json!([]);
        let e = run(&stuck).unwrap_err();
        assert!(e.contains("walk error"), "{e}");
    }

    /// internal/dag/dag_test.go TestAcyclicGraphDescendents: vertex 0 is only connected, never
    /// added (internal/dag/graph.go `Connect` does not check membership), yet Descendents(2)
    /// reaches it through 1.
    #[test]
    fn descendants_follow_edges_to_vertices_never_added() {
        let c = json!({"origin": "t", "operation": "descendants", "graph_type": "AcyclicGraph",
            "vertices": ["1", "2", "3", "4", "5"],
            "edges": [["0", "1"], ["1", "2"], ["2", "3"], ["3", "4"], ["4", "5"]],
            "input": {"of": "2"}, "expected": {"set": ["0", "1"]}, "notes": ""});
        assert_eq!(run(&c), Ok(()));
        let mut a = c.clone();
        a["operation"] = json!("ancestors");
        a["expected"] = json!({"set": ["3", "4", "5"]});
        assert_eq!(run(&a), Ok(()));
        // 0 is not a member: the graph has one root (1 is depended on by 0).
        let mut root = c;
        root["operation"] = json!("root");
        root["input"] = json!({});
        root["expected"] = json!({"error": true});
        assert!(run(&root).is_ok());
    }

    /// internal/dag/graph_test.go TestGraph_replaceSelf: replacing a vertex with itself leaves
    /// the graph as it was (`Graph.Replace`: "If they're the same, then don't do anything").
    #[test]
    fn replacing_a_vertex_by_itself_changes_nothing() {
        let c = case(
            "replace",
            json!({"original": "2", "replacement": "2"}),
            json!("1\n  2\n  3\n2\n3\n  2"),
        );
        assert_eq!(run(&c), Ok(()));
    }
}
