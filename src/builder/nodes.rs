//! The vertex types of OpenTofu's graphs. `Node::name` is exactly OpenTofu's vertex name
//! (`dag.VertexName`), e.g. `aws_instance.web (expand)`, `module.child (close)`,
//! `provider["registry.opentofu.org/hashicorp/aws"] (close)`, `var.foo (expand, reference)`.

use std::borrow::Cow;

use crate::addrs::{
    AbsProviderConfig, AbsResourceInstance, ConfigResource, InstanceKey, Module, ModuleCall,
    ModuleCallInstance, ModuleCallInstanceOutput, Provider, Referenceable, ResourceMode,
};
use crate::config::refs::{
    ResourceRefsMemo, all_resource_refs, exprs_refs, import_to_refs, module_call_refs, output_refs,
    refs_in_body_full, refs_in_expr_full, resource_refs,
};
use crate::config::{self, Refs, SourceRange};
use crate::kind::{Mode, ProviderRole, ResourceRole, Typed, VariableRole, VertexKind};
use crate::schema;
use crate::strconv::exact;

/// The schema attached to a resource or provider vertex (Go attaches a `*configschema.Block`).
/// Builder-specific: the second case stands for "no provider schema, but read the body in full",
/// which [`super::Inputs::read_bodies_without_schema`] asks for and OpenTofu has no notion of.
#[derive(Clone, Debug)]
pub enum AttachedSchema {
    /// Shared: every resource of a type gets the same block (and provider schemas are large).
    Provider(std::sync::Arc<schema::Block>),
    ReadAll,
}

impl AttachedSchema {
    /// The provider's block schema (`None`: read every attribute and block).
    pub fn block(&self) -> Option<&schema::Block> {
        match self {
            AttachedSchema::Provider(b) => Some(b),
            AttachedSchema::ReadAll => None,
        }
    }
}

/// Which concrete Go type a whole-resource vertex stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceKind {
    /// `NodeAbstractResource` (transform tests without a Concrete function).
    Abstract,
    /// `nodeExpandPlannableResource`.
    ExpandPlannable,
    /// `nodeExpandApplyableResource`.
    ExpandApplyable,
    /// `NodeValidatableResource`.
    Validatable,
}

/// Which concrete Go type a resource-instance vertex stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstanceKind {
    /// `NodeAbstractResourceInstance`.
    Abstract,
    /// `NodeApplyableResourceInstance`.
    Applyable,
    /// `NodeDestroyResourceInstance` (`... (destroy)`).
    Destroy,
    /// `NodeDestroyDeposedResourceInstanceObject` (`... (destroy deposed KEY)`).
    DestroyDeposed(String),
    /// `NodePlannableResourceInstanceOrphan` (`... (orphan)`).
    PlanOrphan,
    /// `NodePlanDeposedResourceInstanceObject` (`... (deposed KEY)`).
    PlanDeposed(String),
    /// `NodePlanDestroyableResourceInstance` (`... (destroy)`).
    PlanDestroyable,
    /// `NodePlannableResourceInstance` (the plain instance name).
    Plannable,
    /// The test-only concrete node of the orphan transformer tests (`... (orphan)`).
    TestOrphan,
    /// `NodeForgetResourceInstance` (`... (forget)`): a `removed` block with
    /// `lifecycle { destroy = false }` takes the object out of state without destroying it.
    Forget,
    /// `NodeForgetDeposedResourceInstanceObject` (`... (forget deposed KEY)`).
    ForgetDeposed(String),
}

/// `NodeAbstractResource`'s data.
#[derive(Clone, Debug)]
pub struct ResourceData {
    pub addr: ConfigResource,
    /// Shared, not inline: a resource block is over 1.5 KB, and every vertex of the graph is as
    /// large as its largest variant (this kept 12,000 vertices at 2.3 KB each).
    pub config: Option<std::sync::Arc<config::Resource>>,
    pub schema: Option<AttachedSchema>,
    pub resolved_provider: Option<AbsProviderConfig>,
    pub stored_provider: Option<AbsProviderConfig>,
    pub import_targets: Vec<config::Import>,
    /// Set by ForcedCBDTransformer when a dependent is create_before_destroy.
    pub create_before_destroy_forced: bool,
}

