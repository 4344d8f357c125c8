//! Decoding one file's top-level blocks into a [`Module`] (OpenTofu's `configs` block decoders),
//! with OpenTofu's diagnostic wording for the checks we make.

use super::model::*;
use crate::addrs::traversal::{Step, static_traversal, template_literal};
use crate::addrs::{self, ResourceMode};
use crate::diag::{Diagnostic, SourceFile, SourceRange, go_range};
use crate::strconv::go_quote;
use hcl::edit::Span;
use hcl::edit::expr::{Expression, ObjectKey};
use hcl::edit::structure::{Attribute, Block, Body, Structure};
use std::collections::BTreeMap;
use std::sync::Arc;

const BAD_IDENTIFIER_DETAIL: &str = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";

struct Ctx<'a> {
    file: &'a Arc<SourceFile>,
    diags: &'a mut Vec<Diagnostic>,
    /// Override files make every argument optional (Go `schemaForOverrides`).
    is_override: bool,
}

impl Ctx<'_> {
    fn range(&self, span: Option<std::ops::Range<usize>>) -> SourceRange {
        self.file.range_opt(span)
    }
    fn err(
        &mut self,
        summary: &str,
        detail: impl Into<String>,
        span: Option<std::ops::Range<usize>>,
    ) {
        let r = self.range(span);
        self.diags.push(Diagnostic::error(summary, detail, Some(r)));
    }
    fn warn(
        &mut self,
        summary: &str,
        detail: impl Into<String>,
        span: Option<std::ops::Range<usize>>,
    ) {
        let r = self.range(span);
        self.diags
            .push(Diagnostic::warning(summary, detail, Some(r)));
    }
    fn expr(&self, e: &Expression) -> Expr {
        Expr::new(e.clone(), self.file)
    }
    /// The block's definition range: its type and labels (Go `DefRange`).
    fn def_range(&self, b: &Block) -> SourceRange {
        let start = b
            .ident
            .span()
            .map(|s| s.start)
            .or(b.span().map(|s| s.start))
            .unwrap_or(0);
        let end = b
            .labels
            .last()
            .and_then(|l| l.span())
            .or(b.ident.span())
            .map(|s| s.end)
            .unwrap_or(start);
        self.file.range(start..end)
    }
    fn label_range(&self, b: &Block, i: usize) -> SourceRange {
        self.range(b.labels.get(i).and_then(|l| l.span()).or(b.ident.span()))
    }
}

/// The parts of a body split by a schema of meta-arguments.
struct Content<'a> {
    attrs: BTreeMap<String, &'a Attribute>,
    blocks: Vec<&'a Block>,
    remain: Body,
}

/// Splits a body into the named attributes/blocks and the rest (Go `PartialContent`), reporting
/// duplicate attributes ("Attribute redefined").
fn partial_content<'a>(
    cx: &mut Ctx,
    body: &'a Body,
    attr_names: &[&str],
    block_names: &[&str],
) -> Content<'a> {
    let mut attrs: BTreeMap<String, &'a Attribute> = BTreeMap::new();
    let mut blocks = Vec::new();
    let mut remain = Body::new();
    let mut seen: BTreeMap<String, SourceRange> = BTreeMap::new();
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => {
                let name = a.key.value().to_string();
                if let Some(prev) = seen.get(&name) {
                    let detail = format!(
                        "The argument {} was already set at {}. Each argument may be set only once.",
                        go_quote(&name),
                        go_range(prev)
                    );
                    cx.err("Attribute redefined", detail, a.key.span());
                    continue;
                }
                seen.insert(name.clone(), cx.range(a.key.span()));
                if attr_names.contains(&name.as_str()) {
                    attrs.insert(name, a);
                } else {
                    remain.push(a.clone());
                }
            }
            Structure::Block(b) => {
                if block_names.contains(&b.ident.value().as_str()) {
                    blocks.push(b);
                } else {
                    remain.push(b.clone());
                }
            }
        }
    }
    Content {
        attrs,
        blocks,
        remain,
    }
}

/// Like [`partial_content`] but everything not in the schema is an error (Go `Content`).
fn content<'a>(
    cx: &mut Ctx,
    body: &'a Body,
    attr_names: &[&str],
    block_names: &[&str],
) -> Content<'a> {
    let c = partial_content(cx, body, attr_names, block_names);
    for s in c.remain.iter() {
        match s {
            Structure::Attribute(a) => {
                let name = a.key.value().to_string();
                cx.err(
                    "Unsupported argument",
                    format!(
                        "An argument named {} is not expected here.",
                        go_quote(&name)
                    ),
                    a.key.span(),
                );
            }
            Structure::Block(b) => {
                let name = b.ident.value().to_string();
                cx.err(
                    "Unsupported block type",
                    format!("Blocks of type {} are not expected here.", go_quote(&name)),
                    b.ident.span(),
                );
            }
        }
    }
    c
}

fn check_labels(cx: &mut Ctx, b: &Block, names: &[&str]) -> bool {
    let kind = b.ident.value().to_string();
    if b.labels.len() < names.len() {
        let missing = names[b.labels.len()];
        let detail = format!(
            "All {kind} blocks must have {} labels ({}).",
            names.len(),
            names.join(", ")
        );
        cx.err(
            &format!("Missing {missing} for {kind}"),
            detail,
            b.ident.span(),
        );
        return false;
    }
    if b.labels.len() > names.len() {
        let detail = if names.is_empty() {
            format!("No labels are expected for {} blocks.", kind)
        } else {
            format!(
                "Only {} labels ({}) are expected for {} blocks.",
                names.len(),
                names.join(", "),
                kind
            )
        };
        cx.err(
            &format!("Extraneous label for {kind}"),
            detail,
            b.labels[names.len()].span(),
        );
        return false;
    }
    true
}

/// The label of a block that takes one label, `name`: `None` (after a diagnostic) when the label
/// count is wrong. A label that is not an identifier is reported under `invalid_summary` (each
/// block kind has its own wording in OpenTofu) but still returned, so the block is decoded on.
fn block_name(cx: &mut Ctx, b: &Block, invalid_summary: &str) -> Option<String> {
    if !check_labels(cx, b, &["name"]) {
        return None;
    }
    let name = b.labels[0].as_str().to_string();
    if !addrs::is_identifier(&name) {
        cx.err(invalid_summary, BAD_IDENTIFIER_DETAIL, b.labels[0].span());
    }
    Some(name)
}

/// Reports that block `b` lacks the required argument `arg`, at the block's body.
fn missing_argument(cx: &mut Ctx, b: &Block, arg: &str) {
    cx.err(
        "Missing required argument",
        format!(
            "The argument {} is required, but no definition was found.",
            go_quote(arg)
        ),
        b.body.span().or(b.span()),
    );
}

