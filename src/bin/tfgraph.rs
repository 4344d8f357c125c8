//! `tfgraph`, the native command-line tool: the same engine as the web app.

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use clap::{Args, Parser, Subcommand, ValueEnum};
    use std::path::PathBuf;
    use std::process::ExitCode;
    use tfgraph::builder::BuilderKind;
    use tfgraph::dag::render::dot::DotOpts;
    use tfgraph::pipeline::{self, NamedText, Request};

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

    /// The graph inputs shared by `graph`, `steps` (and later `walk`, `layout`).
    #[derive(Args)]
    struct GraphInputs {
        /// The root module folder (local module sources are followed).
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Which graph: plan, plan-destroy, plan-refresh-only, validate or apply. Default: plan, or
        /// apply when --plan is given (as `tofu graph`).
        #[arg(long = "type", value_name = "TYPE")]
        kind: Option<String>,
        /// A state file (format version 4).
        #[arg(long, value_name = "FILE")]
        state: Option<PathBuf>,
        /// A plan as JSON (`terraform show -json PLANFILE`).
        #[arg(long, value_name = "FILE")]
        plan: Option<PathBuf>,
        /// Planned changes as a JSON list (the conformance corpus' `changes` format).
        #[arg(long, value_name = "FILE")]
        changes: Option<PathBuf>,
        /// Provider schemas (`tofu providers schema -json`). Without them, every attribute of a
        /// resource counts as a possible reference.
        #[arg(long, value_name = "FILE")]
        schemas: Option<PathBuf>,
        /// A root variable value, NAME=VALUE (repeatable).
        #[arg(long = "var", value_name = "NAME=VALUE")]
        vars: Vec<String>,
        /// Limit to this address and what it depends on (repeatable).
        #[arg(long = "target", value_name = "ADDR")]
        targets: Vec<String>,
        /// Leave out this address and what depends on it (repeatable).
        #[arg(long = "exclude", value_name = "ADDR")]
        excludes: Vec<String>,
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum GraphFormat {
        Dot,
        Text,
        Json,
        Mermaid,
    }

    #[derive(Subcommand)]
    enum Command {
        /// Build one of OpenTofu's graphs and print it (DOT by default, as `tofu graph`).
        Graph {
            #[command(flatten)]
            inputs: GraphInputs,
            /// Colour the edges of cycles red.
            #[arg(long)]
            draw_cycles: bool,
            /// Deepest module level to draw (-1: all).
            #[arg(long, default_value_t = -1, allow_negative_numbers = true)]
            module_depth: i64,
            /// Output format.
            #[arg(long, value_enum, default_value = "dot")]
            format: GraphFormat,
        },
        /// Build a graph and print each transform with the vertices and edges it added or removed.
        Steps {
            #[command(flatten)]
            inputs: GraphInputs,
        },
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
            Command::Graph {
                inputs,
                draw_cycles,
                module_depth,
                format,
            } => graph(&inputs, draw_cycles, module_depth, format),
            Command::Steps { inputs } => steps(&inputs),
            Command::Conformance { dirs } => conformance(&dirs),
        }
    }

    /// Reads the inputs into a pipeline request; a file that cannot be read is an error.
    fn request(inputs: &GraphInputs) -> Result<Request, String> {
        let kind = match inputs.kind.as_deref() {
            Some(k) => BuilderKind::parse(k).ok_or_else(|| {
                format!(
                    "Unsupported graph type: the --type argument must be one of {}",
                    BuilderKind::ALL
                        .iter()
                        .map(|k| k.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?,
            None if inputs.plan.is_some() => BuilderKind::Apply,
            None => BuilderKind::Plan,
        };
        let named = |p: &Option<PathBuf>| -> Result<Option<NamedText>, String> {
            p.as_ref()
                .map(|p| {
                    std::fs::read_to_string(p)
                        .map(|t| NamedText::new(p.display().to_string(), t))
                        .map_err(|e| format!("{}: {e}", p.display()))
                })
                .transpose()
        };
        let mut req = Request::new(Default::default(), kind);
        req.state = named(&inputs.state)?;
        req.plan_json = named(&inputs.plan)?;
        req.changes = named(&inputs.changes)?;
        req.schemas = named(&inputs.schemas)?;
        req.vars = inputs.vars.clone();
        req.targets = inputs.targets.clone();
        req.excludes = inputs.excludes.clone();
        Ok(req)
    }

    /// Runs the pipeline and prints its diagnostics the way the user will look for them.
    fn build(inputs: &GraphInputs) -> Result<pipeline::Output, ExitCode> {
        let req = request(inputs).map_err(|e| {
            eprintln!("Error: {e}");
            ExitCode::FAILURE
        })?;
        if !inputs.dir.is_dir() {
            eprintln!("Error: {}: not a folder", inputs.dir.display());
            return Err(ExitCode::FAILURE);
        }
        match pipeline::run_loaded(tfgraph::config::load_dir(&inputs.dir), &req) {
            Ok(out) => Ok(out),
            Err(diags) => {
                for d in diags {
                    eprintln!("Error: {d}");
                }
                Err(ExitCode::FAILURE)
            }
        }
    }

    fn graph(
        inputs: &GraphInputs,
        draw_cycles: bool,
        module_depth: i64,
        format: GraphFormat,
    ) -> ExitCode {
        let out = match build(inputs) {
            Ok(o) => o,
            Err(code) => return code,
        };
        let g = out.built.graph.dag();
        let text = match format {
            GraphFormat::Dot => g.dot(&DotOpts {
                verbose: false,
                draw_cycles,
                max_depth: module_depth,
            }),
            GraphFormat::Text => out.built.graph.string(),
            GraphFormat::Json => g.json_graph().to_json(),
            GraphFormat::Mermaid => g.mermaid(),
        };
        print!("{text}");
        if !text.ends_with('\n') {
            println!();
        }
        ExitCode::SUCCESS
    }

    fn steps(inputs: &GraphInputs) -> ExitCode {
        let out = match build(inputs) {
            Ok(o) => o,
            Err(code) => return code,
        };
        for (i, s) in out.built.steps.iter().enumerate() {
            let changed = s.added_vertices.len()
                + s.removed_vertices.len()
                + s.added_edges.len()
                + s.removed_edges.len();
            println!(
                "{:>2}. {} (+{} -{} vertices, +{} -{} edges)",
                i + 1,
                s.name,
                s.added_vertices.len(),
                s.removed_vertices.len(),
                s.added_edges.len(),
                s.removed_edges.len()
            );
            if changed == 0 {
                continue;
            }
            for v in &s.added_vertices {
                println!("    + {v}");
            }
            for v in &s.removed_vertices {
                println!("    - {v}");
            }
            for (a, b) in &s.added_edges {
                println!("    + {a} -> {b}");
            }
            for (a, b) in &s.removed_edges {
                println!("    - {a} -> {b}");
            }
        }
        ExitCode::SUCCESS
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
