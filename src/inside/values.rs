//! The values a vertex sees and produces, where the configuration and the root variable values
//! decide them: variables (and where their value came from: default, a variables file, `-var`,
//! `TF_VAR_`), locals, module inputs and outputs, `count` / `for_each` / `enabled` and the
//! instances they give, provider and resource arguments that depend only on those. Everything
//! else is unknown with its reason: the reference that is not known (`aws_instance.web.id`, an
//! attribute of a resource the provider returns), followed through locals, variables and module
//! outputs to where it starts, as OpenTofu's plan prints `(known after apply)`.
//!
//! Expressions are evaluated with hcl-rs's evaluator through [`crate::config::eval::evaluate`],
//! the evaluator the walk's expansion uses; what differs is how references are found: here each
//! reference an expression makes is resolved on demand (a local's own expression, a module
//! call's argument in the calling instance, a module's output in the module's instance), so a
//! value can be explained by the references it reads, and `module.NAME.OUTPUT` is known when
//! the output is. Every resolution is memoised per module instance and guarded against cycles;
//! every expression is metered as the expansion's are. Plain data and pure functions.

use crate::addrs::{
    self, AbsResourceInstance, ConfigResource, InstanceKey, Module, ModuleInstance, Referenceable,
    ResourceMode,
};
use crate::builder::Node;
use crate::config::eval::{Bindings, Instance, evaluate, instance_keys_with};
use crate::config::model::{Config, Expr};
use crate::config::refs::refs_in_expr;
use crate::config::vars::VarSource;
use hcl::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Most instances (of a module or a resource) whose values are listed; the rest are counted.
pub const MAX_LISTED_INSTANCES: usize = 5;
/// Most arguments listed per block.
const MAX_ARGUMENTS: usize = 40;
/// Most elements of a list or map, or characters of a string, a rendered value shows.
const MAX_ELEMENTS: usize = 5;
const MAX_STRING: usize = 60;
/// Most instances of a module call whose outputs are gathered for `module.NAME`.
const MAX_MODULE_OBJECTS: usize = 100;
/// Most references resolved for one vertex's values (each memoised): a bound on the work for
/// configurations with very many module instances.
const MAX_RESOLUTIONS: usize = 20_000;

/// What a vertex is about, for its values: the configuration object (by address) it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// `var.x` of the root module (`NodeRootVariable`).
    RootVariable(String),
    /// `[module.m.]var.x (expand, reference)`: the variable as the module's expressions see it.
    VariableReference {
        module: Module,
        name: String,
    },
    /// `module.m.var.x (expand, input)`: the module call's argument for the variable; `module`
    /// is the called module's path.
    ModuleInput {
        module: Module,
        name: String,
    },
    Local {
        module: Module,
        name: String,
    },
    Output {
        module: Module,
        name: String,
    },
    /// `module.m (expand)`: the module call at this path.
    Module(Module),
    /// `aws_instance.web (expand)` and the other whole-resource vertices.
    Resource(ConfigResource),
    /// A resource instance vertex (`aws_instance.web[0]`, apply graphs).
    Instance(AbsResourceInstance),
    /// A provider configuration.
    Provider {
        module: Module,
        provider: addrs::Provider,
        alias: Option<String>,
    },
}

impl Subject {
    /// The subject of a vertex the builder made; `None` for vertices with no values of their
    /// own (closers, the root, checks).
    pub fn of_node(node: &Node) -> Option<Subject> {
        Some(match node {
            Node::RootVariable { name } => Subject::RootVariable(name.clone()),
            Node::VariableReference { module, name, .. } => Subject::VariableReference {
                module: module.clone(),
                name: name.clone(),
            },
            Node::ModuleVariable { module, name, .. } => Subject::ModuleInput {
                module: module.clone(),
                name: name.clone(),
            },
            Node::Local { module, config } => Subject::Local {
                module: module.clone(),
                name: config.name.clone(),
            },
            Node::Output { module, config, .. } => Subject::Output {
                module: module.clone(),
                name: config.name.clone(),
            },
            Node::ExpandModule { path, .. } => Subject::Module(path.clone()),
            Node::Resource { d, .. } => Subject::Resource(d.addr.clone()),
            Node::Instance { d, .. } => Subject::Instance(d.addr.clone()),
            Node::Provider { addr, .. } => Subject::Provider {
                module: addr.module.clone(),
                provider: addr.provider.clone(),
                alias: addr.alias.clone(),
            },
            _ => return None,
        })
    }
}

/// Why a value is not known statically.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum UnknownKind {
    /// It reads a managed resource's attribute: OpenTofu's `(known after apply)`.
    AfterApply,
    /// It reads a data source or an ephemeral resource, which the provider answers during the
    /// walk.
    Read,
    /// A root variable with no default and no value given (OpenTofu would ask for it).
    NoValue,
    /// tfgraph does not evaluate it (a function it does not have, `path.*`, too much work).
    NotStatic,
}

/// An unknown value: what kind, and why in words (the reference it starts at, and the values it
/// passed through).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    pub kind: UnknownKind,
    pub reason: String,
}

impl Unknown {
    /// How the value is shown in its place: `(known after apply)` as in OpenTofu's plan.
    pub fn label(&self) -> &'static str {
        match self.kind {
            UnknownKind::AfterApply => "(known after apply)",
            UnknownKind::Read => "(known once read)",
            UnknownKind::NoValue => "(no value)",
            UnknownKind::NotStatic => "(not known statically)",
        }
    }

    fn new(kind: UnknownKind, reason: impl Into<String>) -> Self {
        Unknown {
            kind,
            reason: reason.into(),
        }
    }

    /// The same cause, reached through `via` (`local.ip`).
    fn through(&self, via: &str) -> Self {
        Unknown {
            kind: self.kind.clone(),
            reason: if self.reason.starts_with("through ") {
                format!("through {via}, {}", &self.reason["through ".len()..])
            } else {
                format!("through {via}: {}", self.reason)
            },
        }
    }
}

