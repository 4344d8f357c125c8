//! Addresses of configuration and state objects, printed exactly as OpenTofu v1.12.6 prints them
//! (its `internal/addrs` String() forms), because graph vertex names are built from these strings
//! and the conformance cases compare graph text byte for byte.
//!
//! The string forms are hand-written rather than derived: OpenTofu's quoting of instance keys
//! (Go `%q`) and its provider-address forms are specific to it.

use std::fmt;

/// The registry host OpenTofu assumes for unqualified provider source addresses.
pub const DEFAULT_PROVIDER_REGISTRY_HOST: &str = "registry.opentofu.org";
/// The namespace used for providers implied from a resource type or a `provider` block name.
pub const DEFAULT_PROVIDER_NAMESPACE: &str = "hashicorp";
/// The host of built-in providers (`terraform.io/builtin/terraform`).
pub const BUILTIN_PROVIDER_HOST: &str = "terraform.io";
/// The namespace of built-in providers.
pub const BUILTIN_PROVIDER_NAMESPACE: &str = "builtin";
/// The namespace of legacy (pre-0.13, unqualified) provider addresses.
pub const LEGACY_PROVIDER_NAMESPACE: &str = "-";

// ---------------------------------------------------------------------------------------------
// Instance keys

/// An instance key: none, a `count` index or a `for_each` key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum InstanceKey {
    #[default]
    None,
    Int(i64),
    Str(String),
}

impl InstanceKey {
    pub fn is_none(&self) -> bool {
        matches!(self, InstanceKey::None)
    }
}

/// Go's `strconv.Quote` (and so `%q`), as instance keys and messages print strings. One
/// implementation serves addresses, diagnostics and DOT output: the renderer's, which also handles
/// non-printable characters beyond ASCII as Go does.
pub use crate::dag::render::go_quote;

impl fmt::Display for InstanceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceKey::None => Ok(()),
            InstanceKey::Int(i) => write!(f, "[{i}]"),
            InstanceKey::Str(s) => write!(f, "[{}]", go_quote(s)),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Module paths

/// A static module path (`module.a.module.b`); the root module is the empty path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Module(pub Vec<String>);

impl Module {
    pub fn root() -> Self {
        Module(Vec::new())
    }
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }
    pub fn child(&self, name: &str) -> Module {
        let mut v = self.0.clone();
        v.push(name.to_string());
        Module(v)
    }
    pub fn parent(&self) -> Option<Module> {
        if self.0.is_empty() {
            return None;
        }
        Some(Module(self.0[..self.0.len() - 1].to_vec()))
    }
    /// The unexpanded instance path (every step without a key).
    pub fn unkeyed_instance(&self) -> ModuleInstance {
        ModuleInstance(
            self.0
                .iter()
                .map(|n| ModuleInstanceStep {
                    name: n.clone(),
                    key: InstanceKey::None,
                })
                .collect(),
        )
    }
    /// Parses `module.a.module.b` (no instance keys; `""` is the root).
    pub fn parse(s: &str) -> Result<Module, String> {
        if s.trim().is_empty() {
            return Ok(Module::root());
        }
        let mi = ModuleInstance::parse(s)?;
        if mi.0.iter().any(|st| !st.key.is_none()) {
            return Err(format!(
                "Module address {} must not have instance keys.",
                go_quote(s)
            ));
        }
        Ok(mi.module())
    }
    /// True when `self` is `other` or one of its ancestors.
    pub fn is_ancestor_or_self_of(&self, other: &Module) -> bool {
        other.0.len() >= self.0.len() && other.0[..self.0.len()] == self.0[..]
    }
    /// `rest` prefixed with this path and a dot (`module.a.var.x`), or `rest` alone in the root.
    pub fn qualify(&self, rest: impl fmt::Display) -> String {
        if self.is_root() {
            rest.to_string()
        } else {
            format!("{self}.{rest}")
        }
    }
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, n) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "module.{n}")?;
        }
        Ok(())
    }
}

/// One step of a module instance path: `module.name[key]`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModuleInstanceStep {
    pub name: String,
    pub key: InstanceKey,
}

