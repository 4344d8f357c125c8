//! `tfgraph gen`: writes a generated configuration (`tfgraph::generator`) to a folder.

use std::path::PathBuf;
use std::process::ExitCode;
use tfgraph::generator::{GenOptions, generate, write_dir};

/// Write a generated Terraform-like configuration (providers, variables, locals, data
/// sources, resources referring to earlier ones, count/for_each, local modules) to OUTDIR.
#[derive(clap::Args)]
pub struct Args {
    /// Managed resources in total (root and modules).
    #[arg(long)]
    resources: usize,
    /// Local modules under OUTDIR/modules/, each called from the root module.
    #[arg(long, default_value_t = 0)]
    modules: usize,
    /// The same seed gives the same files.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    outdir: PathBuf,
}

pub fn run(args: &Args) -> ExitCode {
    let files = generate(&GenOptions {
        resources: args.resources,
        modules: args.modules,
        seed: args.seed,
    });
    match write_dir(&files, &args.outdir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {}: {e}", args.outdir.display());
            ExitCode::FAILURE
        }
    }
}