/// A value as the panel and the CLI show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// Known: rendered as OpenTofu's plan renders values ([`render`]), and where it came from
    /// when that is an input (`default`, `terraform.tfvars`, `-var`).
    Known {
        text: String,
        from: Option<String>,
    },
    /// A sensitive value: OpenTofu prints `(sensitive value)`.
    Sensitive,
    Unknown(Unknown),
}

impl Shown {
    /// The value in its place: the rendered value, `(sensitive value)` or the unknown's label.
    pub fn text(&self) -> &str {
        match self {
            Shown::Known { text, .. } => text,
            Shown::Sensitive => "(sensitive value)",
            Shown::Unknown(u) => u.label(),
        }
    }

    /// `default`, `-var`, …, or the reason a value is unknown.
    pub fn note(&self) -> Option<&str> {
        match self {
            Shown::Known { from, .. } => from.as_deref(),
            Shown::Sensitive => None,
            Shown::Unknown(u) => Some(&u.reason),
        }
    }

    pub fn is_known(&self) -> bool {
        !matches!(self, Shown::Unknown(_))
    }
}

/// One named value: a reference the vertex reads (`var.region`), or something it produces (an
/// argument, its `count`, its value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub name: String,
    pub shown: Shown,
}

/// The values of one instance (or of the whole object, where it is not repeated).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Group {
    /// The instance (`aws_instance.web[0]`, `module.net[1]`), or the object's address.
    pub title: String,
    /// The references its expressions read, each once, with their values.
    pub reads: Vec<Named>,
    /// What it produces: its value, its arguments, its `count`/`for_each` and instances.
    pub produces: Vec<Named>,
}

impl Group {
    /// A group that produces one value, `name`, from what `reads` lists.
    fn one(title: String, reads: Vec<Named>, name: String, shown: Shown) -> Group {
        Group {
            title,
            reads,
            produces: vec![Named { name, shown }],
        }
    }
}

/// Everything [`values`] says about one vertex.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Values {
    pub groups: Vec<Group>,
    /// Sentences about what is not listed (more instances than shown, instances not known).
    pub notes: Vec<String>,
}

impl Values {
    /// The values as `tfgraph explain` prints them, indented by `indent`.
    pub fn text(&self, indent: &str) -> String {
        let mut out = String::new();
        if self.groups.is_empty() && self.notes.is_empty() {
            out.push_str(&format!(
                "{indent}(none: this vertex has no values of its own)\n"
            ));
        }
        for g in &self.groups {
            out.push_str(&format!("{indent}{}:\n", g.title));
            for n in &g.reads {
                out.push_str(&format!("{indent}  reads {}\n", line_of(n)));
            }
            for n in &g.produces {
                out.push_str(&format!("{indent}  {}\n", line_of(n)));
            }
        }
        for n in &self.notes {
            out.push_str(&format!("{indent}{n}\n"));
        }
        out
    }
}

/// `name = value (note)`.
fn line_of(n: &Named) -> String {
    match n.shown.note() {
        Some(note) => format!("{} = {} ({note})", n.name, n.shown.text()),
        None => format!("{} = {}", n.name, n.shown.text()),
    }
}

/// What [`values`] reads: the configuration, and the root variable values the inputs give with
/// where each came from (`pipeline::Output::vars` and `var_sources`).
#[derive(Clone, Copy)]
pub struct Inputs<'a> {
    pub config: &'a Config,
    pub vars: &'a BTreeMap<String, Value>,
    pub sources: &'a BTreeMap<String, VarSource>,
}

/// The values of the vertex `subject` stands for.
pub fn values(inputs: Inputs<'_>, subject: &Subject) -> Values {
    let mut r = Resolver::new(inputs);
    let mut out = Values::default();
    match subject {
        Subject::RootVariable(name) => {
            let shown = r.var(&ModuleInstance::root(), name).shown();
            out.groups.push(Group::one(
                format!("var.{name}"),
                Vec::new(),
                format!("var.{name}"),
                shown,
            ));
        }
        Subject::VariableReference { module, name } => {
            r.per_module_instance(module, &mut out, |r, mi| {
                let shown = r.var(mi, name).shown();
                Group::one(mi.to_string(), Vec::new(), format!("var.{name}"), shown)
            });
        }
        Subject::ModuleInput { module, name } => {
            r.per_module_instance(module, &mut out, |r, mi| {
                let reads = match r.call_argument(mi, name) {
                    Some((parent, expr, inst)) => r.reads(&parent, &expr, inst.as_ref()),
                    None => Vec::new(),
                };
                let shown = r.var(mi, name).shown();
                Group::one(mi.to_string(), reads, format!("var.{name}"), shown)
            });
        }
        Subject::Local { module, name } => {
            r.per_module_instance(module, &mut out, |r, mi| {
                let expr = r
                    .module_config(mi)
                    .and_then(|c| c.module.locals.get(name))
                    .map(|l| l.expr.clone());
                let reads = expr.map(|e| r.reads(mi, &e, None)).unwrap_or_default();
                let shown = r.local(mi, name).shown();
                Group::one(
                    title_in(mi, &format!("local.{name}")),
                    reads,
                    format!("local.{name}"),
                    shown,
                )
            });
        }
        Subject::Output { module, name } => {
            r.per_module_instance(module, &mut out, |r, mi| {
                let expr = r
                    .module_config(mi)
                    .and_then(|c| c.module.outputs.get(name))
                    .and_then(|o| o.expr.clone());
                let reads = expr.map(|e| r.reads(mi, &e, None)).unwrap_or_default();
                let shown = r.output(mi, name).shown();
                Group::one(
                    title_in(mi, &format!("output.{name}")),
                    reads,
                    format!("output.{name}"),
                    shown,
                )
            });
        }
        Subject::Module(path) => module_values(&mut r, path, &mut out),
        Subject::Resource(cr) => resource_values(&mut r, cr, &mut out),
        Subject::Instance(abs) => instance_values(&mut r, abs, &mut out),
        Subject::Provider {
            module,
            provider,
            alias,
        } => {
            let Some(block) = r.config.descendant(module).and_then(|c| {
                let local = c.module.local_name_for_provider(provider);
                let key = match alias {
                    Some(a) => format!("{local}.{a}"),
                    None => local,
                };
                c.module.provider_configs.get(&key).cloned()
            }) else {
                out.notes.push(
                    "No provider block: the provider is configured with no arguments.".to_string(),
                );
                return out;
            };
            let args = arguments(&block.config);
            r.per_module_instance(module, &mut out, |r, mi| {
                let title = if mi.is_root() {
                    "provider".to_string()
                } else {
                    mi.to_string()
                };
                r.block_group(title, mi, &args, None)
            });
        }
    }
    out
}

