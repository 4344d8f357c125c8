//! `resource`, `data` and `ephemeral` blocks and their `lifecycle` (OpenTofu's `configs/resource.go`).

use super::body::{
    BAD_IDENTIFIER_DETAIL, Ctx, check_labels, content, decode_bool_attr, expr_list, literal_bool,
    literal_string, partial_parts,
};
use super::check_rule::decode_check_rule;
use super::meta_args::{decode_depends_on, decode_provider_ref, shim_traversal_in_string};
use super::provisioner::{decode_connection, decode_provisioner};
use crate::addrs::traversal::{Step, static_traversal};
use crate::addrs::{self, ResourceMode};
use crate::config::model::*;
use crate::diag::{SourceRange, go_range};
use hcl::edit::Span;
use hcl::edit::expr::Expression;
use hcl::edit::structure::Block;

/// Data, managed or ephemeral resource block (Go `decodeResourceBlock`, `decodeDataBlock`,
/// `decodeEphemeralBlock`). `nested` is true for a data block inside a `check`.
pub(super) fn decode_resource<'b>(
    cx: &mut Ctx,
    b: &'b Block,
    mode: ResourceMode,
    nested: bool,
) -> Option<Resource> {
    if !check_labels(cx, b, &["type", "name"]) {
        return None;
    }
    let type_name: std::sync::Arc<str> = b.labels[0].as_str().into();
    let name: std::sync::Arc<str> = b.labels[1].as_str().into();
    let provider = cx
        .implied_providers
        .get(addrs::implied_provider_prefix(&type_name));
    let managed = mode == ResourceMode::Managed;
    let block_names: &[&str] = if managed {
        &["lifecycle", "_", "connection", "provisioner"]
    } else {
        &["lifecycle", "_"]
    };
    let mut c = partial_parts(
        cx,
        &b.body,
        &["count", "for_each", "provider", "depends_on"],
        block_names,
    );
    // The resource-type-specific arguments, in order: the rest of the body, then the contents of
    // a `_` block.
    let mut config: Vec<&'b hcl::edit::structure::Structure> = std::mem::take(&mut c.remain);
    let mut r = Resource {
        mode,
        type_name: type_name.clone(),
        name: name.clone(),
        config: HclBody::empty(cx.file),
        count: None,
        for_each: None,
        provider_ref: None,
        provider,
        preconditions: Vec::new(),
        postconditions: Vec::new(),
        depends_on: Vec::new(),
        triggers_replacement: Vec::new(),
        enabled: None,
        managed: managed.then(ManagedResource::default),
        container: None,
        decl_range: cx.def_range(b),
        type_range: cx.label_range(b, 0),
        serial: Serial::next(),
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
        }
    }
    if let Some(a) = c.attrs.get("provider") {
        r.provider_ref = decode_provider_ref(cx, &a.value, "provider").map(Box::new);
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
                    m.connection = Some(Box::new(conn));
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
                let blk: &'b Block = blk;
                config.extend(blk.body.iter());
            }
        }
    }
    if !nested {
        // `enabled` is set in `lifecycle` (the first one; a second is refused above).
        let enabled = c
            .blocks
            .iter()
            .find(|blk| blk.ident.value().as_str() == "lifecycle")
            .and_then(|blk| blk.body.get_attribute("enabled").and_then(|a| a.key.span()));
        let noun = match mode {
            ResourceMode::Managed => "resources",
            ResourceMode::Data => "data sources",
            ResourceMode::Ephemeral => "ephemeral resources",
        };
        super::body::repetition_conflict(
            cx,
            c.attrs.get("count").and_then(|a| a.key.span()),
            enabled,
            c.attrs.get("for_each").and_then(|a| a.key.span()),
            &format!("may be used to be explicit about the number of {noun} to be created."),
        );
    }
    match cx.body_refs.as_deref_mut() {
        // Only the body's references are wanted: found here, while the parse is at hand, so
        // the body is never copied (at 10,000 resources the copies were a third of the peak).
        Some(found) if !nested => {
            found.insert(
                r.serial,
                crate::config::refs::refs_in_structures(cx.file, config),
            );
        }
        _ => r.config = HclBody::new(super::body::body_of(&config), cx.file),
    }
    Some(r)
}

pub(super) fn decode_lifecycle(cx: &mut Ctx, blk: &Block, r: &mut Resource) {
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
