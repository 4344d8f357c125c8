//! The fuzz targets' checks, one module per target (`fuzz_targets/NAME.rs` only hands libFuzzer's
//! bytes to `NAME::run`), and what they share: turning bytes into named files and requests, and
//! the invariants of a built graph, a layout and a walk. Each target checks one thing, so it runs
//! fast (one builder per execution; layout and walk on their own).
//!
//! The main crate's `tests/fuzz_regressions.rs` includes this file as a module and replays every
//! input under `fuzz/regressions/NAME/` through `NAME::run` natively, without a fuzzer: nothing
//! here may name this crate (`crate::`, `tfgraph_fuzz::`).

use std::collections::BTreeMap;
use tfgraph::builder::BuilderKind;
use tfgraph::dag::{Graph, Vertex};
use tfgraph::layout::{self, Input, LayoutOptions};
use tfgraph::pipeline::{self, Request};
use tfgraph::walk::{Scenario, WalkOptions, simulate};

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

/// Runs the pipeline once, for `req.kind`: a graph that comes out has passed validation (no
/// cycle, no self-loop) and renders as text; an error comes with at least one diagnostic. Laying
/// out and walking are fuzzed by their own targets.
pub fn build_checked(req: &Request) {
    match pipeline::run(req) {
        Ok(out) => {
            let g = out.built.graph.dag();
            assert!(g.cycles().is_empty(), "a built graph with a cycle");
            assert!(
                g.edges().iter().all(|(f, t)| f != t),
                "a built graph with a self-loop"
            );
            let _ = g.string();
        }
        Err(diags) => assert!(!diags.is_empty(), "an error without diagnostics"),
    }
}

/// [`build_checked`] for a `config_*` input with the builder `kind`.
pub fn config_with(data: &[u8], kind: BuilderKind) {
    let mut req = config_request(data);
    req.kind = kind;
    build_checked(&req);
}