/// `module.m[0].local.x`, or `local.x` in the root module.
fn title_in(mi: &ModuleInstance, rest: &str) -> String {
    if mi.is_root() {
        rest.to_string()
    } else {
        format!("{mi}.{rest}")
    }
}

fn module_values(r: &mut Resolver<'_>, path: &Module, out: &mut Values) {
    let Some(parent) = path.parent() else {
        return;
    };
    let name = path.0.last().cloned().unwrap_or_default();
    let Some(call) = r
        .config
        .descendant(&parent)
        .and_then(|c| c.module.module_calls.get(&name))
        .cloned()
    else {
        return;
    };
    // The repetition, in each instance of the calling module.
    let mut children = Vec::new();
    r.per_module_instance(&parent, out, |r, pmi| {
        let mut g = Group {
            title: title_in(pmi, &format!("module.{name}")),
            ..Group::default()
        };
        let metas = [
            ("count", call.count.as_ref()),
            ("for_each", call.for_each.as_ref()),
            ("enabled", call.enabled.as_ref()),
        ];
        r.repetition(pmi, &metas, &mut g);
        match r.call_instances(pmi, &name) {
            Ok(keys) => {
                let names: Vec<String> = keys
                    .iter()
                    .map(|i| pmi.child(&name, i.key.clone()).to_string())
                    .collect();
                g.produces.push(Named {
                    name: "instances".into(),
                    shown: Shown::Known {
                        text: list_text(&names),
                        from: None,
                    },
                });
                children.extend(keys.into_iter().map(|i| pmi.child(&name, i.key)));
            }
            Err(u) => g.produces.push(Named {
                name: "instances".into(),
                shown: Shown::Unknown(u),
            }),
        }
        g
    });
    // The inputs each instance receives.
    let args = arguments(&call.config);
    let more = children.len().saturating_sub(MAX_LISTED_INSTANCES);
    for mi in children.into_iter().take(MAX_LISTED_INSTANCES) {
        let Some(pmi) = mi.parent() else { continue };
        let inst = r.call_instance(&pmi, &name, &mi);
        let title = format!("{mi} inputs");
        out.groups
            .push(r.block_group(title, &pmi, &args, inst.as_ref()));
    }
    if more > 0 {
        out.notes.push(format!(
            "… and {more} more instance{} of module.{name}.",
            plural(more)
        ));
    }
}

fn resource_values(r: &mut Resolver<'_>, cr: &ConfigResource, out: &mut Values) {
    let Some(res) = r
        .config
        .descendant(&cr.module)
        .and_then(|c| c.module.resource(&cr.resource))
        .cloned()
    else {
        out.notes.push(format!(
            "{cr} is not in the configuration: it has no values to show."
        ));
        return;
    };
    let mut instances = Vec::new();
    r.per_module_instance(&cr.module, out, |r, mi| {
        let mut g = Group {
            title: title_in(mi, &cr.resource.to_string()),
            ..Group::default()
        };
        let metas = [
            ("count", res.count.as_ref()),
            ("for_each", res.for_each.as_ref()),
            ("enabled", res.enabled.as_ref()),
        ];
        r.repetition(mi, &metas, &mut g);
        let repeated = metas.iter().any(|(_, e)| e.is_some());
        match r.resource_instances(mi, &cr.resource) {
            Ok(keys) => {
                if repeated {
                    let names: Vec<String> = keys
                        .iter()
                        .map(|i| {
                            cr.resource
                                .instance(i.key.clone())
                                .absolute(mi.clone())
                                .to_string()
                        })
                        .collect();
                    g.produces.push(Named {
                        name: "instances".into(),
                        shown: Shown::Known {
                            text: list_text(&names),
                            from: None,
                        },
                    });
                }
                instances.extend(keys.into_iter().map(|i| (mi.clone(), i)));
            }
            Err(u) => g.produces.push(Named {
                name: "instances".into(),
                shown: Shown::Unknown(u),
            }),
        }
        g
    });
    // A resource that is not repeated, in the root module: one group says it all.
    let single = out.groups.len() == 1
        && out.groups[0].produces.is_empty()
        && instances.len() == 1
        && instances[0].1.key == InstanceKey::None;
    if single {
        out.groups.clear();
    }
    let args = arguments(&res.config);
    let more = instances.len().saturating_sub(MAX_LISTED_INSTANCES);
    for (mi, inst) in instances.into_iter().take(MAX_LISTED_INSTANCES) {
        let title = cr
            .resource
            .instance(inst.key.clone())
            .absolute(mi.clone())
            .to_string();
        out.groups
            .push(r.block_group(title, &mi, &args, Some(&inst)));
    }
    if more > 0 {
        out.notes.push(format!(
            "… and {more} more instance{} of {}.",
            plural(more),
            cr.resource
        ));
    }
}