/// A module instance path (`module.a[0].module.b["x"]`); the root is the empty path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ModuleInstance(pub Vec<ModuleInstanceStep>);

impl ModuleInstance {
    pub fn root() -> Self {
        ModuleInstance(Vec::new())
    }
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }
    pub fn child(&self, name: &str, key: InstanceKey) -> ModuleInstance {
        let mut v = self.0.clone();
        v.push(ModuleInstanceStep {
            name: name.to_string(),
            key,
        });
        ModuleInstance(v)
    }
    pub fn parent(&self) -> Option<ModuleInstance> {
        if self.0.is_empty() {
            return None;
        }
        Some(ModuleInstance(self.0[..self.0.len() - 1].to_vec()))
    }
    /// Parses `module.a[0].module.b["x"]` (`""` is the root).
    pub fn parse(s: &str) -> Result<ModuleInstance, String> {
        if s.trim().is_empty() {
            return Ok(ModuleInstance::root());
        }
        match Targetable::parse(s)? {
            Targetable::Module(m) => Ok(m),
            _ => Err(format!("{} is not a module instance address.", go_quote(s))),
        }
    }
    /// The static module path, dropping instance keys.
    pub fn module(&self) -> Module {
        Module(self.0.iter().map(|s| s.name.clone()).collect())
    }
    /// True when `self` is `other` or one of its ancestors.
    pub fn is_ancestor_or_self_of(&self, other: &ModuleInstance) -> bool {
        other.0.len() >= self.0.len() && other.0[..self.0.len()] == self.0[..]
    }
}

impl fmt::Display for ModuleInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "module.{}{}", s.name, s.key)?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Resources

/// Managed (`resource`), data (`data`) or ephemeral (`ephemeral`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ResourceMode {
    Managed,
    Data,
    Ephemeral,
}

impl ResourceMode {
    /// The address prefix (`""`, `"data."`, `"ephemeral."`).
    pub fn prefix(self) -> &'static str {
        match self {
            ResourceMode::Managed => "",
            ResourceMode::Data => "data.",
            ResourceMode::Ephemeral => "ephemeral.",
        }
    }
    /// The state file's `mode` string.
    pub fn state_name(self) -> &'static str {
        match self {
            ResourceMode::Managed => "managed",
            ResourceMode::Data => "data",
            ResourceMode::Ephemeral => "ephemeral",
        }
    }
}

/// A resource relative to its module: `aws_instance.a`, `data.x.y`, `ephemeral.x.y`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Resource {
    pub mode: ResourceMode,
    pub type_name: String,
    pub name: String,
}

impl Resource {
    pub fn new(mode: ResourceMode, type_name: &str, name: &str) -> Self {
        Resource {
            mode,
            type_name: type_name.to_string(),
            name: name.to_string(),
        }
    }
    pub fn instance(&self, key: InstanceKey) -> ResourceInstance {
        ResourceInstance {
            resource: self.clone(),
            key,
        }
    }
    pub fn absolute(&self, module: ModuleInstance) -> AbsResource {
        AbsResource {
            module,
            resource: self.clone(),
        }
    }
    pub fn in_module(&self, module: Module) -> ConfigResource {
        ConfigResource {
            module,
            resource: self.clone(),
        }
    }
    /// The provider local name implied by the type: everything before the first `_`
    /// (the whole type when there is none).
    pub fn implied_provider(&self) -> String {
        implied_provider_local_name(&self.type_name)
    }
}

/// The provider local name implied by a resource type name.
pub fn implied_provider_local_name(type_name: &str) -> String {
    match type_name.split_once('_') {
        Some((p, _)) => p.to_string(),
        None => type_name.to_string(),
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}.{}", self.mode.prefix(), self.type_name, self.name)
    }
}

/// A resource instance relative to its module: `aws_instance.a[0]`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ResourceInstance {
    pub resource: Resource,
    pub key: InstanceKey,
}

impl ResourceInstance {
    pub fn absolute(&self, module: ModuleInstance) -> AbsResourceInstance {
        AbsResourceInstance {
            module,
            resource: self.clone(),
        }
    }
}

impl fmt::Display for ResourceInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.resource, self.key)
    }
}

