//! Reading `.tf` files into a [`Config`] tree: the root module and local child modules
//! (OpenTofu's `configs.Parser` + `configs.BuildConfig`, without the module installer).
//!
//! File access goes through [`FileSource`], so the same loader serves in-memory files (web app,
//! tests) and, natively, folders on disk (where `../` sources may leave the root folder).

use super::decode::{BodyRefs, decode_file, decode_file_keeping_body_refs};
pub use super::file_names::normalize_path;
use super::file_names::{is_config_file_name, is_override_file_name};
use super::manifest::Manifest;
use super::model::{Config, Module, ModuleSource};
use super::refs::{ResourceRefsMemo, resource_refs, resource_refs_of_body};
use crate::addrs;
use crate::diag::{Diagnostic, SourceFile, SourceRange};
use crate::strconv::go_quote;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// Where module folders are read from. `dir` is a normalised path relative to the root module
/// folder: `""` for the root, `modules/net`, or `../shared` when a source leaves the root.
pub trait FileSource {
    /// The configuration files directly in `dir` as (path relative to the root, text), or
    /// `None` when the folder does not exist or cannot be read.
    fn module_files(&self, dir: &str) -> Option<Vec<(String, String)>>;
    /// The text of one file by path relative to the root (the module manifest): `None` when it
    /// does not exist, an error when it cannot be read as text.
    #[allow(clippy::result_large_err)]
    fn read_text(&self, _path: &str) -> Option<Result<String, Diagnostic>> {
        None
    }
}

/// In-memory files keyed by path relative to the root module folder.
pub struct MemoryFiles<'a> {
    files: BTreeMap<String, &'a String>,
}

impl<'a> MemoryFiles<'a> {
    pub fn new(files: &'a BTreeMap<String, String>) -> Self {
        MemoryFiles {
            files: files
                .iter()
                .map(|(k, v)| (normalize_path(&k.replace('\\', "/")), v))
                .collect(),
        }
    }
}

impl FileSource for MemoryFiles<'_> {
    fn module_files(&self, dir: &str) -> Option<Vec<(String, String)>> {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let mut exists = dir.is_empty();
        let mut out = Vec::new();
        for (path, text) in &self.files {
            let Some(rest) = path.strip_prefix(&prefix) else {
                continue;
            };
            if rest.is_empty() {
                continue;
            }
            exists = true;
            if !rest.contains('/') && is_config_file_name(rest) {
                out.push((path.clone(), (*text).clone()));
            }
        }
        exists.then_some(out)
    }
    #[allow(clippy::result_large_err)]
    fn read_text(&self, path: &str) -> Option<Result<String, Diagnostic>> {
        self.files
            .get(&normalize_path(path))
            .map(|t| Ok((*t).clone()))
    }
}

fn join_path(dir: &str, rel: &str) -> String {
    if dir.is_empty() {
        normalize_path(rel)
    } else {
        normalize_path(&format!("{dir}/{rel}"))
    }
}

/// Loads a configuration from in-memory files keyed by path relative to the root module folder
/// (`main.tf`, `modules/net/main.tf`). Returns the tree (when the root module could be read at
/// all) and every diagnostic, errors and warnings.
pub fn load_files(files: &BTreeMap<String, String>) -> (Option<Config>, Vec<Diagnostic>) {
    load_with(&MemoryFiles::new(files))
}

/// Loads a configuration through any [`FileSource`]. Registry and remote module calls are
/// resolved through the module manifest ([`super::manifest::MANIFEST_PATH`]) when the source
/// has one, as OpenTofu's loader does after `tofu init`; calls it does not list stay opaque
/// with a "Module not installed" warning.
pub fn load_with(src: &dyn FileSource) -> (Option<Config>, Vec<Diagnostic>) {
    load_keeping(src, None)
}