impl ResourceData {
    pub fn new(addr: ConfigResource) -> Self {
        ResourceData {
            addr,
            config: None,
            schema: None,
            resolved_provider: None,
            stored_provider: None,
            import_targets: Vec::new(),
            create_before_destroy_forced: false,
        }
    }

    /// `NodeAbstractResource.References`: the meta-arguments always, the body only through an
    /// attached schema (provisioner bodies too only when reading without a schema).
    pub fn references(&self) -> Refs {
        self.references_kept(None)
    }

    /// [`ResourceData::references`], taken from `kept` when it holds them (the references a body
    /// read without a schema gives, kept by the reference validation).
    pub fn references_kept(&self, kept: Option<&mut ResourceRefsMemo>) -> Refs {
        let Some(c) = &self.config else {
            return Refs::default();
        };
        let parts = match &self.schema {
            Some(AttachedSchema::Provider(b)) => resource_refs(c, Some(b), true),
            Some(AttachedSchema::ReadAll) => match kept.and_then(|k| k.take(c)) {
                Some(parts) => parts,
                None => resource_refs(c, None, false),
            },
            None => resource_refs(c, None, true),
        };
        all_resource_refs(parts)
    }

    /// `NodeAbstractResource.RootReferences`: expressions of import blocks targeting it.
    /// (`referencesInImportAddress` of `to`, then `for_each` and `id`, per import target).
    pub fn root_references(&self) -> Refs {
        let mut out = Refs::default();
        for it in &self.import_targets {
            out.extend(import_to_refs(it));
            out.extend(exprs_refs(it.for_each.iter().chain(it.id.iter())));
        }
        out
    }

    /// `ProvidedBy`: (requested provider, exact?). Exact requests (resolved or from state)
    /// are never inherited.
    pub fn provided_by(&self) -> ProviderRequest {
        if let Some(p) = &self.resolved_provider {
            return ProviderRequest::Exact(p.clone());
        }
        if let Some(c) = &self.config {
            // The alias alone: the local name is not asked for.
            return ProviderRequest::Local {
                alias: c.provider_ref.as_ref().and_then(|p| p.alias.clone()),
            };
        }
        if let Some(p) = &self.stored_provider {
            return ProviderRequest::Exact(p.clone());
        }
        if let Some(it) = self.import_targets.first()
            && let Some(p) = &it.provider_ref
        {
            return ProviderRequest::Local {
                alias: p.alias.clone(),
            };
        }
        ProviderRequest::Local { alias: None }
    }

    /// `Provider()`: the provider FQN.
    pub fn provider(&self) -> Provider {
        self.provider_held().into_owned()
    }

    /// [`ResourceData::provider`], borrowed where the vertex holds it (a copy is three strings,
    /// and transforms ask every resource vertex).
    pub fn provider_held(&self) -> std::borrow::Cow<'_, Provider> {
        use std::borrow::Cow;
        if let Some(p) = &self.resolved_provider {
            return Cow::Borrowed(&p.provider);
        }
        if let Some(c) = &self.config {
            return Cow::Borrowed(&c.provider);
        }
        if let Some(p) = &self.stored_provider {
            return Cow::Borrowed(&p.provider);
        }
        Cow::Owned(Provider::default_for(
            &self.addr.resource.implied_provider(),
        ))
    }

    /// The resource block's `create_before_destroy` (false when unset or not managed).
    pub fn config_create_before_destroy(&self) -> bool {
        self.config
            .as_ref()
            .and_then(|c| c.managed.as_ref())
            .is_some_and(|m| m.create_before_destroy)
    }
}

/// What a provider consumer asks for.
#[derive(Clone, Debug)]
pub enum ProviderRequest {
    /// A provider configuration in the consumer's own module (inheritance applies).
    Local { alias: Option<String> },
    /// Exactly this configuration.
    Exact(AbsProviderConfig),
}

/// `NodeAbstractResourceInstance`'s data.
#[derive(Clone, Debug)]
pub struct InstanceData {
    pub res: ResourceData,
    pub addr: AbsResourceInstance,
    /// Dependencies recorded in state for this instance's current object.
    pub state_deps: Vec<ConfigResource>,
    /// The state has a current object for this instance (Go: `instanceState.Current != nil`).
    pub has_state: bool,
    /// The current object's recorded `create_before_destroy`.
    pub state_cbd: bool,
    /// Set by AttachDependenciesTransformer.
    pub dependencies: Vec<ConfigResource>,
}

