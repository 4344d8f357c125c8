//! The two `(destroy)` vertex types:
//!
//! - `NodePlanDestroyableResourceInstance` (`node_resource_plan_destroy.go`): in the destroy
//!   plan, one per instance in the prior state; it plans the deletion;
//! - `NodeDestroyResourceInstance` (`node_resource_destroy.go`): in the apply walk, one per
//!   planned deletion (including the old half of a replacement); it deletes the real object.

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Step, StepKind};
use crate::addrs::ResourceMode;

const PLAN_FILE: &str = "node_resource_plan_destroy.go";
const APPLY_FILE: &str = "node_resource_destroy.go";

const SAVE_PRIOR_IF_NO_REFRESH: Step = step(
    "save-prior",
    "Keep the prior object",
    "Record the object as it was before this run (the refresh that normally does this is \
     skipped when planning a destroy with -refresh=false).",
    &[Item::PriorState],
    &[Item::RefreshedState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceState",
    ),
    StepKind::State,
);

const DATA_PLAN_DELETE: Step = step(
    "save-change",
    "Plan to drop the data",
    "A data source has no real object to delete: save a delete change that only removes its \
     result from the state.",
    &[],
    &[Item::PlannedChange],
    GoRef::new(
        PLAN_FILE,
        "NodePlanDestroyableResourceInstance.dataResourceExecute",
    ),
    StepKind::State,
);

const PLAN_EPHEMERAL_ERROR: Step = step(
    "report-bug",
    "Report an internal error",
    "Ephemeral resources are never in state, so planning to destroy one is reported as a bug in \
     OpenTofu.",
    &[],
    &[],
    GoRef::new(
        PLAN_FILE,
        "NodePlanDestroyableResourceInstance.ephemeralResourceExecute",
    ),
    StepKind::Check,
);

/// The destroy plan's steps for one instance in state.
pub fn plan_destroyable(mode: ResourceMode, op: Operation) -> Evaluation {
    let steps = match mode {
        ResourceMode::Managed => vec![
            RESOLVE_PROVIDER,
            READ_PRIOR_STATE,
            SAVE_PRIOR_IF_NO_REFRESH,
            PLAN_DESTROY,
            WRITE_CHANGE,
            PREVENT_DESTROY,
        ],
        ResourceMode::Data => vec![RESOLVE_PROVIDER, DATA_PLAN_DELETE],
        ResourceMode::Ephemeral => vec![RESOLVE_PROVIDER, PLAN_EPHEMERAL_ERROR],
    };
    Evaluation::new(GoNode::PlanDestroyableInstance(mode), op, steps)
}

const READ_DELETE: Step = step(
    "read-change",
    "Read the planned deletion",
    "Read the instance's change from the saved plan and keep only its delete half (a \
     replacement's create half belongs to the instance's own vertex); nothing to delete means \
     nothing to do.",
    &[Item::PlannedChange],
    &[],
    GoRef::new("reduce_plan.go", "reducePlan"),
    StepKind::State,
);

const DESTROY_PROVISIONERS: Step = step(
    "provisioners",
    "Run destroy-time provisioners",
    "Run the provisioners marked when = destroy (not for a tainted object).",
    &[Item::Provisioners, Item::NewState],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.evalApplyProvisioners",
    ),
    StepKind::Provider,
);

const DELETE: Step = step(
    "apply",
    "Delete the object",
    "Ask the provider to delete the real object (ApplyResourceChange with a null planned \
     object).",
    &[Item::Provider, Item::PlannedChange],
    &[Item::RealObject],
    GoRef::new(ABSTRACT_INSTANCE, "NodeAbstractResourceInstance.apply"),
    StepKind::Provider,
);

const REMOVE_FROM_STATE: Step = step(
    "save-state",
    "Remove it from the new state",
    "Remove the deleted object from the new state (or keep it there if the deletion failed).",
    &[Item::RealObject],
    &[Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceState",
    ),
    StepKind::State,
);

const DATA_REMOVE: Step = step(
    "save-state",
    "Remove the data from the state",
    "A data source is only removed from the new state; nothing real is deleted.",
    &[],
    &[Item::NewState],
    GoRef::new(
        APPLY_FILE,
        "NodeDestroyResourceInstance.dataResourceExecute",
    ),
    StepKind::State,
);

const APPLY_EPHEMERAL_ERROR: Step = step(
    "report-bug",
    "Report an internal error",
    "Ephemeral resources are never in state, so a destroy vertex for one is reported as a bug in \
     OpenTofu.",
    &[],
    &[],
    GoRef::new(
        APPLY_FILE,
        "NodeDestroyResourceInstance.ephemeralResourceExecute",
    ),
    StepKind::Check,
);

/// The apply walk's steps for deleting one instance.
pub fn destroy_instance(mode: ResourceMode, op: Operation) -> Evaluation {
    let steps = match mode {
        ResourceMode::Managed => vec![
            RESOLVE_PROVIDER,
            READ_DELETE,
            READ_PRIOR_STATE,
            PRE_APPLY_HOOK,
            DESTROY_PROVISIONERS.weighted(0),
            DELETE,
            REMOVE_FROM_STATE,
            POST_APPLY_HOOK,
            UPDATE_STATE_HOOK,
        ],
        ResourceMode::Data => vec![DATA_REMOVE, UPDATE_STATE_HOOK],
        ResourceMode::Ephemeral => vec![APPLY_EPHEMERAL_ERROR],
    };
    Evaluation::new(GoNode::DestroyInstance(mode), op, steps)
}
