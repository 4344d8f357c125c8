//! What one analysis holds, and the options it is asked with.

use super::expander::SharedExpander;
use super::not_installed::NotInstalled;
use super::places::{Decl, Diag, RefLink};
use crate::builder::{Step, StepName};
use crate::dag;
use crate::page::graph::PageGraph;
use std::collections::{BTreeMap, BTreeSet};

/// One run of the engine on the editor's files.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Analysis {
    /// The built graph; also present for a cycle error (the graph that has the cycle).
    pub graph: Option<PageGraph>,
    pub decls: BTreeMap<String, Decl>,
    /// The builder's steps (read when a build step is chosen).
    pub steps: Lazy<Vec<Step>>,
    /// The edges the transitive reduction removed (its build step's), by name: every view of
    /// the final graph shows them (dashed, or in a vertex's details), so they are kept apart
    /// from [`Analysis::steps`], which the page's thread would otherwise parse at every build
    /// of the worker's (37 ms at 10,000 generated resources).
    pub reduced: std::sync::Arc<Vec<(StepName, StepName)>>,
    pub errors: Vec<Diag>,
    pub warnings: Vec<Diag>,
    /// Vertex names of each cycle.
    pub cycles: Vec<Vec<String>>,
    /// The built graph as `tofu graph` prints it (DOT), as Mermaid and as JSON, made when asked
    /// for ([`Exports`]).
    pub exports: Exports,
    /// What `(expand)` vertices expand into when the graph is walked (plan graphs).
    pub expander: Option<SharedExpander>,
    /// The DOT file the graph was imported from (no builder ran), if any.
    pub imported: Option<String>,
    /// Module calls that are not installed (see [`NotInstalled`]).
    pub not_installed: Vec<NotInstalled>,
    /// Why each edge exists, by `(from, to)` names: every edge the builder added, also those a
    /// transform (transitive reduction among them) removed since. References carry the editor's
    /// paths.
    pub whys: Lazy<BTreeMap<(String, String), Why>>,
    /// The configuration files the built configuration read (every local and installed module's,
    /// the root's own), by the editor's paths; `None` when the configuration did not load (then
    /// what is in the graph is not known by file). [`super::tree`] says what lies outside it.
    pub config_files: Option<BTreeSet<String>>,
    /// What each vertex runs and the values it sees, worked out when a vertex is selected
    /// ([`crate::page::inside`]); `None` for an imported graph or a failed build.
    pub inside: Option<SharedInside>,
    /// With a plan or a changes list among the files, the action each vertex shows, the
    /// legend's rows and `tofu plan`'s summary ([`crate::page::actions`]).
    pub actions: Option<crate::page::actions::PlanActions>,
    /// Each vertex's Go type in the walk, hence its evaluation steps (none for an imported DOT
    /// graph).
    pub step_table: Option<std::sync::Arc<crate::walk::StepTable>>,
    /// Made by the engine's worker, which keeps what holds the configuration (`inside`, the
    /// exports' source): what the page needs of it is asked for and kept here
    /// ([`super::remote::Remote`]). `None` when the page analysed.
    pub remote: Option<std::sync::Arc<super::remote::Remote>>,
    /// The outlines of the large configuration files ([`outlines_of`]), made by the engine's
    /// worker with its analysis, so that the page's thread does not parse them again (32 ms for
    /// the generated 10,000 resources' `main.tf`, at each build). Empty when the page analysed.
    pub outlines: BTreeMap<String, Outline>,
}

/// A file's top-level blocks, or its first syntax error ([`crate::outline::outline`]).
pub type Outline = Result<Vec<crate::outline::BlockSummary>, crate::outline::ParseError>;

/// Files up to this size are outlined by the editor at every keystroke; larger ones after typing
/// pauses, from [`Analysis::outlines`] when the worker made the analysis.
pub const OUTLINE_AT_ONCE_BYTES: usize = 32 * 1024;

/// Whether the editor lists the blocks of `path`: a configuration file in HCL (not JSON).
pub fn is_outlined(path: &str, text: &str) -> bool {
    !path.ends_with(".json")
        && crate::page::files::classify(path, text) == crate::page::files::Role::Config
}

/// The outlines of the files [`is_outlined`] larger than [`OUTLINE_AT_ONCE_BYTES`], by path.
pub fn outlines_of(files: &BTreeMap<String, String>) -> BTreeMap<String, Outline> {
    files
        .iter()
        .filter(|(path, text)| text.len() > OUTLINE_AT_ONCE_BYTES && is_outlined(path, text))
        .map(|(path, text)| (path.clone(), crate::outline::outline(text)))
        .collect()
}

/// The edges `steps`' transitive reduction removed ([`Analysis::reduced`]).
pub fn reduced_of(steps: &[Step]) -> Vec<(StepName, StepName)> {
    steps
        .iter()
        .filter(|s| s.name == "TransitiveReductionTransformer")
        .flat_map(|s| s.removed_edges.iter().cloned())
        .collect()
}

/// A large part of an analysis that few views read (the build steps, the edges' whys): the
/// value itself when the page analysed, or the JSON (bytes) the engine's worker sent, parsed the
/// first time it is read. At 10,000 generated resources parsing them costs the page's thread 26
/// and 50 ms (docs/worker.md), which every build would otherwise pay whether they are read or
/// not. The JSON itself may stay where it arrived until then ([`Lazy::from_source`]): copying
/// the worker's 24.7 MB of it (10,000 generated resources) into the page's wasm memory took
/// the page's thread about 8 ms at each build. Clones share the value.
pub struct Lazy<T>(std::sync::Arc<LazyInner<T>>);

