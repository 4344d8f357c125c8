//! Check blocks (`node_check.go`):
//!
//! - `nodeReportCheck` (`check.health (report)`): registers which instances of the check exist,
//!   before anything in the check runs;
//! - `nodeExpandCheck` (`check.health (expand)`): after everything its assertions refer to, expands
//!   into one `nodeCheckAssert` per module instance, which evaluates the assertions (as warnings);
//! - `nodeCheckStart` (`(execute checks)`): a joining point in apply graphs, no work.

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Step, StepKind};

const FILE: &str = "node_check.go";

const ASSERT: Step = step(
    "assert",
    "Evaluate the assertions",
    "Evaluate each assert block's condition and error message; a failure is a warning, never an \
     error, and a check whose data source already failed is skipped.",
    &[Item::Config, Item::Values, Item::CheckResults],
    &[Item::CheckResults],
    GoRef::new("eval_conditions.go", "evalCheckRules"),
    StepKind::Check,
);

const VALIDATE_ASSERT: Step = step(
    "assert",
    "Validate the assertions",
    "Only check that each assertion's expressions are valid and refer to things that exist; \
     assertions are evaluated in plan and apply walks.",
    &[Item::Config, Item::Values],
    &[],
    GoRef::new("eval_conditions.go", "validateCheckRule"),
    StepKind::Check,
);

/// `nodeCheckAssert`: one module instance's assertions.
pub fn check_assert(op: Operation) -> Evaluation {
    let run = matches!(op, Operation::Plan | Operation::Apply);
    Evaluation::new(
        GoNode::CheckAssert,
        op,
        vec![if run { ASSERT } else { VALIDATE_ASSERT }],
    )
}

/// `nodeExpandCheck`.
pub fn expand_check(op: Operation) -> Evaluation {
    Evaluation::new(
        GoNode::ExpandCheck,
        op,
        vec![
            module_instances(GoRef::new(FILE, "nodeExpandCheck.DynamicExpand")),
            one_per_module_instance(
                "Add one vertex per module instance to evaluate the assertions there, and a root.",
                GoRef::new(FILE, "nodeExpandCheck.DynamicExpand"),
            ),
            walk_subgraph("Walk the sub-graph; each vertex runs the step below."),
        ],
    )
    .expanding_into(check_assert(op))
}

const REPORT: Step = step(
    "register",
    "Register the check's instances",
    "Tell the checks record which instances of this check block exist (one per module instance), \
     so a check that never runs is reported as unknown rather than missing.",
    &[Item::Instances],
    &[Item::CheckResults],
    GoRef::new(FILE, "nodeReportCheck.Execute"),
    StepKind::Bookkeeping,
);

/// `nodeReportCheck`.
pub fn report_check(op: Operation) -> Evaluation {
    Evaluation::new(GoNode::ReportCheck, op, vec![REPORT])
}

const START: Step = step(
    "visit",
    "Nothing to run",
    "A joining point only: the data sources nested in check blocks wait here until every other \
     change has been applied.",
    &[],
    &[],
    GoRef::new(FILE, "nodeCheckStart.Execute"),
    StepKind::Bookkeeping,
);

/// `nodeCheckStart`.
pub fn check_start(op: Operation) -> Evaluation {
    Evaluation::new(GoNode::CheckStart, op, vec![START])
}
