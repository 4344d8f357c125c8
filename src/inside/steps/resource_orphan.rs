//! `NodePlannableResourceInstanceOrphan` (`node_resource_plan_orphan.go`): an instance in the
//! prior state that the configuration no longer has (`aws_instance.old (orphan)`), in the plan
//! walk. It plans the object's deletion (or, with a `removed` block or `lifecycle { destroy =
//! false }`, only forgetting it).

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Step, StepKind};
use crate::addrs::ResourceMode;

const FILE: &str = "node_resource_plan_orphan.go";

const DROP_FROM_STATE: Step = step(
    "save-state",
    "Drop it from the new state",
    "Remove the object from the new state: once the plan is applied it no longer exists, so \
     nothing later in the walk may read it.",
    &[],
    &[Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceState",
    ),
    StepKind::State,
);

const REFRESH_ONLY_SAVE: Step = step(
    "save-state",
    "Save the refreshed object",
    "In refresh-only mode no deletion is planned: the refreshed object goes into the new state.",
    &[Item::RefreshedState],
    &[Item::NewState],
    GoRef::new(
        ABSTRACT_INSTANCE,
        "NodeAbstractResourceInstance.writeResourceInstanceState",
    ),
    StepKind::State,
);

const DATA_FORGET: Step = step(
    "forget",
    "Forget the old data",
    "A data source no longer in the configuration has nothing to delete: its result is removed \
     from the refreshed and the new state.",
    &[],
    &[Item::RefreshedState, Item::NewState],
    GoRef::new(
        FILE,
        "NodePlannableResourceInstanceOrphan.dataResourceExecute",
    ),
    StepKind::State,
);

const EPHEMERAL_ERROR: Step = step(
    "report-bug",
    "Report an internal error",
    "Ephemeral resources are never in state, so an orphan of one is reported as a bug in \
     OpenTofu.",
    &[],
    &[],
    GoRef::new(
        FILE,
        "NodePlannableResourceInstanceOrphan.ephemeralResourceExecute",
    ),
    StepKind::Check,
);

/// The steps of an orphaned instance (plan and refresh-only walks).
pub fn plannable_orphan(mode: ResourceMode, op: Operation) -> Evaluation {
    let steps = match mode {
        ResourceMode::Managed if op == Operation::RefreshOnly => vec![
            RESOLVE_PROVIDER,
            READ_PRIOR_STATE,
            SAVE_PRIOR,
            REFRESH,
            REFRESH_ONLY_SAVE,
        ],
        ResourceMode::Managed => vec![
            RESOLVE_PROVIDER,
            READ_PRIOR_STATE,
            SAVE_PRIOR,
            REFRESH,
            PLAN_DESTROY,
            WRITE_CHANGE,
            PREVENT_DESTROY,
            DROP_FROM_STATE,
        ],
        ResourceMode::Data => vec![DATA_FORGET],
        ResourceMode::Ephemeral => vec![EPHEMERAL_ERROR],
    };
    Evaluation::new(GoNode::PlannableOrphan(mode), op, steps)
}
