//! The types of the step tables: operations, steps, what they read and write, Go types.

use crate::addrs::ResourceMode;
use crate::builder::{BuilderKind, Node};
use serde::{Deserialize, Serialize};

/// A walk operation, as the user runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Operation {
    /// `tofu plan`: the plan graph, `walkPlan`.
    Plan,
    /// `tofu apply` of a saved plan: the apply graph, `walkApply`.
    Apply,
    /// `tofu destroy` / `tofu plan -destroy`: the plan-destroy graph, `walkPlanDestroy` (the
    /// deletions themselves happen in the apply walk that follows, under [`Operation::Apply`]).
    Destroy,
    /// `tofu plan -refresh-only` (and `tofu refresh`): the plan graph walked with
    /// `skipPlanChanges`.
    RefreshOnly,
    /// `tofu validate`: the validate graph, `walkValidate`.
    Validate,
}

impl Operation {
    pub const ALL: [Operation; 5] = [
        Operation::Plan,
        Operation::Apply,
        Operation::Destroy,
        Operation::RefreshOnly,
        Operation::Validate,
    ];

    /// `plan`, `apply`, `destroy`, `refresh-only`, `validate`.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Plan => "plan",
            Operation::Apply => "apply",
            Operation::Destroy => "destroy",
            Operation::RefreshOnly => "refresh-only",
            Operation::Validate => "validate",
        }
    }

    pub fn parse(s: &str) -> Option<Operation> {
        Self::ALL.into_iter().find(|o| o.as_str() == s)
    }

    /// The operation that walks the graph a builder makes.
    pub fn of_builder(kind: BuilderKind) -> Operation {
        match kind {
            BuilderKind::Plan => Operation::Plan,
            BuilderKind::PlanDestroy => Operation::Destroy,
            BuilderKind::PlanRefreshOnly => Operation::RefreshOnly,
            BuilderKind::Validate => Operation::Validate,
            BuilderKind::Apply => Operation::Apply,
        }
    }

    /// The graph this operation walks.
    pub fn builder(self) -> BuilderKind {
        match self {
            Operation::Plan => BuilderKind::Plan,
            Operation::Destroy => BuilderKind::PlanDestroy,
            Operation::RefreshOnly => BuilderKind::PlanRefreshOnly,
            Operation::Validate => BuilderKind::Validate,
            Operation::Apply => BuilderKind::Apply,
        }
    }

    /// OpenTofu's name for the walk (`walkOperation` in `graph_walk_operation.go`).
    pub fn go_walk(self) -> &'static str {
        match self {
            Operation::Plan | Operation::RefreshOnly => "walkPlan",
            Operation::Apply => "walkApply",
            Operation::Destroy => "walkPlanDestroy",
            Operation::Validate => "walkValidate",
        }
    }
}

impl std::fmt::Display for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Something a step reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Item {
    /// The vertex's own configuration block.
    Config,
    /// The objects recorded by the last run (`tofu` reads them from the state file).
    PriorState,
    /// The state as refreshed in this run (what the provider says the object is now).
    RefreshedState,
    /// The working state of this walk: what later vertices read when they evaluate references.
    NewState,
    /// This instance's planned change (in the plan being made, or in the saved plan on apply).
    PlannedChange,
    /// The configured provider instance, made ready by the provider's vertex (reached through
    /// an edge, so it is always done first).
    Provider,
    /// Other vertices' values, read through the evaluation context; only what the edges
    /// guarantee is already done is there.
    Values,
    /// The evaluation context's named values (`var.*`, `local.*`, module call arguments) that
    /// later expressions read.
    EvalContext,
    /// Values given by the caller: `-var`, variable files, `TF_VAR_*` and defaults.
    InputValues,
    /// Which module and resource instances exist (OpenTofu's instance expander).
    Instances,
    /// Results of checks and conditions.
    CheckResults,
    /// The real infrastructure object, through the provider.
    RealObject,
    /// Provisioner plugins.
    Provisioners,
    /// The vertices of a dynamic sub-graph.
    SubGraph,
}

