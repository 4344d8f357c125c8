//! `tfgraph outline`: the top-level blocks of HCL files with their positions.

use std::path::PathBuf;
use std::process::ExitCode;

/// List the top-level blocks of HCL files, or the first parse error with line and column.
#[derive(clap::Args)]
pub struct Args {
    /// .tf files to read.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

pub fn run(args: &Args) -> ExitCode {
    let mut ok = true;
    for f in &args.files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("Error: {}: {e}", f.display());
                ok = false;
                continue;
            }
        };
        match tfgraph::outline::outline(&text) {
            Ok(blocks) => {
                for b in blocks {
                    println!("{}:{}:{}: {}", f.display(), b.line, b.column, b.header());
                }
            }
            Err(e) => {
                eprintln!(
                    "Error: {}:{}:{}: {}",
                    f.display(),
                    e.line,
                    e.column,
                    e.message
                );
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