/// Keeps the first declaration of each name in a module: adds `item` under `key`, unless the map
/// already holds one; then reports `summary` at `item`'s declaration, with the detail that
/// `detail` gives for it and the first one's range (as Go prints it).
fn insert_unique<T>(
    diags: &mut Vec<Diagnostic>,
    map: &mut BTreeMap<String, T>,
    (key, item): (String, T),
    decl_range: fn(&T) -> &SourceRange,
    summary: &str,
    detail: impl FnOnce(&T, &str) -> String,
) {
    match map.get(&key) {
        Some(prev) => {
            let detail = detail(&item, &go_range(decl_range(prev)));
            diags.push(Diagnostic::error(
                summary,
                detail,
                Some(decl_range(&item).clone()),
            ));
        }
        None => {
            map.insert(key, item);
        }
    }
}

/// A string literal expression's value.
fn literal_string(e: &Expression) -> Option<String> {
    match e {
        Expression::String(s) => Some(s.value().to_string()),
        Expression::StringTemplate(t) => template_literal(t),
        Expression::HeredocTemplate(h) => {
            let mut out = String::new();
            for el in h.template.iter() {
                match el {
                    hcl::edit::template::Element::Literal(l) => out.push_str(l.value()),
                    _ => return None,
                }
            }
            Some(out)
        }
        Expression::Parenthesis(p) => literal_string(p.inner()),
        _ => None,
    }
}

fn literal_bool(e: &Expression) -> Option<bool> {
    match e {
        Expression::Bool(b) => Some(*b.value()),
        _ => None,
    }
}

fn decode_string_attr(cx: &mut Ctx, a: &Attribute) -> Option<String> {
    match literal_string(&a.value) {
        Some(s) => Some(s),
        None => {
            cx.err(
                "Invalid expression",
                "A static string value is required here.",
                a.value.span(),
            );
            None
        }
    }
}

fn decode_bool_attr(cx: &mut Ctx, a: &Attribute) -> Option<bool> {
    match literal_bool(&a.value) {
        Some(b) => Some(b),
        None => {
            // OpenTofu evaluates these statically; we accept only literals and keep going.
            if !matches!(
                a.value,
                Expression::Variable(_)
                    | Expression::Traversal(_)
                    | Expression::FuncCall(_)
                    | Expression::Conditional(_)
                    | Expression::BinaryOp(_)
                    | Expression::UnaryOp(_)
                    | Expression::Parenthesis(_)
            ) {
                cx.err(
                    "Unsuitable value type",
                    "Unsuitable value: a bool is required.",
                    a.value.span(),
                );
            }
            None
        }
    }
}

/// The elements of a list expression (Go `hcl.ExprList`).
fn expr_list<'e>(cx: &mut Ctx, e: &'e Expression) -> Vec<&'e Expression> {
    match e {
        Expression::Array(a) => a.iter().collect(),
        _ => {
            cx.err(
                "Invalid expression",
                "A static list expression is required.",
                e.span(),
            );
            Vec::new()
        }
    }
}

