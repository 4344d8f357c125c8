//! `tfgraph walk`: OpenTofu's parallel walk of a built graph on a virtual clock
//! (`tfgraph::walk`), printed as an event log with a summary, or a parallelism sweep
//! (`tfgraph::walk::report`).

use crate::inputs::InputArgs;
use clap::ValueEnum;
use std::path::PathBuf;
use std::process::ExitCode;
use tfgraph::walk::{self, DurationModel, Scenario, WalkOptions, report};

/// Build a graph and simulate OpenTofu's parallel walk of it on a virtual clock: print the
/// event log and a summary (makespan, critical path, work, concurrency, utilisation).
///
/// Every vertex waits for what it depends on (OpenTofu always walks dependencies first;
/// in destroy graphs the destroy order comes from the graph's edges), then for one of
/// --parallelism permits, then runs for its simulated duration. In plan graphs,
/// `(expand)` vertices expand into the instances their count/for_each give statically
/// (with --var values); an unknown count is reported, not guessed. Simulated failures do
/// not change the exit status.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub inputs: InputArgs,
    /// At most this many vertices run at once (`tofu -parallelism`).
    #[arg(long, default_value_t = walk::DEFAULT_PARALLELISM)]
    parallelism: usize,
    /// Seed of the duration jitter.
    #[arg(long, default_value_t = walk::DEFAULT_SEED)]
    seed: u64,
    /// Relative jitter of table durations, 0 to 1.
    #[arg(long, default_value_t = walk::DEFAULT_JITTER)]
    jitter: f64,
    /// Durations in seconds by vertex name or resource type: a JSON object
    /// (`{"aws_instance": 30}`) or lines `NAME SECONDS` (`aws_instance.web[0] 12`); `@KIND`
    /// sets every step of a kind (`@provider 5`), `ADDR@STEP` one step of one vertex.
    #[arg(long, value_name = "FILE")]
    durations: Option<PathBuf>,
    /// Make this vertex (or instance) fail (repeatable); what depends on it is then
    /// upstream-failed. `ADDR@STEP` fails it at one of its evaluation steps (`plan-change`:
    /// the provider returns an error while planning); the later steps do not run. A step of
    /// the instances given for an `(expand)` vertex fails each instance there.
    #[arg(long = "fail", value_name = "ADDR[@STEP]")]
    fails: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Instead of one walk, print the makespan for each parallelism in a range (`1..32`,
    /// inclusive) or list (`1,2,4,8`).
    #[arg(long, value_name = "RANGE")]
    sweep: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
}

pub fn run(args: &Args) -> ExitCode {
    let sweep = match args.sweep.as_deref().map(report::parse_sweep).transpose() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("Error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !(0.0..=1.0).contains(&args.jitter) {
        eprintln!("Error: --jitter must be between 0 and 1");
        return ExitCode::FAILURE;
    }
    let mut model = DurationModel::default()
        .with_seed(args.seed)
        .with_jitter(args.jitter);
    if let Some(p) = &args.durations {
        let loaded = std::fs::read_to_string(p)
            .map_err(|e| e.to_string())
            .and_then(|t| model.clone().with_file(&t));
        match loaded {
            Ok(m) => model = m,
            Err(e) => {
                eprintln!("Error: {}: {e}", p.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let out = match args.inputs.build() {
        Ok(o) => o,
        Err(code) => return code,
    };
    let expander = out.expander();
    let steps = std::sync::Arc::new(out.step_table());
    let scenario = || {
        let mut s = Scenario::new(model.clone()).with_steps(steps.clone());
        for f in &args.fails {
            s = s.fail_spec(f, "simulated failure");
        }
        if let Some(e) = &expander {
            s = s.with_expander(e.clone());
        }
        s
    };
    let g = out.built.graph.dag();
    if let Some(ps) = sweep {
        let rows = walk::sweep_with(g, ps, scenario);
        match args.format {
            Format::Text => print!("{}", report::sweep_text(&rows)),
            Format::Json => println!("{}", report::sweep_json(&rows)),
        }
        return ExitCode::SUCCESS;
    }
    let r = walk::simulate(
        g,
        &WalkOptions::with_parallelism(args.parallelism),
        scenario(),
    );
    for (f, why) in report::unmatched_failures(&r, &args.fails) {
        eprintln!("Warning: --fail {f}: {why}");
    }
    match args.format {
        Format::Text => print!("{}", report::report_text(&r)),
        Format::Json => println!("{:#}", report::report_json(&r)),
    }
    ExitCode::SUCCESS
}
