//! Resources and resource instances, relative to a module and absolute (`resource.go`).

use super::{InstanceKey, Module, ModuleInstance};
use std::fmt;
use std::sync::Arc;

/// Managed (`resource`), data (`data`) or ephemeral (`ephemeral`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum ResourceMode {
    Managed,
    Data,
    Ephemeral,
}

impl ResourceMode {
    /// The address prefix (`""`, `"data."`, `"ephemeral."`).
    pub fn prefix(self) -> &'static str {
        match self {
            ResourceMode::Managed => "",
            ResourceMode::Data => "data.",
            ResourceMode::Ephemeral => "ephemeral.",
        }
    }
    /// The state file's `mode` string.
    pub fn state_name(self) -> &'static str {
        match self {
            ResourceMode::Managed => "managed",
            ResourceMode::Data => "data",
            ResourceMode::Ephemeral => "ephemeral",
        }
    }
}

/// A resource relative to its module: `aws_instance.a`, `data.x.y`, `ephemeral.x.y`. Its type and
/// name are shared strings: the address is copied into every vertex, reference key and
/// instance made from the resource, and a copy is then two counts rather than two strings.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Resource {
    pub mode: ResourceMode,
    pub type_name: Arc<str>,
    pub name: Arc<str>,
}

impl Resource {
    pub fn new(mode: ResourceMode, type_name: &str, name: &str) -> Self {
        Resource {
            mode,
            type_name: type_name.into(),
            name: name.into(),
        }
    }
    pub fn instance(&self, key: InstanceKey) -> ResourceInstance {
        ResourceInstance {
            resource: self.clone(),
            key,
        }
    }
    pub fn absolute(&self, module: ModuleInstance) -> AbsResource {
        AbsResource {
            module,
            resource: self.clone(),
        }
    }
    pub fn in_module(&self, module: Module) -> ConfigResource {
        ConfigResource {
            module,
            resource: self.clone(),
        }
    }
    /// The address's text into any writer, piece by piece: [`fmt::Display`] through a formatter,
    /// [`Resource::push_to`] straight into a string (these texts are made for every vertex name
    /// and reference key).
    pub(super) fn write_to<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        w.write_str(self.mode.prefix())?;
        w.write_str(&self.type_name)?;
        w.write_str(".")?;
        w.write_str(&self.name)
    }
    /// Appends the address as [`fmt::Display`] writes it, without a formatter (for lookup keys
    /// made tens of thousands of times).
    pub fn push_to(&self, out: &mut String) {
        self.write_to(out)
            .expect("writing to a string does not fail");
    }
    /// The provider local name implied by the type: everything before the first `_`
    /// (the whole type when there is none).
    pub fn implied_provider(&self) -> String {
        implied_provider_local_name(&self.type_name)
    }
}

/// The provider local name implied by a resource type name.
pub fn implied_provider_local_name(type_name: &str) -> String {
    implied_provider_prefix(type_name).to_string()
}

/// [`implied_provider_local_name`] as a part of the type name (no copy).
pub fn implied_provider_prefix(type_name: &str) -> &str {
    type_name.split_once('_').map_or(type_name, |(p, _)| p)
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// A resource instance relative to its module: `aws_instance.a[0]`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ResourceInstance {
    pub resource: Resource,
    pub key: InstanceKey,
}

impl ResourceInstance {
    pub fn absolute(&self, module: ModuleInstance) -> AbsResourceInstance {
        AbsResourceInstance {
            module,
            resource: self.clone(),
        }
    }
}

impl ResourceInstance {
    /// The address's text into any writer ([`Resource::write_to`], then the key if there is
    /// one).
    pub(super) fn write_to<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        self.resource.write_to(w)?;
        match self.key {
            InstanceKey::None => Ok(()),
            ref key => write!(w, "{key}"),
        }
    }
}

impl fmt::Display for ResourceInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

fn write_with_module(
    f: &mut fmt::Formatter<'_>,
    module: &dyn fmt::Display,
    root: bool,
    rest: &dyn fmt::Display,
) -> fmt::Result {
    if !root {
        module.fmt(f)?;
        f.write_str(".")?;
    }
    rest.fmt(f)
}

/// A resource in a static module path (Go `ConfigResource`): `module.a.aws_instance.b`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConfigResource {
    pub module: Module,
    pub resource: Resource,
}

impl fmt::Display for ConfigResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl ConfigResource {
    /// The address's text into any writer, piece by piece: each module step, then the resource.
    fn write_to<W: fmt::Write>(&self, w: &mut W) -> fmt::Result {
        for n in self.module.0.iter() {
            w.write_str("module.")?;
            w.write_str(n)?;
            w.write_str(".")?;
        }
        self.resource.write_to(w)
    }
    /// Appends the address as [`fmt::Display`] writes it, without a formatter: a vertex's name
    /// is made from it for every resource vertex the graph prints.
    pub fn push_to(&self, out: &mut String) {
        self.write_to(out)
            .expect("writing to a string does not fail");
    }
}

/// A resource in a module instance (Go `AbsResource`): `module.a[0].aws_instance.b`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AbsResource {
    pub module: ModuleInstance,
    pub resource: Resource,
}

impl AbsResource {
    pub fn instance(&self, key: InstanceKey) -> AbsResourceInstance {
        AbsResourceInstance {
            module: self.module.clone(),
            resource: self.resource.instance(key),
        }
    }
    pub fn config(&self) -> ConfigResource {
        ConfigResource {
            module: self.module.module(),
            resource: self.resource.clone(),
        }
    }
}

impl fmt::Display for AbsResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_with_module(f, &self.module, self.module.is_root(), &self.resource)
    }
}

/// A resource instance in a module instance (Go `AbsResourceInstance`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AbsResourceInstance {
    pub module: ModuleInstance,
    pub resource: ResourceInstance,
}

impl AbsResourceInstance {
    pub fn contains_resource(&self) -> AbsResource {
        AbsResource {
            module: self.module.clone(),
            resource: self.resource.resource.clone(),
        }
    }
    pub fn config_resource(&self) -> ConfigResource {
        self.contains_resource().config()
    }
}

impl fmt::Display for AbsResourceInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_with_module(f, &self.module, self.module.is_root(), &self.resource)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_strings() {
        let r = Resource::new(ResourceMode::Data, "x", "y");
        assert_eq!(r.to_string(), "data.x.y");
        let ri = r
            .instance(InstanceKey::Str("a\"b".into()))
            .absolute(ModuleInstance::root().child("m", InstanceKey::Int(0)));
        assert_eq!(ri.to_string(), "module.m[0].data.x.y[\"a\\\"b\"]");
        assert_eq!(
            Resource::new(ResourceMode::Ephemeral, "e", "n").to_string(),
            "ephemeral.e.n"
        );
        assert_eq!(
            Resource::new(ResourceMode::Managed, "aws_instance", "a").implied_provider(),
            "aws"
        );
    }

    /// `push_to` writes what `Display` writes, in the root module and below it, for each mode.
    #[test]
    fn config_resource_push_to_writes_the_display_text() {
        for module in [
            vec![],
            vec!["a".to_string()],
            vec!["a".into(), "b_c".into()],
        ] {
            for mode in [
                ResourceMode::Managed,
                ResourceMode::Data,
                ResourceMode::Ephemeral,
            ] {
                let addr = Resource::new(mode, "aws_instance", "web")
                    .in_module(Module(module.clone().into()));
                let mut pushed = String::from("x ");
                addr.push_to(&mut pushed);
                assert_eq!(pushed, format!("x {addr}"));
            }
        }
    }
}
