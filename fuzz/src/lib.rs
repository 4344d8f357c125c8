//! What the fuzz targets share: turning bytes into named files, and the checks run on every graph
//! that comes out (lay it out, walk it, assert the basic invariants).

use std::collections::BTreeMap;
use tfgraph::builder::BuilderKind;
use tfgraph::dag::{Graph, Vertex};
use tfgraph::layout::{self, Input, LayoutOptions};
use tfgraph::pipeline::{self, Request};
use tfgraph::walk::{DurationModel, Scenario, WalkOptions, simulate};

/// The files a `config_builders` input is split into, in order, at NUL bytes. A plain `.tf` text
/// (no NUL) is just `main.tf`, so real configurations are good seeds as they are. An eighth part,
/// if present, holds request options, one a line: `-var=NAME=VALUE`, `-target=ADDR`,
/// `-exclude=ADDR`.
pub const CONFIG_FILES: [&str; 7] = [
    "main.tf",
    "variables.tf",
    "outputs.tf",
    "main.tf.json",
    "modules/x/main.tf",
    "modules/x/variables.tf",
    "override.tf",
];

/// Splits `data` at NUL bytes into [`CONFIG_FILES`] (bytes beyond the last name go into it);
/// invalid UTF-8 is replaced, as a browser's text area or `fs::read_to_string` + lossy would.
pub fn config_files(data: &[u8]) -> BTreeMap<String, String> {
    config_request(data).files
}

/// A plan request from a `config_builders` input: the files of [`config_files`] and the options
/// of the eighth part.
pub fn config_request(data: &[u8]) -> Request {
    let mut files = BTreeMap::new();
    let mut parts = data.splitn(CONFIG_FILES.len() + 1, |b| *b == 0);
    for name in CONFIG_FILES {
        let Some(p) = parts.next() else { break };
        if !p.is_empty() {
            files.insert(name.to_string(), String::from_utf8_lossy(p).into_owned());
        }
    }
    let mut req = Request::new(files, BuilderKind::Plan);
    if let Some(opts) = parts.next() {
        for line in String::from_utf8_lossy(opts).lines() {
            if let Some(v) = line.strip_prefix("-var=") {
                req.vars.push(tfgraph::pipeline::VarInput::var(v));
            } else if let Some(t) = line.strip_prefix("-target=") {
                req.targets.push(t.to_string());
            } else if let Some(x) = line.strip_prefix("-exclude=") {
                req.excludes.push(x.to_string());
            }
        }
    }
    req
}

/// Runs the pipeline for every builder kind; each graph that comes out is laid out and walked.
pub fn every_builder(base: &Request) {
    for kind in BuilderKind::ALL {
        let mut req = base.clone();
        req.kind = kind;
        match pipeline::run(&req) {
            Ok(out) => {
                let g = out.built.graph.dag();
                let (input, _) = layout::inputs::input_from_plan(g, false);
                check_layout(&input, &LayoutOptions::default());
                let mut scenario = Scenario::new(DurationModel::table());
                if let Some(e) = out.expander() {
                    scenario = scenario.with_expander(e);
                }
                check_walk(g, &WalkOptions::default(), scenario, &BTreeMap::new());
            }
            Err(diags) => assert!(!diags.is_empty(), "an error without diagnostics"),
        }
    }
}

/// Lays `input` out and checks what every layout must satisfy: every vertex placed once, every
/// coordinate finite, every routed edge an input edge.
pub fn check_layout(input: &Input, opts: &LayoutOptions) -> layout::Layout {
    let l = layout::layout(input, opts);
    assert_eq!(l.nodes.len(), input.nodes.len(), "every vertex is placed");
    for (n, i) in l.nodes.iter().zip(&input.nodes) {
        assert_eq!(n.id, i.id, "nodes keep the input order");
        for v in [n.x, n.y, n.w, n.h] {
            assert!(v.is_finite(), "vertex {:?} at {v}", n.name);
        }
        assert!(
            n.w >= 0.0 && n.h >= 0.0,
            "vertex {:?} has a negative size",
            n.name
        );
    }
    for e in &l.edges {
        for (x, y) in &e.points {
            assert!(x.is_finite() && y.is_finite(), "edge point ({x}, {y})");
        }
    }
    for c in &l.clusters {
        for v in [c.x, c.y, c.w, c.h] {
            assert!(v.is_finite(), "cluster {:?} at {v}", c.path);
        }
    }
    assert!(l.width.is_finite() && l.height.is_finite());
    let _ = l.metrics();
    let _ = layout::svg::render_names(&l);
    l
}