impl Item {
    pub const ALL: [Item; 14] = [
        Item::Config,
        Item::PriorState,
        Item::RefreshedState,
        Item::NewState,
        Item::PlannedChange,
        Item::Provider,
        Item::Values,
        Item::EvalContext,
        Item::InputValues,
        Item::Instances,
        Item::CheckResults,
        Item::RealObject,
        Item::Provisioners,
        Item::SubGraph,
    ];

    /// A short label for lists (`prior state`, `other vertices' values`).
    pub fn label(self) -> &'static str {
        match self {
            Item::Config => "configuration",
            Item::PriorState => "prior state",
            Item::RefreshedState => "refreshed state",
            Item::NewState => "new state",
            Item::PlannedChange => "planned change",
            Item::Provider => "provider",
            Item::Values => "other vertices' values",
            Item::EvalContext => "evaluation context",
            Item::InputValues => "input values",
            Item::Instances => "instances",
            Item::CheckResults => "check results",
            Item::RealObject => "real object",
            Item::Provisioners => "provisioners",
            Item::SubGraph => "sub-graph",
        }
    }
}

/// What sort of work a step is; the walk gives each kind its default duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepKind {
    /// In-memory bookkeeping: registering instances, building a sub-graph, hooks.
    Bookkeeping,
    /// Evaluating expressions.
    Evaluate,
    /// Reading or writing state or the plan.
    State,
    /// Checking conditions, validations and safety rules.
    Check,
    /// A call to a provider or provisioner plugin (the slow part of real runs).
    Provider,
}

impl StepKind {
    pub const ALL: [StepKind; 5] = [
        StepKind::Bookkeeping,
        StepKind::Evaluate,
        StepKind::State,
        StepKind::Check,
        StepKind::Provider,
    ];

    /// `bookkeeping`, `evaluate`, `state`, `check`, `provider`.
    pub fn as_str(self) -> &'static str {
        match self {
            StepKind::Bookkeeping => "bookkeeping",
            StepKind::Evaluate => "evaluate",
            StepKind::State => "state",
            StepKind::Check => "check",
            StepKind::Provider => "provider",
        }
    }

    pub fn parse(s: &str) -> Option<StepKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// Which part of the walk's visit a step belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The vertex's `Execute` method.
    Execute,
    /// The vertex's `DynamicExpand` method (building its sub-graph).
    Expand,
    /// Run by each vertex of the sub-graph (each instance), after the expansion.
    Instance,
}

/// A Go function of OpenTofu v1.12.6's `internal/tofu` package.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct GoRef {
    /// The file name inside `internal/tofu/`.
    pub file: &'static str,
    /// `Receiver.method` or a plain function name.
    pub func: &'static str,
}

impl GoRef {
    pub const fn new(file: &'static str, func: &'static str) -> GoRef {
        GoRef { file, func }
    }

    /// The path in OpenTofu's repository.
    pub fn path(&self) -> String {
        format!("internal/tofu/{}", self.file)
    }
}

impl std::fmt::Display for GoRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.func, self.file)
    }
}

/// One evaluation step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// A short identifier, unique within one evaluation (`plan-change`); failures are injected
    /// by it.
    pub id: &'static str,
    /// A short title (`Ask the provider for the planned change`).
    pub name: &'static str,
    /// One plain sentence saying what happens.
    pub sentence: &'static str,
    pub reads: &'static [Item],
    pub writes: &'static [Item],
    pub go: GoRef,
    pub kind: StepKind,
    pub phase: Phase,
    /// Relative share of a vertex's duration among its [`StepKind::Provider`] steps (0 for the
    /// other kinds).
    pub weight: u8,
}

impl Step {
    /// The same step in another phase (instance steps reused by an expanding vertex).
    pub const fn at(mut self, phase: Phase) -> Step {
        self.phase = phase;
        self
    }

    /// The same step with another provider share.
    pub const fn weighted(mut self, weight: u8) -> Step {
        self.weight = weight;
        self
    }
}

