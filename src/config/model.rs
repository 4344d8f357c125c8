//! The configuration model, shaped like OpenTofu's `configs.Config` / `configs.Module`.
//!
//! Expressions and bodies are kept as hcl-edit syntax trees (`hcl::edit`, which hcl-rs 0.20
//! re-exports). We chose hcl-edit over hcl-rs's `hcl::Expression` because hcl-edit records byte
//! spans for blocks, attributes and every expression, which reference ranges and diagnostics
//! need; each tree is paired with its [`SourceFile`] to turn spans into line/column positions.

use crate::addrs;
/// Module sources are addresses (OpenTofu's `addrs.ModuleSource`); the configuration model
/// names them too.
pub use crate::addrs::ModuleSource;
use crate::diag::{SourceFile, SourceRange};
use hcl::edit::Span;
use std::collections::BTreeMap;
use std::sync::Arc;

/// An expression with the file it came from.
#[derive(Debug, Clone)]
pub struct Expr {
    /// Boxed: an expression is 128 bytes, and the blocks hold many optional ones that are
    /// mostly absent (`count`, `for_each`, `enabled`, ...), each as large as an expression when
    /// held inline.
    pub expr: Box<hcl::edit::expr::Expression>,
    pub file: Arc<SourceFile>,
}

impl Expr {
    pub fn new(expr: hcl::edit::expr::Expression, file: &Arc<SourceFile>) -> Self {
        Expr {
            expr: Box::new(expr),
            file: file.clone(),
        }
    }
    /// The expression's source range (start of file if the parser recorded none).
    pub fn range(&self) -> SourceRange {
        self.file.range_opt(self.expr.span())
    }
    /// The source text of the expression.
    pub fn text(&self) -> &str {
        self.expr
            .span()
            .and_then(|s| self.file.slice(s))
            .unwrap_or("")
    }
}

/// A block body (attributes and nested blocks) with the file it came from. Resource and module
/// bodies have their meta-arguments removed, like Go's `remain` body after `PartialContent`.
#[derive(Debug, Clone)]
pub struct HclBody {
    pub body: hcl::edit::structure::Body,
    pub file: Arc<SourceFile>,
}

impl HclBody {
    pub fn new(body: hcl::edit::structure::Body, file: &Arc<SourceFile>) -> Self {
        HclBody {
            body,
            file: file.clone(),
        }
    }
    pub fn empty(file: &Arc<SourceFile>) -> Self {
        HclBody::new(hcl::edit::structure::Body::new(), file)
    }
    /// An attribute's expression by name.
    pub fn attr(&self, name: &str) -> Option<Expr> {
        self.body
            .get_attribute(name)
            .map(|a| Expr::new(a.value.clone(), &self.file))
    }
}

/// A node of the configuration tree (Go `configs.Config`).
#[derive(Debug, Clone)]
pub struct Config {
    /// `module.a.module.b`; empty for the root.
    pub path: addrs::Module,
    pub module: Module,
    /// Child modules by call name. Calls whose source is not local have no entry here.
    pub children: BTreeMap<String, Config>,
    /// The source of the call that created this node (`None` for the root).
    pub source_addr: Option<ModuleSource>,
    /// The range of the `module` block that created this node.
    pub call_range: Option<SourceRange>,
    /// The exact version the module manifest records for this module (registry modules
    /// installed by `tofu init`; Go `Config.Version`).
    pub version: Option<String>,
}