/// Walks `g` to the end with the instant driver and checks the log: every task finishes exactly
/// once (or is upstream-failed / cancelled, or waits forever on a cycle), never more than
/// `parallelism` run at once, nothing runs before what it depends on finished, failures named in
/// `failing` fail and their dependents do not run.
pub fn check_walk<V: Vertex>(
    g: &Graph<V>,
    opts: &WalkOptions,
    scenario: Scenario,
    failing: &BTreeMap<String, String>,
) {
    use tfgraph::walk::Transition as T;
    let r = simulate(g, opts, scenario);
    let p = opts.parallelism.max(1);
    assert_eq!(r.parallelism, p);
    let mut running = 0usize;
    let mut is_running = vec![false; r.tasks.len()];
    let mut finished = vec![0usize; r.tasks.len()];
    let mut last = std::time::Duration::ZERO;
    for e in &r.events {
        assert!(e.time >= last, "time goes back at {e:?}");
        last = e.time;
        let i = e.task.index();
        assert!(i < r.tasks.len(), "event of an unknown task");
        match &e.transition {
            T::Running => {
                assert!(!is_running[i], "{} runs twice at once", e.name);
                // Everything it depends on finished before it started.
                for d in &r.tasks[i].deps {
                    assert!(
                        finished[d.index()] == 1,
                        "{} runs before its dependency {} finished",
                        e.name,
                        r.tasks[d.index()].name
                    );
                    assert!(
                        !r.tasks[d.index()].status.has_errors(),
                        "{} ran after a failure",
                        e.name
                    );
                }
                is_running[i] = true;
                running += 1;
                assert!(running <= p, "{running} running with parallelism {p}");
            }
            T::Expanded { .. } | T::InstancesUnknown(_) | T::Done | T::Failed(_) => {
                if is_running[i] {
                    is_running[i] = false;
                    running -= 1;
                }
                if e.transition.is_finished() {
                    finished[i] += 1;
                }
            }
            T::UpstreamFailed | T::Cancelled => {
                assert!(!is_running[i], "{} cancelled while running", e.name);
                finished[i] += 1;
            }
            T::WaitingOnDeps | T::WaitingForPermit => {}
        }
    }
    assert_eq!(running, 0, "tasks still running at the end");
    let acyclic = g.cycles().is_empty() && g.edges().iter().all(|(f, t)| f != t);
    for (t, n) in r.tasks.iter().zip(&finished) {
        assert!(*n <= 1, "{} finished {n} times", t.name);
        if acyclic {
            assert_eq!(*n, 1, "{} never finished ({:?})", t.name, t.status);
        }
        if *n == 1 {
            assert!(t.status.is_finished());
        }
        if t.parent.is_none() && failing.contains_key(&t.name) && t.started.is_some() {
            assert!(
                matches!(t.status, T::Failed(_)),
                "{} should fail: {:?}",
                t.name,
                t.status
            );
        }
    }
    let _ = r.metrics();
    let _ = r.log_text();
}

/// A small configuration for the readers of state, plan and schemas to act on: resources of the
/// types the conformance corpus uses, references, a data source, a module, an output.
pub const SMALL_CONFIG: &str = r#"variable "foo" {
  default = "bar"
}

provider "aws" {
  test_string = openstack_floating_ip.random.test_string
}

resource "openstack_floating_ip" "random" {}

resource "aws_instance" "web" {
  count       = 2
  test_string = var.foo
  test_list   = [aws_instance.other.id]
}

resource "aws_instance" "other" {}

resource "test_object" "a" {
  test_string = aws_instance.web[0].id
  nested {
    value = data.test_object.d.id
  }
}

data "test_object" "d" {}

module "child" {
  source = "./modules/child"
  in     = test_object.a.test_string
}

output "out" {
  value = module.child.out
}
"#;

/// The child module of [`SMALL_CONFIG`].
pub const SMALL_CHILD: &str = r#"variable "in" {}

resource "test_object" "b" {
  for_each    = toset(["x", "y"])
  test_string = var.in
}

output "out" {
  value = test_object.b["x"].id
}
"#;

/// A plan request over [`SMALL_CONFIG`].
pub fn small_request() -> Request {
    Request::new(
        BTreeMap::from([
            ("main.tf".to_string(), SMALL_CONFIG.to_string()),
            ("modules/child/main.tf".to_string(), SMALL_CHILD.to_string()),
        ]),
        BuilderKind::Plan,
    )
}
