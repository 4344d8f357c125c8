//! What every block decoder shares: the decoding context ([`Ctx`]: the file, the diagnostics, whether
//! it is an override file), splitting a body by a schema (Go `hcl.Body.Content` and
//! `PartialContent`), label and name checks, literal attribute values and the duplicate check.

use crate::addrs;
use crate::addrs::traversal::template_literal;
use crate::config::model::*;
use crate::diag::{Diagnostic, SourceFile, SourceRange, go_range};
use crate::strconv::go_quote;
use hcl::edit::Span;
use hcl::edit::expr::Expression;
use hcl::edit::structure::{Attribute, Block, Body, Structure};
use std::collections::BTreeMap;
use std::sync::Arc;

pub(super) const BAD_IDENTIFIER_DETAIL: &str = "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";

pub(super) struct Ctx<'a> {
    pub(super) file: &'a Arc<SourceFile>,
    pub(super) diags: &'a mut Vec<Diagnostic>,
    /// Override files make every argument optional (Go `schemaForOverrides`).
    pub(super) is_override: bool,
    /// Where a resource's body goes as its references instead of as a copy of the body, when
    /// the caller needs only those ([`super::decode_file_keeping_body_refs`]).
    pub(super) body_refs: Option<&'a mut BodyRefs>,
    /// The provider each resource type's prefix implies, made once per prefix in the file.
    pub(super) implied_providers: ImpliedProviders,
}

/// The provider each local name implies (`Provider::implied`), made once per name and shared:
/// every resource without a `required_providers` entry asks, 10,000 times at 10,000 resources
/// for a handful of names.
#[derive(Default)]
pub(super) struct ImpliedProviders(rustc_hash::FxHashMap<String, crate::addrs::Provider>);

impl ImpliedProviders {
    pub(super) fn get(&mut self, local_name: &str) -> crate::addrs::Provider {
        if let Some(p) = self.0.get(local_name) {
            return p.clone();
        }
        let p = crate::addrs::Provider::implied(local_name);
        self.0.insert(local_name.to_string(), p.clone());
        p
    }
}

/// Each resource's body references (read without a schema), by the resource's serial, for
/// resources decoded without their bodies ([`super::decode_file_keeping_body_refs`]).
pub type BodyRefs = rustc_hash::FxHashMap<Serial, crate::config::refs::Refs>;

impl Ctx<'_> {
    pub(super) fn range(&self, span: Option<std::ops::Range<usize>>) -> SourceRange {
        self.file.range_opt(span)
    }
    pub(super) fn err(
        &mut self,
        summary: &str,
        detail: impl Into<String>,
        span: Option<std::ops::Range<usize>>,
    ) {
        let r = self.range(span);
        self.diags.push(Diagnostic::error(summary, detail, Some(r)));
    }
    pub(super) fn warn(
        &mut self,
        summary: &str,
        detail: impl Into<String>,
        span: Option<std::ops::Range<usize>>,
    ) {
        let r = self.range(span);
        self.diags
            .push(Diagnostic::warning(summary, detail, Some(r)));
    }
    pub(super) fn expr(&self, e: &Expression) -> Expr {
        Expr::new(e.clone(), self.file)
    }
    /// The block's definition range: its type and labels (Go `DefRange`).
    pub(super) fn def_range(&self, b: &Block) -> SourceRange {
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
    pub(super) fn label_range(&self, b: &Block, i: usize) -> SourceRange {
        self.range(b.labels.get(i).and_then(|l| l.span()).or(b.ident.span()))
    }
}

/// The parts of a body split by a schema of meta-arguments: the rest as a body of its own, or
/// borrowed in order ([`partial_parts`]).
pub(super) struct Content<'a, Rest = Body> {
    pub(super) attrs: BTreeMap<String, &'a Attribute>,
    pub(super) blocks: Vec<&'a Block>,
    pub(super) remain: Rest,
}

/// Splits a body into the named attributes/blocks and the rest (Go `PartialContent`), reporting
/// duplicate attributes ("Attribute redefined").
pub(super) fn partial_content<'a>(
    cx: &mut Ctx,
    body: &'a Body,
    attr_names: &[&str],
    block_names: &[&str],
) -> Content<'a> {
    let c = partial_parts(cx, body, attr_names, block_names);
    Content {
        attrs: c.attrs,
        blocks: c.blocks,
        remain: body_of(&c.remain),
    }
}

/// A body holding copies of `items`, sized for them: a body's vector would otherwise grow to a
/// power of two of 300-byte items (at 10,000 resources, 3 MB of the configuration was that
/// slack).
pub(super) fn body_of(items: &[&Structure]) -> Body {
    let mut body = Body::with_capacity(items.len());
    for s in items {
        body.push((*s).clone());
    }
    body
}

