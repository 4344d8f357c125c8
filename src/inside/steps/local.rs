//! Local values (`node_local.go`): `local.tags (expand)` is a `nodeExpandLocal`, which expands
//! into one `NodeLocal` per module instance; each evaluates the expression and stores the result
//! as `local.tags` for that instance.

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Step, StepKind};

const FILE: &str = "node_local.go";

const SELF_REFERENCE: Step = step(
    "check-self-reference",
    "Refuse self-references",
    "Stop with an error if the expression refers to the local value itself.",
    &[Item::Config],
    &[],
    GoRef::new(FILE, "NodeLocal.Execute"),
    StepKind::Check,
);

const EVALUATE: Step = step(
    "evaluate",
    "Evaluate the expression",
    "Evaluate the local's expression in this module instance; what it refers to is read from the \
     evaluation context, and the edges guarantee those vertices are done.",
    &[Item::Config, Item::Values],
    &[],
    GoRef::new("eval_context_builtin.go", "BuiltinEvalContext.EvaluateExpr"),
    StepKind::Evaluate,
);

const STORE: Step = step(
    "set-value",
    "Make it local.NAME",
    "Store the value in the new state for this module instance, where later expressions read it \
     as local.NAME.",
    &[],
    &[Item::EvalContext, Item::NewState],
    GoRef::new(FILE, "NodeLocal.Execute"),
    StepKind::Bookkeeping,
);

/// `NodeLocal`: one module instance's value.
pub fn local(op: Operation) -> Evaluation {
    Evaluation::new(GoNode::Local, op, vec![SELF_REFERENCE, EVALUATE, STORE])
}

/// `nodeExpandLocal`: the same in every walk.
pub fn expand_local(op: Operation) -> Evaluation {
    Evaluation::new(
        GoNode::ExpandLocal,
        op,
        vec![
            module_instances(GoRef::new(FILE, "nodeExpandLocal.DynamicExpand")),
            one_per_module_instance(
                "Add one vertex per module instance to compute the value there, and a root.",
                GoRef::new(FILE, "nodeExpandLocal.DynamicExpand"),
            ),
            walk_subgraph("Walk the sub-graph; each vertex runs the steps below."),
        ],
    )
    .expanding_into(local(op))
}
