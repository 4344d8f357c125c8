//! `NodeApplyableResourceInstance` (`node_resource_apply_instance.go`): one resource instance
//! that the saved plan creates, updates, replaces or reads, in the apply walk.
//!
//! `Execute` resolves the provider and branches on the mode. A managed instance reads its planned
//! change, plans again with the values now known (the provider must agree with the saved plan),
//! applies, saves the new object and runs provisioners; a deletion is left to the instance's
//! `(destroy)` vertex.

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Step, StepKind};
use crate::addrs::ResourceMode;

const FILE: &str = "node_resource_apply_instance.go";

const DEPOSE: Step = step(
    "depose",
    "Set the old object aside",
    "For a replacement with create_before_destroy, mark the current object as deposed so the \
     new one can be created before the old one is destroyed.",
    &[Item::PlannedChange, Item::NewState],
    &[Item::NewState],
    GoRef::new(FILE, "NodeApplyableResourceInstance.managedResourceExecute"),
    StepKind::State,
);

const EVALUATE_CONFIG: Step = step(
    "evaluate-config",
    "Evaluate the arguments again",
    "Evaluate the resource block's arguments again: values that were unknown at plan time are \
     now known from what the edges guarantee has been applied.",
    &[Item::Config, Item::Values],
    &[],
    GoRef::new(ABSTRACT_INSTANCE, "NodeAbstractResourceInstance.plan"),
    StepKind::Evaluate,
);

const REPLAN: Step = step(
    "replan",
    "Plan again with known values",
    "Ask the provider for the change once more (PlanResourceChange) with the now-known values.",
    &[Item::Provider, Item::NewState, Item::Config],
    &[],
    GoRef::new(ABSTRACT_INSTANCE, "NodeAbstractResourceInstance.plan"),
    StepKind::Provider,
);

const CHECK_PLANNED: Step = step(
    "check-plan",
    "Compare with the saved plan",
    "Stop with an error if the new plan contradicts the saved one (a provider that produced an \
     inconsistent final plan).",
    &[Item::PlannedChange],
    &[],
    GoRef::new(FILE, "NodeApplyableResourceInstance.checkPlannedChange"),
    StepKind::Check,
);

const APPLY: Step = step(
    "apply",
    "Apply the change",
    "Ask the provider to make the change to the real object (ApplyResourceChange): create it, \
     update it in place, or create the replacement.",
    &[Item::Provider, Item::PlannedChange],
    &[Item::RealObject],
    GoRef::new(ABSTRACT_INSTANCE, "NodeAbstractResourceInstance.apply"),
    StepKind::Provider,
);

const SAVE_STATE: Step = step(
    "save-state",
    "Save the new object",
    "Save the new object, with the dependencies the graph gave it, in the new state (marked \
     tainted if the apply failed part-way); later vertices' expressions read it from there.",
    &[Item::RealObject],
    &[Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceState",
    ),
    StepKind::State,
);

const PROVISIONERS: Step = step(
    "provisioners",
    "Run creation provisioners",
    "For a newly created object, run its provisioners; a failure marks the object tainted.",
    &[Item::Provisioners, Item::NewState],
    &[Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.evalApplyProvisioners",
    ),
    StepKind::Provider,
);

const POSTCONDITIONS_APPLY: Step = step(
    "postconditions",
    "Check postconditions",
    "Evaluate the postcondition blocks against the new object.",
    &[Item::Values, Item::NewState],
    &[Item::CheckResults],
    GoRef::new(
        FILE,
        "NodeApplyableResourceInstance.managedResourcePostconditions",
    ),
    StepKind::Check,
);

const DATA_READ: Step = step(
    "read-data",
    "Read the data source",
    "If the plan put the read off until apply, evaluate the arguments now and ask the provider \
     to read the data (ReadDataSource).",
    &[
        Item::Provider,
        Item::PlannedChange,
        Item::Values,
        Item::RealObject,
    ],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.applyDataSource",
    ),
    StepKind::Provider,
);

const DATA_CLEAR_CHANGE: Step = step(
    "clear-change",
    "Drop the planned read",
    "Remove the planned read from the changes: it is done.",
    &[],
    &[Item::PlannedChange],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeChange",
    ),
    StepKind::State,
);

const EPHEMERAL_OPEN: Step = step(
    "open",
    "Open the ephemeral resource",
    "Evaluate the block's arguments and ask the provider to open the ephemeral resource \
     (OpenEphemeralResource); it is closed by its close vertex once everything using it is done.",
    &[Item::Provider, Item::Config, Item::Values],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.applyEphemeralResource",
    ),
    StepKind::Provider,
);

const EPHEMERAL_SAVE: Step = step(
    "save-state",
    "Keep the result for this walk",
    "Put the result in the new state for expressions to read during this walk only.",
    &[],
    &[Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceState",
    ),
    StepKind::State,
);

/// The steps of one instance in the apply walk.
pub fn applyable_instance(mode: ResourceMode, op: Operation) -> Evaluation {
    let steps = match mode {
        ResourceMode::Managed => vec![
            GET_PROVIDER,
            READ_DIFF,
            DEPOSE,
            READ_PRIOR_STATE,
            EVALUATE_CONFIG,
            REPLAN,
            CHECK_PLANNED,
            PRE_APPLY_HOOK,
            APPLY.weighted(8),
            SAVE_STATE,
            PROVISIONERS.weighted(0),
            POSTCONDITIONS_APPLY,
        ],
        ResourceMode::Data => vec![
            GET_PROVIDER,
            READ_DIFF,
            DATA_READ,
            WRITE_NEW_STATE,
            DATA_CLEAR_CHANGE,
            UPDATE_STATE_HOOK,
            POSTCONDITIONS,
        ],
        ResourceMode::Ephemeral => vec![
            RESOLVE_PROVIDER,
            EPHEMERAL_OPEN,
            EPHEMERAL_SAVE,
            POSTCONDITIONS,
        ],
    };
    Evaluation::new(GoNode::ApplyableInstance(mode), op, steps)
}
