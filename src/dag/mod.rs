//! dag: the directed graph every builder fills and every walk consumes, with OpenTofu v1.12.6's
//! `internal/dag` semantics (vertex naming, edge direction, `String()` text, root/validate/cycle
//! wording, transitive reduction, walk orders, DOT output).
//!
//! Edge direction follows OpenTofu: `connect(a, b)` means *a depends on b*. "Down" edges go from a
//! vertex to its dependencies, "up" edges from a vertex to its dependents.
//!
//! Where Go iterates a map (random order), this module iterates vertices sorted by name (ties broken
//! by [`VertexId`]), which is what OpenTofu's own tests do in their deterministic mode. Results that
//! Go leaves to chance (which cycle member is reported first, which ready vertex runs first) are
//! therefore stable here.

mod algo;
mod graph;
pub mod import;
pub mod render;

pub use algo::{DagError, ValidationError, WalkOrder, WalkTrace};
pub use graph::Graph;
pub use import::parse_dot;
pub use render::dot::{DotNode, DotOpts, DotVertex};

use std::fmt;

/// A graph vertex. Mirrors Go's `dag.Vertex` plus the optional interfaces OpenTofu's renderers look
/// for (`NamedVertex`, `GraphNodeDotter`, `Subgrapher`).
pub trait Vertex {
    /// The vertex's name (Go's `dag.VertexName`): used by `String()`, sorting and every renderer.
    fn name(&self) -> String;

    /// How the vertex draws itself in DOT (Go's `GraphNodeDotter.DotNode`). `name` is the vertex
    /// name already escaped for a DOT string. The default, [`DotVertex::NotDrawable`], is a vertex
    /// that does not implement `GraphNodeDotter` at all: it is left out of the DOT node list and out
    /// of highlighted cycles, but its edges are still drawn (as in OpenTofu).
    fn dot_node(&self, name: &str, opts: &DotOpts) -> DotVertex {
        let _ = (name, opts);
        DotVertex::NotDrawable
    }

    /// A nested graph this vertex stands for (Go's `Subgrapher`). The DOT renderer draws it as a
    /// separate `subgraph` (a `cluster_` when a module depth is given).
    fn subgraph(&self) -> Option<&Graph<Self>>
    where
        Self: Sized,
    {
        None
    }
}

impl Vertex for String {
    fn name(&self) -> String {
        self.clone()
    }
}

impl<T: Vertex + ?Sized> Vertex for Box<T> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn dot_node(&self, name: &str, opts: &DotOpts) -> DotVertex {
        (**self).dot_node(name, opts)
    }
}

/// Identifies a vertex within one [`Graph`]. Ids are handed out in increasing order by
/// [`Graph::add`] and never reused while the graph lives, so they stay valid across removals of
/// other vertices (unlike petgraph's `StableGraph`, whose freed slots are recycled).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct VertexId(u64);

impl VertexId {
    /// The raw number (stable, unique within the graph).
    pub fn index(self) -> u64 {
        self.0
    }
}

impl fmt::Display for VertexId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}
