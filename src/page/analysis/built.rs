//! The built graph (or an imported DOT file's) as the page's: its vertices with their kinds,
//! where they are declared, why each edge exists, the cycles, the files the build read.

use super::model::{Analysis, ExportSource, Exports, Why};
use super::places::{Decl, Diag, RefLink, editor_path};
use crate::dag;
use crate::page::graph::{PageGraph, PageVertex};
use crate::pipeline;
use std::collections::{BTreeMap, BTreeSet};

/// The page's [`Why`]s of a built graph.
pub(super) fn whys_of(
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
                    transform: w.transform.into(),
                    refs,
                },
            )
        })
        .collect()
}

/// Where the input variables behind `var.x` and `module.m.var.x (expand, reference)` vertices
/// are declared: their vertices carry no configuration of their own.
pub(super) fn variable_decls(
    cfg: &crate::config::Config,
    g: &dag::Graph<crate::builder::Node>,
    files: &BTreeMap<String, String>,
    root: &str,
    decls: &mut BTreeMap<String, Decl>,
) {
    use crate::builder::Node;
    for (_, node) in g.iter() {
        let (module, var) = match node {
            Node::RootVariable { name } => (crate::addrs::Module::root(), name),
            Node::VariableReference { module, name, .. } => (module.clone(), name),
            _ => continue,
        };
        let name = node.name();
        if decls.contains_key(&name) {
            continue;
        }
        if let Some(r) = cfg
            .descendant(&module)
            .and_then(|c| c.module.variables.get(var))
            .map(|var| &var.decl_range)
        {
            decls.insert(
                name,
                Decl {
                    file: editor_path(files, root, &r.file),
                    line: r.start.line,
                    end_line: r.end.line.max(r.start.line),
                },
            );
        }
    }
}

/// The editor's paths of every file the configuration tree `cfg` was read from, at root `root`.
pub(super) fn config_files_of(
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
pub(super) fn cycles_of<V: dag::Vertex>(g: &dag::Graph<V>) -> Vec<Vec<String>> {
    g.cycles()
        .into_iter()
        .map(|c| c.iter().map(|id| g.name_of(*id)).collect())
        .collect()
}

/// An imported DOT graph as an analysis: drawn and walked as it is, with no builder steps.
pub(super) fn import_dot(dot: &pipeline::NamedText) -> Analysis {
    match dag::import::read_dot(&dot.name, &dot.text) {
        Ok(read) => {
            // The file's names are all it has: the kinds the reader derived from them.
            let vertices = read
                .vertices
                .into_iter()
                .map(|v| PageVertex::new(v.name, v.typed))
                .collect();
            let graph =
                PageGraph::new(vertices, read.edges.iter().copied().filter(|(a, b)| a != b));
            let (g, _) = graph.to_graph();
            Analysis {
                exports: Exports(Some(std::sync::Arc::new(ExportSource::Ready {
                    dot: dot.text.clone(),
                    mermaid: crate::page::graph::mermaid(&g),
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
pub(super) fn page_graph(
    g: &dag::Graph<crate::builder::Node>,
) -> (PageGraph, BTreeMap<String, Decl>) {
    page_graph_at(g, &BTreeMap::new(), "")
}

/// [`page_graph`] of a run at root module `root`: declarations carry the editor's paths.
pub(super) fn page_graph_at(
    g: &dag::Graph<crate::builder::Node>,
    files: &BTreeMap<String, String>,
    root: &str,
) -> (PageGraph, BTreeMap<String, Decl>) {
    let ids: BTreeMap<dag::VertexId, usize> = g.ids().enumerate().map(|(i, id)| (id, i)).collect();
    let mut vertices = Vec::with_capacity(g.len());
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
        vertices.push(PageVertex::new(name, node.typed()));
    }
    let edges = g
        .edges()
        .into_iter()
        .filter_map(|(a, b)| Some((*ids.get(&a)?, *ids.get(&b)?)));
    (PageGraph::new(vertices, edges), decls)
}
