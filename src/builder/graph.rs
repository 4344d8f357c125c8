//! The graph the transforms work on: vertices are [`Node`]s, an edge `a → b` means "a depends on
//! b" (Go `dag.BasicEdge(a, b)`). Ids are allocation-ordered so every iteration is deterministic.
//!
//! A thin layer over [`crate::dag::Graph`] that adds what the builder needs: in-place access to
//! node data and, per transform, a record of what changed ([`Step`]).

use super::nodes::Node;
use crate::dag;
use std::collections::{BTreeMap, BTreeSet};

pub type VId = dag::VertexId;

impl dag::Vertex for Node {
    fn name(&self) -> String {
        Node::name(self)
    }

    /// OpenTofu's `GraphNodeDotter` implementations: resources (and their instances) are boxes
    /// labelled with the resource address, provider configurations diamonds (their closers only in
    /// verbose graphs), root variables and removed outputs notes; other vertex types do not draw
    /// themselves.
    fn dot_node(&self, name: &str, opts: &dag::DotOpts) -> dag::DotVertex {
        let node = |label: String, shape: &str| {
            let mut attrs = BTreeMap::new();
            attrs.insert("label".to_string(), label);
            attrs.insert("shape".to_string(), shape.to_string());
            dag::DotVertex::Node(dag::DotNode {
                name: name.to_string(),
                attrs,
            })
        };
        match self {
            Node::Resource { d, .. }
            | Node::Instance {
                d: super::nodes::InstanceData { res: d, .. },
                ..
            } => node(d.addr.to_string(), "box"),
            Node::Provider { addr, .. } => node(addr.to_string(), "diamond"),
            Node::CloseProvider { .. } if !opts.verbose => dag::DotVertex::Hidden,
            Node::CloseProvider { .. } => node(self.name(), "diamond"),
            // NodeRootVariable and NodeDestroyableOutput (internal/tofu/node_output.go).
            Node::RootVariable { .. } | Node::DestroyOutput { .. } => node(self.name(), "note"),
            _ => dag::DotVertex::NotDrawable,
        }
    }
}

/// The builder's graph: a [`dag::Graph`] of [`Node`]s with the operations transforms use.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    g: dag::Graph<Node>,
}

/// What one transform changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Step {
    pub name: String,
    pub added_vertices: Vec<String>,
    pub removed_vertices: Vec<String>,
    /// `(from, to)`: from depends on to.
    pub added_edges: Vec<(String, String)>,
    pub removed_edges: Vec<(String, String)>,
}

/// A snapshot used to compute a [`Step`].
#[derive(Clone, Debug)]
pub struct Snapshot {
    vertices: BTreeMap<VId, String>,
    edges: BTreeSet<(VId, VId)>,
}

impl Graph {
    pub fn new() -> Self {
        Self::default()
    }

    /// The underlying generic graph (for rendering and walking).
    pub fn dag(&self) -> &dag::Graph<Node> {
        &self.g
    }

    pub fn into_dag(self) -> dag::Graph<Node> {
        self.g
    }

    pub fn add(&mut self, n: Node) -> VId {
        self.g.add(n)
    }

    pub fn remove(&mut self, v: VId) {
        self.g.remove(v);
    }

    /// Replaces the vertex `old` with `n`, keeping its id and edges (Go `Graph.Replace`).
    pub fn replace(&mut self, old: VId, n: Node) -> VId {
        self.g.replace(old, n);
        old
    }

    /// `from` depends on `to`. Self-loops are ignored.
    pub fn connect(&mut self, from: VId, to: VId) {
        if from != to {
            self.g.connect(from, to);
        }
    }

    pub fn remove_edge(&mut self, from: VId, to: VId) {
        self.g.remove_edge(from, to);
    }

    pub fn has_edge(&self, from: VId, to: VId) -> bool {
        self.g.has_edge(from, to)
    }

    pub fn vertices(&self) -> Vec<VId> {
        self.g.ids().collect()
    }

    pub fn len(&self) -> usize {
        self.g.len()
    }

    pub fn is_empty(&self) -> bool {
        self.g.is_empty()
    }

