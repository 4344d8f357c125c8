//! Static evaluation of `count`, `for_each` and `lifecycle.enabled`: how many instances a module
//! call or resource has, when that follows from the configuration alone.
//!
//! This lives with the configuration (not the walk) because it is a question about the
//! configuration and its root variable values; the walk's expander ([`crate::walk::expand`]) and
//! anything else (a UI showing instance counts) can ask it.
//!
//! Expressions are evaluated with hcl-rs's evaluator (`hcl::eval`), not one of our own: each
//! hcl-edit expression is converted to an `hcl::Expression` and evaluated in a context holding
//! what is known. What is supported:
//!
//! - literals, operators, conditionals (only the taken branch is evaluated), `for` expressions,
//!   string templates — everything `hcl::eval` does;
//! - `var.NAME`: root variables from `-var NAME=VALUE` (parsed as an HCL expression unless the
//!   variable has no type or type `string`, as OpenTofu does) or their `default`; a child module's
//!   variables from the module call's arguments, evaluated in the calling module instance (with
//!   its `count.index` / `each.key` / `each.value`), or their `default`;
//! - `local.NAME`, evaluated in the module instance, locals referring to locals included;
//! - `count.index`, `each.key`, `each.value` inside module calls' arguments;
//! - `terraform.workspace` (`"default"`);
//! - the functions `length`, `toset`, `tolist`, `tomap`, `keys`, `values`, `range`, `concat`,
//!   `merge`, `distinct`, `contains`, `lookup`, `min`, `max`, `coalesce`, `compact`, `flatten`,
//!   `tostring`, `tonumber`, `tobool` (hand-written below: hcl-rs has no function library).
//!
//! Anything else — a resource or data source attribute, a module output, a variable with no value,
//! an unlisted function, `path.*` — makes the value unknown, and an unknown `count`/`for_each`
//! makes the instance set unknown; we report that with the reason rather than guess. hcl-rs has
//! no set type: a set is an array of distinct strings in lexical order (the order cty gives a set
//! of strings), so a `for_each` over a list of strings is accepted although OpenTofu would ask for
//! `toset` first.

use super::model::{Config, Expr, Variable};
use crate::addrs::{self, InstanceKey, ModuleInstance};
use hcl::Value;
use hcl::eval::{Context, Evaluate, FuncArgs, FuncDef, ParamType};
use std::collections::BTreeMap;

/// The values known in one module instance. A variable or local whose value is unknown is absent;
/// its reason is in `unknown`.
#[derive(Debug, Clone, Default)]
struct Scope {
    vars: BTreeMap<String, Value>,
    locals: BTreeMap<String, Value>,
    /// The [`value_size`] of the largest value in `vars` and `locals`.
    largest: usize,
}

/// One instance of a repeated object: its key and, for `for_each`, `each.value`.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    pub key: InstanceKey,
    pub each_value: Option<Value>,
}

/// Why an instance set is not known (the expression and what failed).
pub type Unknown = String;

/// Most instances one module call or resource may have (across the instances of its module)
/// before its instance set counts as unknown: a `count = 100000000` would otherwise allocate
/// every instance (found by fuzzing: out of memory), and no drawing or walk of that many
/// vertices is useful in a browser tab.
pub const MAX_INSTANCES: usize = 10_000;

/// Largest value (elements plus string bytes, see [`value_size`]) a variable or local may hold to
/// be known: each local can be a few times larger than the locals it uses, so a chain of locals
/// would otherwise grow exponentially (found by fuzzing: a 25 GB allocation).
pub const MAX_VALUE_SIZE: usize = 1_000_000;

/// The size of a value: one per value, plus the bytes of every string and object key.
pub fn value_size(v: &Value) -> usize {
    match v {
        Value::String(s) => 1 + s.len(),
        Value::Array(a) => a.iter().fold(1, |n, x| n.saturating_add(value_size(x))),
        Value::Object(m) => m.iter().fold(1, |n, (k, x)| {
            n.saturating_add(k.len()).saturating_add(value_size(x))
        }),
        _ => 1,
    }
}

/// `v` when it is within [`MAX_VALUE_SIZE`].
fn bounded(v: Value) -> Option<Value> {
    (value_size(&v) <= MAX_VALUE_SIZE).then_some(v)
}

/// `Err` when a list of instances is longer than [`MAX_INSTANCES`]; `what` names its expression.
fn check_instances<T>(v: Vec<T>, what: impl FnOnce() -> String) -> Result<Vec<T>, Unknown> {
    if v.len() > MAX_INSTANCES {
        Err(format!(
            "{} gives {} instances, more than the {MAX_INSTANCES} tfgraph expands",
            what(),
            v.len()
        ))
    } else {
        Ok(v)
    }
}

/// Static evaluator over one configuration, with memoised module instance scopes.
#[derive(Debug, Clone)]
pub struct StaticEval {
    config: Config,
    root_vars: BTreeMap<String, Value>,
    scopes: BTreeMap<ModuleInstance, Scope>,
    module_instances: BTreeMap<addrs::Module, Result<Vec<ModuleInstance>, Unknown>>,
}

/// Parses a `-var NAME=VALUE` value as OpenTofu does: as a literal string when the variable has no
/// type constraint or type `string`, otherwise as an HCL expression (falling back to the string
/// when it does not parse or evaluate).
pub fn parse_var_value(var: Option<&Variable>, raw: &str) -> Value {
    let is_string = match var.and_then(|v| v.type_expr.as_ref()) {
        None => true,
        Some(t) => t.text().trim() == "string",
    };
    if is_string {
        return Value::String(raw.to_string());
    }
    match hcl::edit::parser::parse_expr(raw) {
        Ok(e) => hcl::Expression::from(e)
            .evaluate(&Context::new())
            .unwrap_or_else(|_| Value::String(raw.to_string())),
        Err(_) => Value::String(raw.to_string()),
    }
}

