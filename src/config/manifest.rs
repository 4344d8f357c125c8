//! The module manifest, `.terraform/modules/modules.json`, as `tofu init` (and `terraform init`)
//! write it: one record per installed module call, keyed by the call's path (`vpc`,
//! `eks.eks_managed_node_group`), with the source it was installed from, its exact version for
//! registry modules, and the folder it was installed into (relative to the root module folder).
//!
//! OpenTofu reads it in `internal/modsdir/manifest.go` (`ReadManifestSnapshot`) and checks each
//! call against it in `internal/configs/configload/loader_load.go` (`moduleWalkerLoad`); this file
//! reads it the same way, [`parse_manifest`] being pure (text in, manifest or diagnostic out) and
//! never panicking, whatever the bytes.

use super::model::ModuleSource;
use super::version::Version;
use crate::addrs;
use crate::diag::Diagnostic;
use std::collections::BTreeMap;

/// Where the manifest is, relative to the root module folder.
pub const MANIFEST_PATH: &str = ".terraform/modules/modules.json";

/// One installed module (Go `modsdir.Record`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The call's path joined with dots; `""` for the root module.
    pub key: String,
    /// The source as installed, normalised as OpenTofu normalises it on reading.
    pub source: String,
    /// The exact version installed (registry modules only).
    pub version: Option<Version>,
    /// The folder, relative to the root module folder, with forward slashes.
    pub dir: String,
}

/// Every record by key (Go `modsdir.Manifest`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Manifest {
    pub records: BTreeMap<String, Record>,
}

impl Manifest {
    /// The record of the call at `path` (Go `Manifest.ModuleKey`: the call names joined by dots).
    pub fn record(&self, path: &addrs::Module) -> Option<&Record> {
        self.records.get(&path.0.join("."))
    }
}

#[derive(serde::Deserialize)]
struct Snapshot {
    #[serde(rename = "Modules", default)]
    modules: Option<Vec<RawRecord>>,
}

#[derive(serde::Deserialize)]
struct RawRecord {
    #[serde(rename = "Key", default)]
    key: Option<String>,
    #[serde(rename = "Source", default)]
    source: Option<String>,
    #[serde(rename = "Version", default)]
    version: Option<String>,
    #[serde(rename = "Dir", default)]
    dir: Option<String>,
}

/// Reads a manifest's text (Go `ReadManifestSnapshot`): an empty file is an empty manifest; bad
/// JSON, a malformed version and two records for one key are errors worded as OpenTofu reports
/// them ("failed to read module manifest: …"), positioned in [`MANIFEST_PATH`] where the JSON
/// reader knows where.
// A diagnostic is the error type of every reader here; boxing it would only add noise.
#[allow(clippy::result_large_err)]
pub fn parse_manifest(text: &str) -> Result<Manifest, Diagnostic> {
    let fail =
        |detail: String, range| Diagnostic::error("failed to read module manifest", detail, range);
    if text.is_empty() {
        return Ok(Manifest::default());
    }
    let snap: Snapshot = serde_json::from_str(text).map_err(|e| {
        let range = crate::diag::json_error_range(text, &e).map(|mut r| {
            r.file = MANIFEST_PATH.into();
            r
        });
        fail(
            format!(
                "error unmarshalling snapshot: {}",
                crate::diag::json_error_message(&e)
            ),
            range,
        )
    })?;
    let at = |needles: &[&str]| {
        crate::diag::json_value_range(text, needles).map(|mut r| {
            r.file = MANIFEST_PATH.into();
            r
        })
    };
    let mut records = BTreeMap::new();
    for raw in snap.modules.unwrap_or_default() {
        let key = raw.key.unwrap_or_default();
        let version = match raw.version.as_deref() {
            None | Some("") => None,
            Some(v) => Some(Version::parse(v).map_err(|e| {
                fail(
                    format!("invalid version {v:?} for {key}: {e}"),
                    at(&[key.as_str(), v]),
                )
            })?),
        };
        let source = raw.source.unwrap_or_default();
        let record = Record {
            source: normalize_source(&source).unwrap_or(source),
            version,
            dir: raw.dir.unwrap_or_default().replace('\\', "/"),
            key: key.clone(),
        };
        if records.contains_key(&key) {
            return Err(fail(
                format!("snapshot file contains two records for path {key}"),
                None,
            ));
        }
        records.insert(key, record);
    }
    Ok(Manifest { records })
}

