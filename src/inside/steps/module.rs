//! Module calls (`node_module_expand.go`):
//!
//! - `nodeExpandModule` (`module.vpc (expand)`): evaluates the call's `count`, `for_each` or
//!   `enabled` in every instance of the calling module and records the module's instances; the
//!   module's own vertices expand from that record;
//! - `nodeValidateModule`: the validate walk's version, which only type-checks those arguments
//!   and records a single instance;
//! - `nodeCloseModule` (`module.vpc (close)`, and `root` for the root module): the point where
//!   everything in the module is done. The root's closer ends the walk: it stops provisioner
//!   plugins and, after an apply, removes empty resources and modules from the state.

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Step, StepKind};

const FILE: &str = "node_module_expand.go";

const PARENT_INSTANCES: Step = step(
    "module-instances",
    "List the calling module's instances",
    "Ask the instance expander which instances the calling module has (one for the root module).",
    &[Item::Instances],
    &[],
    GoRef::new(FILE, "nodeExpandModule.Execute"),
    StepKind::Bookkeeping,
);

const EVALUATE_REPETITION: Step = step(
    "expand",
    "Evaluate count / for_each",
    "In each calling instance, evaluate the module block's count, for_each or enabled through the \
     evaluation context (only these and depends_on are references of this vertex) and record \
     the module's instances: module.vpc[0], module.vpc[\"a\"], ...",
    &[Item::Config, Item::Values],
    &[Item::Instances],
    GoRef::new(FILE, "nodeExpandModule.Execute"),
    StepKind::Evaluate,
);

/// `nodeExpandModule`: the same in every walk but validate.
pub fn expand_module(op: Operation) -> Evaluation {
    Evaluation::new(
        GoNode::ExpandModule,
        op,
        vec![PARENT_INSTANCES, EVALUATE_REPETITION],
    )
}

const VALIDATE_REPETITION: Step = step(
    "check-count-for-each",
    "Type-check count / for_each",
    "Check the module block's count or for_each, allowing values not yet known, and its \
     depends_on.",
    &[Item::Config, Item::Values],
    &[],
    GoRef::new("eval_expansion.go", "evaluateCountExpressionValue"),
    StepKind::Check,
);

const VALIDATE_SINGLE: Step = step(
    "expand",
    "Record one instance",
    "Record the module as a single instance: validation checks the module's contents once, \
     whatever count or for_each will give.",
    &[],
    &[Item::Instances],
    GoRef::new(FILE, "nodeValidateModule.Execute"),
    StepKind::Bookkeeping,
);

/// `nodeValidateModule`.
pub fn validate_module(op: Operation) -> Evaluation {
    Evaluation::new(
        GoNode::ValidateModule,
        op,
        vec![PARENT_INSTANCES, VALIDATE_REPETITION, VALIDATE_SINGLE],
    )
}

const CLOSE_VISIT: Step = step(
    "visit",
    "Nothing to run",
    "Everything in the module is done once this vertex is reached; whatever refers to the module \
     as a whole waits here, and the vertex itself has no work.",
    &[],
    &[],
    GoRef::new(FILE, "nodeCloseModule.Execute"),
    StepKind::Bookkeeping,
);

const CLOSE_PROVISIONERS: Step = step(
    "close-provisioners",
    "Stop the provisioners",
    "The walk is finishing: stop every provisioner plugin still running.",
    &[Item::Provisioners],
    &[],
    GoRef::new(FILE, "nodeCloseModule.Execute"),
    StepKind::Bookkeeping,
);

const PRUNE_STATE: Step = step(
    "prune-state",
    "Tidy the state",
    "Remove resources with no instances left, and modules with no resources left, from the new \
     state.",
    &[Item::NewState],
    &[Item::NewState],
    GoRef::new(FILE, "nodeCloseModule.Execute"),
    StepKind::State,
);

/// `nodeCloseModule`; `root` for the root module's closer.
pub fn close_module(root: bool, op: Operation) -> Evaluation {
    let steps = match (root, op) {
        (false, _) => vec![CLOSE_VISIT],
        (true, Operation::Apply) => vec![CLOSE_PROVISIONERS, PRUNE_STATE],
        (true, _) => vec![CLOSE_PROVISIONERS],
    };
    Evaluation::new(GoNode::CloseModule { root }, op, steps)
}
