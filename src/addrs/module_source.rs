//! Module source addresses (OpenTofu's `internal/addrs/module_source.go`): where a `module`
//! block's `source` points, classified as `ParseModuleSource` does.

/// Where a module call's source points.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ModuleSource {
    /// `./x` or `../y`, as written.
    Local(String),
    /// `namespace/name/system[//subdir]` on a module registry.
    Registry(String),
    /// Anything else (git, http, s3, ...): opaque to us.
    Remote(String),
}

impl ModuleSource {
    pub fn as_str(&self) -> &str {
        match self {
            ModuleSource::Local(s) | ModuleSource::Registry(s) | ModuleSource::Remote(s) => s,
        }
    }
    pub fn is_local(&self) -> bool {
        matches!(self, ModuleSource::Local(_))
    }
}

/// Classifies a module source string (Go `addrs.ParseModuleSource`): local paths,
/// registry addresses, and everything else as remote.
pub fn parse_module_source(s: &str) -> ModuleSource {
    if s.starts_with("./")
        || s.starts_with("../")
        || s.starts_with(".\\")
        || s.starts_with("..\\")
        || s == "."
        || s == ".."
    {
        return ModuleSource::Local(s.to_string());
    }
    if is_registry_source(s) {
        ModuleSource::Registry(s.to_string())
    } else {
        ModuleSource::Remote(s.to_string())
    }
}

fn is_registry_source(s: &str) -> bool {
    if s.contains("::") || s.contains("://") || s.contains('?') {
        return false;
    }
    let pkg = s.split("//").next().unwrap_or(s);
    let parts: Vec<&str> = pkg.split('/').collect();
    let name_ok = |p: &str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    match parts.as_slice() {
        [ns, name, system] => name_ok(ns) && name_ok(name) && name_ok(system),
        [host, ns, name, system] => {
            let h = host.to_ascii_lowercase();
            h != "github.com"
                && h != "bitbucket.org"
                && host.contains('.')
                && name_ok(ns)
                && name_ok(name)
                && name_ok(system)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_local_registry_or_remote() {
        assert!(parse_module_source("./x").is_local());
        assert!(matches!(
            parse_module_source("terraform-aws-modules/vpc/aws"),
            ModuleSource::Registry(_)
        ));
        assert!(matches!(
            parse_module_source("app.terraform.io/org/vpc/aws"),
            ModuleSource::Registry(_)
        ));
        assert!(matches!(
            parse_module_source("github.com/hashicorp/example"),
            ModuleSource::Remote(_)
        ));
        assert!(matches!(
            parse_module_source("git::https://example.com/x.git"),
            ModuleSource::Remote(_)
        ));
    }
}
