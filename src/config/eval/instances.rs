//! How many instances a module call or resource has ([`StaticEval`]): root variables from `-var`,
//! module instances expanded from the root down with their memoised scopes (variables from the
//! calling instance, locals), then `count` / `for_each` / `enabled` evaluated in each. Bounded by
//! [`MAX_INSTANCES`].

use super::metering::{bounded, value_size};
use super::scope::{Instance, Scope, eval, eval_const};
use crate::addrs::{self, InstanceKey, ModuleInstance};
use crate::config::model::{Config, Expr, Variable};
use hcl::Value;
use std::collections::BTreeMap;

/// Why an instance set is not known (the expression and what failed).
pub type Unknown = String;

/// Most instances one module call or resource may have (across the instances of its module)
/// before its instance set counts as unknown: a `count = 100000000` would otherwise allocate
/// every instance (found by fuzzing: out of memory), and no drawing or walk of that many
/// vertices is useful in a browser tab.
pub const MAX_INSTANCES: usize = 10_000;

/// `Err` when a list of instances is longer than [`MAX_INSTANCES`]; `what` names its expression.
pub(super) fn check_instances<T>(
    v: Vec<T>,
    what: impl FnOnce() -> String,
) -> Result<Vec<T>, Unknown> {
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
    match crate::config::decode::parse_expr_checked(raw) {
        Some(e) => {
            super::arith::evaluate_constant(&e).unwrap_or_else(|_| Value::String(raw.to_string()))
        }
        None => Value::String(raw.to_string()),
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

    /// With root variable values already resolved (see [`crate::config::vars::resolve`]).
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
            modules: BTreeMap::new(),
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
    fn keys_in(
        &mut self,
        mi: &ModuleInstance,
        count: Option<&Expr>,
        for_each: Option<&Expr>,
        enabled: Option<&Expr>,
    ) -> Result<Vec<Instance>, Unknown> {
        let scope = self.scope(mi);
        instance_keys_with(|e| eval(e, &scope, None), count, for_each, enabled)
    }
}

/// The instance keys `count` / `for_each` / `enabled` give when `value` evaluates them (in the
/// module instance they are declared in): none when `enabled` is false, `0..count`, the keys of
/// a `for_each` map or set (sorted, as cty orders them), else the one unkeyed instance. `Err`
/// names the expression and why its instances are not known.
pub fn instance_keys_with(
    mut value: impl FnMut(&Expr) -> Result<Value, String>,
    count: Option<&Expr>,
    for_each: Option<&Expr>,
    enabled: Option<&Expr>,
) -> Result<Vec<Instance>, Unknown> {
    if let Some(e) = enabled {
        let v = value(e).map_err(|err| format!("enabled = {} is unknown ({err})", e.text()))?;
        match v {
            Value::Bool(false) => return Ok(Vec::new()),
            Value::Bool(true) => {}
            other => return Err(format!("enabled = {} is not a bool: {other}", e.text())),
        }
    }
    if let Some(e) = count {
        let v = value(e).map_err(|err| format!("count = {} is unknown ({err})", e.text()))?;
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
        let v = value(e).map_err(|err| format!("for_each = {} is unknown ({err})", e.text()))?;
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

/// A count value: a whole non-negative number, or a string holding one (OpenTofu converts).
pub(super) fn as_count(v: &Value) -> Option<i64> {
    let n = match v {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    (n >= 0.0 && n.fract() == 0.0 && n < 1e9).then_some(n as i64)
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

    // Found by fuzzing (var_files): hcl-rs's `%` panics on a zero divisor in every build. cty's
    // Value.Modulo gives the dividend back; `0 / 0` is an error, so the count is unknown.
    #[test]
    fn arithmetic_in_a_count_is_cty_s_and_never_panics() {
        let mut e = eval_of(
            "locals {\n  n = 5 % 0\n}\nresource \"a_b\" \"c\" {\n  count = local.n * 2 - 9\n}\nresource \"a_b\" \"d\" {\n  count = 0 / 0\n}\n",
            &[],
        );
        assert_eq!(names(&mut e, "a_b.c"), Ok(vec!["a_b.c[0]".to_string()]));
        let err = names(&mut e, "a_b.d").expect_err("unknown");
        assert!(err.contains("can't divide zero by zero"), "{err}");
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
            .resource_instances(&addrs::Module(vec!["m".into()].into()), &res)
            .expect_err("too many");
        assert!(err.starts_with("a_b.c gives 10200 instances"), "{err}");
        assert_eq!(
            e.module_instances(&addrs::Module(vec!["m".into()].into()))
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
