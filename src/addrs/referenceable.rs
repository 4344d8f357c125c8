//! What an expression can refer to (`referenceable.go`).

use super::{ModuleCall, ModuleCallInstance, ModuleCallInstanceOutput, Resource, ResourceInstance};
use std::fmt;

/// What an expression can refer to (Go `addrs.Referenceable`), relative to the module that
/// contains the expression.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Referenceable {
    Resource(Resource),
    ResourceInstance(ResourceInstance),
    ModuleCall(ModuleCall),
    ModuleCallInstance(ModuleCallInstance),
    ModuleCallInstanceOutput(ModuleCallInstanceOutput),
    /// `var.name`
    InputVariable(String),
    /// `local.name`
    LocalValue(String),
    /// `output.name` is not referenceable from expressions; used by graph nodes only.
    OutputValue(String),
    /// `count.index`
    CountAttr(String),
    /// `each.key` / `each.value`
    ForEachAttr(String),
    /// `path.module`, `path.root`, `path.cwd`
    PathAttr(String),
    /// `terraform.workspace` (also `tofu.workspace`, stored as written)
    TerraformAttr {
        alias: String,
        name: String,
    },
    /// `self`
    SelfRef,
    /// `check.name` (a check block as a checkable object; never parsed from expressions)
    CheckBlock(String),
    /// `run.name` in test files
    Run(String),
}

/// `prefix` then `name`, written as they are (no formatting machinery: reference keys are made
/// for every reference of a configuration).
fn prefixed(f: &mut fmt::Formatter<'_>, prefix: &str, name: &str) -> fmt::Result {
    f.write_str(prefix)?;
    f.write_str(name)
}

impl fmt::Display for Referenceable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Referenceable::Resource(r) => r.fmt(f),
            Referenceable::ResourceInstance(r) => r.fmt(f),
            Referenceable::ModuleCall(m) => m.fmt(f),
            Referenceable::ModuleCallInstance(m) => m.fmt(f),
            Referenceable::ModuleCallInstanceOutput(m) => m.fmt(f),
            Referenceable::InputVariable(n) => prefixed(f, "var.", n),
            Referenceable::LocalValue(n) => prefixed(f, "local.", n),
            Referenceable::OutputValue(n) => prefixed(f, "output.", n),
            Referenceable::CountAttr(n) => prefixed(f, "count.", n),
            Referenceable::ForEachAttr(n) => prefixed(f, "each.", n),
            Referenceable::PathAttr(n) => prefixed(f, "path.", n),
            Referenceable::TerraformAttr { alias, name } => {
                f.write_str(alias)?;
                prefixed(f, ".", name)
            }
            Referenceable::SelfRef => f.write_str("self"),
            Referenceable::CheckBlock(n) => prefixed(f, "check.", n),
            Referenceable::Run(n) => prefixed(f, "run.", n),
        }
    }
}
