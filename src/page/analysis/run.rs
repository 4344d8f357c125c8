//! The editor's files routed by role to the pipeline's inputs and run through its one paced
//! entry, as an [`Analysis`].

use super::built::{
    config_files_of, cycles_of, import_dot, page_graph_at, variable_decls, whys_of,
};
use super::expander::SharedExpander;
use super::model::{Analysis, Exports, InsideData, MAX_INPUT_BYTES, Options, SharedInside};
use super::not_installed::NotInstalled;
use super::places::{Diag, editor_path};
use crate::builder::BuilderKind;
use crate::config::Diagnostic;
use crate::dag;
use crate::page::files::{Role, classify};
use crate::pipeline::{self, Progress, Request};
use std::collections::BTreeMap;

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
            variable_decls(&out.config, g, files, root, &mut decls);
            let expander = out
                .expander()
                .map(|e| SharedExpander::new(e, files, kind, root));
            let not_installed = out
                .config
                .not_installed_calls()
                .into_iter()
                .map(|(path, call)| NotInstalled {
                    module: path.to_string(),
                    source: call.source_text(),
                    file: editor_path(files, root, &call.decl_range.file),
                    line: call.decl_range.start.line,
                })
                .collect();
            let whys = whys_of(&out.built.graph, files, root);
            let step_table = Some(std::sync::Arc::new(out.step_table()));
            let actions = out.changes.as_ref().map(|c| crate::page::actions::of(g, c));
            let warnings = out.warnings.iter().map(diag).collect();
            let config_files = Some(config_files_of(&out.config, files, root));
            let op = crate::inside::Operation::of_builder(kind);
            let vertices = g
                .iter()
                .map(|(_, n)| {
                    (
                        dag::Vertex::name(n),
                        crate::inside::values::Subject::of_node(n),
                    )
                })
                .collect();
            let expansions = super::model::Expansions {
                nodes: g
                    .iter()
                    .filter(|(_, n)| n.kind().may_expand())
                    .map(|(_, n)| (dag::Vertex::name(n), n.clone()))
                    .collect(),
                state: req.state.as_ref().map(|t| t.text.clone()),
                ..Default::default()
            };
            let inside = SharedInside::new(
                InsideData {
                    expansions,
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
                whys: whys.into(),
                graph: Some(graph),
                decls,
                reduced: std::sync::Arc::new(super::model::reduced_of(&out.built.steps)),
                steps: out.built.steps.into(),
                warnings,
                expander,
                not_installed,
                config_files,
                actions,
                step_table,
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
                    a.whys = whys_of(&built.graph, files, root).into();
                    a.reduced = std::sync::Arc::new(super::model::reduced_of(&built.steps));
                    a.steps = built.steps.into();
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
