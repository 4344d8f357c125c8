//! Resolving references on demand: a local's own expression, a module call's argument in the
//! calling instance, a module's output in the module's instance, each memoised per module
//! instance and guarded against cycles, with the reference that is not known as the reason.

use super::model::{Group, Inputs, Named, Shown, Unknown, UnknownKind, Values};
use super::render::{plural, render};
use crate::addrs::{self, InstanceKey, Module, ModuleInstance, Referenceable, ResourceMode};
use crate::config::eval::{Bindings, Instance, evaluate, instance_keys_with};
use crate::config::model::{Config, Expr};
use crate::config::refs::refs_in_expr;
use crate::config::vars::VarSource;
use hcl::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Most instances (of a module or a resource) whose values are listed; the rest are counted.
pub const MAX_LISTED_INSTANCES: usize = 5;
/// Most instances of a module call whose outputs are gathered for `module.NAME`.
const MAX_MODULE_OBJECTS: usize = 100;
/// Most references resolved for one vertex's values (each memoised): a bound on the work for
/// configurations with very many module instances.
const MAX_RESOLUTIONS: usize = 20_000;

/// A resolved value: the value, whether it is sensitive, where it came from.
#[derive(Debug, Clone)]
pub(super) struct Val {
    value: Value,
    sensitive: bool,
    from: Option<String>,
}

pub(super) type Res = Result<Val, Unknown>;

pub(super) trait ShownExt {
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
pub(super) enum Key {
    Var(String),
    Local(String),
    Output(String),
}

/// Resolves references on demand, memoised per module instance.
pub(super) struct Resolver<'a> {
    pub(super) config: &'a Config,
    root_vars: &'a BTreeMap<String, Value>,
    sources: &'a BTreeMap<String, VarSource>,
    memo: BTreeMap<(ModuleInstance, Key), Res>,
    busy: BTreeSet<(ModuleInstance, Key)>,
    calls: BTreeMap<(ModuleInstance, String), Result<Vec<Instance>, Unknown>>,
    work: usize,
}

impl<'a> Resolver<'a> {
    pub(super) fn new(inputs: Inputs<'a>) -> Self {
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

    pub(super) fn module_config(&self, mi: &ModuleInstance) -> Option<&'a Config> {
        self.config.descendant_for_instance(mi)
    }

    /// Memoised resolution with a cycle guard.
    pub(super) fn memo(
        &mut self,
        mi: &ModuleInstance,
        key: Key,
        f: impl FnOnce(&mut Self) -> Res,
    ) -> Res {
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
    pub(super) fn var(&mut self, mi: &ModuleInstance, name: &str) -> Res {
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
    pub(super) fn call_argument(
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
    pub(super) fn call_instance(
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

    pub(super) fn local(&mut self, mi: &ModuleInstance, name: &str) -> Res {
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

    pub(super) fn output(&mut self, mi: &ModuleInstance, name: &str) -> Res {
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
    pub(super) fn call_instances(
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

    pub(super) fn resource_instances(
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
    pub(super) fn keys(
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
    pub(super) fn module_instances(
        &mut self,
        path: &Module,
    ) -> Result<Vec<ModuleInstance>, Unknown> {
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
    pub(super) fn per_module_instance(
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
    pub(super) fn repetition(
        &mut self,
        mi: &ModuleInstance,
        metas: &[(&str, Option<&Expr>)],
        g: &mut Group,
    ) {
        for (name, e) in metas {
            if let Some(e) = e {
                self.add_named(g, mi, name, e, None);
            }
        }
    }

    /// `name = e` evaluated in `mi` (with `inst`'s `count.index`/`each.*`) into `g`, and the
    /// references it reads, each once.
    fn add_named(
        &mut self,
        g: &mut Group,
        mi: &ModuleInstance,
        name: &str,
        e: &Expr,
        inst: Option<&Instance>,
    ) {
        for n in self.reads(mi, e, inst) {
            if !g.reads.iter().any(|x| x.name == n.name) {
                g.reads.push(n);
            }
        }
        let shown = self.eval(mi, e, inst).shown();
        g.produces.push(Named {
            name: name.to_string(),
            shown,
        });
    }

    /// A group of arguments evaluated in `mi` with `inst`'s `count.index`/`each.*`.
    pub(super) fn block_group(
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
            self.add_named(&mut g, mi, name, e, inst);
        }
        g
    }

    /// The references `e` reads, each once, with their values.
    pub(super) fn reads(
        &mut self,
        mi: &ModuleInstance,
        e: &Expr,
        inst: Option<&Instance>,
    ) -> Vec<Named> {
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
    pub(super) fn reference(
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
    pub(super) fn module_object(
        &mut self,
        mi: &ModuleInstance,
        call: &str,
        key: Option<&InstanceKey>,
    ) -> Res {
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
    pub(super) fn eval(&mut self, mi: &ModuleInstance, e: &Expr, inst: Option<&Instance>) -> Res {
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