/// Of the builders that read a state (plan, plan-destroy, apply), the one an input of `len`
/// bytes goes through: each execution runs one builder, and the corpus reaches all three.
pub fn state_reader_kind(len: usize) -> BuilderKind {
    [
        BuilderKind::Plan,
        BuilderKind::PlanDestroy,
        BuilderKind::Apply,
    ][len % 3]
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
pub mod dot_import {
    //! DOT text through the DOT reader of the CLI and the app (`parse_dot`) into a graph, and
    //! through the layout's DOT input (`input_from_dot`) and back to DOT. Laying out and walking
    //! are fuzzed on their own (`dot_layout`, `walk`), so this target stays fast.
    use super::*;
    use tfgraph::dag::Graph;

    pub fn run(data: &[u8]) {
        let text = String::from_utf8_lossy(data);
        if let Ok((vertices, edges)) = tfgraph::dag::import::parse_dot("in.dot", &text) {
            let mut g = Graph::new();
            let ids: BTreeMap<&str, _> = vertices
                .iter()
                .map(|v| (v.as_str(), g.add(v.clone())))
                .collect();
            for (f, t) in &edges {
                let (Some(a), Some(b)) = (ids.get(f.as_str()), ids.get(t.as_str())) else {
                    panic!("edge {f:?} -> {t:?} names a vertex the reader did not return");
                };
                g.connect(*a, *b);
            }
            assert_eq!(g.len(), ids.len(), "one vertex per name");
            let _ = g.string();
        }
        if let Ok(input) = tfgraph::layout::inputs::input_from_dot(&text) {
            let _ = tfgraph::layout::inputs::input_to_dot(
                &input,
                tfgraph::layout::Direction::LeftToRight,
            );
        }
    }
}

pub mod dot_layout {
    //! DOT text through the layout's DOT input (`input_from_dot`, what the page draws for an
    //! imported DOT file), laid out and checked.
    use super::*;

    pub fn run(data: &[u8]) {
        let text = String::from_utf8_lossy(data);
        if let Ok(input) = tfgraph::layout::inputs::input_from_dot(&text) {
            // The page lays out no more than this (`page::scene::too_big_to_lay_out`, its one
            // test of its limits); a few kilobytes of DOT can name hundreds of thousands of edges
            // (`{a b c} -> {a b c}`), or edges that span hundreds of layers once cycles are
            // broken, which would only measure the layout's speed, not find a crash.
            let shape = input.edges.iter().copied();
            if tfgraph::page::scene::too_big_to_lay_out(input.nodes.len(), shape).is_some() {
                return;
            }
            check_layout(&input, &LayoutOptions::default());
        }
    }
}

pub mod layout_graph {
    //! An arbitrary graph (names, sizes including NaN and infinities, edges with cycles and self
    //! loops, nested clusters, an order hint from a previous layout) through the layout engine; every
    //! vertex must be placed at finite coordinates.
    use super::*;
    use arbitrary::Arbitrary;
    use std::collections::BTreeMap;
    use tfgraph::dag::Graph;
    use tfgraph::layout::{Direction, Input, InputNode, LayoutOptions};

    #[derive(Debug, Arbitrary)]
    struct Node {
        name: String,
        width: f64,
        height: f64,
        /// Cluster path as indexes into a few names, so that vertices share clusters.
        cluster: Vec<u8>,
    }

    #[derive(Debug, Arbitrary)]
    struct Case {
        nodes: Vec<Node>,
        edges: Vec<(u16, u16)>,
        left_to_right: bool,
        transpose: bool,
        max_sweeps: u8,
        coord_passes: u8,
        previous: Option<Vec<(u16, f64)>>,
        /// Lay out twice, the second time with the first layout's order hint.
        relayout: bool,
    }

    pub fn run(data: &[u8]) {
        let Ok(case) = Case::arbitrary_take_rest(arbitrary::Unstructured::new(data)) else {
            return;
        };
        let mut ids = Graph::<()>::new();
        let n = case.nodes.len();
        let input = Input {
            nodes: case
                .nodes
                .iter()
                .map(|nd| InputNode {
                    typed: Default::default(),
                    id: ids.add(()),
                    name: nd.name.clone(),
                    width: nd.width,
                    height: nd.height,
                    cluster: nd
                        .cluster
                        .iter()
                        .map(|c| format!("module.m{}", c % 4))
                        .collect(),
                })
                .collect(),
            // Out-of-range indexes are kept on purpose: the layout must ignore them.
            edges: case
                .edges
                .iter()
                .map(|&(a, b)| (usize::from(a) % (n + 1), usize::from(b) % (n + 1)))
                .collect(),
        };
        let previous = case.previous.map(|p| {
            p.iter()
                .filter_map(|(i, x)| Some((case.nodes.get(usize::from(*i))?.name.clone(), *x)))
                .collect::<BTreeMap<_, _>>()
        });
        let opts = LayoutOptions {
            direction: if case.left_to_right {
                Direction::LeftToRight
            } else {
                Direction::TopToBottom
            },
            transpose: case.transpose,
            max_sweeps: usize::from(case.max_sweeps % 40),
            coord_passes: usize::from(case.coord_passes % 20),
            previous,
            ..LayoutOptions::default()
        };
        let l = check_layout(&input, &opts);
        if case.relayout {
            let hinted = LayoutOptions {
                previous: Some(l.order_hint()),
                ..opts.clone()
            };
            check_layout(&input, &hinted);
            // Near the first layout (an edit in the page): the same input, and the input
            // without its last vertex.
            let sticky = LayoutOptions {
                sticky: Some(std::sync::Arc::new(l)),
                ..opts
            };
            check_layout(&input, &sticky);
            if n > 0 {
                let fewer = Input {
                    nodes: input.nodes[..n - 1].to_vec(),
                    edges: input.edges.clone(),
                };
                check_layout(&fewer, &sticky);
            }
        }
    }
}

pub mod walk {
    //! The async walker on the instant driver over an arbitrary graph (a DAG, or with cycles when
    //! asked), arbitrary durations (zero, huge, a durations file, NaN or infinite jitter), parallelism
    //! 0..=255, injected failures and expansion into instances. The log must obey the walk's rules.
    use super::*;
    use arbitrary::Arbitrary;
    use std::collections::BTreeMap;
    use std::time::Duration;
    use tfgraph::dag::Graph;
    use tfgraph::walk::{DurationModel, Scenario, VertexRef, WalkOptions};

    #[derive(Debug, Arbitrary)]
    enum Name {
        /// `aws_instance.v<i>`-style names, classified as resources.
        Resource(u8),
        Data(u8),
        Provider(u8),
        Module(u8),
        Any(String),
    }

    #[derive(Debug, Arbitrary)]
    struct V {
        name: Name,
        /// Exact duration in nanoseconds (any u64, huge included).
        nanos: Option<u64>,
        /// Fails with this message.
        fail: Option<String>,
        /// Expands into this many instances (mod 9); instance `k` fails when bit k of the mask is set.
        expand: Option<(u8, u8)>,
    }

    #[derive(Debug, Arbitrary)]
    struct Case {
        vertices: Vec<V>,
        /// `(from, to)`: from depends on to. Without `cycles`, only edges to an earlier vertex are kept.
        edges: Vec<(u8, u8)>,
        cycles: bool,
        parallelism: u8,
        reverse: bool,
        jitter: f64,
        seed: u64,
        uniform_secs: Option<u64>,
        durations_file: Option<String>,
    }

    fn name(n: &Name) -> String {
        match n {
            Name::Resource(i) => format!("aws_instance.v{i}"),
            Name::Data(i) => format!("data.aws_ami.v{i}"),
            Name::Provider(i) => format!("provider[\"registry.opentofu.org/hashicorp/p{i}\"]"),
            Name::Module(i) => format!("module.m{i} (expand)"),
            Name::Any(s) => s.clone(),
        }
    }

    pub fn run(data: &[u8]) {
        let Ok(case) = Case::arbitrary_take_rest(arbitrary::Unstructured::new(data)) else {
            return;
        };
        let mut g = Graph::new();
        let names: Vec<String> = case.vertices.iter().map(|v| name(&v.name)).collect();
        let ids: Vec<_> = names.iter().map(|n| g.add(n.clone())).collect();
        if !ids.is_empty() {
            for &(a, b) in &case.edges {
                let (a, b) = (usize::from(a) % ids.len(), usize::from(b) % ids.len());
                if case.cycles || b < a {
                    g.connect(ids[a], ids[b]);
                }
            }
        }
        let mut durations = DurationModel::table()
            .with_seed(case.seed)
            .with_jitter(case.jitter);
        durations.uniform = case.uniform_secs.map(Duration::from_secs);
        if let Some(f) = &case.durations_file
            && let Ok(d) = durations.clone().with_file(f)
        {
            durations = d;
        }
        let mut failing = BTreeMap::new();
        let mut expansions = BTreeMap::new();
        for (v, n) in case.vertices.iter().zip(&names) {
            if let Some(ns) = v.nanos {
                durations
                    .overrides
                    .insert(n.clone(), Duration::from_nanos(ns));
            }
            if let Some(m) = &v.fail {
                failing.insert(n.clone(), m.clone());
            }
            if let Some((k, mask)) = v.expand {
                let k = usize::from(k % 9);
                for i in 0..k {
                    if mask & (1 << i) != 0 {
                        failing.insert(format!("{n}[{i}]"), format!("instance {i} failed"));
                    }
                }
                expansions.insert(n.clone(), k);
            }
        }
        let mut scenario = Scenario::new(durations);
        for (n, m) in &failing {
            scenario = scenario.fail(n.clone(), m.clone());
        }
        let scenario = scenario.with_expander(move |v: &VertexRef| {
            if v.parent.is_some() {
                return None;
            }
            let k = *expansions.get(&v.name)?;
            let mut sub = Graph::new();
            let mut prev = None;
            for i in 0..k {
                let id = sub.add(format!("{}[{i}]", v.name));
                // Every other instance depends on the one before it.
                if let Some(p) = prev.filter(|_| i % 2 == 1) {
                    sub.connect(id, p);
                }
                prev = Some(id);
            }
            Some(sub)
        });
        let opts = WalkOptions {
            parallelism: usize::from(case.parallelism),
            reverse: case.reverse,
        };
        check_walk(&g, &opts, scenario, &failing);
    }
}

pub mod share_link {
    //! Share links (`tfgraph::share`): decoding whatever a stranger's link holds, at three depths (the
    //! raw fragment; base64url of the bytes, to reach the inflater; base64url of the deflated bytes,
    //! to reach the JSON reader), and `decode(encode(files)) == files` for every file map that
    //! `encode` accepts.
    use arbitrary::{Arbitrary, Unstructured};
    use base64::Engine as _;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use std::collections::BTreeMap;
    use tfgraph::share::{self, ShareError};

    fn decode_checked(fragment: &str) {
        if let Ok(files) = share::decode(fragment) {
            assert!(files.len() <= share::MAX_FILES);
            for p in files.keys() {
                assert!(share::check_path(p).is_ok(), "decoded a bad path {p:?}");
            }
            // What a link held can be written back (unless it no longer fits in a link).
            match share::encode(&files) {
                Ok(again) => assert_eq!(share::decode(&again).as_ref(), Ok(&files)),
                Err(ShareError::TooLong(_) | ShareError::TooBig) => {}
                Err(e) => panic!("decoded files do not encode: {e}"),
            }
        }
    }

    pub fn run(data: &[u8]) {
        let Some((mode, rest)) = data.split_first() else {
            return;
        };
        match mode % 4 {
            0 => decode_checked(&String::from_utf8_lossy(rest)),
            1 => decode_checked(&format!(
                "{}{}",
                share::PREFIX,
                URL_SAFE_NO_PAD.encode(rest)
            )),
            2 => {
                let packed = miniz_oxide::deflate::compress_to_vec(rest, 1);
                decode_checked(&format!(
                    "#{}{}",
                    share::PREFIX,
                    URL_SAFE_NO_PAD.encode(packed)
                ));
            }
            _ => {
                let Ok(files) =
                    BTreeMap::<String, String>::arbitrary_take_rest(Unstructured::new(rest))
                else {
                    return;
                };
                match share::encode(&files) {
                    Ok(fragment) => {
                        assert!(fragment.len() <= share::MAX_ENCODED);
                        assert_eq!(share::decode(&fragment), Ok(files));
                    }
                    Err(ShareError::BadPath(p)) => {
                        assert!(files.keys().any(|k| share::check_path(k).is_err()), "{p:?}");
                    }
                    Err(ShareError::TooManyFiles(n)) => assert!(n > share::MAX_FILES),
                    Err(ShareError::TooLong(_) | ShareError::TooBig) => {}
                    Err(e) => panic!("encode failed: {e}"),
                }
            }
        }
    }
}

pub mod saved_data {
    //! The app's autosave (`tfgraph::saved`): whatever localStorage holds under the current key and
    //! format 1's keys is classified without a panic, unusable data keeps its raw text, and saved
    //! files read back as they were.
    use arbitrary::Arbitrary;
    use std::collections::BTreeMap;
    use tfgraph::saved::{self, Restored};

    #[derive(Debug, Arbitrary)]
    struct Case {
        current: Option<String>,
        v1_files: Option<String>,
        v1_main: Option<String>,
        files: BTreeMap<String, String>,
    }

    pub fn run(data: &[u8]) {
        let Ok(case) = Case::arbitrary_take_rest(arbitrary::Unstructured::new(data)) else {
            return;
        };
        let r = saved::classify(
            case.current.as_deref(),
            case.v1_files.as_deref(),
            case.v1_main.as_deref(),
        );
        match &r {
            Restored::Nothing => {
                assert!(case.current.is_none() && case.v1_files.is_none() && case.v1_main.is_none())
            }
            Restored::Unusable { raw, why } => {
                assert!(!why.is_empty());
                assert!(Some(raw) == case.current.as_ref() || Some(raw) == case.v1_files.as_ref());
            }
            Restored::Files(files) | Restored::Converted { files, .. } => {
                for p in files.keys() {
                    assert!(
                        tfgraph::share::check_path(p).is_ok(),
                        "restored a bad path {p:?}"
                    );
                }
            }
        }
        let usable = case.files.len() <= tfgraph::share::MAX_FILES
            && case
                .files
                .keys()
                .all(|p| tfgraph::share::check_path(p).is_ok());
        match saved::classify(Some(&saved::envelope(&case.files)), None, None) {
            Restored::Files(f) => assert_eq!(f, case.files),
            Restored::Unusable { .. } => assert!(!usable, "saved files do not read back"),
            other => panic!("{other:?}"),
        }
    }
}
/// One module per builder for configuration inputs: the input split at NUL bytes into
/// [`CONFIG_FILES`], then options (`-var=`, `-target=`, `-exclude=` lines), built once.
macro_rules! config_target {
    ($name:ident, $kind:expr, $doc:literal) => {
        pub mod $name {
            #![doc = $doc]
            use super::*;

            pub fn run(data: &[u8]) {
                config_with(data, $kind);
            }
        }
    };
}

config_target!(
    config_plan,
    BuilderKind::Plan,
    "Configuration files (see [`super::config_request`]) through the plan graph builder."
);
config_target!(
    config_apply,
    BuilderKind::Apply,
    "Configuration files (see [`super::config_request`]) through the apply graph builder."
);
config_target!(
    config_validate,
    BuilderKind::Validate,
    "Configuration files (see [`super::config_request`]) through the validate graph builder."
);
config_target!(
    config_plan_destroy,
    BuilderKind::PlanDestroy,
    "Configuration files (see [`super::config_request`]) through the plan-destroy graph builder."
);
config_target!(
    config_plan_refresh_only,
    BuilderKind::PlanRefreshOnly,
    "Configuration files (see [`super::config_request`]) through the refresh-only plan graph builder."
);

pub mod state_json {
    //! State JSON (format version 4): the reader, then one builder that reads a state (chosen by
    //! the input's length) over a small configuration with that state.
    use super::*;
    use tfgraph::pipeline::NamedText;

    pub fn run(data: &[u8]) {
        let text = String::from_utf8_lossy(data);
        if let Ok(state) = tfgraph::state::parse_state_json(&text) {
            let _ = state.module_instances();
            let _ = state.is_empty();
            let mut req = small_request();
            req.kind = state_reader_kind(data.len());
            req.state = Some(NamedText::new("terraform.tfstate", text.into_owned()));
            build_checked(&req);
        }
    }
}

pub mod plan_json {
    //! Planned changes: `tofu show -json` output and the conformance `changes` list (the first
    //! byte chooses which reader), then the apply graph of a small configuration with them.
    use super::*;
    use tfgraph::pipeline::NamedText;

    pub fn run(data: &[u8]) {
        let Some((first, rest)) = data.split_first() else {
            return;
        };
        let text = String::from_utf8_lossy(rest);
        let conformance = first & 1 == 1;
        let parsed = if conformance {
            serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .map(|v| tfgraph::plan::changes_from_conformance(&v).is_ok())
        } else {
            Some(tfgraph::plan::changes_from_show_json(&text).is_ok())
        };
        if parsed == Some(true) {
            let mut req = small_request();
            req.kind = BuilderKind::Apply;
            let t = Some(NamedText::new("plan.json", text.into_owned()));
            if conformance {
                req.changes = t;
            } else {
                req.plan_json = t;
            }
            build_checked(&req);
        }
    }
}

pub mod schemas_json {
    //! Provider schemas (`tofu providers schema -json`): the reader, then the plan graph of a
    //! small configuration with those schemas.
    use super::*;
    use tfgraph::pipeline::NamedText;

    pub fn run(data: &[u8]) {
        let text = String::from_utf8_lossy(data);
        if tfgraph::schema::parse_schemas_json(&text).is_ok() {
            let mut req = small_request();
            req.schemas = Some(NamedText::new("schemas.json", text.into_owned()));
            build_checked(&req);
        }
    }
}

pub mod var_files {
    //! Root variable values: the input split at NUL bytes into `terraform.tfvars` (HCL),
    //! `x.auto.tfvars.json` (JSON), and `-var` lines; each file read alone (every assignment has a
    //! position inside its file), then all of them resolved against the declarations of a small
    //! configuration and a plan graph built with them.
    use super::*;
    use tfgraph::config::vars::{self, VarInput};

    pub fn run(data: &[u8]) {
        let mut parts = data.splitn(3, |b| *b == 0).map(String::from_utf8_lossy);
        let hcl_text = parts.next().unwrap_or_default().into_owned();
        let json_text = parts.next().unwrap_or_default().into_owned();
        let cli = parts.next().unwrap_or_default().into_owned();
        for (name, text) in [
            ("terraform.tfvars", &hcl_text),
            ("x.auto.tfvars.json", &json_text),
        ] {
            let (assignments, diags) = vars::parse_tfvars(name, text);
            let lines = text.split('\n').count();
            for (var, _, range) in &assignments {
                // HCL names are identifiers; a JSON file's property names are taken as written
                // (OpenTofu's JSON body gives `""` as a name, and warns it is undeclared).
                if name.ends_with(".tfvars") {
                    assert!(!var.is_empty(), "an assignment without a name in {name}");
                }
                assert_eq!(&*range.file, name, "{var:?} placed in another file");
                assert!(
                    range.start.line >= 1 && range.start.line <= lines,
                    "{var:?} placed at line {} of {lines}",
                    range.start.line
                );
                assert!(range.start.byte <= range.end.byte && range.end.byte <= text.len());
            }
            for d in &diags {
                if let Some(r) = &d.range {
                    assert_eq!(&*r.file, name, "{d} placed in another file");
                    assert!(
                        r.start.line >= 1 && r.start.line <= lines,
                        "{d} beyond the file"
                    );
                }
            }
        }
        let mut inputs = vec![
            VarInput::AutoFile {
                name: "terraform.tfvars".into(),
                text: hcl_text,
            },
            VarInput::AutoFile {
                name: "x.auto.tfvars.json".into(),
                text: json_text,
            },
        ];
        inputs.extend(cli.lines().map(VarInput::var));
        let _ = vars::collect(&inputs);
        let mut req = small_request();
        req.vars = inputs;
        build_checked(&req);
    }
}

pub mod module_manifest {
    //! The installed modules' manifest (`.terraform/modules/modules.json`): the reader, then the
    //! plan graph of a small configuration whose module call the manifest may place anywhere.
    use super::*;

    pub fn run(data: &[u8]) {
        let text = String::from_utf8_lossy(data);
        match tfgraph::config::manifest::parse_manifest(&text) {
            Ok(m) => {
                for (key, r) in &m.records {
                    assert_eq!(key, &r.key, "a record filed under another key");
                }
                let mut req = small_request();
                req.files.insert(
                    tfgraph::config::manifest::MANIFEST_PATH.to_string(),
                    text.into_owned(),
                );
                build_checked(&req);
            }
            Err(d) => assert!(!d.summary.is_empty(), "a manifest error without a summary"),
        }
    }
}

pub mod restore_round_trip {
    //! What a share link holds, through the app's restore path: decoded (`share::decode`), saved
    //! as the app saves its workspace (`saved::envelope`) and restored from storage
    //! (`saved::classify`): the files come back exactly, and encoding them again gives a link
    //! that decodes to them. The first byte picks how deep the bytes go (the raw fragment, or
    //! base64url of the bytes or of their deflated form, to reach the inflater and JSON reader).
    use base64::Engine as _;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use tfgraph::saved::{self, Restored};
    use tfgraph::share;

    pub fn run(data: &[u8]) {
        let Some((first, rest)) = data.split_first() else {
            return;
        };
        let fragment = match first % 3 {
            0 => String::from_utf8_lossy(rest).into_owned(),
            1 => format!("#v1.{}", URL_SAFE_NO_PAD.encode(rest)),
            _ => format!(
                "#v1.{}",
                URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(rest, 6))
            ),
        };
        let Ok(files) = share::decode(&fragment) else {
            return;
        };
        match saved::classify(Some(&saved::envelope(&files)), None, None) {
            Restored::Files(back) => assert_eq!(back, files, "restored files differ"),
            Restored::Nothing if files.is_empty() => {}
            other => panic!("a share link's files do not restore: {other:?}"),
        }
        if let Ok(again) = share::encode(&files) {
            assert_eq!(share::decode(&again).as_ref(), Ok(&files));
        }
    }
}
