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

impl Referenceable {
    /// The address's text into any writer: [`fmt::Display`] through a formatter, [`push_to`]
    /// straight into a string. Pieces are written as they are (no formatting machinery but for
    /// module calls and instance keys: reference keys are made for every reference of a
    /// configuration).
    ///
    /// [`push_to`]: Referenceable::push_to
    fn write_to<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        let (prefix, name) = match self {
            Referenceable::Resource(r) => return r.write_to(w),
            Referenceable::ResourceInstance(r) => return r.write_to(w),
            Referenceable::ModuleCall(m) => return write!(w, "{m}"),
            Referenceable::ModuleCallInstance(m) => return write!(w, "{m}"),
            Referenceable::ModuleCallInstanceOutput(m) => return write!(w, "{m}"),
            Referenceable::SelfRef => return w.write_str("self"),
            Referenceable::TerraformAttr { alias, name } => {
                w.write_str(alias)?;
                (".", name)
            }
            Referenceable::InputVariable(n) => ("var.", n),
            Referenceable::LocalValue(n) => ("local.", n),
            Referenceable::OutputValue(n) => ("output.", n),
            Referenceable::CountAttr(n) => ("count.", n),
            Referenceable::ForEachAttr(n) => ("each.", n),
            Referenceable::PathAttr(n) => ("path.", n),
            Referenceable::CheckBlock(n) => ("check.", n),
            Referenceable::Run(n) => ("run.", n),
        };
        w.write_str(prefix)?;
        w.write_str(name)
    }

    /// Appends the address as [`fmt::Display`] writes it, without a formatter (every reference
    /// is looked up by this text).
    pub fn push_to(&self, out: &mut String) {
        self.write_to(out)
            .expect("writing to a string does not fail");
    }
}

impl fmt::Display for Referenceable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
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
