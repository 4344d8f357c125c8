//! Arithmetic (`+ - * / %`) as cty computes it, in place of hcl-rs's operators.
//!
//! hcl-rs evaluates numbers as `u64`/`i64`/finite `f64`: `5 % 0` panics (integer remainder by
//! zero), an integer sum past `u64::MAX` overflows, and `1 / 0` or `1e308 * 10` trips a
//! `debug_assert!` on a non-finite float (found by fuzzing the variable files). OpenTofu's cty
//! numbers are arbitrary-precision and cannot fail that way, so a user's `count = 5 % 0` must
//! never take the page down. Before evaluation every arithmetic operation in an expression —
//! string template interpolations included — is rewritten into a call of [`ARITH_FN`], a function
//! of ours that computes in `i128`/`f64` with checks:
//! - `x % 0` is `x`, as cty's `Value.Modulo` gives;
//! - `0 / 0` fails with cty's `DivideFunc` wording ("can't divide zero by zero or infinity by
//!   infinity");
//! - a result cty would give but hcl-rs cannot hold (an infinity from `x / 0`, a float beyond
//!   `f64`) fails with a message that says so: the value is then unknown to the static
//!   evaluation rather than wrong.
//!
//! hcl-edit's `VisitMut` does the walk, so no kind of expression is missed.

use hcl::Value;
use hcl::edit::expr::{BinaryOperator, Expression, FuncArgs, FuncCall};
use hcl::edit::visit_mut::{VisitMut, visit_expr_mut};
use hcl::eval::{Context, FuncArgs as EvalArgs, FuncDef, ParamType};

/// The name the rewritten operations call; not a name users can write by accident.
pub(super) const ARITH_FN: &str = "__tfgraph_arith";

fn symbol(op: BinaryOperator) -> Option<&'static str> {
    Some(match op {
        BinaryOperator::Plus => "+",
        BinaryOperator::Minus => "-",
        BinaryOperator::Mul => "*",
        BinaryOperator::Div => "/",
        BinaryOperator::Mod => "%",
        _ => return None,
    })
}

struct Rewrite;

impl VisitMut for Rewrite {
    fn visit_expr_mut(&mut self, node: &mut Expression) {
        visit_expr_mut(self, node);
        let Expression::BinaryOp(op) = node else {
            return;
        };
        let Some(sym) = symbol(*op.operator.value()) else {
            return;
        };
        use hcl::edit::Span as _;
        let span = |r: Option<std::ops::Range<usize>>| {
            r.map_or("-".to_string(), |r| format!("{}-{}", r.start, r.end))
        };
        // Where HCL puts each diagnostic: the whole operation ("Operation failed"), or the operand
        // that is not a number ("Invalid operand"); hclsyntax/expression_ops.go BinaryOpExpr.Value.
        let spans = format!(
            "{} {} {}",
            span(op.span()),
            span(op.lhs_expr.span()),
            span(op.rhs_expr.span())
        );
        let lhs = std::mem::replace(
            &mut op.lhs_expr,
            Expression::Null(hcl::edit::expr::Null.into()),
        );
        let rhs = std::mem::replace(
            &mut op.rhs_expr,
            Expression::Null(hcl::edit::expr::Null.into()),
        );
        let mut args = FuncArgs::new();
        args.push(lhs);
        args.push(sym);
        args.push(rhs);
        args.push(spans);
        *node = Expression::FuncCall(Box::new(FuncCall::new(
            hcl::edit::Ident::new(ARITH_FN),
            args,
        )));
    }
}

/// `expr` converted for hcl-rs's evaluator, with its arithmetic routed through [`ARITH_FN`].
pub(crate) fn guarded(expr: &Expression) -> hcl::Expression {
    let mut copy = expr.clone();
    Rewrite.visit_expr_mut(&mut copy);
    hcl::Expression::from(copy)
}

/// Declares [`ARITH_FN`]; every context that evaluates a [`guarded`] expression needs it.
pub(crate) fn declare(ctx: &mut Context) {
    ctx.declare_func(
        ARITH_FN,
        FuncDef::builder()
            .param(ParamType::Any)
            .param(ParamType::String)
            .param(ParamType::Any)
            .param(ParamType::String)
            .build(f_arith),
    );
}

