//! Reference analysis: which objects an HCL expression or block body names (OpenTofu's
//! `lang.ReferencesInExpr` / `lang.ReferencesInBlock` followed by `addrs.ParseRef`).
//!
//! Written by hand over `hcl-rs` expressions because the rules are OpenTofu's own: which roots are
//! reserved words, where a traversal stops (splat, non-literal index), how `dynamic` blocks and
//! the "attributes as blocks" fixup are read, and that only attributes a provider schema declares
//! are analysed.

use super::addr::{InstanceKey, Mode, Resource, Subject};
use super::schema::Block;
use hcl::expr::{Expression, ObjectKey, TraversalOperator};
use hcl::structure::{Body, Structure};
use hcl::template::{Directive, Element, Template};

/// One reference found in configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub subject: Subject,
}

/// One step of a static traversal.
#[derive(Clone, Debug)]
enum Step {
    Attr(String),
    Index(InstanceKey),
}

/// Turns a traversal root plus its static steps into a reference (`addrs.ParseRef`); `None`
/// where OpenTofu would report an invalid reference (which graph building ignores).
fn parse_ref(root: &str, steps: &[Step]) -> Option<Subject> {
    let attr = |i: usize| match steps.get(i) {
        Some(Step::Attr(a)) => Some(a.clone()),
        _ => None,
    };
    let index = |i: usize| match steps.get(i) {
        Some(Step::Index(k)) => Some(k.clone()),
        _ => None,
    };
    let resource = |mode: Mode, off: usize| -> Option<Subject> {
        let ty = attr(off)?;
        let name = attr(off + 1)?;
        let r = Resource::new(mode, &ty, &name);
        Some(match index(off + 2) {
            Some(k) => Subject::ResourceInstance(r, k),
            None => Subject::Resource(r),
        })
    };
    match root {
        "count" => Some(Subject::CountAttr(attr(0)?)),
        "each" => Some(Subject::ForEachAttr(attr(0)?)),
        "path" => Some(Subject::PathAttr(attr(0)?)),
        "terraform" | "tofu" => Some(Subject::TerraformAttr(attr(0)?)),
        "self" => Some(Subject::SelfRef),
        "var" => Some(Subject::InputVariable(attr(0)?)),
        "local" => Some(Subject::LocalValue(attr(0)?)),
        "check" => Some(Subject::Check(attr(0)?)),
        "data" => resource(Mode::Data, 0),
        "ephemeral" => resource(Mode::Ephemeral, 0),
        "resource" => resource(Mode::Managed, 0),
        "template" | "lazy" | "arg" | "run" => None,
        "module" => {
            let call = attr(0)?;
            let mut i = 1;
            let mut key = InstanceKey::NoKey;
            let mut keyed = false;
            if let Some(k) = index(1) {
                key = k;
                keyed = true;
                i = 2;
            }
            match steps.get(i) {
                None if keyed => Some(Subject::ModuleCallInstance(call, key)),
                None => Some(Subject::ModuleCall(call)),
                Some(Step::Attr(name)) => {
                    Some(Subject::ModuleCallInstanceOutput(call, key, name.clone()))
                }
                Some(Step::Index(_)) => None,
            }
        }
        ty => {
            let name = attr(0)?;
            let r = Resource::new(Mode::Managed, ty, &name);
            Some(match index(1) {
                Some(k) => Subject::ResourceInstance(r, k),
                None => Subject::Resource(r),
            })
        }
    }
}

fn literal_key(e: &Expression) -> Option<InstanceKey> {
    match e {
        Expression::Number(n) => n.as_i64().map(InstanceKey::Int),
        Expression::String(s) => Some(InstanceKey::Str(s.clone())),
        _ => None,
    }
}

/// Collects references (and provider-function calls) in an expression. Names in `locals` are
/// iteration symbols of an enclosing `for` or `dynamic` and are not references.
pub fn refs_in_expr(e: &Expression) -> Vec<Reference> {
    let mut out = Vec::new();
    walk_expr(e, &mut Vec::new(), &mut out);
    out
}

