//! Evaluation steps as data: what each of OpenTofu's vertex types runs in each walk operation.
//!
//! OpenTofu's walker (`Graph.walk` in `internal/tofu/graph.go`) does the same two things at every
//! vertex: if the vertex is executable it calls its `Execute` method, and if it can expand it
//! calls `DynamicExpand` and walks the sub-graph that returns (one vertex per instance) before the
//! vertex counts as done. What `Execute` does depends on the vertex's Go type and on the walk
//! operation. The tables here write that down, one file per node family, named after the Go file
//! the steps come from:
//!
//! | file | Go types |
//! |---|---|
//! | [`resource_expand`] | `nodeExpandPlannableResource`, `nodeExpandApplyableResource`, `NodeValidatableResource`, `nodeCloseableResource` |
//! | [`resource_plan`] | `NodePlannableResourceInstance` (managed, data, ephemeral; plan and refresh-only) |
//! | [`resource_apply`] | `NodeApplyableResourceInstance` |
//! | [`resource_orphan`] | `NodePlannableResourceInstanceOrphan` |
//! | [`resource_destroy`] | `NodePlanDestroyableResourceInstance`, `NodeDestroyResourceInstance` |
//! | [`resource_deposed`] | `NodePlanDeposedResourceInstanceObject`, `NodeDestroyDeposedResourceInstanceObject`, `NodeForgetDeposedResourceInstanceObject` |
//! | [`resource_forget`] | `NodeForgetResourceInstance` |
//! | [`provider`] | `NodeApplyableProvider`, `NodeEvalableProvider`, `graphNodeProxyProvider`, `graphNodeCloseProvider` |
//! | [`variable`] | `NodeRootVariable`, `nodeVariableReference`, `nodeExpandModuleVariable` |
//! | [`local`] | `nodeExpandLocal` / `NodeLocal` |
//! | [`output`] | `nodeExpandOutput` / `NodeApplyableOutput`, `NodeDestroyableOutput` |
//! | [`module`] | `nodeExpandModule`, `nodeValidateModule`, `nodeCloseModule` |
//! | [`check`] | `nodeExpandCheck` / `nodeCheckAssert`, `nodeReportCheck`, `nodeCheckStart` |
//! | [`root`] | `graphNodeRoot`, vertices of unknown type |
//!
//! Each [`Step`] has a name, one plain sentence, what it reads and writes ([`Item`]), the Go
//! function it comes from ([`GoRef`], a function that exists in OpenTofu v1.12.6's
//! `internal/tofu`: the unit tests check every reference against `go_functions.txt`, a list taken
//! once from that source), a [`StepKind`] (which sets its default duration in the walk) and a
//! [`Phase`]. Steps are a teaching summary at the level of the calls `Execute` makes, not a
//! line-by-line transcription: error branches, tracing and logging are left out.
//!
//! Where a vertex kind does not exist in an operation's graph (there is no `(orphan)` vertex in
//! an apply graph: the deletion it planned is done by a `(destroy)` vertex), [`Placement`] says
//! so and points at the vertex type that does that work there; its steps are then those of the
//! counterpart.

pub mod check;
mod common;
pub mod local;
pub mod module;
pub mod output;
pub mod provider;
pub mod resource_apply;
pub mod resource_deposed;
pub mod resource_destroy;
pub mod resource_expand;
pub mod resource_forget;
pub mod resource_orphan;
pub mod resource_plan;
pub mod root;
pub mod types;
pub mod variable;

pub use types::{
    Evaluation, GoNode, GoRef, Item, Operation, Phase, Placement, Step, StepKind, WALK_SUBGRAPH_ID,
};

/// The evaluation of a Go type in an operation.
pub fn evaluation(go: GoNode, op: Operation) -> Evaluation {
    use GoNode::*;
    match go {
        ExpandPlannableResource(m) => resource_expand::expand_plannable(m, op),
        ExpandApplyableResource(m) => resource_expand::expand_applyable(m, op),
        ValidatableResource(m) => resource_expand::validatable(m, op),
        CloseableResource => resource_expand::closeable(op),
        PlannableInstance(m) => resource_plan::plannable_instance(m, op),
        ApplyableInstance(m) => resource_apply::applyable_instance(m, op),
        PlannableOrphan(m) => resource_orphan::plannable_orphan(m, op),
        PlanDestroyableInstance(m) => resource_destroy::plan_destroyable(m, op),
        DestroyInstance(m) => resource_destroy::destroy_instance(m, op),
        ForgetInstance => resource_forget::forget_instance(op),
        PlanDeposed => resource_deposed::plan_deposed(op),
        DestroyDeposed => resource_deposed::destroy_deposed(op),
        ForgetDeposed => resource_deposed::forget_deposed(op),
        ApplyableProvider => provider::applyable(op),
        EvalableProvider => provider::evalable(op),
        ProxyProvider => provider::proxy(op),
        CloseProvider => provider::close(op),
        RootVariable => variable::root_variable(op),
        VariableReference => variable::variable_reference(op),
        VariableReferenceInstance => variable::variable_reference_instance(op),
        ExpandModuleVariable => variable::module_variable(op),
        ModuleVariable => variable::module_variable_instance(op),
        ExpandLocal => local::expand_local(op),
        Local => local::local(op),
        ExpandOutput => output::expand_output(op),
        ApplyableOutput => output::applyable_output(op),
        DestroyableOutput => output::destroyable_output(op),
        ExpandModule => module::expand_module(op),
        ValidateModule => module::validate_module(op),
        CloseModule { root } => module::close_module(root, op),
        ExpandCheck => check::expand_check(op),
        CheckAssert => check::check_assert(op),
        ReportCheck => check::report_check(op),
        CheckStart => check::check_start(op),
        Root => root::root(op),
        Unknown => root::unknown(op),
    }
}

impl Placement {
    pub fn evaluation(&self, op: Operation) -> Evaluation {
        evaluation(self.go, op)
    }
}

#[cfg(test)]
mod tests;
