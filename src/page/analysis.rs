//! The engine run on the editor's files, as the page shows it: the files routed by role to the
//! pipeline's inputs, the pipeline run through its one paced entry ([`pipeline::run_paced`]), and
//! the result as plain data: the graph (also the graph that failed validation, drawn from the very
//! inputs that made it), where each vertex is declared, the builder's steps, diagnostics, cycles,
//! the exports. An imported DOT file stands in for the builder.
//!
//! The files are those of the folder that was opened (paths relative to it); the root module is
//! one of its folders ([`Options::root`]). The pipeline sees them as the CLI sees a folder on
//! disk: paths relative to the root module (`../../main.tf` for a file two levels up), the
//! module manifest at `.terraform/modules/modules.json` of the root, the root's automatic
//! variables files ([`pipeline::memory_request`]); diagnostics and declarations come back with
//! the editor's paths.

use super::files::{Role, classify};
use super::graph::{PageGraph, graph_of};
use crate::builder::{BuilderKind, Step};
use crate::config::Diagnostic;
use crate::dag;
use crate::pipeline::{self, Request};
use std::collections::{BTreeMap, BTreeSet};

pub use crate::pipeline::Progress;

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
    pub graph: Option<PageGraph>,
    pub decls: BTreeMap<String, Decl>,
    pub steps: Vec<Step>,
    pub errors: Vec<Diag>,
    pub warnings: Vec<Diag>,
    /// Vertex names of each cycle.
    pub cycles: Vec<Vec<String>>,
    /// The built graph as `tofu graph` prints it (DOT), as Mermaid and as JSON, made when asked
    /// for ([`Exports`]).
    pub exports: Exports,
    /// What `(expand)` vertices expand into when the graph is walked (plan graphs).
    pub expander: Option<SharedExpander>,
    /// Each vertex's Go type in the walk, hence its evaluation steps (none for an imported DOT
    /// graph).
    pub step_table: Option<std::sync::Arc<crate::walk::StepTable>>,
    /// The DOT file the graph was imported from (no builder ran), if any.
    pub imported: Option<String>,
    /// Module calls that are not installed (see [`NotInstalled`]).
    pub not_installed: Vec<NotInstalled>,
    /// Why each edge exists, by `(from, to)` names: every edge the builder added, also those a
    /// transform (transitive reduction among them) removed since. References carry the editor's
    /// paths.
    pub whys: BTreeMap<(String, String), Why>,
    /// The configuration files the built configuration read (every local and installed module's,
    /// the root's own), by the editor's paths; `None` when the configuration did not load (then
    /// what is in the graph is not known by file). [`super::tree`] says what lies outside it.
    pub config_files: Option<BTreeSet<String>>,
    /// What each vertex runs and the values it sees, worked out when a vertex is selected
    /// ([`super::inside`]); `None` for an imported graph or a failed build.
    pub inside: Option<SharedInside>,
}

/// What [`super::inside`] needs to tell what a vertex runs and the values it sees: the
/// configuration, the root variable values with their sources, the operation that walks the
/// graph, and each vertex's Go type and subject. Shared, not copied, by the analyses' clones;
/// equal when made from the same files, root, graph type and options.
#[derive(Clone)]
pub struct SharedInside {
    pub data: std::sync::Arc<InsideData>,
    key: u64,
}

/// See [`SharedInside`].
pub struct InsideData {
    pub config: crate::config::Config,
    pub vars: BTreeMap<String, hcl::Value>,
    pub var_sources: BTreeMap<String, crate::config::vars::VarSource>,
    pub op: crate::inside::Operation,
    /// Each vertex's Go type in `op` and what its values are about.
    pub vertices: BTreeMap<
        String,
        (
            crate::inside::GoNode,
            Option<crate::inside::values::Subject>,
        ),
    >,
}

impl SharedInside {
    fn new(data: InsideData, files: &BTreeMap<String, String>, opts: &Options) -> Self {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        files.hash(&mut h);
        format!("{opts:?}").hash(&mut h);
        data.op.as_str().hash(&mut h);
        SharedInside {
            data: std::sync::Arc::new(data),
            key: h.finish(),
        }
    }
}

impl PartialEq for SharedInside {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl std::fmt::Debug for SharedInside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedInside")
            .field("key", &self.key)
            .finish()
    }
}

/// The built graph's exports, made when the Export panel or a download asks for them rather than
/// at every edit (at 1,000 generated resources the three texts took about 30 ms of each edit in
/// the browser). Two are equal when they are the same build's.
#[derive(Clone, Default)]
pub struct Exports(Option<std::sync::Arc<ExportSource>>);

impl std::fmt::Debug for Exports {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0.as_deref() {
            Some(ExportSource::Built(_)) => "Exports(built graph)",
            Some(ExportSource::Ready { .. }) => "Exports(imported DOT)",
            None => "Exports(none)",
        })
    }
}

