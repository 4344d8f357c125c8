//! `NodePlannableResourceInstance` (`node_resource_plan_instance.go`): one resource instance in
//! the plan walk, a vertex of its resource's expansion sub-graph (`aws_instance.web[0]`).
//!
//! `Execute` resolves the provider, then branches on the resource mode: `managedResourceExecute`
//! (read, refresh, plan), `dataResourceExecute` (read the data now or plan to read it during
//! apply), `ephemeralResourceExecute` (open the ephemeral resource). In refresh-only mode
//! (`skipPlanChanges`) a managed instance stops after refreshing.

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Step, StepKind};
use crate::addrs::ResourceMode;

const FILE: &str = "node_resource_plan_instance.go";

const REPLACE_TRIGGERED: Step = step(
    "replace-triggered-by",
    "Evaluate replace_triggered_by",
    "Evaluate the lifecycle's replace_triggered_by references: a change already planned for one \
     of them forces this instance to be replaced.",
    &[Item::Config, Item::Values, Item::PlannedChange],
    &[],
    GoRef::new(FILE, "NodePlannableResourceInstance.replaceTriggered"),
    StepKind::Evaluate,
);

const EVALUATE_CONFIG: Step = step(
    "evaluate-config",
    "Evaluate the arguments",
    "Evaluate the resource block's arguments; each reference to another vertex is read from the \
     evaluation context, which holds only what the edges guarantee is already done, and values \
     not known until apply stay unknown.",
    &[Item::Config, Item::Values],
    &[],
    GoRef::new(ABSTRACT_INSTANCE, "NodeAbstractResourceInstance.plan"),
    StepKind::Evaluate,
);

const PRECONDITIONS: Step = step(
    "preconditions",
    "Check preconditions",
    "Evaluate the resource's precondition blocks; a failed one stops the plan of this instance.",
    &[Item::Values],
    &[Item::CheckResults],
    GoRef::new("eval_conditions.go", "evalCheckRules"),
    StepKind::Check,
);

const PLAN_CHANGE: Step = step(
    "plan-change",
    "Ask the provider for the planned change",
    "Send the prior (refreshed) object and the evaluated configuration to the provider \
     (PlanResourceChange), which answers with the planned new object and the arguments that \
     force a replacement; from that comes the action: create, update, replace or no-op.",
    &[Item::Provider, Item::RefreshedState, Item::Config],
    &[],
    GoRef::new(ABSTRACT_INSTANCE, "NodeAbstractResourceInstance.plan"),
    StepKind::Provider,
);

const SAVE_PLANNED_STATE: Step = step(
    "save-state",
    "Save the planned object",
    "Save the planned new object in the new state (its unknown parts stay unknown), where later \
     vertices' expressions read it.",
    &[Item::PlannedChange],
    &[Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceState",
    ),
    StepKind::State,
);

const REFRESH_ONLY_FOR_EACH: Step = step(
    "evaluate-for-each",
    "Evaluate for_each for the conditions",
    "Evaluate for_each again so the conditions below can use each.key and each.value; no change \
     is planned in refresh-only mode.",
    &[Item::Config, Item::Values],
    &[],
    GoRef::new("eval_expansion.go", "evaluateForEachExpression"),
    StepKind::Evaluate,
);

const REFRESH_ONLY_PRECONDITIONS: Step = step(
    "preconditions",
    "Check preconditions (warnings)",
    "Evaluate the precondition blocks; in refresh-only mode a failure is only a warning.",
    &[Item::Values],
    &[Item::CheckResults],
    GoRef::new("eval_conditions.go", "evalCheckRules"),
    StepKind::Check,
);

const REFRESH_ONLY_SAVE: Step = step(
    "save-state",
    "Save the refreshed object",
    "Put the refreshed object in the new state, so outputs and other expressions see any drift.",
    &[Item::RefreshedState],
    &[Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceState",
    ),
    StepKind::State,
);

const DATA_EVALUATE: Step = step(
    "evaluate-config",
    "Evaluate the arguments",
    "Evaluate the data block's arguments through the evaluation context and check its \
     preconditions.",
    &[Item::Config, Item::Values],
    &[Item::CheckResults],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.planDataSource",
    ),
    StepKind::Evaluate,
);

const DATA_READ: Step = step(
    "read-data",
    "Read the data source",
    "If every argument is known and nothing it depends on has a pending change, ask the provider \
     to read it now (ReadDataSource); otherwise plan to read it during apply (the <= action) and \
     leave its result unknown.",
    &[
        Item::Provider,
        Item::Config,
        Item::PlannedChange,
        Item::RealObject,
    ],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.readDataSource",
    ),
    StepKind::Provider,
);

const DATA_SAVE: Step = step(
    "save-state",
    "Save the result",
    "Save the result (or its unknown placeholder) in the refreshed state and the new state, \
     where later vertices' expressions read it.",
    &[],
    &[Item::RefreshedState, Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceState",
    ),
    StepKind::State,
);

const DATA_SAVE_CHANGE: Step = step(
    "save-change",
    "Save the planned read",
    "When the read was put off until apply, save that planned read in the plan.",
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
    "Evaluate the block's arguments and, when they are all known, ask the provider to open the \
     ephemeral resource (OpenEphemeralResource); otherwise its result stays unknown until apply.",
    &[Item::Provider, Item::Config, Item::Values],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.planEphemeralResource",
    ),
    StepKind::Provider,
);

const EPHEMERAL_SAVE: Step = step(
    "save-state",
    "Keep the result for this walk",
    "Put the result in the new state only, for expressions to read during this walk; it is never \
     written to the state file or the plan.",
    &[],
    &[Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceState",
    ),
    StepKind::State,
);

/// The steps of one instance in a plan-like walk (plan, refresh-only, and the ephemeral
/// resources a destroy plan keeps).
pub fn plannable_instance(mode: ResourceMode, op: Operation) -> Evaluation {
    let go = GoNode::PlannableInstance(mode);
    let steps = match mode {
        ResourceMode::Managed if op == Operation::RefreshOnly => vec![
            GET_PROVIDER,
            VALIDATE_SELF_REF,
            READ_PRIOR_STATE,
            SAVE_PRIOR,
            REFRESH,
            REFRESH_ONLY_FOR_EACH,
            REFRESH_ONLY_PRECONDITIONS,
            REFRESH_ONLY_SAVE,
            POSTCONDITIONS,
        ],
        ResourceMode::Managed => vec![
            GET_PROVIDER,
            VALIDATE_SELF_REF,
            READ_PRIOR_STATE,
            SAVE_PRIOR,
            REFRESH,
            REPLACE_TRIGGERED,
            EVALUATE_CONFIG,
            PRECONDITIONS,
            PLAN_CHANGE.weighted(2),
            WRITE_CHANGE,
            PREVENT_DESTROY,
            SAVE_PLANNED_STATE,
            POSTCONDITIONS,
        ],
        ResourceMode::Data => vec![
            GET_PROVIDER,
            VALIDATE_SELF_REF,
            DATA_EVALUATE,
            DATA_READ,
            DATA_SAVE,
            DATA_SAVE_CHANGE,
            POSTCONDITIONS,
        ],
        ResourceMode::Ephemeral => vec![
            GET_PROVIDER,
            VALIDATE_SELF_REF,
            EPHEMERAL_OPEN,
            EPHEMERAL_SAVE,
            POSTCONDITIONS,
        ],
    };
    Evaluation::new(go, op, steps)
}
