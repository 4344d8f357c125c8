//! Static traversals (`a.b[0]["k"]`): the form OpenTofu requires for `depends_on`, `provider`,
//! `moved`/`import` addresses and `-target` strings, taken from hcl-edit expressions.

use super::InstanceKey;
use crate::strconv::go_quote;
use hcl::edit::Span;
use hcl::edit::expr::{Expression, TraversalOperator};

/// One step of a static traversal. The root name is the first `Attr`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Step {
    Attr(String),
    Index(InstanceKey),
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Attr(a) => write!(f, ".{a}"),
            Step::Index(k) => write!(f, "{k}"),
        }
    }
}

/// Writes steps as an address string (`a.b[0]`).
pub fn steps_to_string(steps: &[Step]) -> String {
    let mut s = String::new();
    for (i, st) in steps.iter().enumerate() {
        match st {
            Step::Attr(a) if i == 0 => s.push_str(a),
            other => s.push_str(&other.to_string()),
        }
    }
    s
}

/// The literal key of an index expression, when it is a number or a plain string
/// (what HCL folds into a static traversal).
pub fn literal_key(expr: &Expression) -> Option<InstanceKey> {
    match expr {
        Expression::Number(n) => {
            let n = n.value();
            n.as_i64().map(InstanceKey::Int).or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0)
                    .map(|f| InstanceKey::Int(f as i64))
            })
        }
        Expression::String(s) => Some(InstanceKey::Str(s.value().to_string())),
        Expression::StringTemplate(t) => template_literal(t).map(InstanceKey::Str),
        Expression::Parenthesis(p) => literal_key(p.inner()),
        _ => None,
    }
}

/// A string template without interpolations or directives, as its literal text.
pub fn template_literal(t: &hcl::edit::template::StringTemplate) -> Option<String> {
    let mut out = String::new();
    for el in t.iter() {
        match el {
            hcl::edit::template::Element::Literal(l) => out.push_str(l.value()),
            _ => return None,
        }
    }
    Some(out)
}

/// Converts an expression that must be a static traversal (Go `hcl.AbsTraversalForExpr`).
/// Returns `None` for anything else (function calls, splats, computed indexes, ...).
pub fn static_traversal(expr: &Expression) -> Option<Vec<Step>> {
    match expr {
        Expression::Variable(v) => Some(vec![Step::Attr(v.value().as_str().to_owned())]),
        Expression::Traversal(t) => {
            let mut steps = static_traversal(&t.expr)?;
            for op in &t.operators {
                match op.value() {
                    TraversalOperator::GetAttr(a) => {
                        steps.push(Step::Attr(a.value().as_str().to_owned()))
                    }
                    TraversalOperator::Index(e) => steps.push(Step::Index(literal_key(e)?)),
                    TraversalOperator::LegacyIndex(i) => {
                        steps.push(Step::Index(InstanceKey::Int(*i.value() as i64)))
                    }
                    TraversalOperator::AttrSplat(_) | TraversalOperator::FullSplat(_) => {
                        return None;
                    }
                }
            }
            Some(steps)
        }
        _ => None,
    }
}

/// Like [`static_traversal`] but also accepts a plain string holding a traversal, which OpenTofu
/// allows in a few legacy places (`ignore_changes = ["tags"]`).
pub fn static_traversal_or_string(expr: &Expression) -> Option<Vec<Step>> {
    if let Some(s) = static_traversal(expr) {
        return Some(s);
    }
    let text = match expr {
        Expression::String(s) => s.value().to_string(),
        Expression::StringTemplate(t) => template_literal(t)?,
        _ => return None,
    };
    parse_traversal_str(&text).ok()
}

/// The byte span of an expression, if it came from the parser.
pub fn expr_span(expr: &Expression) -> Option<std::ops::Range<usize>> {
    expr.span()
}

/// Parses a traversal written as a string (`module.x[0].aws_instance.y["k"]`).
pub fn parse_traversal_str(s: &str) -> Result<Vec<Step>, String> {
    // Many brackets: HCL's parser reads the text first (hcl-edit can take exponential time).
    if let Some(e) = crate::hclsyntax::bracketed_expression_error(s) {
        return Err(format!("Invalid address {}: {}", go_quote(s), e.summary));
    }
    let expr = hcl::edit::parser::parse_expr(s.trim())
        .map_err(|e| format!("Invalid address {}: {}", go_quote(s), e.message()))?;
    static_traversal(&expr).ok_or_else(|| {
        format!(
            "Invalid address {}: a static address is required (names, dots and literal [index] keys only).",
            go_quote(s)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // The var_files fuzzer's find, as an address: hcl-edit alone would backtrack for minutes.
    #[test]
    fn many_open_brackets_after_operators_are_refused_with_hcls_error() {
        let s = format!("a.b[{}", "9-0%{9-{".repeat(12));
        let e = parse_traversal_str(&s).unwrap_err();
        assert!(e.starts_with("Invalid address \"a.b["), "{e}");
        assert!(!e.contains("static address"), "{e}");
    }

    #[test]
    fn parse_strings() {
        let steps = parse_traversal_str("module.x[0].aws_instance.y[\"k\"]").unwrap();
        assert_eq!(steps.len(), 6);
        assert_eq!(steps_to_string(&steps), "module.x[0].aws_instance.y[\"k\"]");
        assert!(parse_traversal_str("foo(1)").is_err());
        assert!(parse_traversal_str("a[b]").is_err());
    }
}