// One per build, behind the `Arc`: the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
enum ExportSource {
    /// The builder's graph, with each edge's why (for the JSON).
    Built(crate::builder::Graph),
    /// An imported DOT file: its own text, and the other two made at import.
    Ready {
        dot: String,
        mermaid: String,
        json: String,
    },
}

impl PartialEq for Exports {
    fn eq(&self, other: &Exports) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Exports {
    fn built(g: crate::builder::Graph) -> Exports {
        Exports(Some(std::sync::Arc::new(ExportSource::Built(g))))
    }

    /// The DOT text, exactly as `tofu graph` prints it (an imported file as it was opened).
    pub fn dot(&self) -> String {
        match self.0.as_deref() {
            Some(ExportSource::Built(g)) => g.dag().dot(&dag::render::dot::DotOpts::cli_default()),
            Some(ExportSource::Ready { dot, .. }) => dot.clone(),
            None => String::new(),
        }
    }

    /// The graph as Mermaid, as `tfgraph graph --format mermaid` prints it.
    pub fn mermaid(&self) -> String {
        match self.0.as_deref() {
            Some(ExportSource::Built(g)) => super::graph::mermaid(g.dag()),
            Some(ExportSource::Ready { mermaid, .. }) => mermaid.clone(),
            None => String::new(),
        }
    }

    /// The graph as JSON with each edge's why, as `tfgraph graph --format json` prints it.
    pub fn json(&self) -> String {
        match self.0.as_deref() {
            Some(ExportSource::Built(g)) => g.json_graph().to_json(),
            Some(ExportSource::Ready { json, .. }) => json.clone(),
            None => String::new(),
        }
    }
}

/// Why one edge exists, for the details panel ([`crate::builder::why`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Why {
    /// The edge's kind in words when no reference caused it ("provider of this resource");
    /// "a reference" or "depends_on" when references did.
    pub reason: String,
    /// The transform that added it (OpenTofu's name).
    pub transform: &'static str,
    /// The references that caused it.
    pub refs: Vec<RefLink>,
}

/// Where a reference is written, with the file as the editor names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefLink {
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// The traversal (`data.aws_ami.ubuntu.id`).
    pub text: String,
}

/// The page's [`Why`]s of a built graph.
fn whys_of(
    g: &crate::builder::Graph,
    files: &BTreeMap<String, String>,
    root: &str,
) -> BTreeMap<(String, String), Why> {
    g.whys_by_name()
        .into_iter()
        .map(|(k, w)| {
            let refs: Vec<RefLink> = w
                .references
                .iter()
                .map(|r| RefLink {
                    file: editor_path(files, root, &r.file),
                    line: r.line,
                    column: r.column,
                    text: r.text.clone(),
                })
                .collect();
            let reason = if refs.is_empty() {
                crate::builder::describe(w)
            } else if refs.len() == 1 {
                "a reference".to_string()
            } else {
                format!("{} references", refs.len())
            };
            (
                k,
                Why {
                    reason,
                    transform: w.transform,
                    refs,
                },
            )
        })
        .collect()
}

/// Where the input variables behind `var.x` and `module.m.var.x (expand, reference)` vertices
/// are declared: their vertices carry no configuration of their own.
fn variable_decls(
    cfg: &crate::config::Config,
    g: &PageGraph,
    files: &BTreeMap<String, String>,
    root: &str,
    decls: &mut BTreeMap<String, Decl>,
) {
    for v in g.vertices() {
        if decls.contains_key(&v.name) {
            continue;
        }
        let base = v
            .name
            .strip_suffix(" (expand, reference)")
            .unwrap_or(&v.name);
        let (module, var) = match base.rfind("var.") {
            Some(0) => ("", &base[4..]),
            Some(k) if base[..k].ends_with('.') => (&base[..k - 1], &base[k + 4..]),
            _ => continue,
        };
        let Ok(path) = crate::addrs::Module::parse(module) else {
            continue;
        };
        if let Some(r) = cfg
            .descendant(&path)
            .and_then(|c| c.module.variables.get(var))
            .map(|var| &var.decl_range)
        {
            decls.insert(
                v.name.clone(),
                Decl {
                    file: editor_path(files, root, &r.file),
                    line: r.start.line,
                    end_line: r.end.line.max(r.start.line),
                },
            );
        }
    }
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
        root: &str,
    ) -> Self {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        files.hash(&mut h);
        root.hash(&mut h);
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
    /// The root module's folder among the files (`""`: the top folder); see
    /// [`super::files::root_candidates`].
    pub root: String,
    /// `-target` addresses.
    pub targets: Vec<String>,
    /// `-exclude` addresses.
    pub excludes: Vec<String>,
}

