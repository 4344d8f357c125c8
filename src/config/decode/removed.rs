//! `removed` blocks (OpenTofu's `configs/removed.go`).

use super::body::{Ctx, check_labels, content, decode_bool_attr, missing_argument};
use super::provisioner::decode_provisioner;
use crate::config::model::*;
use hcl::edit::structure::Block;

pub(super) fn decode_removed(cx: &mut Ctx, b: &Block) -> Option<Removed> {
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
