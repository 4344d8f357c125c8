//! What one expression can see and how it is evaluated: the values known in a module instance
//! ([`Scope`]), the instance's `count.index` / `each.key` / `each.value` ([`Instance`]), and
//! [`eval`], which evaluates with hcl-rs's evaluator in that context, metered, after deciding
//! `&&`/`||` whose answer one known side already gives.

use super::functions::declare_functions;
use super::metering::{MAX_COPIED_SIZE, metered, refuel, value_size};
use crate::addrs::InstanceKey;
use crate::config::model::Expr;
use hcl::Value;
use hcl::eval::{Context, Evaluate};
use std::collections::BTreeMap;

/// The values known in one module instance. A variable or local whose value is unknown is absent;
/// its reason is in `unknown`.
#[derive(Debug, Clone, Default)]
pub(super) struct Scope {
    pub(super) vars: BTreeMap<String, Value>,
    pub(super) locals: BTreeMap<String, Value>,
    /// `module.NAME` objects (module call outputs), when the caller knows them: [`evaluate`]'s
    /// callers do; the instance expansion of [`super::StaticEval`] does not.
    pub(super) modules: BTreeMap<String, Value>,
    /// The [`value_size`] of the largest value in `vars`, `locals` and `modules`.
    pub(super) largest: usize,
}

/// Named values an expression may read, given by a caller that resolves references itself
/// (`inside::values`): `var.*`, `local.*` and `module.*` (each call's outputs as an object, a
/// list of them for `count`, a map for `for_each`). What is absent is unknown.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bindings {
    pub vars: BTreeMap<String, Value>,
    pub locals: BTreeMap<String, Value>,
    pub modules: BTreeMap<String, Value>,
}

/// Evaluates `e` with hcl-rs's evaluator, with the values of `b` and `count.index` / `each.*`
/// of `inst`, metered and bounded as the instance expansion is. `Err` says why in hcl-rs's or
/// cty's words (an undefined name: something `b` does not hold).
pub fn evaluate(e: &Expr, b: &Bindings, inst: Option<&Instance>) -> Result<Value, String> {
    let largest = b
        .vars
        .values()
        .chain(b.locals.values())
        .chain(b.modules.values())
        .map(value_size)
        .max()
        .unwrap_or(0);
    let scope = Scope {
        vars: b.vars.clone(),
        locals: b.locals.clone(),
        modules: b.modules.clone(),
        largest,
    };
    eval(e, &scope, inst)
}

/// One instance of a repeated object: its key and, for `for_each`, `each.value`.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    pub key: InstanceKey,
    pub each_value: Option<Value>,
}

/// Evaluates a constant expression (a variable default).
pub(super) fn eval_const(e: &Expr) -> Result<Value, String> {
    eval(e, &Scope::default(), None)
}

/// Evaluates `e` with the values of `scope`, plus `count.index` / `each.*` for `inst`.
pub(super) fn eval(e: &Expr, scope: &Scope, inst: Option<&Instance>) -> Result<Value, String> {
    let mut ctx = Context::new();
    let obj = |m: &BTreeMap<String, Value>| {
        Value::Object(m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
    };
    ctx.declare_var("var", obj(&scope.vars));
    ctx.declare_var("local", obj(&scope.locals));
    if !scope.modules.is_empty() {
        ctx.declare_var("module", obj(&scope.modules));
    }
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
    let references = ["local.", "var.", "each.", "module."]
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
    let mut expr = super::arith::guarded(&e.expr);
    metered(&mut expr);
    refuel();
    decide_logic(&mut expr, &ctx);
    expr.evaluate(&ctx)
        .map_err(|err| super::arith::error_text(&err))
}

/// Replaces `a && b` by `false` when either side is known to be false, and `a || b` by `true`
/// when either is known true, even if the other side is unknown. OpenTofu gets the same answer
/// (cty knows `false && unknown` is false); hcl-rs evaluates both sides and would fail on the
/// unknown one. Modules gate counts this way (`local.create && var.x > 0 ? 1 : 0`).
pub(super) fn decide_logic(e: &mut hcl::Expression, ctx: &Context) {
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