/// The request for the editor's files: configuration files build the graph; a state, a plan
/// (`terraform show -json`), conformance-style changes and provider schemas among them are routed
/// to their inputs by [`classify`]. A DOT file replaces the builder altogether: its graph comes
/// back as the `Err` analysis, drawn as it is. The warnings name files that were ignored.
fn route(
    files: &BTreeMap<String, String>,
    kind: BuilderKind,
    opts: &Options,
) -> (Result<Request, Analysis>, Vec<Diag>) {
    let mut inputs: BTreeMap<Role, Vec<(&String, &String)>> = BTreeMap::new();
    for (name, text) in files {
        match classify(name, text) {
            Role::Config | Role::Vars | Role::Manifest => {}
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
    let mut req = pipeline::memory_request(files, &opts.root, kind);
    req.state = first(Role::State, "state");
    req.plan_json = first(Role::Plan, "plan");
    req.changes = first(Role::Changes, "changes list");
    req.schemas = first(Role::Schemas, "provider schemas file");
    req.targets = opts.targets.clone();
    req.excludes = opts.excludes.clone();
    for (name, _) in inputs.get(&Role::Unknown).into_iter().flatten() {
        notes.push(Diag::warning(format!(
            "{name} is ignored: it is not configuration (.tf, .tf.json, .tofu), variable values (.tfvars), a state, a plan, provider schemas or a DOT graph."
        )));
    }
    (Ok(req), notes)
}

/// The editor's path of a file the pipeline named relative to the root module folder `root`
/// (`../../main.tf` from `examples/complete` is `main.tf`); names that are not such a file (a
/// state's, given as the editor names it) stay as they are.
fn editor_path(files: &BTreeMap<String, String>, root: &str, name: &str) -> String {
    if root.is_empty() {
        return name.to_string();
    }
    let joined = crate::config::file_names::normalize_path(&format!("{root}/{name}"));
    if files.contains_key(&joined) {
        joined
    } else {
        name.to_string()
    }
}

impl Diag {
    /// A diagnostic of a run at root module `root`, with the file as the editor names it.
    fn at_root(d: &Diagnostic, files: &BTreeMap<String, String>, root: &str) -> Diag {
        let mut d = d.clone();
        if let Some(r) = &mut d.range {
            r.file = editor_path(files, root, &r.file);
        }
        Diag::from(&d)
    }
}

/// A module call that is not installed (no `.terraform/modules` record): drawn as one opaque
/// module, marked, and named in a notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotInstalled {
    /// The module's path (`module.vpc`, `module.app.module.db`).
    pub module: String,
    /// The call's source as written.
    pub source: String,
    /// Where the call is (`main.tf:12,1-13`... as the editor names the file).
    pub file: String,
    pub line: usize,
}

/// Whether vertex `name` is the `(expand)` or `(close)` vertex of a call that is not installed.
pub fn is_not_installed(list: &[NotInstalled], name: &str) -> bool {
    let Some(module) = name
        .strip_suffix(" (expand)")
        .or_else(|| name.strip_suffix(" (close)"))
    else {
        return false;
    };
    list.iter().any(|n| n.module == module)
}

/// The notice for calls that are not installed, naming them ("module.vpc
/// (terraform-aws-modules/vpc/aws)", at most five, then how many more).
pub fn not_installed_notice(list: &[NotInstalled]) -> Option<String> {
    if list.is_empty() {
        return None;
    }
    let named: Vec<String> = list
        .iter()
        .take(5)
        .map(|n| format!("{} ({})", n.module, n.source))
        .collect();
    let more = list.len().saturating_sub(named.len());
    Some(format!(
        "Not installed: {}{}. {} drawn as one box with its known edges; run \"tofu init\" and open the folder with its .terraform to see inside.",
        named.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        },
        if list.len() == 1 { "It is" } else { "Each is" }
    ))
}

/// The editor's paths of every file the configuration tree `cfg` was read from, at root `root`.
fn config_files_of(
    cfg: &crate::config::Config,
    files: &BTreeMap<String, String>,
    root: &str,
) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![cfg];
    while let Some(c) = stack.pop() {
        out.extend(c.module.files.keys().map(|f| editor_path(files, root, f)));
        stack.extend(c.children.values());
    }
    out
}

/// The cycles of `g` by vertex name.
fn cycles_of<V: dag::Vertex>(g: &dag::Graph<V>) -> Vec<Vec<String>> {
    g.cycles()
        .into_iter()
        .map(|c| c.iter().map(|id| g.name_of(*id)).collect())
        .collect()
}

