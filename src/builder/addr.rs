//! The addresses the graph builder works with, printed exactly as OpenTofu prints them
//! (`module.a.aws_instance.web[0]`, `provider["registry.opentofu.org/hashicorp/aws"].alias`).
//!
//! Hand-written rather than taken from a crate: the textual forms must match OpenTofu's byte for
//! byte, because vertex names and reference-map keys are built from them.

use std::fmt;

/// A static module path (`addrs.Module`): the names of the module calls from the root.
pub type ModulePath = Vec<String>;

/// `module.a.module.b` (empty for the root module).
pub fn module_str(path: &[String]) -> String {
    let mut s = String::new();
    for (i, p) in path.iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        s.push_str("module.");
        s.push_str(p);
    }
    s
}

/// Prefixes `rest` with the module path and a dot, unless the path is the root.
pub fn in_module(path: &[String], rest: &str) -> String {
    if path.is_empty() {
        rest.to_string()
    } else {
        format!("{}.{}", module_str(path), rest)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    Managed,
    Data,
    Ephemeral,
}

/// `addrs.Resource`: a resource block's address within its module.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Resource {
    pub mode: Mode,
    pub ty: String,
    pub name: String,
}

impl Resource {
    pub fn new(mode: Mode, ty: &str, name: &str) -> Self {
        Resource {
            mode,
            ty: ty.to_string(),
            name: name.to_string(),
        }
    }
    /// The provider local name implied by the type (`aws` for `aws_instance`).
    pub fn implied_provider(&self) -> String {
        match self.ty.find('_') {
            Some(i) => self.ty[..i].to_string(),
            None => self.ty.clone(),
        }
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mode {
            Mode::Managed => write!(f, "{}.{}", self.ty, self.name),
            Mode::Data => write!(f, "data.{}.{}", self.ty, self.name),
            Mode::Ephemeral => write!(f, "ephemeral.{}.{}", self.ty, self.name),
        }
    }
}

/// An instance key: none, `[0]` or `["a"]`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum InstanceKey {
    #[default]
    NoKey,
    Int(i64),
    Str(String),
}

impl fmt::Display for InstanceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceKey::NoKey => Ok(()),
            InstanceKey::Int(i) => write!(f, "[{i}]"),
            InstanceKey::Str(s) => write!(f, "[{}]", go_quote(s)),
        }
    }
}

/// Go's `%q`-style quoting for the characters that occur in addresses.
pub fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `addrs.ConfigResource`: a resource in a static module path.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConfigResource {
    pub module: ModulePath,
    pub resource: Resource,
}

impl fmt::Display for ConfigResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&in_module(&self.module, &self.resource.to_string()))
    }
}

/// One step of a module instance path: `module.name[key]`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModuleInstanceStep {
    pub name: String,
    pub key: InstanceKey,
}

pub type ModuleInstance = Vec<ModuleInstanceStep>;

pub fn module_instance_str(mi: &[ModuleInstanceStep]) -> String {
    let mut s = String::new();
    for (i, st) in mi.iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        s.push_str("module.");
        s.push_str(&st.name);
        s.push_str(&st.key.to_string());
    }
    s
}

pub fn module_instance_path(mi: &[ModuleInstanceStep]) -> ModulePath {
    mi.iter().map(|s| s.name.clone()).collect()
}

/// `addrs.AbsResourceInstance`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AbsResourceInstance {
    pub module: ModuleInstance,
    pub resource: Resource,
    pub key: InstanceKey,
}

impl AbsResourceInstance {
    pub fn config_resource(&self) -> ConfigResource {
        ConfigResource {
            module: module_instance_path(&self.module),
            resource: self.resource.clone(),
        }
    }
    pub fn module_path(&self) -> ModulePath {
        module_instance_path(&self.module)
    }
    /// The containing resource as an absolute (module-instance) address string.
    pub fn abs_resource_str(&self) -> String {
        let m = module_instance_str(&self.module);
        if m.is_empty() {
            self.resource.to_string()
        } else {
            format!("{m}.{}", self.resource)
        }
    }
    /// Parses `module.a[0].aws_instance.b["k"]`, `data.x.y`, `ephemeral.x.y`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let steps = split_address(s)?;
        let mut module = Vec::new();
        let mut i = 0;
        while i < steps.len() && steps[i].0 == "module" {
            let (name, key) = steps
                .get(i + 1)
                .cloned()
                .ok_or_else(|| format!("invalid address {s:?}"))?;
            module.push(ModuleInstanceStep { name, key });
            i += 2;
        }
        let rest = &steps[i..];
        let (mode, rest) = match rest.first().map(|x| x.0.as_str()) {
            Some("data") => (Mode::Data, &rest[1..]),
            Some("ephemeral") => (Mode::Ephemeral, &rest[1..]),
            _ => (Mode::Managed, rest),
        };
        if rest.len() != 2 {
            return Err(format!("invalid resource address {s:?}"));
        }
        Ok(AbsResourceInstance {
            module,
            resource: Resource::new(mode, &rest[0].0, &rest[1].0),
            key: rest[1].1.clone(),
        })
    }
}

