//! Output values (`node_output.go`):
//!
//! - `nodeExpandOutput` (`output.id (expand)`): expands into one vertex per module instance, a
//!   `NodeApplyableOutput`, or when planning a destroy a `NodeDestroyableOutput` for root module
//!   outputs;
//! - `NodeApplyableOutput`: evaluates the value and stores it (root outputs also get a planned
//!   change);
//! - `NodeDestroyableOutput` (`output.id (destroy)`): removes an output from the state (and plans
//!   that removal).

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Step, StepKind};

const FILE: &str = "node_output.go";

const USE_PLANNED: Step = step(
    "read-change",
    "Start from the planned value",
    "Take the value the plan recorded; only when it is missing or not wholly known is the \
     expression evaluated again.",
    &[Item::PlannedChange],
    &[],
    GoRef::new(FILE, "NodeApplyableOutput.Execute"),
    StepKind::State,
);

const PRECONDITIONS: Step = step(
    "preconditions",
    "Check preconditions",
    "Evaluate the output's precondition blocks (warnings only in refresh-only mode).",
    &[Item::Values],
    &[Item::CheckResults],
    GoRef::new("eval_conditions.go", "evalCheckRules"),
    StepKind::Check,
);

const EVALUATE: Step = step(
    "evaluate",
    "Evaluate the value",
    "Evaluate the output's value expression through the evaluation context; the edges guarantee \
     that what it refers to is done, though parts may be unknown until apply.",
    &[Item::Config, Item::Values],
    &[],
    GoRef::new("eval_context_builtin.go", "BuiltinEvalContext.EvaluateExpr"),
    StepKind::Evaluate,
);

const DEPENDS_ON: Step = step(
    "check-depends-on",
    "Check depends_on",
    "Check that the output's depends_on names only resources and modules.",
    &[Item::Config],
    &[],
    GoRef::new("node_resource_validate.go", "validateDependsOn"),
    StepKind::Check,
);

const SENSITIVE: Step = step(
    "check-sensitive",
    "Check sensitive and ephemeral values",
    "A root module output whose value is sensitive must be declared sensitive, and an ephemeral \
     value needs an output declared ephemeral (which root modules may not have).",
    &[Item::Config],
    &[],
    GoRef::new(FILE, "NodeApplyableOutput.validateEphemerality"),
    StepKind::Check,
);

const SET_VALUE: Step = step(
    "set-value",
    "Store the value",
    "Store the value in the new state, where the calling module reads it as module.NAME.OUTPUT; \
     a root module output also gets its planned change.",
    &[],
    &[Item::NewState, Item::EvalContext, Item::PlannedChange],
    GoRef::new(FILE, "NodeApplyableOutput.setValue"),
    StepKind::State,
);

/// `NodeApplyableOutput`: one module instance's output value. Its conditions are not evaluated
/// while destroying.
pub fn applyable_output(op: Operation) -> Evaluation {
    let mut steps = Vec::new();
    if op == Operation::Apply {
        steps.push(USE_PLANNED);
    }
    if op != Operation::Destroy {
        steps.push(PRECONDITIONS);
    }
    steps.extend([EVALUATE, DEPENDS_ON, SENSITIVE, SET_VALUE]);
    Evaluation::new(GoNode::ApplyableOutput, op, steps)
}

/// `nodeExpandOutput`: in a destroy plan, root module outputs expand into destroyable outputs.
pub fn expand_output(op: Operation) -> Evaluation {
    let instance = if op == Operation::Destroy {
        destroyable_output(op)
    } else {
        applyable_output(op)
    };
    Evaluation::new(
        GoNode::ExpandOutput,
        op,
        vec![
            module_instances(GoRef::new(FILE, "nodeExpandOutput.DynamicExpand")),
            one_per_module_instance(
                "Add one vertex per module instance for the output there (carrying any change \
                 the plan recorded for it), and a root.",
                GoRef::new(FILE, "nodeExpandOutput.DynamicExpand"),
            ),
            walk_subgraph("Walk the sub-graph; each vertex runs the steps below."),
        ],
    )
    .expanding_into(instance)
}

const PLAN_REMOVAL: Step = step(
    "save-change",
    "Plan the removal",
    "Record a planned change that deletes the output, with its old value from the prior state.",
    &[Item::PriorState],
    &[Item::PlannedChange],
    GoRef::new(FILE, "NodeDestroyableOutput.Execute"),
    StepKind::State,
);

const REMOVE: Step = step(
    "remove",
    "Remove the output",
    "Remove the output value from the new state.",
    &[],
    &[Item::NewState],
    GoRef::new(FILE, "NodeDestroyableOutput.Execute"),
    StepKind::State,
);

/// `NodeDestroyableOutput`: plans the removal in plan walks, then removes.
pub fn destroyable_output(op: Operation) -> Evaluation {
    let mut steps = Vec::new();
    if op != Operation::Apply {
        steps.push(PLAN_REMOVAL);
    }
    steps.push(REMOVE);
    Evaluation::new(GoNode::DestroyableOutput, op, steps)
}
