//! Whole-resource vertices (`aws_instance.web (expand)`; in validate graphs the plain address):
//!
//! - `nodeExpandPlannableResource` (`node_resource_plan.go`): plan walks; no `Execute`, only
//!   `DynamicExpand`, which evaluates `count`/`for_each` in every module instance and returns the
//!   sub-graph of instances (and orphans) to walk;
//! - `nodeExpandApplyableResource` (`node_resource_apply.go`): apply walks; its `Execute` only
//!   records the expansion again, since the apply graph already holds one vertex per planned
//!   instance (ephemeral resources, which no plan records, expand as in planning);
//! - `NodeValidatableResource` (`node_resource_validate.go`): validate walks; the whole resource
//!   is checked once, with unknown `count.index` and `each`;
//! - `nodeCloseableResource` (`node_resource_closeable.go`): `ephemeral.x.y (close)`, which
//!   closes an ephemeral resource's instances when everything using them is done.

use super::common::*;
use super::resource_apply::applyable_instance;
use super::resource_plan::plannable_instance;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Phase, Step, StepKind};
use crate::addrs::ResourceMode;

const PLAN_FILE: &str = "node_resource_plan.go";
const APPLY_FILE: &str = "node_resource_apply.go";
const VALIDATE_FILE: &str = "node_resource_validate.go";

const ORPHANED_MODULES: Step = step(
    "orphaned-modules",
    "Find objects of removed module instances",
    "Look in the prior state for objects of this resource under module instances that no longer \
     exist; each becomes an orphan to plan for deletion.",
    &[Item::PriorState, Item::Instances],
    &[],
    GoRef::new(PLAN_FILE, "nodeExpandPlannableResource.DynamicExpand"),
    StepKind::Bookkeeping,
)
.at(Phase::Expand);

const EXPAND_INSTANCES: Step = step(
    "expand",
    "Evaluate count / for_each",
    "In each instance of the module, evaluate count, for_each or enabled through the evaluation \
     context and record which instances the resource has (aws_instance.web[0], [\"a\"], ...).",
    &[Item::Config, Item::Values],
    &[Item::Instances],
    GoRef::new(ABSTRACT, "NodeAbstractResource.writeResourceState"),
    StepKind::Evaluate,
)
.at(Phase::Expand);

const BUILD_SUBGRAPH: Step = step(
    "build-subgraph",
    "Build the sub-graph",
    "Build a small graph with one vertex per instance, an orphan vertex for each object in the \
     prior state whose key count or for_each no longer gives, edges between instances that refer \
     to each other, and a root.",
    &[Item::Instances, Item::PriorState],
    &[Item::SubGraph],
    GoRef::new(
        PLAN_FILE,
        "nodeExpandPlannableResource.resourceInstanceSubgraph",
    ),
    StepKind::Bookkeeping,
)
.at(Phase::Expand);

const WALK_INSTANCES: Step = walk_subgraph(
    "Walk the sub-graph under the same -parallelism limit; this vertex is done when all of its \
     instances are.",
);

/// `nodeExpandPlannableResource` in plan-like walks.
pub fn expand_plannable(mode: ResourceMode, op: Operation) -> Evaluation {
    let instance = plannable_instance(mode, op);
    Evaluation::new(
        GoNode::ExpandPlannableResource(mode),
        op,
        vec![
            module_instances(GoRef::new(
                PLAN_FILE,
                "nodeExpandPlannableResource.DynamicExpand",
            )),
            ORPHANED_MODULES,
            EXPAND_INSTANCES,
            BUILD_SUBGRAPH,
            WALK_INSTANCES,
        ],
    )
    .expanding_into(instance)
}

const APPLY_RECORD: Step = step(
    "expand",
    "Record the instances again",
    "In each instance of the module, evaluate count, for_each or enabled again and record the \
     instances, so expressions such as aws_instance.web[*] know which exist; the instances \
     themselves are already vertices of the apply graph, taken from the plan.",
    &[Item::Config, Item::Values],
    &[Item::Instances],
    GoRef::new(ABSTRACT, "NodeAbstractResource.writeResourceState"),
    StepKind::Evaluate,
);

const EPHEMERAL_BUILD: Step = step(
    "build-subgraph",
    "Build the sub-graph",
    "Ephemeral resources are in no plan, so build the graph of their instances again: one \
     vertex per instance and a root.",
    &[Item::Instances],
    &[Item::SubGraph],
    GoRef::new(
        APPLY_FILE,
        "nodeExpandApplyableResource.expandEphemeralResource",
    ),
    StepKind::Bookkeeping,
)
.at(Phase::Expand);

