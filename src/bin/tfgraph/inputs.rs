//! The arguments of every subcommand that builds a graph from a folder (`graph`, `steps`, `walk`,
//! `layout`): one clap group, so a new input flag is added here once.

use std::path::PathBuf;
use std::process::ExitCode;
use tfgraph::pipeline::{FolderInputs, Output};

#[derive(clap::Args)]
pub struct InputArgs {
    /// The root module folder (local module sources are followed).
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
    /// A root variable value, NAME=VALUE (repeatable).
    #[arg(long = "var", value_name = "NAME=VALUE")]
    pub vars: Vec<String>,
    /// Limit to this address and what it depends on (repeatable).
    #[arg(long = "target", value_name = "ADDR")]
    pub targets: Vec<String>,
    /// Leave out this address and what depends on it (repeatable).
    #[arg(long = "exclude", value_name = "ADDR")]
    pub excludes: Vec<String>,
}

impl InputArgs {
    pub fn folder(&self) -> FolderInputs {
        FolderInputs {
            dir: self.dir.clone(),
            kind: self.kind.clone(),
            state: self.state.clone(),
            plan: self.plan.clone(),
            changes: self.changes.clone(),
            schemas: self.schemas.clone(),
            vars: self.vars.clone(),
            targets: self.targets.clone(),
            excludes: self.excludes.clone(),
        }
    }

    /// Builds the graph; on failure prints each problem as `Error: ...` and gives the exit code.
    pub fn build(&self) -> Result<Output, ExitCode> {
        self.folder().build().map_err(|e| {
            for m in e.messages() {
                eprintln!("Error: {m}");
            }
            ExitCode::FAILURE
        })
    }
}