fn push_traversal(root: &str, steps: &[Step], locals: &[String], out: &mut Vec<Reference>) {
    if locals.iter().any(|l| l == root) {
        return;
    }
    if let Some(subject) = parse_ref(root, steps) {
        out.push(Reference { subject });
    }
}

fn walk_expr(e: &Expression, locals: &mut Vec<String>, out: &mut Vec<Reference>) {
    match e {
        Expression::Null | Expression::Bool(_) | Expression::Number(_) | Expression::String(_) => {}
        Expression::Array(items) => items.iter().for_each(|i| walk_expr(i, locals, out)),
        Expression::Object(obj) => {
            for (k, v) in obj.iter() {
                if let ObjectKey::Expression(ke) = k {
                    // A bare identifier key is a literal name in HCL, not a reference.
                    if !matches!(ke, Expression::Variable(_)) {
                        walk_expr(ke, locals, out);
                    }
                }
                walk_expr(v, locals, out);
            }
        }
        Expression::TemplateExpr(t) => {
            if let Ok(tpl) = Template::from_expr(t) {
                walk_template(&tpl, locals, out);
            }
        }
        Expression::Variable(v) => push_traversal(v.as_str(), &[], locals, out),
        Expression::Traversal(t) => {
            if let Expression::Variable(root) = &t.expr {
                let mut steps = Vec::new();
                let mut rest_from = t.operators.len();
                for (i, op) in t.operators.iter().enumerate() {
                    match op {
                        TraversalOperator::GetAttr(a) => steps.push(Step::Attr(a.to_string())),
                        TraversalOperator::LegacyIndex(n) => {
                            steps.push(Step::Index(InstanceKey::Int(*n as i64)))
                        }
                        TraversalOperator::Index(ix) => match literal_key(ix) {
                            Some(k) => steps.push(Step::Index(k)),
                            None => {
                                rest_from = i;
                                break;
                            }
                        },
                        TraversalOperator::AttrSplat | TraversalOperator::FullSplat => {
                            rest_from = i;
                            break;
                        }
                    }
                }
                push_traversal(root.as_str(), &steps, locals, out);
                for op in &t.operators[rest_from..] {
                    if let TraversalOperator::Index(ix) = op {
                        walk_expr(ix, locals, out);
                    }
                }
            } else {
                walk_expr(&t.expr, locals, out);
                for op in &t.operators {
                    if let TraversalOperator::Index(ix) = op {
                        walk_expr(ix, locals, out);
                    }
                }
            }
        }
        Expression::FuncCall(fc) => {
            let ns: Vec<&str> = fc.name.namespace.iter().map(|i| i.as_str()).collect();
            if ns.first() == Some(&"provider") && (ns.len() == 2 || ns.len() == 3) {
                out.push(Reference {
                    subject: Subject::ProviderFunction {
                        provider: ns[1].to_string(),
                        alias: ns.get(2).map(|s| s.to_string()),
                        function: fc.name.name.to_string(),
                    },
                });
            }
            fc.args.iter().for_each(|a| walk_expr(a, locals, out));
        }
        Expression::Parenthesis(p) => walk_expr(p, locals, out),
        Expression::Conditional(c) => {
            walk_expr(&c.cond_expr, locals, out);
            walk_expr(&c.true_expr, locals, out);
            walk_expr(&c.false_expr, locals, out);
        }
        Expression::Operation(op) => match op.as_ref() {
            hcl::expr::Operation::Unary(u) => walk_expr(&u.expr, locals, out),
            hcl::expr::Operation::Binary(b) => {
                walk_expr(&b.lhs_expr, locals, out);
                walk_expr(&b.rhs_expr, locals, out);
            }
        },
        Expression::ForExpr(f) => {
            walk_expr(&f.collection_expr, locals, out);
            let n = locals.len();
            if let Some(k) = &f.key_var {
                locals.push(k.to_string());
            }
            locals.push(f.value_var.to_string());
            if let Some(k) = &f.key_expr {
                walk_expr(k, locals, out);
            }
            walk_expr(&f.value_expr, locals, out);
            if let Some(c) = &f.cond_expr {
                walk_expr(c, locals, out);
            }
            locals.truncate(n);
        }
        #[allow(unreachable_patterns)]
        _ => {}
    }
}