/// The concrete OpenTofu type that does a vertex's work. Resource instance types carry the
/// resource mode, since `Execute` branches on it first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum GoNode {
    ExpandPlannableResource(ResourceMode),
    ExpandApplyableResource(ResourceMode),
    ValidatableResource(ResourceMode),
    CloseableResource,
    PlannableInstance(ResourceMode),
    ApplyableInstance(ResourceMode),
    PlannableOrphan(ResourceMode),
    PlanDestroyableInstance(ResourceMode),
    DestroyInstance(ResourceMode),
    ForgetInstance,
    PlanDeposed,
    DestroyDeposed,
    ForgetDeposed,
    ApplyableProvider,
    EvalableProvider,
    ProxyProvider,
    CloseProvider,
    RootVariable,
    VariableReference,
    /// `nodeVariableReferenceInstance`, a vertex of `nodeVariableReference`'s sub-graph.
    VariableReferenceInstance,
    ExpandModuleVariable,
    /// `nodeModuleVariable`, a vertex of `nodeExpandModuleVariable`'s sub-graph.
    ModuleVariable,
    ExpandLocal,
    /// `NodeLocal`, a vertex of `nodeExpandLocal`'s sub-graph.
    Local,
    ExpandOutput,
    /// `NodeApplyableOutput`, a vertex of `nodeExpandOutput`'s sub-graph.
    ApplyableOutput,
    DestroyableOutput,
    ExpandModule,
    ValidateModule,
    /// `nodeCloseModule`; `root: true` is the root module's closer, the vertex named `root`.
    CloseModule {
        root: bool,
    },
    ExpandCheck,
    /// `nodeCheckAssert`, a vertex of `nodeExpandCheck`'s sub-graph.
    CheckAssert,
    ReportCheck,
    CheckStart,
    Root,
    /// A vertex whose type is not known (a name from a hand-written DOT file).
    Unknown,
}

impl GoNode {
    /// Every type, with every resource mode where the type has one.
    pub fn all() -> Vec<GoNode> {
        use GoNode::*;
        let modes = [
            ResourceMode::Managed,
            ResourceMode::Data,
            ResourceMode::Ephemeral,
        ];
        let mut out = Vec::new();
        for m in modes {
            out.extend([
                ExpandPlannableResource(m),
                ExpandApplyableResource(m),
                ValidatableResource(m),
                PlannableInstance(m),
                ApplyableInstance(m),
                PlannableOrphan(m),
                PlanDestroyableInstance(m),
                DestroyInstance(m),
            ]);
        }
        out.extend([
            CloseableResource,
            ForgetInstance,
            PlanDeposed,
            DestroyDeposed,
            ForgetDeposed,
            ApplyableProvider,
            EvalableProvider,
            ProxyProvider,
            CloseProvider,
            RootVariable,
            VariableReference,
            VariableReferenceInstance,
            ExpandModuleVariable,
            ModuleVariable,
            ExpandLocal,
            Local,
            ExpandOutput,
            ApplyableOutput,
            DestroyableOutput,
            ExpandModule,
            ValidateModule,
            CloseModule { root: false },
            CloseModule { root: true },
            ExpandCheck,
            CheckAssert,
            ReportCheck,
            CheckStart,
            Root,
            Unknown,
        ]);
        out
    }

