//! Steps several node families share (reading state, refreshing, saving the change, hooks).

use super::types::{GoRef, Item, Phase, Step, StepKind, WALK_SUBGRAPH_ID};

pub const ABSTRACT_INSTANCE: &str = "node_resource_abstract_instance.go";
pub const ABSTRACT: &str = "node_resource_abstract.go";

pub const fn step(
    id: &'static str,
    name: &'static str,
    sentence: &'static str,
    reads: &'static [Item],
    writes: &'static [Item],
    go: GoRef,
    kind: StepKind,
) -> Step {
    Step {
        id,
        name,
        sentence,
        reads,
        writes,
        go,
        kind,
        phase: Phase::Execute,
        weight: if matches!(kind, StepKind::Provider) {
            1
        } else {
            0
        },
    }
}

pub const GET_PROVIDER: Step = step(
    "get-provider",
    "Get the provider",
    "Pick up the provider instance that the provider's vertex configured earlier (the edge to \
     it guarantees it is ready) together with its schema.",
    &[Item::Provider],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.getProvider",
    ),
    StepKind::Bookkeeping,
);

pub const RESOLVE_PROVIDER: Step = step(
    "get-provider",
    "Get the provider",
    "Work out which instance of the provider configuration this object uses and pick it up; \
     the provider's vertex configured it earlier, which the edge to it guarantees.",
    &[Item::Provider],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.resolveProvider",
    ),
    StepKind::Bookkeeping,
);

pub const VALIDATE_SELF_REF: Step = step(
    "check-self-reference",
    "Refuse self-references",
    "Stop with an error if the block's arguments refer to the resource itself.",
    &[Item::Config],
    &[],
    GoRef::new("validate_selfref.go", "validateSelfRef"),
    StepKind::Check,
);

pub const READ_PRIOR_STATE: Step = step(
    "read-state",
    "Read the prior state",
    "Read this instance's object from the prior state, upgrading it to the provider's current \
     schema version if needed.",
    &[Item::PriorState, Item::Provider],
    &[],
    GoRef::new(
        ABSTRACT,
        "NodeAbstractResourceInstance.readResourceInstanceState",
    ),
    StepKind::State,
);

pub const SAVE_PRIOR: Step = step(
    "save-prior",
    "Keep the prior object",
    "Record the object as it was before this run and as the starting point of the refreshed \
     state.",
    &[Item::PriorState],
    &[Item::RefreshedState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceState",
    ),
    StepKind::State,
);

pub const REFRESH: Step = step(
    "refresh",
    "Refresh from the real object",
    "Ask the provider to read the real object (ReadResource), so changes made outside \
     OpenTofu show up, and keep the result as the refreshed state.",
    &[Item::Provider, Item::PriorState, Item::RealObject],
    &[Item::RefreshedState],
    GoRef::new(ABSTRACT_INSTANCE, "NodeAbstractResourceInstance.refresh"),
    StepKind::Provider,
);

pub const WRITE_CHANGE: Step = step(
    "save-change",
    "Save the planned change",
    "Save the planned change for this instance in the plan.",
    &[],
    &[Item::PlannedChange],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeChange",
    ),
    StepKind::State,
);

pub const PREVENT_DESTROY: Step = step(
    "prevent-destroy",
    "Honour prevent_destroy",
    "Stop with an error if the planned change would destroy an object whose lifecycle sets \
     prevent_destroy.",
    &[Item::PlannedChange, Item::Config],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.checkPreventDestroy",
    ),
    StepKind::Check,
);

pub const PLAN_DESTROY: Step = step(
    "plan-change",
    "Plan the deletion",
    "Plan to delete the object (or only to forget it when a removed block or lifecycle says \
     destroy = false); the provider gets to see the deletion (PlanResourceChange with a null \
     configuration).",
    &[Item::Provider, Item::RefreshedState],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.planDestroy",
    ),
    StepKind::Provider,
);

pub const POSTCONDITIONS: Step = step(
    "postconditions",
    "Check postconditions",
    "Evaluate the resource's postcondition blocks against the result; they may read \
     self and other vertices' values.",
    &[Item::Values, Item::NewState],
    &[Item::CheckResults],
    GoRef::new("eval_conditions.go", "evalCheckRules"),
    StepKind::Check,
);

pub const READ_DIFF: Step = step(
    "read-change",
    "Read the planned change",
    "Read this instance's change from the saved plan; it says what to do.",
    &[Item::PlannedChange],
    &[],
    GoRef::new(ABSTRACT_INSTANCE, "NodeAbstractResourceInstance.readDiff"),
    StepKind::State,
);

pub const PRE_APPLY_HOOK: Step = step(
    "announce",
    "Announce the change",
    "Tell the user interface the change is starting (\"Creating...\", \"Destroying...\").",
    &[Item::PlannedChange],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.preApplyHook",
    ),
    StepKind::Bookkeeping,
);

pub const POST_APPLY_HOOK: Step = step(
    "report",
    "Report the outcome",
    "Tell the user interface the change is complete, or that it failed.",
    &[Item::NewState],
    &[],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.postApplyHook",
    ),
    StepKind::Bookkeeping,
);

pub const UPDATE_STATE_HOOK: Step = step(
    "persist-state",
    "Let the state be saved",
    "Signal that the state changed, so the running command can save a snapshot of it.",
    &[Item::NewState],
    &[],
    GoRef::new("update_state_hook.go", "updateStateHook"),
    StepKind::Bookkeeping,
);

pub const WRITE_NEW_STATE: Step = step(
    "save-state",
    "Save the new state",
    "Save the object in the new state, where later vertices' expressions read it.",
    &[],
    &[Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceState",
    ),
    StepKind::State,
);

/// The step of an expanding vertex that walks its sub-graph.
pub const fn walk_subgraph(sentence: &'static str) -> Step {
    step(
        WALK_SUBGRAPH_ID,
        "Walk the sub-graph",
        sentence,
        &[Item::SubGraph],
        &[],
        GoRef::new("graph.go", "Graph.walk"),
        StepKind::Bookkeeping,
    )
    .at(Phase::Expand)
}

/// The first step of most `DynamicExpand` methods: which module instances exist.
pub const fn module_instances(go: GoRef) -> Step {
    step(
        "module-instances",
        "List the module's instances",
        "Ask the instance expander which instances the enclosing module has (its expand \
         vertex recorded them earlier; the root module has one).",
        &[Item::Instances],
        &[],
        go,
        StepKind::Bookkeeping,
    )
    .at(Phase::Expand)
}

/// The step that builds a sub-graph of one vertex per module instance.
pub const fn one_per_module_instance(sentence: &'static str, go: GoRef) -> Step {
    step(
        "build-subgraph",
        "Build the sub-graph",
        sentence,
        &[Item::Instances],
        &[Item::SubGraph],
        go,
        StepKind::Bookkeeping,
    )
    .at(Phase::Expand)
}