/// Evaluates an expression that may use no variables and no functions (a variable file's value,
/// a `-var` value).
pub(crate) fn evaluate_constant(expr: &Expression) -> Result<Value, hcl::eval::Error> {
    use hcl::eval::Evaluate as _;
    let mut ctx = Context::new();
    declare(&mut ctx);
    guarded(expr).evaluate(&ctx)
}

/// A failed operation, as HCL reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OperationError {
    pub summary: &'static str,
    pub detail: String,
    /// Byte offsets in the source the expression was parsed from, when it kept spans.
    pub span: Option<std::ops::Range<usize>>,
}

/// Separates the fields [`f_arith`] packs into its error message.
const SEP: char = '\u{1f}';

/// [`ARITH_FN`]'s own error, told in the user's terms (the operation they wrote) rather than as a
/// call of a function they never wrote; `None` for any other evaluation error.
pub(crate) fn operation_error(err: &hcl::eval::Error) -> Option<OperationError> {
    let hcl::eval::ErrorKind::FuncCall(name, msg) = err.kind() else {
        return None;
    };
    if name.to_string() != ARITH_FN {
        return None;
    }
    let mut parts = msg.splitn(3, SEP);
    let (summary, span, detail) = (parts.next()?, parts.next()?, parts.next()?);
    let summary = if summary == "operand" {
        "Invalid operand"
    } else {
        "Operation failed"
    };
    let span = span
        .split_once('-')
        .and_then(|(a, b)| Some(a.parse().ok()?..b.parse().ok()?));
    Some(OperationError {
        summary,
        detail: detail.to_string(),
        span,
    })
}

/// The message of an evaluation error (for an operation, HCL's detail line).
pub(crate) fn error_text(err: &hcl::eval::Error) -> String {
    operation_error(err).map_or_else(|| err.to_string(), |e| e.detail)
}

/// A number as an exact integer when it is one, else as a float.
enum Num {
    Int(i128),
    Float(f64),
}

fn num(v: &Value, side: &str) -> Result<Num, String> {
    let n = match v {
        Value::Number(n) => *n,
        // HCL converts a string operand to a number when it reads as one (`"2" * 3` is 6).
        Value::String(s) => {
            let s = s.trim();
            if let Ok(i) = s.parse::<i128>() {
                return Ok(Num::Int(i));
            }
            match s.parse::<f64>().ok().and_then(hcl::Number::from_f64) {
                Some(n) => n,
                None => {
                    return Err(format!(
                        "Unsuitable value for {side} operand: a number is required."
                    ));
                }
            }
        }
        _ => {
            return Err(format!(
                "Unsuitable value for {side} operand: a number is required."
            ));
        }
    };
    Ok(if let Some(i) = n.as_i64() {
        Num::Int(i128::from(i))
    } else if let Some(u) = n.as_u64() {
        Num::Int(i128::from(u))
    } else {
        Num::Float(n.as_f64().unwrap_or(f64::NAN))
    })
}

fn float(n: &Num) -> f64 {
    match *n {
        #[allow(clippy::cast_precision_loss)]
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    }
}

fn from_int(i: i128) -> Result<Value, String> {
    if let Ok(v) = i64::try_from(i) {
        Ok(Value::from(v))
    } else if let Ok(v) = u64::try_from(i) {
        Ok(Value::from(v))
    } else {
        #[allow(clippy::cast_precision_loss)]
        from_float(i as f64)
    }
}

fn from_float(f: f64) -> Result<Value, String> {
    hcl::Number::from_f64(f).map(Value::Number).ok_or_else(|| {
        "the result is too large to evaluate statically (OpenTofu's numbers are unbounded; \
         tfgraph's static evaluation holds 64-bit ones), so the value is unknown here"
            .to_string()
    })
}

fn f_arith(args: EvalArgs) -> Result<Value, String> {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        _ => String::new(),
    };
    let (op, spans) = (text(&args[1]), text(&args[3]));
    let mut spans = spans.split(' ');
    let (whole, left, right) = (
        spans.next().unwrap_or("-"),
        spans.next().unwrap_or("-"),
        spans.next().unwrap_or("-"),
    );
    let a = num(&args[0], "left").map_err(|d| format!("operand{SEP}{left}{SEP}{d}"))?;
    let b = num(&args[2], "right").map_err(|d| format!("operand{SEP}{right}{SEP}{d}"))?;
    compute(&op, a, b)
        .map_err(|d| format!("operation{SEP}{whole}{SEP}Error during operation: {d}."))
}