impl InstanceData {
    /// `StateDependencies`: what state recorded for the current object, else the dependencies
    /// AttachDependenciesTransformer found in the graph (new objects, data sources).
    pub fn state_dependencies(&self) -> &[ConfigResource] {
        if self.has_state {
            &self.state_deps
        } else {
            &self.dependencies
        }
    }

    pub fn new(addr: AbsResourceInstance) -> Self {
        InstanceData {
            res: ResourceData::new(addr.config_resource()),
            addr,
            state_deps: Vec::new(),
            has_state: false,
            state_cbd: false,
            dependencies: Vec::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProviderKind {
    /// `NodeAbstractProvider`.
    Abstract,
    /// `NodeEvalableProvider`.
    Evalable,
    /// `NodeApplyableProvider`.
    Applyable,
}

/// One vertex.
#[derive(Clone, Debug)]
pub enum Node {
    Resource {
        kind: ResourceKind,
        d: ResourceData,
    },
    Instance {
        kind: InstanceKind,
        d: InstanceData,
    },
    Provider {
        kind: ProviderKind,
        addr: AbsProviderConfig,
        /// Shared, not inline (see [`ResourceData::config`]).
        config: Option<std::sync::Arc<config::ProviderBlock>>,
        schema: Option<AttachedSchema>,
    },
    /// `graphNodeProxyProvider`: stands for a configuration passed in from the parent module.
    ProxyProvider {
        addr: AbsProviderConfig,
        target: AbsProviderConfig,
    },
    CloseProvider {
        addr: AbsProviderConfig,
    },
    /// `NodeRootVariable` (`var.x`).
    RootVariable {
        name: String,
    },
    /// `nodeVariableReference` (`[module.].var.x (expand, reference)`).
    VariableReference {
        module: Module,
        name: String,
        validation_refs: Refs,
        /// The variable has `validation` blocks (then it is no temporary value for pruning).
        has_validations: bool,
    },
    /// `nodeExpandModuleVariable` (`module.x.var.y (expand, input)`).
    ModuleVariable {
        module: Module,
        name: String,
        expr: Option<config::Expr>,
    },
    /// `nodeExpandLocal`.
    Local {
        module: Module,
        config: config::Local,
    },
    /// `nodeExpandOutput`.
    Output {
        module: Module,
        config: config::Output,
        destroying: bool,
    },
    /// `NodeDestroyableOutput`.
    DestroyOutput {
        module: Module,
        name: String,
    },
    /// `nodeExpandModule`.
    ExpandModule {
        path: Module,
        /// Boxed: a module call block is 800 bytes, and every vertex is as large as the largest
        /// variant.
        call: Option<Box<config::ModuleCall>>,
    },
    /// `nodeCloseModule` (the root module's closer is named `root`).
    CloseModule {
        path: Module,
    },
    /// `graphNodeRoot`.
    Root,
    /// `nodeExpandCheck`.
    ExpandCheck {
        module: Module,
        name: String,
        refs: Refs,
    },
    /// `nodeReportCheck`.
    ReportCheck {
        module: Module,
        name: String,
    },
    /// `nodeCheckStart`.
    CheckStart,
    /// `nodeCloseableResource` (`ephemeral.type.name (close)`): closes every instance of an
    /// ephemeral resource once everything that uses it is done.
    CloseableResource {
        addr: ConfigResource,
    },
}

impl Node {
    /// OpenTofu's vertex name.
    pub fn name(&self) -> String {
        match self {
            Node::Resource { kind, d } => {
                // Pushed, not formatted: every resource vertex is named for the DOT text.
                let mut s = String::with_capacity(64);
                d.addr.push_to(&mut s);
                if matches!(
                    kind,
                    ResourceKind::ExpandPlannable | ResourceKind::ExpandApplyable
                ) {
                    s.push_str(" (expand)");
                }
                s
            }
            Node::Instance { kind, d } => match kind {
                InstanceKind::Abstract | InstanceKind::Applyable | InstanceKind::Plannable => {
                    exact(format_args!("{}", d.addr))
                }
                InstanceKind::Destroy | InstanceKind::PlanDestroyable => {
                    format!("{} (destroy)", d.addr)
                }
                InstanceKind::DestroyDeposed(k) => format!("{} (destroy deposed {k})", d.addr),
                InstanceKind::PlanOrphan | InstanceKind::TestOrphan => {
                    format!("{} (orphan)", d.addr)
                }
                InstanceKind::PlanDeposed(k) => format!("{} (deposed {k})", d.addr),
                InstanceKind::Forget => format!("{} (forget)", d.addr),
                InstanceKind::ForgetDeposed(k) => format!("{} (forget deposed {k})", d.addr),
            },
            Node::Provider { addr, .. } => addr.to_string(),
            Node::ProxyProvider { addr, .. } => format!("{addr} (proxy)"),
            Node::CloseProvider { addr } => format!("{addr} (close)"),
            Node::RootVariable { name } => format!("var.{name}"),
            Node::VariableReference { module, name, .. } => {
                format!(
                    "{} (expand, reference)",
                    module.qualify(format!("var.{name}"))
                )
            }
            Node::ModuleVariable { module, name, .. } => {
                format!("{} (expand, input)", module.qualify(format!("var.{name}")))
            }
            Node::Local { module, config } => {
                format!(
                    "{} (expand)",
                    module.qualify(format!("local.{}", config.name))
                )
            }
            Node::Output { module, config, .. } => {
                format!(
                    "{} (expand)",
                    module.qualify(format!("output.{}", config.name))
                )
            }
            Node::DestroyOutput { module, name } => {
                format!("{} (destroy)", module.qualify(format!("output.{name}")))
            }
            Node::ExpandModule { path, .. } => format!("{path} (expand)"),
            Node::CloseModule { path } => {
                if path.is_root() {
                    "root".to_string()
                } else {
                    format!("{path} (close)")
                }
            }
            Node::Root => "root".to_string(),
            Node::ExpandCheck { module, name, .. } => {
                format!("{} (expand)", module.qualify(format!("check.{name}")))
            }
            Node::ReportCheck { module, name } => {
                format!("{} (report)", module.qualify(format!("check.{name}")))
            }
            Node::CheckStart => "(execute checks)".to_string(),
            Node::CloseableResource { addr } => format!("{addr} (close)"),
        }
    }

    /// What kind of vertex this is ([`crate::kind`]): what every reader of the graph (the page,
    /// the walk, the layout) knows the vertex by besides its name.
    pub fn kind(&self) -> VertexKind {
        let res = |r: &crate::addrs::Resource, role: ResourceRole| {
            let mode = match r.mode {
                ResourceMode::Managed => Mode::Managed,
                ResourceMode::Data => Mode::Data,
                ResourceMode::Ephemeral => Mode::Ephemeral,
            };
            VertexKind::resource(mode, &r.type_name, &r.name, role)
        };
        match self {
            Node::Resource { kind, d } => res(
                &d.addr.resource,
                match kind {
                    ResourceKind::Abstract | ResourceKind::Validatable => ResourceRole::Whole,
                    ResourceKind::ExpandPlannable | ResourceKind::ExpandApplyable => {
                        ResourceRole::Expand
                    }
                },
            ),
            Node::Instance { kind, d } => res(
                &d.addr.resource.resource,
                match kind {
                    InstanceKind::Abstract | InstanceKind::Applyable | InstanceKind::Plannable => {
                        ResourceRole::Instance
                    }
                    InstanceKind::Destroy | InstanceKind::PlanDestroyable => ResourceRole::Destroy,
                    InstanceKind::DestroyDeposed(_) => ResourceRole::DestroyDeposed,
                    InstanceKind::PlanOrphan | InstanceKind::TestOrphan => ResourceRole::Orphan,
                    InstanceKind::PlanDeposed(_) => ResourceRole::Deposed,
                    InstanceKind::Forget => ResourceRole::Forget,
                    InstanceKind::ForgetDeposed(_) => ResourceRole::ForgetDeposed,
                },
            ),
            Node::CloseableResource { addr } => res(&addr.resource, ResourceRole::Close),
            Node::Provider { .. } => VertexKind::Provider(ProviderRole::Config),
            Node::ProxyProvider { .. } => VertexKind::Provider(ProviderRole::Proxy),
            Node::CloseProvider { .. } => VertexKind::Provider(ProviderRole::Close),
            Node::RootVariable { .. } => VertexKind::Variable(VariableRole::Root),
            Node::VariableReference { .. } => VertexKind::Variable(VariableRole::Reference),
            Node::ModuleVariable { .. } => VertexKind::Variable(VariableRole::Input),
            Node::Local { config, .. } => VertexKind::Local {
                name: config.name.clone(),
            },
            Node::Output { config, .. } => VertexKind::Output {
                name: config.name.clone(),
            },
            Node::DestroyOutput { .. } => VertexKind::OutputDestroy,
            Node::ExpandModule { .. } => VertexKind::ModuleExpand,
            // The root module's closer is `root`, the graph's end.
            Node::CloseModule { path } if path.is_root() => VertexKind::Root,
            Node::CloseModule { .. } => VertexKind::ModuleClose,
            Node::Root => VertexKind::Root,
            Node::ExpandCheck { .. } => VertexKind::CheckExpand,
            Node::ReportCheck { .. } => VertexKind::CheckReport,
            Node::CheckStart => VertexKind::CheckStart,
        }
    }

    /// The module this vertex belongs to, as its name places it: [`Node::module_path`] with the
    /// instance keys of an instance's module, and for the vertices Go gives no module path (the
    /// root, the checks' start, an ephemeral resource's closer) the module of their address.
    pub fn module_steps(&self) -> Vec<String> {
        match self {
            Node::Instance { d, .. } => d
                .addr
                .module
                .0
                .iter()
                .map(|s| format!("{}{}", s.name, s.key))
                .collect(),
            Node::CloseableResource { addr } => addr.module.0.to_vec(),
            _ => self.module_path().map(|m| m.0.to_vec()).unwrap_or_default(),
        }
    }

    /// Kind and module together, as they travel with the vertex ([`Typed`]).
    pub fn typed(&self) -> Typed {
        Typed::new(self.kind(), self.module_steps())
    }

    /// Where the vertex's configuration is written, for diagnostics that concern it.
    pub fn decl_range(&self) -> Option<SourceRange> {
        match self {
            Node::Resource { d, .. }
            | Node::Instance {
                d: InstanceData { res: d, .. },
                ..
            } => d.config.as_ref().map(|c| c.decl_range.clone()),
            Node::Provider { config, .. } => config.as_ref().map(|c| c.decl_range.clone()),
            Node::ModuleVariable { expr, .. } => expr.as_ref().map(|e| e.range()),
            Node::Local { config, .. } => Some(config.decl_range.clone()),
            Node::Output { config, .. } => Some(config.decl_range.clone()),
            Node::ExpandModule { call, .. } => call.as_ref().map(|c| c.decl_range.clone()),
            _ => None,
        }
    }

    /// `GraphNodeModulePath.ModulePath`, for vertices that have one.
    pub fn module_path(&self) -> Option<Module> {
        self.module_path_held().map(Cow::into_owned)
    }

    /// [`Node::module_path`], borrowed where the vertex holds it (all but instances, whose path
    /// is made from their module instance): transforms ask it of every vertex.
    pub fn module_path_held(&self) -> Option<Cow<'_, Module>> {
        Some(match self {
            Node::Resource { d, .. } => Cow::Borrowed(&d.addr.module),
            Node::Instance { d, .. } => Cow::Owned(d.addr.module.module()),
            Node::Provider { addr, .. }
            | Node::ProxyProvider { addr, .. }
            | Node::CloseProvider { addr } => Cow::Borrowed(&addr.module),
            Node::RootVariable { .. } => Cow::Owned(Module::root()),
            Node::VariableReference { module, .. }
            | Node::ModuleVariable { module, .. }
            | Node::Local { module, .. }
            | Node::Output { module, .. }
            | Node::DestroyOutput { module, .. }
            | Node::ExpandCheck { module, .. }
            | Node::ReportCheck { module, .. } => Cow::Borrowed(module),
            Node::ExpandModule { path, .. } | Node::CloseModule { path } => Cow::Borrowed(path),
            Node::Root | Node::CheckStart | Node::CloseableResource { .. } => return None,
        })
    }

    /// The module in which this vertex's referenceable addresses live (`vertexReferenceablePath`).
    pub fn referenceable_path(&self) -> Option<Cow<'_, Module>> {
        match self {
            Node::ModuleVariable { module, .. } => Some(Cow::Borrowed(module)),
            Node::CloseModule { path: m }
            | Node::ExpandModule { path: m, .. }
            | Node::Output { module: m, .. } => Some(Cow::Owned(m.parent().unwrap_or_default())),
            _ => self.module_path_held(),
        }
    }

    /// The module in which this vertex's references are resolved (`vertexReferencePath`).
    pub fn reference_path(&self) -> Option<Cow<'_, Module>> {
        match self {
            Node::ModuleVariable { module, .. } | Node::ExpandModule { path: module, .. } => {
                Some(Cow::Owned(module.parent().unwrap_or_default()))
            }
            _ => self.module_path_held(),
        }
    }

