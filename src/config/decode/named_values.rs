//! `variable`, `locals` and `output` blocks (OpenTofu's `configs/named_values.go`), with variable type
//! constraints checked as `typeexpr` does.

use super::body::{
    BAD_IDENTIFIER_DETAIL, Ctx, block_name, check_labels, content, decode_bool_attr,
    decode_string_attr, insert_unique, missing_argument,
};
use super::check_rule::decode_check_rule;
use super::meta_args::decode_depends_on;
use crate::addrs;
use crate::config::model::*;
use crate::strconv::go_quote;
use hcl::edit::Span;
use hcl::edit::expr::Expression;
use hcl::edit::structure::{Block, Structure};

pub(super) fn decode_variable(cx: &mut Ctx, b: &Block) -> Option<Variable> {
    let name = block_name(cx, b, "Invalid variable name")?;
    if matches!(
        name.as_str(),
        "source"
            | "version"
            | "providers"
            | "count"
            | "for_each"
            | "lifecycle"
            | "depends_on"
            | "locals"
    ) {
        cx.err(
            "Invalid variable name",
            format!(
                "The variable name {} is reserved due to its special meaning inside module blocks.",
                go_quote(&name)
            ),
            b.labels[0].span(),
        );
    }
    let c = content(
        cx,
        &b.body,
        &[
            "description",
            "default",
            "type",
            "sensitive",
            "nullable",
            "ephemeral",
            "deprecated",
            "const",
        ],
        &["validation"],
    );
    let mut v = Variable {
        name,
        default: c.attrs.get("default").map(|a| cx.expr(&a.value)),
        type_expr: c.attrs.get("type").map(|a| cx.expr(&a.value)),
        description: None,
        sensitive: false,
        ephemeral: false,
        nullable: None,
        validations: Vec::new(),
        decl_range: cx.def_range(b),
    };
    if let Some(a) = c.attrs.get("type") {
        check_type_expr(cx, &a.value, false);
    }
    if let Some(a) = c.attrs.get("description") {
        v.description = decode_string_attr(cx, a);
    }
    if let Some(a) = c.attrs.get("sensitive") {
        v.sensitive = decode_bool_attr(cx, a).unwrap_or(false);
    }
    if let Some(a) = c.attrs.get("ephemeral") {
        v.ephemeral = decode_bool_attr(cx, a).unwrap_or(false);
    }
    if let Some(a) = c.attrs.get("nullable") {
        v.nullable = decode_bool_attr(cx, a);
    }
    for vb in c.blocks {
        if let Some(rule) = decode_check_rule(cx, vb) {
            v.validations.push(rule);
        }
    }
    Some(v)
}

pub(super) fn decode_output(cx: &mut Ctx, b: &Block) -> Option<Output> {
    let name = block_name(cx, b, "Invalid output name")?;
    let c = content(
        cx,
        &b.body,
        &[
            "description",
            "value",
            "sensitive",
            "depends_on",
            "ephemeral",
            "deprecated",
        ],
        &["precondition", "postcondition"],
    );
    let mut o = Output {
        name,
        expr: c.attrs.get("value").map(|a| cx.expr(&a.value)),
        description: None,
        sensitive: false,
        ephemeral: false,
        depends_on: Vec::new(),
        preconditions: Vec::new(),
        decl_range: cx.def_range(b),
    };
    if o.expr.is_none() && !cx.is_override {
        missing_argument(cx, b, "value");
    }
    if let Some(a) = c.attrs.get("description") {
        o.description = decode_string_attr(cx, a);
    }
    if let Some(a) = c.attrs.get("sensitive") {
        o.sensitive = decode_bool_attr(cx, a).unwrap_or(false);
    }
    if let Some(a) = c.attrs.get("ephemeral") {
        o.ephemeral = decode_bool_attr(cx, a).unwrap_or(false);
    }
    if let Some(a) = c.attrs.get("depends_on") {
        o.depends_on = decode_depends_on(cx, a);
    }
    for pb in c.blocks {
        if pb.ident.value().as_str() == "postcondition" {
            cx.err(
                "Postconditions are not allowed",
                "Output values can only have preconditions, not postconditions.",
                pb.ident.span(),
            );
            continue;
        }
        if let Some(rule) = decode_check_rule(cx, pb) {
            o.preconditions.push(rule);
        }
    }
    Some(o)
}

/// Checks the keywords and constructor names of a variable's type expression (HCL's `typeexpr`
/// wording); the shape of the arguments is not checked.
pub(super) fn check_type_expr(cx: &mut Ctx, e: &Expression, in_object: bool) {
    match e {
        Expression::Variable(v) => {
            let kw = v.value().as_str();
            if !matches!(kw, "string" | "number" | "bool" | "any") {
                cx.err(
                    "Invalid type specification",
                    format!(
                        "The keyword {} is not a valid type specification.",
                        go_quote(kw)
                    ),
                    e.span(),
                );
            }
        }
        Expression::FuncCall(f) => {
            let name = f.name.name.value().as_str();
            let known = matches!(name, "list" | "set" | "map" | "object" | "tuple")
                || (name == "optional" && in_object);
            if !known || !f.name.namespace.is_empty() {
                cx.err(
                    "Invalid type specification",
                    format!(
                        "Keyword {} is not a valid type constructor.",
                        go_quote(name)
                    ),
                    e.span(),
                );
                return;
            }
            for (i, arg) in f.args.iter().enumerate() {
                // optional()'s second argument is a default value, not a type.
                if name == "optional" && i > 0 {
                    break;
                }
                check_type_expr(cx, arg, false);
            }
        }
        Expression::Array(a) => {
            for item in a.iter() {
                check_type_expr(cx, item, false);
            }
        }
        Expression::Object(o) => {
            for (_, v) in o.iter() {
                check_type_expr(cx, v.expr(), true);
            }
        }
        Expression::Parenthesis(p) => check_type_expr(cx, p.inner(), in_object),
        _ => {}
    }
}

/// A `locals` block: each attribute is a local value (Go `decodeLocalsBlock`).
pub(super) fn decode_locals(cx: &mut Ctx, b: &Block, module: &mut Module) {
    check_labels(cx, b, &[]);
    for ls in b.body.iter() {
        match ls {
            Structure::Attribute(a) => {
                let name = a.key.value().to_string();
                let l = Local {
                    name: name.clone(),
                    expr: cx.expr(&a.value),
                    decl_range: cx.range(a.span()),
                };
                if !addrs::is_identifier(&name) {
                    cx.err(
                        "Invalid local value name",
                        BAD_IDENTIFIER_DETAIL,
                        a.key.span(),
                    );
                }
                insert_unique(
                    cx.diags,
                    &mut module.locals,
                    (name, l),
                    |l| &l.decl_range,
                    "Duplicate local value definition",
                    |l, prev| {
                        format!(
                            "A local value named {} was already defined at {prev}. Local value names must be unique within a module.",
                            go_quote(&l.name)
                        )
                    },
                );
            }
            Structure::Block(lb) => cx.err(
                "Unexpected \"locals\" block",
                format!(
                    "Blocks are not allowed here; {} is not expected in a locals block.",
                    go_quote(lb.ident.value())
                ),
                lb.ident.span(),
            ),
        }
    }
}
