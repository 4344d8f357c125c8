//! References from expressions and bodies (Go `lang.References` + `addrs.ParseRef`).

use super::diag::{Diagnostic, SourceRange};
use super::model::{Expr, HclBody};
use super::traversal::Step;
use crate::addrs::Referenceable;
use crate::schema;

/// One reference found in an expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub subject: Referenceable,
    /// The range of the traversal that made the reference.
    pub range: SourceRange,
    /// The traversal steps after the part that names `subject` (`.id` in `aws_instance.a.id`).
    pub remaining: Vec<Step>,
}

/// A call of a provider-defined function: `provider::aws::arn_parse(...)`
/// (`provider::aws::west::fn` names an aliased configuration).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderFunctionRef {
    pub provider_name: String,
    pub alias: Option<String>,
    pub function: String,
    pub range: SourceRange,
}

/// Turns a static traversal into a reference (Go `addrs.ParseRef`).
pub fn parse_ref(steps: &[Step], range: &SourceRange) -> Result<Reference, Diagnostic> {
    let _ = (steps, range);
    Err(Diagnostic::error(
        "Invalid reference",
        "not implemented",
        None,
    ))
}

/// Every reference in an expression.
pub fn refs_in_expr(expr: &Expr) -> (Vec<Reference>, Vec<Diagnostic>) {
    let _ = expr;
    (Vec::new(), Vec::new())
}

/// Every reference in a body. With a schema only declared attributes and block types are read
/// (plus `dynamic` blocks of declared types, and blocks written for list/set-of-object
/// attributes); without one, every attribute and block counts.
pub fn refs_in_body(
    body: &HclBody,
    schema: Option<&schema::Block>,
) -> (Vec<Reference>, Vec<Diagnostic>) {
    let _ = (body, schema);
    (Vec::new(), Vec::new())
}

/// Provider-function calls in an expression.
pub fn provider_funcs_in_expr(expr: &Expr) -> Vec<ProviderFunctionRef> {
    let _ = expr;
    Vec::new()
}

/// Provider-function calls in a body, read like [`refs_in_body`].
pub fn provider_funcs_in_body(
    body: &HclBody,
    schema: Option<&schema::Block>,
) -> Vec<ProviderFunctionRef> {
    let _ = (body, schema);
    Vec::new()
}
