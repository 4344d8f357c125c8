//! `check` blocks with their scoped data source and `assert` rules (OpenTofu's `configs/checks.go`).

use super::body::{Ctx, block_name, content};
use super::check_rule::decode_check_rule;
use super::resource::decode_resource;
use crate::addrs::ResourceMode;
use crate::config::model::*;
use crate::diag::go_range;
use hcl::edit::Span;
use hcl::edit::structure::Block;

pub(super) fn decode_check(cx: &mut Ctx, b: &Block) -> Option<Check> {
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
