//! What the app shows, computed from the engine without touching the DOM: the analysis of the
//! editor's files (graph, steps, diagnostics, cycles), the replay of the builder's recorded steps,
//! and the laid-out scene the SVG view draws. Plain data only (`Send + Sync`), so it can live in
//! Leptos signals.

use crate::builder::{self, BuilderKind, Step};
use crate::config::{self, Diagnostic};
use crate::dag::{self, VertexId};
use crate::layout::{self, LayoutOptions};
use crate::pipeline::{self, Request};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;

/// How a vertex is drawn: one colour and shape per kind (see the legend).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Resource,
    Data,
    Provider,
    Variable,
    Local,
    Output,
    ModuleExpand,
    ModuleClose,
    Root,
    Destroy,
    /// A module collapsed into one vertex by the viewer (not an OpenTofu vertex).
    Collapsed,
    Other,
}

impl Kind {
    pub const LEGEND: [Kind; 12] = [
        Kind::Resource,
        Kind::Data,
        Kind::Provider,
        Kind::Variable,
        Kind::Local,
        Kind::Output,
        Kind::ModuleExpand,
        Kind::ModuleClose,
        Kind::Root,
        Kind::Destroy,
        Kind::Collapsed,
        Kind::Other,
    ];

    /// The CSS class suffix (`kind-…`).
    pub fn css(self) -> &'static str {
        match self {
            Kind::Resource => "resource",
            Kind::Data => "data",
            Kind::Provider => "provider",
            Kind::Variable => "variable",
            Kind::Local => "local",
            Kind::Output => "output",
            Kind::ModuleExpand => "module-expand",
            Kind::ModuleClose => "module-close",
            Kind::Root => "root",
            Kind::Destroy => "destroy",
            Kind::Collapsed => "collapsed",
            Kind::Other => "other",
        }
    }

    /// Words for people.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Resource => "resource",
            Kind::Data => "data source",
            Kind::Provider => "provider",
            Kind::Variable => "variable",
            Kind::Local => "local value",
            Kind::Output => "output",
            Kind::ModuleExpand => "module expand",
            Kind::ModuleClose => "module close",
            Kind::Root => "root",
            Kind::Destroy => "destroy / deposed",
            Kind::Collapsed => "collapsed module",
            Kind::Other => "other",
        }
    }
}

/// The suffix of the vertex that stands for a collapsed module: `module.net (collapsed: 6)`.
pub const COLLAPSED: &str = "collapsed";

/// The name of the vertex standing for the collapsed module `path` (`module.a.module.b`), which
/// hides `hidden` vertices.
pub fn collapsed_name(path: &str, hidden: usize) -> String {
    format!("{path} ({COLLAPSED}: {hidden})")
}

/// The module path a collapsed module's vertex stands for.
pub fn collapsed_path(name: &str) -> Option<&str> {
    name.find(&format!(" ({COLLAPSED}")).map(|i| &name[..i])
}

/// Splits leading `module.NAME` steps off a vertex name: the module path and the rest.
fn module_prefix(name: &str) -> (Vec<String>, &str) {
    let mut path = Vec::new();
    let mut rest = name;
    while let Some(after) = rest.strip_prefix("module.") {
        let end = after.find(['.', ' ']).unwrap_or(after.len());
        let seg = &after[..end];
        match after[end..].chars().next() {
            Some('.') => {
                path.push(format!("module.{seg}"));
                rest = &after[end + 1..];
            }
            // `module.x (expand)` or `module.x`: the module's own vertex.
            _ => break,
        }
    }
    (path, rest)
}

/// The kind of a vertex, from its OpenTofu name (the same names the builder's steps record, so
/// replayed vertices that no longer exist can be classified too).
pub fn classify(name: &str) -> Kind {
    if name == "root" {
        return Kind::Root;
    }
    let (_, rest) = module_prefix(name);
    let suffix = rest.rfind(" (").map(|i| &rest[i + 2..]).unwrap_or("");
    if suffix.starts_with("destroy")
        || suffix.starts_with("deposed")
        || suffix.starts_with("orphan")
    {
        return Kind::Destroy;
    }
    if rest.starts_with("provider[") || rest.starts_with("provider.") {
        return Kind::Provider;
    }
    if rest.starts_with("module.") {
        return if suffix.starts_with(COLLAPSED) {
            Kind::Collapsed
        } else if suffix.starts_with("close") {
            Kind::ModuleClose
        } else {
            Kind::ModuleExpand
        };
    }
    let first = rest.split(['.', ' ']).next().unwrap_or("");
    match first {
        "var" => Kind::Variable,
        "local" => Kind::Local,
        "output" => Kind::Output,
        "data" => Kind::Data,
        "check" | "" => Kind::Other,
        _ if rest.contains('.') => Kind::Resource,
        _ => Kind::Other,
    }
}