impl Config {
    /// The node at a module path below this one.
    pub fn descendant(&self, path: &addrs::Module) -> Option<&Config> {
        let mut cur = self;
        for step in path.0.iter().skip(self.path.0.len()) {
            cur = cur.children.get(step)?;
        }
        Some(cur)
    }
    /// The node for a module instance path, ignoring instance keys (Go `DescendentForInstance`).
    pub fn descendant_for_instance(&self, path: &addrs::ModuleInstance) -> Option<&Config> {
        self.descendant(&path.module())
    }
    /// True when each step of `path` names a module call declared in its parent, following
    /// calls whose source could not be loaded (registry, remote) as modules with no content:
    /// such a call's own path counts, paths below it do not.
    pub fn declares_module_path(&self, path: &addrs::Module) -> bool {
        let mut cur = Some(self);
        for step in path.0.iter().skip(self.path.0.len()) {
            let Some(c) = cur.filter(|c| c.module.module_calls.contains_key(step)) else {
                return false;
            };
            cur = c.children.get(step);
        }
        true
    }
    /// Every module call whose module is not installed, as (path of the call, call), depth-first
    /// in name order.
    pub fn not_installed_calls(&self) -> Vec<(addrs::Module, &ModuleCall)> {
        let mut out = Vec::new();
        for c in self.all_modules() {
            for (name, call) in &c.module.module_calls {
                if call.not_installed {
                    out.push((c.path.child(name), call));
                }
            }
        }
        out
    }
    /// This node and every descendant, depth-first with children in name order.
    pub fn all_modules(&self) -> Vec<&Config> {
        let mut out = vec![self];
        for c in self.children.values() {
            out.extend(c.all_modules());
        }
        out
    }
    /// The provider FQN for a local name as seen from the module at `path`.
    pub fn provider_for_local_name(
        &self,
        path: &addrs::Module,
        local_name: &str,
    ) -> addrs::Provider {
        match self.descendant(path) {
            Some(c) => c.module.provider_for_local_name(local_name),
            None => addrs::Provider::implied(local_name),
        }
    }
    /// Go `Config.ResolveAbsProviderAddr` for a local address used in the module at `in_module`.
    /// Reproduces OpenTofu exactly, including that the local name is looked up in the
    /// `required_providers` of the module this is called on (usually the root), not in the
    /// module at `in_module`.
    pub fn resolve_abs_provider_addr(
        &self,
        addr: &addrs::LocalProviderConfig,
        in_module: &addrs::Module,
    ) -> addrs::AbsProviderConfig {
        let provider = match self.module.required_providers.get(&addr.local_name) {
            Some(rp) => rp.provider.clone(),
            None => addrs::Provider::implied(&addr.local_name),
        };
        addrs::AbsProviderConfig {
            module: in_module.clone(),
            provider,
            alias: addr.alias.clone(),
        }
    }

    /// Go `Config.ProviderForConfigAddr`.
    pub fn provider_for_config_addr(&self, addr: &addrs::LocalProviderConfig) -> addrs::Provider {
        self.resolve_abs_provider_addr(addr, &addrs::Module::root())
            .provider
    }

    /// Every provider FQN the configuration needs (Go `Config.ProviderTypes`): required
    /// providers, the providers of resources and import blocks, and provider blocks, in every
    /// module; sorted by their string form.
    pub fn provider_types(&self) -> Vec<addrs::Provider> {
        let mut set = std::collections::BTreeSet::new();
        for c in self.all_modules() {
            let m = &c.module;
            set.extend(m.required_providers.values().map(|rp| rp.provider.clone()));
            set.extend(m.all_resources().map(|r| r.provider.clone()));
            set.extend(m.imports.iter().map(|i| i.provider.clone()));
            set.extend(
                m.provider_configs
                    .values()
                    .map(|p| m.provider_for_local_name(&p.name)),
            );
        }
        let mut v: Vec<_> = set.into_iter().collect();
        v.sort_by_key(|p| p.to_string());
        v
    }
}

/// One module's declarations (Go `configs.Module`). Maps are keyed as Go keys them.
#[derive(Debug, Clone, Default)]
pub struct Module {
    /// The folder of this module, relative to the root module folder ("" for the root).
    pub source_dir: String,
    /// The files this module was read from, by path relative to the root module folder.
    pub files: BTreeMap<String, Arc<SourceFile>>,
    pub required_core: Vec<String>,
    /// Where the (first) `required_providers` block is.
    pub required_providers_decl: Option<SourceRange>,
    /// `required_providers` entries by local name.
    pub required_providers: BTreeMap<String, RequiredProvider>,
    /// `provider` blocks by `name` or `name.alias`.
    pub provider_configs: BTreeMap<String, ProviderBlock>,
    /// Local name by provider FQN (Go `ProviderLocalNames`).
    pub provider_local_names: BTreeMap<addrs::Provider, String>,
    pub variables: BTreeMap<String, Variable>,
    pub locals: BTreeMap<String, Local>,
    pub outputs: BTreeMap<String, Output>,
    pub module_calls: BTreeMap<String, ModuleCall>,
    /// Managed resources by `type.name`. Each block is shared ([`Arc`]): the graph's resource
    /// vertices hold the same blocks (as Go's vertices point at theirs) rather than copies.
    pub managed_resources: BTreeMap<String, Arc<Resource>>,
    /// Data resources by `data.type.name`, including the data blocks nested in `check` blocks.
    pub data_resources: BTreeMap<String, Arc<Resource>>,
    /// Ephemeral resources by `ephemeral.type.name`.
    pub ephemeral_resources: BTreeMap<String, Arc<Resource>>,
    pub moved: Vec<Moved>,
    pub imports: Vec<Import>,
    pub removed: Vec<Removed>,
    pub checks: BTreeMap<String, Check>,
    pub backend: Option<Backend>,
}

