//! Provider source addresses and provider configurations (`provider.go`, `provider_config.go`).

use super::{Module, is_identifier};
use crate::strconv::go_quote;
use std::fmt;

/// The registry host OpenTofu assumes for unqualified provider source addresses.
pub const DEFAULT_PROVIDER_REGISTRY_HOST: &str = "registry.opentofu.org";
/// The namespace used for providers implied from a resource type or a `provider` block name.
pub const DEFAULT_PROVIDER_NAMESPACE: &str = "hashicorp";
/// The host of built-in providers (`terraform.io/builtin/terraform`).
pub const BUILTIN_PROVIDER_HOST: &str = "terraform.io";
/// The namespace of built-in providers.
pub const BUILTIN_PROVIDER_NAMESPACE: &str = "builtin";
/// The namespace of legacy (pre-0.13, unqualified) provider addresses.
pub const LEGACY_PROVIDER_NAMESPACE: &str = "-";

/// A provider source address (Go `addrs.Provider`): hostname/namespace/type. Its parts are read
/// through [`ProviderParts`]; they are shared, so a copy is a count, not three strings (every
/// resource vertex asks for its provider, several times in a build).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Provider(std::sync::Arc<ProviderParts>);

/// The three parts of a [`Provider`].
#[derive(PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProviderParts {
    pub hostname: String,
    pub namespace: String,
    pub type_name: String,
}

impl std::ops::Deref for Provider {
    type Target = ProviderParts;
    fn deref(&self) -> &ProviderParts {
        &self.0
    }
}

impl fmt::Debug for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As the derived form of the three fields was, before they were shared.
        f.debug_struct("Provider")
            .field("hostname", &self.hostname)
            .field("namespace", &self.namespace)
            .field("type_name", &self.type_name)
            .finish()
    }
}

impl Provider {
    pub fn new(hostname: &str, namespace: &str, type_name: &str) -> Self {
        Provider(std::sync::Arc::new(ProviderParts {
            hostname: hostname.to_string(),
            namespace: namespace.to_string(),
            type_name: type_name.to_string(),
        }))
    }
    /// `registry.opentofu.org/hashicorp/<type>`.
    pub fn default_for(type_name: &str) -> Self {
        Provider::new(
            DEFAULT_PROVIDER_REGISTRY_HOST,
            DEFAULT_PROVIDER_NAMESPACE,
            type_name,
        )
    }
    /// `terraform.io/builtin/<type>`.
    pub fn builtin(type_name: &str) -> Self {
        Provider::new(BUILTIN_PROVIDER_HOST, BUILTIN_PROVIDER_NAMESPACE, type_name)
    }
    /// `registry.opentofu.org/-/<type>`.
    pub fn legacy(type_name: &str) -> Self {
        Provider::new(
            DEFAULT_PROVIDER_REGISTRY_HOST,
            LEGACY_PROVIDER_NAMESPACE,
            type_name,
        )
    }
    /// The provider OpenTofu implies for a local name that has no `required_providers` entry
    /// (Go `ImpliedProviderForUnqualifiedType`): `terraform` is built in, the rest `hashicorp/`.
    pub fn implied(local_name: &str) -> Self {
        if local_name == "terraform" {
            Provider::builtin(local_name)
        } else {
            Provider::default_for(local_name)
        }
    }
    pub fn is_builtin(&self) -> bool {
        self.hostname == BUILTIN_PROVIDER_HOST && self.namespace == BUILTIN_PROVIDER_NAMESPACE
    }
    pub fn is_legacy(&self) -> bool {
        self.hostname == DEFAULT_PROVIDER_REGISTRY_HOST
            && self.namespace == LEGACY_PROVIDER_NAMESPACE
    }
    /// The short form users see (`hashicorp/aws`, host dropped when it is the default registry).
    pub fn for_display(&self) -> String {
        if self.hostname == DEFAULT_PROVIDER_REGISTRY_HOST {
            format!("{}/{}", self.namespace, self.type_name)
        } else {
            self.to_string()
        }
    }
    /// Parses a `required_providers` source string (Go `ParseProviderSource`): `aws`,
    /// `hashicorp/aws` or `host/ns/aws`. Case is folded to lower case, as OpenTofu does.
    pub fn parse_source(s: &str) -> Result<Provider, String> {
        let parts: Vec<&str> = s.split('/').collect();
        let valid = |p: &str| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '_' || c == '.')
        };
        match parts.as_slice() {
            [t] if valid(t) => Ok(Provider::implied(&t.to_lowercase())),
            [ns, t] if valid(ns) && valid(t) => Ok(Provider::new(
                DEFAULT_PROVIDER_REGISTRY_HOST,
                &ns.to_lowercase(),
                &t.to_lowercase(),
            )),
            [h, ns, t] if valid(h) && valid(ns) && valid(t) => Ok(Provider::new(
                &h.to_lowercase(),
                &ns.to_lowercase(),
                &t.to_lowercase(),
            )),
            _ => Err(format!(
                "The \"source\" attribute must be in the format \"[hostname/][namespace/]name\", but got {}.",
                go_quote(s)
            )),
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.hostname, self.namespace, self.type_name)
    }
}

/// A provider configuration named in a module (Go `LocalProviderConfig`): `aws` or `aws.west`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LocalProviderConfig {
    pub local_name: String,
    pub alias: Option<String>,
}

impl LocalProviderConfig {
    pub fn new(local_name: &str, alias: Option<&str>) -> Self {
        LocalProviderConfig {
            local_name: local_name.to_string(),
            alias: alias.map(str::to_string),
        }
    }
}