/// What [`load_dir_keeping_references`] keeps of each resource's body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bodies {
    /// The body, as [`load_dir`] keeps it.
    #[default]
    Kept,
    /// Only its references, found as each file is decoded, so the body is never copied out of
    /// the parse: the resource's `config` is left empty. For callers that read nothing of a
    /// body after loading but its references: the graph, its steps and why an edge exists
    /// (`explain` reads values from bodies; the page shows them). At 10,000 generated resources
    /// `tfgraph graph`'s peak went from 85 to 51 MB. Modules with override files (which merge
    /// bodies) and data blocks nested in `check` blocks keep their bodies. Only a build where
    /// each resource's references are read once can do without them: a folder's build with a
    /// state or planned changes keeps them (`pipeline::FolderInputs::build`), as instance vertices
    /// read their resource's body again.
    ReferencesOnly,
}

/// Where [`load_keeping`] keeps each resource's references, and what it keeps of the bodies.
#[derive(Clone, Copy)]
struct Keeping<'a> {
    memo: &'a RefCell<ResourceRefsMemo>,
    bodies: Bodies,
}

/// [`load_with`], keeping (when asked) each resource's references as the reference validation
/// reads them, found as each module is finished (see [`ResourceRefsMemo`]).
fn load_keeping(src: &dyn FileSource, kept: Option<Keeping>) -> (Option<Config>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    // internal/configs/configload/loader.go, NewLoader: a manifest that cannot be read stops
    // loading before any module is read; a missing one is an empty manifest.
    let manifest = match src.read_text(super::manifest::MANIFEST_PATH) {
        None => Manifest::default(),
        Some(Err(d)) => {
            diags.push(d);
            return (None, diags);
        }
        Some(Ok(text)) => match super::manifest::parse_manifest(&text) {
            Ok(m) => m,
            Err(d) => {
                diags.push(d);
                return (None, diags);
            }
        },
    };
    let Some(files) = src.module_files("") else {
        diags.push(Diagnostic::error(
            "Failed to read module directory",
            "Module directory . does not exist or cannot be read.",
            None,
        ));
        return (None, diags);
    };
    let module = load_module("", files, &mut diags, kept);
    let mut stack = vec![String::new()];
    let loader = Loader {
        src,
        manifest: &manifest,
        kept,
    };
    let mut module = module;
    let children = loader.children(&addrs::Module::root(), &mut module, &mut stack, &mut diags);
    let mut cfg = Config {
        path: addrs::Module::root(),
        module,
        children,
        source_addr: None,
        call_range: None,
        version: None,
    };
    // Like Go's BuildConfig: provider types are only resolved when loading had no errors.
    if !crate::diag::has_errors(&diags) {
        resolve_provider_types(&mut cfg);
    }
    diags.extend(super::provider_validation::validate_provider_configs(&cfg));
    (Some(cfg), diags)
}

/// Go `Config.resolveProviderTypes`: the local names a module knows (required providers, then
/// provider blocks with default FQNs), applied to both sides of every `providers` map entry.
fn resolve_provider_types(cfg: &mut Config) -> BTreeMap<String, addrs::Provider> {
    let mut child_names: BTreeMap<String, BTreeMap<String, addrs::Provider>> = BTreeMap::new();
    for (name, child) in cfg.children.iter_mut() {
        child_names.insert(name.clone(), resolve_provider_types(child));
    }
    let mut known: BTreeMap<String, addrs::Provider> = cfg
        .module
        .required_providers
        .iter()
        .map(|(k, rp)| (k.clone(), rp.provider.clone()))
        .collect();
    for p in cfg.module.provider_configs.values() {
        known
            .entry(p.name.clone())
            .or_insert_with(|| addrs::Provider::default_for(&p.name));
    }
    for (call_name, call) in cfg.module.module_calls.iter_mut() {
        for pp in call.providers.iter_mut() {
            if let Some(t) = known.get(&pp.in_parent.name) {
                pp.in_parent.provider_type = Some(t.clone());
            }
            if let Some(t) = child_names
                .get(call_name)
                .and_then(|c| c.get(&pp.in_child.name))
            {
                pp.in_child.provider_type = Some(t.clone());
            }
        }
    }
    known
}

