//! Deposed objects (`node_resource_deposed.go`): an object set aside by a create_before_destroy
//! replacement whose deletion has not happened yet (`aws_instance.web (deposed 00000001)`).
//!
//! - `NodePlanDeposedResourceInstanceObject` plans its deletion (plan, refresh-only and destroy
//!   plans);
//! - `NodeDestroyDeposedResourceInstanceObject` deletes it during apply;
//! - `NodeForgetDeposedResourceInstanceObject` only removes it from the state during apply.

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Step, StepKind};

const FILE: &str = "node_resource_deposed.go";

const RESOLVE_DEPOSED_PROVIDER: Step = step(
    "get-provider",
    "Get the provider",
    "Work out which provider instance this deposed object uses and pick it up; the provider's \
     vertex configured it earlier.",
    &[Item::Provider],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.resolveProvider",
    ),
    StepKind::Bookkeeping,
);

const READ_DEPOSED: Step = step(
    "read-state",
    "Read the deposed object",
    "Read the deposed object from the prior state, by its deposed key.",
    &[Item::PriorState],
    &[],
    GoRef::new(
        ABSTRACT,
        "NodeAbstractResourceInstance.readResourceInstanceStateDeposed",
    ),
    StepKind::State,
);

const SAVE_PRIOR_DEPOSED: Step = step(
    "save-prior",
    "Keep the prior object",
    "Record the deposed object as it was before this run and as the start of the refreshed \
     state.",
    &[Item::PriorState],
    &[Item::RefreshedState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceStateDeposed",
    ),
    StepKind::State,
);

const DROP_DEPOSED: Step = step(
    "save-state",
    "Drop it from the new state",
    "Remove the deposed object from the new state: the plan deletes or forgets it.",
    &[],
    &[Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceStateDeposed",
    ),
    StepKind::State,
);

const KEEP_DEPOSED: Step = step(
    "save-state",
    "Keep the refreshed object",
    "In refresh-only mode nothing is planned: the refreshed deposed object stays in the new \
     state.",
    &[Item::RefreshedState],
    &[Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceStateDeposed",
    ),
    StepKind::State,
);

const SAVE_DEPOSED_CHANGE: Step = step(
    "save-change",
    "Save the planned deletion",
    "Save the planned deletion of the deposed object in the plan, under its deposed key.",
    &[],
    &[Item::PlannedChange],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeChange",
    ),
    StepKind::State,
);

/// Planning a deposed object's deletion. The destroy plan does not refresh it first.
pub fn plan_deposed(op: Operation) -> Evaluation {
    let mut steps = vec![RESOLVE_DEPOSED_PROVIDER, READ_DEPOSED, SAVE_PRIOR_DEPOSED];
    if op != Operation::Destroy {
        steps.push(REFRESH);
    }
    if op == Operation::RefreshOnly {
        steps.push(KEEP_DEPOSED);
    } else {
        steps.extend([PLAN_DESTROY, SAVE_DEPOSED_CHANGE, DROP_DEPOSED]);
    }
    Evaluation::new(GoNode::PlanDeposed, op, steps)
}

const DESTROY_PLAN: Step = step(
    "plan-change",
    "Plan the deletion",
    "Plan the deletion of the deposed object with the provider (PlanResourceChange with a null \
     configuration).",
    &[Item::Provider, Item::PriorState],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.planDestroy",
    ),
    StepKind::Provider,
);

const DESTROY_APPLY: Step = step(
    "apply",
    "Delete the deposed object",
    "Ask the provider to delete the deposed real object (ApplyResourceChange).",
    &[Item::Provider],
    &[Item::RealObject],
    GoRef::new(ABSTRACT_INSTANCE, "NodeAbstractResourceInstance.apply"),
    StepKind::Provider,
);

const DESTROY_SAVE: Step = step(
    "save-state",
    "Remove it from the new state",
    "Remove the deposed object from the new state (or keep it there if the deletion failed).",
    &[Item::RealObject],
    &[Item::NewState],
    GoRef::new(
        FILE,
        "NodeDestroyDeposedResourceInstanceObject.writeResourceInstanceState",
    ),
    StepKind::State,
);

/// Deleting a deposed object during apply.
pub fn destroy_deposed(op: Operation) -> Evaluation {
    Evaluation::new(
        GoNode::DestroyDeposed,
        op,
        vec![
            RESOLVE_DEPOSED_PROVIDER,
            READ_DEPOSED,
            DESTROY_PLAN,
            PRE_APPLY_HOOK,
            DESTROY_APPLY.weighted(8),
            DESTROY_SAVE,
            POST_APPLY_HOOK,
            UPDATE_STATE_HOOK,
        ],
    )
}

const FORGET_DEPOSED: Step = step(
    "forget",
    "Forget the deposed object",
    "Remove the deposed object from the new state without touching the real object.",
    &[],
    &[Item::NewState],
    GoRef::new(FILE, "NodeForgetDeposedResourceInstanceObject.Execute"),
    StepKind::State,
);

/// Forgetting a deposed object during apply.
pub fn forget_deposed(op: Operation) -> Evaluation {
    Evaluation::new(
        GoNode::ForgetDeposed,
        op,
        vec![
            RESOLVE_DEPOSED_PROVIDER,
            READ_DEPOSED,
            FORGET_DEPOSED,
            UPDATE_STATE_HOOK,
        ],
    )
}