/// The module cluster a vertex is drawn in: its module path; a module's own expand and close
/// vertices go inside the module's box, so each box opens with its expand and ends with its close.
pub fn cluster_of(name: &str) -> Vec<String> {
    let (mut path, rest) = module_prefix(name);
    // A collapsed module is drawn in its parent's box, in place of its own.
    if let Some(after) = rest.strip_prefix("module.")
        && !rest.contains(&format!(" ({COLLAPSED}"))
    {
        let end = after.find(['.', ' ']).unwrap_or(after.len());
        path.push(format!("module.{}", &after[..end]));
    }
    path
}

/// A diagnostic as the app lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diag {
    pub error: bool,
    /// `main.tf line 2, column 7`, when the diagnostic has a position.
    pub place: Option<String>,
    pub file: Option<String>,
    pub line: usize,
    pub summary: String,
    pub detail: String,
}

impl Diag {
    /// A warning about the inputs as a whole (no position).
    pub fn warning(summary: String) -> Diag {
        Diag {
            error: false,
            place: None,
            file: None,
            line: 0,
            summary,
            detail: String::new(),
        }
    }
}

impl From<&Diagnostic> for Diag {
    fn from(d: &Diagnostic) -> Self {
        Diag {
            error: d.is_error(),
            place: d.range.as_ref().map(|r| {
                format!(
                    "{} line {}, column {}",
                    r.file, r.start.line, r.start.column
                )
            }),
            file: d.range.as_ref().map(|r| r.file.clone()),
            line: d.range.as_ref().map_or(0, |r| r.start.line),
            summary: d.summary.clone(),
            detail: d.detail.clone(),
        }
    }
}

/// A graph by vertex name: edges `(from, to)` as indexes, "from depends on to".
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GraphData {
    pub names: Vec<String>,
    pub edges: Vec<(usize, usize)>,
}

impl GraphData {
    fn from_builder(g: &builder::Graph) -> (GraphData, BTreeMap<String, Decl>) {
        let dag = g.dag();
        let mut index = BTreeMap::new();
        let mut names = Vec::new();
        let mut decls = BTreeMap::new();
        for (id, node) in dag.iter() {
            index.insert(id, names.len());
            let name = dag::Vertex::name(node);
            if let Some(r) = node.decl_range() {
                decls.insert(
                    name.clone(),
                    Decl {
                        file: r.file.clone(),
                        line: r.start.line,
                        end_line: r.end.line.max(r.start.line),
                    },
                );
            }
            names.push(name);
        }
        let edges = dag
            .edges()
            .into_iter()
            .filter_map(|(a, b)| Some((*index.get(&a)?, *index.get(&b)?)))
            .collect();
        (GraphData { names, edges }, decls)
    }

    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Direct dependencies (what `i` depends on) and dependents, sorted by name.
    pub fn neighbours(&self, i: usize) -> (Vec<String>, Vec<String>) {
        let mut deps: Vec<String> = self
            .edges
            .iter()
            .filter(|e| e.0 == i)
            .map(|e| self.names[e.1].clone())
            .collect();
        let mut users: Vec<String> = self
            .edges
            .iter()
            .filter(|e| e.1 == i)
            .map(|e| self.names[e.0].clone())
            .collect();
        deps.sort();
        deps.dedup();
        users.sort();
        users.dedup();
        (deps, users)
    }

    /// Everything `i` depends on transitively (`up = true`) or everything that depends on it.
    pub fn reach(&self, i: usize, up: bool) -> BTreeSet<usize> {
        let mut seen = BTreeSet::new();
        let mut queue = VecDeque::from([i]);
        while let Some(v) = queue.pop_front() {
            for &(a, b) in &self.edges {
                let next = if up && a == v {
                    b
                } else if !up && b == v {
                    a
                } else {
                    continue;
                };
                if next != i && seen.insert(next) {
                    queue.push_back(next);
                }
            }
        }
        seen
    }

    /// The same graph as a `dag::Graph<String>` (for layout and the walk), with each index's id.
    pub fn to_dag(&self) -> (dag::Graph<String>, Vec<VertexId>) {
        let mut g = dag::Graph::new();
        let ids: Vec<VertexId> = self.names.iter().map(|n| g.add(n.clone())).collect();
        for &(a, b) in &self.edges {
            g.connect(ids[a], ids[b]);
        }
        (g, ids)
    }
}

/// Where a vertex is declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decl {
    pub file: String,
    pub line: usize,
    pub end_line: usize,
}