fn load_module(
    dir: &str,
    files: Vec<(String, String)>,
    diags: &mut Vec<Diagnostic>,
    kept: Option<Keeping>,
) -> Module {
    let mut module = Module {
        source_dir: dir.to_string(),
        ..Module::default()
    };
    // A `.tofu` file hides the `.tf` file of the same name (OpenTofu 1.8+), also for JSON.
    let names: BTreeSet<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let files: Vec<(String, String)> = files
        .into_iter()
        .filter(|(p, _)| {
            let tofu = if let Some(stem) = p.strip_suffix(".tf.json") {
                format!("{stem}.tofu.json")
            } else if let Some(stem) = p.strip_suffix(".tf") {
                format!("{stem}.tofu")
            } else {
                return true;
            };
            !names.contains(&tofu)
        })
        .collect();
    let (overrides, primaries): (Vec<_>, Vec<_>) = files
        .into_iter()
        .partition(|(p, _)| is_override_file_name(p.rsplit('/').next().unwrap_or(p)));
    let has_overrides = !overrides.is_empty();
    // A caller that keeps references needs of a resource body only those, unless override files
    // will merge bodies: found as each file is decoded, the bodies are not copied.
    let mut body_refs = kept
        .is_some_and(|k| k.bodies == Bodies::ReferencesOnly && !has_overrides)
        .then(BodyRefs::default);
    for (path, text) in primaries {
        let file = SourceFile::new(&path, &text);
        module.files.insert(path.clone(), file.clone());
        match body_refs.as_mut() {
            Some(found) => decode_file_keeping_body_refs(&file, &mut module, diags, found),
            None => decode_file(&file, &mut module, false, diags),
        }
    }
    super::decode::finish_module(&mut module, diags);
    // Override files are parsed in a span space after every primary file's (see SourceFile).
    let mut offset = module
        .files
        .values()
        .map(|f| f.text.len() + 1)
        .max()
        .unwrap_or(0);
    for (path, text) in overrides {
        let file = SourceFile::with_offset(&path, &text, offset);
        offset += text.len() + 1;
        module.files.insert(path.clone(), file.clone());
        let mut over = Module::default();
        decode_file(&file, &mut over, true, diags);
        super::merge::merge_override(&mut module, over, diags);
    }
    // Finished again only when override files changed it: finishing depends on nothing but the
    // module, so a second pass over a module without overrides (every resource's provider
    // looked up again: ~25 M instructions at 10,000 resources) gave the same module.
    if has_overrides && !module.files.is_empty() {
        super::decode::finish_module(&mut module, diags);
    }
    // The module is final here, and its bodies were just decoded (a module's are a few hundred
    // KB at most): read now, their references cost far fewer waits on memory than later.
    if let Some(kept) = kept {
        let mut kept = kept.memo.borrow_mut();
        for r in module.all_resources_with_checks() {
            let parts = match body_refs.as_mut().and_then(|f| f.remove(&r.serial)) {
                Some(body) => resource_refs_of_body(r, body),
                None => resource_refs(r, None, false),
            };
            kept.insert(r, parts);
        }
    }
    module
}

/// What loading child modules reads: the files and the module manifest.
struct Loader<'a> {
    src: &'a dyn FileSource,
    manifest: &'a Manifest,
    kept: Option<Keeping<'a>>,
}