fn instance_values(r: &mut Resolver<'_>, abs: &AbsResourceInstance, out: &mut Values) {
    let module = abs.module.module();
    let Some(res) = r
        .config
        .descendant(&module)
        .and_then(|c| c.module.resource(&abs.resource.resource))
        .cloned()
    else {
        out.notes.push(format!(
            "{abs} is not in the configuration (it comes from the state): it has no values to show."
        ));
        return;
    };
    let inst = match &abs.resource.key {
        InstanceKey::None => None,
        key => Some(
            r.resource_instances(&abs.module, &abs.resource.resource)
                .ok()
                .and_then(|v| v.into_iter().find(|i| &i.key == key))
                .unwrap_or(Instance {
                    key: key.clone(),
                    each_value: None,
                }),
        ),
    };
    let args = arguments(&res.config);
    out.groups
        .push(r.block_group(abs.to_string(), &abs.module, &args, inst.as_ref()));
}

/// Each argument of a body, nested blocks' as `block.argument` (`block[1].argument` when the
/// block is repeated), at most [`MAX_ARGUMENTS`]; `dynamic` blocks are left out.
fn arguments(body: &crate::config::model::HclBody) -> Vec<(String, Expr)> {
    let mut out = Vec::new();
    collect_arguments(&body.body, &body.file, "", &mut out);
    out
}

fn collect_arguments(
    body: &hcl::edit::structure::Body,
    file: &std::sync::Arc<crate::diag::SourceFile>,
    prefix: &str,
    out: &mut Vec<(String, Expr)>,
) {
    for a in body.attributes() {
        if out.len() >= MAX_ARGUMENTS {
            return;
        }
        out.push((
            format!("{prefix}{}", a.key.as_str()),
            Expr::new(a.value.clone(), file),
        ));
    }
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for b in body.blocks() {
        *counts.entry(b.ident.as_str()).or_default() += 1;
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for b in body.blocks() {
        let ident = b.ident.as_str();
        if ident == "dynamic" {
            continue;
        }
        let i = seen.entry(ident).or_default();
        let name = if counts[ident] > 1 {
            format!("{prefix}{ident}[{i}].")
        } else {
            format!("{prefix}{ident}.")
        };
        *i += 1;
        collect_arguments(&b.body, file, &name, out);
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `a, b, c` with at most [`MAX_ELEMENTS`] and a count of the rest; `(none)` when empty.
fn list_text(items: &[String]) -> String {
    if items.is_empty() {
        return "(none)".to_string();
    }
    let mut s = items
        .iter()
        .take(MAX_ELEMENTS)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > MAX_ELEMENTS {
        s.push_str(&format!(", … {} more", items.len() - MAX_ELEMENTS));
    }
    s
}

/// A value as OpenTofu's plan shows it, on one line and short: strings quoted, lists as
/// `["a", "b"]`, maps and objects as `{ key = value }`; more than a few elements, a long string
/// or deep nesting are cut with what was left out counted (`… 7 more`).
pub fn render(v: &Value) -> String {
    let mut out = String::new();
    render_into(v, 0, &mut out);
    out
}

fn render_into(v: &Value, depth: usize, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(&b.to_string()),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => {
            let n = s.chars().count();
            if n > MAX_STRING {
                let cut: String = s.chars().take(MAX_STRING).collect();
                out.push_str(&crate::strconv::go_quote(&cut));
                out.pop();
                out.push_str(&format!("…\" ({n} characters)"));
            } else {
                out.push_str(&crate::strconv::go_quote(s));
            }
        }
        Value::Array(a) if a.is_empty() => out.push_str("[]"),
        Value::Array(a) if depth >= 2 => out.push_str(&format!("[… {} elements]", a.len())),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().take(MAX_ELEMENTS).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                render_into(x, depth + 1, out);
            }
            if a.len() > MAX_ELEMENTS {
                out.push_str(&format!(", … {} more", a.len() - MAX_ELEMENTS));
            }
            out.push(']');
        }
        Value::Object(m) if m.is_empty() => out.push_str("{}"),
        Value::Object(m) if depth >= 2 => out.push_str(&format!("{{… {} keys}}", m.len())),
        Value::Object(m) => {
            out.push_str("{ ");
            // cty orders a map's and an object's keys lexically.
            let sorted: BTreeMap<&String, &Value> = m.iter().collect();
            for (i, (k, x)) in sorted.iter().take(MAX_ELEMENTS).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if is_identifier(k) {
                    out.push_str(k);
                } else {
                    out.push_str(&crate::strconv::go_quote(k));
                }
                out.push_str(" = ");
                render_into(x, depth + 1, out);
            }
            if m.len() > MAX_ELEMENTS {
                out.push_str(&format!(", … {} more", m.len() - MAX_ELEMENTS));
            }
            out.push_str(" }");
        }
    }
}

fn is_identifier(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_alphabetic() || f == '_')
        && c.all(|x| x.is_alphanumeric() || x == '_' || x == '-')
}

/// A resolved value: the value, whether it is sensitive, where it came from.
#[derive(Debug, Clone)]
struct Val {
    value: Value,
    sensitive: bool,
    from: Option<String>,
}

type Res = Result<Val, Unknown>;

trait ShownExt {
    fn shown(&self) -> Shown;
}

impl ShownExt for Res {
    fn shown(&self) -> Shown {
        match self {
            Ok(v) if v.sensitive => Shown::Sensitive,
            Ok(v) => Shown::Known {
                text: render(&v.value),
                from: v.from.clone(),
            },
            Err(u) => Shown::Unknown(u.clone()),
        }
    }
}

/// What a memo entry is about, within one module instance.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Var(String),
    Local(String),
    Output(String),
}

