//! References in expressions and bodies: OpenTofu's `lang.References*` (which traversals HCL's
//! `Variables()` reports) followed by `addrs.ParseRef` (what each traversal names)
//!
//! The traversal walk is hand-written over hcl-edit's tree because it has to reproduce HCL's
//! exact rules: literal index keys fold into the traversal (`a.b[0].c`), a computed index or a
//! splat ends it (`a.b[count.index]` refers to `a.b` and `count.index`), object keys that are
//! bare names are not references, and for-expression, template-for and `dynamic` iterator
//! variables are local names, not references.

#![allow(clippy::result_large_err)] // diagnostics are returned unboxed: rare, and not on hot paths

use crate::addrs::InstanceKey;
use crate::addrs::traversal::literal_key;
use crate::addrs::{Reference, StepRef, parse_ref_steps_taking};
use crate::config::model::{Expr, HclBody};
use crate::diag::{Diagnostic, LazyRange, SourceFile, SourceRange};
use crate::schema;
use crate::strconv::go_quote;
use hcl::edit::Span;
use hcl::edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl::edit::structure::{Block, Body, Structure};
use hcl::edit::template::{Directive, Element, Template};
use std::sync::Arc;

/// A call of a provider-defined function: `provider::aws::arn_parse(...)`
/// (`provider::aws::west::fn` names an aliased configuration).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderFunctionRef {
    pub provider_name: String,
    pub alias: Option<String>,
    pub function: String,
    pub range: SourceRange,
}

impl std::fmt::Display for ProviderFunctionRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.alias {
            Some(a) => write!(
                f,
                "provider::{}::{}::{}",
                self.provider_name, a, self.function
            ),
            None => write!(f, "provider::{}::{}", self.provider_name, self.function),
        }
    }
}

/// References and provider-function calls found together, with diagnostics for traversals that
/// do not name anything OpenTofu knows (as Go's `References` reports them).
#[derive(Debug, Clone, Default)]
pub struct Refs {
    pub refs: Vec<Reference>,
    pub funcs: Vec<ProviderFunctionRef>,
    pub diags: Vec<Diagnostic>,
}

impl Refs {
    pub fn extend(&mut self, other: Refs) {
        // Into an empty list the other's is moved whole (references are large, and most lists
        // a resource's parts are gathered into start empty or stay so).
        fn append<T>(to: &mut Vec<T>, from: Vec<T>) {
            if to.is_empty() {
                *to = from;
            } else {
                to.extend(from);
            }
        }
        append(&mut self.refs, other.refs);
        append(&mut self.funcs, other.funcs);
        append(&mut self.diags, other.diags);
    }
}

struct Walker<'a> {
    file: &'a Arc<SourceFile>,
    /// Names bound locally (for-expression variables, `dynamic` iterators).
    locals: Vec<String>,
    /// Where each step of the traversal being read ends: one buffer for all of them (a
    /// traversal is read to its end before the next one starts).
    ends: Vec<usize>,
    out: Refs,
}

impl<'a> Walker<'a> {
    fn new(file: &'a Arc<SourceFile>) -> Self {
        Walker {
            file,
            locals: Vec::new(),
            ends: Vec::new(),
            out: Refs::default(),
        }
    }

    fn range(&self, start: usize, end: usize) -> SourceRange {
        self.file.range(start..end.max(start))
    }

