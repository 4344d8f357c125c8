//! Layout inputs from elsewhere: a DOT file (vertices and edges as the file gives them, parsed
//! with graphviz-rust, `cluster*` subgraphs as nested clusters; an edge `a -> b` draws `a`
//! upstream of `b`, as Graphviz does), a built OpenTofu graph (clusters from the vertices' module
//! paths), and the way back to DOT so that Graphviz can draw the very same input.

use super::{Input, InputNode, monospace_size};
use crate::dag::{Graph, VertexId};
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
    /// Set once the edges would pass [`crate::dag::import::MAX_DOT_EDGES`]; reading stops.
    too_many_edges: bool,
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
            if self.too_many_edges {
                return;
            }
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
                        let pairs = w[0].len().saturating_mul(w[1].len());
                        if self.edges.len().saturating_add(pairs)
                            > crate::dag::import::MAX_DOT_EDGES
                        {
                            self.too_many_edges = true;
                        }
                        if self.too_many_edges {
                            return;
                        }
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
    crate::dag::import::bound_parser_work(text);
    let g = graphviz_rust::parse(text)?;
    let stmts = match &g {
        DotGraph::Graph { stmts, .. } | DotGraph::DiGraph { stmts, .. } => stmts,
    };
    let mut c = Collect::default();
    c.stmts(stmts, &[], &mut Vec::new());
    if c.too_many_edges {
        return Err(format!(
            "the graph has more than {} edges (an edge between subgraphs stands for every pair of their vertices)",
            crate::dag::import::MAX_DOT_EDGES
        ));
    }
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

/// A built graph's layout input: each vertex's cluster is its module path (`["module.a",
/// "module.b"]`), its label its name without that module prefix (the cluster box shows it), its
/// box sized to the label. Without `with_root`, the `root` vertex is left out: every vertex
/// without dependents leads into it, so on a real configuration it adds hundreds of long edges
/// converging on one box and nothing a reader needs (in plan graphs `root` is the root
/// module's closer) (the first real-world drawing was mostly
/// those edges). Returns the input and the labels by vertex id.
pub fn input_from_plan(
    g: &Graph<crate::builder::Node>,
    with_root: bool,
) -> (Input, BTreeMap<VertexId, String>) {
    let mut labels = BTreeMap::new();
    let mut input = Input::from_graph(
        g,
        |id, v| {
            let name = v.name();
            let path = v.module_path().map(|m| m.0).unwrap_or_default();
            let prefix: String = path.iter().map(|m| format!("module.{m}.")).collect();
            let short = name
                .strip_prefix(&prefix)
                .filter(|s| !s.is_empty())
                .unwrap_or(&name)
                .to_string();
            let size = monospace_size(&short);
            labels.insert(id, short);
            size
        },
        |_, v| {
            v.module_path()
                .map(|m| m.0.iter().map(|n| format!("module.{n}")).collect())
                .unwrap_or_default()
        },
    );
    if !with_root && let Some(r) = input.nodes.iter().position(|n| n.name == "root") {
        input.nodes.remove(r);
        input.edges = input
            .edges
            .iter()
            .filter(|&&(a, b)| a != r && b != r)
            .map(|&(a, b)| (a - usize::from(a > r), b - usize::from(b > r)))
            .collect();
    }
    (input, labels)
}

/// The input as a DOT digraph for Graphviz: boxes of the same size (points -> inches, fixed),
/// clusters as nested `cluster_` subgraphs, edges upstream -> downstream, `rankdir=LR` for
/// left to right. Vertices are `n0, n1, ...` in input order.
pub fn input_to_dot(input: &Input, direction: super::Direction) -> String {
    use std::fmt::Write as _;
    let mut members: BTreeMap<Vec<String>, Vec<usize>> = BTreeMap::new();
    for (i, n) in input.nodes.iter().enumerate() {
        for k in 0..n.cluster.len() {
            members.entry(n.cluster[..k].to_vec()).or_default();
        }
        members.entry(n.cluster.clone()).or_default().push(i);
    }
    let mut s = String::from("digraph G {\n  node [shape=box, fixedsize=true, label=\"\"];\n");
    if direction == super::Direction::LeftToRight {
        s.push_str("  rankdir=LR;\n");
    }
    let mut cluster_no = 0usize;
    fn emit(
        path: &[String],
        members: &BTreeMap<Vec<String>, Vec<usize>>,
        input: &Input,
        depth: usize,
        cluster_no: &mut usize,
        s: &mut String,
    ) {
        let indent = "  ".repeat(depth + 1);
        for &i in members.get(path).map(Vec::as_slice).unwrap_or(&[]) {
            let n = &input.nodes[i];
            let _ = writeln!(
                s,
                "{indent}n{i} [width={:.4}, height={:.4}];",
                n.width.max(0.0) / 72.0,
                n.height.max(0.0) / 72.0
            );
        }
        for child in members
            .keys()
            .filter(|k| k.len() == path.len() + 1 && k.starts_with(path))
        {
            *cluster_no += 1;
            let title = child
                .last()
                .map(String::as_str)
                .unwrap_or("")
                .replace('"', "'");
            let _ = writeln!(s, "{indent}subgraph cluster_{} {{", *cluster_no);
            let _ = writeln!(s, "{indent}  label=\"{title}\";");
            emit(child, members, input, depth + 1, cluster_no, s);
            let _ = writeln!(s, "{indent}}}");
        }
    }
    emit(&[], &members, input, 0, &mut cluster_no, &mut s);
    for &(a, b) in &input.edges {
        let _ = writeln!(s, "  n{a} -> n{b};");
    }
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    // Found with the dot_import fuzz target: edges between subgraphs multiply (1.7 million edges
    // from 43 KB, then out of memory).
    #[test]
    fn edges_between_subgraphs_are_bounded() {
        let group = |p: &str, n: usize| {
            (0..n)
                .map(|i| format!("{p}{i}"))
                .collect::<Vec<_>>()
                .join(";")
        };
        let text = |n| {
            format!(
                "digraph {{ x -> subgraph {{{}}} -> subgraph {{{}}} }}",
                group("a", n),
                group("b", n)
            )
        };
        let ok = input_from_dot(&text(400)).expect("160,400 edges are read");
        assert_eq!(ok.edges.len(), 160_400);
        let err = input_from_dot(&text(500)).expect_err("250,500 edges are too many");
        assert!(
            err.starts_with("the graph has more than 200000 edges"),
            "{err}"
        );
    }

    #[test]
    fn dot_round_trip_keeps_edges_and_clusters() {
        let input = input_from_dot(
            "digraph { subgraph cluster_a { x; subgraph cluster_b { y } } x -> y; y -> z }",
        )
        .expect("parsed");
        let back = input_from_dot(&input_to_dot(&input, super::super::Direction::TopToBottom))
            .expect("reparsed");
        // Vertices come back in cluster order, named `n<index in the input>`.
        let index = |i: usize| -> usize { back.nodes[i].name[1..].parse().expect("n<i>") };
        let edges: Vec<(usize, usize)> = back
            .edges
            .iter()
            .map(|&(a, b)| (index(a), index(b)))
            .collect();
        assert_eq!(edges, input.edges);
        let mut depth: Vec<(usize, usize)> = (0..3)
            .map(|i| (index(i), back.nodes[i].cluster.len()))
            .collect();
        depth.sort();
        assert_eq!(depth, [(0, 1), (1, 2), (2, 0)]);
    }

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
