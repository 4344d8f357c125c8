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
    Other,
}

impl Kind {
    pub const LEGEND: [Kind; 10] = [
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
            Kind::Other => "other",
        }
    }
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
        return if suffix.starts_with("close") {
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
    if let Some(after) = rest.strip_prefix("module.") {
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
}

/// A file of this name is read as the state (format version 4), not as configuration.
pub const STATE_FILE: &str = "terraform.tfstate";

/// The most text (all files together) the app analyses. Above it the app says so instead of
/// working for seconds on every keystroke; the CLI has no such limit.
pub const MAX_INPUT_BYTES: usize = 4 * 1024 * 1024;
/// Inputs at least this large are analysed in slices that give the browser back control between
/// phases (and show progress); smaller ones are analysed at once, which is quicker than yielding.
pub const SLICE_FROM_BYTES: usize = 256 * 1024;

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
    let mut config_files = files.clone();
    let state = config_files.remove(STATE_FILE);
    let mut req = Request::new(config_files, kind);
    req.state = state.map(|t| pipeline::NamedText::new(STATE_FILE, t));
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
    Some(match result {
        Ok(out) => {
            let (graph, decls) = GraphData::from_builder(&out.built.graph);
            let g = out.built.graph.dag();
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
    })
}

/// [`analyze_with`] without pauses, at once.
pub fn analyze(files: &BTreeMap<String, String>, kind: BuilderKind) -> Analysis {
    use futures::FutureExt as _;
    analyze_with(files, kind, |_| std::future::ready(true))
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
        "attachDataResourceDependsOnTransformer" => {
            "Makes data sources wait for what their depends_on implies, so they are not read too early."
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
