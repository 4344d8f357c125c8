//! What one build reads: named input texts, the [`Request`], the request for a folder held in
//! memory, and the variable inputs in OpenTofu's order.

use crate::builder::{BuilderKind, Record};
use crate::config::{self, vars::VarInput};
use std::collections::BTreeMap;

/// A named text: the file name the user knows and its contents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NamedText {
    pub name: String,
    pub text: String,
}

impl NamedText {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        NamedText {
            name: name.into(),
            text: text.into(),
        }
    }
}

/// Everything one graph build reads.
#[derive(Debug, Clone)]
pub struct Request {
    /// Configuration files by path relative to the root module (`main.tf`, `modules/net/main.tf`);
    /// ignored by [`run_loaded`].
    pub files: BTreeMap<String, String>,
    /// Which of OpenTofu's graph builders to run.
    pub kind: BuilderKind,
    /// A Terraform/OpenTofu state (format version 4).
    pub state: Option<NamedText>,
    /// A plan as `terraform show -json PLANFILE` prints it (its `resource_changes`).
    pub plan_json: Option<NamedText>,
    /// Planned changes as a JSON list in the conformance corpus' `changes` format.
    pub changes: Option<NamedText>,
    /// Provider schemas as `tofu providers schema -json` prints them. Without them every
    /// attribute of a resource counts as a possible reference (OpenTofu reads only declared ones).
    pub schemas: Option<NamedText>,
    /// Root module variable values: `TF_VAR_` environment variables, variables files and
    /// `-var` assignments ([`VarInput`]). Their precedence is OpenTofu's whatever their order
    /// here: the environment, then the files read automatically (those among [`Request::files`]
    /// at the root come first, then the `AutoFile`s listed here), then `-var` and `-var-file`
    /// in the order listed.
    pub vars: Vec<VarInput>,
    /// `-target` addresses.
    pub targets: Vec<String>,
    /// `-exclude` addresses.
    pub excludes: Vec<String>,
    /// What the build records beside the graph (steps, whys): both unless a caller that prints
    /// neither says so.
    pub record: Record,
}

impl Request {
    pub fn new(files: BTreeMap<String, String>, kind: BuilderKind) -> Self {
        Request {
            files,
            kind,
            state: None,
            plan_json: None,
            changes: None,
            schemas: None,
            vars: Vec::new(),
            targets: Vec::new(),
            excludes: Vec::new(),
            record: Record::ALL,
        }
    }
}

/// The request's variable inputs in OpenTofu's order of precedence (lowest first): the
/// environment, the automatic files among the root's files, the listed automatic files, then
/// `-var` and `-var-file` as listed.
pub fn var_inputs(req: &Request) -> Vec<VarInput> {
    let mut out: Vec<VarInput> = req
        .vars
        .iter()
        .filter(|v| matches!(v, VarInput::Env { .. }))
        .cloned()
        .collect();
    let root_names = req.files.keys().filter(|k| !k.contains('/'));
    for name in config::vars::auto_var_files(root_names.map(String::as_str)) {
        out.push(VarInput::AutoFile {
            text: req.files[&name].clone(),
            name,
        });
    }
    out.extend(
        req.vars
            .iter()
            .filter(|v| matches!(v, VarInput::AutoFile { .. }))
            .cloned(),
    );
    out.extend(
        req.vars
            .iter()
            .filter(|v| matches!(v, VarInput::Var(_) | VarInput::File { .. }))
            .cloned(),
    );
    out
}

/// The request for a folder held in memory, as the web app holds an opened folder or dropped
/// files: `files` by path relative to that folder, `root` the root module's folder among them
/// (`""`: the top). Configuration files, variables files and module manifests are passed on by
/// path relative to the root module (`../../main.tf`), the names the CLI gives the files of a
/// folder on disk ([`config::load_dir`]); so the root's `.terraform/modules/modules.json` is the
/// manifest and the root's `terraform.tfvars` and `*.auto.tfvars` are read first
/// ([`var_inputs`]), as for `tfgraph graph ROOT`. State, plan, changes and schemas are the
/// caller's to set.
pub fn memory_request(files: &BTreeMap<String, String>, root: &str, kind: BuilderKind) -> Request {
    use config::file_names::{is_config_file_name, relative_to};
    let manifest = config::manifest::MANIFEST_PATH;
    let rooted = files
        .iter()
        .filter(|(p, _)| {
            let base = p.rsplit('/').next().unwrap_or(p);
            is_config_file_name(base)
                || config::vars::is_var_file_name(base)
                || p.as_str() == manifest
                || p.ends_with(&format!("/{manifest}"))
        })
        .map(|(p, t)| (relative_to(root, p), t.clone()))
        .collect();
    Request::new(rooted, kind)
}
