//! `provisioner` and `connection` blocks inside resources and `removed` blocks (OpenTofu's
//! `configs/provisioner.go`).

use super::body::{Ctx, check_labels, partial_content};
use crate::addrs::traversal::{Step, static_traversal};
use crate::config::model::*;
use crate::diag::{SourceRange, go_range};
use crate::strconv::go_quote;
use hcl::edit::Span;
use hcl::edit::structure::Block;

pub(super) fn decode_connection(cx: &mut Ctx, b: &Block) -> Connection {
    check_labels(cx, b, &[]);
    Connection {
        config: HclBody::new(b.body.clone(), cx.file),
        decl_range: cx.def_range(b),
    }
}

pub(super) fn decode_provisioner(cx: &mut Ctx, b: &Block) -> Option<Provisioner> {
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