fn write_with_module(
    f: &mut fmt::Formatter<'_>,
    module: &dyn fmt::Display,
    root: bool,
    rest: &dyn fmt::Display,
) -> fmt::Result {
    if root {
        write!(f, "{rest}")
    } else {
        write!(f, "{module}.{rest}")
    }
}

/// A resource in a static module path (Go `ConfigResource`): `module.a.aws_instance.b`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConfigResource {
    pub module: Module,
    pub resource: Resource,
}

impl fmt::Display for ConfigResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_with_module(f, &self.module, self.module.is_root(), &self.resource)
    }
}

/// A resource in a module instance (Go `AbsResource`): `module.a[0].aws_instance.b`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AbsResource {
    pub module: ModuleInstance,
    pub resource: Resource,
}

impl AbsResource {
    pub fn instance(&self, key: InstanceKey) -> AbsResourceInstance {
        AbsResourceInstance {
            module: self.module.clone(),
            resource: self.resource.instance(key),
        }
    }
    pub fn config(&self) -> ConfigResource {
        ConfigResource {
            module: self.module.module(),
            resource: self.resource.clone(),
        }
    }
}

impl fmt::Display for AbsResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_with_module(f, &self.module, self.module.is_root(), &self.resource)
    }
}

/// A resource instance in a module instance (Go `AbsResourceInstance`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AbsResourceInstance {
    pub module: ModuleInstance,
    pub resource: ResourceInstance,
}

impl AbsResourceInstance {
    pub fn contains_resource(&self) -> AbsResource {
        AbsResource {
            module: self.module.clone(),
            resource: self.resource.resource.clone(),
        }
    }
    pub fn config_resource(&self) -> ConfigResource {
        self.contains_resource().config()
    }
}

impl fmt::Display for AbsResourceInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_with_module(f, &self.module, self.module.is_root(), &self.resource)
    }
}

// ---------------------------------------------------------------------------------------------
// Providers

/// A provider source address (Go `addrs.Provider`): hostname/namespace/type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Provider {
    pub hostname: String,
    pub namespace: String,
    pub type_name: String,
}

impl Provider {
    pub fn new(hostname: &str, namespace: &str, type_name: &str) -> Self {
        Provider {
            hostname: hostname.to_string(),
            namespace: namespace.to_string(),
            type_name: type_name.to_string(),
        }
    }
    /// `registry.opentofu.org/hashicorp/<type>`.
    pub fn default_for(type_name: &str) -> Self {
        Provider::new(
            DEFAULT_PROVIDER_REGISTRY_HOST,
            DEFAULT_PROVIDER_NAMESPACE,
            type_name,
        )
    }
    /// `terraform.io/builtin/<type>`.
    pub fn builtin(type_name: &str) -> Self {
        Provider::new(BUILTIN_PROVIDER_HOST, BUILTIN_PROVIDER_NAMESPACE, type_name)
    }
    /// `registry.opentofu.org/-/<type>`.
    pub fn legacy(type_name: &str) -> Self {
        Provider::new(
            DEFAULT_PROVIDER_REGISTRY_HOST,
            LEGACY_PROVIDER_NAMESPACE,
            type_name,
        )
    }
    /// The provider OpenTofu implies for a local name that has no `required_providers` entry
    /// (Go `ImpliedProviderForUnqualifiedType`): `terraform` is built in, the rest `hashicorp/`.
    pub fn implied(local_name: &str) -> Self {
        if local_name == "terraform" {
            Provider::builtin(local_name)
        } else {
            Provider::default_for(local_name)
        }
    }
    pub fn is_builtin(&self) -> bool {
        self.hostname == BUILTIN_PROVIDER_HOST && self.namespace == BUILTIN_PROVIDER_NAMESPACE
    }
    pub fn is_legacy(&self) -> bool {
        self.hostname == DEFAULT_PROVIDER_REGISTRY_HOST
            && self.namespace == LEGACY_PROVIDER_NAMESPACE
    }
    /// The short form users see (`hashicorp/aws`, host dropped when it is the default registry).
    pub fn for_display(&self) -> String {
        if self.hostname == DEFAULT_PROVIDER_REGISTRY_HOST {
            format!("{}/{}", self.namespace, self.type_name)
        } else {
            self.to_string()
        }
    }
    /// Parses a `required_providers` source string (Go `ParseProviderSource`): `aws`,
    /// `hashicorp/aws` or `host/ns/aws`. Case is folded to lower case, as OpenTofu does.
    pub fn parse_source(s: &str) -> Result<Provider, String> {
        let parts: Vec<&str> = s.split('/').collect();
        let valid = |p: &str| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '_' || c == '.')
        };
        match parts.as_slice() {
            [t] if valid(t) => Ok(Provider::implied(&t.to_lowercase())),
            [ns, t] if valid(ns) && valid(t) => Ok(Provider::new(
                DEFAULT_PROVIDER_REGISTRY_HOST,
                &ns.to_lowercase(),
                &t.to_lowercase(),
            )),
            [h, ns, t] if valid(h) && valid(ns) && valid(t) => Ok(Provider::new(
                &h.to_lowercase(),
                &ns.to_lowercase(),
                &t.to_lowercase(),
            )),
            _ => Err(format!(
                "The \"source\" attribute must be in the format \"[hostname/][namespace/]name\", but got {}.",
                go_quote(s)
            )),
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.hostname, self.namespace, self.type_name)
    }
}