    /// The Go type's name.
    pub fn type_name(self) -> &'static str {
        use GoNode::*;
        match self {
            ExpandPlannableResource(_) => "nodeExpandPlannableResource",
            ExpandApplyableResource(_) => "nodeExpandApplyableResource",
            ValidatableResource(_) => "NodeValidatableResource",
            CloseableResource => "nodeCloseableResource",
            PlannableInstance(_) => "NodePlannableResourceInstance",
            ApplyableInstance(_) => "NodeApplyableResourceInstance",
            PlannableOrphan(_) => "NodePlannableResourceInstanceOrphan",
            PlanDestroyableInstance(_) => "NodePlanDestroyableResourceInstance",
            DestroyInstance(_) => "NodeDestroyResourceInstance",
            ForgetInstance => "NodeForgetResourceInstance",
            PlanDeposed => "NodePlanDeposedResourceInstanceObject",
            DestroyDeposed => "NodeDestroyDeposedResourceInstanceObject",
            ForgetDeposed => "NodeForgetDeposedResourceInstanceObject",
            ApplyableProvider => "NodeApplyableProvider",
            EvalableProvider => "NodeEvalableProvider",
            ProxyProvider => "graphNodeProxyProvider",
            CloseProvider => "graphNodeCloseProvider",
            RootVariable => "NodeRootVariable",
            VariableReference => "nodeVariableReference",
            VariableReferenceInstance => "nodeVariableReferenceInstance",
            ExpandModuleVariable => "nodeExpandModuleVariable",
            ModuleVariable => "nodeModuleVariable",
            ExpandLocal => "nodeExpandLocal",
            Local => "NodeLocal",
            ExpandOutput => "nodeExpandOutput",
            ApplyableOutput => "NodeApplyableOutput",
            DestroyableOutput => "NodeDestroyableOutput",
            ExpandModule => "nodeExpandModule",
            ValidateModule => "nodeValidateModule",
            CloseModule { .. } => "nodeCloseModule",
            ExpandCheck => "nodeExpandCheck",
            CheckAssert => "nodeCheckAssert",
            ReportCheck => "nodeReportCheck",
            CheckStart => "nodeCheckStart",
            Root => "graphNodeRoot",
            Unknown => "(unknown)",
        }
    }

    /// The Go file that declares the type (inside `internal/tofu/`).
    pub fn file(self) -> &'static str {
        use GoNode::*;
        match self {
            ExpandPlannableResource(_) => "node_resource_plan.go",
            ExpandApplyableResource(_) => "node_resource_apply.go",
            ValidatableResource(_) => "node_resource_validate.go",
            CloseableResource => "node_resource_closeable.go",
            PlannableInstance(_) => "node_resource_plan_instance.go",
            ApplyableInstance(_) => "node_resource_apply_instance.go",
            PlannableOrphan(_) => "node_resource_plan_orphan.go",
            PlanDestroyableInstance(_) => "node_resource_plan_destroy.go",
            DestroyInstance(_) => "node_resource_destroy.go",
            ForgetInstance => "node_resource_forget.go",
            PlanDeposed | DestroyDeposed | ForgetDeposed => "node_resource_deposed.go",
            ApplyableProvider => "node_provider.go",
            EvalableProvider => "node_provider_eval.go",
            ProxyProvider | CloseProvider => "transform_provider.go",
            RootVariable => "node_root_variable.go",
            VariableReference | VariableReferenceInstance => "node_variable_reference.go",
            ExpandModuleVariable | ModuleVariable => "node_module_variable.go",
            ExpandLocal | Local => "node_local.go",
            ExpandOutput | ApplyableOutput | DestroyableOutput => "node_output.go",
            ExpandModule | ValidateModule | CloseModule { .. } => "node_module_expand.go",
            ExpandCheck | CheckAssert | ReportCheck | CheckStart => "node_check.go",
            Root => "transform_root.go",
            Unknown => "graph.go",
        }
    }

    /// The resource mode of resource types.
    pub fn mode(self) -> Option<ResourceMode> {
        use GoNode::*;
        match self {
            ExpandPlannableResource(m)
            | ExpandApplyableResource(m)
            | ValidatableResource(m)
            | PlannableInstance(m)
            | ApplyableInstance(m)
            | PlannableOrphan(m)
            | PlanDestroyableInstance(m)
            | DestroyInstance(m) => Some(m),
            _ => None,
        }
    }
}