impl Loader<'_> {
    /// The child modules of `module` (at `path`), each loaded with its own children (Go
    /// `buildChildModules` with `moduleWalkerLoad`). Calls left opaque are marked
    /// [`super::model::ModuleCall::not_installed`].
    fn children(
        &self,
        path: &addrs::Module,
        module: &mut Module,
        stack: &mut Vec<String>,
        diags: &mut Vec<Diagnostic>,
    ) -> BTreeMap<String, Config> {
        let mut out = BTreeMap::new();
        let mut not_installed = Vec::new();
        for (name, call) in &module.module_calls {
            let Some(source) = &call.source else { continue };
            let call_pos = short_pos(&call.decl_range);
            let child_path = path.child(name);
            let (dir, version) = match source {
                ModuleSource::Local(rel) => {
                    if call.version.is_some() {
                        diags.push(Diagnostic::error(
                            "Invalid version constraint",
                            format!(
                                "Cannot apply a version constraint to module {} (at {call_pos}) because it has a relative local path.",
                                go_quote(name)
                            ),
                            call.source_range.clone(),
                        ));
                    }
                    // Relative to the calling module's folder, which for a module inside an
                    // installed package is in .terraform/modules (what the installer records).
                    (join_path(&module.source_dir, &rel.replace('\\', "/")), None)
                }
                ModuleSource::Registry(s) | ModuleSource::Remote(s) => {
                    let Some(record) = self.manifest.record(&child_path) else {
                        // OpenTofu refuses to go on here ("Module not installed", an error);
                        // tfgraph draws the call as one opaque module and says how to fix it.
                        diags.push(Diagnostic::warning(
                            "Module not installed",
                            format!(
                                "Module {} (at {call_pos}) has source {}, which is not installed: run \"tofu init\" to install it. Until then tfgraph draws the call as one opaque module: its arguments, count, for_each, depends_on and providers still give it edges, and references to its outputs depend on the whole call.",
                                go_quote(&child_path.to_string()),
                                go_quote(s)
                            ),
                            call.source_range.clone(),
                        ));
                        not_installed.push(name.clone());
                        continue;
                    };
                    check_record(record, call, s, diags);
                    (normalize_path(&record.dir), record.version.clone())
                }
            };
            // OpenTofu has no check (and so no wording) for this; without it a module that
            // calls itself would be loaded forever.
            if stack.contains(&dir) {
                diags.push(Diagnostic::error(
                    "Module recursion",
                    format!(
                        "Module {} (at {call_pos}) calls {}, which is already being loaded by one of its callers; a module cannot call itself.",
                        go_quote(name),
                        display_dir(&dir)
                    ),
                    call.source_range.clone(),
                ));
                continue;
            }
            let Some(files) = self.src.module_files(&dir) else {
                diags.push(match source {
                    ModuleSource::Local(_) => Diagnostic::error(
                        "Unreadable module directory",
                        format!(
                            "The directory {} could not be read for module {} at {call_pos}.",
                            display_dir(&dir),
                            go_quote(name)
                        ),
                        call.source_range.clone(),
                    ),
                    // configload/loader_load.go, moduleWalkerLoad: the record's folder is gone.
                    _ => Diagnostic::error(
                        "Module not installed",
                        format!(
                            "This module's local cache directory {} could not be read. Run \"tofu init\" to install all modules required by this configuration.",
                            self.manifest
                                .record(&child_path)
                                .map(|r| r.dir.as_str())
                                .unwrap_or(&dir)
                        ),
                        Some(call.decl_range.clone()),
                    ),
                });
                continue;
            };
            let mut child_module = load_module(&dir, files, diags, self.kept);
            if let Some(b) = &child_module.backend {
                diags.push(Diagnostic::warning(
                    "Backend configuration ignored",
                    "Any selected backend applies to the entire configuration, so OpenTofu expects provider configurations only in the root module.\n\nThis is a warning rather than an error because it's sometimes convenient to temporarily call a root module as a child module for testing purposes, but this backend configuration block will have no effect.",
                    Some(b.decl_range.clone()),
                ));
            }
            if let Some(i) = child_module.imports.first() {
                diags.push(Diagnostic::error(
                    "Invalid import configuration",
                    format!(
                        "An import block was detected in {}. Import blocks are only allowed in the root module.",
                        go_quote(&child_path.to_string())
                    ),
                    Some(i.decl_range.clone()),
                ));
            }
            stack.push(dir);
            let children = self.children(&child_path, &mut child_module, stack, diags);
            stack.pop();
            out.insert(
                name.clone(),
                Config {
                    path: child_path,
                    module: child_module,
                    children,
                    source_addr: Some(source.clone()),
                    call_range: Some(call.decl_range.clone()),
                    version: version.map(|v| v.to_string()),
                },
            );
        }
        for name in not_installed {
            if let Some(c) = module.module_calls.get_mut(&name) {
                c.not_installed = true;
            }
        }
        out
    }
}

