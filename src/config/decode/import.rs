//! `import` blocks (OpenTofu's `configs/import.go`).

use super::body::{Ctx, check_labels, content, missing_argument};
use super::meta_args::decode_provider_ref;
use crate::addrs;
use crate::addrs::traversal::Step;
use crate::config::model::*;
use hcl::edit::structure::Block;

pub(super) fn decode_import(cx: &mut Ctx, b: &Block) -> Option<Import> {
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

/// The provider local name implied by an import block's `to` address (its resource type).
pub(super) fn import_target_implied_provider(steps: &[Step]) -> String {
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
