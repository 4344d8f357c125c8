//! Input variables, three vertex types:
//!
//! - `NodeRootVariable` (`node_root_variable.go`): `var.region` in the root module; takes the
//!   value the caller gave (or the default) and makes it `var.region`;
//! - `nodeVariableReference` (`node_variable_reference.go`): `var.x (expand, reference)`; expands
//!   into one `nodeVariableReferenceInstance` per module instance, which runs the variable's
//!   validation rules;
//! - `nodeExpandModuleVariable` (`node_module_variable.go`): `module.m.var.x (expand, input)`;
//!   expands into one `nodeModuleVariable` per module instance, which evaluates the argument the
//!   module call passes and makes it `var.x` inside that instance.

use super::common::*;
use super::types::{Evaluation, GoNode, GoRef, Item, Operation, Step, StepKind};

const ROOT_PREPARE: Step = step(
    "prepare-value",
    "Take the given value",
    "Take the value given with -var, a variable file or TF_VAR_ (or the default when none was \
     given), convert it to the declared type and check that it may be null.",
    &[Item::InputValues, Item::Config],
    &[],
    GoRef::new("eval_variable.go", "prepareFinalInputVariableValue"),
    StepKind::Evaluate,
);

const ROOT_SET: Step = step(
    "set-value",
    "Make it var.NAME",
    "Store the value in the evaluation context, where root-module expressions read it as \
     var.NAME.",
    &[],
    &[Item::EvalContext],
    GoRef::new(
        "eval_context_builtin.go",
        "BuiltinEvalContext.SetRootModuleArgument",
    ),
    StepKind::Bookkeeping,
);

/// `NodeRootVariable`: the same in every walk.
pub fn root_variable(op: Operation) -> Evaluation {
    Evaluation::new(GoNode::RootVariable, op, vec![ROOT_PREPARE, ROOT_SET])
}

const REF_FILE: &str = "node_variable_reference.go";

const VALIDATIONS: Step = step(
    "validate",
    "Run the validation rules",
    "Evaluate the variable's validation blocks against its value in this module instance; in a \
     validate walk, failures caused only by unknown values are ignored.",
    &[Item::EvalContext, Item::Values, Item::Config],
    &[Item::CheckResults],
    GoRef::new("eval_variable.go", "evalVariableValidations"),
    StepKind::Check,
);

const DEPRECATION: Step = step(
    "deprecation",
    "Warn about deprecation",
    "Warn when the variable is marked deprecated and was given a value.",
    &[Item::Config],
    &[],
    GoRef::new("eval_variable.go", "evalVariableDeprecation"),
    StepKind::Check,
);

/// `nodeVariableReferenceInstance`: one module instance's checks.
pub fn variable_reference_instance(op: Operation) -> Evaluation {
    Evaluation::new(
        GoNode::VariableReferenceInstance,
        op,
        vec![VALIDATIONS, DEPRECATION],
    )
}

/// `nodeVariableReference`: the same in every walk.
pub fn variable_reference(op: Operation) -> Evaluation {
    Evaluation::new(
        GoNode::VariableReference,
        op,
        vec![
            module_instances(GoRef::new(REF_FILE, "nodeVariableReference.DynamicExpand")),
            one_per_module_instance(
                "Add one vertex per module instance to check the variable's value there, and a \
                 root.",
                GoRef::new(REF_FILE, "nodeVariableReference.DynamicExpand"),
            ),
            walk_subgraph("Walk the sub-graph; each vertex runs the checks below."),
        ],
    )
    .expanding_into(variable_reference_instance(op))
}

const MOD_FILE: &str = "node_module_variable.go";

const EVAL_ARGUMENT: Step = step(
    "evaluate-argument",
    "Evaluate the module call's argument",
    "Evaluate the argument the module block passes for this variable, in the calling module \
     instance (so count.index and each.key are that instance's; unknown in a validate walk).",
    &[Item::Config, Item::Values, Item::Instances],
    &[],
    GoRef::new(MOD_FILE, "nodeModuleVariable.evalModuleVariable"),
    StepKind::Evaluate,
);

const MOD_PREPARE: Step = step(
    "prepare-value",
    "Apply the variable's declaration",
    "Use the default when the call passes nothing, convert the value to the declared type and \
     check that it may be null.",
    &[Item::Config],
    &[],
    GoRef::new("eval_variable.go", "prepareFinalInputVariableValue"),
    StepKind::Evaluate,
);

const MOD_SET: Step = step(
    "set-value",
    "Make it var.NAME in the module",
    "Store the value in the evaluation context of that module instance, where the module's \
     expressions read it as var.NAME.",
    &[],
    &[Item::EvalContext],
    GoRef::new(
        "eval_context_builtin.go",
        "BuiltinEvalContext.SetModuleCallArgument",
    ),
    StepKind::Bookkeeping,
);

/// `nodeModuleVariable`: the value in one module instance.
pub fn module_variable_instance(op: Operation) -> Evaluation {
    Evaluation::new(
        GoNode::ModuleVariable,
        op,
        vec![EVAL_ARGUMENT, MOD_PREPARE, MOD_SET],
    )
}

/// `nodeExpandModuleVariable`: the same in every walk.
pub fn module_variable(op: Operation) -> Evaluation {
    Evaluation::new(
        GoNode::ExpandModuleVariable,
        op,
        vec![
            module_instances(GoRef::new(
                MOD_FILE,
                "nodeExpandModuleVariable.DynamicExpand",
            )),
            one_per_module_instance(
                "Add one vertex per instance of the module to compute the variable's value \
                 there, and a root.",
                GoRef::new(MOD_FILE, "nodeExpandModuleVariable.DynamicExpand"),
            ),
            walk_subgraph("Walk the sub-graph; each vertex runs the steps below."),
        ],
    )
    .expanding_into(module_variable_instance(op))
}
