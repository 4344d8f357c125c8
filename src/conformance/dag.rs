//! Runner for the `dag/` conformance cases (OpenTofu's `internal/dag` tests): each case builds a
//! graph of named vertices and runs one operation on it (see the corpus README and each case's
//! `notes`).
//!
//! The graph is built with Go's membership rules: an edge may name a vertex that was never added
//! (Go's `Connect` does not check), which becomes a detached vertex of [`Graph`]. Walker cases run
//! on the crate's one walker, [`crate::walk::Walk`], with the case's script as the callback (see
//! [`run_walk_case`]). A case with a field, operation, expectation or script action this runner
//! does not understand fails.

use super::strict::{self, keys, object, opt_array, opt_bool, opt_str, opt_strings, req_str};
use super::{Outcome, read_json};
use crate::dag::{Graph, VertexId, WalkOrder};
use crate::walk::{
    Behaviour, DurationModel, Execution, Executor, Gate, Transition, VertexRef, Walk, WalkOptions,
};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
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
    strict::pair(v, "pair").ok()
}

/// The vertex named `name`, added as a detached vertex (Go: a value connected without `Add`) when
/// the graph does not know it yet.
pub fn vertex_named(g: &mut Graph<String>, name: &str) -> VertexId {
    match g.find_known_by_name(name) {
        Some(v) => v,
        None => g.add_detached(name.to_string()),
    }
}

/// Connects the vertices named `f` and `t` as Go's `Connect(BasicEdge(f, t))` does: ends that were
/// never added become detached vertices.
pub fn connect_names(g: &mut Graph<String>, f: &str, t: &str) {
    let f = vertex_named(g, f);
    let t = vertex_named(g, t);
    g.connect(f, t);
}

/// Go's `Add` of the vertex named `n`: a no-op for a member, admits a detached one.
pub fn add_name(g: &mut Graph<String>, n: &str) {
    match g.find_known_by_name(n) {
        Some(v) => {
            g.admit(v);
        }
        None => {
            g.add(n.to_string());
        }
    }
}

/// Builds the case graph: `vertices` added in order, then `edges` connected (see
/// [`connect_names`]).
pub fn build(case: &Value) -> Graph<String> {
    let mut g = Graph::new();
    for name in strs(&case["vertices"]) {
        add_name(&mut g, &name);
    }
    for e in case["edges"].as_array().into_iter().flatten() {
        if let Some((f, t)) = pair(e) {
            connect_names(&mut g, &f, &t);
        }
    }
    g
}

fn id(g: &Graph<String>, name: &str) -> Result<VertexId, String> {
    g.find_known_by_name(name)
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

/// One action of a walker script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Go's `Graph.Add`.
    AddVertex(String),
    /// Go's `Graph.Remove`.
    RemoveVertex(String),
    /// Go's `Graph.Connect(BasicEdge(from, to))`.
    AddEdge(String, String),
    /// Go's `Graph.RemoveEdge(BasicEdge(from, to))`.
    RemoveEdge(String, String),
    /// `Walker.Update` with the changed graph.
    Update,
    /// Blocks the callback until `name`'s callback has recorded it and returned; after `timeout`
    /// without that, the callback fails with an error.
    WaitForReturnOf { name: String, timeout: Duration },
}

/// When a script entry acts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum When {
    /// During this vertex's callback, before (`true`) or after it records its visit.
    During { vertex: String, before_record: bool },
    /// After this vertex's callback has returned.
    After(String),
}

/// One entry of a walker case's script (a `then` entry's actions are appended to the entry
/// before it, which is when they run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptStep {
    pub when: When,
    pub actions: Vec<Action>,
}