impl fmt::Display for AbsResourceInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.abs_resource_str(), self.key)
    }
}

/// Splits a dotted address into (name, key) steps; keys are `[n]` or `["s"]` after a name.
fn split_address(s: &str) -> Result<Vec<(String, InstanceKey)>, String> {
    let mut out: Vec<(String, InstanceKey)> = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i] != b'.' && b[i] != b'[' {
            i += 1;
        }
        let name = s[start..i].to_string();
        let mut key = InstanceKey::NoKey;
        if i < b.len() && b[i] == b'[' {
            let close = s[i..]
                .find(']')
                .ok_or_else(|| format!("invalid address {s:?}"))?
                + i;
            let inner = &s[i + 1..close];
            key = if let Some(q) = inner.strip_prefix('"') {
                InstanceKey::Str(q.trim_end_matches('"').to_string())
            } else {
                InstanceKey::Int(
                    inner
                        .parse()
                        .map_err(|_| format!("invalid index in {s:?}"))?,
                )
            };
            i = close + 1;
        }
        out.push((name, key));
        if i < b.len() {
            if b[i] != b'.' {
                return Err(format!("invalid address {s:?}"));
            }
            i += 1;
        }
    }
    Ok(out)
}

/// Parses a target/exclude address: a module instance (`module.a`, `module.a[0]`), a resource
/// (`aws_instance.b`, `module.a.aws_instance.b`) or a resource instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Targetable {
    Module(ModuleInstance),
    Resource {
        module: ModuleInstance,
        resource: Resource,
    },
    Instance(AbsResourceInstance),
}

impl Targetable {
    pub fn parse(s: &str) -> Result<Self, String> {
        let steps = split_address(s)?;
        let mut module = Vec::new();
        let mut i = 0;
        while i < steps.len() && steps[i].0 == "module" {
            let (name, key) = steps
                .get(i + 1)
                .cloned()
                .ok_or_else(|| format!("invalid address {s:?}"))?;
            module.push(ModuleInstanceStep { name, key });
            i += 2;
        }
        if i == steps.len() {
            return Ok(Targetable::Module(module));
        }
        let ri = AbsResourceInstance::parse(s)?;
        if ri.key == InstanceKey::NoKey && !s.ends_with(']') {
            Ok(Targetable::Resource {
                module: ri.module,
                resource: ri.resource,
            })
        } else {
            Ok(Targetable::Instance(ri))
        }
    }
}

/// `addrs.Provider`: a provider's fully-qualified name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Provider {
    pub hostname: String,
    pub namespace: String,
    pub ty: String,
}

pub const DEFAULT_REGISTRY: &str = "registry.opentofu.org";

impl Provider {
    /// `registry.opentofu.org/hashicorp/<ty>`.
    pub fn default_for(ty: &str) -> Self {
        Provider {
            hostname: DEFAULT_REGISTRY.into(),
            namespace: "hashicorp".into(),
            ty: ty.into(),
        }
    }
    /// Parses `hashicorp/aws`, `registry.opentofu.org/hashicorp/aws` or `aws`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let parts: Vec<&str> = s.split('/').collect();
        match parts.as_slice() {
            [ty] if !ty.is_empty() => Ok(Provider::default_for(&ty.to_lowercase())),
            [ns, ty] => Ok(Provider {
                hostname: DEFAULT_REGISTRY.into(),
                namespace: ns.to_lowercase(),
                ty: ty.to_lowercase(),
            }),
            [h, ns, ty] => Ok(Provider {
                hostname: h.to_lowercase(),
                namespace: ns.to_lowercase(),
                ty: ty.to_lowercase(),
            }),
            _ => Err(format!("invalid provider source string {s:?}")),
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.hostname, self.namespace, self.ty)
    }
}

/// `addrs.AbsProviderConfig`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AbsProviderConfig {
    pub module: ModulePath,
    pub provider: Provider,
    pub alias: Option<String>,
}