/// One run of the engine on the editor's files.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Analysis {
    /// The built graph; also present for a cycle error (the graph that has the cycle).
    pub graph: Option<GraphData>,
    pub decls: BTreeMap<String, Decl>,
    pub steps: Vec<Step>,
    pub errors: Vec<Diag>,
    pub warnings: Vec<Diag>,
    /// Vertex names of each cycle.
    pub cycles: Vec<Vec<String>>,
    /// The built graph as `tofu graph` prints it (DOT), as Mermaid and as JSON.
    pub dot: String,
    pub mermaid: String,
    pub json: String,
    /// What `(expand)` vertices expand into when the graph is walked (plan graphs).
    pub expander: Option<SharedExpander>,
    /// The DOT file the graph was imported from (no builder ran), if any.
    pub imported: Option<String>,
}

/// The pipeline's static expander, shared by the walks of one analysis. Equal when made from the
/// same files and graph type, so an unchanged re-analysis does not restart a walk.
#[derive(Clone)]
pub struct SharedExpander {
    /// Shared, not cloned per walk: a clone copies the whole configuration.
    pub expander: std::sync::Arc<std::sync::Mutex<crate::walk::StaticExpander>>,
    key: u64,
}

impl SharedExpander {
    fn new(
        e: crate::walk::StaticExpander,
        files: &BTreeMap<String, String>,
        kind: BuilderKind,
    ) -> Self {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        files.hash(&mut h);
        kind.as_str().hash(&mut h);
        SharedExpander {
            expander: std::sync::Arc::new(std::sync::Mutex::new(e)),
            key: h.finish(),
        }
    }
}

impl PartialEq for SharedExpander {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl std::fmt::Debug for SharedExpander {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedExpander")
            .field("key", &self.key)
            .finish()
    }
}

/// The most text (all files together) the app analyses. Above it the app says so instead of
/// working for seconds on every keystroke; the CLI has no such limit.
pub const MAX_INPUT_BYTES: usize = 4 * 1024 * 1024;
/// Inputs at least this large are analysed in slices that give the browser back control between
/// phases (and show progress); smaller ones are analysed at once, which is quicker than yielding.
pub const SLICE_FROM_BYTES: usize = 256 * 1024;

/// What the editor's files hold besides configuration, and how the graph is limited.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// `-target` addresses.
    pub targets: Vec<String>,
    /// `-exclude` addresses.
    pub excludes: Vec<String>,
}

/// The request for the editor's files: configuration files build the graph; a state, a plan
/// (`terraform show -json`), conformance-style changes and provider schemas among them are routed
/// to their inputs by [`super::files::classify`]. A DOT file replaces the builder altogether: its
/// graph comes back as the `Err` analysis, drawn as it is. The warnings name files that were
/// ignored.
fn route(
    files: &BTreeMap<String, String>,
    kind: BuilderKind,
    opts: &Options,
) -> (Result<Request, Analysis>, Vec<Diag>) {
    use super::files::{Role, classify};
    let mut config_files = BTreeMap::new();
    let mut inputs: BTreeMap<Role, Vec<(&String, &String)>> = BTreeMap::new();
    for (name, text) in files {
        match classify(name, text) {
            Role::Config => {
                config_files.insert(name.clone(), text.clone());
            }
            role => inputs.entry(role).or_default().push((name, text)),
        }
    }
    let mut notes = Vec::new();
    let mut first = |role: Role, what: &str| -> Option<pipeline::NamedText> {
        let list = inputs.get(&role)?;
        let (name, text) = list.first()?;
        if list.len() > 1 {
            let others: Vec<&str> = list[1..].iter().map(|(n, _)| n.as_str()).collect();
            notes.push(Diag::warning(format!(
                "Only one {what} is read: {name} is used, {} ignored.",
                others.join(", ")
            )));
        }
        Some(pipeline::NamedText::new(name.as_str(), text.as_str()))
    };
    if let Some(dot) = first(Role::Dot, "DOT graph") {
        return (Err(import_dot(&dot)), notes);
    }
    let mut req = Request::new(config_files, kind);
    req.state = first(Role::State, "state");
    req.plan_json = first(Role::Plan, "plan");
    req.changes = first(Role::Changes, "changes list");
    req.schemas = first(Role::Schemas, "provider schemas file");
    req.targets = opts.targets.clone();
    req.excludes = opts.excludes.clone();
    for (name, _) in inputs.get(&Role::Unknown).into_iter().flatten() {
        notes.push(Diag::warning(format!(
            "{name} is ignored: it is not a configuration file (.tf, .tf.json), a state, a plan, provider schemas or a DOT graph."
        )));
    }
    (Ok(req), notes)
}