impl GoNode {
    /// The Go type of a vertex the builder made, when walked in `op` (the builder's module
    /// expansion vertex is wrapped as `nodeValidateModule` in validate graphs, as
    /// `PlanGraphBuilder.initValidate` does). Test-only abstract vertices are
    /// [`GoNode::Unknown`].
    pub fn of_node(node: &Node, op: Operation) -> GoNode {
        use crate::builder::nodes::{InstanceKind, ProviderKind, ResourceKind};
        match node {
            Node::Resource { kind, d } => {
                let m = d.addr.resource.mode;
                match kind {
                    ResourceKind::ExpandPlannable => GoNode::ExpandPlannableResource(m),
                    ResourceKind::ExpandApplyable => GoNode::ExpandApplyableResource(m),
                    ResourceKind::Validatable => GoNode::ValidatableResource(m),
                    ResourceKind::Abstract => GoNode::Unknown,
                }
            }
            Node::Instance { kind, d } => {
                let m = d.addr.resource.resource.mode;
                match kind {
                    InstanceKind::Plannable => GoNode::PlannableInstance(m),
                    InstanceKind::Applyable => GoNode::ApplyableInstance(m),
                    InstanceKind::PlanOrphan => GoNode::PlannableOrphan(m),
                    InstanceKind::PlanDestroyable => GoNode::PlanDestroyableInstance(m),
                    InstanceKind::Destroy => GoNode::DestroyInstance(m),
                    InstanceKind::PlanDeposed(_) => GoNode::PlanDeposed,
                    InstanceKind::DestroyDeposed(_) => GoNode::DestroyDeposed,
                    // Kinds other helpers may add meanwhile fall back to unknown until mapped.
                    #[allow(unreachable_patterns)]
                    _ => GoNode::Unknown,
                }
            }
            Node::Provider { kind, .. } => match kind {
                ProviderKind::Applyable => GoNode::ApplyableProvider,
                ProviderKind::Evalable => GoNode::EvalableProvider,
                ProviderKind::Abstract => GoNode::Unknown,
            },
            Node::ProxyProvider { .. } => GoNode::ProxyProvider,
            Node::CloseProvider { .. } => GoNode::CloseProvider,
            Node::RootVariable { .. } => GoNode::RootVariable,
            Node::VariableReference { .. } => GoNode::VariableReference,
            Node::ModuleVariable { .. } => GoNode::ExpandModuleVariable,
            Node::Local { .. } => GoNode::ExpandLocal,
            Node::Output { .. } => GoNode::ExpandOutput,
            Node::DestroyOutput { .. } => GoNode::DestroyableOutput,
            Node::ExpandModule { .. } if op == Operation::Validate => GoNode::ValidateModule,
            Node::ExpandModule { .. } => GoNode::ExpandModule,
            Node::CloseModule { path } => GoNode::CloseModule {
                root: path.is_root(),
            },
            Node::Root => GoNode::Root,
            Node::ExpandCheck { .. } => GoNode::ExpandCheck,
            Node::ReportCheck { .. } => GoNode::ReportCheck,
            Node::CheckStart => GoNode::CheckStart,
            #[allow(unreachable_patterns)]
            _ => GoNode::Unknown,
        }
    }
}

impl std::fmt::Display for GoNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.type_name())
    }
}

/// What a vertex runs in one operation: its own steps, and for a vertex that expands, the
/// steps each vertex of its sub-graph runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    pub go: GoNode,
    pub operation: Operation,
    /// The vertex's own steps, in order (`Execute`, then `DynamicExpand`). When the vertex
    /// expands, the last one walks the sub-graph.
    pub steps: Vec<Step>,
    /// What each vertex of the sub-graph runs (a vertex that does not expand has none).
    pub instance: Option<Box<Evaluation>>,
}

impl Evaluation {
    pub(crate) fn new(go: GoNode, operation: Operation, steps: Vec<Step>) -> Evaluation {
        Evaluation {
            go,
            operation,
            steps,
            instance: None,
        }
    }

    pub(crate) fn expanding_into(mut self, instance: Evaluation) -> Evaluation {
        self.instance = Some(Box::new(instance));
        self
    }

    /// Every step in the order a walk runs them when the sub-graph's vertices are not walked as
    /// vertices of their own: the vertex's steps, with the instance steps (phase
    /// [`Phase::Instance`]) in place of the step that walks the sub-graph.
    pub fn flattened(&self) -> Vec<Step> {
        let mut out = Vec::new();
        for s in &self.steps {
            if s.id == WALK_SUBGRAPH_ID
                && let Some(i) = &self.instance
            {
                out.extend(i.flattened().into_iter().map(|s| s.at(Phase::Instance)));
            } else {
                out.push(*s);
            }
        }
        out
    }

    /// The step with this id, among the vertex's own steps and its instances'.
    pub fn step(&self, id: &str) -> Option<&Step> {
        self.steps
            .iter()
            .find(|s| s.id == id)
            .or_else(|| self.instance.as_ref().and_then(|i| i.step(id)))
    }
}

/// The id of the step that walks a vertex's dynamic sub-graph.
pub const WALK_SUBGRAPH_ID: &str = "walk-subgraph";

/// Where a vertex kind's work happens in an operation's walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The type that does the work.
    pub go: GoNode,
    /// False when the operation's graph has no vertex of this kind; then `note` says which
    /// vertex does the work instead (whose steps `go` gives), or that nothing does.
    pub in_graph: bool,
    pub note: Option<&'static str>,
}
