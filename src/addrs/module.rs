//! Module paths (`module.go`, `module_instance.go`): static `module.a.module.b` and with instance
//! keys `module.a[0].module.b["x"]`.

use super::InstanceKey;
use super::traversal::{Step, parse_traversal_str};
use crate::strconv::go_quote;
use std::fmt;

/// A static module path (`module.a.module.b`); the root module is the empty path. Shared, not
/// copied: every resource vertex, provider address and reference key holds its module's path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Module(pub std::sync::Arc<[String]>);

impl Module {
    pub fn root() -> Self {
        Module(Vec::new().into())
    }
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }
    pub fn child(&self, name: &str) -> Module {
        let mut v = self.0.to_vec();
        v.push(name.to_string());
        Module(v.into())
    }
    pub fn parent(&self) -> Option<Module> {
        if self.0.is_empty() {
            return None;
        }
        Some(Module(self.0[..self.0.len() - 1].into()))
    }
    /// The unexpanded instance path (every step without a key).
    pub fn unkeyed_instance(&self) -> ModuleInstance {
        ModuleInstance(
            self.0
                .iter()
                .map(|n| ModuleInstanceStep {
                    name: n.clone(),
                    key: InstanceKey::None,
                })
                .collect(),
        )
    }
    /// Parses `module.a.module.b` (no instance keys; `""` is the root).
    pub fn parse(s: &str) -> Result<Module, String> {
        if s.trim().is_empty() {
            return Ok(Module::root());
        }
        let mi = ModuleInstance::parse(s)?;
        if mi.0.iter().any(|st| !st.key.is_none()) {
            return Err(format!(
                "Module address {} must not have instance keys.",
                go_quote(s)
            ));
        }
        Ok(mi.module())
    }
    /// True when `self` is `other` or one of its ancestors.
    pub fn is_ancestor_or_self_of(&self, other: &Module) -> bool {
        other.0.len() >= self.0.len() && other.0[..self.0.len()] == self.0[..]
    }
    /// `rest` prefixed with this path and a dot (`module.a.var.x`), or `rest` alone in the root.
    pub fn qualify(&self, rest: impl fmt::Display) -> String {
        if self.is_root() {
            rest.to_string()
        } else {
            format!("{self}.{rest}")
        }
    }
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, n) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            f.write_str("module.")?;
            f.write_str(n)?;
        }
        Ok(())
    }
}

/// One step of a module instance path: `module.name[key]`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModuleInstanceStep {
    pub name: String,
    pub key: InstanceKey,
}

/// A module instance path (`module.a[0].module.b["x"]`); the root is the empty path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ModuleInstance(pub Vec<ModuleInstanceStep>);

impl ModuleInstance {
    pub fn root() -> Self {
        ModuleInstance(Vec::new())
    }
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }
    pub fn child(&self, name: &str, key: InstanceKey) -> ModuleInstance {
        let mut v = self.0.clone();
        v.push(ModuleInstanceStep {
            name: name.to_string(),
            key,
        });
        ModuleInstance(v)
    }
    pub fn parent(&self) -> Option<ModuleInstance> {
        if self.0.is_empty() {
            return None;
        }
        Some(ModuleInstance(self.0[..self.0.len() - 1].to_vec()))
    }
    /// Parses `module.a[0].module.b["x"]` (`""` is the root), as Go's `ParseModuleInstance`.
    pub fn parse(s: &str) -> Result<ModuleInstance, String> {
        if s.trim().is_empty() {
            return Ok(ModuleInstance::root());
        }
        let steps = parse_traversal_str(s)?;
        match parse_module_instance_prefix(&steps)? {
            (m, used) if used == steps.len() => Ok(m),
            (_, 0) => Err(format!(
                "{}: a module instance address must begin with \"module.\".",
                go_quote(s)
            )),
            _ => Err(format!(
                "{}: the module instance address is followed by additional invalid content.",
                go_quote(s)
            )),
        }
    }
    /// The static module path, dropping instance keys.
    pub fn module(&self) -> Module {
        Module(self.0.iter().map(|s| s.name.clone()).collect())
    }
    /// True when `self` is `other` or one of its ancestors.
    pub fn is_ancestor_or_self_of(&self, other: &ModuleInstance) -> bool {
        other.0.len() >= self.0.len() && other.0[..self.0.len()] == self.0[..]
    }
}

impl fmt::Display for ModuleInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            f.write_str("module.")?;
            f.write_str(&s.name)?;
            s.key.fmt(f)?;
        }
        Ok(())
    }
}

/// The `module.NAME[KEY]` steps a traversal starts with (Go `parseModuleInstancePrefix`): the
/// module instance they name and how many steps that took.
pub(super) fn parse_module_instance_prefix(
    steps: &[Step],
) -> Result<(ModuleInstance, usize), String> {
    let mut i = 0;
    let mut module = ModuleInstance::root();
    while let Some(Step::Attr(n)) = steps.get(i) {
        if n != "module" {
            break;
        }
        let name = match steps.get(i + 1) {
            Some(Step::Attr(n)) => n.clone(),
            _ => return Err("Prefix \"module.\" must be followed by a module name.".into()),
        };
        i += 2;
        let key = match steps.get(i) {
            Some(Step::Index(k)) => {
                i += 1;
                k.clone()
            }
            _ => InstanceKey::None,
        };
        module = module.child(&name, key);
    }
    Ok((module, i))
}
