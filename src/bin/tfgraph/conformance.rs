//! `tfgraph conformance`: runs the corpus mined from OpenTofu's tests against our engine.

use std::path::PathBuf;
use std::process::ExitCode;

/// Run conformance cases (graph/, dag/, dot/ folders of the shared corpus) and compare our
/// output with OpenTofu's. Prints PASS/FAIL/SKIP per case and a summary line.
#[derive(clap::Args)]
pub struct Args {
    /// Corpus folders, case folders or case files.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
}

pub fn run(args: &Args) -> ExitCode {
    let mut all = Vec::new();
    for d in &args.dirs {
        match tfgraph::conformance::run_path(d) {
            Ok(results) => {
                for r in &results {
                    println!("{r}");
                }
                all.extend(results);
            }
            Err(e) => {
                eprintln!("Error: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let summary = tfgraph::conformance::Summary::of(&all);
    println!("{summary}");
    if summary.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
