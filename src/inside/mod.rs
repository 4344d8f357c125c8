//! Inside a vertex: what OpenTofu does when its walk reaches a vertex.
//!
//! The graph says *when* each vertex runs; this module says *what* it runs. For every vertex
//! kind and walk operation, [`steps`] gives the ordered evaluation steps of OpenTofu v1.12.6's
//! node types (their `Execute` and `DynamicExpand` methods), each with what it reads and writes
//! and the Go function it comes from.
//!
//! Invariant: plain data and pure functions. Nothing here walks, draws or touches the DOM; the
//! walk ([`crate::walk`]), the CLI and the page read these tables, so they can never disagree
//! about what a vertex does.

pub mod expansion;
pub mod report;
pub mod steps;
pub mod values;

pub use steps::{
    Evaluation, GoNode, GoRef, Item, Operation, Phase, Placement, Step, StepKind, evaluation,
};
