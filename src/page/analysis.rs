//! The engine run on the editor's files, as the page shows it: the files routed by role to the
//! pipeline's inputs, the pipeline run through its one paced entry ([`pipeline::run_paced`]), and
//! the result as plain data: the graph (also the graph that failed validation, drawn from the very
//! inputs that made it), where each vertex is declared, the builder's steps, diagnostics, cycles,
//! the exports. An imported DOT file stands in for the builder.

use super::files::{Role, classify};
use super::graph::{PageGraph, graph_of};
use crate::builder::{BuilderKind, Step};
use crate::config::Diagnostic;
use crate::dag;
use crate::pipeline::{self, Request};
use std::collections::BTreeMap;

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
/// to their inputs by [`classify`]. A DOT file replaces the builder altogether: its graph comes
/// back as the `Err` analysis, drawn as it is. The warnings name files that were ignored.
fn route(
    files: &BTreeMap<String, String>,
    kind: BuilderKind,
    opts: &Options,
) -> (Result<Request, Analysis>, Vec<Diag>) {
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
                mermaid: g.mermaid(),
                json: g.json_graph().to_json(),
                dot: dot.text.clone(),
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
fn page_graph(g: &dag::Graph<crate::builder::Node>) -> (PageGraph, BTreeMap<String, Decl>) {
    let ids: BTreeMap<dag::VertexId, usize> = g.ids().enumerate().map(|(i, id)| (id, i)).collect();
    let mut names = Vec::with_capacity(g.len());
    let mut decls = BTreeMap::new();
    for (_, node) in g.iter() {
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
    let mut a = match pipeline::run_paced(&req, None, pause).await? {
        Ok(out) => {
            let g = out.built.graph.dag();
            let (graph, decls) = page_graph(g);
            let expander = out.expander().map(|e| SharedExpander::new(e, files, kind));
            Analysis {
                dot: g.dot(&dag::render::dot::DotOpts::cli_default()),
                mermaid: g.mermaid(),
                json: g.json_graph().to_json(),
                graph: Some(graph),
                decls,
                steps: out.built.steps,
                warnings: out.warnings.iter().map(Diag::from).collect(),
                expander,
                ..Analysis::default()
            }
        }
        Err(failed) => {
            let mut a = Analysis {
                errors: failed.diagnostics.iter().map(Diag::from).collect(),
                ..Analysis::default()
            };
            if let Some(built) = failed.built {
                let g = built.graph.dag();
                a.cycles = cycles_of(g);
                if !a.cycles.is_empty() {
                    let (graph, decls) = page_graph(g);
                    a.graph = Some(graph);
                    a.decls = decls;
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
            excludes: Vec::new(),
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
        assert!(a.dot.starts_with("digraph"));
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
        assert_eq!(
            Some(a),
            Some(analyze(&files, BuilderKind::Plan, &Options::default()))
        );
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
                excludes: Vec::new(),
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