impl StaticEval {
    /// `vars` are `NAME=VALUE` assignments for root variables (malformed ones are ignored: the
    /// pipeline reports them).
    pub fn new(config: Config, vars: &[String]) -> Self {
        let mut root_vars = BTreeMap::new();
        for a in vars {
            if let Some((name, value)) = a.split_once('=') {
                let name = name.trim();
                let v = parse_var_value(config.module.variables.get(name), value);
                root_vars.insert(name.to_string(), v);
            }
        }
        StaticEval {
            config,
            root_vars,
            scopes: BTreeMap::new(),
            module_instances: BTreeMap::new(),
        }
    }

    /// With root variable values already resolved (see [`super::vars::resolve`]).
    pub fn with_values(config: Config, root_vars: BTreeMap<String, Value>) -> Self {
        StaticEval {
            config,
            root_vars,
            scopes: BTreeMap::new(),
            module_instances: BTreeMap::new(),
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The known values of a module instance (computed once).
    fn scope(&mut self, mi: &ModuleInstance) -> Scope {
        if let Some(s) = self.scopes.get(mi) {
            return s.clone();
        }
        let scope = self.compute_scope(mi);
        self.scopes.insert(mi.clone(), scope.clone());
        scope
    }

    fn compute_scope(&mut self, mi: &ModuleInstance) -> Scope {
        let Some(cfg) = self.config.descendant_for_instance(mi) else {
            return Scope::default();
        };
        let module = cfg.module.clone();
        let mut vars = BTreeMap::new();
        let mut largest = 0;
        match (mi.parent(), mi.0.last()) {
            (Some(parent), Some(step)) => {
                // A child module: arguments of the call, evaluated in the caller's instance.
                let parent_scope = self.scope(&parent);
                let call = self
                    .config
                    .descendant_for_instance(&parent)
                    .and_then(|p| p.module.module_calls.get(&step.name))
                    .cloned();
                let each = call.as_ref().and_then(|c| {
                    let keys = self.keys_in(&parent, c.count.as_ref(), c.for_each.as_ref(), None);
                    keys.ok()?.into_iter().find(|i| i.key == step.key)
                });
                for (name, v) in &module.variables {
                    let arg = call.as_ref().and_then(|c| c.config.attr(name));
                    let value = match arg {
                        Some(e) => eval(&e, &parent_scope, each.as_ref()).ok(),
                        None => v.default.as_ref().and_then(|d| eval_const(d).ok()),
                    }
                    .and_then(bounded);
                    if let Some(value) = value {
                        largest = largest.max(value_size(&value));
                        vars.insert(name.clone(), value);
                    }
                }
            }
            _ => {
                for (name, v) in &module.variables {
                    let value = match self.root_vars.get(name) {
                        Some(x) => Some(x.clone()),
                        None => v.default.as_ref().and_then(|d| eval_const(d).ok()),
                    }
                    .and_then(bounded);
                    if let Some(value) = value {
                        largest = largest.max(value_size(&value));
                        vars.insert(name.clone(), value);
                    }
                }
            }
        }
        let mut scope = Scope {
            vars,
            locals: BTreeMap::new(),
            largest,
        };
        // Locals may refer to each other in any order: evaluate until nothing new is known.
        let mut pending: Vec<_> = module.locals.values().collect();
        loop {
            let before = pending.len();
            pending.retain(|l| match eval(&l.expr, &scope, None).map(bounded) {
                Ok(Some(v)) => {
                    scope.largest = scope.largest.max(value_size(&v));
                    scope.locals.insert(l.name.clone(), v);
                    false
                }
                Ok(None) | Err(_) => true,
            });
            if pending.is_empty() || pending.len() == before {
                break;
            }
        }
        scope
    }

    /// Every instance of the module at `path` (the root has one, itself).
    pub fn module_instances(
        &mut self,
        path: &addrs::Module,
    ) -> Result<Vec<ModuleInstance>, Unknown> {
        if let Some(r) = self.module_instances.get(path) {
            return r.clone();
        }
        let r = self.compute_module_instances(path);
        self.module_instances.insert(path.clone(), r.clone());
        r
    }

    fn compute_module_instances(
        &mut self,
        path: &addrs::Module,
    ) -> Result<Vec<ModuleInstance>, Unknown> {
        let Some(parent) = path.parent() else {
            return Ok(vec![ModuleInstance::root()]);
        };
        let name = path.0.last().cloned().unwrap_or_default();
        let call = self
            .config
            .descendant(&parent)
            .and_then(|c| c.module.module_calls.get(&name))
            .cloned()
            .ok_or_else(|| format!("module.{name} is not declared"))?;
        let mut out = Vec::new();
        for p in self.module_instances(&parent)? {
            let keys = self
                .keys_in(
                    &p,
                    call.count.as_ref(),
                    call.for_each.as_ref(),
                    call.enabled.as_ref(),
                )
                .map_err(|e| format!("module.{name}: {e}"))?;
            out.extend(keys.into_iter().map(|i| p.child(&name, i.key)));
            out = check_instances(out, || format!("module.{name}"))?;
        }
        Ok(out)
    }

    /// Every instance of a resource declared in the module at `path`, across that module's
    /// instances. When unknown, the reason names the enclosing module call if that is what is
    /// unknown (`module.x: count = … is unknown (…)`), else the resource's own expression.
    pub fn resource_instances(
        &mut self,
        path: &addrs::Module,
        resource: &addrs::Resource,
    ) -> Result<Vec<addrs::AbsResourceInstance>, Unknown> {
        let r = self
            .config
            .descendant(path)
            .and_then(|c| c.module.resource(resource))
            .cloned()
            .ok_or_else(|| format!("{resource} is not declared"))?;
        let mut out = Vec::new();
        for mi in self.module_instances(path)? {
            let keys = self.keys_in(
                &mi,
                r.count.as_ref(),
                r.for_each.as_ref(),
                r.enabled.as_ref(),
            )?;
            out.extend(
                keys.into_iter()
                    .map(|i| resource.instance(i.key).absolute(mi.clone())),
            );
            out = check_instances(out, || resource.to_string())?;
        }
        Ok(out)
    }

    /// The instance keys `count` / `for_each` / `enabled` give in module instance `mi`.
    pub fn instance_keys(
        &mut self,
        mi: &ModuleInstance,
        count: Option<&Expr>,
        for_each: Option<&Expr>,
        enabled: Option<&Expr>,
    ) -> Result<Vec<Instance>, Unknown> {
        self.keys_in(mi, count, for_each, enabled)
    }

    fn keys_in(
        &mut self,
        mi: &ModuleInstance,
        count: Option<&Expr>,
        for_each: Option<&Expr>,
        enabled: Option<&Expr>,
    ) -> Result<Vec<Instance>, Unknown> {
        let scope = self.scope(mi);
        if let Some(e) = enabled {
            let v = eval(e, &scope, None)
                .map_err(|err| format!("enabled = {} is unknown ({err})", e.text()))?;
            match v {
                Value::Bool(false) => return Ok(Vec::new()),
                Value::Bool(true) => {}
                other => return Err(format!("enabled = {} is not a bool: {other}", e.text())),
            }
        }
        if let Some(e) = count {
            let v = eval(e, &scope, None)
                .map_err(|err| format!("count = {} is unknown ({err})", e.text()))?;
            let n = as_count(&v).ok_or_else(|| {
                format!(
                    "count = {} is {v}, not a whole non-negative number",
                    e.text()
                )
            })?;
            // Checked before anything is allocated for the instances.
            if usize::try_from(n).map_or(true, |n| n > MAX_INSTANCES) {
                return Err(format!(
                    "count = {} gives {n} instances, more than the {MAX_INSTANCES} tfgraph expands",
                    e.text()
                ));
            }
            return Ok((0..n)
                .map(|i| Instance {
                    key: InstanceKey::Int(i),
                    each_value: None,
                })
                .collect());
        }
        if let Some(e) = for_each {
            let v = eval(e, &scope, None)
                .map_err(|err| format!("for_each = {} is unknown ({err})", e.text()))?;
            let keys = match v {
                Value::Object(m) => {
                    let sorted: BTreeMap<String, Value> = m.into_iter().collect();
                    Ok(sorted
                        .into_iter()
                        .map(|(k, v)| Instance {
                            key: InstanceKey::Str(k),
                            each_value: Some(v),
                        })
                        .collect())
                }
                Value::Array(items) => {
                    let mut keys = Vec::new();
                    for i in items {
                        match i {
                            Value::String(s) => keys.push(s),
                            other => {
                                return Err(format!(
                                    "for_each = {} holds {other}, not only strings",
                                    e.text()
                                ));
                            }
                        }
                    }
                    keys.sort();
                    keys.dedup();
                    Ok(keys
                        .into_iter()
                        .map(|k| Instance {
                            key: InstanceKey::Str(k.clone()),
                            each_value: Some(Value::String(k)),
                        })
                        .collect())
                }
                other => Err(format!(
                    "for_each = {} is {other}, not a map or a set of strings",
                    e.text()
                )),
            };
            return check_instances(keys?, || format!("for_each = {}", e.text()));
        }
        Ok(vec![Instance {
            key: InstanceKey::None,
            each_value: None,
        }])
    }
}

/// A count value: a whole non-negative number, or a string holding one (OpenTofu converts).
fn as_count(v: &Value) -> Option<i64> {
    let n = match v {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    (n >= 0.0 && n.fract() == 0.0 && n < 1e9).then_some(n as i64)
}

/// Evaluates a constant expression (a variable default).
fn eval_const(e: &Expr) -> Result<Value, String> {
    eval(e, &Scope::default(), None)
}

/// Evaluates `e` with the values of `scope`, plus `count.index` / `each.*` for `inst`.
fn eval(e: &Expr, scope: &Scope, inst: Option<&Instance>) -> Result<Value, String> {
    let mut ctx = Context::new();
    let obj = |m: &BTreeMap<String, Value>| {
        Value::Object(m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
    };
    ctx.declare_var("var", obj(&scope.vars));
    ctx.declare_var("local", obj(&scope.locals));
    ctx.declare_var(
        "terraform",
        Value::Object(
            [("workspace".to_string(), Value::from("default"))]
                .into_iter()
                .collect(),
        ),
    );
    if let Some(i) = inst {
        match (&i.key, &i.each_value) {
            (InstanceKey::Int(n), _) => ctx.declare_var(
                "count",
                Value::Object(
                    [("index".to_string(), Value::from(*n))]
                        .into_iter()
                        .collect(),
                ),
            ),
            (InstanceKey::Str(k), Some(v)) => ctx.declare_var(
                "each",
                Value::Object(
                    [
                        ("key".to_string(), Value::from(k.as_str())),
                        ("value".to_string(), v.clone()),
                    ]
                    .into_iter()
                    .collect(),
                ),
            ),
            _ => {}
        }
    }
    declare_functions(&mut ctx);
    // Each reference copies a value: with thousands of them in one expression (a template's
    // interpolations, a tuple's elements) and a large value in scope, the result alone would not
    // fit in memory (found by fuzzing: 4,000 interpolations of a 900 KB local). The references
    // written in the source text bound the copies made outside `for` (whose bodies spend fuel).
    let text = e.text();
    let references = ["local.", "var.", "each."]
        .iter()
        .map(|p| text.matches(p).count())
        .sum::<usize>();
    let largest = scope.largest.max(
        inst.and_then(|i| i.each_value.as_ref())
            .map_or(0, value_size),
    );
    if references.saturating_mul(largest) > MAX_COPIED_SIZE {
        return Err(format!(
            "its {references} references could copy more than {MAX_COPIED_SIZE} units of values of up to {largest}"
        ));
    }
    let mut expr = hcl::Expression::from(e.expr.clone());
    metered(&mut expr);
    FUEL.with(|f| f.set(EVAL_FUEL));
    decide_logic(&mut expr, &ctx);
    expr.evaluate(&ctx).map_err(|err| err.to_string())
}

/// Steps one evaluation may take (an iteration of a `for`, an element a function builds) before
/// its value counts as unknown. Values in scope are bounded ([`MAX_VALUE_SIZE`]), but a `for`
/// inside a `for` multiplies their sizes, and `[range(1000000), range(1000000), …]` builds many
/// bounded values at once: both hung or ran out of memory (found by fuzzing).
const EVAL_FUEL: usize = 1_000_000;

/// Most one expression may copy from its scope: references times the largest value in scope
/// (see [`eval`]).
const MAX_COPIED_SIZE: usize = 4 * MAX_VALUE_SIZE;

/// The name of the metering function [`metered`] wraps around every `for` body.
const FUEL_FN: &str = "__tfgraph_fuel";

thread_local! {
    /// Fuel left to the evaluation under way (evaluation is single-threaded and not re-entrant).
    static FUEL: std::cell::Cell<usize> = const { std::cell::Cell::new(EVAL_FUEL) };
}

/// Uses `n` steps of the evaluation's fuel; `Err` once it is spent.
fn charge(n: usize) -> Result<(), String> {
    FUEL.with(|f| match f.get().checked_sub(n) {
        Some(left) => {
            f.set(left);
            Ok(())
        }
        None => {
            f.set(0);
            Err(format!(
                "the expression takes more than {EVAL_FUEL} steps to evaluate statically"
            ))
        }
    })
}

/// `__tfgraph_fuel(v)`: `v`, with fuel spent for its size (so a `for` builds at most as much as
/// the fuel allows, however large each element is).
fn f_fuel(args: FuncArgs) -> Result<Value, String> {
    let v = args
        .into_values()
        .into_iter()
        .next()
        .ok_or_else(|| "missing argument 1".to_string())?;
    charge(value_size(&v))?;
    Ok(v)
}

/// Makes every iteration of every `for` expression in `e` spend fuel: hcl-rs's evaluator has no
/// step limit of its own, so the key, value and condition of each `for` are wrapped in a call of
/// [`FUEL_FN`], which hcl-rs calls once per element. Templates with a `%{ for }` directive (whose
/// loops cannot be reached this way) are replaced by a call that fails, i.e. they are unknown.
fn metered(e: &mut hcl::Expression) {
    use hcl::expr::{
        Expression as E, FuncCall, ObjectKey, Operation, TemplateExpr, TraversalOperator,
    };
    let wrap = |x: &mut E| {
        let inner = std::mem::replace(x, E::Null);
        *x = E::FuncCall(Box::new(FuncCall::builder(FUEL_FN).arg(inner).build()));
    };
    match e {
        E::Array(items) => items.iter_mut().for_each(metered),
        E::Object(o) => {
            o.values_mut().for_each(metered);
            // Keys cannot be rewritten in place; an object with a loop in a key is unknown.
            let loop_in_key = o.keys().any(|k| match k {
                ObjectKey::Expression(x) => has_for(x),
                _ => false,
            });
            if loop_in_key {
                *e = E::FuncCall(Box::new(FuncCall::new(FUEL_FN)));
            }
        }
        E::TemplateExpr(t) => {
            let text = match t.as_ref() {
                TemplateExpr::QuotedString(s) => s.as_str(),
                TemplateExpr::Heredoc(h) => h.template.as_str(),
            };
            if for_directive().is_match(text) {
                // A call without its argument fails: the template's value is unknown.
                *e = E::FuncCall(Box::new(FuncCall::new(FUEL_FN)));
            }
        }
        E::Traversal(t) => {
            metered(&mut t.expr);
            for op in &mut t.operators {
                if let TraversalOperator::Index(x) = op {
                    metered(x);
                }
            }
        }
        E::FuncCall(f) => f.args.iter_mut().for_each(metered),
        E::Parenthesis(x) => metered(x),
        E::Conditional(c) => {
            metered(&mut c.cond_expr);
            metered(&mut c.true_expr);
            metered(&mut c.false_expr);
        }
        E::Operation(op) => match op.as_mut() {
            Operation::Unary(u) => metered(&mut u.expr),
            Operation::Binary(b) => {
                metered(&mut b.lhs_expr);
                metered(&mut b.rhs_expr);
            }
        },
        E::ForExpr(f) => {
            metered(&mut f.collection_expr);
            metered(&mut f.value_expr);
            wrap(&mut f.value_expr);
            if let Some(k) = &mut f.key_expr {
                metered(k);
                wrap(k);
            }
            if let Some(c) = &mut f.cond_expr {
                metered(c);
                wrap(c);
            }
        }
        E::Null | E::Bool(_) | E::Number(_) | E::String(_) | E::Variable(_) => {}
        // Expression is non-exhaustive; anything new is evaluated as it is.
        _ => {}
    }
}

/// Whether `e` contains a `for` expression.
fn has_for(e: &hcl::Expression) -> bool {
    let mut copy = e.clone();
    let before = copy.clone();
    metered(&mut copy);
    copy != before
}

/// A `%{ for … }` directive in a template's text.
fn for_directive() -> &'static regex::Regex {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| regex::Regex::new(r"%\{~?\s*for\s").expect("a valid pattern"))
}

/// Replaces `a && b` by `false` when either side is known to be false, and `a || b` by `true`
/// when either is known true, even if the other side is unknown. OpenTofu gets the same answer
/// (cty knows `false && unknown` is false); hcl-rs evaluates both sides and would fail on the
/// unknown one. Modules gate counts this way (`local.create && var.x > 0 ? 1 : 0`).
fn decide_logic(e: &mut hcl::Expression, ctx: &Context) {
    use hcl::expr::{BinaryOperator, Expression as E, Operation};
    match e {
        E::Parenthesis(inner) => decide_logic(inner, ctx),
        E::Conditional(c) => {
            decide_logic(&mut c.cond_expr, ctx);
            decide_logic(&mut c.true_expr, ctx);
            decide_logic(&mut c.false_expr, ctx);
        }
        E::Operation(op) => {
            let decided = match op.as_mut() {
                Operation::Unary(u) => {
                    decide_logic(&mut u.expr, ctx);
                    None
                }
                Operation::Binary(b) => {
                    decide_logic(&mut b.lhs_expr, ctx);
                    decide_logic(&mut b.rhs_expr, ctx);
                    let decisive = match b.operator {
                        BinaryOperator::And => Some(false),
                        BinaryOperator::Or => Some(true),
                        _ => None,
                    };
                    decisive.filter(|d| {
                        [&b.lhs_expr, &b.rhs_expr]
                            .iter()
                            .any(|x| x.evaluate(ctx).ok() == Some(Value::Bool(*d)))
                    })
                }
            };
            if let Some(d) = decided {
                *e = E::Bool(d);
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Functions. hcl-rs ships none, so the few that counts and for_each commonly use are written here,
// following OpenTofu's documented behaviour for the value shapes hcl-rs has.

fn declare_functions(ctx: &mut Context) {
    let one = |f| FuncDef::builder().param(ParamType::Any).build(f);
    let two = |f| {
        FuncDef::builder()
            .param(ParamType::Any)
            .param(ParamType::Any)
            .build(f)
    };
    let variadic = |f| FuncDef::builder().variadic_param(ParamType::Any).build(f);
    ctx.declare_func(FUEL_FN, one(f_fuel));
    ctx.declare_func("length", one(f_length));
    ctx.declare_func("toset", one(f_toset));
    ctx.declare_func("tolist", one(f_tolist));
    ctx.declare_func("tomap", one(f_tomap));
    ctx.declare_func("keys", one(f_keys));
    ctx.declare_func("values", one(f_values));
    ctx.declare_func("distinct", one(f_distinct));
    ctx.declare_func("compact", one(f_compact));
    ctx.declare_func("flatten", one(f_flatten));
    ctx.declare_func("tostring", one(f_tostring));
    ctx.declare_func("tonumber", one(f_tonumber));
    ctx.declare_func("tobool", one(f_tobool));
    ctx.declare_func("contains", two(f_contains));
    ctx.declare_func("range", variadic(f_range));
    ctx.declare_func("concat", variadic(f_concat));
    ctx.declare_func("merge", variadic(f_merge));
    ctx.declare_func("min", variadic(f_min));
    ctx.declare_func("max", variadic(f_max));
    ctx.declare_func("coalesce", variadic(f_coalesce));
    ctx.declare_func(
        "lookup",
        FuncDef::builder()
            .param(ParamType::Any)
            .param(ParamType::Any)
            .variadic_param(ParamType::Any)
            .build(f_lookup),
    );
}

fn arg(args: &FuncArgs, i: usize) -> Result<&Value, String> {
    args.get(i)
        .ok_or_else(|| format!("missing argument {}", i + 1))
}

fn array(v: &Value, what: &str) -> Result<Vec<Value>, String> {
    match v {
        Value::Array(a) => Ok(a.clone()),
        other => Err(format!("{what}: {other} is not a list or set")),
    }
}

fn f_length(args: FuncArgs) -> Result<Value, String> {
    match arg(&args, 0)? {
        Value::Array(a) => Ok(Value::from(a.len() as u64)),
        Value::Object(o) => Ok(Value::from(o.len() as u64)),
        Value::String(s) => Ok(Value::from(s.chars().count() as u64)),
        other => Err(format!("length: {other} has no length")),
    }
}

/// A set: distinct elements, strings in lexical order (cty's order for a set of strings).
fn set_of(items: Vec<Value>) -> Value {
    let mut out: Vec<Value> = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    if out.iter().all(Value::is_string) {
        out.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
    }
    Value::Array(out)
}

fn f_toset(args: FuncArgs) -> Result<Value, String> {
    Ok(set_of(array(arg(&args, 0)?, "toset")?))
}

fn f_tolist(args: FuncArgs) -> Result<Value, String> {
    Ok(Value::Array(array(arg(&args, 0)?, "tolist")?))
}

fn f_tomap(args: FuncArgs) -> Result<Value, String> {
    match arg(&args, 0)? {
        v @ Value::Object(_) => Ok(v.clone()),
        other => Err(format!("tomap: {other} is not an object")),
    }
}

fn sorted_object(v: &Value, what: &str) -> Result<BTreeMap<String, Value>, String> {
    match v {
        Value::Object(o) => Ok(o.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
        other => Err(format!("{what}: {other} is not a map or object")),
    }
}

fn f_keys(args: FuncArgs) -> Result<Value, String> {
    let m = sorted_object(arg(&args, 0)?, "keys")?;
    Ok(Value::Array(m.into_keys().map(Value::String).collect()))
}

fn f_values(args: FuncArgs) -> Result<Value, String> {
    let m = sorted_object(arg(&args, 0)?, "values")?;
    Ok(Value::Array(m.into_values().collect()))
}

fn f_distinct(args: FuncArgs) -> Result<Value, String> {
    let mut out: Vec<Value> = Vec::new();
    for i in array(arg(&args, 0)?, "distinct")? {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    Ok(Value::Array(out))
}

fn f_compact(args: FuncArgs) -> Result<Value, String> {
    Ok(Value::Array(
        array(arg(&args, 0)?, "compact")?
            .into_iter()
            .filter(|v| !v.is_null() && v.as_str() != Some(""))
            .collect(),
    ))
}

fn flatten_into(v: Value, out: &mut Vec<Value>) {
    match v {
        Value::Array(a) => a.into_iter().for_each(|x| flatten_into(x, out)),
        other => out.push(other),
    }
}

fn f_flatten(args: FuncArgs) -> Result<Value, String> {
    let mut out = Vec::new();
    for v in array(arg(&args, 0)?, "flatten")? {
        flatten_into(v, &mut out);
    }
    charge(out.len())?;
    Ok(Value::Array(out))
}

fn f_tostring(args: FuncArgs) -> Result<Value, String> {
    match arg(&args, 0)? {
        Value::String(s) => Ok(Value::String(s.clone())),
        Value::Number(n) => Ok(Value::String(n.to_string())),
        Value::Bool(b) => Ok(Value::String(b.to_string())),
        Value::Null => Ok(Value::Null),
        other => Err(format!("tostring: cannot convert {other}")),
    }
}

fn f_tonumber(args: FuncArgs) -> Result<Value, String> {
    match arg(&args, 0)? {
        v @ (Value::Number(_) | Value::Null) => Ok(v.clone()),
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(hcl::Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| format!("tonumber: {s:?} is not a number")),
        other => Err(format!("tonumber: cannot convert {other}")),
    }
}

fn f_tobool(args: FuncArgs) -> Result<Value, String> {
    match arg(&args, 0)? {
        v @ (Value::Bool(_) | Value::Null) => Ok(v.clone()),
        Value::String(s) if s == "true" => Ok(Value::Bool(true)),
        Value::String(s) if s == "false" => Ok(Value::Bool(false)),
        other => Err(format!("tobool: cannot convert {other}")),
    }
}

fn f_contains(args: FuncArgs) -> Result<Value, String> {
    let list = array(arg(&args, 0)?, "contains")?;
    Ok(Value::Bool(list.contains(arg(&args, 1)?)))
}

fn num(v: &Value, what: &str) -> Result<f64, String> {
    v.as_f64()
        .ok_or_else(|| format!("{what}: {v} is not a number"))
}

fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::from(x as i64)
    } else {
        hcl::Number::from_f64(x).map_or(Value::Null, Value::Number)
    }
}

fn f_range(args: FuncArgs) -> Result<Value, String> {
    let n: Vec<f64> = args
        .iter()
        .map(|v| num(v, "range"))
        .collect::<Result<_, _>>()?;
    let (start, end, step) = match n.as_slice() {
        [e] => (0.0, *e, 1.0),
        [s, e] => (*s, *e, if s <= e { 1.0 } else { -1.0 }),
        [s, e, st] => (*s, *e, *st),
        _ => return Err("range: takes one to three numbers".into()),
    };
    if step == 0.0 {
        return Err("range: step must not be zero".into());
    }
    let mut out = Vec::new();
    let mut x = start;
    while (step > 0.0 && x < end) || (step < 0.0 && x > end) {
        charge(1)?;
        out.push(number(x));
        x += step;
        if out.len() > 1_000_000 {
            return Err("range: more than 1000000 elements".into());
        }
    }
    Ok(Value::Array(out))
}

fn f_concat(args: FuncArgs) -> Result<Value, String> {
    let mut out = Vec::new();
    for a in args.iter() {
        let items = array(a, "concat")?;
        charge(items.len())?;
        out.extend(items);
    }
    Ok(Value::Array(out))
}

fn f_merge(args: FuncArgs) -> Result<Value, String> {
    let mut out = hcl::Map::new();
    for a in args.iter() {
        match a {
            Value::Object(o) => {
                charge(o.len())?;
                out.extend(o.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            Value::Null => {}
            other => return Err(format!("merge: {other} is not a map or object")),
        }
    }
    Ok(Value::Object(out))
}

fn extreme(args: &FuncArgs, what: &str, pick_max: bool) -> Result<Value, String> {
    let mut best: Option<f64> = None;
    for a in args.iter() {
        let x = num(a, what)?;
        best = Some(match best {
            Some(b) if (pick_max && b >= x) || (!pick_max && b <= x) => b,
            _ => x,
        });
    }
    best.map(number)
        .ok_or_else(|| format!("{what}: needs at least one number"))
}

fn f_min(args: FuncArgs) -> Result<Value, String> {
    extreme(&args, "min", false)
}

fn f_max(args: FuncArgs) -> Result<Value, String> {
    extreme(&args, "max", true)
}

fn f_coalesce(args: FuncArgs) -> Result<Value, String> {
    args.iter()
        .find(|v| !v.is_null() && v.as_str() != Some(""))
        .cloned()
        .ok_or_else(|| "coalesce: no non-null, non-empty argument".into())
}

fn f_lookup(args: FuncArgs) -> Result<Value, String> {
    let m = sorted_object(arg(&args, 0)?, "lookup")?;
    let key = match arg(&args, 1)? {
        Value::String(s) => s.clone(),
        other => return Err(format!("lookup: key {other} is not a string")),
    };
    match (m.get(&key), args.get(2)) {
        (Some(v), _) => Ok(v.clone()),
        (None, Some(d)) => Ok(d.clone()),
        (None, None) => Err(format!("lookup: no key {key:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::load_files;

    fn eval_of(main: &str, vars: &[&str]) -> StaticEval {
        let files = BTreeMap::from([("main.tf".to_string(), main.to_string())]);
        let (cfg, diags) = load_files(&files);
        let cfg = cfg.unwrap_or_else(|| panic!("{diags:?}"));
        StaticEval::new(cfg, &vars.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    fn names(e: &mut StaticEval, r: &str) -> Result<Vec<String>, Unknown> {
        let (t, n) = r.split_once('.').expect("type.name");
        let res = addrs::Resource::new(addrs::ResourceMode::Managed, t, n);
        e.resource_instances(&addrs::Module::root(), &res)
            .map(|v| v.iter().map(|i| i.to_string()).collect())
    }

    // Found by fuzzing (config_builders): the walk's expander allocated every instance of a
    // `count = 100000000` and ran out of memory.
    #[test]
    fn huge_counts_are_unknown_not_allocated() {
        let mut e = eval_of("resource \"a_b\" \"c\" {\n  count = 100000000\n}\n", &[]);
        let err = names(&mut e, "a_b.c").expect_err("too many");
        assert_eq!(
            err,
            "count = 100000000 gives 100000000 instances, more than the 10000 tfgraph expands"
        );
        let mut e = eval_of("resource \"a_b\" \"c\" {\n  count = 10000\n}\n", &[]);
        assert_eq!(names(&mut e, "a_b.c").map(|v| v.len()), Ok(10_000));
    }

    // Found by fuzzing: 200 module instances times 200 resource instances each.
    #[test]
    fn instances_across_module_instances_are_bounded() {
        let files = BTreeMap::from([
            (
                "main.tf".to_string(),
                "module \"m\" {\n  source = \"./m\"\n  count = 200\n}\n".to_string(),
            ),
            (
                "m/main.tf".to_string(),
                "resource \"a_b\" \"c\" {\n  count = 200\n}\n".to_string(),
            ),
        ]);
        let (cfg, diags) = load_files(&files);
        let mut e = StaticEval::new(cfg.unwrap_or_else(|| panic!("{diags:?}")), &[]);
        let res = addrs::Resource::new(addrs::ResourceMode::Managed, "a_b", "c");
        let err = e
            .resource_instances(&addrs::Module(vec!["m".into()]), &res)
            .expect_err("too many");
        assert!(err.starts_with("a_b.c gives 10200 instances"), "{err}");
        assert_eq!(
            e.module_instances(&addrs::Module(vec!["m".into()]))
                .map(|v| v.len()),
            Ok(200)
        );
    }

    // Found by fuzzing: loops inside loops and many large function results in one expression
    // hung or ran out of memory; they now run out of fuel and are unknown.
    #[test]
    fn evaluation_is_metered() {
        let text = "locals {\n  a = range(1000)\n  small = flatten([for x in range(3) : [for y in range(2) : \"${x}-${y}\" if y > 0]])\n  big = [for x in local.a : [for y in local.a : [for z in local.a : 1]]]\n  keyed = {for x in range(5) : tostring(x) => x}\n}\n\
resource \"a_b\" \"small\" {\n  for_each = toset(local.small)\n}\n\
resource \"a_b\" \"keyed\" {\n  for_each = local.keyed\n}\n\
resource \"a_b\" \"big\" {\n  count = length(local.big)\n}\n\
resource \"a_b\" \"ranges\" {\n  count = length([range(1000000), range(1000000), range(1000000), range(1000000), range(1000000)])\n}\n\
resource \"a_b\" \"tmpl\" {\n  count = length(\"%{ for x in local.a }${x}%{ endfor }\")\n}\n";
        let mut e = eval_of(text, &[]);
        assert_eq!(
            names(&mut e, "a_b.small"),
            Ok(vec![
                "a_b.small[\"0-1\"]".to_string(),
                "a_b.small[\"1-1\"]".to_string(),
                "a_b.small[\"2-1\"]".to_string()
            ])
        );
        assert_eq!(names(&mut e, "a_b.keyed").map(|v| v.len()), Ok(5));
        for r in ["a_b.big", "a_b.ranges", "a_b.tmpl"] {
            let err = names(&mut e, r).expect_err(r);
            assert!(err.contains("is unknown"), "{r}: {err}");
        }
        let err = names(&mut e, "a_b.ranges").expect_err("ranges");
        assert!(err.contains("more than 1000000 steps"), "{err}");
    }

    // Found by fuzzing: 4,000 interpolations of a 900 KB local in one template ran out of memory;
    // so would a tuple of 4,000 references to it.
    #[test]
    fn templates_copying_large_values_are_unknown() {
        let a = "x".repeat(1000);
        let b = "${local.a}".repeat(900);
        let c = "${local.b}".repeat(4000);
        let d = "${local.a}${local.b}";
        let tuple = vec!["local.b"; 4000].join(", ");
        let text = format!(
            "locals {{\n  a = \"{a}\"\n  b = \"{b}\"\n  c = \"{c}\"\n  d = \"{d}\"\n}}\n\
resource \"a_b\" \"c\" {{\n  count = length(local.c) > 0 ? 1 : 0\n}}\n\
resource \"a_b\" \"d\" {{\n  count = length(local.d) > 0 ? 1 : 0\n}}\n\
resource \"a_b\" \"t\" {{\n  count = length([{tuple}])\n}}\n"
        );
        let mut e = eval_of(&text, &[]);
        let err = names(&mut e, "a_b.c").expect_err("unknown");
        assert!(
            err.starts_with("count = length(local.c) > 0 ? 1 : 0 is unknown"),
            "{err}"
        );
        assert_eq!(names(&mut e, "a_b.d").map(|v| v.len()), Ok(1));
        let err = names(&mut e, "a_b.t").expect_err("unknown");
        assert!(
            err.contains("4000 references could copy more than"),
            "{err}"
        );
    }

    // Found by fuzzing: each local four times the one before, twelve deep, made a 268-million
    // character string, then a count of that length.
    #[test]
    fn exponentially_growing_locals_become_unknown() {
        let mut text = "locals {\n  l0 = \"xxxxxxxxxxxxxxxx\"\n".to_string();
        for i in 1..=14 {
            let p = format!("${{local.l{}}}", i - 1);
            text += &format!("  l{i} = \"{p}{p}{p}{p}\"\n");
        }
        text += "}\nresource \"a_b\" \"c\" {\n  count = length(local.l14)\n}\n";
        text += "resource \"a_b\" \"d\" {\n  count = length(local.l7) > 0 ? 1 : 0\n}\n";
        let mut e = eval_of(&text, &[]);
        let err = names(&mut e, "a_b.c").expect_err("unknown");
        assert!(
            err.starts_with("count = length(local.l14) is unknown"),
            "{err}"
        );
        // 16 * 4^7 characters is within the limit.
        assert_eq!(names(&mut e, "a_b.d").map(|v| v.len()), Ok(1));
    }

    #[test]
    fn literals_variables_locals_and_functions() {
        let mut e = eval_of(
            r#"
variable "n" { default = 2 }
variable "typed" { type = number }
variable "names" { default = ["b", "a", "b"] }
locals {
  m = { x = 1, y = 2 }
  later = length(local.set) + 1
  set = toset(var.names)
}
resource "a_r" "lit" { count = 3 }
resource "a_r" "def" { count = var.n }
resource "a_r" "typed" { count = var.typed }
resource "a_r" "map" { for_each = local.m }
resource "a_r" "set" { for_each = local.set }
resource "a_r" "loc" { count = local.later }
resource "a_r" "one" {}
resource "a_r" "cond" { count = var.n > 1 ? 0 : 1 }
resource "a_r" "unknown" { count = length(a_r.lit) }
resource "a_r" "gated" { count = var.n < 0 && length(a_r.lit) > 0 ? 1 : 0 }
resource "a_r" "open" { count = (var.n > 0 || a_r.lit) ? 1 : 0 }
resource "a_r" "off" {
  lifecycle { enabled = false }
}
"#,
            &["typed=4"],
        );
        assert_eq!(names(&mut e, "a_r.lit").unwrap().len(), 3);
        assert_eq!(
            names(&mut e, "a_r.def").unwrap(),
            vec!["a_r.def[0]", "a_r.def[1]"]
        );
        assert_eq!(names(&mut e, "a_r.typed").unwrap().len(), 4);
        assert_eq!(
            names(&mut e, "a_r.map").unwrap(),
            vec![r#"a_r.map["x"]"#, r#"a_r.map["y"]"#]
        );
        assert_eq!(
            names(&mut e, "a_r.set").unwrap(),
            vec![r#"a_r.set["a"]"#, r#"a_r.set["b"]"#]
        );
        assert_eq!(names(&mut e, "a_r.loc").unwrap().len(), 3);
        assert_eq!(names(&mut e, "a_r.one").unwrap(), vec!["a_r.one"]);
        assert!(names(&mut e, "a_r.cond").unwrap().is_empty());
        let err = names(&mut e, "a_r.unknown").unwrap_err();
        assert!(err.contains("count = length(a_r.lit) is unknown"), "{err}");
        assert!(names(&mut e, "a_r.off").unwrap().is_empty());
        assert!(names(&mut e, "a_r.gated").unwrap().is_empty());
        assert_eq!(names(&mut e, "a_r.open").unwrap().len(), 1);
    }

    #[test]
    fn var_from_the_command_line_is_a_string_without_a_type_and_count_converts_it() {
        let mut e = eval_of(
            "variable \"n\" {}\nresource \"a_r\" \"x\" { count = var.n }\n",
            &["n=2"],
        );
        assert_eq!(names(&mut e, "a_r.x").unwrap().len(), 2);
        let mut none = eval_of(
            "variable \"n\" {}\nresource \"a_r\" \"x\" { count = var.n }\n",
            &[],
        );
        assert!(names(&mut none, "a_r.x").is_err());
    }
}
