//! One graph build described by paths, as the CLI takes it: a folder on disk, the files given
//! beside it and the command line's variables, targets and excludes ([`FolderInputs`]).

#[cfg(not(target_arch = "wasm32"))]
use super::output::Output;
use super::request::{NamedText, Request};
#[cfg(not(target_arch = "wasm32"))]
use super::run::{run_loaded, run_loaded_keeping};
use crate::builder::{BuilderKind, Record};
use crate::config::{self, Diagnostic, vars::VarInput};
use std::collections::BTreeMap;

/// One graph build described by paths, as the CLI takes it: the root module folder and the files
/// given beside it (`--state`, `--plan`, `--changes`, `--schemas`), with `--var`, `--var-file`,
/// `--target` and `--exclude` and the `TF_VAR_` environment. Every subcommand that reads a folder goes through [`FolderInputs::build`], so they
/// read their inputs the same way.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FolderInputs {
    /// The root module folder (local module sources are followed from it).
    pub dir: std::path::PathBuf,
    /// The builder's name as the user wrote it (`--type`); see [`builder_kind`].
    pub kind: Option<String>,
    pub state: Option<std::path::PathBuf>,
    pub plan: Option<std::path::PathBuf>,
    pub changes: Option<std::path::PathBuf>,
    pub schemas: Option<std::path::PathBuf>,
    /// `--var` and `--var-file`, in command-line order (a later one wins).
    pub vars: Vec<VarArg>,
    /// The environment's `TF_VAR_NAME` values as (NAME, value) (the CLI passes its own).
    pub env_vars: Vec<(String, String)>,
    pub targets: Vec<String>,
    pub excludes: Vec<String>,
    /// What the build records beside the graph ([`Request::record`]).
    pub record: Record,
    /// What the configuration keeps of each resource's body when no schemas are given
    /// ([`config::Bodies`]; with schemas, bodies are read through them and kept).
    pub bodies: config::Bodies,
}

/// A `--var NAME=VALUE` or `--var-file FILE` argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarArg {
    Var(String),
    File(std::path::PathBuf),
}

impl From<&str> for VarArg {
    fn from(s: &str) -> Self {
        VarArg::Var(s.to_string())
    }
}

/// Why [`FolderInputs::build`] made no graph.
#[derive(Debug, Clone, PartialEq)]
pub enum FolderError {
    /// An input could not be read, or `--type` names no builder: one message.
    Input(String),
    /// The configuration, state, plan or schemas are wrong: the pipeline's diagnostics.
    Diagnostics(Vec<Diagnostic>),
}

impl FolderError {
    /// One line per problem, each to be printed after `Error: `.
    pub fn messages(&self) -> Vec<String> {
        match self {
            FolderError::Input(m) => vec![m.clone()],
            FolderError::Diagnostics(d) => d.iter().map(|d| d.to_string()).collect(),
        }
    }
}

/// The builder a `--type` names; without one, apply when a plan is given (its changes only make
/// sense to the apply graph), plan otherwise. That is `tofu graph`'s default
/// (`internal/command/graph.go`, `GraphCommand.Run`: a plan file selects the apply graph).
pub fn builder_kind(kind: Option<&str>, has_plan: bool) -> Result<BuilderKind, String> {
    match kind {
        // `tofu graph` dropped these two; tfgraph keeps validate, a builder OpenTofu still runs.
        Some("eval") => Err(
            "Graph type no longer available: The graph type \"eval\" is no longer available. Use -type=plan instead to get a similar result.".to_string(),
        ),
        Some(k) => BuilderKind::parse(k).ok_or_else(|| {
            "Unsupported graph type: The -type=... argument must be either \"plan\", \"plan-refresh-only\", \"plan-destroy\", or \"apply\" (tfgraph also accepts \"validate\").".to_string()
        }),
        None if has_plan => Ok(BuilderKind::Apply),
        None => Ok(BuilderKind::Plan),
    }
}

