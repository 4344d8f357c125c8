//! The graph builders: OpenTofu's ordered transform lists for plan (and its destroy, refresh-only,
//! validate variants) and apply, and the runner that applies them while recording each step.

use super::graph::{Graph, Record, Step};
use super::nodes::{InstanceKind, ProviderKind, ResourceKind};
use super::transform::{Diagnostics, Inputs, Operation, Transform};
use super::transform_attach_schema::AttachSchemaTransformer;
use super::transform_check::{CheckStartTransformer, CheckTransformer};
use super::transform_closeable_resource::CloseableResourceTransformer;
use super::transform_config::{AttachResourceConfigTransformer, ConfigTransformer};
use super::transform_destroy_cbd::{CBDEdgeTransformer, ForcedCBDTransformer};
use super::transform_destroy_edge::{DestroyEdgeTransformer, PruneUnusedNodesTransformer};
use super::transform_diff::DiffTransformer;
use super::transform_local::LocalTransformer;
use super::transform_module_expansion::ModuleExpansionTransformer;
use super::transform_output::OutputTransformer;
use super::transform_provider::{
    CloseProviderTransformer, MissingProviderTransformer, ProviderConfigTransformer,
    ProviderFunctionTransformer, ProviderTransformer, ProviderUnconfiguredTransformer,
    PruneProviderTransformer,
};
use super::transform_reference::{
    AttachDataResourceDependsOnTransformer, AttachDependenciesTransformer,
    ExternalReferenceTransformer, ReferenceTransformer,
};
use super::transform_root::{CloseRootModuleTransformer, TransitiveReductionTransformer};
use super::transform_state::{
    AttachStateTransformer, OrphanOutputTransformer, OrphanResourceInstanceTransformer,
    RemovedModuleTransformer, StateTransformer,
};
use super::transform_targets::TargetingTransformer;
use super::transform_variable::{ModuleVariableTransformer, RootVariableTransformer};
use crate::addrs::ResourceMode;
use crate::config::Diagnostic;
use crate::dag::DagError;

/// Which builder to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BuilderKind {
    Plan,
    PlanDestroy,
    PlanRefreshOnly,
    Validate,
    Apply,
}

impl BuilderKind {
    pub const ALL: [BuilderKind; 5] = [
        BuilderKind::Plan,
        BuilderKind::PlanDestroy,
        BuilderKind::PlanRefreshOnly,
        BuilderKind::Validate,
        BuilderKind::Apply,
    ];