impl Module {
    /// The FQN a local provider name stands for: the `required_providers` entry, else the
    /// implied `registry.opentofu.org/hashicorp/<name>` (built-in for `terraform`).
    pub fn provider_for_local_name(&self, local_name: &str) -> addrs::Provider {
        match self.required_providers.get(local_name) {
            Some(rp) => rp.provider.clone(),
            None => addrs::Provider::implied(local_name),
        }
    }
    /// The local name this module uses for a provider FQN (its type name when unnamed).
    pub fn local_name_for_provider(&self, p: &addrs::Provider) -> String {
        self.provider_local_names
            .get(p)
            .cloned()
            .unwrap_or_else(|| p.type_name.clone())
    }
    /// A resource of any mode by its address (Go `ResourceByAddr`).
    pub fn resource(&self, addr: &addrs::Resource) -> Option<&Resource> {
        self.resource_shared(addr).map(|r| &**r)
    }
    /// [`Module::resource`] as the shared block, for a holder that keeps it.
    pub fn resource_shared(&self, addr: &addrs::Resource) -> Option<&Arc<Resource>> {
        // The key (`addr`'s string) written into one buffer kept for all lookups: looked up for
        // every reference the validation checks (~18,000 at 10,000 resources), a string made
        // for each was an allocation and two formatting passes.
        std::thread_local! {
            static KEY: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
        }
        KEY.with(|k| {
            let mut key = k.borrow_mut();
            key.clear();
            addr.push_to(&mut key);
            match addr.mode {
                addrs::ResourceMode::Managed => self.managed_resources.get(key.as_str()),
                addrs::ResourceMode::Data => self.data_resources.get(key.as_str()),
                addrs::ResourceMode::Ephemeral => self.ephemeral_resources.get(key.as_str()),
            }
        })
    }
    /// Every resource declared at module level (managed, then data, then ephemeral; each in key
    /// order). Data blocks scoped in `check` blocks are left out here (they are in
    /// `data_resources`, as in Go, and in their check's `data_resources`); see
    /// [`Module::all_resources_with_checks`].
    pub fn all_resources(&self) -> impl Iterator<Item = &Resource> {
        self.managed_resources
            .values()
            .chain(
                self.data_resources
                    .values()
                    .filter(|r| r.container.is_none()),
            )
            .chain(self.ephemeral_resources.values())
            .map(|r| &**r)
    }
    /// Every resource including check-scoped data blocks: Go's `ManagedResources`,
    /// `DataResources` and `EphemeralResources` together.
    pub fn all_resources_with_checks(&self) -> impl Iterator<Item = &Resource> {
        self.managed_resources
            .values()
            .chain(self.data_resources.values())
            .chain(self.ephemeral_resources.values())
            .map(|r| &**r)
    }
}

/// One `required_providers` entry.
#[derive(Debug, Clone)]
pub struct RequiredProvider {
    pub name: String,
    pub source: Option<String>,
    pub provider: addrs::Provider,
    pub version_constraint: Option<String>,
    pub configuration_aliases: Vec<addrs::LocalProviderConfig>,
    pub decl_range: SourceRange,
}

/// A `provider` block.
#[derive(Debug, Clone)]
pub struct ProviderBlock {
    pub name: String,
    pub alias: Option<String>,
    /// The FQN the name stands for in this module: its `required_providers` entry, else
    /// `registry.opentofu.org/hashicorp/<name>` (Go `resolveProviderTypes` uses the default
    /// namespace here, even for `terraform`).
    pub provider: addrs::Provider,
    /// OpenTofu 1.9+ provider `for_each`.
    pub for_each: Option<Expr>,
    /// The deprecated in-block `version` constraint, when given.
    pub version: Option<String>,
    /// The body with `alias`, `version` and `for_each` removed.
    pub config: HclBody,
    pub decl_range: SourceRange,
    pub name_range: SourceRange,
}