    /// `GraphNodeReferenceable.ReferenceableAddrs`; `None` when the vertex is not referenceable.
    pub fn referenceable_addrs(&self) -> Option<Vec<Referenceable>> {
        match self {
            Node::Resource { d, .. } => {
                Some(vec![Referenceable::Resource(d.addr.resource.clone())])
            }
            // Deposed objects take part in no references (`NodePlanDeposedResourceInstanceObject`
            // and its destroy and forget siblings return none); a destroy vertex is referenceable
            // only by its destroy-phase addresses (`NodeDestroyResourceInstance`), which no
            // configuration reference names, so an ordinary reference falls back to the resource.
            Node::Instance {
                kind:
                    InstanceKind::PlanDeposed(_)
                    | InstanceKind::DestroyDeposed(_)
                    | InstanceKind::ForgetDeposed(_)
                    | InstanceKind::Destroy,
                ..
            } => Some(Vec::new()),
            Node::Instance { d, .. } => Some(vec![
                Referenceable::ResourceInstance(d.addr.resource.clone()),
                Referenceable::Resource(d.addr.resource.resource.clone()),
            ]),
            Node::RootVariable { name }
            | Node::VariableReference { name, .. }
            | Node::ModuleVariable { name, .. } => {
                Some(vec![Referenceable::InputVariable(name.clone())])
            }
            Node::Local { config, .. } => {
                Some(vec![Referenceable::LocalValue(config.name.clone())])
            }
            Node::Output { module, config, .. } => {
                let Some(call) = module.0.last() else {
                    return Some(Vec::new());
                };
                let call = ModuleCall { name: call.clone() };
                // `module.call.name`: the output of any instance of the call (Go
                // `ModuleCallOutput`), written as an instance output without a key.
                Some(vec![
                    Referenceable::ModuleCallInstanceOutput(ModuleCallInstanceOutput {
                        call: ModuleCallInstance {
                            call: call.clone(),
                            key: InstanceKey::None,
                        },
                        name: config.name.clone(),
                    }),
                    Referenceable::ModuleCall(call),
                ])
            }
            Node::CloseModule { path } => {
                let call = path.0.last()?;
                Some(vec![Referenceable::ModuleCall(ModuleCall {
                    name: call.clone(),
                })])
            }
            _ => None,
        }
    }

