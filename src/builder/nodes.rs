//! The vertex types of OpenTofu's graphs. `Node::name` is exactly OpenTofu's vertex name
//! (`dag.VertexName`), e.g. `aws_instance.web (expand)`, `module.child (close)`,
//! `provider["registry.opentofu.org/hashicorp/aws"] (close)`, `var.foo (expand, reference)`.

use super::addr::{
    AbsProviderConfig, AbsResourceInstance, ConfigResource, Mode, ModulePath, Provider, Subject,
    in_module,
};
use super::model::{Import, ModuleCall, Output, ProviderBlock, ResourceConfig, resource_meta_refs};
use super::refs::{Reference, refs_in_block, refs_in_expr};
use super::schema::Block;
use hcl::expr::Expression;

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
}

/// `NodeAbstractResource`'s data.
#[derive(Clone, Debug)]
pub struct ResourceData {
    pub addr: ConfigResource,
    pub config: Option<ResourceConfig>,
    pub schema: Option<Block>,
    pub resolved_provider: Option<AbsProviderConfig>,
    pub stored_provider: Option<AbsProviderConfig>,
    pub import_targets: Vec<Import>,
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

    /// `NodeAbstractResource.References`.
    pub fn references(&self) -> Vec<Reference> {
        let Some(c) = &self.config else {
            return Vec::new();
        };
        let mut out = resource_meta_refs(c);
        if let Some(s) = &self.schema {
            // Meta-arguments are not part of the schema-driven body.
            let mut body = c.body.clone();
            body.0.retain(|st| match st {
                hcl::structure::Structure::Attribute(a) => !matches!(
                    a.key.as_str(),
                    "count" | "for_each" | "provider" | "depends_on"
                ),
                hcl::structure::Structure::Block(b) => !matches!(
                    b.identifier.as_str(),
                    "lifecycle" | "connection" | "provisioner"
                ),
            });
            out.extend(refs_in_block(&body, s));
        }
        out
    }

    /// `NodeAbstractResource.RootReferences`: expressions of import blocks targeting it.
    pub fn root_references(&self) -> Vec<Reference> {
        let mut out = Vec::new();
        for it in &self.import_targets {
            if let Some(e) = &it.for_each {
                out.extend(refs_in_expr(e));
            }
            if let Some(e) = &it.id {
                out.extend(refs_in_expr(e));
            }
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
            let (_, alias) = c.provider_local();
            return ProviderRequest::Local { alias };
        }
        if let Some(p) = &self.stored_provider {
            return ProviderRequest::Exact(p.clone());
        }
        if let Some(it) = self.import_targets.first()
            && let Some((_, alias)) = &it.provider_ref
        {
            return ProviderRequest::Local {
                alias: alias.clone(),
            };
        }
        ProviderRequest::Local { alias: None }
    }

    /// `Provider()`: the provider FQN.
    pub fn provider(&self) -> Provider {
        if let Some(p) = &self.resolved_provider {
            return p.provider.clone();
        }
        if let Some(c) = &self.config {
            return c.provider.clone();
        }
        if let Some(p) = &self.stored_provider {
            return p.provider.clone();
        }
        Provider::default_for(&self.addr.resource.implied_provider())
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
    /// Dependencies recorded in state for this instance.
    pub state_deps: Vec<ConfigResource>,
    pub has_state: bool,
    pub state_cbd: bool,
    /// Set by AttachDependenciesTransformer.
    pub dependencies: Vec<ConfigResource>,
}

impl InstanceData {
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
        config: Option<ProviderBlock>,
        schema: Option<Block>,
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
        module: ModulePath,
        name: String,
        validation_refs: Vec<Reference>,
    },
    /// `nodeExpandModuleVariable` (`module.x.var.y (expand, input)`).
    ModuleVariable {
        module: ModulePath,
        name: String,
        expr: Option<Expression>,
    },
    /// `nodeExpandLocal`.
    Local {
        module: ModulePath,
        name: String,
        expr: Expression,
    },
    /// `nodeExpandOutput`.
    Output {
        module: ModulePath,
        name: String,
        config: Output,
        destroying: bool,
    },
    /// `NodeDestroyableOutput`.
    DestroyOutput {
        module: ModulePath,
        name: String,
    },
    /// `nodeExpandModule`.
    ExpandModule {
        path: ModulePath,
        call: Option<ModuleCall>,
    },
    /// `nodeCloseModule` (the root module's closer is named `root`).
    CloseModule {
        path: ModulePath,
    },
    /// `graphNodeRoot`.
    Root,
    /// `nodeExpandCheck`.
    ExpandCheck {
        module: ModulePath,
        name: String,
        refs: Vec<Reference>,
    },
    /// `nodeReportCheck`.
    ReportCheck {
        module: ModulePath,
        name: String,
    },
    /// `nodeCheckStart`.
    CheckStart,
}