/// A module source in the form OpenTofu compares and stores (`addrs.ModuleSource.String()`):
/// local paths cleaned (`./x`, `../y`), registry addresses with their host
/// (`registry.opentofu.org/ns/name/system[//subdir]`), remote addresses after go-getter's
/// shorthand detection for the common forms (`github.com/o/r` →
/// `git::https://github.com/o/r.git`, `git@host:o/r.git` → `git::ssh://git@host/o/r.git`).
/// `None` for an empty string.
pub fn normalize_source(raw: &str) -> Option<String> {
    if raw.is_empty() {
        return None;
    }
    Some(match crate::addrs::parse_module_source(raw) {
        ModuleSource::Local(s) => {
            let clean = super::file_names::normalize_path(&s.replace('\\', "/"));
            if clean.starts_with("..") {
                clean
            } else if clean.is_empty() {
                ".".to_string()
            } else {
                format!("./{clean}")
            }
        }
        ModuleSource::Registry(s) => {
            let (pkg, sub) = split_subdir(&s);
            let parts: Vec<&str> = pkg.split('/').collect();
            let pkg = if parts.len() == 3 {
                format!("{DEFAULT_REGISTRY}/{pkg}")
            } else {
                format!("{}/{}", parts[0].to_ascii_lowercase(), parts[1..].join("/"))
            };
            with_subdir(pkg, sub)
        }
        ModuleSource::Remote(s) => normalize_remote(&s),
    })
}

/// OpenTofu's default module registry host (`regaddr.DefaultModuleRegistryHost`).
pub const DEFAULT_REGISTRY: &str = "registry.opentofu.org";
/// Terraform's, which `terraform init` writes into the manifest
/// (`regaddr.TransitionalDefaultModuleRegistryHost`).
pub const TERRAFORM_REGISTRY: &str = "registry.terraform.io";

/// True when a manifest record's source is the call's: equal normalised forms, or (beyond
/// OpenTofu, which would ask for `tofu init` again) the same registry module recorded under
/// Terraform's default host by `terraform init`.
pub fn same_source(recorded: &str, call: &str) -> bool {
    if recorded == call {
        return true;
    }
    let strip = |s: &str, host: &str| s.strip_prefix(host).map(str::to_string);
    matches!(
        (strip(recorded, TERRAFORM_REGISTRY), strip(call, DEFAULT_REGISTRY)),
        (Some(a), Some(b)) if a == b
    )
}

/// Splits `pkg//subdir` (the subdirectory cleaned), keeping a query string on the package.
fn split_subdir(s: &str) -> (String, String) {
    let (body, query) = match s.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (s, None),
    };
    let skip = body.find("://").map(|i| i + 3).unwrap_or(0);
    let (pkg, sub) = match body[skip..].find("//") {
        Some(i) => (
            &body[..skip + i],
            super::file_names::normalize_path(&body[skip + i + 2..]),
        ),
        None => (body, String::new()),
    };
    let pkg = match query {
        Some(q) => format!("{pkg}?{q}"),
        None => pkg.to_string(),
    };
    (pkg, sub)
}

fn with_subdir(pkg: String, sub: String) -> String {
    if sub.is_empty() {
        return pkg;
    }
    match pkg.split_once('?') {
        Some((p, q)) => format!("{p}//{sub}?{q}"),
        None => format!("{pkg}//{sub}"),
    }
}