    /// `GraphNodeDestroyer`.
    pub fn is_destroyer(&self) -> bool {
        matches!(
            self,
            Node::Instance {
                kind: InstanceKind::Destroy
                    | InstanceKind::DestroyDeposed(_)
                    | InstanceKind::PlanDestroyable,
                ..
            }
        )
    }

    /// Vertices whose Go type is a `GraphNodeReferencer` (close-provider edges, pruning and
    /// provider functions look at this). Not: root variables (`NodeRootVariable` is only
    /// referenceable), destroyable outputs, module closers, check reports and starters, provider
    /// proxies and closers, closeable resources and the root.
    pub fn is_referencer(&self) -> bool {
        matches!(
            self,
            Node::Resource { .. }
                | Node::Instance { .. }
                | Node::Provider { .. }
                | Node::VariableReference { .. }
                | Node::ModuleVariable { .. }
                | Node::Local { .. }
                | Node::Output { .. }
                | Node::ExpandModule { .. }
                | Node::ExpandCheck { .. }
        )
    }

    /// `graphNodeTemporaryValue.temporaryValue(op)`, `None` for vertex types that are not
    /// temporary values (root variables among them: `NodeRootVariable` has no such method).
    pub fn temporary_value(&self, op: super::operation::Operation) -> Option<bool> {
        use super::operation::Operation;
        match self {
            Node::VariableReference {
                has_validations, ..
            } => {
                Some(!*has_validations || matches!(op, Operation::Destroy | Operation::PlanDestroy))
            }
            Node::ModuleVariable { .. } | Node::Local { .. } => Some(true),
            Node::Output { module, .. } | Node::DestroyOutput { module, .. } => {
                Some(!module.is_root())
            }
            _ => None,
        }
    }