/// The checks of `moduleWalkerLoad` between a manifest record and the call it stands for: the
/// source must be the one installed, and the installed version must meet the call's `version`.
fn check_record(
    record: &super::manifest::Record,
    call: &super::model::ModuleCall,
    source: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let normalized = super::manifest::normalize_source(source).unwrap_or_default();
    if !super::manifest::same_source(&record.source, &normalized) {
        diags.push(Diagnostic::error(
            "Module source has changed",
            format!(
                "The source address was changed from {:?} to {:?} since this module was installed. Run \"tofu init\" to install all modules required by this configuration.",
                record.source, normalized
            ),
            call.source_range.clone(),
        ));
    }
    let Some(text) = call.version.as_deref() else {
        return;
    };
    let constraints = match super::version::Constraints::parse(text) {
        Ok(c) => c,
        Err(_) => {
            // configs/version_constraint.go, decodeVersionConstraintValue.
            diags.push(Diagnostic::error(
                "Invalid version constraint",
                "This string does not use correct version constraint syntax.",
                Some(call.decl_range.clone()),
            ));
            return;
        }
    };
    match &record.version {
        None => diags.push(Diagnostic::error(
            "Module version requirements have changed",
            "The version requirements have changed since this module was installed and the installed version is no longer acceptable. Run \"tofu init\" to install all modules required by this configuration.",
            call.source_range.clone(),
        )),
        Some(v) if !constraints.check(v) => diags.push(Diagnostic::error(
            "Module version requirements have changed",
            format!(
                "The version requirements have changed since this module was installed and the installed version ({v}) is no longer acceptable. Run \"tofu init\" to install all modules required by this configuration."
            ),
            call.source_range.clone(),
        )),
        Some(_) => {}
    }
}

fn short_pos(r: &SourceRange) -> String {
    format!("{}:{}", r.file, r.start.line)
}

fn display_dir(dir: &str) -> String {
    if dir.is_empty() {
        ".".to_string()
    } else {
        dir.to_string()
    }
}

/// A configuration file's bytes as text, or HCL's "Invalid character encoding" error at the first
/// byte that is not UTF-8 (a leading byte-order mark is fine: the parser blanks it out).
// A diagnostic is the error type of every reader here; boxing it would only add noise.
#[allow(clippy::result_large_err)]
pub fn text_from_bytes(name: &str, bytes: Vec<u8>) -> Result<String, Diagnostic> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        // The prefix up to `at` is valid UTF-8, so positions can be counted on it.
        let valid = std::str::from_utf8(&bytes[..at]).unwrap_or("");
        let file = SourceFile::new(name, valid);
        Diagnostic::error(
            "Invalid character encoding",
            "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.",
            Some(file.range(at..at)),
        )
    })
}

/// Files in a folder on disk.
#[cfg(not(target_arch = "wasm32"))]
pub struct DiskFiles {
    pub root: std::path::PathBuf,
    /// Problems met reading files (not UTF-8), reported with the loading diagnostics.
    pub problems: std::cell::RefCell<Vec<Diagnostic>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl FileSource for DiskFiles {
    fn module_files(&self, dir: &str) -> Option<Vec<(String, String)>> {
        let full = if dir.is_empty() {
            self.root.clone()
        } else {
            self.root.join(dir)
        };
        let rd = std::fs::read_dir(&full).ok()?;
        let mut out = Vec::new();
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if !is_config_file_name(&name) || !e.path().is_file() {
                continue;
            }
            let rel = if dir.is_empty() {
                name.clone()
            } else {
                format!("{dir}/{name}")
            };
            match std::fs::read(e.path()) {
                Ok(b) => match text_from_bytes(&rel, b) {
                    Ok(t) => out.push((rel, t)),
                    Err(d) => self.problems.borrow_mut().push(d),
                },
                Err(_) => return None,
            }
        }
        out.sort();
        Some(out)
    }
    #[allow(clippy::result_large_err)]
    fn read_text(&self, path: &str) -> Option<Result<String, Diagnostic>> {
        let full = self.root.join(path);
        if !full.is_file() {
            return None;
        }
        Some(
            std::fs::read(&full)
                .map_err(|e| {
                    Diagnostic::error("Failed to read file", format!("{path}: {e}."), None)
                })
                .and_then(|b| text_from_bytes(path, b)),
        )
    }
}