/// A provider configuration named in a module (Go `LocalProviderConfig`): `aws` or `aws.west`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LocalProviderConfig {
    pub local_name: String,
    pub alias: Option<String>,
}

impl LocalProviderConfig {
    pub fn new(local_name: &str, alias: Option<&str>) -> Self {
        LocalProviderConfig {
            local_name: local_name.to_string(),
            alias: alias.map(str::to_string),
        }
    }
}

impl fmt::Display for LocalProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.alias {
            Some(a) => write!(f, "provider.{}.{}", self.local_name, a),
            None => write!(f, "provider.{}", self.local_name),
        }
    }
}

impl LocalProviderConfig {
    /// The key a module uses for its `provider` blocks (Go `moduleUniqueKey`): `aws`, `aws.west`.
    pub fn key(&self) -> String {
        match &self.alias {
            Some(a) => format!("{}.{}", self.local_name, a),
            None => self.local_name.clone(),
        }
    }
}

/// A provider configuration in a static module path (Go `AbsProviderConfig`).
/// Display: `provider["registry.opentofu.org/hashicorp/aws"]`, with `.alias` and a
/// `module.x.` prefix where they apply.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AbsProviderConfig {
    pub module: Module,
    pub provider: Provider,
    pub alias: Option<String>,
}

impl AbsProviderConfig {
    pub fn new(module: Module, provider: Provider, alias: Option<&str>) -> Self {
        AbsProviderConfig {
            module,
            provider,
            alias: alias.map(str::to_string),
        }
    }

    /// The same configuration one module further up (Go `Inherited`): how a default provider
    /// configuration is found in an ancestor. Aliased configurations and the root's are never
    /// inherited.
    pub fn inherited(&self) -> Option<AbsProviderConfig> {
        if self.alias.is_some() {
            return None;
        }
        Some(AbsProviderConfig {
            module: self.module.parent()?,
            provider: self.provider.clone(),
            alias: None,
        })
    }