/// An imported DOT graph as an analysis: drawn and walked as it is, with no builder steps.
/// `[root] ` prefixes (older `terraform graph` output) are dropped so names read as OpenTofu's.
fn import_dot(dot: &pipeline::NamedText) -> Analysis {
    match crate::dag::import::parse_dot(&dot.name, &dot.text) {
        Ok((vertices, edges)) => {
            // DOT quoted ids keep their escapes; `tofu graph` escapes only `"` and `\`.
            let clean = |n: &str| {
                let mut out = String::with_capacity(n.len());
                let mut chars = n.chars();
                while let Some(c) = chars.next() {
                    match (c, chars.clone().next()) {
                        ('\\', Some(next @ ('"' | '\\'))) => {
                            out.push(next);
                            chars.next();
                        }
                        _ => out.push(c),
                    }
                }
                out.strip_prefix("[root] ")
                    .map(str::to_string)
                    .unwrap_or(out)
            };
            let names: Vec<String> = vertices
                .iter()
                .map(|v| clean(v))
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            let index: BTreeMap<&str, usize> = names
                .iter()
                .enumerate()
                .map(|(i, n)| (n.as_str(), i))
                .collect();
            let mut seen = BTreeSet::new();
            let edges: Vec<(usize, usize)> = edges
                .iter()
                .filter_map(|(a, b)| {
                    Some((
                        *index.get(clean(a).as_str())?,
                        *index.get(clean(b).as_str())?,
                    ))
                })
                .filter(|e| e.0 != e.1 && seen.insert(*e))
                .collect();
            let graph = GraphData { names, edges };
            let (g, ids) = graph.to_dag();
            let cycles = g
                .cycles()
                .into_iter()
                .map(|c| {
                    c.iter()
                        .filter_map(|id| ids.iter().position(|x| x == id))
                        .map(|i| graph.names[i].clone())
                        .collect()
                })
                .collect();
            Analysis {
                mermaid: g.mermaid(),
                json: g.json_graph().to_json(),
                dot: dot.text.clone(),
                graph: Some(graph),
                cycles,
                imported: Some(dot.name.clone()),
                ..Analysis::default()
            }
        }
        Err(d) => Analysis {
            errors: vec![Diag::from(&d)],
            imported: Some(dot.name.clone()),
            ..Analysis::default()
        },
    }
}

/// Where a sliced analysis is, for the progress bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub label: String,
    /// Steps done and the steps in all (loading, preparing, each transform, drawing).
    pub done: usize,
    pub total: usize,
}

/// Runs the pipeline, calling `pause` between phases (loading, preparing, each transform,
/// converting); a `pause` that returns false stops the analysis (a newer edit replaced it) and
/// `None` comes back. For a cycle, builds again without the pipeline's error gate to keep the
/// graph that has the cycle so it can be drawn.
pub async fn analyze_with<P, F>(
    files: &BTreeMap<String, String>,
    kind: BuilderKind,
    opts: &Options,
    mut pause: P,
) -> Option<Analysis>
where
    P: FnMut(Progress) -> F,
    F: std::future::Future<Output = bool>,
{
    let size: usize = files.iter().map(|(p, t)| p.len() + t.len()).sum();
    if size > MAX_INPUT_BYTES {
        return Some(Analysis {
            errors: vec![Diag {
                error: true,
                place: None,
                file: None,
                line: 0,
                summary: "Input too large".into(),
                detail: format!(
                    "The files hold {:.1} MB in all; tfgraph's web app works on up to {} MB. The tfgraph command-line tool has no such limit.",
                    size as f64 / 1e6,
                    MAX_INPUT_BYTES / (1024 * 1024)
                ),
            }],
            ..Analysis::default()
        });
    }
    let (req, notes) = route(files, kind, opts);
    let req = match req {
        Ok(r) => r,
        Err(mut imported) => {
            imported.warnings.extend(notes);
            return Some(imported);
        }
    };
    // Transforms are counted once known; until then a typical builder's length.
    let mut total = 34;
    let mut done = 0;
    let mut step = |label: String, total: usize| {
        done += 1;
        Progress { label, done, total }
    };
    if !pause(step("Loading the configuration".into(), total)).await {
        return None;
    }
    let loaded = config::load_files(&req.files);
    if !pause(step("Checking references and inputs".into(), total)).await {
        return None;
    }
    let result = match pipeline::prepare(loaded, &req) {
        Err(d) => Err(d),
        Ok(prepared) => {
            let transforms = builder::steps(&prepared.inputs, kind);
            total = transforms.len() + 3;
            let mut runner = builder::Runner::new();
            for t in &transforms {
                if !pause(step(format!("Running {}", t.name()), total)).await {
                    return None;
                }
                if !runner.apply(t.as_ref()) {
                    break;
                }
            }
            drop(transforms);
            let mut built = runner.into_built();
            builder::validate_built(&mut built);
            prepared.finish(built)
        }
    };
    if !pause(step("Preparing the drawing".into(), total)).await {
        return None;
    }
    let mut a = match result {
        Ok(out) => {
            let (graph, decls) = GraphData::from_builder(&out.built.graph);
            let g = out.built.graph.dag();
            let expander = out.expander().map(|e| SharedExpander::new(e, files, kind));
            Analysis {
                dot: g.dot(&crate::dag::render::dot::DotOpts::cli_default()),
                mermaid: g.mermaid(),
                json: g.json_graph().to_json(),
                graph: Some(graph),
                decls,
                steps: out.built.steps,
                errors: Vec::new(),
                warnings: out.warnings.iter().map(Diag::from).collect(),
                cycles: Vec::new(),
                expander,
                imported: None,
            }
        }
        Err(diags) => {
            let errors: Vec<Diag> = diags.iter().map(Diag::from).collect();
            let mut a = Analysis {
                errors,
                ..Analysis::default()
            };
            let is_cycle = diags
                .iter()
                .any(|d| d.summary.contains("Cycle") || d.detail.contains("Cycle: "));
            if is_cycle
                && let (Some(cfg), load_diags) = config::load_files(&req.files)
                && !config::has_errors(&load_diags)
            {
                let mut inputs = builder::inputs_from_crate(Some(&cfg), None, None, None);
                inputs.read_bodies_without_schema = true;
                let built = builder::build(&inputs, kind);
                let (graph, decls) = GraphData::from_builder(&built.graph);
                a.cycles = built.graph.cycles();
                a.graph = Some(graph);
                a.decls = decls;
                a.steps = built.steps;
            }
            a
        }
    };
    a.warnings.extend(notes);
    Some(a)
}