/// Loads a configuration from a folder on disk. Local module sources are read relative to the
/// calling module's folder, also outside `path` (`../../` in examples).
#[cfg(not(target_arch = "wasm32"))]
pub fn load_dir(path: &std::path::Path) -> (Option<Config>, Vec<Diagnostic>) {
    load_dir_keeping(path, None)
}

/// [`load_dir`], with each resource's references as the reference validation reads them (taken
/// by [`crate::pipeline::run_loaded_keeping`]; see [`ResourceRefsMemo`]).
#[cfg(not(target_arch = "wasm32"))]
pub fn load_dir_keeping_references(
    path: &std::path::Path,
    bodies: Bodies,
) -> ((Option<Config>, Vec<Diagnostic>), ResourceRefsMemo) {
    let memo = RefCell::new(ResourceRefsMemo::default());
    let loaded = load_dir_keeping(
        path,
        Some(Keeping {
            memo: &memo,
            bodies,
        }),
    );
    (loaded, memo.into_inner())
}

#[cfg(not(target_arch = "wasm32"))]
fn load_dir_keeping(
    path: &std::path::Path,
    kept: Option<Keeping>,
) -> (Option<Config>, Vec<Diagnostic>) {
    let files = DiskFiles {
        root: path.to_path_buf(),
        problems: Default::default(),
    };
    let (cfg, mut diags) = load_keeping(&files, kept);
    let mut problems = files.problems.take();
    if !problems.is_empty() {
        problems.append(&mut diags);
        diags = problems;
    }
    (cfg, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A temporary folder of this test's own with an empty child folder `m`.
    #[cfg(not(target_arch = "wasm32"))]
    fn scratch_with_child(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "tfgraph-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(dir.join("m")).expect("temporary folder");
        dir
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn a_folder_loaded_keeping_references_has_each_resources_and_the_same_configuration() {
        let dir = scratch_with_child("kept-refs");
        std::fs::write(
            dir.join("main.tf"),
            "module \"m\" {\n  source = \"./m\"\n  x      = 1\n}\nresource \"aws_instance\" \"a\" {\n  ami = module.m.id\n}\n",
        )
        .expect("main.tf");
        std::fs::write(
            dir.join("m/main.tf"),
            "variable \"x\" {}\nresource \"aws_instance\" \"b\" {\n  count = var.x\n  ami   = \"x\"\n}\noutput \"id\" {\n  value = aws_instance.b[0].id\n}\n",
        )
        .expect("m/main.tf");
        let plain = load_dir(&dir);
        let ((cfg, diags), mut kept) = load_dir_keeping_references(&dir, Bodies::Kept);
        std::fs::remove_dir_all(&dir).expect("temporary folder removed");
        assert_eq!(format!("{plain:?}"), format!("{:?}", (&cfg, &diags)));
        let cfg = cfg.unwrap_or_else(|| panic!("{diags:?}"));
        assert_eq!(kept.len(), 2);
        let subjects = |p: crate::config::refs::ResourceRefParts| -> Vec<String> {
            let all = crate::config::refs::all_resource_refs(p);
            all.refs.iter().map(|r| r.subject.to_string()).collect()
        };
        let a = &cfg.module.managed_resources["aws_instance.a"];
        let b = &cfg.children["m"].module.managed_resources["aws_instance.b"];
        assert_eq!(subjects(kept.take(a).expect("a")), ["module.m.id"]);
        assert_eq!(subjects(kept.take(b).expect("b")), ["var.x"]);
    }

    /// Loading with [`Bodies::ReferencesOnly`] keeps the references a kept body gives (found
    /// where the body was parsed: the rest of the body, then a `_` block's contents, dynamic and
    /// nested blocks, provider functions, diagnostics), leaves the top-level resources' bodies
    /// empty, and keeps the bodies a module with override files merges and a `check`'s data.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn a_folder_loaded_with_references_only_keeps_the_references_a_kept_body_gives() {
        let dir = scratch_with_child("refs-only");
        std::fs::write(
            dir.join("main.tf"),
            r#"variable "n" {}
module "m" {
  source = "./m"
}
resource "aws_instance" "a" {
  count = var.n
  ami   = module.m.id
  _ {
    count = local.c
  }
  dynamic "ebs" {
    for_each = var.n
    content {
      size = ebs.value + aws_instance.b.size
    }
  }
  tags = { for k, v in var.n : k => provider::p::f(v, data.x.y.z) }
  bad  = module.m
  nope = aws_instance
  provisioner "local-exec" {
    command = self.id
  }
}
resource "aws_instance" "b" {
  ami = "x"
}
data "x" "y" {}
locals {
  c = 1
}
check "c" {
  data "x" "z" {
    q = aws_instance.b.id
  }
  assert {
    condition     = true
    error_message = "x"
  }
}
"#,
        )
        .expect("main.tf");
        std::fs::write(
            dir.join("m/main.tf"),
            r#"variable "x" { default = 1 }
resource "aws_instance" "b" {
  ami = var.x
}
output "id" {
  value = aws_instance.b.id
}
"#,
        )
        .expect("m/main.tf");
        std::fs::write(
            dir.join("m/main_override.tf"),
            r#"resource "aws_instance" "b" {
  ami = "${var.x}-2"
  tag = path.module
}
"#,
        )
        .expect("m/main_override.tf");
        let ((kept_cfg, kept_diags), mut kept) = load_dir_keeping_references(&dir, Bodies::Kept);
        let ((cfg, diags), mut found) = load_dir_keeping_references(&dir, Bodies::ReferencesOnly);
        std::fs::remove_dir_all(&dir).expect("temporary folder removed");
        assert_eq!(format!("{kept_diags:?}"), format!("{diags:?}"));
        let (kept_cfg, cfg) = (kept_cfg.expect("loads"), cfg.expect("loads"));
        let all = |c: &Config| -> Vec<std::sync::Arc<crate::config::model::Resource>> {
            let m = &c.module;
            let child = &c.children["m"].module;
            [m, child]
                .into_iter()
                .flat_map(|m| {
                    m.managed_resources
                        .values()
                        .chain(m.data_resources.values())
                        .cloned()
                })
                .collect()
        };
        let (before, after) = (all(&kept_cfg), all(&cfg));
        assert_eq!(before.len(), 5);
        assert_eq!(after.len(), before.len());
        let mut bodies_left = Vec::new();
        for (b, a) in before.iter().zip(&after) {
            assert_eq!(b.addr(), a.addr());
            let (want, got) = (kept.take(b).expect("kept"), found.take(a).expect("found"));
            assert_eq!(format!("{want:?}"), format!("{got:?}"), "{}", a.addr());
            if !a.config.body.is_empty() {
                bodies_left.push(a.addr().to_string());
            }
        }
        // Only the check's data block and the resource of the module with an override file
        // (merged) kept their bodies.
        assert_eq!(bodies_left, ["data.x.z", "aws_instance.b"]);
        let child_b = &cfg.children["m"].module.managed_resources["aws_instance.b"];
        assert!(child_b.config.attr("tag").is_some());
        // The references were really there to compare: the `_` block's, the dynamic block's,
        // the function call's, and the diagnostics of the two bad ones.
        let a = &kept_cfg.module.managed_resources["aws_instance.a"];
        let parts = crate::config::refs::all_resource_refs(resource_refs(a, None, false));
        let subjects: Vec<String> = parts.refs.iter().map(|r| r.subject.to_string()).collect();
        for s in ["module.m.id", "local.c", "aws_instance.b", "data.x.y"] {
            assert!(subjects.iter().any(|x| x == s), "{s} in {subjects:?}");
        }
        assert_eq!(parts.funcs.len(), 1);
        assert_eq!(parts.diags.len(), 1, "{:?}", parts.diags);
        // The check's nested data block keeps its body, top-level or not.
        let check = &cfg.module.checks["c"];
        assert!(
            check
                .data_resources
                .iter()
                .all(|d| !d.config.body.is_empty())
        );
    }

    #[test]
    fn paths() {
        assert_eq!(normalize_path("a/./b/../c"), "a/c");
        assert_eq!(join_path("", "../../"), "../..");
        assert_eq!(join_path("examples/complete", "../../"), "");
        assert_eq!(join_path("modules/a", "../b"), "modules/b");
    }
}
