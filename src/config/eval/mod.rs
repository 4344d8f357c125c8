//! Static evaluation of `count`, `for_each` and `lifecycle.enabled`: how many instances a module
//! call or resource has, when that follows from the configuration alone.
//!
//! This lives with the configuration (not the walk) because it is a question about the
//! configuration and its root variable values; the walk's expander ([`crate::walk::expand`]) and
//! anything else (a UI showing instance counts) can ask it.
//!
//! Expressions are evaluated with hcl-rs's evaluator (`hcl::eval`), not one of our own: each
//! hcl-edit expression is converted to an `hcl::Expression` and evaluated in a context holding
//! what is known. What is supported:
//!
//! - literals, operators, conditionals (only the taken branch is evaluated), `for` expressions,
//!   string templates — everything `hcl::eval` does;
//! - `var.NAME`: root variables from `-var NAME=VALUE` (parsed as an HCL expression unless the
//!   variable has no type or type `string`, as OpenTofu does) or their `default`; a child module's
//!   variables from the module call's arguments, evaluated in the calling module instance (with
//!   its `count.index` / `each.key` / `each.value`), or their `default`;
//! - `local.NAME`, evaluated in the module instance, locals referring to locals included;
//! - `count.index`, `each.key`, `each.value` inside module calls' arguments;
//! - `terraform.workspace` (`"default"`);
//! - the functions `length`, `toset`, `tolist`, `tomap`, `keys`, `values`, `range`, `concat`,
//!   `merge`, `distinct`, `contains`, `lookup`, `min`, `max`, `coalesce`, `compact`, `flatten`,
//!   `tostring`, `tonumber`, `tobool` (in `functions.rs`: hcl-rs ships no function library).
//!
//! Anything else — a resource or data source attribute, a module output, a variable with no value,
//! an unlisted function, `path.*` — makes the value unknown, and an unknown `count`/`for_each`
//! makes the instance set unknown; we report that with the reason rather than guess. hcl-rs has
//! no set type: a set is an array of distinct strings in lexical order (the order cty gives a set
//! of strings), so a `for_each` over a list of strings is accepted although OpenTofu would ask for
//! `toset` first.
//!
//! Files: `instances.rs` ([`StaticEval`]: module instances, their scopes, instance sets),
//! `scope.rs` (evaluating one expression in a scope), `metering.rs` (bounds on size and work),
//! `functions.rs`, `arith.rs` (arithmetic with cty's results where hcl-rs's operators would panic).

mod arith;
mod functions;
mod instances;
mod metering;
mod scope;

pub(crate) use arith::{error_text, evaluate_constant, operation_error};
pub use instances::{MAX_INSTANCES, StaticEval, Unknown, instance_keys_with, parse_var_value};
pub use metering::{MAX_VALUE_SIZE, value_size};
pub use scope::{Bindings, Instance, evaluate};