/// go-getter's detectors for the shorthands people write; anything else stays as written.
fn normalize_remote(s: &str) -> String {
    let (pkg, sub) = split_subdir(s);
    let (base, query) = match pkg.split_once('?') {
        Some((b, q)) => (b.to_string(), Some(q.to_string())),
        None => (pkg.clone(), None),
    };
    let detected = if let Some(rest) = base.strip_prefix("github.com/") {
        let mut parts = rest.splitn(3, '/');
        match (parts.next(), parts.next(), parts.next()) {
            (Some(o), Some(r), extra) if !o.is_empty() && !r.is_empty() => {
                let r = r.strip_suffix(".git").unwrap_or(r);
                let url = format!("git::https://github.com/{o}/{r}.git");
                // github.com/o/r/sub is go-getter's subdirectory form too.
                let sub = match extra {
                    Some(e) if sub.is_empty() => super::file_names::normalize_path(e),
                    Some(e) => super::file_names::normalize_path(&format!("{e}/{sub}")),
                    None => sub.clone(),
                };
                return with_subdir(
                    match &query {
                        Some(q) => format!("{url}?{q}"),
                        None => url,
                    },
                    sub,
                );
            }
            _ => base,
        }
    } else if let Some(rest) = base.strip_prefix("git@") {
        match rest.split_once(':') {
            Some((host, path)) if !path.starts_with('/') => format!("git::ssh://git@{host}/{path}"),
            _ => base,
        }
    } else {
        base
    };
    with_subdir(
        match query {
            Some(q) => format!("{detected}?{q}"),
            None => detected,
        },
        sub,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    // The manifest format of internal/configs/configload/testdata/already-installed.
    #[test]
    fn reads_records_as_opentofu_writes_them() {
        let m = parse_manifest(r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"child_a","Source":"example.com/foo/bar_a/baz","Version":"1.0.1","Dir":".terraform/modules/child_a"},{"Key":"child_a.child_c","Source":"./child_c","Dir":".terraform\\modules\\child_a\\child_c"}]}"#).unwrap();
        assert_eq!(m.records.len(), 3);
        let a = &m.records["child_a"];
        assert_eq!(a.source, "example.com/foo/bar_a/baz");
        assert_eq!(
            a.version.as_ref().map(|v| v.to_string()),
            Some("1.0.1".into())
        );
        assert_eq!(
            m.records["child_a.child_c"].dir,
            ".terraform/modules/child_a/child_c"
        );
        let path = addrs::Module(vec!["child_a".into(), "child_c".into()].into());
        assert_eq!(
            m.record(&path).map(|r| r.source.as_str()),
            Some("./child_c")
        );
        assert_eq!(parse_manifest("").unwrap(), Manifest::default());
        assert_eq!(parse_manifest("{}").unwrap(), Manifest::default());
    }

    // ReadManifestSnapshot's three errors, each under NewLoader's "failed to read module manifest".
    #[test]
    fn damaged_manifests_are_errors_in_opentofu_words() {
        let e = parse_manifest("{\"Modules\": [\n  {\"Key\": \"vpc\",}\n]}").unwrap_err();
        assert_eq!(
            e.to_string(),
            ".terraform/modules/modules.json:2,17: failed to read module manifest: error unmarshalling snapshot: trailing comma"
        );
        let e =
            parse_manifest(r#"{"Modules":[{"Key":"a","Version":"x.y","Dir":"a"}]}"#).unwrap_err();
        assert_eq!(
            e.detail,
            "invalid version \"x.y\" for a: Malformed version: x.y"
        );
        assert_eq!(e.range.map(|r| r.start.column), Some(34));
        let e = parse_manifest(r#"{"Modules":[{"Key":"a","Dir":"a"},{"Key":"a","Dir":"b"}]}"#)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "failed to read module manifest: snapshot file contains two records for path a"
        );
        assert!(parse_manifest("[1,2]").is_err());
        assert!(parse_manifest("{\"Modules\": 3}").is_err());
    }

    #[test]
    fn sources_normalise_as_addrs_module_source_string() {
        let n = |s: &str| normalize_source(s).unwrap();
        assert_eq!(
            n("terraform-aws-modules/vpc/aws"),
            "registry.opentofu.org/terraform-aws-modules/vpc/aws"
        );
        assert_eq!(
            n("terraform-aws-modules/vpc/aws//modules/vpc-endpoints/"),
            "registry.opentofu.org/terraform-aws-modules/vpc/aws//modules/vpc-endpoints"
        );
        assert_eq!(
            n("App.Terraform.io/org/vpc/aws"),
            "app.terraform.io/org/vpc/aws"
        );
        assert_eq!(n("./modules//a/"), "./modules/a");
        assert_eq!(n("../../"), "../..");
        assert_eq!(
            n("github.com/hashicorp/example?ref=v1"),
            "git::https://github.com/hashicorp/example.git?ref=v1"
        );
        assert_eq!(
            n("github.com/hashicorp/example//sub?ref=v1"),
            "git::https://github.com/hashicorp/example.git//sub?ref=v1"
        );
        assert_eq!(
            n("git@github.com:org/repo.git"),
            "git::ssh://git@github.com/org/repo.git"
        );
        assert_eq!(
            n("git::https://example.com/vpc.git?ref=v1.2.0"),
            "git::https://example.com/vpc.git?ref=v1.2.0"
        );
        assert!(same_source(
            "registry.terraform.io/terraform-aws-modules/vpc/aws",
            &n("terraform-aws-modules/vpc/aws")
        ));
        assert!(!same_source(
            "registry.terraform.io/terraform-aws-modules/vpc/aws",
            &n("terraform-aws-modules/eks/aws")
        ));
    }
}