    fn add_traversal(&mut self, steps: &mut [StepRef<'_>], ends: &[usize], start: usize) {
        let Some(StepRef::Attr(root)) = steps.first() else {
            return;
        };
        if self.locals.iter().any(|l| l == root) {
            return;
        }
        match parse_ref_steps_taking(steps) {
            Ok((subject, used)) => {
                let used = used.min(steps.len());
                let end = ends.get(used.saturating_sub(1)).copied().unwrap_or(start);
                let range = LazyRange::span(self.file, start, end.max(start));
                // The steps after the subject's: the only names copied beside the subject's.
                let remaining = steps[used..].iter().map(StepRef::to_step).collect();
                self.out.refs.push(Reference {
                    subject,
                    range,
                    remaining,
                });
            }
            Err(e) => {
                let s = if e.step == 0 {
                    start
                } else {
                    ends.get(e.step - 1).copied().unwrap_or(start)
                };
                let end = ends.get(e.step).copied().unwrap_or(s);
                let range = if e.step == 0 {
                    self.range(start, ends.last().copied().unwrap_or(start))
                } else {
                    self.range(s, end)
                };
                self.out
                    .diags
                    .push(Diagnostic::error(e.summary, e.detail, Some(range)));
            }
        }
    }

    fn expr(&mut self, e: &Expression) {
        match e {
            Expression::Null(_)
            | Expression::Bool(_)
            | Expression::Number(_)
            | Expression::String(_) => {}
            Expression::Array(a) => a.iter().for_each(|x| self.expr(x)),
            Expression::Object(o) => {
                for (k, v) in o.iter() {
                    if let ObjectKey::Expression(ke) = k {
                        // A key written as a bare name is a literal, not a reference.
                        if !matches!(ke, Expression::Variable(_)) {
                            self.expr(ke);
                        }
                    }
                    self.expr(v.expr());
                }
            }
            Expression::StringTemplate(t) => self.template(t),
            Expression::HeredocTemplate(h) => self.template(&h.template),
            Expression::Parenthesis(p) => self.expr(p.inner()),
            Expression::Variable(v) => {
                let start = v.span().map(|s| s.start).unwrap_or(0);
                let end = v.span().map(|s| s.end).unwrap_or(start);
                self.add_traversal(&mut [StepRef::Attr(v.value().as_str())], &[end], start);
            }
            Expression::Conditional(c) => {
                self.expr(&c.cond_expr);
                self.expr(&c.true_expr);
                self.expr(&c.false_expr);
            }
            Expression::FuncCall(f) => {
                let ns: Vec<&str> = f
                    .name
                    .namespace
                    .iter()
                    .map(|n| n.value().as_str())
                    .collect();
                if ns.first() == Some(&"provider") {
                    let range = self.file.range_opt(
                        f.span()
                            .map(|s| s.start..f.name.name.span().map(|n| n.end).unwrap_or(s.end)),
                    );
                    match ns.as_slice() {
                        ["provider", p] => self.out.funcs.push(ProviderFunctionRef {
                            provider_name: p.to_string(),
                            alias: None,
                            function: f.name.name.value().as_str().to_owned(),
                            range,
                        }),
                        ["provider", p, a] => self.out.funcs.push(ProviderFunctionRef {
                            provider_name: p.to_string(),
                            alias: Some(a.to_string()),
                            function: f.name.name.value().as_str().to_owned(),
                            range,
                        }),
                        _ => self.out.diags.push(Diagnostic::error(
                            "Unable to parse provider function",
                            format!(
                                "invalid provider function {}: expected provider::<name>::<function> or provider::<name>::<alias>::<function>",
                                go_quote(&format!("{}::{}", ns.join("::"), f.name.name.value()))
                            ),
                            Some(range),
                        )),
                    }
                }
                f.args.iter().for_each(|a| self.expr(a));
            }
            Expression::Traversal(t) => self.traversal(t),
            Expression::UnaryOp(u) => self.expr(&u.expr),
            Expression::BinaryOp(b) => {
                self.expr(&b.lhs_expr);
                self.expr(&b.rhs_expr);
            }
            Expression::ForExpr(f) => {
                self.expr(&f.intro.collection_expr);
                let n = self.locals.len();
                if let Some(k) = &f.intro.key_var {
                    self.locals.push(k.value().as_str().to_owned());
                }
                self.locals
                    .push(f.intro.value_var.value().as_str().to_owned());
                if let Some(k) = &f.key_expr {
                    self.expr(k);
                }
                self.expr(&f.value_expr);
                if let Some(c) = &f.cond {
                    self.expr(&c.expr);
                }
                self.locals.truncate(n);
            }
        }
    }

    fn traversal(&mut self, t: &hcl::edit::expr::Traversal) {
        let Expression::Variable(root) = &t.expr else {
            self.expr(&t.expr);
            for op in &t.operators {
                if let TraversalOperator::Index(ix) = op.value() {
                    self.expr(ix);
                }
            }
            return;
        };
        let start = root.span().map(|s| s.start).unwrap_or(0);
        let mut steps: smallvec::SmallVec<[StepRef<'_>; 8]> = smallvec::SmallVec::new();
        steps.push(StepRef::Attr(root.value().as_str()));
        let mut ends = std::mem::take(&mut self.ends);
        ends.clear();
        ends.push(root.span().map(|s| s.end).unwrap_or(start));
        let mut static_part = true;
        let mut dynamic_indexes = Vec::new();
        for op in &t.operators {
            let end = op
                .span()
                .map(|s| s.end)
                .unwrap_or(*ends.last().unwrap_or(&start));
            match op.value() {
                TraversalOperator::GetAttr(a) if static_part => {
                    steps.push(StepRef::Attr(a.value().as_str()));
                    ends.push(end);
                }
                TraversalOperator::LegacyIndex(i) if static_part => {
                    steps.push(StepRef::Index(InstanceKey::Int(*i.value() as i64)));
                    ends.push(end);
                }
                TraversalOperator::Index(ix) => match literal_key(ix) {
                    Some(k) if static_part => {
                        steps.push(StepRef::Index(k));
                        // Operator spans include the brackets (and the dot of `.name`).
                        ends.push(end);
                    }
                    _ => {
                        static_part = false;
                        dynamic_indexes.push(ix);
                    }
                },
                _ => static_part = false,
            }
        }
        self.add_traversal(&mut steps, &ends, start);
        self.ends = ends;
        for ix in dynamic_indexes {
            self.expr(ix);
        }
    }

    fn template(&mut self, t: &Template) {
        for el in t.iter() {
            match el {
                Element::Literal(_) => {}
                Element::Interpolation(i) => self.expr(&i.expr),
                Element::Directive(d) => match d.as_ref() {
                    Directive::If(i) => {
                        self.expr(&i.if_expr.cond_expr);
                        self.template(&i.if_expr.template);
                        if let Some(e) = &i.else_expr {
                            self.template(&e.template);
                        }
                    }
                    Directive::For(f) => {
                        self.expr(&f.for_expr.collection_expr);
                        let n = self.locals.len();
                        if let Some(k) = &f.for_expr.key_var {
                            self.locals.push(k.value().as_str().to_owned());
                        }
                        self.locals
                            .push(f.for_expr.value_var.value().as_str().to_owned());
                        self.template(&f.for_expr.template);
                        self.locals.truncate(n);
                    }
                },
            }
        }
    }

    /// A body read without a schema: every attribute and every nested block.
    fn body_all(&mut self, b: &Body) {
        self.structures_all(b.iter());
    }

    fn structures_all<'s>(&mut self, items: impl IntoIterator<Item = &'s Structure>) {
        for s in items {
            match s {
                Structure::Attribute(a) => self.expr(&a.value),
                Structure::Block(blk) => {
                    if blk.ident.value().as_str() == "dynamic" {
                        self.dynamic(blk, DynContent::All);
                    } else {
                        self.body_all(&blk.body);
                    }
                }
            }
        }
    }

    /// A body read through a schema (Go `hcldec` with the dynblock and blocktoattr extensions).
    fn body_schema(&mut self, b: &Body, schema: &schema::Block) {
        // blocktoattr: an attribute name written as an attribute in this body stays an attribute;
        // only otherwise do blocks of that name stand for it.
        let written_as_attr: std::collections::BTreeSet<&str> =
            b.attributes().map(|a| a.key.value().as_str()).collect();
        for s in b.iter() {
            match s {
                Structure::Attribute(a) => {
                    if schema.attributes.contains_key(a.key.value().as_str()) {
                        self.expr(&a.value);
                    }
                }
                Structure::Block(blk) => {
                    let ty = blk.ident.value().as_str();
                    if ty == "dynamic" {
                        // Go's dynblock walk reads for_each and labels of every dynamic block;
                        // the content only for declared block types (and, via blocktoattr,
                        // collection-of-object attributes).
                        let Some(label) = blk.labels.first().map(|l| l.as_str().to_string()) else {
                            continue;
                        };
                        if let Some(nb) = schema.block_types.get(&label) {
                            self.dynamic(blk, DynContent::Schema(&nb.block));
                        } else if let Some(obj) = schema
                            .attributes
                            .get(&label)
                            .and_then(|attr| attr_as_block_schema(&attr.ty, true))
                        {
                            self.dynamic(blk, DynContent::Schema(&obj));
                        } else {
                            self.dynamic(blk, DynContent::Skip);
                        }
                    } else if let Some(nb) = schema.block_types.get(ty) {
                        self.body_schema(&blk.body, &nb.block);
                    } else if !written_as_attr.contains(ty)
                        && let Some(obj) = schema
                            .attributes
                            .get(ty)
                            .and_then(|attr| attr_as_block_schema(&attr.ty, false))
                    {
                        // blocktoattr: a block written for a list/set-of-objects attribute.
                        self.body_schema(&blk.body, &obj);
                    }
                }
            }
        }
    }

    /// `dynamic "label" { for_each = ..., iterator = it, labels = [...], content { ... } }`.
    fn dynamic(&mut self, blk: &Block, content: DynContent) {
        let label = blk
            .labels
            .first()
            .map(|l| l.as_str().to_string())
            .unwrap_or_default();
        let mut iterator = label;
        if let Some(it) = blk.body.get_attribute("iterator")
            && let Expression::Variable(v) = &it.value
        {
            iterator = v.value().as_str().to_owned();
        }
        if let Some(fe) = blk.body.get_attribute("for_each") {
            self.expr(&fe.value);
        }
        let n = self.locals.len();
        self.locals.push(iterator);
        if let Some(l) = blk.body.get_attribute("labels") {
            self.expr(&l.value);
        }
        for c in blk.body.get_blocks("content") {
            match content {
                DynContent::All => self.body_all(&c.body),
                DynContent::Schema(s) => self.body_schema(&c.body, s),
                DynContent::Skip => {}
            }
        }
        self.locals.truncate(n);
    }
}

/// How a `dynamic` block's `content` is read.
#[derive(Clone, Copy)]
enum DynContent<'s> {
    All,
    Schema(&'s schema::Block),
    Skip,
}

/// The implied block schema for an attribute whose type is a list or set of objects (Go
/// `blocktoattr.SchemaForCtyElementType`); `allow_map` also accepts a map of objects, as Go does
/// for `dynamic` blocks (it checks for any collection type there).
fn attr_as_block_schema(ty: &schema::CtyType, allow_map: bool) -> Option<schema::Block> {
    let e = match ty {
        schema::CtyType::List(e) | schema::CtyType::Set(e) => e,
        schema::CtyType::Map(e) if allow_map => e,
        _ => return None,
    };
    let schema::CtyType::Object(attrs) = e.as_ref() else {
        return None;
    };
    let mut b = schema::Block::default();
    for (name, t) in attrs {
        b.attributes.insert(
            name.clone(),
            schema::Attribute {
                ty: t.clone(),
                optional: true,
                required: false,
                computed: false,
                sensitive: false,
            },
        );
    }
    Some(b)
}

/// Every reference and provider-function call in an expression (Go `lang.ReferencesInExpr`).
pub fn refs_in_expr_full(expr: &Expr) -> Refs {
    let mut w = Walker::new(&expr.file);
    w.expr(&expr.expr);
    w.out
}

/// Every reference in an expression.
pub fn refs_in_expr(expr: &Expr) -> (Vec<Reference>, Vec<Diagnostic>) {
    let r = refs_in_expr_full(expr);
    (r.refs, r.diags)
}

/// References and provider functions in a body (Go `lang.ReferencesInBlock`). With a schema only
/// declared attributes and block types are read (plus `dynamic` blocks of declared types, and
/// blocks written for list/set-of-object attributes); without one, every attribute and block
/// counts — the user-facing mode. Note that OpenTofu's nil-schema behaviour for resource bodies
/// is "read nothing", which callers get by not calling this (see [`super::ResourceRefParts`]).
pub fn refs_in_body_full(body: &HclBody, schema: Option<&schema::Block>) -> Refs {
    let mut w = Walker::new(&body.file);
    match schema {
        Some(s) => w.body_schema(&body.body, s),
        None => w.body_all(&body.body),
    }
    w.out
}

/// [`refs_in_body_full`] without a schema over a body's structures in `file` that are not
/// gathered into a body of their own: a resource body's, read where it was parsed
/// (`config::load_dir_keeping_references`).
pub fn refs_in_structures<'s>(
    file: &Arc<SourceFile>,
    items: impl IntoIterator<Item = &'s Structure>,
) -> Refs {
    let mut w = Walker::new(file);
    w.structures_all(items);
    w.out
}