    /// `graphNodeRetainedByPruneUnusedNodesTransformer`: kept by pruning while something that
    /// expands depends on it.
    pub fn retained_by_prune(&self) -> bool {
        matches!(
            self,
            Node::Local { .. }
                | Node::ExpandModule { .. }
                | Node::ModuleVariable { .. }
                | Node::Output { .. }
                | Node::VariableReference { .. }
                | Node::Resource {
                    kind: ResourceKind::ExpandPlannable | ResourceKind::ExpandApplyable,
                    ..
                }
        )
    }

    /// `GraphNodeDynamicExpandable` (module expansion itself is not: `nodeExpandModule` only
    /// registers instances when it executes).
    pub fn dynamic_expandable(&self) -> bool {
        matches!(
            self,
            Node::ExpandCheck { .. }
                | Node::Local { .. }
                | Node::ModuleVariable { .. }
                | Node::Output { .. }
                | Node::VariableReference { .. }
                | Node::Resource {
                    kind: ResourceKind::ExpandPlannable | ResourceKind::ExpandApplyable,
                    ..
                }
        )
    }

    /// `GraphNodeProvider`: concrete provider configurations and proxies.
    pub fn is_provider(&self) -> bool {
        matches!(self, Node::Provider { .. } | Node::ProxyProvider { .. })
    }

