//! Layout inputs from elsewhere: a DOT file (vertices and edges as the file gives them, read by
//! `dag::import::read_dot`, `cluster*` subgraphs as nested clusters; an edge `a -> b` draws `a`
//! upstream of `b`, as Graphviz does), a built OpenTofu graph (clusters from the vertices' module
//! paths), and the way back to DOT so that Graphviz can draw the very same input.

use super::{Input, InputNode, monospace_size};
use crate::dag::{Graph, VertexId};
use std::collections::BTreeMap;

/// Reads a DOT graph into a layout [`Input`] with [`crate::dag::import::read_dot`] (the one DOT
/// reader); box sizes from labels ([`monospace_size`]).
pub fn input_from_dot(text: &str) -> Result<Input, String> {
    let doc = crate::dag::import::read_dot("", text).map_err(|d| {
        if d.detail.is_empty() {
            d.summary
        } else {
            d.detail
        }
    })?;
    // Ids are handed out by a scratch graph so that they are ordinary vertex ids.
    let mut ids = Graph::<()>::new();
    let nodes = doc
        .vertices
        .into_iter()
        .map(|v| {
            let name = v.label.unwrap_or(v.name);
            let (width, height) = monospace_size(&name);
            InputNode {
                id: ids.add(()),
                name,
                width,
                height,
                cluster: v.cluster,
                typed: v.typed,
            }
        })
        .collect();
    Ok(Input {
        nodes,
        edges: doc.edges,
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
    if !with_root
        && let Some(r) = input
            .nodes
            .iter()
            .position(|n| n.typed.kind == crate::kind::VertexKind::Root)
    {
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

/// The input as an ELK JSON graph for elkjs's layered algorithm (`scripts/elk-layout.mjs`, as
/// `tfgraph bench` runs it): vertices `n0, n1, ...` with their box sizes, clusters as nested
/// compound nodes `c0, c1, ...`, every edge `e<k>` (the input's k-th) on the root from the
/// upstream end, the hierarchy laid out as a whole (`INCLUDE_CHILDREN`), spacing as ours.
pub fn input_to_elk(input: &Input, direction: super::Direction) -> String {
    use serde_json::{Value, json};
    let opts = super::LayoutOptions::default();
    let mut members: BTreeMap<Vec<String>, Vec<usize>> = BTreeMap::new();
    for (i, n) in input.nodes.iter().enumerate() {
        for k in 0..n.cluster.len() {
            members.entry(n.cluster[..k].to_vec()).or_default();
        }
        members.entry(n.cluster.clone()).or_default().push(i);
    }
    fn children(
        path: &[String],
        members: &BTreeMap<Vec<String>, Vec<usize>>,
        input: &Input,
        next: &mut usize,
    ) -> Vec<Value> {
        let mut out: Vec<Value> = members
            .get(path)
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .map(|&i| {
                let n = &input.nodes[i];
                json!({"id": format!("n{i}"), "width": n.width.max(0.0), "height": n.height.max(0.0)})
            })
            .collect();
        for child in members
            .keys()
            .filter(|k| k.len() == path.len() + 1 && k.starts_with(path))
        {
            let id = format!("c{next}");
            *next += 1;
            out.push(json!({
                "id": id,
                "labels": [{"text": child.last().cloned().unwrap_or_default()}],
                "children": children(child, members, input, next),
            }));
        }
        out
    }
    let mut next = 0;
    let edges: Vec<Value> = input
        .edges
        .iter()
        .enumerate()
        .map(|(k, &(a, b))| json!({"id": format!("e{k}"), "sources": [format!("n{a}")], "targets": [format!("n{b}")]}))
        .collect();
    let dir = match direction {
        super::Direction::TopToBottom => "DOWN",
        super::Direction::LeftToRight => "RIGHT",
    };
    json!({
        "id": "root",
        "layoutOptions": {
            "elk.algorithm": "layered",
            "elk.direction": dir,
            "elk.hierarchyHandling": "INCLUDE_CHILDREN",
            "elk.spacing.nodeNode": opts.node_sep,
            "elk.layered.spacing.nodeNodeBetweenLayers": opts.rank_sep,
        },
        "children": children(&[], &members, input, &mut next),
        "edges": edges,
    })
    .to_string()
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
        assert!(err.contains("more than 200000 edges"), "{err}");
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

    #[test]
    fn elk_graph_nests_clusters_and_keeps_edges_in_order() {
        let input = input_from_dot(
            "digraph { subgraph cluster_a { x; subgraph cluster_b { y } } x -> y; y -> z }",
        )
        .expect("parsed");
        let v: serde_json::Value =
            serde_json::from_str(&input_to_elk(&input, super::super::Direction::TopToBottom))
                .expect("json");
        assert_eq!(
            v["layoutOptions"]["elk.hierarchyHandling"],
            "INCLUDE_CHILDREN"
        );
        let edges: Vec<(String, String)> = v["edges"]
            .as_array()
            .expect("edges")
            .iter()
            .map(|e| (e["sources"][0].to_string(), e["targets"][0].to_string()))
            .collect();
        let name = |i: usize| format!("\"n{i}\"");
        let want: Vec<(String, String)> = input
            .edges
            .iter()
            .map(|&(a, b)| (name(a), name(b)))
            .collect();
        assert_eq!(edges, want);
        // z at the top, cluster a holding x and cluster b holding y.
        let top = v["children"].as_array().expect("children");
        assert_eq!(top.len(), 2);
        let a = &top[1];
        assert_eq!(a["labels"][0]["text"], "a");
        let inner = a["children"].as_array().expect("a's children");
        assert_eq!(inner.len(), 2);
        assert_eq!(inner[1]["children"].as_array().map(Vec::len), Some(1));
    }
}