/// References in a body; see [`refs_in_body_full`].
pub fn refs_in_body(
    body: &HclBody,
    schema: Option<&schema::Block>,
) -> (Vec<Reference>, Vec<Diagnostic>) {
    let r = refs_in_body_full(body, schema);
    (r.refs, r.diags)
}

/// Provider-function calls in an expression.
pub fn provider_funcs_in_expr(expr: &Expr) -> Vec<ProviderFunctionRef> {
    refs_in_expr_full(expr).funcs
}

/// Provider-function calls in a body, read like [`refs_in_body`].
pub fn provider_funcs_in_body(
    body: &HclBody,
    schema: Option<&schema::Block>,
) -> Vec<ProviderFunctionRef> {
    refs_in_body_full(body, schema).funcs
}

/// The references in the computed index keys of a traversal (`a.b[var.k]` gives `var.k`); the
/// traversal itself is not read (an import's `to` address names its target, it does not refer to it).
pub(super) fn index_key_refs(e: &Expr) -> Refs {
    let mut w = Walker::new(&e.file);
    if let Expression::Traversal(t) = &*e.expr {
        for op in &t.operators {
            if let TraversalOperator::Index(ix) = op.value()
                && literal_key(ix).is_none()
            {
                w.expr(ix);
            }
        }
    }
    w.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addrs::traversal::Step;
    use crate::addrs::{Referenceable, Resource as ResourceAddr, ResourceMode};

    fn expr(src: &str) -> Expr {
        let f = SourceFile::new("t.tf", src);
        Expr::new(hcl::edit::parser::parse_expr(src).unwrap(), &f)
    }

    fn names(src: &str) -> Vec<String> {
        let (r, d) = refs_in_expr(&expr(src));
        assert!(d.is_empty(), "{d:?}");
        r.iter().map(|r| r.display_string()).collect()
    }

    #[test]
    fn traversals() {
        assert_eq!(names("aws_instance.a.id"), ["aws_instance.a.id"]);
        assert_eq!(names("aws_instance.a[0].id"), ["aws_instance.a[0].id"]);
        assert_eq!(
            names("aws_instance.a[count.index].id"),
            ["aws_instance.a", "count.index"]
        );
        assert_eq!(names("aws_instance.a[*].id"), ["aws_instance.a"]);
        assert_eq!(names("data.x.y[\"k\"]"), ["data.x.y[\"k\"]"]);
        assert_eq!(names("module.m.out"), ["module.m.out"]);
        assert_eq!(names("module.m[1]"), ["module.m[1]"]);
        assert_eq!(names("module.m"), ["module.m"]);
        assert_eq!(names("ephemeral.e.n.v"), ["ephemeral.e.n.v"]);
        assert_eq!(names("\"${var.a}-${local.b}\""), ["var.a", "local.b"]);
        assert_eq!(
            names("[for k, v in var.m : v.x if k != local.z]"),
            ["var.m", "local.z"]
        );
        assert_eq!(names("{ a = var.x, (local.k) = 1 }"), ["var.x", "local.k"]);
        assert_eq!(
            names("f(path.module, terraform.workspace)"),
            ["path.module", "terraform.workspace"]
        );
        assert_eq!(names("self.id"), ["self.id"]);
        assert_eq!(names("tofu.workspace"), ["tofu.workspace"]);
        assert_eq!(
            names("var.c ? each.key : each.value"),
            ["var.c", "each.key", "each.value"]
        );
        assert_eq!(names("\"%{for x in var.l}${x}%{endfor}\""), ["var.l"]);
    }

    #[test]
    fn subjects_and_ranges() {
        let (r, _) = refs_in_expr(&expr("aws_instance.a[0].id"));
        assert_eq!(
            r[0].subject,
            Referenceable::ResourceInstance(
                ResourceAddr::new(ResourceMode::Managed, "aws_instance", "a")
                    .instance(InstanceKey::Int(0))
            )
        );
        assert_eq!(r[0].remaining.as_slice(), [Step::Attr("id".into())]);
        assert_eq!(r[0].range.get().start.column, 1);
        assert_eq!(r[0].range.get().end.column, 18, "{:?}", r[0].range);
        let (r, _) = refs_in_expr(&expr("aws_instance.a[0][1].id"));
        assert_eq!(r[0].range.get().end.column, 18, "{:?}", r[0].range);
        assert_eq!(r[0].remaining.len(), 2);
        let (r, _) = refs_in_expr(&expr("module.m[\"k\"].out"));
        assert_eq!(
            (r[0].range.get().start.column, r[0].range.get().end.column),
            (1, 18)
        );
    }

    #[test]
    fn invalid_refs() {
        let (r, d) = refs_in_expr(&expr("var"));
        assert!(r.is_empty());
        assert_eq!(d[0].summary, "Invalid reference");
        let (_, d) = refs_in_expr(&expr("aws_instance"));
        assert!(
            d[0].detail
                .contains("must be followed by at least one attribute access")
        );
    }

    #[test]
    fn provider_functions() {
        let f = provider_funcs_in_expr(&expr("provider::aws::arn_build(var.a)"));
        assert_eq!(f[0].to_string(), "provider::aws::arn_build");
        assert_eq!(names("provider::aws::arn_build(var.a)"), ["var.a"]);
    }

    fn body(src: &str) -> HclBody {
        let f = SourceFile::new("t.tf", src);
        HclBody::new(hcl::edit::parser::parse_body(src).unwrap(), &f)
    }

    #[test]
    fn bodies_with_and_without_schema() {
        let b = body(
            r#"
            a = var.a
            undeclared = var.u
            nested { x = var.n }
            dynamic "nested" {
              for_each = var.list
              content { x = nested.value }
            }
            dynamic "other" {
              for_each = var.o
              iterator = it
              content { y = it.value }
            }
            dynamic "undeclared" {
              for_each = var.und
              content { z = var.und_content }
            }
            attrblock { foo = var.ab }
            "#,
        );
        let all: Vec<String> = refs_in_body(&b, None)
            .0
            .iter()
            .map(|r| r.display_string())
            .collect();
        assert_eq!(
            all,
            [
                "var.a",
                "var.u",
                "var.n",
                "var.list",
                "var.o",
                "var.und",
                "var.und_content",
                "var.ab"
            ]
        );
        let s = schema::parse_schemas_json(
            r#"{"provider_schemas":{"x/y/z":{"resource_schemas":{"t":{"block":{
              "attributes":{"a":{"type":"string","optional":true},
                            "attrblock":{"type":["list",["object",{"foo":"string"}]],"optional":true}},
              "block_types":{"nested":{"nesting_mode":"list","block":{"attributes":{"x":{"type":"string","optional":true}}}}}}}}}}}"#,
        )
        .unwrap();
        let blk = s.providers.values().next().unwrap().resource_types["t"].clone();
        let some: Vec<String> = refs_in_body(&b, Some(&blk))
            .0
            .iter()
            .map(|r| r.display_string())
            .collect();
        assert_eq!(
            some,
            ["var.a", "var.n", "var.list", "var.o", "var.und", "var.ab"]
        );
        // An attribute written as an attribute hides blocks of the same name.
        let b2 = body("attrblock = var.as_attr\nattrblock { foo = var.as_block }\n");
        let got: Vec<String> = refs_in_body(&b2, Some(&blk))
            .0
            .iter()
            .map(|r| r.display_string())
            .collect();
        assert_eq!(got, ["var.as_attr"]);
    }
}