impl ProviderBlock {
    pub fn addr(&self) -> addrs::LocalProviderConfig {
        addrs::LocalProviderConfig {
            local_name: self.name.clone(),
            alias: self.alias.clone(),
        }
    }
}

/// `provider = aws.west` / `provider = aws.each[each.key]` on a resource, module providers map
/// or import block (Go `ProviderConfigRef` / `ProviderConfigRefMapping`).
#[derive(Debug, Clone)]
pub struct ProviderConfigRef {
    pub name: String,
    pub alias: Option<String>,
    /// For the two sides of a module's `providers` map: the provider FQN OpenTofu's
    /// `resolveProviderTypes` gives it (`None` when the name is neither required nor
    /// configured in that module).
    pub provider_type: Option<addrs::Provider>,
    /// The instance-key expression of `aws.west[expr]`, when given.
    pub key_expr: Option<Expr>,
    pub name_range: SourceRange,
    pub alias_range: Option<SourceRange>,
}

impl ProviderConfigRef {
    pub fn addr(&self) -> addrs::LocalProviderConfig {
        addrs::LocalProviderConfig {
            local_name: self.name.clone(),
            alias: self.alias.clone(),
        }
    }
}

/// A `precondition`, `postcondition`, `validation` or `assert` block.
#[derive(Debug, Clone)]
pub struct CheckRule {
    pub condition: Expr,
    pub error_message: Option<Expr>,
    pub decl_range: SourceRange,
}

/// A `variable` block.
#[derive(Debug, Clone)]
pub struct Variable {
    pub name: String,
    pub default: Option<Expr>,
    pub type_expr: Option<Expr>,
    pub description: Option<String>,
    pub sensitive: bool,
    pub ephemeral: bool,
    pub nullable: Option<bool>,
    pub validations: Vec<CheckRule>,
    pub decl_range: SourceRange,
}

/// One local value from a `locals` block.
#[derive(Debug, Clone)]
pub struct Local {
    pub name: String,
    pub expr: Expr,
    pub decl_range: SourceRange,
}

/// An `output` block.
#[derive(Debug, Clone)]
pub struct Output {
    pub name: String,
    pub expr: Option<Expr>,
    pub description: Option<String>,
    pub sensitive: bool,
    pub ephemeral: bool,
    /// Each element of `depends_on`.
    pub depends_on: Vec<Expr>,
    pub preconditions: Vec<CheckRule>,
    pub decl_range: SourceRange,
}

/// One entry of a module call's `providers` map: `aws.child = aws.parent`.
#[derive(Debug, Clone)]
pub struct PassedProviderConfig {
    pub in_child: ProviderConfigRef,
    pub in_parent: ProviderConfigRef,
}

/// A `module` block.
#[derive(Debug, Clone)]
pub struct ModuleCall {
    pub name: String,
    pub source: Option<ModuleSource>,
    pub source_range: Option<SourceRange>,
    pub version: Option<String>,
    /// Input variables: the body without `source`, `version`, `count`, `for_each`, `providers`,
    /// `depends_on`.
    pub config: HclBody,
    pub count: Option<Expr>,
    pub for_each: Option<Expr>,
    /// `lifecycle { enabled = ... }` (OpenTofu 1.11+).
    pub enabled: Option<Expr>,
    pub providers: Vec<PassedProviderConfig>,
    pub depends_on: Vec<Expr>,
    pub decl_range: SourceRange,
    /// Set by the loader for a registry or remote source that the module manifest does not
    /// list (no `tofu init` yet): the call stays one opaque module whose arguments, `providers`
    /// and meta-arguments still give it edges.
    pub not_installed: bool,
}

impl ModuleCall {
    /// The `source` argument as written (empty when there is none).
    pub fn source_text(&self) -> String {
        self.source
            .as_ref()
            .map(|s| s.as_str().to_string())
            .unwrap_or_default()
    }
}

/// A `connection` block.
#[derive(Debug, Clone)]
pub struct Connection {
    pub config: HclBody,
    pub decl_range: SourceRange,
}