fn parse_action(a: &Value) -> Result<Action, String> {
    let o = object(a, "script action")?;
    let what = "script action";
    if let Some(n) = o.get("wait_for_callback_return_of") {
        keys(
            a,
            what,
            &["wait_for_callback_return_of", "timeout_ms", "on_timeout"],
        )?;
        let name = n
            .as_str()
            .ok_or("wait_for_callback_return_of is not a string")?;
        let ms = a["timeout_ms"]
            .as_u64()
            .ok_or("wait_for_callback_return_of without a timeout_ms")?;
        match opt_str(a, "on_timeout", what)? {
            Some("error") => {}
            other => return Err(format!("unknown on_timeout {other:?}")),
        }
        return Ok(Action::WaitForReturnOf {
            name: name.to_string(),
            timeout: Duration::from_millis(ms),
        });
    }
    if o.len() != 1 {
        return Err(format!("{what} must have exactly one key: {a}"));
    }
    let (k, v) = o.iter().next().ok_or("empty script action")?;
    let name = || {
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("{k} is not a string: {v}"))
    };
    Ok(match k.as_str() {
        "add_vertex" => Action::AddVertex(name()?),
        "remove_vertex" => Action::RemoveVertex(name()?),
        "add_edge" => {
            let (f, t) = strict::pair(v, "add_edge")?;
            Action::AddEdge(f, t)
        }
        "remove_edge" => {
            let (f, t) = strict::pair(v, "remove_edge")?;
            Action::RemoveEdge(f, t)
        }
        "update" if v == &Value::Bool(true) => Action::Update,
        other => return Err(format!("unknown script action {other:?}: {a}")),
    })
}

/// The steps of a walker case's `input.script`, in order; an error for anything not understood.
pub fn walker_script(case: &Value) -> Result<Vec<ScriptStep>, String> {
    let mut steps: Vec<ScriptStep> = Vec::new();
    for e in opt_array(&case["input"], "script", "input")? {
        keys(
            e,
            "script entry",
            &[
                "during_callback_of",
                "before_record",
                "after_callback_returns",
                "do",
                "then",
                "comment",
            ],
        )?;
        let parse_all = |key: &str| -> Result<Vec<Action>, String> {
            opt_array(e, key, "script entry")?
                .iter()
                .map(parse_action)
                .collect()
        };
        let during = opt_str(e, "during_callback_of", "script entry")?;
        let after = opt_str(e, "after_callback_returns", "script entry")?;
        let before_record = opt_bool(e, "before_record", "script entry")?;
        if e.get("then").is_some() {
            if during.is_some() || after.is_some() || e.get("do").is_some() {
                return Err(format!("a then entry says no more than its actions: {e}"));
            }
            let last = steps
                .last_mut()
                .ok_or("a then entry with no entry before it")?;
            last.actions.extend(parse_all("then")?);
            continue;
        }
        let when = match (during, after, before_record) {
            (Some(v), None, Some(b)) => When::During {
                vertex: v.to_string(),
                before_record: b,
            },
            (Some(_), None, None) => {
                return Err(format!("during_callback_of without before_record: {e}"));
            }
            (None, Some(v), None) => When::After(v.to_string()),
            _ => return Err(format!("a script entry must say when it acts: {e}")),
        };
        let actions = parse_all("do")?;
        let gate_outside_callback = !matches!(
            when,
            When::During {
                before_record: true,
                ..
            }
        ) && actions
            .iter()
            .any(|a| matches!(a, Action::WaitForReturnOf { .. }));
        if gate_outside_callback {
            // Only a callback that has not recorded yet can block here: the wait has to come
            // before the callback's result is known.
            return Err(format!(
                "wait_for_callback_return_of is only understood before the record: {e}"
            ));
        }
        steps.push(ScriptStep { when, actions });
    }
    Ok(steps)
}

/// Callbacks that returned after recording their vertex, and the gates waiting for them.
#[derive(Default)]
struct Returns {
    names: BTreeSet<String>,
    wakers: Vec<Waker>,
}

/// Resolves once `name`'s callback returned after recording.
struct ReturnOf {
    returns: Rc<RefCell<Returns>>,
    name: String,
}