fn walk_template(t: &Template, locals: &mut Vec<String>, out: &mut Vec<Reference>) {
    for el in t.elements() {
        match el {
            Element::Literal(_) => {}
            Element::Interpolation(i) => walk_expr(&i.expr, locals, out),
            Element::Directive(d) => match d.as_ref() {
                Directive::If(ifd) => {
                    walk_expr(&ifd.cond_expr, locals, out);
                    walk_template(&ifd.true_template, locals, out);
                    if let Some(f) = &ifd.false_template {
                        walk_template(f, locals, out);
                    }
                }
                Directive::For(fd) => {
                    walk_expr(&fd.collection_expr, locals, out);
                    let n = locals.len();
                    if let Some(k) = &fd.key_var {
                        locals.push(k.to_string());
                    }
                    locals.push(fd.value_var.to_string());
                    walk_template(&fd.template, locals, out);
                    locals.truncate(n);
                }
            },
        }
    }
}

/// Every reference in a body, ignoring any schema (used for blocks OpenTofu reads in full).
pub fn refs_in_body_all(body: &Body) -> Vec<Reference> {
    let mut out = Vec::new();
    body_all(body, &mut Vec::new(), &mut out);
    out
}

fn body_all(body: &Body, locals: &mut Vec<String>, out: &mut Vec<Reference>) {
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => walk_expr(&a.expr, locals, out),
            Structure::Block(b) => body_all(&b.body, locals, out),
        }
    }
}

/// References in a block body read through `schema` (`lang.ReferencesInBlock`): only declared
/// attributes and declared nested blocks count; `dynamic` blocks for declared block types count in
/// full; blocks written for list/set-of-object attributes count as those attributes.
pub fn refs_in_block(body: &Body, schema: &Block) -> Vec<Reference> {
    let mut out = Vec::new();
    block_with_schema(body, schema, &mut Vec::new(), &mut out);
    out
}

fn block_with_schema(
    body: &Body,
    schema: &Block,
    locals: &mut Vec<String>,
    out: &mut Vec<Reference>,
) {
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => {
                if schema.any || schema.attributes.contains_key(a.key.as_str()) {
                    walk_expr(&a.expr, locals, out);
                }
            }
            Structure::Block(b) => {
                let name = b.identifier.as_str();
                if name == "dynamic" {
                    let Some(label) = b.labels.first().map(|l| l.as_str().to_string()) else {
                        continue;
                    };
                    let permissive = Block::permissive();
                    let nested_block = match schema.block_types.get(&label) {
                        Some(n) => &n.block,
                        None if schema.any => &permissive,
                        None => continue,
                    };
                    let mut iterator = label.clone();
                    for ds in b.body.iter() {
                        if let Structure::Attribute(a) = ds {
                            match a.key.as_str() {
                                "for_each" | "labels" => walk_expr(&a.expr, locals, out),
                                "iterator" => {
                                    if let Expression::Variable(v) = &a.expr {
                                        iterator = v.to_string();
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                    let n = locals.len();
                    locals.push(iterator);
                    for ds in b.body.iter() {
                        if let Structure::Block(c) = ds
                            && c.identifier.as_str() == "content"
                        {
                            block_with_schema(&c.body, nested_block, locals, out);
                        }
                    }
                    locals.truncate(n);
                } else if let Some(nested) = schema.block_types.get(name) {
                    block_with_schema(&b.body, &nested.block, locals, out);
                } else if schema.any {
                    block_with_schema(&b.body, schema, locals, out);
                } else if schema
                    .attributes
                    .get(name)
                    .is_some_and(|t| t.is_collection_of_objects())
                {
                    body_all(&b.body, locals, out);
                }
            }
        }
    }
}