/// When a provisioner runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProvisionerWhen {
    Create,
    Destroy,
}

/// What happens when a provisioner fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProvisionerOnFailure {
    Fail,
    Continue,
}

/// A `provisioner` block.
#[derive(Debug, Clone)]
pub struct Provisioner {
    pub type_name: String,
    /// The body without `when`, `on_failure` and `connection`.
    pub config: HclBody,
    pub connection: Option<Connection>,
    pub when: ProvisionerWhen,
    pub on_failure: ProvisionerOnFailure,
    pub decl_range: SourceRange,
    pub type_range: SourceRange,
}

/// The parts only managed resources have.
#[derive(Debug, Clone, Default)]
pub struct ManagedResource {
    /// Boxed, as [`Resource::provider_ref`]: few resources have one.
    pub connection: Option<Box<Connection>>,
    pub provisioners: Vec<Provisioner>,
    pub create_before_destroy: bool,
    pub create_before_destroy_set: bool,
    pub prevent_destroy: bool,
    pub prevent_destroy_set: bool,
    /// The `prevent_destroy` expression (OpenTofu reads references from it).
    pub prevent_destroy_expr: Option<Expr>,
    /// Each element of `ignore_changes` (relative traversals) unless it is `all`.
    pub ignore_changes: Vec<Expr>,
    pub ignore_all_changes: bool,
}

/// A `resource`, `data` or `ephemeral` block (also a data block nested in a `check`).
#[derive(Debug, Clone)]
pub struct Resource {
    pub mode: addrs::ResourceMode,
    /// Shared with every address made from the block ([`Resource::addr`]).
    pub type_name: std::sync::Arc<str>,
    pub name: std::sync::Arc<str>,
    /// The body without meta-arguments (`count`, `for_each`, `provider`, `depends_on`,
    /// `lifecycle`, `connection`, `provisioner`); the `_` escape block's content merged in.
    pub config: HclBody,
    pub count: Option<Expr>,
    pub for_each: Option<Expr>,
    /// Boxed: a reference is 400 bytes, few resources have one, and every resource block is
    /// as large as its fields (10,000 resources held 4 MB of empty references inline).
    pub provider_ref: Option<Box<ProviderConfigRef>>,
    /// The provider FQN, resolved through `required_providers` (implied from the type prefix
    /// when no `provider` argument is given).
    pub provider: addrs::Provider,
    pub preconditions: Vec<CheckRule>,
    pub postconditions: Vec<CheckRule>,
    /// Each element of `depends_on`.
    pub depends_on: Vec<Expr>,
    /// Each element of `lifecycle.replace_triggered_by`.
    pub triggers_replacement: Vec<Expr>,
    /// `lifecycle.enabled` (OpenTofu 1.11+).
    pub enabled: Option<Expr>,
    pub managed: Option<ManagedResource>,
    /// The check block a nested data block belongs to.
    pub container: Option<String>,
    pub decl_range: SourceRange,
    pub type_range: SourceRange,
    /// Which decoded block this is, for what is kept about it by its place in memory
    /// ([`crate::config::refs::ResourceRefsMemo`]), without reading its strings again.
    pub serial: Serial,
}

/// A number no other block decoded by this process has ([`Serial::next`]). Not part of what the
/// configuration says: two loads of the same text show the same (`Debug` leaves it out).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Serial(u64);