    /// Parses the string form used in state files and graph text (Go `ParseAbsProviderConfigStr`),
    /// including the legacy `provider.aws` / `module.x.provider.aws.alias` forms, which map to
    /// legacy (`-` namespace) providers as OpenTofu does.
    pub fn parse(s: &str) -> Result<AbsProviderConfig, String> {
        let err = || {
            format!(
                "Invalid provider configuration address {}: expected provider[\"hostname/namespace/type\"] optionally prefixed by module path and followed by .alias",
                go_quote(s)
            )
        };
        let mut rest = s;
        let mut module = Vec::new();
        while let Some(r) = rest.strip_prefix("module.") {
            let (name, after) = split_ident(r);
            if name.is_empty() {
                return Err(err());
            }
            let after = after.strip_prefix('.').ok_or_else(err)?;
            module.push(name.to_string());
            rest = after;
        }
        let rest = rest.strip_prefix("provider").ok_or_else(err)?;
        if let Some(r) = rest.strip_prefix("[\"") {
            let end = r.find("\"]").ok_or_else(err)?;
            let provider = Provider::parse_source(&r[..end]).map_err(|_| err())?;
            let after = &r[end + 2..];
            let alias = if after.is_empty() {
                None
            } else {
                let a = after.strip_prefix('.').ok_or_else(err)?;
                if a.is_empty() || !is_identifier(a) {
                    return Err(err());
                }
                Some(a)
            };
            Ok(AbsProviderConfig::new(Module(module), provider, alias))
        } else if let Some(r) = rest.strip_prefix('.') {
            // Legacy form: provider.aws or provider.aws.alias
            let mut parts = r.split('.');
            let name = parts.next().filter(|n| is_identifier(n)).ok_or_else(err)?;
            let alias = parts.next();
            if parts.next().is_some() || alias.is_some_and(|a| !is_identifier(a)) {
                return Err(err());
            }
            let provider = if name == "terraform" {
                Provider::builtin(name)
            } else {
                Provider::legacy(name)
            };
            Ok(AbsProviderConfig::new(Module(module), provider, alias))
        } else {
            Err(err())
        }
    }
}

impl fmt::Display for AbsProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.module.is_root() {
            write!(f, "{}.", self.module)?;
        }
        write!(f, "provider[{}]", go_quote(&self.provider.to_string()))?;
        if let Some(a) = &self.alias {
            write!(f, ".{a}")?;
        }
        Ok(())
    }
}

fn split_ident(s: &str) -> (&str, &str) {
    let end = s
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '-'))
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    s.split_at(end)
}

/// HCL identifier rule (letters, digits, `_`, `-`; not starting with a digit or `-`).
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

// ---------------------------------------------------------------------------------------------
// Other referenceable objects

/// `module.name`: a module call in the calling module.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModuleCall {
    pub name: String,
}

impl fmt::Display for ModuleCall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "module.{}", self.name)
    }
}

/// `module.name[key]`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModuleCallInstance {
    pub call: ModuleCall,
    pub key: InstanceKey,
}

impl fmt::Display for ModuleCallInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.call, self.key)
    }
}

/// `module.name[key].output`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModuleCallInstanceOutput {
    pub call: ModuleCallInstance,
    pub name: String,
}

impl fmt::Display for ModuleCallInstanceOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.call, self.name)
    }
}

/// What an expression can refer to (Go `addrs.Referenceable`), relative to the module that
/// contains the expression.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Referenceable {
    Resource(Resource),
    ResourceInstance(ResourceInstance),
    ModuleCall(ModuleCall),
    ModuleCallInstance(ModuleCallInstance),
    ModuleCallInstanceOutput(ModuleCallInstanceOutput),
    /// `var.name`
    InputVariable(String),
    /// `local.name`
    LocalValue(String),
    /// `output.name` is not referenceable from expressions; used by graph nodes only.
    OutputValue(String),
    /// `count.index`
    CountAttr(String),
    /// `each.key` / `each.value`
    ForEachAttr(String),
    /// `path.module`, `path.root`, `path.cwd`
    PathAttr(String),
    /// `terraform.workspace` (also `tofu.workspace`, stored as written)
    TerraformAttr {
        alias: String,
        name: String,
    },
    /// `self`
    SelfRef,
    /// `check.name` (a check block as a checkable object; never parsed from expressions)
    CheckBlock(String),
    /// `run.name` in test files
    Run(String),
}

