//! `graphNodeRoot` (`transform_root.go`), the single root that sub-graphs and older graphs end
//! in, and vertices whose type is not known: the walker visits them and runs nothing
//! (`Graph.walk` in `graph.go` calls only `Execute` and `DynamicExpand`, which they lack).

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Operation, Step, StepKind};

const VISIT: Step = step(
    "visit",
    "Nothing to run",
    "The root only gives the graph a single end; the walker visits it last and moves on.",
    &[],
    &[],
    GoRef::new("graph.go", "Graph.walk"),
    StepKind::Bookkeeping,
);

const UNKNOWN: Step = step(
    "visit",
    "Unknown vertex type",
    "The vertex's name does not say which of OpenTofu's types it is, so what it runs is not \
     known; the walker calls its Execute and DynamicExpand methods if it has them.",
    &[],
    &[],
    GoRef::new("graph.go", "Graph.walk"),
    StepKind::Bookkeeping,
);

pub fn root(op: Operation) -> Evaluation {
    Evaluation::new(GoNode::Root, op, vec![VISIT])
}

pub fn unknown(op: Operation) -> Evaluation {
    Evaluation::new(GoNode::Unknown, op, vec![UNKNOWN])
}
