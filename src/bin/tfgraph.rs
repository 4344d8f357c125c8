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

    /// The graph inputs shared by `graph`, `steps`, `walk` (and later `layout`).
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

    #[derive(Clone, Copy, ValueEnum)]
    enum WalkFormat {
        Text,
        Json,
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
        /// Build a graph and simulate OpenTofu's parallel walk of it on a virtual clock: print the
        /// event log and a summary (makespan, critical path, work, concurrency, utilisation).
        ///
        /// Every vertex waits for what it depends on (OpenTofu always walks dependencies first;
        /// in destroy graphs the destroy order comes from the graph's edges), then for one of
        /// --parallelism permits, then runs for its simulated duration. In plan graphs,
        /// `(expand)` vertices expand into the instances their count/for_each give statically
        /// (with --var values); an unknown count is reported, not guessed. Simulated failures do
        /// not change the exit status.
        Walk {
            #[command(flatten)]
            inputs: GraphInputs,
            /// At most this many vertices run at once (`tofu -parallelism`).
            #[arg(long, default_value_t = 10)]
            parallelism: usize,
            /// Seed of the duration jitter.
            #[arg(long, default_value_t = 0)]
            seed: u64,
            /// Relative jitter of table durations, 0 to 1.
            #[arg(long, default_value_t = 0.1)]
            jitter: f64,
            /// Durations in seconds by vertex name or resource type: a JSON object
            /// (`{"aws_instance": 30}`) or lines `NAME SECONDS` (`aws_instance.web[0] 12`).
            #[arg(long, value_name = "FILE")]
            durations: Option<PathBuf>,
            /// Make this vertex (or instance) fail (repeatable); what depends on it is then
            /// upstream-failed.
            #[arg(long = "fail", value_name = "ADDR")]
            fails: Vec<String>,
            /// Output format.
            #[arg(long, value_enum, default_value = "text")]
            format: WalkFormat,
            /// Instead of one walk, print the makespan for each parallelism in a range (`1..32`,
            /// inclusive) or list (`1,2,4,8`).
            #[arg(long, value_name = "RANGE")]
            sweep: Option<String>,
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
        /// Write a generated Terraform-like configuration (providers, variables, locals, data
        /// sources, resources referring to earlier ones, count/for_each, local modules) to OUTDIR.
        Gen {
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
        },
        /// Lay out the graph of a configuration folder (as `graph` builds it) or of a DOT file;
        /// print positions and routed edges (json) or a drawing (svg). A summary line goes to
        /// stderr.
        Layout {
            #[command(flatten)]
            inputs: GraphInputs,
            #[arg(long, value_enum, default_value = "json")]
            format: LayoutFormat,
            #[arg(long, value_enum, default_value = "tb")]
            direction: LayoutDirection,
            /// Keep the `root` vertex (left out by default: every vertex without dependents leads
            /// into it, which draws as a fan of long edges and nothing else).
            #[arg(long)]
            with_root: bool,
        },
        /// Run the benchmarks and print their tables (scripts/bench runs this with the wasm
        /// figures as well).
        Bench {
            /// `BENCH-WASM` lines from tests/bench_wasm.rs, to compare wasm with native.
            #[arg(long, value_name = "FILE")]
            wasm: Option<PathBuf>,
            /// Small sizes only (a smoke test of the benchmark itself).
            #[arg(long)]
            quick: bool,
            /// Skip Graphviz dot.
            #[arg(long)]
            no_dot: bool,
        },
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum LayoutFormat {
        Json,
        Svg,
    }

    #[derive(Clone, Copy, ValueEnum)]
    enum LayoutDirection {
        /// Top to bottom.
        Tb,
        /// Left to right.
        Lr,
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
            Command::Walk {
                inputs,
                parallelism,
                seed,
                jitter,
                durations,
                fails,
                format,
                sweep,
            } => walk(
                &inputs,
                &WalkArgs {
                    parallelism,
                    seed,
                    jitter,
                    durations,
                    fails,
                    format,
                    sweep,
                },
            ),
            Command::Conformance { dirs } => conformance(&dirs),
            Command::Gen {
                resources,
                modules,
                seed,
                outdir,
            } => layout_cmds::generate(resources, modules, seed, &outdir),
            Command::Layout {
                inputs,
                format,
                direction,
                with_root,
            } => layout_cmds::layout(&inputs, format, direction, with_root),
            Command::Bench {
                wasm,
                quick,
                no_dot,
            } => layout_cmds::bench(wasm.as_deref(), quick, no_dot),
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

    struct WalkArgs {
        parallelism: usize,
        seed: u64,
        jitter: f64,
        durations: Option<PathBuf>,
        fails: Vec<String>,
        format: WalkFormat,
        sweep: Option<String>,
    }

    /// `1..32` (inclusive) or `1,2,4`.
    fn parse_sweep(s: &str) -> Result<Vec<usize>, String> {
        let bad =
            || format!("invalid --sweep {s:?}: expected a range like 1..32 or a list like 1,2,4");
        let num = |x: &str| x.trim().parse::<usize>().map_err(|_| bad());
        let ps: Vec<usize> = match s.split_once("..") {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b.trim_start_matches('='))?);
                if a == 0 || a > b || b - a > 100_000 {
                    return Err(bad());
                }
                (a..=b).collect()
            }
            None => s.split(',').map(num).collect::<Result<_, _>>()?,
        };
        if ps.is_empty() || ps.contains(&0) {
            return Err(bad());
        }
        Ok(ps)
    }

    fn secs(d: std::time::Duration) -> String {
        format!("{:.3}s", d.as_secs_f64())
    }

    fn walk(inputs: &GraphInputs, args: &WalkArgs) -> ExitCode {
        use tfgraph::walk::{self, DurationModel, Scenario, Transition, WalkOptions};
        let sweep = match args.sweep.as_deref().map(parse_sweep).transpose() {
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
        let out = match build(inputs) {
            Ok(o) => o,
            Err(code) => return code,
        };
        let expander = out.expander();
        let scenario = || {
            let mut s = Scenario::new(model.clone());
            for f in &args.fails {
                s = s.fail(f.clone(), "simulated failure");
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
                WalkFormat::Text => {
                    println!("parallelism  makespan");
                    for (p, m) in rows {
                        println!("{p:>11}  {}", secs(m));
                    }
                }
                WalkFormat::Json => {
                    let rows: Vec<_> = rows
                        .iter()
                        .map(|(p, m)| {
                            serde_json::json!({"parallelism": p, "makespan": m.as_secs_f64()})
                        })
                        .collect();
                    println!("{}", serde_json::Value::Array(rows));
                }
            }
            return ExitCode::SUCCESS;
        }
        let r = walk::simulate(
            g,
            &WalkOptions::with_parallelism(args.parallelism),
            scenario(),
        );
        for f in &args.fails {
            if !r.tasks.iter().any(|t| &t.name == f) {
                eprintln!("Warning: --fail {f}: no vertex or instance of that name was walked");
            }
        }
        let m = r.metrics();
        let name = |t: walk::TaskId| r.tasks.get(t.index()).map_or("?", |x| x.name.as_str());
        let count =
            |f: &dyn Fn(&Transition) -> bool| r.tasks.iter().filter(|t| f(&t.status)).count();
        let done = count(&|s| *s == Transition::Done);
        let failed = count(&|s| matches!(s, Transition::Failed(_)));
        let upstream = count(&|s| *s == Transition::UpstreamFailed);
        let unfinished = count(&|s| !s.is_finished());
        let unknown: Vec<(&str, &str)> = r
            .events
            .iter()
            .filter_map(|e| match &e.transition {
                Transition::InstancesUnknown(w) => Some((e.name.as_str(), w.as_str())),
                _ => None,
            })
            .collect();
        match args.format {
            WalkFormat::Text => {
                print!("{}", r.log_text());
                println!();
                println!("Summary");
                println!("  parallelism          {}", r.parallelism);
                println!("  makespan             {}", secs(m.makespan));
                println!(
                    "  critical path        {} over {} vertices",
                    secs(m.critical_path_length),
                    m.critical_path.len()
                );
                for t in &m.critical_path {
                    let ran = r
                        .tasks
                        .get(t.index())
                        .map(|x| x.ran_for)
                        .unwrap_or_default();
                    println!("    {:>10}  {}", secs(ran), name(*t));
                }
                println!("  total work           {}", secs(m.total_work));
                println!("  highest concurrency  {}", m.max_concurrency);
                println!("  utilisation          {:.1}%", m.utilisation * 100.0);
                println!(
                    "  tasks                {} ({done} done, {failed} failed, {upstream} upstream failed, {} instance sets unknown{})",
                    r.tasks.len(),
                    unknown.len(),
                    if unfinished > 0 {
                        format!(", {unfinished} never finished (cycle)")
                    } else {
                        String::new()
                    }
                );
            }
            WalkFormat::Json => {
                let events: Vec<_> = r
                    .events
                    .iter()
                    .map(|e| {
                        serde_json::json!({
                            "time": e.time.as_secs_f64(),
                            "task": e.task,
                            "name": e.name,
                            "transition": e.transition,
                        })
                    })
                    .collect();
                let path: Vec<_> = m
                    .critical_path
                    .iter()
                    .map(|t| {
                        let ran = r.tasks.get(t.index()).map(|x| x.ran_for).unwrap_or_default();
                        serde_json::json!({"task": t, "name": name(*t), "duration": ran.as_secs_f64()})
                    })
                    .collect();
                let summary = serde_json::json!({
                    "events": events,
                    "summary": {
                        "parallelism": r.parallelism,
                        "makespan": m.makespan.as_secs_f64(),
                        "critical_path_length": m.critical_path_length.as_secs_f64(),
                        "critical_path": path,
                        "total_work": m.total_work.as_secs_f64(),
                        "max_concurrency": m.max_concurrency,
                        "utilisation": m.utilisation,
                        "tasks": r.tasks.len(),
                        "done": done,
                        "failed": failed,
                        "upstream_failed": upstream,
                        "unfinished": unfinished,
                        "instances_unknown": unknown
                            .iter()
                            .map(|(n, w)| serde_json::json!({"name": n, "reason": w}))
                            .collect::<Vec<_>>(),
                    }
                });
                println!("{summary:#}");
            }
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

    /// `gen`, `layout` and `bench`: thin wrappers over `tfgraph::generator`, `tfgraph::layout`
    /// and `tfgraph::bench`.
    mod layout_cmds {
        use super::{GraphInputs, LayoutDirection, LayoutFormat, build};
        use std::collections::BTreeMap;
        use std::path::Path;
        use std::process::ExitCode;
        use std::time::Instant;
        use tfgraph::bench::{PhaseTimes, best_of, measure_pipeline, uniform_graph};
        use tfgraph::generator::{GenOptions, generate as gen_files, write_dir};
        use tfgraph::layout::inputs::{input_from_dot, input_from_plan, input_to_dot};
        use tfgraph::layout::{
            self, Direction, Input, Layout, LayoutOptions, measure_dot_plain, monospace_size,
            random_graph,
        };

        pub fn generate(resources: usize, modules: usize, seed: u64, outdir: &Path) -> ExitCode {
            let files = gen_files(&GenOptions {
                resources,
                modules,
                seed,
            });
            match write_dir(&files, outdir) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("Error: {}: {e}", outdir.display());
                    ExitCode::FAILURE
                }
            }
        }

        pub fn layout(
            inputs: &GraphInputs,
            format: LayoutFormat,
            direction: LayoutDirection,
            with_root: bool,
        ) -> ExitCode {
            let (input, labels) = if inputs.dir.is_file() {
                let text = match std::fs::read_to_string(&inputs.dir) {
                    Ok(t) => t,
                    Err(e) => {
                        eprintln!("Error: {}: {e}", inputs.dir.display());
                        return ExitCode::FAILURE;
                    }
                };
                match input_from_dot(&text) {
                    Ok(i) => (i, BTreeMap::new()),
                    Err(e) => {
                        eprintln!("Error: {}: not a DOT graph: {e}", inputs.dir.display());
                        return ExitCode::FAILURE;
                    }
                }
            } else {
                match build(inputs) {
                    Ok(out) => input_from_plan(out.built.graph.dag(), with_root),
                    Err(code) => return code,
                }
            };
            let opts = LayoutOptions {
                direction: match direction {
                    LayoutDirection::Tb => Direction::TopToBottom,
                    LayoutDirection::Lr => Direction::LeftToRight,
                },
                ..Default::default()
            };
            let start = Instant::now();
            let l = layout::layout(&input, &opts);
            let elapsed = start.elapsed();
            let text = match format {
                LayoutFormat::Json => match serde_json::to_string_pretty(&l) {
                    Ok(t) => t,
                    Err(e) => {
                        eprintln!("Error: {e}");
                        return ExitCode::FAILURE;
                    }
                },
                LayoutFormat::Svg => layout::svg::render(&l, |n| {
                    labels.get(&n.id).cloned().unwrap_or_else(|| n.name.clone())
                }),
            };
            println!("{}", text.trim_end());
            let m = l.metrics();
            eprintln!(
                "layout: {} vertices, {} edges, {} clusters, {} crossings, total edge length {:.0}, bounding box {:.0} x {:.0}, {:.1} ms",
                l.nodes.len(),
                l.edges.len(),
                l.clusters.len(),
                m.crossings,
                m.total_edge_length,
                m.width,
                m.height,
                elapsed.as_secs_f64() * 1000.0
            );
            ExitCode::SUCCESS
        }

        fn clock() -> impl FnMut() -> f64 {
            let origin = Instant::now();
            move || origin.elapsed().as_secs_f64() * 1000.0
        }

        /// Best of `runs` wall-clock milliseconds of `f`, and its last result.
        fn best_ms<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, T) {
            let mut best = f64::INFINITY;
            let mut last = None;
            for _ in 0..runs.max(1) {
                let t = Instant::now();
                let r = f();
                best = best.min(t.elapsed().as_secs_f64() * 1000.0);
                last = Some(r);
            }
            (best, last.expect("at least one run"))
        }

        fn ms(x: f64) -> String {
            if x >= 1000.0 {
                format!("{:.2} s", x / 1000.0)
            } else if x >= 10.0 {
                format!("{x:.0} ms")
            } else {
                format!("{x:.1} ms")
            }
        }

        fn thousands(n: u64) -> String {
            let s = n.to_string();
            let mut out = String::new();
            for (i, c) in s.chars().enumerate() {
                if i > 0 && (s.len() - i).is_multiple_of(3) {
                    out.push(',');
                }
                out.push(c);
            }
            out
        }

        /// `dot -Tplain` on the input: wall-clock ms and the plain output.
        fn run_dot(input: &Input) -> Result<(f64, String), String> {
            use std::io::Write as _;
            let text = input_to_dot(input, Direction::TopToBottom);
            let t = Instant::now();
            let mut child = std::process::Command::new("dot")
                .arg("-Tplain")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .map_err(|e| format!("dot: {e}"))?;
            child
                .stdin
                .take()
                .ok_or("dot: no stdin")?
                .write_all(text.as_bytes())
                .map_err(|e| format!("dot: {e}"))?;
            let out = child.wait_with_output().map_err(|e| format!("dot: {e}"))?;
            let elapsed = t.elapsed().as_secs_f64() * 1000.0;
            if !out.status.success() {
                return Err(format!("dot exited with {}", out.status));
            }
            Ok((elapsed, String::from_utf8_lossy(&out.stdout).into_owned()))
        }

        /// The plan graph of a generated configuration as a layout input.
        fn plan_input(resources: usize) -> Result<Input, String> {
            let files = gen_files(&GenOptions {
                resources,
                modules: resources / 100,
                seed: 1,
            });
            let out = tfgraph::pipeline::run(&tfgraph::pipeline::Request::new(
                files,
                tfgraph::builder::BuilderKind::Plan,
            ))
            .map_err(|d| format!("{d:?}"))?;
            Ok(input_from_plan(out.built.graph.dag(), false).0)
        }

        fn random_input(n: usize) -> Input {
            let (g, modules) = random_graph(n, 1);
            Input::from_graph(
                &g,
                |_, v| monospace_size(v),
                |id, _| modules.get(&id).cloned().unwrap_or_default(),
            )
        }

        fn uniform_input(n: usize) -> Input {
            let g = uniform_graph(n, 2, 1);
            Input::from_graph(&g, |_, v| monospace_size(v), |_, _| Vec::new())
        }

        /// Reads `BENCH-WASM <resources> key=value ...` lines.
        fn read_wasm(path: &Path) -> Result<BTreeMap<usize, BTreeMap<String, f64>>, String> {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut out = BTreeMap::new();
            for line in text.lines() {
                let Some(rest) = line.split("BENCH-WASM ").nth(1) else {
                    continue;
                };
                let mut words = rest.split_whitespace();
                let Some(n) = words.next().and_then(|w| w.parse::<usize>().ok()) else {
                    continue;
                };
                let kv = words
                    .filter_map(|w| {
                        let (k, v) = w.split_once('=')?;
                        Some((k.to_string(), v.parse::<f64>().ok()?))
                    })
                    .collect();
                out.insert(n, kv);
            }
            Ok(out)
        }

        pub fn bench(wasm: Option<&Path>, quick: bool, no_dot: bool) -> ExitCode {
            match run_bench(wasm, quick, no_dot) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("Error: {e}");
                    ExitCode::FAILURE
                }
            }
        }

        fn run_bench(wasm: Option<&Path>, quick: bool, no_dot: bool) -> Result<(), String> {
            let sizes: &[(usize, usize)] = if quick {
                &[(100, 3), (300, 3)]
            } else {
                &[(1_000, 5), (10_000, 3)]
            };
            println!(
                "### Pipeline (plan graph of `tfgraph gen --resources N --modules N/100 --seed 1`)\n"
            );
            println!("Best of several runs, wall clock. Load includes the loader's own parse.\n");
            println!(
                "| resources | vertices | edges | text | raw hcl-rs parse (floor) | load (parse + decode) | transforms | transitive reduction | validate | whole pipeline | whole / floor |"
            );
            println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            let mut native: BTreeMap<usize, PhaseTimes> = BTreeMap::new();
            for &(n, runs) in sizes {
                let files = gen_files(&GenOptions {
                    resources: n,
                    modules: n / 100,
                    seed: 1,
                });
                let mut c = clock();
                let all = (0..runs)
                    .map(|_| measure_pipeline(&files, &mut c))
                    .collect::<Result<Vec<_>, _>>()?;
                let t = best_of(&all);
                println!(
                    "| {} | {} | {} | {:.1} MB | {} | {} | {} | {} | {} | {} | {:.2}x |",
                    thousands(n as u64),
                    thousands(t.vertices as u64),
                    thousands(t.edges as u64),
                    t.bytes as f64 / 1e6,
                    ms(t.raw_parse),
                    ms(t.load),
                    ms(t.transforms),
                    ms(t.reduction),
                    ms(t.validate),
                    ms(t.whole),
                    t.whole / t.raw_parse
                );
                native.insert(n, t);
            }

            println!("\n### Layout against Graphviz dot 2.43\n");
            println!(
                "Ours: best of 3, wall clock. dot: one `dot -Tplain` run on the same graph (same box sizes, same nested clusters), wall clock. Crossings counted the same way for both (`layout::measure_dot_plain` on dot's output, `Layout::metrics` on ours).\n"
            );
            println!(
                "| graph | vertices | edges | ours | dot | crossings ours | crossings dot | ours / dot |"
            );
            println!("|---|---:|---:|---:|---:|---:|---:|---:|");
            let mut graphs: Vec<(String, Input, bool)> = Vec::new();
            let (k1, k3, k10) = if quick {
                (200, 400, 1_000)
            } else {
                (1_000, 3_000, 10_000)
            };
            graphs.push((
                format!("random_graph({k1}), modules"),
                random_input(k1),
                true,
            ));
            graphs.push((
                format!("random_graph({k3}), modules"),
                random_input(k3),
                true,
            ));
            // Generated configurations whose plan graphs have about k1 and k3 vertices.
            for res in [k1 * 3 / 4, k3 * 3 / 4] {
                let i = plan_input(res)?;
                graphs.push((format!("plan graph, gen {res} resources"), i, true));
            }
            graphs.push((
                format!("random_graph({k10}), modules"),
                random_input(k10),
                false,
            ));
            graphs.push((
                format!("uniform {k10} vertices x 2 dependencies"),
                uniform_input(k10),
                false,
            ));
            let big = plan_input(k10)?;
            graphs.push((format!("plan graph, gen {k10} resources"), big, false));
            let opts = LayoutOptions::default();
            for (name, input, with_dot) in &graphs {
                let (t, l): (f64, Layout) = best_ms(3, || layout::layout(input, &opts));
                let m = l.metrics();
                let (dot_t, dot_c) = if *with_dot && !no_dot {
                    let (dt, plain) = run_dot(input)?;
                    let dm = measure_dot_plain(&plain, Direction::TopToBottom);
                    (ms(dt), Some(dm.crossings))
                } else {
                    ("(not run)".to_string(), None)
                };
                println!(
                    "| {name} | {} | {} | {} | {dot_t} | {} | {} | {} |",
                    thousands(input.nodes.len() as u64),
                    thousands(input.edges.len() as u64),
                    ms(t),
                    thousands(m.crossings),
                    dot_c.map(thousands).unwrap_or_default(),
                    dot_c
                        .map(|d| format!("{:.2}x", m.crossings as f64 / d.max(1) as f64))
                        .unwrap_or_default()
                );
            }

            if let Some(path) = wasm {
                let w = read_wasm(path)?;
                println!("\n### wasm (headless Chromium) against native\n");
                println!(
                    "| resources | phase | native | wasm | wasm / native |\n|---:|---|---:|---:|---:|"
                );
                for (n, t) in &native {
                    let Some(wt) = w.get(n) else { continue };
                    for (phase, nat) in [
                        ("raw_parse", t.raw_parse),
                        ("load", t.load),
                        ("transforms", t.transforms),
                        ("reduction", t.reduction),
                        ("validate", t.validate),
                        ("whole", t.whole),
                    ] {
                        if let Some(&x) = wt.get(phase) {
                            println!(
                                "| {} | {phase} | {} | {} | {:.2}x |",
                                thousands(*n as u64),
                                ms(nat),
                                ms(x),
                                x / nat
                            );
                        }
                    }
                }
                if w.is_empty() {
                    println!("(no BENCH-WASM lines in {})", path.display());
                }
            }
            Ok(())
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
