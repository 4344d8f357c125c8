//! `provider` blocks (OpenTofu's `configs/provider.go`).

use super::body::{BAD_IDENTIFIER_DETAIL, Ctx, block_name, literal_string, partial_content};
use crate::addrs;
use crate::config::model::*;
use crate::strconv::go_quote;
use hcl::edit::Span;
use hcl::edit::structure::Block;

pub(super) fn decode_provider_block(cx: &mut Ctx, b: &Block) -> Option<ProviderBlock> {
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