impl fmt::Display for Referenceable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Referenceable::Resource(r) => write!(f, "{r}"),
            Referenceable::ResourceInstance(r) => write!(f, "{r}"),
            Referenceable::ModuleCall(m) => write!(f, "{m}"),
            Referenceable::ModuleCallInstance(m) => write!(f, "{m}"),
            Referenceable::ModuleCallInstanceOutput(m) => write!(f, "{m}"),
            Referenceable::InputVariable(n) => write!(f, "var.{n}"),
            Referenceable::LocalValue(n) => write!(f, "local.{n}"),
            Referenceable::OutputValue(n) => write!(f, "output.{n}"),
            Referenceable::CountAttr(n) => write!(f, "count.{n}"),
            Referenceable::ForEachAttr(n) => write!(f, "each.{n}"),
            Referenceable::PathAttr(n) => write!(f, "path.{n}"),
            Referenceable::TerraformAttr { alias, name } => write!(f, "{alias}.{name}"),
            Referenceable::SelfRef => write!(f, "self"),
            Referenceable::CheckBlock(n) => write!(f, "check.{n}"),
            Referenceable::Run(n) => write!(f, "run.{n}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Targets (-target / -exclude)

/// An address accepted by `-target` and `-exclude`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Targetable {
    Module(ModuleInstance),
    Resource(AbsResource),
    ResourceInstance(AbsResourceInstance),
}

impl fmt::Display for Targetable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Targetable::Module(m) => write!(f, "{m}"),
            Targetable::Resource(r) => write!(f, "{r}"),
            Targetable::ResourceInstance(r) => write!(f, "{r}"),
        }
    }
}

impl Targetable {
    /// Parses a target address (Go `ParseTargetStr`): `aws_instance.a`, `module.x`,
    /// `module.x[0].aws_instance.y["k"]`, `data.t.n[1]`.
    pub fn parse(s: &str) -> Result<Targetable, String> {
        let steps = crate::config::traversal::parse_traversal_str(s)?;
        Targetable::from_steps(&steps)
    }

    fn from_steps(steps: &[crate::config::traversal::Step]) -> Result<Targetable, String> {
        use crate::config::traversal::Step;
        let mut i = 0;
        let mut module = ModuleInstance::root();
        while let Some(Step::Attr(n)) = steps.get(i) {
            if n != "module" {
                break;
            }
            let name = match steps.get(i + 1) {
                Some(Step::Attr(n)) => n.clone(),
                _ => {
                    return Err("Prefix \"module.\" must be followed by a module name.".into());
                }
            };
            i += 2;
            let key = match steps.get(i) {
                Some(Step::Index(k)) => {
                    i += 1;
                    k.clone()
                }
                _ => InstanceKey::None,
            };
            module = module.child(&name, key);
        }
        if i == steps.len() {
            return Ok(Targetable::Module(module));
        }
        let (mode, j) = match steps.get(i) {
            Some(Step::Attr(n)) if n == "data" => (ResourceMode::Data, i + 1),
            Some(Step::Attr(n)) if n == "ephemeral" => (ResourceMode::Ephemeral, i + 1),
            _ => (ResourceMode::Managed, i),
        };
        let type_name = match steps.get(j) {
            Some(Step::Attr(n)) => n.clone(),
            _ => {
                return Err("Resource specification must include a resource type and name.".into());
            }
        };
        let name = match steps.get(j + 1) {
            Some(Step::Attr(n)) => n.clone(),
            Some(Step::Index(_)) => {
                return Err("Resource specification must include a resource type and name.".into());
            }
            None => {
                return Err(match mode {
                    ResourceMode::Data => "Data source name is required.".into(),
                    ResourceMode::Ephemeral => "Ephemeral resource name is required.".into(),
                    ResourceMode::Managed => "Resource name is required.".into(),
                });
            }
        };
        let resource = Resource::new(mode, &type_name, &name);
        match steps.get(j + 2) {
            None => Ok(Targetable::Resource(resource.absolute(module))),
            Some(Step::Index(k)) if j + 3 == steps.len() => Ok(Targetable::ResourceInstance(
                resource.instance(k.clone()).absolute(module),
            )),
            Some(Step::Index(_)) => Err("Unexpected extra operators after address.".into()),
            Some(Step::Attr(_)) => {
                Err("Resource instance key must be given in square brackets.".into())
            }
        }
    }
}

/// Parses an absolute resource address, with or without instance key (Go `ParseAbsResourceStr`
/// accepts only without). Used for state `dependencies` and plan change addresses.
pub fn parse_abs_resource_instance(s: &str) -> Result<AbsResourceInstance, String> {
    match Targetable::parse(s)? {
        Targetable::Resource(r) => Ok(r.instance(InstanceKey::None)),
        Targetable::ResourceInstance(r) => Ok(r),
        Targetable::Module(_) => Err(format!(
            "{} is a module address, not a resource address",
            go_quote(s)
        )),
    }
}