impl AbsProviderConfig {
    /// The same configuration looked up one module further up (`Inherited()`); aliased
    /// configurations are never inherited.
    pub fn inherited(&self) -> Option<Self> {
        if self.module.is_empty() || self.alias.is_some() {
            return None;
        }
        let mut p = self.clone();
        p.module.pop();
        Some(p)
    }

    /// Parses `provider["registry.opentofu.org/hashicorp/aws"].alias` with optional module prefix.
    pub fn parse(s: &str) -> Result<Self, String> {
        let idx = s
            .find("provider[")
            .ok_or_else(|| format!("invalid provider configuration address {s:?}"))?;
        let prefix = s[..idx].trim_end_matches('.');
        let mut module = Vec::new();
        if !prefix.is_empty() {
            for pair in split_address(prefix)?.chunks(2) {
                if let [(kw, _), (name, _)] = pair
                    && kw == "module"
                {
                    module.push(name.clone());
                }
            }
        }
        let rest = &s[idx + "provider[".len()..];
        let close = rest
            .find(']')
            .ok_or_else(|| format!("invalid provider configuration address {s:?}"))?;
        let fqn = rest[..close].trim_matches('"');
        let after = &rest[close + 1..];
        let alias = after.strip_prefix('.').map(|a| a.to_string());
        Ok(AbsProviderConfig {
            module,
            provider: Provider::parse(fqn)?,
            alias,
        })
    }
}

impl fmt::Display for AbsProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = format!("provider[\"{}\"]", self.provider);
        if let Some(a) = &self.alias {
            s.push('.');
            s.push_str(a);
        }
        f.write_str(&in_module(&self.module, &s))
    }
}

/// What a reference points at (`addrs.Referenceable`), printed as OpenTofu prints it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Subject {
    Resource(Resource),
    ResourceInstance(Resource, InstanceKey),
    ModuleCall(String),
    ModuleCallInstance(String, InstanceKey),
    /// `module.call[key].name` (key may be NoKey).
    ModuleCallInstanceOutput(String, InstanceKey, String),
    /// `module.call.name` as referenceable by an output (no key).
    ModuleCallOutput(String, String),
    InputVariable(String),
    LocalValue(String),
    OutputValue(String),
    Check(String),
    CountAttr(String),
    ForEachAttr(String),
    PathAttr(String),
    TerraformAttr(String),
    SelfRef,
    ProviderFunction {
        provider: String,
        alias: Option<String>,
        function: String,
    },
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Resource(r) => write!(f, "{r}"),
            Subject::ResourceInstance(r, k) => write!(f, "{r}{k}"),
            Subject::ModuleCall(c) => write!(f, "module.{c}"),
            Subject::ModuleCallInstance(c, k) => write!(f, "module.{c}{k}"),
            Subject::ModuleCallInstanceOutput(c, k, n) => write!(f, "module.{c}{k}.{n}"),
            Subject::ModuleCallOutput(c, n) => write!(f, "module.{c}.{n}"),
            Subject::InputVariable(n) => write!(f, "var.{n}"),
            Subject::LocalValue(n) => write!(f, "local.{n}"),
            Subject::OutputValue(n) => write!(f, "output.{n}"),
            Subject::Check(n) => write!(f, "check.{n}"),
            Subject::CountAttr(n) => write!(f, "count.{n}"),
            Subject::ForEachAttr(n) => write!(f, "each.{n}"),
            Subject::PathAttr(n) => write!(f, "path.{n}"),
            Subject::TerraformAttr(n) => write!(f, "terraform.{n}"),
            Subject::SelfRef => write!(f, "self"),
            Subject::ProviderFunction {
                provider,
                alias,
                function,
            } => match alias {
                Some(a) => write!(f, "provider::{provider}::{a}::{function}"),
                None => write!(f, "provider::{provider}::{function}"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_like_opentofu() {
        let p = AbsProviderConfig {
            module: vec!["sub".into()],
            provider: Provider::default_for("foo"),
            alias: Some("x".into()),
        };
        assert_eq!(
            p.to_string(),
            "module.sub.provider[\"registry.opentofu.org/hashicorp/foo\"].x"
        );
        assert_eq!(AbsProviderConfig::parse(&p.to_string()).unwrap(), p);
        let ri = AbsResourceInstance::parse("module.child.test_object.B[1]").unwrap();
        assert_eq!(ri.to_string(), "module.child.test_object.B[1]");
        assert_eq!(
            ri.config_resource().to_string(),
            "module.child.test_object.B"
        );
        let d = AbsResourceInstance::parse("ephemeral.aws_secret.foo").unwrap();
        assert_eq!(d.resource.mode, Mode::Ephemeral);
    }
}