impl Node {
    /// OpenTofu's vertex name.
    pub fn name(&self) -> String {
        match self {
            Node::Resource { kind, d } => match kind {
                ResourceKind::Abstract | ResourceKind::Validatable => d.addr.to_string(),
                ResourceKind::ExpandPlannable | ResourceKind::ExpandApplyable => {
                    format!("{} (expand)", d.addr)
                }
            },
            Node::Instance { kind, d } => match kind {
                InstanceKind::Abstract | InstanceKind::Applyable | InstanceKind::Plannable => {
                    d.addr.to_string()
                }
                InstanceKind::Destroy | InstanceKind::PlanDestroyable => {
                    format!("{} (destroy)", d.addr)
                }
                InstanceKind::DestroyDeposed(k) => format!("{} (destroy deposed {k})", d.addr),
                InstanceKind::PlanOrphan | InstanceKind::TestOrphan => {
                    format!("{} (orphan)", d.addr)
                }
                InstanceKind::PlanDeposed(k) => format!("{} (deposed {k})", d.addr),
            },
            Node::Provider { addr, .. } => addr.to_string(),
            Node::ProxyProvider { addr, .. } => format!("{addr} (proxy)"),
            Node::CloseProvider { addr } => format!("{addr} (close)"),
            Node::RootVariable { name } => format!("var.{name}"),
            Node::VariableReference { module, name, .. } => {
                format!(
                    "{} (expand, reference)",
                    in_module(module, &format!("var.{name}"))
                )
            }
            Node::ModuleVariable { module, name, .. } => {
                format!(
                    "{} (expand, input)",
                    in_module(module, &format!("var.{name}"))
                )
            }
            Node::Local { module, name, .. } => {
                format!("{} (expand)", in_module(module, &format!("local.{name}")))
            }
            Node::Output { module, name, .. } => {
                format!("{} (expand)", in_module(module, &format!("output.{name}")))
            }
            Node::DestroyOutput { module, name } => {
                format!("{} (destroy)", in_module(module, &format!("output.{name}")))
            }
            Node::ExpandModule { path, .. } => {
                format!("{} (expand)", super::addr::module_str(path))
            }
            Node::CloseModule { path } => {
                if path.is_empty() {
                    "root".to_string()
                } else {
                    format!("{} (close)", super::addr::module_str(path))
                }
            }
            Node::Root => "root".to_string(),
            Node::ExpandCheck { module, name, .. } => {
                format!("{} (expand)", in_module(module, &format!("check.{name}")))
            }
            Node::ReportCheck { module, name } => {
                format!("{} (report)", in_module(module, &format!("check.{name}")))
            }
            Node::CheckStart => "(execute checks)".to_string(),
        }
    }

    /// `GraphNodeModulePath.ModulePath`, for vertices that have one.
    pub fn module_path(&self) -> Option<ModulePath> {
        Some(match self {
            Node::Resource { d, .. } => d.addr.module.clone(),
            Node::Instance { d, .. } => d.addr.module_path(),
            Node::Provider { addr, .. }
            | Node::ProxyProvider { addr, .. }
            | Node::CloseProvider { addr } => addr.module.clone(),
            Node::RootVariable { .. } => Vec::new(),
            Node::VariableReference { module, .. }
            | Node::ModuleVariable { module, .. }
            | Node::Local { module, .. }
            | Node::Output { module, .. }
            | Node::DestroyOutput { module, .. }
            | Node::ExpandCheck { module, .. }
            | Node::ReportCheck { module, .. } => module.clone(),
            Node::ExpandModule { path, .. } | Node::CloseModule { path } => path.clone(),
            Node::Root | Node::CheckStart => return None,
        })
    }

    /// The module in which this vertex's referenceable addresses live (`vertexReferenceablePath`).
    pub fn referenceable_path(&self) -> Option<ModulePath> {
        match self {
            Node::ModuleVariable { module, .. } => Some(module.clone()),
            Node::CloseModule { path } | Node::ExpandModule { path, .. } => {
                let mut p = path.clone();
                p.pop();
                Some(p)
            }
            Node::Output { module, .. } => {
                let mut p = module.clone();
                p.pop();
                Some(p)
            }
            _ => self.module_path(),
        }
    }