    /// `closableResource` of an ephemeral resource: the whole-resource vertex the plan and
    /// apply builders expand (`nodeExpandPlannableResource`, `nodeExpandApplyableResource`).
    pub fn closeable_ephemeral(&self) -> Option<&ConfigResource> {
        match self {
            Node::Resource {
                kind: ResourceKind::ExpandPlannable | ResourceKind::ExpandApplyable,
                d,
            } if d.addr.resource.mode == ResourceMode::Ephemeral => Some(&d.addr),
            _ => None,
        }
    }

    /// `GraphNodeCreator`: instance vertices that create/update.
    pub fn is_creator(&self) -> bool {
        matches!(
            self,
            Node::Instance {
                kind: InstanceKind::Applyable,
                ..
            }
        )
    }

    /// `References()`, with the provider-defined functions the expressions call. Destroyers are
    /// ordered by [`Node::destroy_references`] instead; this is what the provider-function and
    /// other transforms read.
    pub fn references(&self) -> Refs {
        self.references_kept(None)
    }

    /// [`Node::references`], a resource's taken from `kept` when it holds them
    /// ([`ResourceData::references_kept`]).
    pub fn references_kept(&self, kept: Option<&mut ResourceRefsMemo>) -> Refs {
        match self {
            // nodeExpandApplyableResource drops references to its own resource (its instances
            // would otherwise wait on their own expansion); the plan's expand node does not.
            Node::Resource {
                kind: ResourceKind::ExpandApplyable,
                d,
            } => {
                let mut refs = d.references_kept(kept);
                let own = &d.addr.resource;
                refs.refs.retain(|r| match &r.subject {
                    Referenceable::Resource(x) => x != own,
                    Referenceable::ResourceInstance(x) => &x.resource != own,
                    _ => true,
                });
                refs
            }
            Node::Resource { d, .. } => d.references_kept(kept),
            Node::Instance { kind, d } => match kind {
                // Deposed objects evaluate no configuration.
                InstanceKind::PlanDeposed(_)
                | InstanceKind::DestroyDeposed(_)
                | InstanceKind::ForgetDeposed(_) => Refs::default(),
                // NodeDestroyResourceInstance: the connection blocks of destroy-time
                // provisioners (their bodies need a provisioner schema, which is never given).
                InstanceKind::Destroy => d
                    .res
                    .config
                    .as_ref()
                    .and_then(|c| c.managed.as_ref())
                    .map(|m| {
                        let mut out = Refs::default();
                        for p in &m.provisioners {
                            if p.when == config::ProvisionerWhen::Destroy
                                && let Some(conn) = &p.connection
                            {
                                out.extend(refs_in_body_full(&conn.config, None));
                            }
                        }
                        out
                    })
                    .unwrap_or_default(),
                // Instance nodes read their configuration only when a schema is attached.
                _ if d.res.config.is_some() && d.res.schema.is_some() => d.res.references(),
                _ => Refs::default(),
            },
            Node::Provider {
                config: Some(c),
                schema: Some(s),
                ..
            } => refs_in_body_full(&c.config, s.block()),
            Node::VariableReference {
                validation_refs, ..
            } => validation_refs.clone(),
            Node::ModuleVariable {
                module,
                expr: Some(e),
                ..
            } if !module.is_root() => refs_in_expr_full(e),
            Node::Local { config, .. } => refs_in_expr_full(&config.expr),
            Node::Output {
                module,
                config,
                destroying,
            } => {
                if module.is_root() && *destroying {
                    Refs::default()
                } else {
                    output_refs(config)
                }
            }
            // nodeExpandModule: expansion reads only `depends_on`, `count`, `for_each`,
            // `lifecycle.enabled` and the instance keys of the providers passed in.
            Node::ExpandModule { call: Some(c), .. } => {
                let mut refs = module_call_refs(c);
                // Beyond OpenTofu: a module that is not installed has no input variable
                // vertices to carry its arguments' references, so the call carries them.
                if c.not_installed {
                    refs.extend(refs_in_body_full(&c.config, None));
                }
                refs
            }
            Node::ExpandCheck { refs, .. } => refs.clone(),
            _ => Refs::default(),
        }
    }