impl Future for ReturnOf {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut r = self.returns.borrow_mut();
        if r.names.contains(&self.name) {
            Poll::Ready(())
        } else {
            r.wakers.push(cx.waker().clone());
            Poll::Pending
        }
    }
}

/// The Go test's callback as a walk [`Behaviour`]: runs the script, records visits, fails the
/// vertices the case says fail.
struct ScriptedCallback {
    g: Rc<RefCell<Graph<String>>>,
    steps: Rc<Vec<ScriptStep>>,
    fail_on: BTreeSet<String>,
    visits: Rc<RefCell<Vec<String>>>,
    /// Vertices that recorded their visit.
    recorded: BTreeSet<String>,
    returns: Rc<RefCell<Returns>>,
    durations: DurationModel,
    /// Added to every wait's timeout, so long simulated callbacks cannot time a wait out.
    slack: Duration,
}

fn apply_action(g: &RefCell<Graph<String>>, walk: &Walk, a: &Action) {
    match a {
        Action::AddVertex(n) => add_name(&mut g.borrow_mut(), n),
        Action::RemoveVertex(n) => {
            let mut g = g.borrow_mut();
            if let Some(v) = g.find_known_by_name(n) {
                g.remove(v);
            }
        }
        Action::AddEdge(f, t) => connect_names(&mut g.borrow_mut(), f, t),
        Action::RemoveEdge(f, t) => {
            let mut g = g.borrow_mut();
            if let (Some(f), Some(t)) = (g.find_known_by_name(f), g.find_known_by_name(t)) {
                g.remove_edge(f, t);
            }
        }
        Action::Update => walk.update(&*g.borrow()),
        // Gates are awaited by the callback, not applied.
        Action::WaitForReturnOf { .. } => {}
    }
}

impl ScriptedCallback {
    fn actions(&self, when: &When) -> Vec<Action> {
        self.steps
            .iter()
            .filter(|s| &s.when == when)
            .flat_map(|s| s.actions.iter().cloned())
            .collect()
    }
}

impl Behaviour for ScriptedCallback {
    fn gate(&mut self, walk: &Walk, v: &VertexRef) -> Option<Gate> {
        let actions = self.actions(&When::During {
            vertex: v.name.clone(),
            before_record: true,
        });
        if !actions
            .iter()
            .any(|a| matches!(a, Action::WaitForReturnOf { .. }))
        {
            for a in &actions {
                apply_action(&self.g, walk, a);
            }
            return None;
        }
        let (g, walk, returns, slack) = (
            self.g.clone(),
            walk.clone(),
            self.returns.clone(),
            self.slack,
        );
        let me = v.name.clone();
        Some(Box::pin(async move {
            for a in &actions {
                let Action::WaitForReturnOf { name, timeout } = a else {
                    apply_action(&g, &walk, a);
                    continue;
                };
                let returned = ReturnOf {
                    returns: returns.clone(),
                    name: name.clone(),
                };
                let timer = walk.clock().sleep(*timeout + slack);
                match futures::future::select(Box::pin(returned), timer).await {
                    futures::future::Either::Left(_) => {}
                    futures::future::Either::Right(_) => {
                        return Err(format!("timeout {me} waiting for {name}"));
                    }
                }
            }
            Ok(())
        }))
    }

    fn execute(&mut self, walk: &Walk, v: &VertexRef) -> Execution {
        let result = if self.fail_on.contains(&v.name) {
            Err(format!("error on {}", v.name))
        } else {
            self.visits.borrow_mut().push(v.name.clone());
            self.recorded.insert(v.name.clone());
            Ok(())
        };
        for a in self.actions(&When::During {
            vertex: v.name.clone(),
            before_record: false,
        }) {
            apply_action(&self.g, walk, &a);
        }
        Execution {
            duration: self.durations.duration_of(&v.name, &v.typed.kind),
            result,
            expand: None,
            steps: Vec::new(),
        }
    }