    /// The module in which this vertex's references are resolved (`vertexReferencePath`).
    pub fn reference_path(&self) -> Option<ModulePath> {
        match self {
            Node::ModuleVariable { module, .. } | Node::ExpandModule { path: module, .. } => {
                let mut p = module.clone();
                p.pop();
                Some(p)
            }
            _ => self.module_path(),
        }
    }

    /// `GraphNodeReferenceable.ReferenceableAddrs`; `None` when the vertex is not referenceable.
    pub fn referenceable_addrs(&self) -> Option<Vec<Subject>> {
        match self {
            Node::Resource { d, .. } => Some(
                vec![d.addr.resource.clone()]
                    .into_iter()
                    .map(Subject::Resource)
                    .collect(),
            ),
            Node::Instance { d, .. } => {
                // Destroy vertices are referenceable too; ReferenceTransformer drops edges to them.
                Some(vec![
                    Subject::ResourceInstance(d.addr.resource.clone(), d.addr.key.clone()),
                    Subject::Resource(d.addr.resource.clone()),
                ])
            }
            Node::RootVariable { name } => Some(vec![Subject::InputVariable(name.clone())]),
            Node::VariableReference { name, .. } | Node::ModuleVariable { name, .. } => {
                Some(vec![Subject::InputVariable(name.clone())])
            }
            Node::Local { name, .. } => Some(vec![Subject::LocalValue(name.clone())]),
            Node::Output { module, name, .. } => {
                if module.is_empty() {
                    return Some(Vec::new());
                }
                let call = module.last().cloned().unwrap_or_default();
                Some(vec![
                    Subject::ModuleCallOutput(call.clone(), name.clone()),
                    Subject::ModuleCall(call),
                ])
            }
            Node::CloseModule { path } => {
                let call = path.last().cloned()?;
                Some(vec![Subject::ModuleCall(call)])
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

    /// `References()` (or `DestroyReferences()` for destroyers).
    pub fn references(&self) -> Vec<Reference> {
        match self {
            Node::Resource { d, .. } => d.references(),
            Node::Instance { kind, d } => match kind {
                InstanceKind::Destroy
                | InstanceKind::DestroyDeposed(_)
                | InstanceKind::PlanDestroyable => {
                    // DestroyReferences: only destroy-time provisioner references; none here.
                    Vec::new()
                }
                _ => {
                    // Instance nodes read their configuration only when a schema is attached.
                    if d.res.config.is_some() && d.res.schema.is_some() {
                        d.res.references()
                    } else {
                        Vec::new()
                    }
                }
            },
            Node::Provider { config, schema, .. } => match (config, schema) {
                (Some(c), Some(s)) => refs_in_block(&c.body, s),
                _ => Vec::new(),
            },
            Node::VariableReference {
                validation_refs, ..
            } => validation_refs.clone(),
            Node::ModuleVariable { module, expr, .. } => match expr {
                Some(e) if !module.is_empty() => refs_in_expr(e),
                _ => Vec::new(),
            },
            Node::Local { expr, .. } => refs_in_expr(expr),
            Node::Output {
                module,
                config,
                destroying,
                ..
            } => {
                if module.is_empty() && *destroying {
                    Vec::new()
                } else {
                    config.refs()
                }
            }
            Node::ExpandModule { call: Some(c), .. } => {
                let mut out = c.depends_on.clone();
                for e in [&c.count, &c.for_each, &c.enabled].into_iter().flatten() {
                    out.extend(refs_in_expr(e));
                }
                out
            }
            Node::ExpandCheck { refs, .. } => refs.clone(),
            _ => Vec::new(),
        }
    }

    /// `GraphNodeRootReferencer.RootReferences`.
    pub fn root_references(&self) -> Vec<Reference> {
        match self {
            Node::Resource { d, .. } => d.root_references(),
            _ => Vec::new(),
        }
    }

    /// `depends_on` references only (`graphNodeDependsOn.DependsOn`).
    pub fn depends_on(&self) -> Vec<Reference> {
        match self {
            Node::Resource { d, .. } => d
                .config
                .as_ref()
                .map(|c| c.depends_on.clone())
                .unwrap_or_default(),
            Node::ExpandModule { call: Some(c), .. } => c.depends_on.clone(),
            _ => Vec::new(),
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

    pub fn is_data_or_ephemeral(&self) -> bool {
        self.config_resource()
            .is_some_and(|a| a.resource.mode != Mode::Managed)
    }
}
