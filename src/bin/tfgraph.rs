//! `tfgraph`, the native command-line tool: the same engine as the web app.

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use clap::{Parser, Subcommand};
    use std::path::PathBuf;
    use std::process::ExitCode;

    #[derive(Parser)]
    #[command(
        name = "tfgraph",
        version,
        about = "See how Terraform/OpenTofu turn configuration into a dependency graph, and walk it"
    )]
    struct Cli {
        #[command(subcommand)]
        command: Command,
    }

    #[derive(Subcommand)]
    enum Command {
        /// List the top-level blocks of HCL files, or the first parse error with line and column.
        Outline {
            /// .tf files to read.
            #[arg(required = true)]
            files: Vec<PathBuf>,
        },
        /// Run conformance cases (graph/, dag/, dot/ folders of the shared corpus) and compare our
        /// output with OpenTofu's. Prints PASS/FAIL/SKIP per case and a summary line.
        Conformance {
            /// Corpus folders, case folders or case files.
            #[arg(required = true)]
            dirs: Vec<PathBuf>,
        },
    }

    pub fn main() -> ExitCode {
        let cli = Cli::parse();
        match cli.command {
            Command::Outline { files } => outline(&files),
            Command::Conformance { dirs } => conformance(&dirs),
        }
    }

    fn outline(files: &[PathBuf]) -> ExitCode {
        let mut ok = true;
        for f in files {
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

    fn conformance(dirs: &[PathBuf]) -> ExitCode {
        let mut all = Vec::new();
        for d in dirs {
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
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
