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

impl Referenceable {
    /// Appends the address as [`fmt::Display`] writes it; the common kinds without the formatting
    /// machinery (every reference is looked up by this text).
    pub fn push_to(&self, out: &mut String) {
        let (prefix, name) = match self {
            Referenceable::Resource(r) => return r.push_to(out),
            Referenceable::ResourceInstance(r) if r.key == super::InstanceKey::None => {
                return r.resource.push_to(out);
            }
            Referenceable::InputVariable(n) => ("var.", n),
            Referenceable::LocalValue(n) => ("local.", n),
            _ => {
                use std::fmt::Write;
                return write!(out, "{self}").expect("writing to a string does not fail");
            }
        };
        out.push_str(prefix);
        out.push_str(name);
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addrs::{InstanceKey, ResourceMode, parse_ref_str};

    /// `push_to` writes what `Display` writes, for the kinds it writes itself and the rest.
    #[test]
    fn push_to_writes_the_display_text() {
        let mut subjects: Vec<Referenceable> = [
            "aws_instance.web",
            "aws_instance.web[2]",
            "aws_instance.web[\"a b\"]",
            "data.aws_ami.ubuntu",
            "ephemeral.random_password.p",
            "var.region",
            "local.tags",
            "module.vpc",
            "module.vpc[\"x\"].id",
            "module.vpc.id",
            "count.index",
            "each.key",
            "path.module",
            "terraform.workspace",
            "self",
        ]
        .iter()
        .map(|s| parse_ref_str(s).expect(s).subject)
        .collect();
        let r = Resource::new(ResourceMode::Data, "t", "n");
        subjects.push(Referenceable::ResourceInstance(
            r.instance(InstanceKey::None),
        ));
        subjects.push(Referenceable::OutputValue("o".into()));
        for s in subjects {
            let mut pushed = String::from("prefix|");
            s.push_to(&mut pushed);
            assert_eq!(pushed, format!("prefix|{s}"), "{s:?}");
        }
    }
}