/// `nodeExpandApplyableResource` in the apply walk.
pub fn expand_applyable(mode: ResourceMode, op: Operation) -> Evaluation {
    let go = GoNode::ExpandApplyableResource(mode);
    if mode == ResourceMode::Ephemeral {
        let instance = applyable_instance(mode, op);
        return Evaluation::new(
            go,
            op,
            vec![
                module_instances(GoRef::new(
                    APPLY_FILE,
                    "nodeExpandApplyableResource.DynamicExpand",
                )),
                EXPAND_INSTANCES,
                EPHEMERAL_BUILD,
                WALK_INSTANCES,
            ],
        )
        .expanding_into(instance);
    }
    Evaluation::new(
        go,
        op,
        vec![
            module_instances(GoRef::new(
                APPLY_FILE,
                "nodeExpandApplyableResource.Execute",
            ))
            .at(Phase::Execute),
            APPLY_RECORD,
        ],
    )
}

const VALIDATE_SCHEMA: Step = step(
    "get-schema",
    "Get the resource type's schema",
    "Ask the provider plugin for its schema and find this resource type in it (the provider \
     need not be configured to validate).",
    &[Item::Provider],
    &[],
    GoRef::new(VALIDATE_FILE, "NodeValidatableResource.validateResource"),
    StepKind::Bookkeeping,
);

const VALIDATE_REPETITION: Step = step(
    "check-count-for-each",
    "Type-check count / for_each",
    "Check that count is a number and for_each a map or set of strings, allowing values not yet \
     known: validation never expands instances.",
    &[Item::Config, Item::Values],
    &[],
    GoRef::new(VALIDATE_FILE, "NodeValidatableResource.validateResource"),
    StepKind::Check,
);

const VALIDATE_EVALUATE: Step = step(
    "evaluate-config",
    "Evaluate the arguments",
    "Evaluate the block's arguments with count.index, each.key and each.value unknown, so their \
     types can be checked against the schema.",
    &[Item::Config, Item::Values],
    &[],
    GoRef::new(VALIDATE_FILE, "NodeValidatableResource.validateResource"),
    StepKind::Evaluate,
);

const VALIDATE_PROVIDER: Step = step(
    "provider-validate",
    "Ask the provider to validate",
    "Send the evaluated configuration to the provider (ValidateResourceConfig, or the data or \
     ephemeral variant) for its own checks.",
    &[Item::Provider],
    &[],
    GoRef::new(VALIDATE_FILE, "NodeValidatableResource.validateResource"),
    StepKind::Provider,
);

const VALIDATE_CONDITIONS: Step = step(
    "check-conditions",
    "Check the conditions' references",
    "Check that the precondition and postcondition blocks refer only to things that exist.",
    &[Item::Config],
    &[],
    GoRef::new(VALIDATE_FILE, "NodeValidatableResource.validateCheckRules"),
    StepKind::Check,
);

const VALIDATE_PREVENT_DESTROY: Step = step(
    "check-prevent-destroy",
    "Check prevent_destroy",
    "Check that lifecycle.prevent_destroy is a boolean.",
    &[Item::Config],
    &[],
    GoRef::new(VALIDATE_FILE, "NodeValidatableResource.Execute"),
    StepKind::Check,
);

const VALIDATE_PROVISIONERS: Step = step(
    "provisioners-validate",
    "Validate the provisioners",
    "Evaluate each provisioner and connection block and ask the provisioner plugin to validate \
     it.",
    &[Item::Config, Item::Provisioners],
    &[],
    GoRef::new(VALIDATE_FILE, "NodeValidatableResource.validateProvisioner"),
    StepKind::Provider,
);

const VALIDATE_IMPORTS: Step = step(
    "check-import-ids",
    "Check import ids",
    "Check the id expressions of import blocks that target this resource.",
    &[Item::Config, Item::Values],
    &[],
    GoRef::new(VALIDATE_FILE, "NodeValidatableResource.validateImportIDs"),
    StepKind::Check,
);

/// `NodeValidatableResource` in the validate walk.
pub fn validatable(mode: ResourceMode, op: Operation) -> Evaluation {
    let mut steps = vec![
        VALIDATE_SCHEMA,
        VALIDATE_REPETITION,
        VALIDATE_EVALUATE,
        VALIDATE_PROVIDER,
        VALIDATE_CONDITIONS,
    ];
    if mode == ResourceMode::Managed {
        steps.extend([VALIDATE_PREVENT_DESTROY, VALIDATE_PROVISIONERS.weighted(0)]);
    }
    steps.push(VALIDATE_IMPORTS);
    Evaluation::new(GoNode::ValidatableResource(mode), op, steps)
}

const CLOSE_EPHEMERAL: Step = step(
    "close",
    "Close the ephemeral instances",
    "Ask the provider to close every instance of the ephemeral resource that was opened \
     (CloseEphemeralResource), all at once, now that everything that used them is done.",
    &[Item::Provider],
    &[Item::RealObject],
    GoRef::new(
        "node_resource_closeable.go",
        "nodeCloseableResource.Execute",
    ),
    StepKind::Provider,
);

/// `nodeCloseableResource`: the same in every walk that opens ephemeral resources.
pub fn closeable(op: Operation) -> Evaluation {
    Evaluation::new(GoNode::CloseableResource, op, vec![CLOSE_EPHEMERAL])
}
