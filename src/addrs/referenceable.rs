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

impl fmt::Display for Referenceable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Referenceable::Resource(r) => write!(f, "{r}"),
            Referenceable::ResourceInstance(r) => write!(f, "{r}"),
            Referenceable::ModuleCall(m) => write!(f, "{m}"),
            Referenceable::ModuleCallInstance(m) => write!(f, "{m}"),
            Referenceable::ModuleCallInstanceOutput(m) => write!(f, "{m}"),
            Referenceable::InputVariable(n) => write!(f, "var.{n}"),
            Referenceable::LocalValue(n) => write!(f, "local.{n}"),
            Referenceable::OutputValue(n) => write!(f, "output.{n}"),
            Referenceable::CountAttr(n) => write!(f, "count.{n}"),
            Referenceable::ForEachAttr(n) => write!(f, "each.{n}"),
            Referenceable::PathAttr(n) => write!(f, "path.{n}"),
            Referenceable::TerraformAttr { alias, name } => write!(f, "{alias}.{name}"),
            Referenceable::SelfRef => write!(f, "self"),
            Referenceable::CheckBlock(n) => write!(f, "check.{n}"),
            Referenceable::Run(n) => write!(f, "run.{n}"),
        }
    }
}