    fn completed(&mut self, walk: &Walk, v: &VertexRef, _outcome: &Transition) {
        if self.recorded.contains(&v.name) {
            let wakers = {
                let mut r = self.returns.borrow_mut();
                r.names.insert(v.name.clone());
                std::mem::take(&mut r.wakers)
            };
            for w in wakers {
                w.wake();
            }
        }
        for a in self.actions(&When::After(v.name.clone())) {
            apply_action(&self.g, walk, &a);
        }
    }
}

/// Runs a `walk` (`AcyclicGraph.Walk`) or `walker` (`dag.Walker`) case on the crate's walker,
/// [`crate::walk::Walk`], with the case's script as the callback, and checks the visits and the
/// error. `parallelism` `None` is Go's `dag.Walker`, which has no limit; `durations` gives each
/// callback a simulated length (zero in the conformance run; the walk tests vary it, and every
/// wait's timeout then grows by the sum of all durations, since Go's callbacks take no time).
pub fn run_walk_case(
    case: &Value,
    parallelism: Option<usize>,
    durations: &DurationModel,
) -> Result<(), String> {
    let input = &case["input"];
    let expected = &case["expected"];
    keys(expected, "expected", &["error", "visits", "visits_one_of"])?;
    let op = case["operation"].as_str().unwrap_or("");
    // AcyclicGraph.Walk is a Walker with Reverse: true.
    let reverse = opt_bool(input, "reverse", "input")?.unwrap_or(op == "walk");
    let fail_on: BTreeSet<String> = opt_strings(input, "fail_on", "input")?
        .into_iter()
        .collect();
    let steps = Rc::new(walker_script(case)?);
    let repeat = match input.get("repeat") {
        None => 1,
        Some(r) => r.as_u64().ok_or("input.repeat is not a number")?.max(1),
    };
    let want_visits: Vec<Vec<String>> = match (
        expected.get("visits"),
        opt_array(expected, "visits_one_of", "expected")?,
    ) {
        (Some(_), []) => vec![opt_strings(expected, "visits", "expected")?],
        (None, one_of) if !one_of.is_empty() => one_of.iter().map(strs).collect(),
        _ => return Err("expected needs exactly one of visits and visits_one_of".to_string()),
    };
    let want_error = opt_bool(expected, "error", "expected")?;
    let start = build(case);
    let mut names: BTreeSet<String> = start.iter().map(|(_, n)| n.clone()).collect();
    for s in steps.iter() {
        for a in &s.actions {
            if let Action::AddVertex(n) = a {
                names.insert(n.clone());
            }
        }
    }
    // The case's vertices are names of no kind (the walk's vertices are `String`s).
    let slack: Duration = names
        .iter()
        .map(|n| durations.duration_of(n, &crate::kind::VertexKind::Other))
        .sum();
    let parallelism = parallelism.unwrap_or(names.len().max(1));
    for _ in 0..repeat {
        let g = Rc::new(RefCell::new(start.clone()));
        let visits = Rc::new(RefCell::new(Vec::new()));
        let cb = ScriptedCallback {
            g: g.clone(),
            steps: steps.clone(),
            fail_on: fail_on.clone(),
            visits: visits.clone(),
            recorded: BTreeSet::new(),
            returns: Rc::default(),
            durations: durations.clone(),
            slack,
        };
        let mut exec = Executor::new();
        let walk = Walk::start(
            &exec,
            &start,
            &WalkOptions {
                parallelism,
                reverse,
            },
            cb,
        );
        exec.run_to_end();
        let r = walk.result();
        if !r.is_complete() {
            return Err("the walk did not finish".to_string());
        }
        if let Some(want) = want_error {
            expect_eq("walk error", r.has_errors(), want)
                .map_err(|e| format!("{e} ({:?})", r.errors()))?;
        }
        let got = visits.borrow().clone();
        if !want_visits.contains(&got) {
            return Err(format!(
                "visits: expected {}{want_visits:?}, got {got:?}",
                if want_visits.len() > 1 { "one of " } else { "" }
            ));
        }
    }
    Ok(())
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
