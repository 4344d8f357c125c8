//! `module` blocks (OpenTofu's `configs/module_call.go`).

use super::body::{
    Ctx, block_name, content, decode_string_attr, literal_string, missing_argument, partial_content,
};
use super::meta_args::{decode_depends_on, decode_provider_ref};
use crate::addrs;
use crate::config::model::*;
use crate::diag::go_range;
use crate::strconv::go_quote;
use hcl::edit::Span;
use hcl::edit::expr::{Expression, ObjectKey};
use hcl::edit::structure::Block;

pub(super) fn decode_module_call(cx: &mut Ctx, b: &Block) -> Option<ModuleCall> {
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
        not_installed: false,
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
    let enabled = c
        .blocks
        .iter()
        .find(|blk| blk.ident.value().as_str() == "lifecycle")
        .and_then(|blk| blk.body.get_attribute("enabled").and_then(|a| a.key.span()));
    super::body::repetition_conflict(
        cx,
        c.attrs.get("count").and_then(|a| a.key.span()),
        enabled,
        c.attrs.get("for_each").and_then(|a| a.key.span()),
        "should be used to be explicit about the number of module instances to be created.",
    );
    m.config = HclBody::new(config, cx.file);
    Some(m)
}