fn compute(op: &str, a: Num, b: Num) -> Result<Value, String> {
    match (op, a, b) {
        ("+", Num::Int(a), Num::Int(b)) => from_int(a + b),
        ("-", Num::Int(a), Num::Int(b)) => from_int(a - b),
        ("*", Num::Int(a), Num::Int(b)) => match a.checked_mul(b) {
            Some(p) => from_int(p),
            #[allow(clippy::cast_precision_loss)]
            None => from_float(a as f64 * b as f64),
        },
        // cty's Value.Modulo: a zero divisor gives the dividend back.
        ("%", a, Num::Int(0)) => Ok(match a {
            Num::Int(a) => from_int(a)?,
            Num::Float(f) => from_float(f)?,
        }),
        ("%", Num::Int(a), Num::Int(b)) => from_int(a % b),
        ("%", a, b) => {
            let (a, b) = (float(&a), float(&b));
            if b == 0.0 {
                from_float(a)
            } else {
                from_float(a % b)
            }
        }
        ("/", Num::Int(a), Num::Int(b)) if b != 0 && a % b == 0 => from_int(a / b),
        ("/", a, b) => {
            let (a, b) = (float(&a), float(&b));
            if a == 0.0 && b == 0.0 {
                // cty's DivideFunc, when big.Float.Quo panics with ErrNaN.
                return Err("can't divide zero by zero or infinity by infinity".to_string());
            }
            from_float(a / b)
        }
        ("+", a, b) => from_float(float(&a) + float(&b)),
        ("-", a, b) => from_float(float(&a) - float(&b)),
        ("*", a, b) => from_float(float(&a) * float(&b)),
        _ => Err(format!("unknown operation {op:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(src: &str) -> Result<Value, String> {
        let e = hcl::edit::parser::parse_expr(src).expect("parses");
        evaluate_constant(&e).map_err(|e| error_text(&e))
    }

    #[test]
    fn a_zero_divisor_of_a_remainder_gives_the_dividend_as_cty_does() {
        // cty value_ops.go Value.Modulo: `if other.RawEquals(Zero) { return val }`.
        assert_eq!(eval("5 % 0"), Ok(Value::from(5)));
        assert_eq!(eval("-7 % 3"), Ok(Value::from(-1)));
    }

    #[test]
    fn zero_by_zero_is_cty_s_error_and_x_by_zero_is_unknown() {
        // cty stdlib number.go DivideFunc: big.ErrNaN becomes this error.
        let e = eval("0 / 0").unwrap_err();
        assert!(e.contains("can't divide zero by zero"), "{e}");
        let e = eval("1 / 0").unwrap_err();
        assert!(e.contains("too large"), "{e}");
        assert_eq!(eval("6 / 3"), Ok(Value::from(2)));
        assert_eq!(eval("7 / 2"), Ok(Value::from(3.5)));
    }

    #[test]
    fn overflows_become_floats_or_unknown_never_a_panic() {
        assert_eq!(
            eval("18446744073709551615 + 1"),
            Ok(Value::from(18_446_744_073_709_551_616.0))
        );
        assert!(eval("1e308 * 10").unwrap_err().contains("too large"));
        assert_eq!(eval("9223372036854775807 * 3").map(|_| ()), Ok(()));
        assert_eq!(eval("-9223372036854775807 - 10").map(|_| ()), Ok(()));
    }

    #[test]
    fn arithmetic_inside_templates_and_nested_expressions_is_guarded() {
        assert_eq!(eval("\"n${5 % 0}\""), Ok(Value::from("n5")));
        assert_eq!(
            eval("[1 + 2 * 3, (4 - 1) % 2]"),
            Ok(Value::from(vec![7, 1]))
        );
        assert_eq!(eval("{a = 10 / 4}"), Ok(hcl::value!({ a = 2.5 })));
    }

    #[test]
    fn an_operand_that_is_not_a_number_is_an_error() {
        assert!(eval("\"a\" + 1").is_err());
        assert_eq!(eval("\"2\" * 3"), Ok(Value::from(6)));
        assert!(eval("true * 1").is_err());
    }
}