/// Where a [`Lazy`]'s JSON (UTF-8 bytes) comes from, called when it is first read.
pub type JsonSource = Box<dyn FnOnce() -> Vec<u8> + Send>;

struct LazyInner<T> {
    value: std::sync::OnceLock<T>,
    source: std::sync::Mutex<Option<JsonSource>>,
    parse: fn(&[u8]) -> T,
}

impl<T: Default> Lazy<T> {
    /// The value `parse` makes of the JSON `source` gives, both called when it is first read.
    pub fn from_source(
        source: impl FnOnce() -> Vec<u8> + Send + 'static,
        parse: fn(&[u8]) -> T,
    ) -> Lazy<T> {
        Lazy(std::sync::Arc::new(LazyInner {
            value: std::sync::OnceLock::new(),
            source: std::sync::Mutex::new(Some(Box::new(source))),
            parse,
        }))
    }
}

impl<T: Default> From<T> for Lazy<T> {
    fn from(v: T) -> Lazy<T> {
        Lazy(std::sync::Arc::new(LazyInner {
            value: std::sync::OnceLock::from(v),
            source: std::sync::Mutex::new(None),
            parse: |_| T::default(),
        }))
    }
}

impl<T> Lazy<T> {
    /// Whether the value has been made (or was given).
    pub fn is_read(&self) -> bool {
        self.0.value.get().is_some()
    }
}

impl<T> std::ops::Deref for Lazy<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.0.value.get_or_init(|| {
            // Taken once: `get_or_init` runs one initialiser (a poisoned lock, which a panic
            // while taking would leave, still holds the source).
            let source = self
                .0
                .source
                .lock()
                .map_or_else(|p| p.into_inner().take(), |mut s| s.take());
            (self.0.parse)(&source.map(|f| f()).unwrap_or_default())
        })
    }
}

impl<T> Clone for Lazy<T> {
    fn clone(&self) -> Self {
        Lazy(self.0.clone())
    }
}

impl<T: Default> Default for Lazy<T> {
    fn default() -> Self {
        T::default().into()
    }
}

impl<T: PartialEq> PartialEq for Lazy<T> {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0) || **self == **other
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Lazy<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// What [`crate::page::inside`] needs to tell the values a vertex sees (what it runs is the step
/// table's): the configuration, the root variable values with their sources, the operation that
/// walks the graph, and each vertex's subject. Shared, not copied, by the analyses' clones;
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
    /// What each vertex's values are about (its Go type is the analysis' step table's).
    pub vertices: BTreeMap<String, Option<crate::inside::values::Subject>>,
    /// What opening an `(expand)` vertex needs ([`crate::page::expanded`]).
    pub expansions: Expansions,
}

/// The builder's vertices that can expand and the prior state, from which
/// [`crate::inside::expansion::expand`] works out what an `(expand)` vertex expands into; each
/// answer is kept, so a vertex is expanded once per analysis however often the view is derived.
#[derive(Default)]
pub struct Expansions {
    /// The builder's vertex of each vertex whose kind may expand, by name.
    pub nodes: BTreeMap<String, crate::builder::Node>,
    /// The prior state's text, read when a vertex is first expanded (for its orphans).
    pub state: Option<String>,
    /// The static evaluator and the read state, made on first use.
    #[allow(clippy::type_complexity)]
    pub(crate) eval:
        std::sync::Mutex<Option<(crate::config::eval::StaticEval, Option<crate::state::State>)>>,
    /// The answers so far, by vertex name (`None`: it does not expand in this walk).
    pub(crate) done: std::sync::Mutex<
        BTreeMap<String, Option<Result<crate::inside::expansion::Expansion, String>>>,
    >,
}

impl SharedInside {
    pub(super) fn new(data: InsideData, files: &BTreeMap<String, String>, opts: &Options) -> Self {
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
pub struct Exports(pub(super) Option<std::sync::Arc<ExportSource>>);

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
pub(super) enum ExportSource {
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
    pub(super) fn built(g: crate::builder::Graph) -> Exports {
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
            Some(ExportSource::Built(g)) => crate::page::graph::mermaid(g.dag()),
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
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Why {
    /// The edge's kind in words when no reference caused it ("provider of this resource");
    /// "a reference" or "depends_on" when references did.
    pub reason: String,
    /// The transform that added it (OpenTofu's name).
    pub transform: std::borrow::Cow<'static, str>,
    /// The references that caused it.
    pub refs: Vec<RefLink>,
}

/// The most text (all files together) the app analyses. Above it the app says so instead of
/// working for seconds on every keystroke; the CLI has no such limit.
pub const MAX_INPUT_BYTES: usize = 4 * 1024 * 1024;
/// Inputs at least this large are analysed in slices that give the browser back control between
/// phases (and show progress); smaller ones are analysed at once, which is quicker than yielding.
pub const SLICE_FROM_BYTES: usize = 256 * 1024;

/// What the progress bar says between the builds of an input of [`SLICE_FROM_BYTES`] or more:
/// how long the last one took, from the request to its graph installed. The bar stays while the
/// input is that large, so the page's layout does not move at the start and end of each build (a
/// relayout and repaint of the whole page each time, frames of a walk missed while typing).
pub fn built_in(ms: f64) -> String {
    if ms < 1000.0 {
        format!("Built in {:.0} ms", ms.max(0.0))
    } else {
        format!("Built in {:.1} s", ms / 1000.0)
    }
}

/// What the editor's files hold besides configuration, and how the graph is limited.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Options {
    /// The root module's folder among the files (`""`: the top folder); see
    /// [`crate::page::files::root_candidates`].
    pub root: String,
    /// `-target` addresses.
    pub targets: Vec<String>,
    /// `-exclude` addresses.
    pub excludes: Vec<String>,
}
