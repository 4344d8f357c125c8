//! A DOT file as layout input: vertices and edges as the file gives them (parsed with
//! graphviz-rust), `cluster*` subgraphs as (nested) clusters. An edge `a -> b` draws `a` upstream
//! of `b`, as Graphviz does.

use super::{Input, InputNode, monospace_size};
use crate::dag::Graph;
use graphviz_rust::dot_structures::{
    Attribute, EdgeTy, Graph as DotGraph, Id, Stmt, Subgraph, Vertex as DotVertex,
};
use std::collections::BTreeMap;

/// The text of a DOT id: quotes and escapes of quoted ids removed.
fn id_text(id: &Id) -> String {
    match id {
        Id::Escaped(s) => {
            let inner = s
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .unwrap_or(s);
            inner.replace("\\\"", "\"").replace("\\\\", "\\")
        }
        Id::Html(s) | Id::Plain(s) | Id::Anonymous(s) => s.clone(),
    }
}

fn label_of(attrs: &[Attribute]) -> Option<String> {
    attrs
        .iter()
        .find(|a| id_text(&a.0) == "label")
        .map(|a| id_text(&a.1).replace("\\n", "\n"))
}

#[derive(Default)]
struct Collect {
    index: BTreeMap<String, usize>,
    names: Vec<String>,
    labels: Vec<Option<String>>,
    clusters: Vec<Vec<String>>,
    edges: Vec<(usize, usize)>,
}

impl Collect {
    /// The vertex `name`; the first cluster it is mentioned in is its cluster.
    fn vertex(&mut self, name: String, path: &[String]) -> usize {
        if let Some(&i) = self.index.get(&name) {
            return i;
        }
        let i = self.names.len();
        self.index.insert(name.clone(), i);
        self.names.push(name);
        self.labels.push(None);
        self.clusters.push(path.to_vec());
        i
    }

    /// The vertices an edge end names (a subgraph end stands for all its vertices).
    fn ends(&mut self, v: &DotVertex, path: &[String]) -> Vec<usize> {
        match v {
            DotVertex::N(n) => vec![self.vertex(id_text(&n.0), path)],
            DotVertex::S(s) => {
                let mut mentioned = Vec::new();
                self.subgraph(s, path, &mut mentioned);
                mentioned
            }
        }
    }

    fn stmts(&mut self, stmts: &[Stmt], path: &[String], mentioned: &mut Vec<usize>) {
        for st in stmts {
            match st {
                Stmt::Node(n) => {
                    let i = self.vertex(id_text(&n.id.0), path);
                    if let Some(l) = label_of(&n.attributes) {
                        self.labels[i] = Some(l);
                    }
                    mentioned.push(i);
                }
                Stmt::Edge(e) => {
                    let chain: Vec<&DotVertex> = match &e.ty {
                        EdgeTy::Pair(a, b) => vec![a, b],
                        EdgeTy::Chain(c) => c.iter().collect(),
                    };
                    let ends: Vec<Vec<usize>> = chain.iter().map(|v| self.ends(v, path)).collect();
                    for w in ends.windows(2) {
                        for &a in &w[0] {
                            for &b in &w[1] {
                                self.edges.push((a, b));
                            }
                        }
                    }
                    mentioned.extend(ends.into_iter().flatten());
                }
                Stmt::Subgraph(s) => self.subgraph(s, path, mentioned),
                Stmt::Attribute(_) | Stmt::GAttribute(_) => {}
            }
        }
    }

    fn subgraph(&mut self, s: &Subgraph, path: &[String], mentioned: &mut Vec<usize>) {
        let id = id_text(&s.id);
        let mut inner = path.to_vec();
        if id.starts_with("cluster") {
            // The cluster's label if it has one, otherwise its id without the prefix.
            let label = s
                .stmts
                .iter()
                .find_map(|st| match st {
                    Stmt::Attribute(a) if id_text(&a.0) == "label" => Some(id_text(&a.1)),
                    _ => None,
                })
                .filter(|l| !l.is_empty())
                .unwrap_or_else(|| {
                    id.trim_start_matches("cluster")
                        .trim_start_matches('_')
                        .to_string()
                });
            inner.push(label);
        }
        self.stmts(&s.stmts, &inner, mentioned);
    }
}

/// Reads a DOT graph into a layout [`Input`]; box sizes from labels ([`monospace_size`]).
pub fn input_from_dot(text: &str) -> Result<Input, String> {
    let g = graphviz_rust::parse(text)?;
    let stmts = match &g {
        DotGraph::Graph { stmts, .. } | DotGraph::DiGraph { stmts, .. } => stmts,
    };
    let mut c = Collect::default();
    c.stmts(stmts, &[], &mut Vec::new());
    // Ids are handed out by a scratch graph so that they are ordinary vertex ids.
    let mut ids = Graph::<()>::new();
    let nodes = (0..c.names.len())
        .map(|i| {
            let name = c.labels[i].clone().unwrap_or_else(|| c.names[i].clone());
            let (width, height) = monospace_size(&name);
            InputNode {
                id: ids.add(()),
                name,
                width,
                height,
                cluster: c.clusters[i].clone(),
            }
        })
        .collect();
    Ok(Input {
        nodes,
        edges: c.edges,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_vertices_edges_labels_and_nested_clusters() {
        let input = input_from_dot(
            "digraph {\n  \"a\" [label = \"A\"];\n  subgraph cluster_m {\n    label = \"module.m\";\n    b; subgraph cluster_n { c }\n  }\n  a -> b -> c;\n  a -> d\n}\n",
        )
        .expect("parsed");
        let names: Vec<&str> = input.nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["A", "b", "c", "d"]);
        assert_eq!(input.edges, [(0, 1), (1, 2), (0, 3)]);
        assert_eq!(input.nodes[1].cluster, ["module.m"]);
        assert_eq!(input.nodes[2].cluster, ["module.m", "n"]);
        assert!(input.nodes[3].cluster.is_empty());
        assert!(input_from_dot("digraph {").is_err());
    }
}