    /// The vertex `v`; panics only on an id that was never in the graph (a builder bug).
    pub fn node(&self, v: VId) -> &Node {
        self.g.vertex(v).expect("vertex id from this graph")
    }

    pub fn get(&self, v: VId) -> Option<&Node> {
        self.g.vertex(v)
    }

    pub fn node_mut(&mut self, v: VId) -> Option<&mut Node> {
        self.g.vertex_mut(v)
    }

    pub fn contains(&self, v: VId) -> bool {
        self.g.has_vertex(v)
    }

    /// What `v` depends on.
    pub fn down_edges(&self, v: VId) -> Vec<VId> {
        self.g.down_edges(v).into_iter().collect()
    }

    /// What depends on `v`.
    pub fn up_edges(&self, v: VId) -> Vec<VId> {
        self.g.up_edges(v).into_iter().collect()
    }

    pub fn edges(&self) -> Vec<(VId, VId)> {
        self.g.edges()
    }

    /// Both are resource instances of the same module but in different instances of it (edges
    /// between them are not made).
    pub fn in_different_module_instances(&self, a: VId, b: VId) -> bool {
        match (self.node(a).instance_addr(), self.node(b).instance_addr()) {
            (Some(x), Some(y)) => x.module.module() == y.module.module() && x.module != y.module,
            _ => false,
        }
    }

    /// Everything `v` depends on, directly or not (Go `Ancestors`).
    pub fn ancestors(&self, v: VId) -> BTreeSet<VId> {
        self.g.ancestors(v)
    }

    /// Everything that depends on `v`, directly or not (Go `Descendents`).
    pub fn descendants(&self, v: VId) -> BTreeSet<VId> {
        self.g.descendants(v)
    }

    /// Go's `TransitiveReduction`.
    pub fn transitive_reduction(&mut self) {
        self.g.transitive_reduction();
    }

    /// Go's `Validate`: exactly one root and no cycles.
    pub fn is_valid(&self) -> bool {
        self.g.validate().is_ok()
    }

    /// Go `Graph.String()`: vertices sorted by name, each followed by its sorted dependencies.
    pub fn string(&self) -> String {
        self.g.string()
    }

    /// Cycles (strongly connected components with more than one vertex), as vertex names.
    pub fn cycles(&self) -> Vec<Vec<String>> {
        self.g
            .cycles()
            .into_iter()
            .map(|c| {
                let mut names: Vec<String> = c.iter().map(|v| self.node(*v).name()).collect();
                names.sort();
                names
            })
            .collect()
    }

    /// Finds a vertex by name.
    pub fn find(&self, name: &str) -> Option<VId> {
        self.g.find_by_name(name)
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            vertices: self.g.iter().map(|(id, n)| (id, n.name())).collect(),
            edges: self.edges().into_iter().collect(),
        }
    }

    /// The changes since `before`, as a named step.
    pub fn diff(&self, before: &Snapshot, name: &str) -> Step {
        Self::changes(before, &self.snapshot(), name)
    }

    /// The changes from one snapshot to a later one, as a named step.
    pub fn changes(before: &Snapshot, after: &Snapshot, name: &str) -> Step {
        let vname = |id: &VId| {
            after
                .vertices
                .get(id)
                .or_else(|| before.vertices.get(id))
                .cloned()
                .unwrap_or_default()
        };
        Step {
            name: name.to_string(),
            added_vertices: after
                .vertices
                .iter()
                .filter(|(id, _)| !before.vertices.contains_key(id))
                .map(|(_, n)| n.clone())
                .collect(),
            removed_vertices: before
                .vertices
                .iter()
                .filter(|(id, _)| !after.vertices.contains_key(id))
                .map(|(_, n)| n.clone())
                .collect(),
            added_edges: after
                .edges
                .difference(&before.edges)
                .map(|(a, b)| (vname(a), vname(b)))
                .collect(),
            removed_edges: before
                .edges
                .difference(&after.edges)
                .map(|(a, b)| (vname(a), vname(b)))
                .collect(),
        }
    }
}