    /// `plan`, `plan-destroy`, `plan-refresh-only`, `validate`, `apply`.
    pub fn as_str(self) -> &'static str {
        match self {
            BuilderKind::Plan => "plan",
            BuilderKind::PlanDestroy => "plan-destroy",
            BuilderKind::PlanRefreshOnly => "plan-refresh-only",
            BuilderKind::Validate => "validate",
            BuilderKind::Apply => "apply",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// The stretch the plan and apply builders share: the three provider transforms
/// `transformProviders` groups, then schemas, provider functions, module expansion and
/// references, in OpenTofu's order.
fn provider_and_reference_steps(
    inputs: &Inputs,
    operation: Operation,
) -> Vec<Box<dyn Transform + '_>> {
    let config = inputs.config.as_ref();
    let kind = ProviderKind::Applyable;
    vec![
        Box::new(ProviderConfigTransformer {
            config,
            concrete: kind,
            operation,
        }),
        Box::new(MissingProviderTransformer { concrete: kind }),
        Box::new(ProviderTransformer),
        Box::new(RemovedModuleTransformer {
            config,
            state: inputs.state.as_ref(),
        }),
        Box::new(AttachSchemaTransformer {
            schemas: inputs.schemas.as_ref(),
            permissive_fallback: inputs.read_bodies_without_schema,
        }),
        Box::new(ProviderUnconfiguredTransformer),
        Box::new(ProviderFunctionTransformer { config }),
        Box::new(PruneProviderTransformer { config }),
        Box::new(ModuleExpansionTransformer { config }),
        Box::new(ExternalReferenceTransformer),
        Box::new(ReferenceTransformer),
        Box::new(AttachDependenciesTransformer),
    ]
}

/// `PlanGraphBuilder.Steps()` for the given variant.
pub fn plan_steps(inputs: &Inputs, kind: BuilderKind) -> Vec<Box<dyn Transform + '_>> {
    let config = inputs.config.as_ref();
    let state = inputs.state.as_ref();
    let destroy = kind == BuilderKind::PlanDestroy;
    let operation = match kind {
        BuilderKind::PlanDestroy => Operation::PlanDestroy,
        BuilderKind::Validate => Operation::Validate,
        _ => Operation::Plan,
    };
    let resource_kind = if kind == BuilderKind::Validate {
        ResourceKind::Validatable
    } else {
        ResourceKind::ExpandPlannable
    };
    let mut steps: Vec<Box<dyn Transform + '_>> = vec![
        Box::new(ConfigTransformer {
            config,
            concrete: resource_kind,
            // During walkPlanDestroy only ephemeral resources are added, so they can still be
            // opened for what needs their values (a provider configured from one).
            modes: destroy.then(|| vec![ResourceMode::Ephemeral]),
            // Normal plans and validation get the import targets; refresh-only and destroy
            // plans do not (context_plan.go, context_validate.go).
            import_targets: matches!(kind, BuilderKind::Plan | BuilderKind::Validate),
            force_add_import_targets: kind == BuilderKind::Validate,
        }),
        Box::new(RootVariableTransformer { config }),
        Box::new(ModuleVariableTransformer { config }),
        Box::new(LocalTransformer { config }),
        Box::new(OutputTransformer {
            config,
            refresh_only: kind == BuilderKind::PlanRefreshOnly,
            destroying: destroy,
            planning: true,
        }),
        Box::new(CheckTransformer { config, operation }),
        Box::new(OrphanResourceInstanceTransformer {
            config,
            state,
            concrete: if kind == BuilderKind::Validate {
                // initValidate sets no orphan concrete type: plain instance vertices.
                InstanceKind::Abstract
            } else {
                InstanceKind::PlanOrphan
            },
            skip: destroy,
        }),
        Box::new(StateTransformer {
            state,
            concrete_current: if destroy {
                Some(InstanceKind::PlanDestroyable)
            } else {
                None
            },
            deposed: kind != BuilderKind::Validate,
        }),
        Box::new(AttachStateTransformer { state }),
        Box::new(OrphanOutputTransformer { config, state }),
        Box::new(AttachResourceConfigTransformer { config }),
    ];
    steps.extend(provider_and_reference_steps(inputs, operation));
    steps.extend::<Vec<Box<dyn Transform + '_>>>(vec![
        Box::new(AttachDataResourceDependsOnTransformer),
        Box::new(DestroyEdgeTransformer {
            changes: None,
            operation,
        }),
        Box::new(PruneUnusedNodesTransformer { op: operation }),
        Box::new(TargetingTransformer {
            targets: inputs.targets.clone(),
            excludes: inputs.excludes.clone(),
        }),
        Box::new(ForcedCBDTransformer),
        // Closers for ephemeral resources; not needed while validating.
        Box::new(CloseableResourceTransformer {
            skip: kind == BuilderKind::Validate,
        }),
        Box::new(CloseProviderTransformer),
        Box::new(CloseRootModuleTransformer),
        Box::new(TransitiveReductionTransformer),
    ]);
    steps
}

/// `ApplyGraphBuilder.Steps()`; `operation` is what the builder's Operation field holds.
pub fn apply_steps(inputs: &Inputs, operation: Operation) -> Vec<Box<dyn Transform + '_>> {
    let config = inputs.config.as_ref();
    let state = inputs.state.as_ref();
    let mut steps: Vec<Box<dyn Transform + '_>> = vec![
        Box::new(ConfigTransformer {
            config,
            concrete: ResourceKind::ExpandApplyable,
            modes: None,
            import_targets: false,
            force_add_import_targets: false,
        }),
        Box::new(RootVariableTransformer { config }),
        Box::new(ModuleVariableTransformer { config }),
        Box::new(LocalTransformer { config }),
        Box::new(OutputTransformer {
            config,
            destroying: operation == Operation::Destroy,
            refresh_only: false,
            planning: false,
        }),
        Box::new(DiffTransformer {
            config,
            state,
            changes: inputs.changes.as_ref(),
            concrete: InstanceKind::Applyable,
        }),
        Box::new(CheckTransformer { config, operation }),
        Box::new(AttachStateTransformer { state }),
        Box::new(OrphanOutputTransformer { config, state }),
        Box::new(AttachResourceConfigTransformer { config }),
    ];
    steps.extend(provider_and_reference_steps(inputs, operation));
    steps.extend::<Vec<Box<dyn Transform + '_>>>(vec![
        Box::new(CheckStartTransformer { config, operation }),
        Box::new(ForcedCBDTransformer),
        Box::new(DestroyEdgeTransformer {
            changes: inputs.changes.as_ref(),
            operation,
        }),
        Box::new(CBDEdgeTransformer),
        Box::new(PruneUnusedNodesTransformer { op: operation }),
        Box::new(TargetingTransformer {
            targets: inputs.targets.clone(),
            excludes: inputs.excludes.clone(),
        }),
        Box::new(CloseableResourceTransformer { skip: false }),
        Box::new(CloseProviderTransformer),
        Box::new(CloseRootModuleTransformer),
        Box::new(TransitiveReductionTransformer),
    ]);
    steps
}