    /// `DestroyReferences()` of a destroyer (`NodeAbstractResourceInstance`): the
    /// `prevent_destroy` expression, read only with configuration and a schema attached.
    pub fn destroy_references(&self) -> Refs {
        match self {
            Node::Instance { d, .. } if d.res.schema.is_some() => d
                .res
                .config
                .as_ref()
                .and_then(|c| c.managed.as_ref())
                .map(|m| exprs_refs(m.prevent_destroy_expr.iter()))
                .unwrap_or_default(),
            _ => Refs::default(),
        }
    }

    /// `GraphNodeRootReferencer.RootReferences` (resources and their instances: the import
    /// blocks targeting them).
    pub fn root_references(&self) -> Refs {
        match self {
            Node::Resource { d, .. }
            | Node::Instance {
                d: InstanceData { res: d, .. },
                ..
            } => d.root_references(),
            _ => Refs::default(),
        }
    }

    pub fn resource_data(&self) -> Option<&ResourceData> {
        match self {
            Node::Resource { d, .. } => Some(d),
            Node::Instance { d, .. } => Some(&d.res),
            _ => None,
        }
    }

    pub fn resource_data_mut(&mut self) -> Option<&mut ResourceData> {
        match self {
            Node::Resource { d, .. } => Some(d),
            Node::Instance { d, .. } => Some(&mut d.res),
            _ => None,
        }
    }

    /// `GraphNodeConfigResource.ResourceAddr`.
    pub fn config_resource(&self) -> Option<ConfigResource> {
        self.resource_data().map(|d| d.addr.clone())
    }

    /// `GraphNodeResourceInstance.ResourceInstanceAddr`.
    pub fn instance_addr(&self) -> Option<&AbsResourceInstance> {
        match self {
            Node::Instance { d, .. } => Some(&d.addr),
            _ => None,
        }
    }

    /// `GraphNodeProviderConsumer.ProvidedBy`; `None` when no configured provider is needed: the
    /// orphan and destroy vertices of data and ephemeral resources
    /// (`NodePlannableResourceInstanceOrphan`, `NodeDestroyResourceInstance`).
    pub fn provided_by(&self) -> Option<ProviderRequest> {
        let d = self.resource_data()?;
        if let Node::Instance {
            kind: InstanceKind::PlanOrphan | InstanceKind::Destroy,
            ..
        } = self
            && d.addr.resource.mode != ResourceMode::Managed
        {
            return None;
        }
        Some(d.provided_by())
    }

    /// Is a `GraphNodeProviderConsumer`.
    pub fn is_provider_consumer(&self) -> bool {
        matches!(self, Node::Resource { .. } | Node::Instance { .. })
    }

    /// `GraphNodeProvider.ProviderAddr` (concrete and proxy providers).
    pub fn provider_addr(&self) -> Option<&AbsProviderConfig> {
        match self {
            Node::Provider { addr, .. } | Node::ProxyProvider { addr, .. } => Some(addr),
            _ => None,
        }
    }
}
