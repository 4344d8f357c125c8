//! `NodeForgetResourceInstance` (`node_resource_forget.go`): in the apply walk, an instance that a
//! `removed` block (or `lifecycle { destroy = false }`) takes out of the state without destroying
//! the real object (`aws_instance.old (forget)`).

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Step, StepKind};

const FORGET: Step = step(
    "forget",
    "Forget the object",
    "Remove every object of this instance from the new state; the real object is left alone and \
     OpenTofu no longer manages it.",
    &[],
    &[Item::NewState],
    GoRef::new(
        "node_resource_forget.go",
        "NodeForgetResourceInstance.Execute",
    ),
    StepKind::State,
);

/// Forgetting an instance during apply.
pub fn forget_instance(op: Operation) -> Evaluation {
    Evaluation::new(
        GoNode::ForgetInstance,
        op,
        vec![
            RESOLVE_PROVIDER,
            READ_PRIOR_STATE,
            FORGET,
            UPDATE_STATE_HOOK,
        ],
    )
}
