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
mod indexed;
mod paths;
pub mod render;

pub use algo::{DagError, ValidationError, WalkOrder, WalkTrace};
pub use graph::{DotNode, DotOpts, DotVertex, Graph, Vertex, VertexId};
pub use import::parse_dot;
pub use indexed::{Edges, Indexed};
pub use paths::MAX_PATH_WORK;
