//! Custom condition rules (`precondition`, `postcondition`, `validation`, `assert`): OpenTofu's
//! `configs/checks.go` `decodeCheckRuleBlock`, used by resources, variables, outputs and check blocks.

use super::body::{Ctx, check_labels, content, missing_argument};
use crate::config::model::*;
use hcl::edit::structure::Block;

pub(super) fn decode_check_rule(cx: &mut Ctx, b: &Block) -> Option<CheckRule> {
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
