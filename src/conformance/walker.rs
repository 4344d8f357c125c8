//! Walker cases (`AcyclicGraph.Walk`, `dag.Walker`): a case's script parsed into actions, run as
//! the callback of the crate's one walker, [`crate::walk::Walk`], with the visits and the error
//! checked (see [`run_walk_case`]).

use super::case_graph::{add_name, build, connect_names, expect_eq, strs};
use super::strict::{self, keys, object, opt_array, opt_bool, opt_str, opt_strings};
use crate::dag::Graph;
use crate::walk::{
    Behaviour, DurationModel, Execution, Executor, Gate, Transition, VertexRef, Walk, WalkOptions,
};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

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