/// [`analyze_with`] without pauses, at once.
pub fn analyze(files: &BTreeMap<String, String>, kind: BuilderKind, opts: &Options) -> Analysis {
    use futures::FutureExt as _;
    analyze_with(files, kind, opts, |_| std::future::ready(true))
        .now_or_never()
        .flatten()
        .unwrap_or_default()
}

/// The graph as it was after steps `0..=upto`, replayed from the recorded additions and removals
/// onto an empty graph, plus what step `upto` added and removed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replay {
    pub graph: GraphData,
    pub added: BTreeSet<String>,
    pub added_edges: BTreeSet<(String, String)>,
    /// Removed by step `upto`: drawn ghosted (they are in `graph` for drawing only).
    pub removed: BTreeSet<String>,
    pub removed_edges: BTreeSet<(String, String)>,
}

pub fn replay(steps: &[Step], upto: usize) -> Replay {
    let mut order: Vec<String> = Vec::new();
    let mut present: BTreeSet<String> = BTreeSet::new();
    let mut edges: Vec<(String, String)> = Vec::new();
    for step in steps.iter().take(upto + 1) {
        for v in &step.removed_vertices {
            present.remove(v);
        }
        for e in &step.removed_edges {
            edges.retain(|x| x != e);
        }
        for v in &step.added_vertices {
            if present.insert(v.clone()) {
                order.retain(|x| x != v);
                order.push(v.clone());
            }
        }
        for e in &step.added_edges {
            if !edges.contains(e) {
                edges.push(e.clone());
            }
        }
    }
    let last = steps.get(upto).cloned().unwrap_or_default();
    let removed: BTreeSet<String> = last
        .removed_vertices
        .iter()
        .filter(|v| !present.contains(*v))
        .cloned()
        .collect();
    let names: Vec<String> = order
        .into_iter()
        .filter(|v| present.contains(v) || removed.contains(v))
        .collect();
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut idx_edges = Vec::new();
    let removed_edges: BTreeSet<(String, String)> = last.removed_edges.iter().cloned().collect();
    for (a, b) in edges.iter().chain(removed_edges.iter()) {
        if let (Some(&x), Some(&y)) = (index.get(a.as_str()), index.get(b.as_str()))
            && !idx_edges.contains(&(x, y))
        {
            idx_edges.push((x, y));
        }
    }
    Replay {
        graph: GraphData {
            names,
            edges: idx_edges,
        },
        added: last.added_vertices.iter().cloned().collect(),
        added_edges: last.added_edges.iter().cloned().collect(),
        removed,
        removed_edges,
    }
}

/// A vertex as drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct SNode {
    pub index: usize,
    pub name: String,
    pub kind: Kind,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// An edge as drawn, from the dependency to the dependent.
