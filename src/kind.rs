//! What kind of OpenTofu vertex a vertex is, and the module it belongs to: the one typed
//! classification every reader of a graph uses (the page's drawing and details, the walk's
//! durations and expansion, the layout's module boxes).
//!
//! A builder vertex knows its kind (`builder::Node::typed`); the recorded build steps, the page's
//! graph, its scene and the walk carry it along with the name. Only a graph known by names alone
//! (a `terraform graph` DOT file) has its kinds derived from the names, once, where it is read
//! (`dag::import::typed_from_name`). Nothing else reads a kind out of a vertex name.
//!
//! Depends on nothing in the crate, so `dag` (the walker's vertices, the DOT reader) can use it.

use serde::{Deserialize, Serialize};

/// A vertex's kind and module path, as it travels with the vertex.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub struct Typed {
    pub kind: VertexKind,
    /// The module calls leading to the module the vertex belongs to, outermost first, without the
    /// `module.` prefix and with the instance key where the vertex is of one instance
    /// (`["net", "sub[\"a\"]"]`). A module's own expand and close vertices belong to the module
    /// itself; `root` to the root module (empty).
    pub module: Vec<String>,
}

impl Typed {
    pub fn new(kind: VertexKind, module: Vec<String>) -> Typed {
        Typed { kind, module }
    }

    /// The module path as the page's module boxes are named: `["module.net", "module.sub"]`.
    pub fn clusters(&self) -> Vec<String> {
        self.module.iter().map(|m| format!("module.{m}")).collect()
    }
}

/// The resource modes (Go `addrs.ResourceMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Mode {
    Managed,
    Data,
    Ephemeral,
}

/// Which vertex of a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ResourceRole {
    /// The whole resource, not expanded (validate graphs, `NodeValidatableResource`).
    Whole,
    /// `… (expand)`: the whole resource, expanding into its instances.
    Expand,
    /// One instance (`aws_instance.web[0]`), to create or update.
    Instance,
    /// `… (destroy)`.
    Destroy,
    /// `… (orphan)`: only in the state.
    Orphan,
    /// `… (deposed KEY)`: a deposed object in a plan.
    Deposed,
    /// `… (destroy deposed KEY)`.
    DestroyDeposed,
    /// `… (forget)`.
    Forget,
    /// `… (forget deposed KEY)`.
    ForgetDeposed,
    /// `ephemeral.T.N (close)`: closes every instance of an ephemeral resource.
    Close,
}

/// Which vertex of a provider configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ProviderRole {
    Config,
    /// `… (proxy)`: a configuration passed in from the parent module.
    Proxy,
    /// `… (close)`.
    Close,
}

/// Which vertex of an input variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum VariableRole {
    /// `var.x` of the root module.
    Root,
    /// `… (expand, reference)`: the value as the module's expressions see it.
    Reference,
    /// `… (expand, input)`: the argument a module call passes in.
    Input,
}

/// What a vertex is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub enum VertexKind {
    Resource {
        mode: Mode,
        /// The resource type (`aws_instance`).
        type_name: String,
        /// The resource name (`web`).
        name: String,
        role: ResourceRole,
    },
    Provider(ProviderRole),
    Variable(VariableRole),
    /// `local.NAME (expand)`.
    Local {
        name: String,
    },
    /// `output.NAME (expand)`.
    Output {
        name: String,
    },
    /// `output.x (destroy)`.
    OutputDestroy,
    /// `module.m (expand)`.
    ModuleExpand,
    /// `module.m (close)`.
    ModuleClose,
    /// One instance of a module call (walk instances only).
    ModuleInstance,
    /// `check.x (expand)`.
    CheckExpand,
    /// `check.x (report)`.
    CheckReport,
    /// `(execute checks)`.
    CheckStart,
    /// `root`: the graph's end (the root module's closer in plan graphs).
    Root,
    /// Anything else (a DOT vertex that names no OpenTofu object).
    #[default]
    Other,
}

impl VertexKind {
    /// A resource vertex of `mode`, `type_name`, `name`.
    pub fn resource(mode: Mode, type_name: &str, name: &str, role: ResourceRole) -> VertexKind {
        VertexKind::Resource {
            mode,
            type_name: type_name.to_string(),
            name: name.to_string(),
            role,
        }
    }

    /// The kind of the instances a vertex of this kind expands into when walked (OpenTofu's
    /// `DynamicExpand`): an `(expand)` resource into instances, a module call into module
    /// instances, values into the value once per module instance.
    pub fn instance(&self) -> VertexKind {
        match self {
            VertexKind::Resource {
                mode,
                type_name,
                name,
                role: ResourceRole::Expand,
            } => VertexKind::resource(*mode, type_name, name, ResourceRole::Instance),
            VertexKind::ModuleExpand => VertexKind::ModuleInstance,
            other => other.clone(),
        }
    }

    /// Whether this is one of the `(expand)` vertices: of a resource, a module call, a local
    /// value, an output or a check.
    pub fn is_expand(&self) -> bool {
        self.is_resource_expand()
            || matches!(
                self,
                VertexKind::ModuleExpand
                    | VertexKind::Local { .. }
                    | VertexKind::Output { .. }
                    | VertexKind::CheckExpand
            )
    }

    /// Whether a vertex of this kind may expand in some walk (which do in a given walk is
    /// `inside::expansion::expand`'s answer): the `(expand)` vertices and module variables'
    /// references and inputs.
    pub fn may_expand(&self) -> bool {
        self.is_expand()
            || matches!(
                self,
                VertexKind::Variable(VariableRole::Reference | VariableRole::Input)
            )
    }

    /// Whether this is the `(expand)` vertex of a resource.
    pub fn is_resource_expand(&self) -> bool {
        matches!(
            self,
            VertexKind::Resource {
                role: ResourceRole::Expand,
                ..
            }
        )
    }

    /// The resource type of a resource vertex of any role.
    pub fn resource_type(&self) -> Option<&str> {
        match self {
            VertexKind::Resource { type_name, .. } => Some(type_name),
            _ => None,
        }
    }
}