/// [`partial_content`] with the rest borrowed.
pub(super) fn partial_parts<'a>(
    cx: &mut Ctx,
    body: &'a Body,
    attr_names: &[&str],
    block_names: &[&str],
) -> Content<'a, Vec<&'a Structure>> {
    let mut attrs: BTreeMap<String, &'a Attribute> = BTreeMap::new();
    let mut blocks = Vec::new();
    let mut remain = Vec::new();
    // Each name with its span: the range (a line and column) is worked out only for a duplicate.
    let mut seen = SeenNames::default();
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => {
                let name = a.key.value().as_str();
                if let Some(prev) = seen.get(name) {
                    let detail = format!(
                        "The argument {} was already set at {}. Each argument may be set only once.",
                        go_quote(name),
                        go_range(&cx.range(prev.clone()))
                    );
                    cx.err("Attribute redefined", detail, a.key.span());
                    continue;
                }
                seen.insert(name, a.key.span());
                if attr_names.contains(&name) {
                    attrs.insert(name.to_string(), a);
                } else {
                    remain.push(s);
                }
            }
            Structure::Block(b) => {
                if block_names.contains(&b.ident.value().as_str()) {
                    blocks.push(b);
                } else {
                    remain.push(s);
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
pub(super) fn content<'a>(
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

pub(super) fn check_labels(cx: &mut Ctx, b: &Block, names: &[&str]) -> bool {
    let kind = b.ident.value().as_str();
    if b.labels.len() < names.len() {
        let missing = names[b.labels.len()];
        let detail = format!(
            "All {kind} blocks must have {} labels ({}).",
            names.len(),
            names.join(", ")
        );
        // HCL points at the block's opening brace (hclsyntax `Body.PartialContent`, Subject
        // `block.OpenBraceRange`).
        cx.err(
            &format!("Missing {missing} for {kind}"),
            detail,
            open_brace(cx, b).or(b.ident.span()),
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
pub(super) fn block_name(cx: &mut Ctx, b: &Block, invalid_summary: &str) -> Option<String> {
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
/// HCL's "Missing required argument" for a block's body, at the body's `MissingItemRange`: the
/// start of the body, which is its opening brace (hclsyntax `Body.PartialContent` and
/// `Body.MissingItemRange`, structure.go).
pub(super) fn missing_argument(cx: &mut Ctx, b: &Block, arg: &str) {
    cx.err(
        "Missing required argument",
        format!(
            "The argument {} is required, but no definition was found.",
            go_quote(arg)
        ),
        open_brace(cx, b).or(b.body.span()).or(b.span()),
    );
}

/// The span of a block's opening brace (HCL's `Block.OpenBraceRange`, where its body starts):
/// the first `{` after the block's type and labels. hcl-edit keeps no span for the brace itself.
pub(super) fn open_brace(cx: &Ctx, b: &Block) -> Option<std::ops::Range<usize>> {
    let header_end = b
        .labels
        .last()
        .and_then(|l| l.span())
        .or(b.ident.span())?
        .end;
    let gap = cx.file.rest_from(header_end).find('{')?;
    let at = header_end + gap;
    Some(at..at + 1)
}

/// At most one of `count`, `enabled` and `for_each` may be set: Go `complainRngAndMsg`
/// (configs/validation.go) and the "Invalid combination of …" diagnostic that
/// `decodeResourceBlock`, `decodeDataBlock`, `decodeEphemeralBlock` (configs/resource.go) and
/// `decodeModuleBlock` (configs/module_call.go) build with it. Each argument is given by the
/// span of its name, `None` when it is not set; the diagnostic covers the first to the last of
/// them in source order, and `noun_clause` ends the detail ("may be used to be explicit about
/// the number of resources to be created.").
pub(super) fn repetition_conflict(
    cx: &mut Ctx,
    count: Option<std::ops::Range<usize>>,
    enabled: Option<std::ops::Range<usize>>,
    for_each: Option<std::ops::Range<usize>>,
    noun_clause: &str,
) {
    let set: Vec<(&str, std::ops::Range<usize>)> = [
        ("\"count\"", count),
        ("\"enabled\"", enabled),
        ("\"for_each\"", for_each),
    ]
    .into_iter()
    .filter_map(|(n, r)| r.map(|r| (n, r)))
    .collect();
    if set.len() < 2 {
        return;
    }
    let mut names: Vec<String> = set.iter().map(|(n, _)| n.to_string()).collect();
    let msg = if names.len() >= 3 {
        let last = names.len() - 1;
        names[last] = format!("and {}", names[last]);
        names.join(", ")
    } else {
        names.join(" and ")
    };
    let mut spans: Vec<std::ops::Range<usize>> = set.into_iter().map(|(_, r)| r).collect();
    spans.sort_by_key(|r| r.start);
    let span = spans[0].start..spans[spans.len() - 1].end;
    cx.err(
        &format!("Invalid combination of {msg}"),
        format!("The {msg} meta-arguments are mutually-exclusive. Only one {noun_clause}"),
        Some(span),
    );
}

/// Keeps the first declaration of each name in a module: adds `item` under `key`, unless the map
/// already holds one; then reports `summary` at `item`'s declaration, with the detail that
/// `detail` gives for it and the first one's range (as Go prints it).
pub(super) fn insert_unique<T>(
    diags: &mut Vec<Diagnostic>,
    map: &mut BTreeMap<String, T>,
    item: (String, T),
    decl_range: fn(&T) -> &SourceRange,
    summary: &str,
    detail: impl FnOnce(&T, &str) -> String,
) {
    insert_unique_with(diags, map, item, decl_range, || summary.to_string(), detail);
}

/// [`insert_unique`] with a summary made only when there is a duplicate to report (one that
/// names the block's type: made for every resource, it was 20,000 strings at 10,000 resources).
pub(super) fn insert_unique_with<T>(
    diags: &mut Vec<Diagnostic>,
    map: &mut BTreeMap<String, T>,
    (key, item): (String, T),
    decl_range: fn(&T) -> &SourceRange,
    summary: impl FnOnce() -> String,
    detail: impl FnOnce(&T, &str) -> String,
) {
    match map.get(&key) {
        Some(prev) => {
            let detail = detail(&item, &go_range(decl_range(prev)));
            diags.push(Diagnostic::error(
                summary(),
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
pub(super) fn literal_string(e: &Expression) -> Option<String> {
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

pub(super) fn literal_bool(e: &Expression) -> Option<bool> {
    match e {
        Expression::Bool(b) => Some(*b.value()),
        _ => None,
    }
}

pub(super) fn decode_string_attr(cx: &mut Ctx, a: &Attribute) -> Option<String> {
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

pub(super) fn decode_bool_attr(cx: &mut Ctx, a: &Attribute) -> Option<bool> {
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
pub(super) fn expr_list<'e>(cx: &mut Ctx, e: &'e Expression) -> Vec<&'e Expression> {
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

/// The argument names a body has set so far, each with its span ([`partial_parts`]): a list
/// searched in order while short (most bodies set a handful: a map for each of 10,000 resource
/// bodies was 10,000 allocations), a map past [`SeenNames::LISTED`] so a body of thousands stays
/// linear.
#[derive(Default)]
struct SeenNames<'a> {
    listed: smallvec::SmallVec<[(&'a str, NameSpan); SeenNames::LISTED]>,
    mapped: BTreeMap<&'a str, NameSpan>,
}

/// Where a name was set: its key's span, when it has one.
type NameSpan = Option<std::ops::Range<usize>>;

impl<'a> SeenNames<'a> {
    const LISTED: usize = 8;

    fn get(&self, name: &str) -> Option<&NameSpan> {
        if self.mapped.is_empty() {
            self.listed.iter().find(|(n, _)| *n == name).map(|(_, s)| s)
        } else {
            self.mapped.get(name)
        }
    }

    fn insert(&mut self, name: &'a str, span: NameSpan) {
        if !self.mapped.is_empty() {
            self.mapped.insert(name, span);
        } else if self.listed.len() < Self::LISTED {
            self.listed.push((name, span));
        } else {
            self.mapped.extend(self.listed.drain(..));
            self.mapped.insert(name, span);
        }
    }
}

#[cfg(test)]
mod seen_names_tests {
    use super::SeenNames;

    /// Every name inserted is found with its own span, and no other is, whether the set is still
    /// a short list or has moved to a map.
    #[test]
    fn names_are_found_with_their_spans_in_the_list_and_past_it() {
        let names: Vec<String> = (0..20).map(|i| format!("arg_{i}")).collect();
        let mut seen = SeenNames::default();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(seen.get(n), None, "{n} before it is inserted");
            seen.insert(n, Some(i..i + 1));
            for (j, m) in names.iter().enumerate().take(i + 1) {
                assert_eq!(seen.get(m), Some(&Some(j..j + 1)), "{m} after {n}");
            }
            assert_eq!(seen.get("other"), None);
        }
    }
}
