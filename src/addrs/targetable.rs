//! `-target` and `-exclude` addresses and the resource address strings of state and plans
//! (`targetable.go`, `parse_target.go`).

use super::module::parse_module_instance_prefix;
use super::traversal::{Step, parse_traversal_str};
use super::{
    AbsResource, AbsResourceInstance, InstanceKey, ModuleInstance, Resource, ResourceMode,
};
use crate::strconv::go_quote;
use std::fmt;

/// An address accepted by `-target` and `-exclude`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Targetable {
    Module(ModuleInstance),
    Resource(AbsResource),
    ResourceInstance(AbsResourceInstance),
}

impl fmt::Display for Targetable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Targetable::Module(m) => write!(f, "{m}"),
            Targetable::Resource(r) => write!(f, "{r}"),
            Targetable::ResourceInstance(r) => write!(f, "{r}"),
        }
    }
}

impl Targetable {
    /// Parses a target address (Go `ParseTargetStr`): `aws_instance.a`, `module.x`,
    /// `module.x[0].aws_instance.y["k"]`, `data.t.n[1]`.
    pub fn parse(s: &str) -> Result<Targetable, String> {
        let steps = parse_traversal_str(s)?;
        Targetable::from_steps(&steps)
    }

    fn from_steps(steps: &[Step]) -> Result<Targetable, String> {
        let (module, i) = parse_module_instance_prefix(steps)?;
        if i == steps.len() {
            return Ok(Targetable::Module(module));
        }
        let (mode, j) = match steps.get(i) {
            Some(Step::Attr(n)) if n == "data" => (ResourceMode::Data, i + 1),
            Some(Step::Attr(n)) if n == "ephemeral" => (ResourceMode::Ephemeral, i + 1),
            _ => (ResourceMode::Managed, i),
        };
        let type_name = match steps.get(j) {
            Some(Step::Attr(n)) => n.clone(),
            _ => {
                return Err("Resource specification must include a resource type and name.".into());
            }
        };
        let name = match steps.get(j + 1) {
            Some(Step::Attr(n)) => n.clone(),
            Some(Step::Index(_)) => {
                return Err("Resource specification must include a resource type and name.".into());
            }
            None => {
                return Err(match mode {
                    ResourceMode::Data => "Data source name is required.".into(),
                    ResourceMode::Ephemeral => "Ephemeral resource name is required.".into(),
                    ResourceMode::Managed => "Resource name is required.".into(),
                });
            }
        };
        let resource = Resource::new(mode, &type_name, &name);
        match steps.get(j + 2) {
            None => Ok(Targetable::Resource(resource.absolute(module))),
            Some(Step::Index(k)) if j + 3 == steps.len() => Ok(Targetable::ResourceInstance(
                resource.instance(k.clone()).absolute(module),
            )),
            Some(Step::Index(_)) => Err("Unexpected extra operators after address.".into()),
            Some(Step::Attr(_)) => {
                Err("Resource instance key must be given in square brackets.".into())
            }
        }
    }
}

/// Parses an absolute resource address, with or without instance key (Go `ParseAbsResourceStr`
/// accepts only without). Used for state `dependencies` and plan change addresses.
pub fn parse_abs_resource_instance(s: &str) -> Result<AbsResourceInstance, String> {
    match Targetable::parse(s)? {
        Targetable::Resource(r) => Ok(r.instance(InstanceKey::None)),
        Targetable::ResourceInstance(r) => Ok(r),
        Targetable::Module(_) => Err(format!(
            "{} is a module address, not a resource address",
            go_quote(s)
        )),
    }
}

/// Parses `module.a.aws_instance.b` into an absolute resource (no instance key allowed).
pub fn parse_abs_resource(s: &str) -> Result<AbsResource, String> {
    match Targetable::parse(s)? {
        Targetable::Resource(r) => Ok(r),
        Targetable::ResourceInstance(_) => {
            Err("Resource instance address with keys is not allowed here.".into())
        }
        Targetable::Module(_) => Err(format!(
            "{} is a module address, not a resource address",
            go_quote(s)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::addrs::Module;

    #[test]
    fn targets() {
        assert_eq!(
            Targetable::parse("aws_instance.a").unwrap(),
            Targetable::Resource(
                Resource::new(ResourceMode::Managed, "aws_instance", "a")
                    .absolute(ModuleInstance::root())
            )
        );
        assert_eq!(
            Targetable::parse("module.x").unwrap(),
            Targetable::Module(ModuleInstance::root().child("x", InstanceKey::None))
        );
        let t = Targetable::parse("module.x[0].aws_instance.y[\"k\"]").unwrap();
        assert_eq!(t.to_string(), "module.x[0].aws_instance.y[\"k\"]");
        assert!(matches!(t, Targetable::ResourceInstance(_)));
        assert!(Targetable::parse("aws_instance").is_err());
        assert!(Targetable::parse("data.x.y[1]").is_ok());
        assert_eq!(
            ModuleInstance::parse("module.a[\"k\"].module.b")
                .unwrap()
                .to_string(),
            "module.a[\"k\"].module.b"
        );
        assert_eq!(
            Module::parse("module.a.module.b").unwrap().to_string(),
            "module.a.module.b"
        );
        assert!(Module::parse("module.a[0]").is_err());
        assert!(ModuleInstance::parse("aws_instance.x").is_err());
    }
}
