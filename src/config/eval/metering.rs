//! Bounds on the work one evaluation may do, because hcl-rs's evaluator has none: the size of
//! a value in scope ([`MAX_VALUE_SIZE`]), the copies one expression may make of them, and fuel
//! spent by every `for` iteration and every element a function builds. All found necessary by
//! fuzzing (hangs and out-of-memory on small inputs).

use hcl::Value;
use hcl::eval::FuncArgs;

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
pub(super) fn bounded(v: Value) -> Option<Value> {
    (value_size(&v) <= MAX_VALUE_SIZE).then_some(v)
}

/// Steps one evaluation may take (an iteration of a `for`, an element a function builds) before
/// its value counts as unknown. Values in scope are bounded ([`MAX_VALUE_SIZE`]), but a `for`
/// inside a `for` multiplies their sizes, and `[range(1000000), range(1000000), …]` builds many
/// bounded values at once: both hung or ran out of memory (found by fuzzing).
pub(super) const EVAL_FUEL: usize = 1_000_000;

/// Most one expression may copy from its scope: references times the largest value in scope
/// (see [`eval`]).
pub(super) const MAX_COPIED_SIZE: usize = 4 * MAX_VALUE_SIZE;

/// The name of the metering function [`metered`] wraps around every `for` body.
pub(super) const FUEL_FN: &str = "__tfgraph_fuel";

thread_local! {
    /// Fuel left to the evaluation under way (evaluation is single-threaded and not re-entrant).
    static FUEL: std::cell::Cell<usize> = const { std::cell::Cell::new(EVAL_FUEL) };
}

/// Fills the tank for a new evaluation.
pub(super) fn refuel() {
    FUEL.with(|f| f.set(EVAL_FUEL));
}

/// Uses `n` steps of the evaluation's fuel; `Err` once it is spent.
pub(super) fn charge(n: usize) -> Result<(), String> {
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
pub(super) fn f_fuel(args: FuncArgs) -> Result<Value, String> {
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
pub(super) fn metered(e: &mut hcl::Expression) {
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
            if has_for_directive(text) {
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
pub(super) fn has_for(e: &hcl::Expression) -> bool {
    let mut copy = e.clone();
    let before = copy.clone();
    metered(&mut copy);
    copy != before
}

/// Whether a template's text holds a `%{ for … }` directive: `%{`, an optional `~`, any
/// whitespace, `for`, then whitespace (the pattern `%\{~?\s*for\s`, with Unicode whitespace as
/// regex's `\s` has it). Written out rather than matched by a regex so that the page's wasm
/// carries no regex engine: this was its only regex, and the engine with its Unicode tables was
/// the largest dependency in the bundle (issue 14).
pub(super) fn has_for_directive(text: &str) -> bool {
    text.match_indices("%{").any(|(i, _)| {
        let rest = &text[i + 2..];
        let rest = rest.strip_prefix('~').unwrap_or(rest).trim_start();
        rest.strip_prefix("for")
            .and_then(|r| r.chars().next())
            .is_some_and(char::is_whitespace)
    })
}

#[cfg(test)]
mod tests {
    use super::has_for_directive;

    #[test]
    fn the_for_directive_scan_agrees_with_its_pattern() {
        // The pattern the scan replaced, checked natively (the crate keeps regex for the
        // conformance runner).
        let re = regex::Regex::new(r"%\{~?\s*for\s").expect("pattern");
        let cases = [
            "%{ for x in xs }${x}%{ endfor }",
            "%{for x in xs}",
            "%{~ for x in xs ~}",
            "%{~for\tx in xs}",
            "%{\u{a0}for\u{2003}x in xs}",
            "%{ fork }",
            "%{ for}",
            "%{ forx in y}",
            "%{ if a }%{ for x in y }",
            "%%{ for x in y }",
            "% { for x in y }",
            "%{~~ for x in y }",
            "for x in y",
            "${for x in y : x}",
            "%{",
            "%{ ",
            "%{ for",
            "",
            "%{\n  for x in y\n}",
        ];
        for c in cases {
            assert_eq!(has_for_directive(c), re.is_match(c), "{c:?}");
        }
        assert!(has_for_directive("%{ for x in xs }"));
        assert!(!has_for_directive("%{ fork }"));
    }
}