#[derive(Debug, Clone, PartialEq)]
pub struct SEdge {
    /// The dependent ("from depends on to" in OpenTofu's words).
    pub from: usize,
    pub to: usize,
    pub d: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SCluster {
    pub title: String,
    /// The whole module path, `module.a.module.b`: the key for collapsing it.
    pub path: String,
    pub depth: usize,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// A laid-out graph.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scene {
    pub nodes: Vec<SNode>,
    pub edges: Vec<SEdge>,
    pub clusters: Vec<SCluster>,
    pub width: f64,
    pub height: f64,
    pub hint: BTreeMap<String, f64>,
    /// The drawing as a standalone SVG document (the layout's own renderer), for export.
    pub svg: String,
    /// Set when the graph had too many vertices to draw (see [`MAX_DRAWN`]): their number.
    pub too_big: Option<usize>,
}

/// The most vertices the app lays out and draws. A larger graph is still built, checked,
/// exported and walked, but drawing it would hold the page for seconds and show nothing legible;
/// the app says so and suggests narrowing the view.
pub const MAX_DRAWN: usize = 5_000;

/// Box size for a label drawn in the SVG's 12px monospace font.
pub fn label_size(name: &str) -> (f64, f64) {
    let (w, h) = layout::monospace_size(name);
    (w + 8.0, h + 4.0)
}

/// Lays out `g`; `previous` keeps vertices that were there before in their old order.
pub fn scene(g: &GraphData, previous: Option<BTreeMap<String, f64>>) -> Scene {
    if g.names.len() > MAX_DRAWN {
        return Scene {
            too_big: Some(g.names.len()),
            ..Scene::default()
        };
    }
    let (dg, ids) = g.to_dag();
    let index: BTreeMap<VertexId, usize> = ids.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    let opts = LayoutOptions {
        previous,
        ..LayoutOptions::default()
    };
    let l = layout::layout_graph(
        &dg,
        |_, v: &String| label_size(v),
        |_, v: &String| cluster_of(v),
        &opts,
    );
    let nodes = l
        .nodes
        .iter()
        .filter_map(|n| {
            let i = *index.get(&n.id)?;
            Some(SNode {
                index: i,
                name: n.name.clone(),
                kind: classify(&n.name),
                x: n.x,
                y: n.y,
                w: n.w,
                h: n.h,
            })
        })
        .collect();
    let edges = l
        .edges
        .iter()
        .filter_map(|e| {
            // Routed from the dependency (`e.from`) to the dependent (`e.to`).
            let dependency = *index.get(&e.from)?;
            let dependent = *index.get(&e.to)?;
            Some(SEdge {
                from: dependent,
                to: dependency,
                d: path_data(&e.points),
            })
        })
        .collect();
    let clusters = l
        .clusters
        .iter()
        .map(|c| SCluster {
            title: c.path.last().cloned().unwrap_or_default(),
            path: c.path.join("."),
            depth: c.path.len(),
            x: c.x,
            y: c.y,
            w: c.w,
            h: c.h,
        })
        .collect();
    Scene {
        nodes,
        edges,
        clusters,
        width: l.width,
        height: l.height,
        hint: l.order_hint(),
        svg: layout::svg::render_names(&l),
        too_big: None,
    }
}

/// SVG path data through the routed points: vertical runs straight, steps between layers as
/// S-curves leaving and entering vertically (the layout's own renderer draws the same shape; its
/// helper is private to the layout module).
pub fn path_data(points: &[(f64, f64)]) -> String {
    let mut d = String::new();
    let Some(&(x0, y0)) = points.first() else {
        return d;
    };
    let _ = write!(d, "M{x0:.1},{y0:.1}");
    for w in points.windows(2) {
        let ((ax, ay), (bx, by)) = (w[0], w[1]);
        if (ax - bx).abs() < 0.5 {
            let _ = write!(d, " L{bx:.1},{by:.1}");
        } else {
            let m = (ay + by) / 2.0;
            let _ = write!(d, " C{ax:.1},{m:.1} {bx:.1},{m:.1} {bx:.1},{by:.1}");
        }
    }
    d
}

/// The declaration's block: from its first line to where its braces close (at most `max`
/// lines), numbered. OpenTofu's declaration ranges cover only the block header, so the end is
/// found by counting braces (strings with braces may end it early; it is only a preview).
pub fn snippet(files: &BTreeMap<String, String>, decl: &Decl, max: usize) -> Vec<(usize, String)> {
    let Some(text) = files.get(&decl.file) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut depth = 0i64;
    for (i, l) in text.lines().enumerate().skip(decl.line.saturating_sub(1)) {
        out.push((i + 1, l.to_string()));
        for c in l.chars() {
            match c {
                '{' => {
                    depth += 1;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        let past_end = i + 1 >= decl.end_line.max(decl.line);
        if out.len() >= max || (past_end && depth <= 0) {
            break;
        }
    }
    out
}

/// What each transform does, in our words.
pub fn explain(transform: &str) -> &'static str {
    match transform {
        "ConfigTransformer" => {
            "Adds one vertex per resource and data block in the configuration (per module), before anything is connected."
        }
        "RootVariableTransformer" => {
            "Adds a vertex for each input variable of the root module, so values given on the command line have a place in the graph."
        }
        "ModuleVariableTransformer" => {
            "Adds a vertex for each variable of a child module: it evaluates the argument the module call passes in."
        }
        "LocalTransformer" => {
            "Adds a vertex for each local value; locals are evaluated on their own, like tiny resources."
        }
        "OutputTransformer" => {
            "Adds a vertex for each output value, so outputs are computed once what they reference is done."
        }
        "OrphanResourceInstanceTransformer" | "OrphanResourceInstanceCountTransformer" => {
            "Adds vertices for resource instances that are in the state but no longer in the configuration: they will be destroyed."
        }
        "OrphanOutputTransformer" => {
            "Adds vertices that remove outputs which are in the state but no longer in the configuration."
        }
        "StateTransformer" => "Adds a vertex for every resource instance recorded in the state.",
        "AttachStateTransformer" => {
            "Gives each resource instance vertex its object from the state."
        }
        "AttachResourceConfigTransformer" => {
            "Gives each resource vertex its configuration block, which later steps read for references and providers."
        }
        "DiffTransformer" => {
            "Adds the vertices that carry out the planned changes: one per instance to create, update or destroy."
        }
        "ProviderConfigTransformer" => {
            "Adds a vertex for each provider block, in every module that declares one."
        }
        "MissingProviderTransformer" => {
            "Adds a vertex for providers that resources need but no configuration declares, so they run with an empty configuration."
        }
        "ProviderTransformer" => {
            "Connects each resource to the provider configuration that serves it, following aliases and what modules inherit."
        }
        "PruneProviderTransformer" => {
            "Removes provider vertices nothing uses: no need to start a plugin for them."
        }
        "ProviderUnconfiguredTransformer" => "Marks providers that nothing configures.",
        "ProviderFunctionTransformer" => {
            "Connects vertices that call provider functions to the provider that defines them."
        }
        "CloseProviderTransformer" => {
            "Adds a closing vertex per provider that waits for every user of it, so the plugin is stopped only when all of them are done."
        }
        "AttachSchemaTransformer" => {
            "Gives each resource and provider vertex its schema, which tells the reference step which attributes are expressions."
        }
        "ModuleExpansionTransformer" => {
            "Adds an expand vertex per module call (it evaluates count and for_each) and a close vertex; everything inside the module waits on its expand."
        }
        "ReferenceTransformer" => {
            "Adds an edge from every vertex to each thing its expressions refer to: this is where implicit dependencies come from."
        }
        "AttachDependenciesTransformer" => {
            "Records on each resource which other resources it depends on, as the state will store it."
        }
        "attachResourceDependsOnTransformer" => {
            "Makes data sources and ephemeral resources wait for what their depends_on implies, so they are not read too early."
        }
        "CloseableResourceTransformer" => {
            "Adds a closing vertex per ephemeral resource that waits for everything using it, so the ephemeral object is closed before its provider."
        }
        "ExternalReferenceTransformer" => {
            "Connects vertices to references that come from outside the configuration."
        }
        "DestroyEdgeTransformer" => {
            "Reverses the order for destruction: a thing is destroyed only after everything that depended on it."
        }
        "pruneUnusedNodesTransformer" => {
            "Removes vertices a destroy-only run does not need, such as values nothing being destroyed uses."
        }
        "CBDEdgeTransformer" | "ForcedCBDTransformer" => {
            "For create_before_destroy, turns the order round so the replacement exists before the old object goes."
        }
        "TargetingTransformer" => {
            "With -target or -exclude, keeps only the vertices the selection needs."
        }
        "RemovedModuleTransformer" => {
            "Adds vertices that clean up modules which are in the state but removed from the configuration."
        }
        "CloseRootModuleTransformer" => {
            "Adds the root vertex that waits for everything else, so the graph has a single end."
        }
        "RootTransformer" => {
            "Adds a single root vertex that every vertex without dependents leads to: a graph must have exactly one."
        }
        "TransitiveReductionTransformer" => {
            "Removes edges implied by longer paths (if A needs B and B needs C, A -> C goes): same order, fewer lines."
        }
        "checkTransformer" | "checkStartTransformer" => {
            "Adds vertices for check blocks, which run after what they look at."
        }
        _ => "A step of OpenTofu's graph builder.",
    }
}

/// A `data:` URL holding `text`, for download links (percent-encoded: every byte outside the
/// unreserved set; a hand-written loop because no encoding crate is a dependency of the app).
pub fn data_url(mime: &str, text: &str) -> String {
    let mut out = format!("data:{mime};charset=utf-8,");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The steps of Terraform's "Resource Graph" description ("Building the Graph"), in its order,
/// with what OpenTofu adds: each transform belongs to one of them (see [`phase_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    Resources,
    Provisioners,
    DependsOn,
    Orphans,
    Providers,
    References,
    Root,
    DestroySplit,
    Targeting,
    Validation,
    Reduction,
}

impl Phase {
    pub const ALL: [Phase; 11] = [
        Phase::Resources,
        Phase::Provisioners,
        Phase::DependsOn,
        Phase::Orphans,
        Phase::Providers,
        Phase::References,
        Phase::Root,
        Phase::DestroySplit,
        Phase::Targeting,
        Phase::Validation,
        Phase::Reduction,
    ];

    /// A short tag.
    pub fn tag(self) -> &'static str {
        match self {
            Phase::Resources => "resources",
            Phase::Provisioners => "provisioners",
            Phase::DependsOn => "depends_on",
            Phase::Orphans => "orphans",
            Phase::Providers => "providers",
            Phase::References => "references",
            Phase::Root => "root",
            Phase::DestroySplit => "destroy split",
            Phase::Targeting => "targeting",
            Phase::Validation => "validation",
            Phase::Reduction => "reduction",
        }
    }

    /// The CSS class suffix (`phase-…`).
    pub fn css(self) -> &'static str {
        match self {
            Phase::DependsOn => "depends-on",
            Phase::DestroySplit => "destroy-split",
            p => p.tag(),
        }
    }

    /// What this step of the description does, in our words.
    pub fn about(self) -> &'static str {
        match self {
            Phase::Resources => {
                "Every resource and data block becomes a vertex; so do variables, locals, outputs, checks and each module call."
            }
            Phase::Provisioners => {
                "Provisioners have no vertices of their own in OpenTofu: they run inside the vertex of the resource they belong to."
            }
            Phase::DependsOn => {
                "Explicit depends_on becomes edges (drawn by the reference step); these steps make data sources and the saved state respect it."
            }
            Phase::Orphans => {
                "With a state, objects it records that the configuration no longer has are added, to be destroyed."
            }
            Phase::Providers => {
                "Each resource is tied to the provider configuration that serves it; unused providers go, and each provider gets a closing vertex."
            }
            Phase::References => {
                "Expressions are read for references (var.x, aws_vpc.a.id, module.m.out): each one becomes an edge to what it names."
            }
            Phase::Root => {
                "A single root vertex is added that waits for everything, so the graph has one end."
            }
            Phase::DestroySplit => {
                "When there are changes, replacing an object is split into destroy and create, ordered by create_before_destroy."
            }
            Phase::Targeting => {
                "Not in the description: with -target or -exclude, only what the selection needs is kept."
            }
            Phase::Validation => {
                "The finished graph is checked: exactly one root, no cycles, no vertex depending on itself."
            }
            Phase::Reduction => {
                "Transitive reduction drops every edge a longer path already implies: the same order, fewer lines."
            }
        }
    }
}

