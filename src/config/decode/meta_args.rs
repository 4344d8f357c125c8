//! The meta-arguments several block kinds share: `depends_on` (resources, data sources, module
//! calls, outputs) and `provider` (resources, data sources, imports), with the legacy quoted
//! forms OpenTofu still accepts.

use super::body::{Ctx, expr_list, literal_string};
use crate::addrs;
use crate::addrs::traversal::{Step, static_traversal};
use crate::config::model::*;
use crate::strconv::go_quote;
use hcl::edit::Span;
use hcl::edit::expr::Expression;
use hcl::edit::structure::Attribute;

/// `depends_on = [a.b, module.c]`: every element must be a static reference.
pub(super) fn decode_depends_on(cx: &mut Ctx, a: &Attribute) -> Vec<Expr> {
    let mut out = Vec::new();
    for e in expr_list(cx, &a.value) {
        let e = shim_traversal_in_string(cx, e);
        if static_traversal(&e).is_none() {
            cx.err(
                "Invalid expression",
                "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.",
                e.span(),
            );
            continue;
        }
        out.push(cx.expr(&e));
    }
    out
}

/// Go `shimTraversalInString`: a quoted reference (`"aws_instance.a"`, the pre-0.12 form) is
/// read as the reference it contains, with a deprecation warning. The string's content is parsed
/// again at its own position so that ranges still point into the file.
pub(super) fn shim_traversal_in_string(cx: &mut Ctx, e: &Expression) -> Expression {
    let Some(text) = literal_string(e) else {
        return e.clone();
    };
    let Some(span) = e.span() else {
        return e.clone();
    };
    // `x=` and spaces in front put the content at its own byte offset; parsed as a body
    // because the expression parser does not take leading whitespace.
    let start = span.start + 1;
    if start < 2 || text.contains('\n') {
        return e.clone();
    }
    let padded = format!("x={}{}\n", " ".repeat(start - 2), text);
    // Parsed by hcl-edit only when HCL's parser reads it (`syntax::refused`).
    if !crate::hclsyntax::well_formed(&padded) {
        return e.clone();
    }
    let parsed = match hcl::edit::parser::parse_body(&padded) {
        Ok(b) => match b.get_attribute("x") {
            Some(a) => a.value.clone(),
            None => return e.clone(),
        },
        Err(_) => return e.clone(),
    };
    cx.warn(
        "Quoted references are deprecated",
        "In this context, references are expected literally rather than in quotes. Previous versions of OpenTofu required quotes, but that usage is now deprecated. Remove the quotes surrounding this reference to silence this warning.",
        e.span(),
    );
    parsed
}

/// `provider = aws.west` / `aws.west[each.key]` (Go `decodeProviderConfigRef[Mapping]`).
pub(super) fn decode_provider_ref(
    cx: &mut Ctx,
    e: &Expression,
    arg: &str,
) -> Option<ProviderConfigRef> {
    let invalid = |cx: &mut Ctx| {
        cx.err(
            "Invalid provider configuration reference",
            format!(
                "The {arg} argument requires a provider type name, optionally followed by a period and then a configuration alias."
            ),
            e.span(),
        );
    };
    // Split off a trailing non-static index: aws.west[each.key]
    let (base, key_expr): (Expression, Option<Expr>) = match e {
        Expression::Traversal(t) => {
            let mut t2 = (**t).clone();
            let mut key = None;
            if let Some(last) = t2.operators.last()
                && let hcl::edit::expr::TraversalOperator::Index(ix) = last.value()
            {
                key = Some(cx.expr(ix));
                t2.operators.pop();
            }
            if t2.operators.is_empty() {
                (t2.expr.clone(), key)
            } else {
                (Expression::Traversal(Box::new(t2)), key)
            }
        }
        other => (other.clone(), None),
    };
    let steps = match static_traversal(&base) {
        Some(s) => s,
        None => {
            // Legacy quoted form: provider = "aws.west"
            if let Some(s) = literal_string(e) {
                cx.warn(
                    "Quoted references are deprecated",
                    "In this context, references are expected literally rather than in quotes. Previous versions of OpenTofu required quotes, but that usage is now deprecated. Remove the quotes surrounding this reference to silence this warning.",
                    e.span(),
                );
                match crate::addrs::traversal::parse_traversal_str(&s) {
                    Ok(st) => st,
                    Err(_) => {
                        invalid(cx);
                        return None;
                    }
                }
            } else {
                invalid(cx);
                return None;
            }
        }
    };
    let name_range = cx.range(e.span());
    match steps.as_slice() {
        [Step::Attr(name)] => Some(ProviderConfigRef {
            name: name.clone(),
            alias: None,
            provider_type: None,
            key_expr,
            name_range,
            alias_range: None,
        }),
        [Step::Attr(name), Step::Attr(alias)] => Some(ProviderConfigRef {
            name: name.clone(),
            alias: Some(alias.clone()),
            provider_type: None,
            key_expr,
            name_range: name_range.clone(),
            alias_range: Some(name_range),
        }),
        [Step::Attr(name), Step::Attr(alias), Step::Index(k)] if key_expr.is_none() => {
            // aws.west["k"] with a literal key: keep the key as an expression too.
            let lit = match k {
                addrs::InstanceKey::Int(i) => format!("{i}"),
                addrs::InstanceKey::Str(s) => go_quote(s),
                addrs::InstanceKey::None => String::new(),
            };
            let key_expr = hcl::edit::parser::parse_expr(&lit)
                .ok()
                .map(|x| Expr::new(x, cx.file));
            Some(ProviderConfigRef {
                name: name.clone(),
                alias: Some(alias.clone()),
                provider_type: None,
                key_expr,
                name_range: name_range.clone(),
                alias_range: Some(name_range),
            })
        }
        _ => {
            invalid(cx);
            None
        }
    }
}