impl FolderInputs {
    pub fn new(dir: impl Into<std::path::PathBuf>) -> Self {
        FolderInputs {
            dir: dir.into(),
            ..Self::default()
        }
    }

    /// The request these inputs make, with the named files read (a file that cannot be read is
    /// an error naming it); `files` is left empty, [`FolderInputs::build`] loads the folder.
    pub fn request(&self) -> Result<Request, String> {
        let kind = builder_kind(self.kind.as_deref(), self.plan.is_some())?;
        let named = |p: &Option<std::path::PathBuf>| -> Result<Option<NamedText>, String> {
            p.as_ref()
                .map(|p| {
                    std::fs::read_to_string(p)
                        .map(|t| NamedText::new(p.display().to_string(), t))
                        .map_err(|e| format!("{}: {e}", p.display()))
                })
                .transpose()
        };
        let mut req = Request::new(BTreeMap::new(), kind);
        req.state = named(&self.state)?;
        req.plan_json = named(&self.plan)?;
        req.changes = named(&self.changes)?;
        req.schemas = named(&self.schemas)?;
        req.vars = config::vars::env_inputs(
            self.env_vars
                .iter()
                .map(|(k, v)| (format!("TF_VAR_{k}"), v.clone())),
        );
        req.vars.extend(self.auto_var_files()?);
        for a in &self.vars {
            req.vars.push(match a {
                VarArg::Var(v) => VarInput::Var(v.clone()),
                VarArg::File(p) => VarInput::File {
                    name: p.display().to_string(),
                    text: read_var_file(p)?,
                },
            });
        }
        req.targets = self.targets.clone();
        req.excludes = self.excludes.clone();
        req.record = self.record;
        Ok(req)
    }

    /// The variables files OpenTofu reads from the folder without being told, in its order.
    fn auto_var_files(&self) -> Result<Vec<VarInput>, String> {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return Ok(Vec::new());
        };
        let names: Vec<String> = rd
            .flatten()
            .filter(|e| e.path().is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        config::vars::auto_var_files(names.iter().map(String::as_str))
            .into_iter()
            .map(|name| {
                Ok(VarInput::AutoFile {
                    text: read_var_file(&self.dir.join(&name))?,
                    name,
                })
            })
            .collect()
    }

    /// Reads everything and runs the pipeline on the folder ([`config::load_dir`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn build(&self) -> Result<Output, FolderError> {
        let req = self.request().map_err(FolderError::Input)?;
        if !self.dir.is_dir() {
            return Err(FolderError::Input(format!(
                "{}: not a folder",
                self.dir.display()
            )));
        }
        // Without schemas the validation and the graph's ReferenceTransformer read every
        // resource body as the loader can while it has them at hand.
        if req.schemas.is_none() {
            // With a state or planned changes, instance vertices read their resource's body
            // again after its own vertex took the references the loader kept: bodies are kept.
            let bodies = if req.state.is_none() && req.plan_json.is_none() && req.changes.is_none()
            {
                self.bodies
            } else {
                config::Bodies::Kept
            };
            let (loaded, found) = config::load_dir_keeping_references(&self.dir, bodies);
            return run_loaded_keeping(loaded, found, &req).map_err(FolderError::Diagnostics);
        }
        run_loaded(config::load_dir(&self.dir), &req).map_err(FolderError::Diagnostics)
    }
}

/// A variables file's text, or OpenTofu's "Failed to read variables file" (`addVarsFromFile`).
fn read_var_file(p: &std::path::Path) -> Result<String, String> {
    let bytes = std::fs::read(p).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!(
                "Failed to read variables file: Given variables file {} does not exist.",
                p.display()
            )
        } else {
            format!(
                "Failed to read variables file: Error while reading {}: {e}.",
                p.display()
            )
        }
    })?;
    config::text_from_bytes(&p.display().to_string(), bytes).map_err(|d| d.to_string())
}