/// An imported DOT graph as an analysis: drawn and walked as it is, with no builder steps.
fn import_dot(dot: &pipeline::NamedText) -> Analysis {
    match dag::import::read_dot(&dot.name, &dot.text) {
        Ok(read) => {
            let names = read.vertex_names();
            let graph = graph_of(names, read.edges.iter().copied().filter(|(a, b)| a != b));
            let (g, _) = graph.to_graph();
            Analysis {
                exports: Exports(Some(std::sync::Arc::new(ExportSource::Ready {
                    dot: dot.text.clone(),
                    mermaid: super::graph::mermaid(&g),
                    json: g.json_graph().to_json(),
                }))),
                cycles: cycles_of(&g),
                graph: Some(graph),
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

/// The page's graph of a built graph, and where its vertices are declared.
#[cfg(test)]
fn page_graph(g: &dag::Graph<crate::builder::Node>) -> (PageGraph, BTreeMap<String, Decl>) {
    page_graph_at(g, &BTreeMap::new(), "")
}

/// [`page_graph`] of a run at root module `root`: declarations carry the editor's paths.
fn page_graph_at(
    g: &dag::Graph<crate::builder::Node>,
    files: &BTreeMap<String, String>,
    root: &str,
) -> (PageGraph, BTreeMap<String, Decl>) {
    let ids: BTreeMap<dag::VertexId, usize> = g.ids().enumerate().map(|(i, id)| (id, i)).collect();
    let mut names = Vec::with_capacity(g.len());
    let mut decls = BTreeMap::new();
    for (_, node) in g.iter() {
        let name = dag::Vertex::name(node);
        if let Some(r) = node.decl_range() {
            decls.insert(
                name.clone(),
                Decl {
                    file: editor_path(files, root, &r.file),
                    line: r.start.line,
                    end_line: r.end.line.max(r.start.line),
                },
            );
        }
        names.push(name);
    }
    let edges = g
        .edges()
        .into_iter()
        .filter_map(|(a, b)| Some((*ids.get(&a)?, *ids.get(&b)?)));
    (graph_of(names, edges), decls)
}

/// The error for files over [`MAX_INPUT_BYTES`].
fn too_large(size: usize) -> Analysis {
    Analysis {
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
    }
}

/// Runs the pipeline on the editor's files through [`pipeline::run_paced`], calling `pause`
/// between its stages; a `pause` that resolves to false stops the analysis (a newer edit replaced
/// it) and `None` comes back. A graph that failed validation (a cycle) is kept with its cycles:
/// it is the graph the builder made from all the inputs (state, plan, schemas, targets).
pub async fn analyze_with<P, F>(
    files: &BTreeMap<String, String>,
    kind: BuilderKind,
    opts: &Options,
    pause: P,
) -> Option<Analysis>
where
    P: FnMut(Progress) -> F,
    F: std::future::Future<Output = bool>,
{
    let size: usize = files.iter().map(|(p, t)| p.len() + t.len()).sum();
    if size > MAX_INPUT_BYTES {
        return Some(too_large(size));
    }
    let (req, notes) = route(files, kind, opts);
    let req = match req {
        Ok(r) => r,
        Err(mut imported) => {
            imported.warnings.extend(notes);
            return Some(imported);
        }
    };
    let root = opts.root.as_str();
    let diag = |d: &Diagnostic| Diag::at_root(d, files, root);
    let mut a = match pipeline::run_paced(&req, None, pause).await? {
        Ok(out) => {
            let g = out.built.graph.dag();
            let (graph, mut decls) = page_graph_at(g, files, root);
            variable_decls(&out.config, &graph, files, root, &mut decls);
            let expander = out
                .expander()
                .map(|e| SharedExpander::new(e, files, kind, root));
            let step_table = Some(std::sync::Arc::new(out.step_table()));
            let not_installed = out
                .config
                .not_installed_calls()
                .into_iter()
                .map(|(path, call)| NotInstalled {
                    module: path.to_string(),
                    source: call
                        .source
                        .as_ref()
                        .map(|s| s.as_str().to_string())
                        .unwrap_or_default(),
                    file: editor_path(files, root, &call.decl_range.file),
                    line: call.decl_range.start.line,
                })
                .collect();
            let whys = whys_of(&out.built.graph, files, root);
            let warnings = out.warnings.iter().map(diag).collect();
            let config_files = Some(config_files_of(&out.config, files, root));
            let op = crate::inside::Operation::of_builder(kind);
            let vertices = g
                .iter()
                .map(|(_, n)| {
                    (
                        dag::Vertex::name(n),
                        (
                            crate::inside::GoNode::of_node(n, op),
                            crate::inside::values::Subject::of_node(n),
                        ),
                    )
                })
                .collect();
            let inside = SharedInside::new(
                InsideData {
                    config: out.config,
                    vars: out.vars,
                    var_sources: out.var_sources,
                    op,
                    vertices,
                },
                files,
                opts,
            );
            Analysis {
                inside: Some(inside),
                exports: Exports::built(out.built.graph),
                whys,
                graph: Some(graph),
                decls,
                steps: out.built.steps,
                warnings,
                expander,
                step_table,
                not_installed,
                config_files,
                ..Analysis::default()
            }
        }
        Err(failed) => {
            let mut a = Analysis {
                errors: failed.diagnostics.iter().map(diag).collect(),
                ..Analysis::default()
            };
            if let Some(built) = failed.built {
                let g = built.graph.dag();
                a.cycles = cycles_of(g);
                if !a.cycles.is_empty() {
                    let (graph, decls) = page_graph_at(g, files, root);
                    a.graph = Some(graph);
                    a.decls = decls;
                    a.whys = whys_of(&built.graph, files, root);
                    a.steps = built.steps;
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::examples::{EXAMPLES, files_of};
    use std::collections::BTreeSet;

    fn names(g: &PageGraph) -> BTreeSet<String> {
        g.vertices().iter().map(|v| v.name.clone()).collect()
    }

    fn edges(g: &PageGraph) -> BTreeSet<(String, String)> {
        let n = |i: usize| g.vertex(i).unwrap().name.clone();
        g.edges().iter().map(|&(a, b)| (n(a), n(b))).collect()
    }

    const CYCLE_STATE: &str = r#"{
  "version": 4, "terraform_version": "1.12.6", "serial": 1, "lineage": "t", "outputs": {},
  "resources": [
    {"mode": "managed", "type": "aws_security_group", "name": "a",
     "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
     "instances": [{"schema_version": 0, "attributes": {"id": "sg-a"}}]},
    {"mode": "managed", "type": "aws_security_group", "name": "b",
     "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
     "instances": [{"schema_version": 0, "attributes": {"id": "sg-b"}}]},
    {"mode": "managed", "type": "aws_s3_bucket", "name": "old",
     "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
     "instances": [{"schema_version": 0, "attributes": {"id": "old"}}]}
  ]
}"#;

    const CYCLE_PLAN: &str = r#"{
  "format_version": "1.2", "terraform_version": "1.12.6",
  "resource_changes": [
    {"address": "aws_security_group.a", "mode": "managed", "type": "aws_security_group", "name": "a",
     "provider_name": "registry.opentofu.org/hashicorp/aws", "change": {"actions": ["update"]}},
    {"address": "aws_security_group.b", "mode": "managed", "type": "aws_security_group", "name": "b",
     "provider_name": "registry.opentofu.org/hashicorp/aws", "change": {"actions": ["delete", "create"]}},
    {"address": "aws_instance.app", "mode": "managed", "type": "aws_instance", "name": "app",
     "provider_name": "registry.opentofu.org/hashicorp/aws", "change": {"actions": ["create"]}},
    {"address": "aws_s3_bucket.logs", "mode": "managed", "type": "aws_s3_bucket", "name": "logs",
     "provider_name": "registry.opentofu.org/hashicorp/aws", "change": {"actions": ["create"]}},
    {"address": "aws_s3_bucket.old", "mode": "managed", "type": "aws_s3_bucket", "name": "old",
     "provider_name": "registry.opentofu.org/hashicorp/aws", "change": {"actions": ["delete"]}}
  ]
}"#;

    /// The cycle example with a state, a plan and a target: the graph drawn for the cycle is the
    /// one the builder made from all of them (the page used to rebuild it from the configuration
    /// alone when it saw the word "Cycle").
    #[test]
    fn the_cycle_is_drawn_from_the_state_the_plan_and_the_targets_that_made_it() {
        let cycle = EXAMPLES.iter().find(|e| e.id == "cycle").unwrap();
        let mut files = files_of(cycle);
        files
            .get_mut("main.tf")
            .unwrap()
            .push_str("\nresource \"aws_s3_bucket\" \"logs\" {}\n");
        files.insert("terraform.tfstate".into(), CYCLE_STATE.into());
        files.insert("plan.json".into(), CYCLE_PLAN.into());
        let opts = Options {
            targets: vec!["aws_instance.app".into()],
            ..Options::default()
        };
        let a = analyze(&files, BuilderKind::Apply, &opts);
        assert!(
            a.errors
                .iter()
                .any(|d| d.summary.contains("Cycle") || d.detail.contains("Cycle")),
            "{:?}",
            a.errors
        );
        let g = a.graph.as_ref().expect("the graph with the cycle is kept");
        // What the pipeline builds from the very same request, inputs and all.
        let mut req = Request::new(
            files
                .iter()
                .filter(|(p, _)| p.ends_with(".tf"))
                .map(|(p, t)| (p.clone(), t.clone()))
                .collect(),
            BuilderKind::Apply,
        );
        req.state = Some(pipeline::NamedText::new("terraform.tfstate", CYCLE_STATE));
        req.plan_json = Some(pipeline::NamedText::new("plan.json", CYCLE_PLAN));
        req.targets = opts.targets.clone();
        let failed = match pipeline::run(&req) {
            Ok(_) => panic!("the request has a cycle"),
            Err(d) => d,
        };
        assert!(!failed.is_empty());
        use futures::FutureExt as _;
        let built = match pipeline::run_paced(&req, None, |_| std::future::ready(true))
            .now_or_never()
            .flatten()
        {
            Some(Err(f)) => f.built.expect("the builder ran"),
            _ => panic!("the request has a cycle"),
        };
        let (want, _) = page_graph(built.graph.dag());
        assert_eq!(names(g), names(&want));
        assert_eq!(edges(g), edges(&want));
        assert_eq!(a.steps, built.steps);
        // Each input shows in the drawing: the plan's replacement splits b into destroy and
        // create, the target leaves out the bucket it does not need, and the cycle is marked.
        assert!(
            names(g).contains("aws_security_group.b (destroy)"),
            "{:?}",
            names(g)
        );
        assert!(
            !names(g).iter().any(|n| n.contains("aws_s3_bucket.logs")),
            "{:?}",
            names(g)
        );
        assert!(!a.cycles.is_empty());
        for c in &a.cycles {
            assert!(c.iter().all(|n| names(g).contains(n)));
        }
        // The configuration alone gives another graph.
        let alone = analyze(&files_of(cycle), BuilderKind::Apply, &Options::default());
        assert_ne!(alone.graph.as_ref().map(names), Some(names(g)));
    }

    #[test]
    fn files_are_routed_by_role_and_extra_ones_are_named() {
        let mut files = files_of(EXAMPLES.iter().find(|e| e.id == "orphans").unwrap());
        files.insert("notes.md".into(), "# notes".into());
        files.insert("z.tfstate".into(), CYCLE_STATE.into());
        let a = analyze(&files, BuilderKind::Plan, &Options::default());
        let g = a.graph.as_ref().expect("built");
        // The state is read: its orphan is in the graph.
        assert!(
            names(g).iter().any(|n| n.starts_with("aws_instance.old")),
            "{:?}",
            names(g)
        );
        let warnings: Vec<&str> = a.warnings.iter().map(|d| d.summary.as_str()).collect();
        assert!(
            warnings
                .contains(&"Only one state is read: terraform.tfstate is used, z.tfstate ignored."),
            "{warnings:?}"
        );
        assert!(
            warnings
                .iter()
                .any(|w| w.starts_with("notes.md is ignored")),
            "{warnings:?}"
        );
        assert!(a.decls.contains_key("aws_instance.web (expand)"));
        assert_eq!(a.decls["aws_instance.web (expand)"].line, 1);
        assert!(a.exports.dot().starts_with("digraph"));
    }

    #[test]
    fn a_dot_file_is_drawn_as_it_is_with_its_cycles() {
        let files = BTreeMap::from([(
            "g.dot".to_string(),
            "digraph {\n  \"[root] a\" -> \"[root] b\" -> \"[root] a\";\n  b -> c;\n  c -> c\n}\n"
                .to_string(),
        )]);
        let a = analyze(&files, BuilderKind::Plan, &Options::default());
        assert_eq!(a.imported.as_deref(), Some("g.dot"));
        let g = a.graph.as_ref().expect("imported");
        assert_eq!(names(g), ["a", "b", "c"].map(String::from).into());
        // The self-loop is dropped; the cycle a <-> b is found.
        assert_eq!(edges(g).len(), 3);
        assert_eq!(a.cycles.len(), 1);
        assert!(a.steps.is_empty());
        let bad = analyze(
            &BTreeMap::from([("g.dot".to_string(), "digraph {\n  a -> \n}\n".to_string())]),
            BuilderKind::Plan,
            &Options::default(),
        );
        assert!(bad.graph.is_none());
        assert_eq!(
            bad.errors[0].place.as_deref(),
            Some("g.dot line 3, column 1")
        );
    }

    #[test]
    fn a_paced_analysis_reports_progress_and_stops_when_told() {
        use futures::FutureExt as _;
        let files = files_of(&EXAMPLES[0]);
        let mut seen = Vec::new();
        let a = analyze_with(&files, BuilderKind::Plan, &Options::default(), |p| {
            seen.push(p);
            std::future::ready(true)
        })
        .now_or_never()
        .flatten()
        .expect("finished");
        let mut at_once = analyze(&files, BuilderKind::Plan, &Options::default());
        // Exports are equal when they are one build's: compare their texts, then the rest.
        assert_eq!(a.exports.dot(), at_once.exports.dot());
        assert_eq!(a.exports.json(), at_once.exports.json());
        assert_eq!(a.exports.mermaid(), at_once.exports.mermaid());
        at_once.exports = a.exports.clone();
        assert_eq!(a, at_once);
        assert_eq!(seen[0].label, "Loading the configuration");
        assert!(
            seen.iter()
                .any(|p| p.label == "Running ReferenceTransformer")
        );
        let last = seen.last().unwrap();
        assert_eq!(
            (last.done, last.label.as_str()),
            (last.total, "Preparing the drawing")
        );
        assert!(seen.windows(2).all(|w| w[0].done < w[1].done));
        // A pause that says stop (a newer edit) ends it without a result.
        let mut calls = 0;
        let stopped = analyze_with(&files, BuilderKind::Plan, &Options::default(), |_| {
            calls += 1;
            std::future::ready(calls < 5)
        })
        .now_or_never()
        .expect("never waits");
        assert_eq!(stopped, None);
        assert_eq!(calls, 5);
    }

    fn map(files: &[(&str, &str)]) -> BTreeMap<String, String> {
        files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect()
    }

    fn at_root(root: &str) -> Options {
        Options {
            root: root.into(),
            ..Options::default()
        }
    }

    /// A small repository after `tofu init`: a root calling a registry module (installed, with
    /// a local call inside the package), and an example folder that is a root module of its own
    /// calling the top folder through `../../`.
    fn repo() -> BTreeMap<String, String> {
        map(&[
            (
                "main.tf",
                "variable \"n\" {\n  default = 1\n}\nmodule \"net\" {\n  source  = \"acme/net/aws\"\n  version = \"~> 1.0\"\n  cidr    = \"10.0.0.0/16\"\n}\nresource \"aws_instance\" \"web\" {\n  count     = var.n\n  subnet_id = module.net.subnet_id\n}\noutput \"web\" {\n  value = aws_instance.web[0].id\n}\n",
            ),
            ("terraform.tfvars", "n = 3\nundeclared = true\n"),
            (
                "examples/two/main.tf",
                "module \"top\" {\n  source = \"../../\"\n}\n",
            ),
            ("examples/two/terraform.tfvars", "x = 1\n"),
            (
                ".terraform/modules/modules.json",
                r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"net","Source":"registry.opentofu.org/acme/net/aws","Version":"1.2.0","Dir":".terraform/modules/net"},{"Key":"net.sub","Source":"./modules/sub","Dir":".terraform/modules/net/modules/sub"}]}"#,
            ),
            (
                ".terraform/modules/net/main.tf",
                "variable \"cidr\" {}\nresource \"aws_vpc\" \"this\" {\n  cidr_block = var.cidr\n}\nmodule \"sub\" {\n  source = \"./modules/sub\"\n  vpc_id = aws_vpc.this.id\n}\noutput \"subnet_id\" {\n  value = module.sub.id\n}\n",
            ),
            (
                ".terraform/modules/net/modules/sub/main.tf",
                "variable \"vpc_id\" {}\nresource \"aws_subnet\" \"this\" {\n  vpc_id = var.vpc_id\n}\noutput \"id\" {\n  value = aws_subnet.this.id\n}\n",
            ),
        ])
    }

    /// The installed module is loaded from the files, its nested local call too, and the root's
    /// variables file feeds the expansion: three instances from `n = 3`.
    #[test]
    fn installed_modules_and_variable_files_among_the_files_are_read() {
        let a = analyze(&repo(), BuilderKind::Plan, &Options::default());
        assert!(a.errors.is_empty(), "{:?}", a.errors);
        let g = a.graph.as_ref().expect("built");
        let e = edges(g);
        for (from, to) in [
            (
                "module.net.aws_vpc.this (expand)",
                "module.net.var.cidr (expand, reference)",
            ),
            ("module.net.var.cidr (expand, input)", "module.net (expand)"),
            (
                "module.net.module.sub.var.vpc_id (expand, input)",
                "module.net.aws_vpc.this (expand)",
            ),
            (
                "aws_instance.web (expand)",
                "module.net.output.subnet_id (expand)",
            ),
        ] {
            assert!(
                e.contains(&(from.into(), to.into())),
                "{from} -> {to}: {e:?}"
            );
        }
        assert!(a.not_installed.is_empty());
        let x = a.expander.as_ref().expect("plan graphs expand");
        let n = x
            .expander
            .lock()
            .unwrap()
            .instances_of("aws_instance.web (expand)")
            .expect("expands")
            .map(|v| v.len());
        assert_eq!(n, Ok(3));
        // internal/backend/unparsed_value.go `ParseVariableValues`: "Value for undeclared
        // variable", a warning without a position naming the variable and the file.
        let w = a
            .warnings
            .iter()
            .find(|d| d.summary == "Value for undeclared variable")
            .unwrap_or_else(|| panic!("{:?}", a.warnings));
        assert!(
            w.detail.starts_with("The root module does not declare a variable named \"undeclared\" but a value was found in file \"terraform.tfvars\"."),
            "{}",
            w.detail
        );
    }

    /// The page runs the same request the CLI runs on the same folder on disk: the same graph,
    /// byte for byte, for the top folder and for a folder below it as the root module.
    #[test]
    fn the_page_and_the_cli_build_the_same_graph_from_the_same_folder() {
        let files = repo();
        let dir = std::env::temp_dir().join(format!("tfgraph-page-cli-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (p, t) in &files {
            let f = dir.join(p);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(f, t).unwrap();
        }
        for root in ["", "examples/two"] {
            let page = analyze(&files, BuilderKind::Plan, &at_root(root));
            let cli = pipeline::FolderInputs::new(dir.join(root))
                .build()
                .unwrap_or_else(|e| panic!("{root}: {e:?}"));
            let want = cli
                .built
                .graph
                .dag()
                .dot(&dag::render::dot::DotOpts::cli_default());
            assert_eq!(page.exports.dot(), want, "root {root:?}");
            // The JSON export too, each edge's why (its references' files relative to the root
            // module folder) included.
            let json = page.exports.json();
            assert_eq!(json, cli.built.graph.json_graph().to_json(), "{root:?}");
            assert!(json.contains("\"why\""), "{json}");
            let warnings: Vec<String> = cli.warnings.iter().map(|d| d.summary.clone()).collect();
            let page_warnings: Vec<String> =
                page.warnings.iter().map(|d| d.summary.clone()).collect();
            assert_eq!(page_warnings, warnings, "root {root:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// With a folder below the top as the root, `../../` reaches the top folder, the files keep
    /// the editor's names in declarations and diagnostics, and that folder's own variables file
    /// is the one read.
    #[test]
    fn a_folder_below_the_top_can_be_the_root_module() {
        let mut files = repo();
        let a = analyze(&files, BuilderKind::Plan, &at_root("examples/two"));
        let g = a.graph.as_ref().expect("built");
        assert!(
            names(g).contains("module.top.aws_instance.web (expand)"),
            "{:?}",
            names(g)
        );
        assert_eq!(
            a.decls["module.top.aws_instance.web (expand)"].file,
            "main.tf"
        );
        assert_eq!(a.decls["module.top (expand)"].file, "examples/two/main.tf");
        // That folder's terraform.tfvars is read (it sets x), not the top folder's.
        let w: Vec<&str> = a.warnings.iter().map(|d| d.detail.as_str()).collect();
        assert!(
            w.iter().any(|d| d.contains(
                "a variable named \"x\" but a value was found in file \"terraform.tfvars\""
            )),
            "{w:?}"
        );
        assert!(!w.iter().any(|d| d.contains("\"undeclared\"")), "{w:?}");
        // The manifest is the root's: from examples/two there is none, so the registry call is
        // not installed.
        assert_eq!(a.not_installed.len(), 1, "{:?}", a.not_installed);
        assert_eq!(a.not_installed[0].module, "module.top.module.net");
        assert_eq!(a.not_installed[0].file, "main.tf");
        files.insert(
            "main.tf".into(),
            "resource \"a\" \"b\" {\n  x = \n}\n".into(),
        );
        let bad = analyze(&files, BuilderKind::Plan, &at_root("examples/two"));
        assert_eq!(
            (bad.errors[0].file.as_deref(), bad.errors[0].line),
            (Some("main.tf"), 2),
            "{:?}",
            bad.errors
        );
        assert_eq!(
            bad.errors[0].place.as_deref(),
            Some("main.tf line 2, column 7")
        );
    }

    /// A registry call without a manifest: one opaque module, marked and named, whose output
    /// reference still gives the edge.
    #[test]
    fn calls_that_are_not_installed_are_marked_and_named() {
        let files = map(&[(
            "main.tf",
            "module \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\nresource \"aws_instance\" \"web\" {\n  subnet_id = module.vpc.vpc_id\n}\n",
        )]);
        let a = analyze(&files, BuilderKind::Plan, &Options::default());
        let g = a.graph.as_ref().expect("built");
        assert!(
            edges(g).contains(&(
                "aws_instance.web (expand)".into(),
                "module.vpc (close)".into()
            )),
            "{:?}",
            edges(g)
        );
        assert_eq!(
            a.not_installed,
            [NotInstalled {
                module: "module.vpc".into(),
                source: "terraform-aws-modules/vpc/aws".into(),
                file: "main.tf".into(),
                line: 1,
            }]
        );
        assert!(is_not_installed(&a.not_installed, "module.vpc (expand)"));
        assert!(is_not_installed(&a.not_installed, "module.vpc (close)"));
        assert!(!is_not_installed(
            &a.not_installed,
            "aws_instance.web (expand)"
        ));
        assert_eq!(
            not_installed_notice(&a.not_installed).as_deref(),
            Some(
                "Not installed: module.vpc (terraform-aws-modules/vpc/aws). It is drawn as one box with its known edges; run \"tofu init\" and open the folder with its .terraform to see inside."
            )
        );
        assert!(
            a.warnings
                .iter()
                .any(|d| d.summary == "Module not installed"),
            "{:?}",
            a.warnings
        );
        assert_eq!(not_installed_notice(&[]), None);
    }

    #[test]
    fn too_much_input_is_refused_in_words() {
        let files = BTreeMap::from([("main.tf".to_string(), "#".repeat(MAX_INPUT_BYTES + 1))]);
        let a = analyze(&files, BuilderKind::Plan, &Options::default());
        assert!(a.graph.is_none());
        assert_eq!(a.errors[0].summary, "Input too large");
    }

    #[test]
    fn bad_targets_and_syntax_errors_keep_no_graph() {
        let files = files_of(&EXAMPLES[0]);
        let a = analyze(
            &files,
            BuilderKind::Plan,
            &Options {
                targets: vec!["not an address!".into()],
                ..Options::default()
            },
        );
        assert!(a.graph.is_none());
        assert_eq!(a.errors[0].summary, "Invalid target address");
        let a = analyze(
            &BTreeMap::from([(
                "main.tf".to_string(),
                "resource \"a\" \"b\" {\n  x = \n}\n".to_string(),
            )]),
            BuilderKind::Plan,
            &Options::default(),
        );
        assert!(a.graph.is_none() && a.cycles.is_empty());
        assert_eq!(a.errors[0].file.as_deref(), Some("main.tf"));
        assert_eq!(a.errors[0].line, 2);
    }
}
