//! The builder's view of its inputs: the configuration module tree (only what graph building
//! reads), prior state and planned changes.
//!
//! The configuration is read from a map of file path → contents with `hcl-rs`; module calls with
//! local sources (`./child`) are resolved against that map.

use super::addr::{
    AbsProviderConfig, AbsResourceInstance, ConfigResource, InstanceKey, Mode, ModuleInstanceStep,
    ModulePath, Provider, Resource,
};
use super::refs::{Reference, refs_in_body_all, refs_in_expr};
use hcl::expr::{Expression, TraversalOperator};
use hcl::structure::{Block, Body, Structure};
use std::collections::BTreeMap;

/// A local provider configuration reference: (local name, alias).
pub type LocalProviderRef = (String, Option<String>);

/// A `precondition`/`postcondition`/`validation`/`assert` block.
#[derive(Clone, Debug)]
pub struct Condition {
    pub condition: Option<Expression>,
    pub error_message: Option<Expression>,
}

impl Condition {
    pub fn refs(&self) -> Vec<Reference> {
        let mut r = Vec::new();
        if let Some(c) = &self.condition {
            r.extend(refs_in_expr(c));
        }
        if let Some(e) = &self.error_message {
            r.extend(refs_in_expr(e));
        }
        r
    }
}

#[derive(Clone, Debug)]
pub struct Provisioner {
    pub ty: String,
    pub when_destroy: bool,
    pub body: Body,
    pub connection: Option<Body>,
}

#[derive(Clone, Debug)]
pub struct ResourceConfig {
    pub addr: Resource,
    /// The `provider` argument as (local name, alias).
    pub provider_ref: Option<(String, Option<String>)>,
    /// The provider FQN this resource belongs to (resolved through `required_providers`).
    pub provider: Provider,
    /// The instance-key expression of `provider = aws.each[expr]`.
    pub provider_key: Option<Expression>,
    pub count: Option<Expression>,
    pub for_each: Option<Expression>,
    pub enabled: Option<Expression>,
    pub depends_on: Vec<Reference>,
    /// The whole block body (meta-arguments included; schema-based reading skips them).
    pub body: Body,
    pub create_before_destroy: Option<bool>,
    pub prevent_destroy: Option<Expression>,
    pub replace_triggered_by: Vec<Expression>,
    pub preconditions: Vec<Condition>,
    pub postconditions: Vec<Condition>,
    pub connection: Option<Body>,
    pub provisioners: Vec<Provisioner>,
    /// The `check` block this data source is nested in, if any.
    pub container: Option<String>,
}