impl fmt::Display for LocalProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.alias {
            Some(a) => write!(f, "provider.{}.{}", self.local_name, a),
            None => write!(f, "provider.{}", self.local_name),
        }
    }
}

impl LocalProviderConfig {
    /// The key a module uses for its `provider` blocks (Go `moduleUniqueKey`): `aws`, `aws.west`.
    pub fn key(&self) -> String {
        match &self.alias {
            Some(a) => format!("{}.{}", self.local_name, a),
            None => self.local_name.clone(),
        }
    }
}

/// A provider configuration in a static module path (Go `AbsProviderConfig`).
/// Display: `provider["registry.opentofu.org/hashicorp/aws"]`, with `.alias` and a
/// `module.x.` prefix where they apply.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AbsProviderConfig {
    pub module: Module,
    pub provider: Provider,
    pub alias: Option<String>,
}

impl AbsProviderConfig {
    pub fn new(module: Module, provider: Provider, alias: Option<&str>) -> Self {
        AbsProviderConfig {
            module,
            provider,
            alias: alias.map(str::to_string),
        }
    }

    /// The same configuration one module further up (Go `Inherited`): how a default provider
    /// configuration is found in an ancestor. Aliased configurations and the root's are never
    /// inherited.
    pub fn inherited(&self) -> Option<AbsProviderConfig> {
        if self.alias.is_some() {
            return None;
        }
        Some(AbsProviderConfig {
            module: self.module.parent()?,
            provider: self.provider.clone(),
            alias: None,
        })
    }

    /// Parses the string form used in state files and graph text (Go `ParseAbsProviderConfigStr`),
    /// including the legacy `provider.aws` / `module.x.provider.aws.alias` forms, which map to
    /// legacy (`-` namespace) providers as OpenTofu does.
    pub fn parse(s: &str) -> Result<AbsProviderConfig, String> {
        let err = || {
            format!(
                "Invalid provider configuration address {}: expected provider[\"hostname/namespace/type\"] optionally prefixed by module path and followed by .alias",
                go_quote(s)
            )
        };
        let mut rest = s;
        let mut module = Vec::new();
        while let Some(r) = rest.strip_prefix("module.") {
            let (name, after) = split_ident(r);
            if name.is_empty() {
                return Err(err());
            }
            let after = after.strip_prefix('.').ok_or_else(err)?;
            module.push(name.to_string());
            rest = after;
        }
        let rest = rest.strip_prefix("provider").ok_or_else(err)?;
        if let Some(r) = rest.strip_prefix("[\"") {
            let end = r.find("\"]").ok_or_else(err)?;
            let provider = Provider::parse_source(&r[..end]).map_err(|_| err())?;
            let after = &r[end + 2..];
            let alias = if after.is_empty() {
                None
            } else {
                let a = after.strip_prefix('.').ok_or_else(err)?;
                if a.is_empty() || !is_identifier(a) {
                    return Err(err());
                }
                Some(a)
            };
            Ok(AbsProviderConfig::new(
                Module(module.into()),
                provider,
                alias,
            ))
        } else if let Some(r) = rest.strip_prefix('.') {
            // Legacy form: provider.aws or provider.aws.alias
            let mut parts = r.split('.');
            let name = parts.next().filter(|n| is_identifier(n)).ok_or_else(err)?;
            let alias = parts.next();
            if parts.next().is_some() || alias.is_some_and(|a| !is_identifier(a)) {
                return Err(err());
            }
            let provider = if name == "terraform" {
                Provider::builtin(name)
            } else {
                Provider::legacy(name)
            };
            Ok(AbsProviderConfig::new(
                Module(module.into()),
                provider,
                alias,
            ))
        } else {
            Err(err())
        }
    }
}

impl fmt::Display for AbsProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.module.is_root() {
            write!(f, "{}.", self.module)?;
        }
        write!(f, "provider[{}]", go_quote(&self.provider.to_string()))?;
        if let Some(a) = &self.alias {
            write!(f, ".{a}")?;
        }
        Ok(())
    }
}

fn split_ident(s: &str) -> (&str, &str) {
    let end = s
        .char_indices()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '-'))
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    s.split_at(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_config_strings() {
        let aws = Provider::default_for("aws");
        assert_eq!(
            AbsProviderConfig::new(Module::root(), aws.clone(), None).to_string(),
            "provider[\"registry.opentofu.org/hashicorp/aws\"]"
        );
        assert_eq!(
            AbsProviderConfig::new(Module::root(), aws.clone(), Some("foo")).to_string(),
            "provider[\"registry.opentofu.org/hashicorp/aws\"].foo"
        );
        assert_eq!(
            AbsProviderConfig::new(Module::root().child("child"), aws, None).to_string(),
            "module.child.provider[\"registry.opentofu.org/hashicorp/aws\"]"
        );
    }

    #[test]
    fn provider_config_parse_roundtrip() {
        for s in [
            "provider[\"registry.opentofu.org/hashicorp/aws\"]",
            "provider[\"registry.opentofu.org/hashicorp/aws\"].foo",
            "module.a.module.b.provider[\"example.com/x/y\"].z",
        ] {
            assert_eq!(AbsProviderConfig::parse(s).unwrap().to_string(), s);
        }
        let legacy = AbsProviderConfig::parse("module.a.provider.aws.west").unwrap();
        assert_eq!(legacy.provider, Provider::legacy("aws"));
        assert_eq!(legacy.alias.as_deref(), Some("west"));
        assert!(AbsProviderConfig::parse("provider[aws]").is_err());
    }
}