/// The result of a build: the graph, what each transform did, and any error diagnostics.
#[derive(Debug)]
pub struct Built {
    pub graph: Graph,
    pub steps: Vec<Step>,
    pub diagnostics: Diagnostics,
}

/// Applies `steps` in order to an empty graph, recording each one; stops at the first transform
/// that reports errors (as OpenTofu's BasicGraphBuilder does).
pub fn run_steps(steps: &[Box<dyn Transform + '_>]) -> Built {
    let mut runner = Runner::new();
    for t in steps {
        if !runner.apply(t.as_ref()) {
            break;
        }
    }
    runner.into_built()
}

#[cfg(test)]
thread_local! {
    /// How many steps this thread's tests checked against the snapshot diff.
    pub(crate) static CHECKED_STEPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Runs transforms one at a time, recording what each changed: what [`run_steps`] does in one
/// call, for callers that must give control back between transforms (the web app yields to the
/// browser so a large build does not freeze the page).
pub struct Runner {
    graph: Graph,
    recorded: Vec<Step>,
    diagnostics: Vec<Diagnostic>,
}

impl Default for Runner {
    fn default() -> Self {
        Self::new()
    }
}

impl Runner {
    pub fn new() -> Runner {
        Runner::recording(Record::ALL)
    }

    /// A runner whose graph records only what `record` asks for ([`Record`]); without steps,
    /// [`Built::steps`] stays empty.
    pub fn recording(record: Record) -> Runner {
        Runner {
            graph: Graph::recording(record),
            recorded: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// Hands the graph resources' references already found ([`Graph::keep_references`]).
    pub fn keep_references(&mut self, kept: crate::config::refs::ResourceRefsMemo) {
        self.graph.keep_references(kept);
    }

    /// Applies one transform and records its step; false once a transform has failed (its
    /// diagnostics are kept and no further transform should run).
    #[cfg(not(test))]
    pub fn apply(&mut self, t: &dyn Transform) -> bool {
        self.apply_recorded(t)
    }

    /// As outside tests, but in the crate's own tests every step is also computed the old way
    /// and must be the same (steps_check.rs runs them over the corpus, the examples, real-world
    /// modules and generated configurations).
    #[cfg(test)]
    pub fn apply(&mut self, t: &dyn Transform) -> bool {
        if !self.graph.record().steps {
            return self.apply_recorded(t);
        }
        let (ok, recorded, by_diff) = self.apply_checked(t);
        assert_eq!(recorded, by_diff, "step {} recorded vs diffed", t.name());
        CHECKED_STEPS.with(|c| c.set(c.get() + 1));
        ok
    }

    fn apply_recorded(&mut self, t: &dyn Transform) -> bool {
        // Every edge the transform adds records it (builder::why).
        self.graph.set_transform(t.name());
        let res = t.transform(&mut self.graph);
        self.graph.set_transform("");
        // The graph recorded the changes as the transform made them (it used to be copied whole
        // before and after each transform and the copies compared: most of the time beyond the
        // phases at 10k resources).
        if self.graph.record().steps {
            self.recorded.push(self.graph.take_step(t.name()));
        }
        self.finish(res)
    }

    fn finish(&mut self, res: Result<(), Diagnostics>) -> bool {
        match res {
            Ok(()) => true,
            Err(d) => {
                self.diagnostics.extend(d);
                false
            }
        }
    }

    /// [`Runner::apply`], also computing the step as it used to be computed (a snapshot of the
    /// graph before and after, compared) and returning that one next to the recorded one.
    #[cfg(test)]
    pub(crate) fn apply_checked(&mut self, t: &dyn Transform) -> (bool, Step, Step) {
        let before = self.graph.snapshot();
        self.graph.set_transform(t.name());
        let res = t.transform(&mut self.graph);
        self.graph.set_transform("");
        let by_diff = Graph::changes(&before, &self.graph.snapshot(), t.name());
        let recorded = self.graph.take_step(t.name());
        self.recorded.push(recorded.clone());
        (self.finish(res), recorded, by_diff)
    }

    /// The graph, the recorded steps and the diagnostics so far.
    pub fn into_built(self) -> Built {
        Built {
            graph: self.graph,
            steps: self.recorded,
            diagnostics: self.diagnostics,
        }
    }
}

/// The ordered transforms of OpenTofu's builder of `kind` for `inputs`.
pub fn steps(inputs: &Inputs, kind: BuilderKind) -> Vec<Box<dyn Transform + '_>> {
    match kind {
        BuilderKind::Apply => apply_steps(inputs, Operation::Apply),
        k => plan_steps(inputs, k),
    }
}

/// Builds the graph of `kind` for `inputs`.
pub fn build(inputs: &Inputs, kind: BuilderKind) -> Built {
    let mut built = run_steps(&steps(inputs, kind));
    validate_built(&mut built);
    built
}

/// What BasicGraphBuilder does once every transform ran: checks the finished graph has one root
/// and no cycles, adding an error per problem (a cycle points at the configuration of its first
/// vertex that has one). Nothing is checked after a transform failed.
pub fn validate_built(built: &mut Built) {
    if built.diagnostics.is_empty()
        && let Err(e) = built.graph.dag().validate()
    {
        let g = &built.graph;
        for err in e.errors() {
            let range = match &err {
                DagError::Cycle(names) => names
                    .iter()
                    .filter_map(|n| g.find(n))
                    .find_map(|v| g.node(v).decl_range()),
                DagError::SelfReference(n) => g.find(n).and_then(|v| g.node(v).decl_range()),
                _ => None,
            };
            built
                .diagnostics
                .push(Diagnostic::error(err.to_string(), "", range));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The apply builder's order, as OpenTofu v1.12.6's `ApplyGraphBuilder.Steps()` lists it.
    #[test]
    fn apply_builder_order_matches_opentofu() {
        let inputs = Inputs::default();
        let names: Vec<&str> = apply_steps(&inputs, Operation::Apply)
            .iter()
            .map(|t| t.name())
            .collect();
        let expected = [
            "ConfigTransformer",
            "RootVariableTransformer",
            "ModuleVariableTransformer",
            "LocalTransformer",
            "OutputTransformer",
            "DiffTransformer",
            "checkTransformer",
            "AttachStateTransformer",
            "OrphanOutputTransformer",
            "AttachResourceConfigTransformer",
            "ProviderConfigTransformer",
            "MissingProviderTransformer",
            "ProviderTransformer",
            "RemovedModuleTransformer",
            "AttachSchemaTransformer",
            "ProviderUnconfiguredTransformer",
            "ProviderFunctionTransformer",
            "PruneProviderTransformer",
            "ModuleExpansionTransformer",
            "ExternalReferenceTransformer",
            "ReferenceTransformer",
            "AttachDependenciesTransformer",
            "checkStartTransformer",
            "ForcedCBDTransformer",
            "DestroyEdgeTransformer",
            "CBDEdgeTransformer",
            "pruneUnusedNodesTransformer",
            "TargetingTransformer",
            "CloseableResourceTransformer",
            "CloseProviderTransformer",
            "CloseRootModuleTransformer",
            "TransitiveReductionTransformer",
        ];
        assert_eq!(names, expected);
    }

    /// The plan builder's order, as OpenTofu v1.12.6's `PlanGraphBuilder.Steps()` lists it
    /// (internal/tofu/graph_builder_plan.go; transformProviders is its three provider
    /// transforms).
    #[test]
    fn plan_builder_order_matches_opentofu() {
        let inputs = Inputs::default();
        let names: Vec<&str> = plan_steps(&inputs, BuilderKind::Plan)
            .iter()
            .map(|t| t.name())
            .collect();
        let expected = [
            "ConfigTransformer",
            "RootVariableTransformer",
            "ModuleVariableTransformer",
            "LocalTransformer",
            "OutputTransformer",
            "checkTransformer",
            "OrphanResourceInstanceTransformer",
            "StateTransformer",
            "AttachStateTransformer",
            "OrphanOutputTransformer",
            "AttachResourceConfigTransformer",
            "ProviderConfigTransformer",
            "MissingProviderTransformer",
            "ProviderTransformer",
            "RemovedModuleTransformer",
            "AttachSchemaTransformer",
            "ProviderUnconfiguredTransformer",
            "ProviderFunctionTransformer",
            "PruneProviderTransformer",
            "ModuleExpansionTransformer",
            "ExternalReferenceTransformer",
            "ReferenceTransformer",
            "AttachDependenciesTransformer",
            "attachResourceDependsOnTransformer",
            "DestroyEdgeTransformer",
            "pruneUnusedNodesTransformer",
            "TargetingTransformer",
            "ForcedCBDTransformer",
            "CloseableResourceTransformer",
            "CloseProviderTransformer",
            "CloseRootModuleTransformer",
            "TransitiveReductionTransformer",
        ];
        assert_eq!(names, expected);
    }

    #[test]
    fn build_records_one_step_per_transform() {
        let inputs = Inputs {
            config: Some(crate::builder::test_config(&[(
                "main.tf",
                "resource \"aws_instance\" \"a\" {}\nresource \"aws_instance\" \"b\" { depends_on = [aws_instance.a] }\n",
            )])),
            ..Default::default()
        };
        let built = build(&inputs, BuilderKind::Plan);
        assert!(built.diagnostics.is_empty(), "{:?}", built.diagnostics);
        assert_eq!(
            built.steps.len(),
            plan_steps(&inputs, BuilderKind::Plan).len()
        );
        let config_step = &built.steps[0];
        assert_eq!(config_step.name, "ConfigTransformer");
        assert_eq!(
            config_step.added_vertices,
            vec![
                "aws_instance.a (expand)".into(),
                "aws_instance.b (expand)".into()
            ]
        );
        assert!(
            built
                .graph
                .string()
                .contains("aws_instance.b (expand)\n  aws_instance.a (expand)\n")
        );
    }

    #[test]
    fn leaving_out_steps_or_whys_changes_nothing_else() {
        // A module, references and depends_on (transitive reduction removes edges), built with
        // every choice of what to record.
        let config = crate::builder::test_config(&[
            (
                "main.tf",
                "variable \"v\" {}\nresource \"aws_instance\" \"a\" { ami = var.v }\nresource \"aws_instance\" \"b\" {\n  ami = aws_instance.a.id\n  depends_on = [aws_instance.a]\n}\nmodule \"m\" {\n  source = \"./m\"\n  x = aws_instance.b.id\n}\n",
            ),
            (
                "m/main.tf",
                "variable \"x\" {}\nresource \"aws_s3_bucket\" \"c\" { bucket = var.x }\n",
            ),
        ]);
        let inputs = Inputs {
            config: Some(config),
            read_bodies_without_schema: true,
            ..Default::default()
        };
        let run = |record: Record| {
            let mut runner = Runner::recording(record);
            for t in &plan_steps(&inputs, BuilderKind::Plan) {
                assert!(runner.apply(t.as_ref()));
            }
            runner.into_built()
        };
        let all = run(Record::ALL);
        let dot = |b: &Built| b.graph.dag().dot(&crate::dag::DotOpts::everything());
        let a = all.graph.find("aws_instance.a (expand)").expect("a");
        let b = all.graph.find("aws_instance.b (expand)").expect("b");
        assert!(
            all.graph
                .why(b, a)
                .is_some_and(|w| !w.references.is_empty())
        );
        assert!(!all.steps.is_empty());
        for steps in [false, true] {
            for whys in [false, true] {
                let got = run(Record { steps, whys });
                assert_eq!(dot(&got), dot(&all), "steps {steps}, whys {whys}");
                assert_eq!(got.graph.string(), all.graph.string());
                assert_eq!(got.steps, if steps { all.steps.clone() } else { vec![] });
                for (f, t) in all.graph.edges() {
                    let want = all.graph.why(f, t).filter(|_| whys);
                    assert_eq!(got.graph.why(f, t), want, "steps {steps}, whys {whys}");
                }
                assert_eq!(
                    got.graph.whys_by_name().len(),
                    if whys {
                        all.graph.whys_by_name().len()
                    } else {
                        0
                    }
                );
            }
        }
    }

    #[test]
    fn bodies_are_read_only_with_a_schema_unless_asked() {
        let config = crate::builder::test_config(&[(
            "main.tf",
            "variable \"v\" {}\nresource \"aws_instance\" \"a\" { ami = var.v }\n",
        )]);
        let strict = Inputs {
            config: Some(config.clone()),
            ..Default::default()
        };
        let g = build(&strict, BuilderKind::Plan).graph.string();
        assert!(!g.contains(
            "aws_instance.a (expand)\n  provider[\"registry.opentofu.org/hashicorp/aws\"]\n  var.v"
        ));
        let permissive = Inputs {
            config: Some(config),
            read_bodies_without_schema: true,
            ..Default::default()
        };
        let g = build(&permissive, BuilderKind::Plan).graph.string();
        assert!(g.contains("aws_instance.a (expand)\n  provider[\"registry.opentofu.org/hashicorp/aws\"]\n  var.v (expand, reference)\n"), "{g}");
    }
}

#[cfg(test)]
mod state_tests {
    use super::*;
    use crate::builder::test_config;

    fn inputs(tf: &str, state: &str) -> Inputs {
        Inputs {
            config: Some(test_config(&[("main.tf", tf)])),
            state: Some(crate::state::parse_state_json(state).expect("state")),
            ..Default::default()
        }
    }

    const STATE: &str = r#"{"version": 4, "resources": [
      {"mode": "managed", "type": "aws_instance", "name": "a",
       "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
       "instances": [{"attributes": {}}]},
      {"mode": "managed", "type": "aws_instance", "name": "b",
       "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
       "instances": [{"attributes": {}, "dependencies": ["aws_instance.a"]},
                     {"deposed": "00000001", "attributes": {}}]}]}"#;

    #[test]
    fn plan_adds_orphans_and_deposed_objects_from_state() {
        let b = build(
            &inputs("resource \"aws_instance\" \"a\" {}\n", STATE),
            BuilderKind::Plan,
        );
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(
            s.contains(
                "aws_instance.b (orphan)\n  provider[\"registry.opentofu.org/hashicorp/aws\"]\n"
            ),
            "{s}"
        );
        assert!(s.contains("aws_instance.b (deposed 00000001)\n"), "{s}");
    }

    #[test]
    fn plan_destroy_destroys_dependents_first() {
        let b = build(
            &inputs("resource \"aws_instance\" \"a\" {}\n", STATE),
            BuilderKind::PlanDestroy,
        );
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let g = &b.graph;
        let a = g
            .find("aws_instance.a (destroy)")
            .expect("a destroy vertex");
        let bd = g
            .find("aws_instance.b (destroy)")
            .expect("b destroy vertex");
        assert!(g.ancestors(a).contains(&bd), "{}", g.string());
        assert!(
            g.find("aws_instance.a (expand)").is_none(),
            "{}",
            g.string()
        );
    }
}

#[cfg(test)]
mod validation_tests {
    use super::*;

    #[test]
    fn cycles_are_reported_like_opentofu() {
        let inputs = Inputs {
            config: Some(crate::builder::test_config(&[(
                "main.tf",
                "resource \"aws_instance\" \"a\" { x = aws_instance.b.id }\nresource \"aws_instance\" \"b\" { x = aws_instance.a.id }\n",
            )])),
            read_bodies_without_schema: true,
            ..Default::default()
        };
        let b = build(&inputs, BuilderKind::Plan);
        assert_eq!(b.diagnostics.len(), 1, "{:?}", b.diagnostics);
        let d = &b.diagnostics[0];
        assert!(d.summary.starts_with("Cycle: aws_instance."), "{d:?}");
        let range = d
            .range
            .as_ref()
            .expect("a cycle points at a resource block");
        assert_eq!(&*range.file, "main.tf");
    }
}