/// `depends_on = [a.b, module.c]`: every element must be a static reference.
fn decode_depends_on(cx: &mut Ctx, a: &Attribute) -> Vec<Expr> {
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
fn shim_traversal_in_string(cx: &mut Ctx, e: &Expression) -> Expression {
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
fn decode_provider_ref(cx: &mut Ctx, e: &Expression, arg: &str) -> Option<ProviderConfigRef> {
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

fn decode_check_rule(cx: &mut Ctx, b: &Block) -> Option<CheckRule> {
    check_labels(cx, b, &[]);
    let c = content(cx, &b.body, &["condition", "error_message"], &[]);
    let decl_range = cx.def_range(b);
    let Some(cond) = c.attrs.get("condition") else {
        missing_argument(cx, b, "condition");
        return None;
    };
    Some(CheckRule {
        condition: cx.expr(&cond.value),
        error_message: c.attrs.get("error_message").map(|a| cx.expr(&a.value)),
        decl_range,
    })
}

fn decode_connection(cx: &mut Ctx, b: &Block) -> Connection {
    check_labels(cx, b, &[]);
    Connection {
        config: HclBody::new(b.body.clone(), cx.file),
        decl_range: cx.def_range(b),
    }
}

fn decode_provisioner(cx: &mut Ctx, b: &Block) -> Option<Provisioner> {
    if !check_labels(cx, b, &["type"]) {
        return None;
    }
    let type_name = b.labels[0].as_str().to_string();
    let c = partial_content(cx, &b.body, &["when", "on_failure"], &["connection", "_"]);
    let mut config = c.remain;
    let mut p = Provisioner {
        type_name: type_name.clone(),
        config: HclBody::empty(cx.file),
        connection: None,
        when: ProvisionerWhen::Create,
        on_failure: ProvisionerOnFailure::Fail,
        decl_range: cx.def_range(b),
        type_range: cx.label_range(b, 0),
    };
    match type_name.as_str() {
        "chef" | "habitat" | "puppet" | "salt-masterless" => {
            cx.err(
                "Invalid provisioner block",
                format!("The provisioner {} has been removed. Please see the documentation for alternatives.", go_quote(&type_name)),
                b.labels[0].span(),
            );
        }
        _ => {}
    }
    if let Some(a) = c.attrs.get("when") {
        match static_traversal(&a.value).as_deref() {
            Some([Step::Attr(w)]) if w == "create" => p.when = ProvisionerWhen::Create,
            Some([Step::Attr(w)]) if w == "destroy" => p.when = ProvisionerWhen::Destroy,
            _ => cx.err(
                "Invalid \"when\" keyword",
                "The \"when\" argument requires one of the following keywords: create or destroy.",
                a.value.span(),
            ),
        }
    }
    if let Some(a) = c.attrs.get("on_failure") {
        match static_traversal(&a.value).as_deref() {
            Some([Step::Attr(w)]) if w == "fail" => p.on_failure = ProvisionerOnFailure::Fail,
            Some([Step::Attr(w)]) if w == "continue" => p.on_failure = ProvisionerOnFailure::Continue,
            _ => cx.err(
                "Invalid \"on_failure\" keyword",
                "The \"on_failure\" argument requires one of the following keywords: fail or continue.",
                a.value.span(),
            ),
        }
    }
    let mut seen_conn: Option<SourceRange> = None;
    for blk in &c.blocks {
        match blk.ident.value().as_str() {
            "connection" => {
                if let Some(prev) = &seen_conn {
                    let d = format!(
                        "This provisioner already has a connection block at {}.",
                        go_range(prev)
                    );
                    cx.err("Duplicate connection block", d, blk.ident.span());
                    continue;
                }
                seen_conn = Some(cx.def_range(blk));
                p.connection = Some(decode_connection(cx, blk));
            }
            _ => {
                for s in blk.body.iter() {
                    config.push(s.clone());
                }
            }
        }
    }
    p.config = HclBody::new(config, cx.file);
    Some(p)
}

/// Data, managed or ephemeral resource block (Go `decodeResourceBlock`, `decodeDataBlock`,
/// `decodeEphemeralBlock`). `nested` is true for a data block inside a `check`.
fn decode_resource(cx: &mut Ctx, b: &Block, mode: ResourceMode, nested: bool) -> Option<Resource> {
    if !check_labels(cx, b, &["type", "name"]) {
        return None;
    }
    let type_name = b.labels[0].as_str().to_string();
    let name = b.labels[1].as_str().to_string();
    let managed = mode == ResourceMode::Managed;
    let mut block_names = vec!["lifecycle", "_"];
    if managed {
        block_names.extend(["connection", "provisioner"]);
    }
    let c = partial_content(
        cx,
        &b.body,
        &["count", "for_each", "provider", "depends_on"],
        &block_names,
    );
    let mut config = c.remain;
    let mut r = Resource {
        mode,
        type_name: type_name.clone(),
        name: name.clone(),
        config: HclBody::empty(cx.file),
        count: None,
        for_each: None,
        provider_ref: None,
        provider: addrs::Provider::implied(&addrs::implied_provider_local_name(&type_name)),
        preconditions: Vec::new(),
        postconditions: Vec::new(),
        depends_on: Vec::new(),
        triggers_replacement: Vec::new(),
        enabled: None,
        managed: managed.then(ManagedResource::default),
        container: None,
        decl_range: cx.def_range(b),
        type_range: cx.label_range(b, 0),
    };
    let (type_summary, name_summary) = match mode {
        ResourceMode::Managed => ("Invalid resource type name", "Invalid resource name"),
        ResourceMode::Data => ("Invalid data source name", "Invalid data resource name"),
        ResourceMode::Ephemeral => (
            "Invalid ephemeral resource type name",
            "Invalid ephemeral resource name",
        ),
    };
    if !addrs::is_identifier(&type_name) {
        cx.err(type_summary, BAD_IDENTIFIER_DETAIL, b.labels[0].span());
    }
    if !addrs::is_identifier(&name) {
        cx.err(name_summary, BAD_IDENTIFIER_DETAIL, b.labels[1].span());
    }
    if let Some(a) = c.attrs.get("count") {
        if nested {
            cx.err("Invalid \"count\" attribute", "The \"count\" and \"for_each\" meta-arguments are not supported within nested data blocks.", a.key.span());
        } else {
            r.count = Some(cx.expr(&a.value));
        }
    }
    if let Some(a) = c.attrs.get("for_each") {
        if nested {
            cx.err("Invalid \"for_each\" attribute", "The \"count\" and \"for_each\" meta-arguments are not supported within nested data blocks.", a.key.span());
        } else {
            r.for_each = Some(cx.expr(&a.value));
            if r.count.is_some() {
                cx.err(
                    "Invalid combination of \"count\" and \"for_each\"",
                    "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.",
                    a.key.span(),
                );
            }
        }
    }
    if let Some(a) = c.attrs.get("provider") {
        r.provider_ref = decode_provider_ref(cx, &a.value, "provider");
    }
    if let Some(a) = c.attrs.get("depends_on") {
        r.depends_on = decode_depends_on(cx, a);
    }
    let mut seen_lifecycle: Option<SourceRange> = None;
    let mut seen_connection: Option<SourceRange> = None;
    let mut seen_escape: Option<SourceRange> = None;
    for blk in &c.blocks {
        match blk.ident.value().as_str() {
            "lifecycle" => {
                if let Some(prev) = &seen_lifecycle {
                    let d = format!(
                        "This resource already has a lifecycle block at {}.",
                        go_range(prev)
                    );
                    cx.err("Duplicate lifecycle block", d, blk.ident.span());
                    continue;
                }
                seen_lifecycle = Some(cx.def_range(blk));
                decode_lifecycle(cx, blk, &mut r);
            }
            "connection" => {
                if let Some(prev) = &seen_connection {
                    let d = format!(
                        "This resource already has a connection block at {}.",
                        go_range(prev)
                    );
                    cx.err("Duplicate connection block", d, blk.ident.span());
                    continue;
                }
                seen_connection = Some(cx.def_range(blk));
                let conn = decode_connection(cx, blk);
                if let Some(m) = r.managed.as_mut() {
                    m.connection = Some(conn);
                }
            }
            "provisioner" => {
                if let Some(p) = decode_provisioner(cx, blk)
                    && let Some(m) = r.managed.as_mut()
                {
                    m.provisioners.push(p);
                }
            }
            _ => {
                if let Some(prev) = &seen_escape {
                    let d = format!(
                        "The special block type \"_\" can be used to force particular arguments to be interpreted as resource-type-specific rather than as meta-arguments, but each resource block can have only one such block. The first escaping block was at {}.",
                        go_range(prev)
                    );
                    cx.err("Duplicate escaping block", d, blk.ident.span());
                    continue;
                }
                seen_escape = Some(cx.def_range(blk));
                for s in blk.body.iter() {
                    config.push(s.clone());
                }
            }
        }
    }
    r.config = HclBody::new(config, cx.file);
    Some(r)
}

fn decode_lifecycle(cx: &mut Ctx, blk: &Block, r: &mut Resource) {
    let managed = r.mode == ResourceMode::Managed;
    let attrs: &[&str] = if managed {
        &[
            "create_before_destroy",
            "prevent_destroy",
            "ignore_changes",
            "replace_triggered_by",
            "enabled",
        ]
    } else {
        &["enabled"]
    };
    let lc = content(cx, &blk.body, attrs, &["precondition", "postcondition"]);
    if let Some(a) = lc.attrs.get("enabled") {
        r.enabled = Some(cx.expr(&a.value));
    }
    if let Some(m) = r.managed.as_mut() {
        if let Some(a) = lc.attrs.get("create_before_destroy") {
            m.create_before_destroy = decode_bool_attr(cx, a).unwrap_or(false);
            m.create_before_destroy_set = true;
        }
        if let Some(a) = lc.attrs.get("prevent_destroy") {
            m.prevent_destroy = literal_bool(&a.value).unwrap_or(false);
            m.prevent_destroy_set = true;
            m.prevent_destroy_expr = Some(cx.expr(&a.value));
        }
        if let Some(a) = lc.attrs.get("replace_triggered_by") {
            for e in expr_list(cx, &a.value) {
                r.triggers_replacement.push(Expr::new(e.clone(), cx.file));
            }
        }
        if let Some(a) = lc.attrs.get("ignore_changes") {
            let is_all = matches!(static_traversal(&a.value).as_deref(), Some([Step::Attr(k)]) if k == "all");
            if is_all {
                m.ignore_all_changes = true;
            } else if let Expression::Array(arr) = &a.value {
                for e in arr.iter() {
                    if literal_string(e).as_deref() == Some("*") {
                        cx.err(
                            "Invalid ignore_changes wildcard",
                            "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.",
                            a.value.span(),
                        );
                        continue;
                    }
                    let e = shim_traversal_in_string(cx, e);
                    if static_traversal(&e).is_none() {
                        cx.err(
                            "Invalid expression",
                            "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.",
                            e.span(),
                        );
                        continue;
                    }
                    m.ignore_changes.push(Expr::new(e, cx.file));
                }
            } else {
                cx.err(
                    "Invalid expression",
                    "A static list expression is required.",
                    a.value.span(),
                );
            }
        }
    }
    for b in lc.blocks {
        let is_pre = b.ident.value().as_str() == "precondition";
        if let Some(rule) = decode_check_rule(cx, b) {
            if is_pre {
                r.preconditions.push(rule);
            } else {
                r.postconditions.push(rule);
            }
        }
    }
}

fn decode_variable(cx: &mut Ctx, b: &Block) -> Option<Variable> {
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

fn decode_output(cx: &mut Ctx, b: &Block) -> Option<Output> {
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

fn decode_module_call(cx: &mut Ctx, b: &Block) -> Option<ModuleCall> {
    let name = block_name(cx, b, "Invalid module instance name")?;
    let c = partial_content(
        cx,
        &b.body,
        &[
            "source",
            "version",
            "count",
            "for_each",
            "depends_on",
            "providers",
        ],
        &["lifecycle", "locals", "provider", "_"],
    );
    let mut config = c.remain;
    let mut m = ModuleCall {
        name,
        source: None,
        source_range: None,
        version: None,
        config: HclBody::empty(cx.file),
        count: None,
        for_each: None,
        enabled: None,
        providers: Vec::new(),
        depends_on: Vec::new(),
        decl_range: cx.def_range(b),
    };
    match c.attrs.get("source") {
        Some(a) => {
            m.source_range = Some(cx.range(a.value.span()));
            match literal_string(&a.value) {
                Some(s) => {
                    if s.is_empty() {
                        cx.err(
                            "Invalid module source address",
                            "The module source address cannot be empty.",
                            a.value.span(),
                        );
                    } else {
                        m.source = Some(addrs::parse_module_source(&s));
                    }
                }
                None => cx.err(
                    "Variables not allowed",
                    "Variables may not be used here.",
                    a.value.span(),
                ),
            }
        }
        None if cx.is_override => {}
        None => missing_argument(cx, b, "source"),
    }
    if let Some(a) = c.attrs.get("version") {
        m.version = decode_string_attr(cx, a);
    }
    if let Some(a) = c.attrs.get("count") {
        m.count = Some(cx.expr(&a.value));
    }
    if let Some(a) = c.attrs.get("for_each") {
        m.for_each = Some(cx.expr(&a.value));
        if m.count.is_some() {
            cx.err(
                "Invalid combination of \"count\" and \"for_each\"",
                "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.",
                a.key.span(),
            );
        }
    }
    if let Some(a) = c.attrs.get("depends_on") {
        m.depends_on = decode_depends_on(cx, a);
    }
    if let Some(a) = c.attrs.get("providers") {
        match &a.value {
            Expression::Object(obj) => {
                for (k, v) in obj.iter() {
                    let key_expr: Expression = match k {
                        ObjectKey::Ident(id) => Expression::Variable(id.clone()),
                        ObjectKey::Expression(e) => e.clone(),
                    };
                    let child = decode_provider_ref(cx, &key_expr, "providers");
                    let parent = decode_provider_ref(cx, v.expr(), "providers");
                    if let (Some(in_child), Some(in_parent)) = (child, parent) {
                        let key = in_child.addr().to_string();
                        if let Some(prev) = m
                            .providers
                            .iter()
                            .find(|p| p.in_child.addr().to_string() == key)
                        {
                            let d = format!(
                                "A provider configuration was already passed to {key} at {}. Each child provider configuration can be assigned only once.",
                                go_range(&prev.in_child.name_range)
                            );
                            cx.err("Duplicate provider address", d, v.expr().span());
                            continue;
                        }
                        if in_child.key_expr.is_some() {
                            cx.err(
                                "Invalid provider configuration reference",
                                "Provider instance keys are not allowed on the left side of a provider mapping.",
                                key_expr.span(),
                            );
                        }
                        m.providers.push(PassedProviderConfig {
                            in_child,
                            in_parent,
                        });
                    }
                }
            }
            other => cx.err(
                "Invalid expression",
                "A static map expression is required.",
                other.span(),
            ),
        }
    }
    for blk in &c.blocks {
        match blk.ident.value().as_str() {
            "_" => {
                for s in blk.body.iter() {
                    config.push(s.clone());
                }
            }
            "lifecycle" => {
                let lc = content(cx, &blk.body, &["enabled"], &[]);
                m.enabled = lc.attrs.get("enabled").map(|a| cx.expr(&a.value));
            }
            other => cx.err(
                "Reserved block type name in module block",
                format!(
                    "The block type name {} is reserved for use by OpenTofu in a future version.",
                    go_quote(other)
                ),
                blk.ident.span(),
            ),
        }
    }
    m.config = HclBody::new(config, cx.file);
    Some(m)
}

fn decode_provider_block(cx: &mut Ctx, b: &Block) -> Option<ProviderBlock> {
    let name = block_name(cx, b, "Invalid provider local name")?;
    if name.chars().any(|c| c.is_uppercase()) {
        cx.err(
            "Invalid provider local name",
            format!(
                "Provider names must be normalized. Replace {} with {} to fix this error.",
                go_quote(&name),
                go_quote(&name.to_lowercase())
            ),
            b.labels[0].span(),
        );
        return None;
    }
    let c = partial_content(
        cx,
        &b.body,
        &[
            "alias",
            "version",
            "for_each",
            "count",
            "depends_on",
            "source",
        ],
        &["_", "lifecycle", "locals"],
    );
    let mut config = c.remain;
    for reserved in ["count", "depends_on", "source"] {
        if let Some(a) = c.attrs.get(reserved) {
            cx.err(
                "Reserved argument name in provider block",
                format!(
                    "The provider argument name {} is reserved for use by OpenTofu in a future version.",
                    go_quote(reserved)
                ),
                a.key.span(),
            );
        }
    }
    for blk in &c.blocks {
        match blk.ident.value().as_str() {
            "_" => {
                for s in blk.body.iter() {
                    config.push(s.clone());
                }
            }
            other => cx.err(
                "Reserved block type name in provider block",
                format!(
                    "The block type name {} is reserved for use by OpenTofu in a future version.",
                    go_quote(other)
                ),
                blk.ident.span(),
            ),
        }
    }
    let mut p = ProviderBlock {
        name: name.clone(),
        alias: None,
        provider: addrs::Provider::implied(&name),
        for_each: c.attrs.get("for_each").map(|a| cx.expr(&a.value)),
        version: c
            .attrs
            .get("version")
            .map(|a| literal_string(&a.value).unwrap_or_default()),
        config: HclBody::new(config, cx.file),
        decl_range: cx.def_range(b),
        name_range: cx.label_range(b, 0),
    };
    if let Some(a) = c.attrs.get("alias") {
        // OpenTofu evaluates the alias statically; we take string literals (the usual form).
        match literal_string(&a.value) {
            Some(s) if addrs::is_identifier(&s) => p.alias = Some(s),
            Some(_) => cx.err(
                "Invalid provider configuration alias",
                format!("An alias must be a valid name. {BAD_IDENTIFIER_DETAIL}"),
                a.value.span(),
            ),
            None => cx.err(
                "Invalid provider configuration alias",
                "tfgraph needs the alias as a literal string (alias = \"name\"); it does not evaluate expressions here.",
                a.value.span(),
            ),
        }
    }
    if c.attrs.contains_key("version") {
        cx.warn(
            "Version constraints inside provider configuration blocks are deprecated",
            "OpenTofu 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of OpenTofu. To silence this warning, move the provider version constraint into the required_providers block.",
            c.attrs.get("version").and_then(|a| a.span()),
        );
    }
    if p.for_each.is_some() && p.alias.is_none() {
        cx.err(
            "Invalid for_each argument",
            "A provider configuration block with for_each must also have an alias.",
            c.attrs.get("for_each").and_then(|a| a.key.span()),
        );
    }
    Some(p)
}

fn decode_terraform_block(cx: &mut Ctx, b: &Block, module: &mut Module) {
    check_labels(cx, b, &[]);
    let c = content(
        cx,
        &b.body,
        &["required_version", "experiments", "language"],
        &[
            "required_providers",
            "backend",
            "cloud",
            "provider_meta",
            "encryption",
        ],
    );
    if let Some(a) = c.attrs.get("required_version")
        && let Some(s) = decode_string_attr(cx, a)
    {
        module.required_core.push(s);
    }
    for blk in c.blocks {
        match blk.ident.value().as_str() {
            "required_providers" => {
                let here = cx.def_range(blk);
                match &module.required_providers_decl {
                    Some(prev) if !is_override_file(cx.file) => {
                        let d = format!(
                            "A module may have only one required providers configuration. The required providers were previously configured at {}.",
                            go_range(prev)
                        );
                        cx.diags.push(Diagnostic::error(
                            "Duplicate required providers configuration",
                            d,
                            Some(here),
                        ));
                    }
                    _ => {
                        if module.required_providers_decl.is_none() {
                            module.required_providers_decl = Some(here);
                        }
                        decode_required_providers(cx, blk, module);
                    }
                }
            }
            "backend" if check_labels(cx, blk, &["type"]) => {
                if let Some(prev) = &module.backend {
                    let d = format!(
                        "A module may have only one backend configuration. The backend was previously configured at {}.",
                        go_range(&prev.decl_range)
                    );
                    cx.err("Duplicate backend configuration", d, blk.ident.span());
                } else {
                    module.backend = Some(Backend {
                        type_name: blk.labels[0].as_str().to_string(),
                        config: HclBody::new(blk.body.clone(), cx.file),
                        decl_range: cx.def_range(blk),
                    });
                }
            }
            "cloud" => {
                module.backend = Some(Backend {
                    type_name: "cloud".into(),
                    config: HclBody::new(blk.body.clone(), cx.file),
                    decl_range: cx.def_range(blk),
                });
            }
            _ => {}
        }
    }
}

fn is_override_file(f: &SourceFile) -> bool {
    super::file_names::is_override_file_name(f.name.rsplit('/').next().unwrap_or(&f.name))
}

fn decode_required_providers(cx: &mut Ctx, b: &Block, module: &mut Module) {
    check_labels(cx, b, &[]);
    for s in b.body.iter() {
        let a = match s {
            Structure::Attribute(a) => a,
            Structure::Block(blk) => {
                cx.err(
                    "Unsupported block type",
                    format!(
                        "Blocks of type {} are not expected here.",
                        go_quote(blk.ident.value())
                    ),
                    blk.ident.span(),
                );
                continue;
            }
        };
        let name = a.key.value().to_string();
        let decl_range = cx.range(a.span());
        if !addrs::is_identifier(&name) {
            cx.err(
                "Invalid provider local name",
                BAD_IDENTIFIER_DETAIL,
                a.key.span(),
            );
            continue;
        }
        let mut rp = RequiredProvider {
            name: name.clone(),
            source: None,
            provider: addrs::Provider::implied(&name),
            version_constraint: None,
            configuration_aliases: Vec::new(),
            decl_range,
        };
        match &a.value {
            Expression::Object(obj) => {
                for (k, v) in obj.iter() {
                    let key = match k {
                        ObjectKey::Ident(i) => i.value().to_string(),
                        ObjectKey::Expression(e) => literal_string(e).unwrap_or_default(),
                    };
                    match key.as_str() {
                        "source" => match literal_string(v.expr()) {
                            Some(src) => match addrs::Provider::parse_source(&src) {
                                Ok(p) => {
                                    rp.provider = p;
                                    rp.source = Some(src);
                                }
                                Err(d) => cx.err("Invalid provider source string", d, v.expr().span()),
                            },
                            None => cx.err("Invalid source", "Source must be specified as a string.", v.expr().span()),
                        },
                        "version" => rp.version_constraint = literal_string(v.expr()),
                        "configuration_aliases" => {
                            if let Expression::Array(arr) = v.expr() {
                                for e in arr.iter() {
                                    match static_traversal(e).as_deref() {
                                        Some([Step::Attr(n), Step::Attr(al)]) => rp
                                            .configuration_aliases
                                            .push(addrs::LocalProviderConfig::new(n, Some(al))),
                                        _ => cx.err(
                                            "Invalid configuration_aliases value",
                                            "Configuration aliases can only contain references to local provider configuration names in the format of provider.alias",
                                            e.span(),
                                        ),
                                    }
                                }
                            }
                        }
                        other => cx.err(
                            "Invalid required_providers object",
                            format!("required_providers objects can only contain \"version\", \"source\" and \"configuration_aliases\" attributes. To configure a provider, use a \"provider\" block. Unexpected attribute {}.", go_quote(other)),
                            k.span(),
                        ),
                    }
                }
            }
            other => {
                // Legacy form: aws = "~> 3.0"
                if let Some(v) = literal_string(other) {
                    rp.version_constraint = Some(v);
                } else {
                    cx.err(
                        "Invalid required_providers object",
                        "required_providers entries must be strings or objects.",
                        other.span(),
                    );
                }
            }
        }
        if !is_override_file(cx.file)
            && let Some(prev) = module.required_providers.get(&name)
        {
            let d = format!(
                "Provider {} was already required at {}.",
                go_quote(&name),
                go_range(&prev.decl_range)
            );
            cx.err("Duplicate required provider", d, a.key.span());
            continue;
        }
        module.required_providers.insert(name, rp);
    }
}

fn decode_moved(cx: &mut Ctx, b: &Block) -> Option<Moved> {
    check_labels(cx, b, &[]);
    let c = content(cx, &b.body, &["from", "to"], &[]);
    let mut ok = true;
    for n in ["from", "to"] {
        match c.attrs.get(n) {
            None => {
                missing_argument(cx, b, n);
                ok = false;
            }
            Some(a) if static_traversal(&a.value).is_none() => {
                cx.err(
                    "Invalid expression",
                    "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.",
                    a.value.span(),
                );
                ok = false;
            }
            _ => {}
        }
    }
    if !ok {
        return None;
    }
    let (Some(from), Some(to)) = (c.attrs.get("from"), c.attrs.get("to")) else {
        return None;
    };
    Some(Moved {
        from: cx.expr(&from.value),
        to: cx.expr(&to.value),
        decl_range: cx.def_range(b),
    })
}

fn decode_import(cx: &mut Ctx, b: &Block) -> Option<Import> {
    check_labels(cx, b, &[]);
    let c = content(
        cx,
        &b.body,
        &["to", "id", "identity", "for_each", "provider"],
        &[],
    );
    let Some(to) = c.attrs.get("to") else {
        missing_argument(cx, b, "to");
        return None;
    };
    let provider_ref = match c.attrs.get("provider") {
        Some(a) => decode_provider_ref(cx, &a.value, "provider"),
        None => None,
    };
    Some(Import {
        to: cx.expr(&to.value),
        id: c.attrs.get("id").map(|a| cx.expr(&a.value)),
        identity: c.attrs.get("identity").map(|a| cx.expr(&a.value)),
        for_each: c.attrs.get("for_each").map(|a| cx.expr(&a.value)),
        provider_ref,
        provider: addrs::Provider::implied(""),
        decl_range: cx.def_range(b),
    })
}

fn decode_removed(cx: &mut Ctx, b: &Block) -> Option<Removed> {
    check_labels(cx, b, &[]);
    let c = content(
        cx,
        &b.body,
        &["from"],
        &["lifecycle", "provisioner", "connection"],
    );
    let Some(from) = c.attrs.get("from") else {
        missing_argument(cx, b, "from");
        return None;
    };
    let mut r = Removed {
        from: cx.expr(&from.value),
        destroy: None,
        provisioners: Vec::new(),
        decl_range: cx.def_range(b),
    };
    for blk in c.blocks {
        match blk.ident.value().as_str() {
            "lifecycle" => {
                let lc = content(cx, &blk.body, &["destroy"], &[]);
                if let Some(a) = lc.attrs.get("destroy") {
                    r.destroy = decode_bool_attr(cx, a);
                }
            }
            "provisioner" => {
                if let Some(p) = decode_provisioner(cx, blk) {
                    r.provisioners.push(p);
                }
            }
            _ => {}
        }
    }
    Some(r)
}

fn decode_check(cx: &mut Ctx, b: &Block) -> Option<Check> {
    let name = block_name(cx, b, "Invalid check block name")?;
    let c = content(cx, &b.body, &[], &["data", "assert"]);
    let mut ch = Check {
        name: name.clone(),
        data_resources: Vec::new(),
        asserts: Vec::new(),
        decl_range: cx.def_range(b),
    };
    for blk in c.blocks {
        match blk.ident.value().as_str() {
            "data" => {
                if let Some(mut r) = decode_resource(cx, blk, ResourceMode::Data, true) {
                    if let Some(prev) = ch.data_resources.first() {
                        let d = format!(
                            "This check block already has a data resource defined at {}.",
                            go_range(&prev.decl_range)
                        );
                        cx.err("Multiple data resource blocks", d, blk.ident.span());
                        continue;
                    }
                    r.container = Some(name.clone());
                    ch.data_resources.push(r);
                }
            }
            _ => {
                if let Some(rule) = decode_check_rule(cx, blk) {
                    ch.asserts.push(rule);
                }
            }
        }
    }
    if ch.asserts.is_empty() {
        cx.err(
            "Zero assert blocks",
            "Check blocks must have at least one assert block.",
            b.ident.span(),
        );
    }
    Some(ch)
}

/// Checks the keywords and constructor names of a variable's type expression (HCL's `typeexpr`
/// wording); the shape of the arguments is not checked.
fn check_type_expr(cx: &mut Ctx, e: &Expression, in_object: bool) {
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

/// The byte offset of a `"` left open on this line (escapes and `${ }` / `%{ }` sequences
/// respected), if any.
fn unclosed_quote(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut open: Option<usize> = None;
    let mut depth = 0usize; // template sequences inside the open string
    let mut i = 0;
    while i < b.len() {
        match (open, b[i]) {
            (None, b'#') => break,
            (None, b'/') if b.get(i + 1) == Some(&b'/') => break,
            (None, b'"') => open = Some(i),
            (Some(_), b'\\') if depth == 0 => i += 1,
            (Some(_), b'$' | b'%') if b.get(i + 1) == Some(&b'{') => {
                depth += 1;
                i += 1;
            }
            (Some(_), b'}') if depth > 0 => depth -= 1,
            (Some(_), b'"') if depth == 0 => open = None,
            _ => {}
        }
        i += 1;
    }
    open
}

/// Maps an hcl-edit parse error to a diagnostic. HCL's Go parser has many specific summaries;
/// we recognise the common one and otherwise report a generic syntax error.
fn parse_error(file: &SourceFile, e: &hcl::edit::parser::Error) -> Diagnostic {
    let loc = e.location();
    // hcl-edit's offset is in the (possibly padded) text that was parsed, like our spans.
    let range = file.range(loc.offset()..loc.offset());
    let msg = e.message();
    let rest = file.rest_from(loc.offset());
    let at_eof = rest.trim().is_empty();
    let next = rest.trim_start_matches([' ', '\t']).chars().next();
    // hcl-edit reports a quoted string left open somewhere on its line (often at the start of
    // the argument); HCL's scanner reports it where the string breaks: at the line's end (a
    // newline inside quotes), or at the opening quote when the file ends inside the string.
    let here = loc.offset().saturating_sub(file.offset);
    let line_start = file
        .text
        .get(..here)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1);
    let rest_of_line = file.text.get(line_start..).unwrap_or("");
    let line_rest = rest_of_line.split('\n').next().unwrap_or("");
    if !msg.contains("heredoc")
        && let Some(open) = unclosed_quote(line_rest)
    {
        let start = file.offset + line_start;
        return if rest_of_line.len() > line_rest.len() {
            let at = start + line_rest.trim_end_matches('\r').len();
            Diagnostic::error(
                "Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
                Some(file.range(at..at)),
            )
        } else {
            Diagnostic::error(
                "Unterminated template string",
                "No closing marker was found for the string.",
                Some(file.range(start + open..start + open + 1)),
            )
        };
    }
    // A heredoc without its closing marker: HCL's template parser meets the end of the file
    // where it wanted the marker, and reports it there.
    if msg.contains("heredoc end delimiter") {
        let end = file.offset + file.text.len();
        return Diagnostic::error(
            "Unterminated template string",
            "No closing marker was found for the string.",
            Some(file.range(end..end)),
        );
    }
    // hcl-edit refuses a repeated argument while parsing; HCL's wording names the first one.
    if msg.contains("redefined attribute") {
        let key: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        let here = loc.offset().saturating_sub(file.offset);
        let before = file.text.get(..here).unwrap_or("");
        let mut starts = vec![0];
        starts.extend(before.match_indices('\n').map(|(i, _)| i + 1));
        let prev = starts.iter().rev().find_map(|&st| {
            let line = before.get(st..)?.split('\n').next()?;
            let indent = line.len() - line.trim_start().len();
            let after = line.trim_start().strip_prefix(key.as_str())?.trim_start();
            (!key.is_empty() && after.starts_with('=') && !after.starts_with("=="))
                .then_some(file.offset + st + indent)
        });
        if let Some(p) = prev {
            return Diagnostic::error(
                "Attribute redefined",
                format!(
                    "The argument {} was already set at {}. Each argument may be set only once.",
                    go_quote(&key),
                    go_range(&file.range(p..p + key.len()))
                ),
                Some(range),
            );
        }
    }
    let (summary, detail): (&str, String) = if msg.starts_with("invalid block body") {
        if at_eof {
            (
                "Unclosed configuration block",
                "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.".into(),
            )
        } else if next.is_some_and(|c| c.is_alphabetic() || c == '_') {
            (
                "Missing newline after argument",
                "An argument definition must end with a newline.".into(),
            )
        } else {
            (
                "Argument or block definition required",
                "An argument or block definition is required here.".into(),
            )
        }
    } else if msg.starts_with("expected newline or eof") || msg.starts_with("invalid body") {
        (
            "Argument or block definition required",
            "An argument or block definition is required here.".into(),
        )
    } else if msg == "expected `]`" {
        // An unclosed list: HCL's tuple parser wanted a comma before the next item.
        (
            "Missing item separator",
            "Expected a comma to mark the beginning of the next item.".into(),
        )
    } else if msg.starts_with("invalid expression") {
        (
            "Invalid expression",
            "Expected the start of an expression, but found an invalid expression token.".into(),
        )
    } else if msg == "unexpected token" && e.line().matches('"').count() % 2 == 1 {
        (
            "Unterminated template string",
            "No closing marker was found for the string.".into(),
        )
    } else if msg == "unexpected token" && !next.is_some_and(|c| c.is_alphabetic() || c == '_') {
        (
            "Argument or block definition required",
            "An argument or block definition is required here.".into(),
        )
    } else {
        ("Invalid syntax", msg.to_string())
    };
    Diagnostic::error(summary, detail, Some(range))
}

/// Decodes one configuration file into `module`. JSON files are read by converting them to
/// native syntax first (see [`super::json`]).
pub fn decode_file(
    file: &Arc<SourceFile>,
    module: &mut Module,
    is_override: bool,
    diags: &mut Vec<Diagnostic>,
) {
    let mut file = file.clone();
    if file.name.ends_with(".json") {
        match super::json::json_to_native(&file.text) {
            Ok(native) => {
                file = SourceFile::with_offset(&file.name, &native, file.offset);
                module.files.insert(file.name.clone(), file.clone());
            }
            Err(msg) => {
                // A syntax error is placed where serde_json found it; a structural problem
                // (which has no position after the rewrite) at the start of the file.
                let (msg, range) = match serde_json::from_str::<serde_json::Value>(&file.text) {
                    Err(e) => match crate::diag::json_error_range(&file.text, &e) {
                        Some(mut r) => {
                            r.file = file.name.clone();
                            (
                                format!(
                                    "The file is not valid JSON: {}.",
                                    crate::diag::json_error_message(&e)
                                ),
                                r,
                            )
                        }
                        None => (msg, file.range(0..0)),
                    },
                    Ok(_) => (msg, file.range(0..0)),
                };
                diags.push(Diagnostic::error(
                    "Invalid JSON configuration",
                    msg,
                    Some(range),
                ));
                return;
            }
        }
    }
    let file = &file;
    // A UTF-8 byte-order mark is blanked out (same byte length, so spans stay aligned).
    let mut text = file.padded_text().into_owned();
    if text[file.offset..].starts_with('\u{feff}') {
        text.replace_range(file.offset..file.offset + 3, "   ");
    }
    let body = match hcl::edit::parser::parse_body(&text) {
        Ok(b) => b,
        Err(e) => {
            diags.push(parse_error(file, &e));
            return;
        }
    };
    let mut cx = Ctx {
        file,
        diags,
        is_override,
    };
    for s in body.iter() {
        let b = match s {
            Structure::Block(b) => b,
            Structure::Attribute(a) => {
                cx.err(
                    "Unsupported argument",
                    format!(
                        "An argument named {} is not expected here.",
                        go_quote(a.key.value())
                    ),
                    a.key.span(),
                );
                continue;
            }
        };
        match b.ident.value().as_str() {
            "terraform" => decode_terraform_block(&mut cx, b, module),
            "required_providers" => {
                cx.err(
                    "Unsupported block type",
                    "Blocks of type \"required_providers\" are not expected here. Did you mean to define this block inside a \"terraform\" block?",
                    b.ident.span(),
                );
            }
            "provider" => {
                if let Some(p) = decode_provider_block(&mut cx, b) {
                    let key = p.addr().key();
                    insert_unique(
                        cx.diags,
                        &mut module.provider_configs,
                        (key, p),
                        |p| &p.decl_range,
                        "Duplicate provider configuration",
                        |p, prev| match &p.alias {
                            None => format!(
                                "A default (non-aliased) provider configuration for {} was already given at {prev}. If multiple configurations are required, set the \"alias\" argument for alternative configurations.",
                                go_quote(&p.name)
                            ),
                            Some(al) => format!(
                                "A provider configuration for {} with alias {} was already given at {prev}. Each configuration for the same provider must have a distinct alias.",
                                go_quote(&p.name),
                                go_quote(al)
                            ),
                        },
                    );
                }
            }
            "variable" => {
                if let Some(v) = decode_variable(&mut cx, b) {
                    insert_unique(
                        cx.diags,
                        &mut module.variables,
                        (v.name.clone(), v),
                        |v| &v.decl_range,
                        "Duplicate variable declaration",
                        |v, prev| {
                            format!(
                                "A variable named {} was already declared at {prev}. Variable names must be unique within a module.",
                                go_quote(&v.name)
                            )
                        },
                    );
                }
            }
            "locals" => {
                check_labels(&mut cx, b, &[]);
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
                                cx.err("Invalid local value name", BAD_IDENTIFIER_DETAIL, a.key.span());
                            }
                            insert_unique(cx.diags, &mut module.locals, (name, l), |l| &l.decl_range, "Duplicate local value definition", |l, prev| format!(
                                "A local value named {} was already defined at {prev}. Local value names must be unique within a module.",
                                go_quote(&l.name)
                            ));
                        }
                        Structure::Block(lb) => cx.err(
                            "Unexpected \"locals\" block",
                            format!("Blocks are not allowed here; {} is not expected in a locals block.", go_quote(lb.ident.value())),
                            lb.ident.span(),
                        ),
                    }
                }
            }
            "output" => {
                if let Some(o) = decode_output(&mut cx, b) {
                    insert_unique(
                        cx.diags,
                        &mut module.outputs,
                        (o.name.clone(), o),
                        |o| &o.decl_range,
                        "Duplicate output definition",
                        |o, prev| {
                            format!(
                                "An output named {} was already defined at {prev}. Output names must be unique within a module.",
                                go_quote(&o.name)
                            )
                        },
                    );
                }
            }
            "module" => {
                if let Some(m) = decode_module_call(&mut cx, b) {
                    insert_unique(
                        cx.diags,
                        &mut module.module_calls,
                        (m.name.clone(), m),
                        |m| &m.decl_range,
                        "Duplicate module call",
                        |m, prev| {
                            format!(
                                "A module call named {} was already defined at {prev}. Module calls must have unique names within a module.",
                                go_quote(&m.name)
                            )
                        },
                    );
                }
            }
            kind @ ("resource" | "data" | "ephemeral") => {
                let mode = match kind {
                    "resource" => ResourceMode::Managed,
                    "data" => ResourceMode::Data,
                    _ => ResourceMode::Ephemeral,
                };
                if let Some(r) = decode_resource(&mut cx, b, mode, false) {
                    let key = r.addr().to_string();
                    let map = match mode {
                        ResourceMode::Managed => &mut module.managed_resources,
                        ResourceMode::Data => &mut module.data_resources,
                        ResourceMode::Ephemeral => &mut module.ephemeral_resources,
                    };
                    // OpenTofu names the kind differently in the summary and the detail.
                    let (summary_kind, detail_kind) = match mode {
                        ResourceMode::Managed => ("resource", "resource"),
                        ResourceMode::Data => ("data", "data resource"),
                        ResourceMode::Ephemeral => ("ephemeral resource", "ephemeral resource"),
                    };
                    let summary = format!(
                        "Duplicate {summary_kind} {} configuration",
                        go_quote(&r.type_name)
                    );
                    insert_unique(
                        cx.diags,
                        map,
                        (key, r),
                        |r| &r.decl_range,
                        &summary,
                        |r, prev| {
                            format!(
                                "A {} {detail_kind} named {} was already declared at {prev}. Resource names must be unique per type in each module.",
                                r.type_name,
                                go_quote(&r.name)
                            )
                        },
                    );
                }
            }
            "moved" => {
                if let Some(m) = decode_moved(&mut cx, b) {
                    module.moved.push(m);
                }
            }
            "import" => {
                if let Some(i) = decode_import(&mut cx, b) {
                    module.imports.push(i);
                }
            }
            "removed" => {
                if let Some(r) = decode_removed(&mut cx, b) {
                    module.removed.push(r);
                }
            }
            "check" => {
                if let Some(c) = decode_check(&mut cx, b) {
                    if let Some(prev) = module.checks.get(&c.name) {
                        let d = format!(
                            "A check block named {} was already declared at {}. Check blocks must be unique within each module.",
                            go_quote(&c.name),
                            go_range(&prev.decl_range)
                        );
                        let summary =
                            format!("Duplicate check {} configuration", go_quote(&c.name));
                        cx.diags
                            .push(Diagnostic::error(summary, d, Some(c.decl_range.clone())));
                    } else {
                        // Go merges a check's scoped data block into the module's data resources.
                        for r in &c.data_resources {
                            let key = r.addr().to_string();
                            let summary =
                                format!("Duplicate data {} configuration", go_quote(&r.type_name));
                            insert_unique(
                                cx.diags,
                                &mut module.data_resources,
                                (key, r.clone()),
                                |r| &r.decl_range,
                                &summary,
                                |r, prev| {
                                    format!(
                                        "A {} data resource named {} was already declared at {prev}. Resource names must be unique per type in each module, including within check blocks.",
                                        r.type_name,
                                        go_quote(&r.name)
                                    )
                                },
                            );
                        }
                        module.checks.insert(c.name.clone(), c);
                    }
                }
            }
            other => {
                cx.err(
                    "Unsupported block type",
                    format!("Blocks of type {} are not expected here.", go_quote(other)),
                    b.ident.span(),
                );
            }
        }
    }
}

/// The provider local name implied by an import block's `to` address (its resource type).
fn import_target_implied_provider(steps: &[Step]) -> String {
    let mut i = 0;
    while let Some(Step::Attr(a)) = steps.get(i) {
        if a != "module" {
            break;
        }
        i += 2;
        if let Some(Step::Index(_)) = steps.get(i) {
            i += 1;
        }
    }
    if let Some(Step::Attr(a)) = steps.get(i)
        && (a == "data" || a == "ephemeral")
    {
        i += 1;
    }
    match steps.get(i) {
        Some(Step::Attr(t)) => addrs::implied_provider_local_name(t),
        _ => String::new(),
    }
}

/// Work done once every file of a module is in: provider local names, and each resource's and
/// provider block's provider FQN (Go `Module` post-processing in `NewModule`).
pub fn finish_module(module: &mut Module, diags: &mut Vec<Diagnostic>) {
    let _ = diags;
    module.provider_local_names = module
        .required_providers
        .values()
        .map(|rp| (rp.provider.clone(), rp.name.clone()))
        .collect();
    let rps = module.required_providers.clone();
    let lookup = |local: &str| match rps.get(local) {
        Some(rp) => rp.provider.clone(),
        None => addrs::Provider::implied(local),
    };
    for p in module.provider_configs.values_mut() {
        p.provider = match rps.get(&p.name) {
            Some(rp) => rp.provider.clone(),
            None => addrs::Provider::default_for(&p.name),
        };
    }
    let fix = |r: &mut Resource| {
        r.provider = lookup(&r.provider_config_addr().local_name);
    };
    module.managed_resources.values_mut().for_each(fix);
    module.data_resources.values_mut().for_each(fix);
    module.ephemeral_resources.values_mut().for_each(fix);
    for c in module.checks.values_mut() {
        c.data_resources.iter_mut().for_each(fix);
    }
    module.imports.iter_mut().for_each(|i| {
        i.provider = match &i.provider_ref {
            Some(p) => lookup(&p.name),
            None => match crate::addrs::traversal::static_traversal(&i.to.expr) {
                Some(steps) => lookup(&import_target_implied_provider(&steps)),
                None => addrs::Provider::implied(""),
            },
        };
    });
}