impl Serial {
    pub fn next() -> Serial {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Serial(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

impl std::fmt::Debug for Serial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Serial")
    }
}

impl Resource {
    pub fn addr(&self) -> addrs::Resource {
        addrs::Resource {
            mode: self.mode,
            type_name: self.type_name.clone(),
            name: self.name.clone(),
        }
    }
    /// The local provider configuration this resource asks for (Go `ProviderConfigAddr`):
    /// the `provider` argument, else the local name implied by the type.
    pub fn provider_config_addr(&self) -> addrs::LocalProviderConfig {
        match &self.provider_ref {
            Some(p) => p.addr(),
            None => addrs::LocalProviderConfig {
                local_name: addrs::implied_provider_local_name(&self.type_name),
                alias: None,
            },
        }
    }
}

/// A `moved` block.
#[derive(Debug, Clone)]
pub struct Moved {
    pub from: Expr,
    pub to: Expr,
    pub decl_range: SourceRange,
}

/// An `import` block.
#[derive(Debug, Clone)]
pub struct Import {
    pub to: Expr,
    pub id: Option<Expr>,
    pub identity: Option<Expr>,
    pub for_each: Option<Expr>,
    pub provider_ref: Option<ProviderConfigRef>,
    /// The provider FQN of the target (from `provider`, else implied by the resource type).
    pub provider: addrs::Provider,
    pub decl_range: SourceRange,
}

/// A `removed` block.
#[derive(Debug, Clone)]
pub struct Removed {
    pub from: Expr,
    pub destroy: Option<bool>,
    pub provisioners: Vec<Provisioner>,
    pub decl_range: SourceRange,
}

/// A `check` block.
#[derive(Debug, Clone)]
pub struct Check {
    pub name: String,
    /// Scoped `data` blocks (Go keeps at most one; we keep all and report duplicates).
    pub data_resources: Vec<Resource>,
    pub asserts: Vec<CheckRule>,
    pub decl_range: SourceRange,
}

/// A `backend` (or `cloud`) block inside `terraform`.
#[derive(Debug, Clone)]
pub struct Backend {
    pub type_name: String,
    pub config: HclBody,
    pub decl_range: SourceRange,
}

/// The address named by a static traversal expression (`moved`/`removed` `from`/`to`, `import`
/// `to` without computed keys), as a `-target`-style address.
pub fn expr_address(e: &Expr) -> Option<addrs::Targetable> {
    let steps = crate::addrs::traversal::static_traversal(&e.expr)?;
    addrs::Targetable::parse(&crate::addrs::traversal::steps_to_string(&steps)).ok()
}

impl Import {
    /// The resource the import targets, without instance keys (Go `StaticTo`). Computed keys
    /// (`aws_instance.x[each.key]`) are allowed and dropped.
    pub fn to_resource(&self) -> Option<addrs::ConfigResource> {
        let mut e: &hcl::edit::expr::Expression = &self.to.expr;
        // Strip trailing computed index operators.
        let owned;
        if let hcl::edit::expr::Expression::Traversal(t) = e {
            let mut t2 = (**t).clone();
            while matches!(
                t2.operators.last().map(|o| o.value()),
                Some(hcl::edit::expr::TraversalOperator::Index(_))
            ) {
                t2.operators.pop();
            }
            owned = if t2.operators.is_empty() {
                t2.expr.clone()
            } else {
                hcl::edit::expr::Expression::Traversal(Box::new(t2))
            };
            e = &owned;
        }
        let steps = crate::addrs::traversal::static_traversal(e).or_else(|| {
            // Module keys may be computed too: keep names only.
            let mut names = Vec::new();
            collect_names(e, &mut names);
            Some(names)
        })?;
        let names: Vec<crate::addrs::traversal::Step> = steps
            .into_iter()
            .filter(|s| matches!(s, crate::addrs::traversal::Step::Attr(_)))
            .collect();
        match addrs::Targetable::parse(&crate::addrs::traversal::steps_to_string(&names)).ok()? {
            addrs::Targetable::Resource(r) => Some(r.config()),
            _ => None,
        }
    }
}

fn collect_names(e: &hcl::edit::expr::Expression, out: &mut Vec<crate::addrs::traversal::Step>) {
    use hcl::edit::expr::{Expression, TraversalOperator};
    match e {
        Expression::Variable(v) => {
            out.push(crate::addrs::traversal::Step::Attr(v.value().to_string()))
        }
        Expression::Traversal(t) => {
            collect_names(&t.expr, out);
            for op in &t.operators {
                if let TraversalOperator::GetAttr(a) = op.value() {
                    out.push(crate::addrs::traversal::Step::Attr(a.value().to_string()));
                }
            }
        }
        _ => {}
    }
}

impl Moved {
    /// `from` as an address.
    pub fn from_addr(&self) -> Option<addrs::Targetable> {
        expr_address(&self.from)
    }
    /// `to` as an address.
    pub fn to_addr(&self) -> Option<addrs::Targetable> {
        expr_address(&self.to)
    }
}

impl Removed {
    /// `from` as an address.
    pub fn from_addr(&self) -> Option<addrs::Targetable> {
        expr_address(&self.from)
    }
}