/// Parses `module.a.aws_instance.b` into an absolute resource (no instance key allowed).
pub fn parse_abs_resource(s: &str) -> Result<AbsResource, String> {
    match Targetable::parse(s)? {
        Targetable::Resource(r) => Ok(r),
        Targetable::ResourceInstance(_) => {
            Err("Resource instance address with keys is not allowed here.".into())
        }
        Targetable::Module(_) => Err(format!(
            "{} is a module address, not a resource address",
            go_quote(s)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_config_strings() {
        let aws = Provider::default_for("aws");
        assert_eq!(
            AbsProviderConfig::new(Module::root(), aws.clone(), None).to_string(),
            "provider[\"registry.opentofu.org/hashicorp/aws\"]"
        );
        assert_eq!(
            AbsProviderConfig::new(Module::root(), aws.clone(), Some("foo")).to_string(),
            "provider[\"registry.opentofu.org/hashicorp/aws\"].foo"
        );
        assert_eq!(
            AbsProviderConfig::new(Module::root().child("child"), aws, None).to_string(),
            "module.child.provider[\"registry.opentofu.org/hashicorp/aws\"]"
        );
    }

    #[test]
    fn provider_config_parse_roundtrip() {
        for s in [
            "provider[\"registry.opentofu.org/hashicorp/aws\"]",
            "provider[\"registry.opentofu.org/hashicorp/aws\"].foo",
            "module.a.module.b.provider[\"example.com/x/y\"].z",
        ] {
            assert_eq!(AbsProviderConfig::parse(s).unwrap().to_string(), s);
        }
        let legacy = AbsProviderConfig::parse("module.a.provider.aws.west").unwrap();
        assert_eq!(legacy.provider, Provider::legacy("aws"));
        assert_eq!(legacy.alias.as_deref(), Some("west"));
        assert!(AbsProviderConfig::parse("provider[aws]").is_err());
    }

    #[test]
    fn resource_strings() {
        let r = Resource::new(ResourceMode::Data, "x", "y");
        assert_eq!(r.to_string(), "data.x.y");
        let ri = r
            .instance(InstanceKey::Str("a\"b".into()))
            .absolute(ModuleInstance::root().child("m", InstanceKey::Int(0)));
        assert_eq!(ri.to_string(), "module.m[0].data.x.y[\"a\\\"b\"]");
        assert_eq!(
            Resource::new(ResourceMode::Ephemeral, "e", "n").to_string(),
            "ephemeral.e.n"
        );
        assert_eq!(
            Resource::new(ResourceMode::Managed, "aws_instance", "a").implied_provider(),
            "aws"
        );
    }

    #[test]
    fn targets() {
        assert_eq!(
            Targetable::parse("aws_instance.a").unwrap(),
            Targetable::Resource(
                Resource::new(ResourceMode::Managed, "aws_instance", "a")
                    .absolute(ModuleInstance::root())
            )
        );
        assert_eq!(
            Targetable::parse("module.x").unwrap(),
            Targetable::Module(ModuleInstance::root().child("x", InstanceKey::None))
        );
        let t = Targetable::parse("module.x[0].aws_instance.y[\"k\"]").unwrap();
        assert_eq!(t.to_string(), "module.x[0].aws_instance.y[\"k\"]");
        assert!(matches!(t, Targetable::ResourceInstance(_)));
        assert!(Targetable::parse("aws_instance").is_err());
        assert!(Targetable::parse("data.x.y[1]").is_ok());
        assert_eq!(
            ModuleInstance::parse("module.a[\"k\"].module.b")
                .unwrap()
                .to_string(),
            "module.a[\"k\"].module.b"
        );
        assert_eq!(
            Module::parse("module.a.module.b").unwrap().to_string(),
            "module.a.module.b"
        );
        assert!(Module::parse("module.a[0]").is_err());
        assert!(ModuleInstance::parse("aws_instance.x").is_err());
    }
}
