//! `moved` blocks (OpenTofu's `configs/moved.go`).

use super::body::{Ctx, check_labels, content, missing_argument};
use crate::addrs::traversal::static_traversal;
use crate::config::model::*;
use hcl::edit::Span;
use hcl::edit::structure::Block;

pub(super) fn decode_moved(cx: &mut Ctx, b: &Block) -> Option<Moved> {
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