/// Resolves references on demand, memoised per module instance.
struct Resolver<'a> {
    config: &'a Config,
    root_vars: &'a BTreeMap<String, Value>,
    sources: &'a BTreeMap<String, VarSource>,
    memo: BTreeMap<(ModuleInstance, Key), Res>,
    busy: BTreeSet<(ModuleInstance, Key)>,
    calls: BTreeMap<(ModuleInstance, String), Result<Vec<Instance>, Unknown>>,
    work: usize,
}

impl<'a> Resolver<'a> {
    fn new(inputs: Inputs<'a>) -> Self {
        Resolver {
            config: inputs.config,
            root_vars: inputs.vars,
            sources: inputs.sources,
            memo: BTreeMap::new(),
            busy: BTreeSet::new(),
            calls: BTreeMap::new(),
            work: 0,
        }
    }

    fn module_config(&self, mi: &ModuleInstance) -> Option<&'a Config> {
        self.config.descendant_for_instance(mi)
    }

    /// Memoised resolution with a cycle guard.
    fn memo(&mut self, mi: &ModuleInstance, key: Key, f: impl FnOnce(&mut Self) -> Res) -> Res {
        let k = (mi.clone(), key);
        if let Some(r) = self.memo.get(&k) {
            return r.clone();
        }
        if self.busy.contains(&k) {
            return Err(Unknown::new(
                UnknownKind::NotStatic,
                "it refers to itself through other values",
            ));
        }
        self.work += 1;
        if self.work > MAX_RESOLUTIONS {
            return Err(Unknown::new(
                UnknownKind::NotStatic,
                format!("more than {MAX_RESOLUTIONS} values would have to be worked out"),
            ));
        }
        self.busy.insert(k.clone());
        let r = f(self);
        self.busy.remove(&k);
        self.memo.insert(k, r.clone());
        r
    }

    /// `var.name` in module instance `mi`.
    fn var(&mut self, mi: &ModuleInstance, name: &str) -> Res {
        self.memo(mi, Key::Var(name.to_string()), |r| {
            let Some(decl) = r
                .module_config(mi)
                .and_then(|c| c.module.variables.get(name))
                .cloned()
            else {
                return Err(Unknown::new(
                    UnknownKind::NotStatic,
                    format!("var.{name} is not declared"),
                ));
            };
            let given = if mi.is_root() {
                r.root_vars.get(name).map(|v| {
                    Ok(Val {
                        value: v.clone(),
                        sensitive: false,
                        from: Some(
                            r.sources
                                .get(name)
                                .map_or_else(|| "given".to_string(), |s| s.describe(name)),
                        ),
                    })
                })
            } else {
                r.call_argument(mi, name).map(|(parent, e, inst)| {
                    let call = mi.0.last().map(|s| s.name.clone()).unwrap_or_default();
                    r.eval(&parent, &e, inst.as_ref()).map(|mut v| {
                        v.from = Some(format!("argument of module.{call}"));
                        v
                    })
                })
            };
            let res = match given {
                Some(res) => res,
                None => match &decl.default {
                    Some(d) => r.eval(mi, d, None).map(|mut v| {
                        v.from = Some("default".to_string());
                        v
                    }),
                    None if mi.is_root() => Err(Unknown::new(
                        UnknownKind::NoValue,
                        format!(
                            "var.{name} has no default and no value was given (-var, a variables file or TF_VAR_{name}); OpenTofu would ask for one"
                        ),
                    )),
                    None => Err(Unknown::new(
                        UnknownKind::NoValue,
                        format!("var.{name} has no default and the module call gives no value"),
                    )),
                },
            };
            res.map(|mut v| {
                v.sensitive |= decl.sensitive;
                v
            })
        })
    }

    /// The argument the call of child instance `mi` gives variable `name`: the calling instance,
    /// the expression and the call instance's `count.index`/`each.*`.
    fn call_argument(
        &mut self,
        mi: &ModuleInstance,
        name: &str,
    ) -> Option<(ModuleInstance, Expr, Option<Instance>)> {
        let parent = mi.parent()?;
        let step = mi.0.last()?;
        let call = self
            .module_config(&parent)?
            .module
            .module_calls
            .get(&step.name)?;
        let e = call.config.attr(name)?;
        let inst = self.call_instance(&parent, &step.name, mi);
        Some((parent, e, inst))
    }

    /// The call instance (key and `each.value`) that made child instance `mi`.
    fn call_instance(
        &mut self,
        parent: &ModuleInstance,
        call: &str,
        mi: &ModuleInstance,
    ) -> Option<Instance> {
        let key = mi.0.last()?.key.clone();
        if key == InstanceKey::None {
            return None;
        }
        let found = self
            .call_instances(parent, call)
            .ok()
            .and_then(|v| v.into_iter().find(|i| i.key == key));
        Some(found.unwrap_or(Instance {
            key,
            each_value: None,
        }))
    }

    fn local(&mut self, mi: &ModuleInstance, name: &str) -> Res {
        self.memo(mi, Key::Local(name.to_string()), |r| {
            let Some(e) = r
                .module_config(mi)
                .and_then(|c| c.module.locals.get(name))
                .map(|l| l.expr.clone())
            else {
                return Err(Unknown::new(
                    UnknownKind::NotStatic,
                    format!("local.{name} is not declared"),
                ));
            };
            r.eval(mi, &e, None)
        })
    }

    fn output(&mut self, mi: &ModuleInstance, name: &str) -> Res {
        self.memo(mi, Key::Output(name.to_string()), |r| {
            let Some(o) = r
                .module_config(mi)
                .and_then(|c| c.module.outputs.get(name))
                .cloned()
            else {
                return Err(Unknown::new(
                    UnknownKind::NotStatic,
                    format!("output {name:?} is not declared in {mi}"),
                ));
            };
            let Some(e) = o.expr else {
                return Err(Unknown::new(
                    UnknownKind::NotStatic,
                    format!("output {name:?} has no value"),
                ));
            };
            r.eval(mi, &e, None).map(|mut v| {
                v.sensitive |= o.sensitive;
                v.from = None;
                v
            })
        })
    }

    /// The instances of module call `call` in `mi`.
    fn call_instances(
        &mut self,
        mi: &ModuleInstance,
        call: &str,
    ) -> Result<Vec<Instance>, Unknown> {
        let k = (mi.clone(), call.to_string());
        if let Some(r) = self.calls.get(&k) {
            return r.clone();
        }
        // A guard against a call whose count reads the call's own outputs.
        self.calls.insert(
            k.clone(),
            Err(Unknown::new(
                UnknownKind::NotStatic,
                format!("the instances of module.{call} depend on themselves"),
            )),
        );
        let c = self
            .module_config(mi)
            .and_then(|c| c.module.module_calls.get(call))
            .cloned();
        let r = match c {
            None => Err(Unknown::new(
                UnknownKind::NotStatic,
                format!("module.{call} is not declared"),
            )),
            Some(c) => self.keys(
                mi,
                c.count.as_ref(),
                c.for_each.as_ref(),
                c.enabled.as_ref(),
            ),
        };
        self.calls.insert(k, r.clone());
        r
    }

    fn resource_instances(
        &mut self,
        mi: &ModuleInstance,
        res: &addrs::Resource,
    ) -> Result<Vec<Instance>, Unknown> {
        let Some(c) = self
            .module_config(mi)
            .and_then(|c| c.module.resource(res))
            .cloned()
        else {
            return Err(Unknown::new(
                UnknownKind::NotStatic,
                format!("{res} is not declared"),
            ));
        };
        self.keys(
            mi,
            c.count.as_ref(),
            c.for_each.as_ref(),
            c.enabled.as_ref(),
        )
    }

    /// Instance keys from `count`/`for_each`/`enabled` evaluated here, as the expansion makes
    /// them ([`instance_keys_with`]); when unknown, the reason of the value that is.
    fn keys(
        &mut self,
        mi: &ModuleInstance,
        count: Option<&Expr>,
        for_each: Option<&Expr>,
        enabled: Option<&Expr>,
    ) -> Result<Vec<Instance>, Unknown> {
        let mut first: Option<Unknown> = None;
        let r = instance_keys_with(
            |e| {
                self.eval(mi, e, None).map(|v| v.value).map_err(|u| {
                    let text = u.reason.clone();
                    first.get_or_insert(u);
                    text
                })
            },
            count,
            for_each,
            enabled,
        );
        r.map_err(|text| match first {
            Some(u) => Unknown {
                kind: u.kind,
                reason: text,
            },
            None => Unknown::new(UnknownKind::NotStatic, text),
        })
    }

    /// The instances of the module at `path`, from the root down.
    fn module_instances(&mut self, path: &Module) -> Result<Vec<ModuleInstance>, Unknown> {
        let Some(parent) = path.parent() else {
            return Ok(vec![ModuleInstance::root()]);
        };
        let name = path.0.last().cloned().unwrap_or_default();
        let mut out = Vec::new();
        for p in self.module_instances(&parent)? {
            let keys = self.call_instances(&p, &name).map_err(|u| Unknown {
                kind: u.kind,
                reason: format!("module.{name}: {}", u.reason),
            })?;
            out.extend(keys.into_iter().map(|i| p.child(&name, i.key)));
            if out.len() > crate::config::eval::MAX_INSTANCES {
                return Err(Unknown::new(
                    UnknownKind::NotStatic,
                    format!("{path} has more instances than tfgraph expands"),
                ));
            }
        }
        Ok(out)
    }

    /// One group per instance of the module at `path` (at most [`MAX_LISTED_INSTANCES`]; the
    /// rest counted in a note, unknown instances said in one).
    fn per_module_instance(
        &mut self,
        path: &Module,
        out: &mut Values,
        mut each: impl FnMut(&mut Self, &ModuleInstance) -> Group,
    ) {
        match self.module_instances(path) {
            Ok(mis) => {
                if mis.is_empty() {
                    out.notes.push(format!(
                        "{path} has no instances: its count is 0, its for_each empty or it is disabled."
                    ));
                }
                let more = mis.len().saturating_sub(MAX_LISTED_INSTANCES);
                for mi in mis.iter().take(MAX_LISTED_INSTANCES) {
                    let g = each(self, mi);
                    out.groups.push(g);
                }
                if more > 0 {
                    out.notes.push(format!(
                        "… and {more} more instance{} of {path}.",
                        plural(more)
                    ));
                }
            }
            Err(u) => out.notes.push(format!(
                "The instances of {path} are not known statically: {}.",
                u.reason
            )),
        }
    }

    /// The `count`/`for_each`/`enabled` values of an object, into `g`.
    fn repetition(&mut self, mi: &ModuleInstance, metas: &[(&str, Option<&Expr>)], g: &mut Group) {
        for (name, e) in metas {
            if let Some(e) = e {
                for n in self.reads(mi, e, None) {
                    if !g.reads.iter().any(|x| x.name == n.name) {
                        g.reads.push(n);
                    }
                }
                let shown = self.eval(mi, e, None).shown();
                g.produces.push(Named {
                    name: name.to_string(),
                    shown,
                });
            }
        }
    }

    /// A group of arguments evaluated in `mi` with `inst`'s `count.index`/`each.*`.
    fn block_group(
        &mut self,
        title: String,
        mi: &ModuleInstance,
        args: &[(String, Expr)],
        inst: Option<&Instance>,
    ) -> Group {
        let mut g = Group {
            title,
            ..Group::default()
        };
        for (name, e) in args {
            for n in self.reads(mi, e, inst) {
                if !g.reads.iter().any(|x| x.name == n.name) {
                    g.reads.push(n);
                }
            }
            let shown = self.eval(mi, e, inst).shown();
            g.produces.push(Named {
                name: name.clone(),
                shown,
            });
        }
        g
    }

    /// The references `e` reads, each once, with their values.
    fn reads(&mut self, mi: &ModuleInstance, e: &Expr, inst: Option<&Instance>) -> Vec<Named> {
        let (refs, _) = refs_in_expr(e);
        let mut out: Vec<Named> = Vec::new();
        for r in refs {
            let (name, res) = self.reference(mi, &r, inst);
            if !out.iter().any(|n| n.name == name) {
                out.push(Named {
                    name,
                    shown: res.shown(),
                });
            }
        }
        out
    }

    /// One reference's name as listed and its value.
    fn reference(
        &mut self,
        mi: &ModuleInstance,
        r: &crate::addrs::Reference,
        inst: Option<&Instance>,
    ) -> (String, Res) {
        let known = |v: Value| {
            Ok(Val {
                value: v,
                sensitive: false,
                from: None,
            })
        };
        match &r.subject {
            Referenceable::InputVariable(n) => (r.subject.to_string(), self.var(mi, n)),
            Referenceable::LocalValue(n) => (r.subject.to_string(), self.local(mi, n)),
            Referenceable::ModuleCallInstanceOutput(o) => {
                let child = mi.child(&o.call.call.name, o.call.key.clone());
                let res = self.output(&child, &o.name);
                (r.subject.to_string(), res)
            }
            Referenceable::ModuleCall(c) => {
                (r.subject.to_string(), self.module_object(mi, &c.name, None))
            }
            Referenceable::ModuleCallInstance(c) => (
                r.subject.to_string(),
                self.module_object(mi, &c.call.name, Some(&c.key)),
            ),
            Referenceable::CountAttr(a) => {
                let res = match inst.map(|i| &i.key) {
                    Some(InstanceKey::Int(n)) if a == "index" => known(Value::from(*n)),
                    _ => Err(Unknown::new(
                        UnknownKind::NotStatic,
                        format!("count.{a} is only known inside an instance of a counted object"),
                    )),
                };
                (r.subject.to_string(), res)
            }
            Referenceable::ForEachAttr(a) => {
                let res = match (inst, a.as_str()) {
                    (
                        Some(Instance {
                            key: InstanceKey::Str(k),
                            ..
                        }),
                        "key",
                    ) => known(Value::from(k.as_str())),
                    (
                        Some(Instance {
                            each_value: Some(v),
                            ..
                        }),
                        "value",
                    ) => known(v.clone()),
                    _ => Err(Unknown::new(
                        UnknownKind::NotStatic,
                        format!("each.{a} is only known inside an instance of a for_each object"),
                    )),
                };
                (r.subject.to_string(), res)
            }
            Referenceable::TerraformAttr { name, .. } if name == "workspace" => {
                (r.subject.to_string(), known(Value::from("default")))
            }
            Referenceable::Resource(_) | Referenceable::ResourceInstance(_) => {
                let (res, mode) = match &r.subject {
                    Referenceable::Resource(x) => (x.to_string(), x.mode),
                    Referenceable::ResourceInstance(x) => (x.to_string(), x.resource.mode),
                    _ => unreachable!("matched above"),
                };
                let shown = r.display_string();
                let attr = shown
                    .strip_prefix(&res)
                    .and_then(|a| a.strip_prefix('.'))
                    .map(|a| a.split(['.', '[']).next().unwrap_or(a).to_string());
                let what = match &attr {
                    Some(a) => format!("attribute {a:?} of"),
                    None => "the whole of".to_string(),
                };
                let u = match mode {
                    ResourceMode::Managed => Unknown::new(
                        UnknownKind::AfterApply,
                        format!(
                            "{shown} is {what} managed resource {res}, which the provider returns when it plans and applies it"
                        ),
                    ),
                    ResourceMode::Data => Unknown::new(
                        UnknownKind::Read,
                        format!(
                            "{shown} is {what} data source {res}, which the provider reads during the walk"
                        ),
                    ),
                    ResourceMode::Ephemeral => Unknown::new(
                        UnknownKind::Read,
                        format!(
                            "{shown} is {what} ephemeral resource {res}, which the provider opens during the walk"
                        ),
                    ),
                };
                (shown, Err(u))
            }
            other => (
                other.to_string(),
                Err(Unknown::new(
                    UnknownKind::NotStatic,
                    format!("{other} is not evaluated by tfgraph"),
                )),
            ),
        }
    }

    /// `module.NAME` (or one instance of it) as an object of its outputs; unknown when any of
    /// them is.
    fn module_object(&mut self, mi: &ModuleInstance, call: &str, key: Option<&InstanceKey>) -> Res {
        let keys = match self.call_instances(mi, call) {
            Ok(k) => k,
            Err(u) => return Err(u.through(&format!("module.{call}"))),
        };
        if keys.len() > MAX_MODULE_OBJECTS {
            return Err(Unknown::new(
                UnknownKind::NotStatic,
                format!("module.{call} has more than {MAX_MODULE_OBJECTS} instances"),
            ));
        }
        let outputs: Vec<String> = self
            .module_config(&mi.child(call, InstanceKey::None))
            .map(|c| c.module.outputs.keys().cloned().collect())
            .unwrap_or_default();
        let mut sensitive = false;
        let mut object_of = |r: &mut Self, k: &InstanceKey| -> Result<Value, Unknown> {
            let child = mi.child(call, k.clone());
            let mut obj = hcl::Map::new();
            for o in &outputs {
                let v = r
                    .output(&child, o)
                    .map_err(|u| u.through(&format!("{child}.{o}")))?;
                sensitive |= v.sensitive;
                obj.insert(o.clone(), v.value);
            }
            Ok(Value::Object(obj))
        };
        let value = match key {
            Some(k) => object_of(self, k)?,
            None => match keys.first().map(|i| &i.key) {
                None => Value::Array(Vec::new()),
                Some(InstanceKey::None) => object_of(self, &InstanceKey::None)?,
                Some(InstanceKey::Int(_)) => Value::Array(
                    keys.iter()
                        .map(|i| object_of(self, &i.key))
                        .collect::<Result<_, _>>()?,
                ),
                Some(InstanceKey::Str(_)) => Value::Object(
                    keys.iter()
                        .map(|i| Ok((key_string(&i.key), object_of(self, &i.key)?)))
                        .collect::<Result<_, Unknown>>()?,
                ),
            },
        };
        Ok(Val {
            value,
            sensitive,
            from: None,
        })
    }

    /// Evaluates `e` in `mi`: every reference resolved first, then hcl-rs's evaluator. Unknown
    /// with the reason of the first unknown reference the result needs, else with the
    /// evaluator's error.
    fn eval(&mut self, mi: &ModuleInstance, e: &Expr, inst: Option<&Instance>) -> Res {
        let (refs, _) = refs_in_expr(e);
        let mut b = Bindings::default();
        let mut unknown: Vec<(String, Unknown)> = Vec::new();
        let mut sensitive = false;
        // A module call's outputs, by call: known outputs are bound even when another is not,
        // so `module.a.known` evaluates; a whole `module.a` binds only when every output is known.
        let mut module_parts: BTreeMap<String, hcl::Map<String, Value>> = BTreeMap::new();
        type Parts = BTreeMap<InstanceKey, hcl::Map<String, Value>>;
        let mut keyed_parts: BTreeMap<String, Parts> = BTreeMap::new();
        for r in &refs {
            let (name, res) = self.reference(mi, r, inst);
            match res {
                Ok(v) => {
                    sensitive |= v.sensitive;
                    match &r.subject {
                        Referenceable::InputVariable(n) => {
                            b.vars.insert(n.clone(), v.value);
                        }
                        Referenceable::LocalValue(n) => {
                            b.locals.insert(n.clone(), v.value);
                        }
                        Referenceable::ModuleCall(c) => {
                            b.modules.insert(c.name.clone(), v.value);
                        }
                        Referenceable::ModuleCallInstance(c) if c.key == InstanceKey::None => {
                            b.modules.insert(c.call.name.clone(), v.value);
                        }
                        Referenceable::ModuleCallInstanceOutput(o)
                            if o.call.key == InstanceKey::None =>
                        {
                            module_parts
                                .entry(o.call.call.name.clone())
                                .or_default()
                                .insert(o.name.clone(), v.value);
                        }
                        Referenceable::ModuleCallInstanceOutput(o) => {
                            // `module.a[0].x`, `module.a["k"].x`: this output of this instance.
                            keyed_parts
                                .entry(o.call.call.name.clone())
                                .or_default()
                                .entry(o.call.key.clone())
                                .or_default()
                                .insert(o.name.clone(), v.value);
                        }
                        Referenceable::ModuleCallInstance(c) => {
                            if let Ok(all) = self.module_object(mi, &c.call.name, None) {
                                b.modules.insert(c.call.name.clone(), all.value);
                            }
                        }
                        // count.*, each.*, terraform.workspace: bound by the evaluator itself.
                        _ => {}
                    }
                }
                Err(u) => unknown.push((name, u)),
            }
        }
        for (call, parts) in module_parts {
            b.modules.entry(call).or_insert(Value::Object(parts));
        }
        for (call, parts) in keyed_parts {
            // The known outputs of the instances referred to; the other instances are empty
            // objects, so reading them fails and the reference that is unknown is the reason.
            let value = if parts.keys().all(|k| matches!(k, InstanceKey::Int(_))) {
                let len = parts
                    .keys()
                    .filter_map(|k| match k {
                        InstanceKey::Int(n) => usize::try_from(*n).ok(),
                        _ => None,
                    })
                    .max()
                    .map_or(0, |n| n.min(MAX_MODULE_OBJECTS) + 1);
                let mut list = vec![Value::Object(hcl::Map::new()); len];
                for (k, m) in parts {
                    if let InstanceKey::Int(n) = k
                        && let Some(slot) = usize::try_from(n).ok().and_then(|n| list.get_mut(n))
                    {
                        *slot = Value::Object(m);
                    }
                }
                Value::Array(list)
            } else {
                Value::Object(
                    parts
                        .into_iter()
                        .map(|(k, m)| (key_string(&k), Value::Object(m)))
                        .collect(),
                )
            };
            b.modules.entry(call).or_insert(value);
        }
        match evaluate(e, &b, inst) {
            Ok(value) => Ok(Val {
                value,
                sensitive,
                from: None,
            }),
            Err(err) => match unknown.into_iter().next() {
                // A reference that is itself the cause names itself in its reason.
                Some((name, u)) if u.reason.starts_with(&name) => Err(u),
                Some((name, u)) => Err(u.through(&name)),
                None => Err(Unknown::new(UnknownKind::NotStatic, cannot(e, &err))),
            },
        }
    }
}

/// Why tfgraph could not evaluate `e`, short: the evaluator's error without the expression it
/// appends, and the expression itself only when it is short and on one line.
fn cannot(e: &Expr, err: &str) -> String {
    let err = err.split(" in expression `").next().unwrap_or(err);
    let text = e.text().trim();
    if text.len() <= 60 && !text.contains('\n') {
        format!("tfgraph cannot evaluate {text}: {err}")
    } else {
        format!("tfgraph cannot evaluate it: {err}")
    }
}

/// A `for_each` key as the map key it is.
fn key_string(k: &InstanceKey) -> String {
    match k {
        InstanceKey::Str(s) => s.clone(),
        InstanceKey::Int(n) => n.to_string(),
        InstanceKey::None => String::new(),
    }
}

#[cfg(test)]
mod tests;
