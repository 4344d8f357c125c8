//! The arguments of every subcommand that builds a graph from a folder (`graph`, `steps`, `walk`,
//! `layout`, `why`): one clap group, so a new input flag is added here once.

use std::path::PathBuf;
use std::process::ExitCode;
use tfgraph::builder::Record;
use tfgraph::config::Bodies;
use tfgraph::pipeline::{FolderInputs, Output, VarArg};

#[derive(clap::Args)]
pub struct InputArgs {
    /// The root module folder (local module sources are followed; registry and remote ones
    /// through .terraform/modules/modules.json after `tofu init`).
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// Which graph: plan, plan-destroy, plan-refresh-only, validate or apply. Default: plan, or
    /// apply when --plan is given (as `tofu graph`).
    #[arg(long = "type", value_name = "TYPE")]
    pub kind: Option<String>,
    /// A state file (format version 4).
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// A plan as JSON (`terraform show -json PLANFILE`).
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
    /// Planned changes as a JSON list (the conformance corpus' `changes` format).
    #[arg(long, value_name = "FILE")]
    pub changes: Option<PathBuf>,
    /// Provider schemas (`tofu providers schema -json`). Without them, every attribute of a
    /// resource counts as a possible reference.
    #[arg(long, value_name = "FILE")]
    pub schemas: Option<PathBuf>,
    /// A root variable value, NAME=VALUE (repeatable). With --var-file, a later one wins; both
    /// win over terraform.tfvars, *.auto.tfvars(.json) and TF_VAR_NAME, as in OpenTofu.
    #[arg(long = "var", value_name = "NAME=VALUE")]
    pub vars: Vec<String>,
    /// A variables file, HCL or JSON (repeatable).
    #[arg(long = "var-file", value_name = "FILE")]
    pub var_files: Vec<PathBuf>,
    /// --var and --var-file in command-line order, filled in by `main` from clap's indices.
    #[arg(skip)]
    pub var_order: Option<Vec<VarArg>>,
    /// Limit to this address and what it depends on (repeatable).
    #[arg(long = "target", value_name = "ADDR")]
    pub targets: Vec<String>,
    /// Leave out this address and what depends on it (repeatable).
    #[arg(long = "exclude", value_name = "ADDR")]
    pub excludes: Vec<String>,
}

/// `--var` and `--var-file` of a subcommand's matches in the order they were given.
pub fn var_args_in_order(m: &clap::ArgMatches) -> Vec<VarArg> {
    let mut all: Vec<(usize, VarArg)> = Vec::new();
    if let (Some(values), Some(at)) = (m.get_many::<String>("vars"), m.indices_of("vars")) {
        all.extend(at.zip(values.map(|v| VarArg::Var(v.clone()))));
    }
    if let (Some(values), Some(at)) = (
        m.get_many::<PathBuf>("var_files"),
        m.indices_of("var_files"),
    ) {
        all.extend(at.zip(values.map(|v| VarArg::File(v.clone()))));
    }
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, a)| a).collect()
}

impl InputArgs {
    pub fn folder(&self) -> FolderInputs {
        let vars = self.var_order.clone().unwrap_or_else(|| {
            self.vars
                .iter()
                .map(|v| VarArg::Var(v.clone()))
                .chain(self.var_files.iter().map(|p| VarArg::File(p.clone())))
                .collect()
        });
        FolderInputs {
            dir: self.dir.clone(),
            kind: self.kind.clone(),
            state: self.state.clone(),
            plan: self.plan.clone(),
            changes: self.changes.clone(),
            schemas: self.schemas.clone(),
            vars,
            env_vars: std::env::vars()
                .filter_map(|(k, v)| Some((k.strip_prefix("TF_VAR_")?.to_string(), v)))
                .collect(),
            targets: self.targets.clone(),
            excludes: self.excludes.clone(),
            record: Record::ALL,
            bodies: Bodies::Kept,
        }
    }

    /// Builds the graph, printing each warning (`Warning: ...`, modules not installed among
    /// them) to stderr; on failure prints each problem as `Error: ...` and gives the exit code.
    pub fn build(&self) -> Result<Output, ExitCode> {
        self.build_recording(Record::ALL, Bodies::Kept)
    }

    /// [`InputArgs::build`] for a command that prints only some of what a build records
    /// ([`Record`]), and reads of the resource bodies at most their references ([`Bodies`]):
    /// what it leaves out is never made.
    pub fn build_recording(&self, record: Record, bodies: Bodies) -> Result<Output, ExitCode> {
        let folder = FolderInputs {
            record,
            bodies,
            ..self.folder()
        };
        let out = folder.build().map_err(|e| {
            for m in e.messages() {
                eprintln!("Error: {m}");
            }
            ExitCode::FAILURE
        })?;
        for w in &out.warnings {
            eprintln!("{w}");
        }
        Ok(out)
    }
}