impl ResourceConfig {
    /// `ProviderConfigAddr()`: the local provider configuration this resource asks for.
    pub fn provider_local(&self) -> (String, Option<String>) {
        match &self.provider_ref {
            Some(p) => p.clone(),
            None => (self.addr.implied_provider(), None),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Variable {
    pub name: String,
    pub has_default: bool,
    pub validations: Vec<Condition>,
}

#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub expr: Expression,
}

#[derive(Clone, Debug)]
pub struct Output {
    pub name: String,
    pub expr: Option<Expression>,
    pub depends_on: Vec<Reference>,
    pub preconditions: Vec<Condition>,
}

impl Output {
    pub fn refs(&self) -> Vec<Reference> {
        let mut r = Vec::new();
        if let Some(e) = &self.expr {
            r.extend(refs_in_expr(e));
        }
        r.extend(self.depends_on.iter().cloned());
        for c in &self.preconditions {
            r.extend(c.refs());
        }
        r
    }
}

#[derive(Clone, Debug)]
pub struct ModuleCall {
    pub name: String,
    pub source: String,
    pub count: Option<Expression>,
    pub for_each: Option<Expression>,
    pub enabled: Option<Expression>,
    pub depends_on: Vec<Reference>,
    /// `providers = { child_local[.alias] = parent_local[.alias] }`.
    pub providers: Vec<(LocalProviderRef, LocalProviderRef)>,
    /// Input variable arguments.
    pub inputs: BTreeMap<String, Expression>,
}

#[derive(Clone, Debug)]
pub struct ProviderBlock {
    pub name: String,
    pub alias: Option<String>,
    pub provider: Provider,
    pub body: Body,
}

#[derive(Clone, Debug)]
pub struct Import {
    pub to: Option<Expression>,
    pub to_resource: Option<ConfigResource>,
    pub id: Option<Expression>,
    pub for_each: Option<Expression>,
    pub provider_ref: Option<(String, Option<String>)>,
}

#[derive(Clone, Debug)]
pub struct Check {
    pub name: String,
    pub asserts: Vec<Condition>,
    /// The scoped data sources declared inside the check.
    pub data: Vec<Resource>,
}

#[derive(Clone, Debug, Default)]
pub struct Module {
    pub path: ModulePath,
    pub resources: Vec<ResourceConfig>,
    pub variables: Vec<Variable>,
    pub locals: Vec<Local>,
    pub outputs: Vec<Output>,
    pub module_calls: BTreeMap<String, ModuleCall>,
    pub provider_blocks: Vec<ProviderBlock>,
    /// Local name → FQN.
    pub required_providers: BTreeMap<String, Provider>,
    pub imports: Vec<Import>,
    pub checks: Vec<Check>,
    pub children: BTreeMap<String, Module>,
}

impl Module {
    /// `ProviderForLocalConfig`: the FQN a local provider name stands for in this module.
    pub fn provider_for_local(&self, local: &str) -> Provider {
        self.required_providers
            .get(local)
            .cloned()
            .unwrap_or_else(|| Provider::default_for(local))
    }

    /// The module at `path` below this one.
    pub fn descendant(&self, path: &[String]) -> Option<&Module> {
        let mut m = self;
        for p in path {
            m = m.children.get(p)?;
        }
        Some(m)
    }

    /// This module and every descendant, parents before children, children by name.
    pub fn all_modules(&self) -> Vec<&Module> {
        let mut out = vec![self];
        for c in self.children.values() {
            out.extend(c.all_modules());
        }
        out
    }

    pub fn resource(&self, r: &Resource) -> Option<&ResourceConfig> {
        self.resources.iter().find(|x| &x.addr == r)
    }
}

/// A diagnostic from loading (file, message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

/// Loads the module tree from `files` (relative path → contents). The root module is made of
/// the `.tf` files directly under `root_dir` ("" for the top level).
pub fn load_config(
    files: &BTreeMap<String, String>,
    root_dir: &str,
) -> Result<Module, Vec<LoadError>> {
    let mut errs = Vec::new();
    let m = load_module(files, root_dir, Vec::new(), &mut errs, 0);
    if errs.is_empty() { Ok(m) } else { Err(errs) }
}

fn dir_of(path: &str) -> &str {
    match path.rfind('/') {
        Some(i) => &path[..i],
        None => "",
    }
}

fn join_dir(dir: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = if dir.is_empty() {
        Vec::new()
    } else {
        dir.split('/').collect()
    };
    for seg in rel.split('/') {
        match seg {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

fn load_module(
    files: &BTreeMap<String, String>,
    dir: &str,
    path: ModulePath,
    errs: &mut Vec<LoadError>,
    depth: usize,
) -> Module {
    let mut m = Module {
        path: path.clone(),
        ..Default::default()
    };
    let mut bodies = Vec::new();
    for (name, text) in files {
        if dir_of(name) != dir || !(name.ends_with(".tf") || name.ends_with(".tofu")) {
            continue;
        }
        match hcl::parse(text) {
            Ok(b) => bodies.push((name.clone(), b)),
            Err(e) => errs.push(LoadError {
                file: name.clone(),
                message: e.to_string(),
            }),
        }
    }
    // required_providers first: resource provider FQNs depend on it.
    for (_, body) in &bodies {
        for b in body
            .blocks()
            .filter(|b| b.identifier.as_str() == "terraform")
        {
            for rp in b
                .body
                .blocks()
                .filter(|b| b.identifier.as_str() == "required_providers")
            {
                for a in rp.body.attributes() {
                    let fqn = match &a.expr {
                        Expression::Object(o) => o
                            .iter()
                            .find(|(k, _)| object_key_name(k).as_deref() == Some("source"))
                            .and_then(|(_, v)| string_value(v))
                            .and_then(|s| Provider::parse(&s).ok()),
                        _ => None,
                    };
                    m.required_providers.insert(
                        a.key.to_string(),
                        fqn.unwrap_or_else(|| Provider::default_for(a.key.as_str())),
                    );
                }
            }
        }
    }
    for (_, body) in &bodies {
        for s in body.iter() {
            let Structure::Block(b) = s else { continue };
            let labels: Vec<String> = b.labels.iter().map(|l| l.as_str().to_string()).collect();
            match (b.identifier.as_str(), labels.as_slice()) {
                ("resource", [ty, name]) => {
                    let r = read_resource(&m, Mode::Managed, ty, name, b, None);
                    m.resources.push(r);
                }
                ("data", [ty, name]) => {
                    let r = read_resource(&m, Mode::Data, ty, name, b, None);
                    m.resources.push(r);
                }
                ("ephemeral", [ty, name]) => {
                    let r = read_resource(&m, Mode::Ephemeral, ty, name, b, None);
                    m.resources.push(r);
                }
                ("variable", [name]) => m.variables.push(Variable {
                    name: name.clone(),
                    has_default: attr(&b.body, "default").is_some(),
                    validations: conditions(&b.body, "validation"),
                }),
                ("locals", []) => {
                    for a in b.body.attributes() {
                        m.locals.push(Local {
                            name: a.key.to_string(),
                            expr: a.expr.clone(),
                        });
                    }
                }
                ("output", [name]) => m.outputs.push(Output {
                    name: name.clone(),
                    expr: attr(&b.body, "value").cloned(),
                    depends_on: depends_on(&b.body),
                    preconditions: conditions(&b.body, "precondition"),
                }),
                ("module", [name]) => {
                    let mut call = ModuleCall {
                        name: name.clone(),
                        source: attr(&b.body, "source")
                            .and_then(string_value)
                            .unwrap_or_default(),
                        count: attr(&b.body, "count").cloned(),
                        for_each: attr(&b.body, "for_each").cloned(),
                        enabled: None,
                        depends_on: depends_on(&b.body),
                        providers: Vec::new(),
                        inputs: BTreeMap::new(),
                    };
                    if let Some(Expression::Object(o)) = attr(&b.body, "providers") {
                        for (k, v) in o.iter() {
                            let key = match k {
                                hcl::expr::ObjectKey::Identifier(i) => Some((i.to_string(), None)),
                                hcl::expr::ObjectKey::Expression(e) => provider_ref_expr(e),
                                _ => None,
                            };
                            if let (Some(k), Some(v)) = (key, provider_ref_expr(v)) {
                                call.providers.push((k, v));
                            }
                        }
                    }
                    for a in b.body.attributes() {
                        if !matches!(
                            a.key.as_str(),
                            "source"
                                | "version"
                                | "count"
                                | "for_each"
                                | "depends_on"
                                | "providers"
                        ) {
                            call.inputs.insert(a.key.to_string(), a.expr.clone());
                        }
                    }
                    for lc in b
                        .body
                        .blocks()
                        .filter(|x| x.identifier.as_str() == "lifecycle")
                    {
                        call.enabled = attr(&lc.body, "enabled").cloned();
                    }
                    m.module_calls.insert(name.clone(), call);
                }
                ("provider", [name]) => {
                    let alias = attr(&b.body, "alias").and_then(string_value);
                    m.provider_blocks.push(ProviderBlock {
                        name: name.clone(),
                        alias,
                        provider: m.provider_for_local(name),
                        body: b.body.clone(),
                    });
                }
                ("import", []) => {
                    let to = attr(&b.body, "to").cloned();
                    let to_resource = to.as_ref().and_then(static_resource_addr);
                    m.imports.push(Import {
                        to,
                        to_resource,
                        id: attr(&b.body, "id").cloned(),
                        for_each: attr(&b.body, "for_each").cloned(),
                        provider_ref: attr(&b.body, "provider").and_then(provider_ref_expr),
                    });
                }
                ("check", [name]) => {
                    let mut data = Vec::new();
                    for d in b.body.blocks().filter(|x| x.identifier.as_str() == "data") {
                        let dl: Vec<String> =
                            d.labels.iter().map(|l| l.as_str().to_string()).collect();
                        if let [ty, n] = dl.as_slice() {
                            let r = read_resource(&m, Mode::Data, ty, n, d, Some(name.clone()));
                            data.push(r.addr.clone());
                            m.resources.push(r);
                        }
                    }
                    m.checks.push(Check {
                        name: name.clone(),
                        asserts: conditions(&b.body, "assert"),
                        data,
                    });
                }
                // terraform, moved, removed and unknown blocks do not shape the graph here.
                _ => {}
            }
        }
    }
    if depth < 32 {
        let calls: Vec<(String, String)> = m
            .module_calls
            .values()
            .map(|c| (c.name.clone(), c.source.clone()))
            .collect();
        for (name, source) in calls {
            if source.starts_with("./") || source.starts_with("../") {
                let child_dir = join_dir(dir, &source);
                let mut child_path = path.clone();
                child_path.push(name.clone());
                let child = load_module(files, &child_dir, child_path, errs, depth + 1);
                m.children.insert(name, child);
            } else {
                // Remote module sources are not fetched; the call stays without a child.
                let mut child_path = path.clone();
                child_path.push(name.clone());
                m.children.insert(
                    name,
                    Module {
                        path: child_path,
                        ..Default::default()
                    },
                );
            }
        }
    }
    m
}

fn object_key_name(k: &hcl::expr::ObjectKey) -> Option<String> {
    match k {
        hcl::expr::ObjectKey::Identifier(i) => Some(i.to_string()),
        hcl::expr::ObjectKey::Expression(Expression::Variable(v)) => Some(v.to_string()),
        hcl::expr::ObjectKey::Expression(e) => string_value(e),
        _ => None,
    }
}

fn attr<'a>(body: &'a Body, name: &str) -> Option<&'a Expression> {
    body.attributes()
        .find(|a| a.key.as_str() == name)
        .map(|a| &a.expr)
}

fn string_value(e: &Expression) -> Option<String> {
    match e {
        Expression::String(s) => Some(s.clone()),
        Expression::TemplateExpr(t) => {
            let tpl = hcl::template::Template::from_expr(t).ok()?;
            let mut s = String::new();
            for el in tpl.elements() {
                match el {
                    hcl::template::Element::Literal(l) => s.push_str(l),
                    _ => return None,
                }
            }
            Some(s)
        }
        Expression::Variable(v) => Some(v.to_string()),
        _ => None,
    }
}

fn bool_value(e: &Expression) -> Option<bool> {
    match e {
        Expression::Bool(b) => Some(*b),
        Expression::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// A static traversal as a list of names (`aws.foo` → ["aws", "foo"]).
fn traversal_names(e: &Expression) -> Option<Vec<String>> {
    match e {
        Expression::Variable(v) => Some(vec![v.to_string()]),
        Expression::Traversal(t) => {
            let mut names = traversal_names(&t.expr)?;
            for op in &t.operators {
                match op {
                    TraversalOperator::GetAttr(a) => names.push(a.to_string()),
                    _ => return None,
                }
            }
            Some(names)
        }
        _ => None,
    }
}

/// `provider = aws.foo` or the legacy string form `"aws.foo"`.
/// The instance-key expression of `provider = aws.each[expr]`.
fn provider_key_expr(e: &Expression) -> Option<Expression> {
    match e {
        Expression::Traversal(t) => match t.operators.last() {
            Some(TraversalOperator::Index(k)) => Some(k.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn provider_ref_expr(e: &Expression) -> Option<(String, Option<String>)> {
    // `aws.each[expr]`: the key is an instance key, not part of the configuration address.
    if let (Expression::Traversal(t), Some(_)) = (e, provider_key_expr(e)) {
        let mut without_key = (**t).clone();
        without_key.operators.pop();
        return provider_ref_expr(&Expression::Traversal(Box::new(without_key)));
    }
    let names = match traversal_names(e) {
        Some(n) => n,
        None => string_value(e)?.split('.').map(|s| s.to_string()).collect(),
    };
    match names.as_slice() {
        [n] => Some((n.clone(), None)),
        [n, a] => Some((n.clone(), Some(a.clone()))),
        _ => None,
    }
}

/// The static resource an import `to` names; instance keys (`[each.key]`) are skipped.
fn static_resource_addr(e: &Expression) -> Option<ConfigResource> {
    let Expression::Traversal(t) = e else {
        return None;
    };
    let Expression::Variable(root) = &t.expr else {
        return None;
    };
    let mut names = vec![root.to_string()];
    for op in &t.operators {
        match op {
            TraversalOperator::GetAttr(a) => names.push(a.to_string()),
            TraversalOperator::Index(_) | TraversalOperator::LegacyIndex(_) => {}
            _ => return None,
        }
    }
    let mut module = Vec::new();
    let mut i = 0;
    while names.get(i).map(|s| s.as_str()) == Some("module") {
        module.push(names.get(i + 1)?.clone());
        i += 2;
    }
    let rest = &names[i..];
    let resource = match rest {
        [d, t, n] if d == "data" => Resource::new(Mode::Data, t, n),
        [t, n] => Resource::new(Mode::Managed, t, n),
        _ => return None,
    };
    Some(ConfigResource { module, resource })
}

fn depends_on(body: &Body) -> Vec<Reference> {
    match attr(body, "depends_on") {
        Some(Expression::Array(items)) => items.iter().flat_map(refs_in_expr).collect(),
        _ => Vec::new(),
    }
}

fn conditions(body: &Body, block: &str) -> Vec<Condition> {
    body.blocks()
        .filter(|b| b.identifier.as_str() == block)
        .map(|b| Condition {
            condition: attr(&b.body, "condition").cloned(),
            error_message: attr(&b.body, "error_message").cloned(),
        })
        .collect()
}

fn read_resource(
    m: &Module,
    mode: Mode,
    ty: &str,
    name: &str,
    b: &Block,
    container: Option<String>,
) -> ResourceConfig {
    let addr = Resource::new(mode, ty, name);
    let provider_ref = attr(&b.body, "provider").and_then(provider_ref_expr);
    let provider_key = attr(&b.body, "provider").and_then(provider_key_expr);
    let provider = match &provider_ref {
        Some((local, _)) => m.provider_for_local(local),
        None => m.provider_for_local(&addr.implied_provider()),
    };
    let mut r = ResourceConfig {
        addr,
        provider_ref,
        provider,
        provider_key,
        count: attr(&b.body, "count").cloned(),
        for_each: attr(&b.body, "for_each").cloned(),
        enabled: None,
        depends_on: depends_on(&b.body),
        body: b.body.clone(),
        create_before_destroy: None,
        prevent_destroy: None,
        replace_triggered_by: Vec::new(),
        preconditions: Vec::new(),
        postconditions: Vec::new(),
        connection: None,
        provisioners: Vec::new(),
        container,
    };
    for lc in b
        .body
        .blocks()
        .filter(|x| x.identifier.as_str() == "lifecycle")
    {
        r.create_before_destroy = attr(&lc.body, "create_before_destroy").and_then(bool_value);
        r.prevent_destroy = attr(&lc.body, "prevent_destroy").cloned();
        r.enabled = attr(&lc.body, "enabled").cloned();
        if let Some(Expression::Array(items)) = attr(&lc.body, "replace_triggered_by") {
            r.replace_triggered_by = items.clone();
        }
        r.preconditions.extend(conditions(&lc.body, "precondition"));
        r.postconditions
            .extend(conditions(&lc.body, "postcondition"));
    }
    if mode == Mode::Managed {
        r.connection = b
            .body
            .blocks()
            .find(|x| x.identifier.as_str() == "connection")
            .map(|c| c.body.clone());
        for p in b
            .body
            .blocks()
            .filter(|x| x.identifier.as_str() == "provisioner")
        {
            r.provisioners.push(Provisioner {
                ty: p
                    .labels
                    .first()
                    .map(|l| l.as_str().to_string())
                    .unwrap_or_default(),
                when_destroy: attr(&p.body, "when")
                    .and_then(traversal_names)
                    .is_some_and(|n| n == ["destroy"]),
                body: p.body.clone(),
                connection: p
                    .body
                    .blocks()
                    .find(|x| x.identifier.as_str() == "connection")
                    .map(|c| c.body.clone()),
            });
        }
    }
    r
}

/// References that need no provider schema (the resource "meta" parts), in OpenTofu's order.
pub fn resource_meta_refs(r: &ResourceConfig) -> Vec<Reference> {
    let mut out = r.depends_on.clone();
    for e in [&r.count, &r.for_each, &r.enabled, &r.provider_key]
        .into_iter()
        .flatten()
    {
        out.extend(refs_in_expr(e));
    }
    for e in &r.replace_triggered_by {
        out.extend(refs_in_expr(e));
    }
    if let Some(p) = &r.prevent_destroy {
        out.extend(refs_in_expr(p));
    }
    if let Some(c) = &r.connection {
        out.extend(refs_in_body_all(c));
    }
    for p in r.provisioners.iter().filter(|p| !p.when_destroy) {
        if let Some(c) = &p.connection {
            out.extend(refs_in_body_all(c));
        }
    }
    for c in r.preconditions.iter().chain(r.postconditions.iter()) {
        out.extend(c.refs());
    }
    out
}

// ---------------------------------------------------------------------------------------------
// State (v4) and planned changes.

#[derive(Clone, Debug)]
pub struct StateInstance {
    pub key: InstanceKey,
    /// `None` for the current object, `Some(key)` for a deposed one.
    pub deposed: Option<String>,
    pub dependencies: Vec<ConfigResource>,
    pub create_before_destroy: bool,
}

#[derive(Clone, Debug)]
pub struct StateResource {
    pub module: Vec<ModuleInstanceStep>,
    pub addr: Resource,
    pub provider: AbsProviderConfig,
    pub instances: Vec<StateInstance>,
}

#[derive(Clone, Debug, Default)]
pub struct State {
    pub resources: Vec<StateResource>,
}

impl State {
    /// Reads a state v4 JSON document.
    pub fn from_json(v: &serde_json::Value) -> Result<Self, String> {
        let mut st = State::default();
        let Some(res) = v.get("resources").and_then(|r| r.as_array()) else {
            return Ok(st);
        };
        for r in res {
            let s = |k: &str| r.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
            let module = if s("module").is_empty() {
                Vec::new()
            } else {
                AbsResourceInstance::parse(&format!("{}.x.y", s("module")))?.module
            };
            let mode = match s("mode").as_str() {
                "data" => Mode::Data,
                "ephemeral" => Mode::Ephemeral,
                _ => Mode::Managed,
            };
            let mut sr = StateResource {
                module,
                addr: Resource::new(mode, &s("type"), &s("name")),
                provider: AbsProviderConfig::parse(&s("provider"))?,
                instances: Vec::new(),
            };
            for inst in r
                .get("instances")
                .and_then(|i| i.as_array())
                .into_iter()
                .flatten()
            {
                let key = match inst.get("index_key") {
                    Some(serde_json::Value::Number(n)) => InstanceKey::Int(n.as_i64().unwrap_or(0)),
                    Some(serde_json::Value::String(s)) => InstanceKey::Str(s.clone()),
                    _ => InstanceKey::NoKey,
                };
                let mut deps = Vec::new();
                for d in inst
                    .get("dependencies")
                    .and_then(|d| d.as_array())
                    .into_iter()
                    .flatten()
                {
                    if let Some(ds) = d.as_str() {
                        deps.push(AbsResourceInstance::parse(ds)?.config_resource());
                    }
                }
                sr.instances.push(StateInstance {
                    key,
                    deposed: inst
                        .get("deposed")
                        .and_then(|d| d.as_str())
                        .map(|s| s.to_string()),
                    dependencies: deps,
                    create_before_destroy: inst
                        .get("create_before_destroy")
                        .and_then(|c| c.as_bool())
                        .unwrap_or(false),
                });
            }
            st.resources.push(sr);
        }
        Ok(st)
    }

    pub fn resource(&self, addr: &AbsResourceInstance) -> Option<&StateResource> {
        self.resources
            .iter()
            .find(|r| r.module == addr.module && r.addr == addr.resource)
    }

    pub fn instance(&self, addr: &AbsResourceInstance) -> Option<(&StateResource, &StateInstance)> {
        let r = self.resource(addr)?;
        r.instances
            .iter()
            .find(|i| i.key == addr.key && i.deposed.is_none())
            .map(|i| (r, i))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    NoOp,
    Create,
    Read,
    Update,
    Delete,
    DeleteThenCreate,
    CreateThenDelete,
    Forget,
}

impl Action {
    pub fn parse(s: &str) -> Result<Self, String> {
        Ok(match s {
            "create" => Action::Create,
            "update" => Action::Update,
            "delete" => Action::Delete,
            "delete-then-create" => Action::DeleteThenCreate,
            "create-then-delete" => Action::CreateThenDelete,
            "read" => Action::Read,
            "no-op" => Action::NoOp,
            "forget" => Action::Forget,
            other => return Err(format!("unknown change action {other:?}")),
        })
    }
    pub fn is_replace(self) -> bool {
        matches!(self, Action::DeleteThenCreate | Action::CreateThenDelete)
    }
}

#[derive(Clone, Debug)]
pub struct Change {
    pub addr: AbsResourceInstance,
    pub prev_run_addr: AbsResourceInstance,
    /// `Some(key)` for a change to a deposed object.
    pub deposed: Option<String>,
    pub action: Action,
    pub provider: AbsProviderConfig,
}

#[derive(Clone, Debug, Default)]
pub struct Changes {
    pub resources: Vec<Change>,
}

impl Changes {
    /// Reads the conformance `changes` array (`{addr, action, provider?, prev_run_addr?}`).
    pub fn from_json(v: &serde_json::Value) -> Result<Self, String> {
        let mut out = Changes::default();
        for c in v.as_array().into_iter().flatten() {
            let addr_s = c
                .get("addr")
                .and_then(|a| a.as_str())
                .ok_or("change without addr")?;
            let addr = AbsResourceInstance::parse(addr_s)?;
            let prev = match c.get("prev_run_addr").and_then(|a| a.as_str()) {
                Some(p) => AbsResourceInstance::parse(p)?,
                None => addr.clone(),
            };
            let provider = match c.get("provider").and_then(|a| a.as_str()) {
                Some(p) => AbsProviderConfig::parse(p)?,
                None => AbsProviderConfig {
                    module: Vec::new(),
                    provider: Provider::default_for(&addr.resource.implied_provider()),
                    alias: None,
                },
            };
            let action = Action::parse(c.get("action").and_then(|a| a.as_str()).unwrap_or(""))?;
            out.resources.push(Change {
                addr,
                prev_run_addr: prev,
                deposed: c
                    .get("deposed")
                    .and_then(|d| d.as_str())
                    .map(|s| s.to_string()),
                action,
                provider,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_provider_references_with_instance_keys() {
        let mut files = BTreeMap::new();
        files.insert(
            "main.tf".to_string(),
            "resource \"aws_instance\" \"a\" {\n  for_each = var.regions\n  provider = aws.by_region[local.k]\n}\n"
                .to_string(),
        );
        let m = load_config(&files, "").expect("loads");
        let r = &m.resources[0];
        assert_eq!(
            r.provider_ref,
            Some(("aws".to_string(), Some("by_region".to_string())))
        );
        let refs: Vec<String> = resource_meta_refs(r)
            .iter()
            .map(|r| r.subject.to_string())
            .collect();
        assert_eq!(refs, vec!["var.regions", "local.k"]);
    }

    #[test]
    fn module_sources_resolve_relative_to_the_calling_module() {
        let mut files = BTreeMap::new();
        files.insert(
            "examples/x/main.tf".to_string(),
            "module \"root\" { source = \"../../\" }\n".to_string(),
        );
        files.insert("main.tf".to_string(), "variable \"v\" {}\n".to_string());
        let m = load_config(&files, "examples/x").expect("loads");
        assert_eq!(m.children["root"].variables[0].name, "v");
        assert_eq!(m.children["root"].path, vec!["root".to_string()]);
    }
}