/// The step of the "Resource Graph" description a transform carries out.
pub fn phase_of(transform: &str) -> Phase {
    match transform {
        "StateTransformer"
        | "AttachStateTransformer"
        | "OrphanResourceInstanceTransformer"
        | "OrphanResourceInstanceCountTransformer"
        | "OrphanOutputTransformer"
        | "RemovedModuleTransformer" => Phase::Orphans,
        "attachResourceDependsOnTransformer" | "AttachDependenciesTransformer" => {
            Phase::DependsOn
        }
        "ProviderConfigTransformer"
        | "MissingProviderTransformer"
        | "ProviderTransformer"
        | "PruneProviderTransformer"
        | "ProviderUnconfiguredTransformer"
        | "ProviderFunctionTransformer"
        | "CloseProviderTransformer"
        | "CloseableResourceTransformer"
        | "AttachSchemaTransformer" => Phase::Providers,
        "ReferenceTransformer" | "ExternalReferenceTransformer" => Phase::References,
        "RootTransformer" | "CloseRootModuleTransformer" => Phase::Root,
        "DiffTransformer"
        | "DestroyEdgeTransformer"
        | "CBDEdgeTransformer"
        | "ForcedCBDTransformer"
        | "pruneUnusedNodesTransformer" => Phase::DestroySplit,
        "TargetingTransformer" => Phase::Targeting,
        "TransitiveReductionTransformer" => Phase::Reduction,
        _ => Phase::Resources,
    }
}
