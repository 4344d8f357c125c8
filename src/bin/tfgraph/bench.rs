//! `tfgraph bench`: the benchmark tables of `tfgraph::bench::report` with this machine's clock,
//! Graphviz `dot` and ELK (elkjs under Node.js), where they are installed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use tfgraph::bench::{Host, Sizes, report};
use tfgraph::layout::inputs::{input_from_plan, input_to_dot, input_to_elk};
use tfgraph::layout::{Direction, Input};
use tfgraph::pipeline::FolderInputs;

/// Run the benchmarks and print their tables (scripts/bench runs this with the wasm
/// figures as well).
#[derive(clap::Args)]
pub struct Args {
    /// `BENCH-WASM` lines from tests/bench_wasm.rs, to compare wasm with native.
    #[arg(long, value_name = "FILE")]
    wasm: Option<PathBuf>,
    /// Small sizes only (a smoke test of the benchmark itself).
    #[arg(long)]
    quick: bool,
    /// Skip Graphviz dot.
    #[arg(long)]
    no_dot: bool,
    /// Skip ELK.
    #[arg(long)]
    no_elk: bool,
    /// A folder holding elkjs in its node_modules (default: $ELKJS_DIR; scripts/bench installs
    /// it under target/elk).
    #[arg(long, value_name = "DIR")]
    elkjs: Option<PathBuf>,
    /// Leave out the pipeline table.
    #[arg(long)]
    no_pipeline: bool,
    /// Leave out the generated graphs' layout table.
    #[arg(long)]
    no_layout: bool,
    /// Lay out the plan graph of every root module (folder with .tf files) under DIR, e.g.
    /// ../shared/realworld, with ours, dot and ELK.
    #[arg(long, value_name = "DIR")]
    realworld: Option<PathBuf>,
    /// Only the layout rows whose graph name contains this text.
    #[arg(long, value_name = "TEXT", default_value = "")]
    only: String,
    /// Keep dot's and ELK's results here, keyed by their input, and reuse them (they take
    /// seconds to minutes; ours is always run).
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
}

/// Runs `cmd` with `stdin` written to it: wall-clock ms and its stdout.
fn pipe(cmd: &mut std::process::Command, stdin: &str) -> Result<(f64, String), String> {
    use std::io::Write as _;
    let name = cmd.get_program().to_string_lossy().into_owned();
    let t = Instant::now();
    let mut child = cmd
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("{name}: {e}"))?;
    // Written from a thread: a large output could otherwise fill the pipe while we write.
    let mut sink = child.stdin.take().ok_or(format!("{name}: no stdin"))?;
    let text = stdin.to_string();
    let writer = std::thread::spawn(move || sink.write_all(text.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("{name}: {e}"))?;
    let _ = writer.join();
    let elapsed = t.elapsed().as_secs_f64() * 1000.0;
    if !out.status.success() {
        return Err(format!("{name} exited with {}", out.status));
    }
    Ok((elapsed, String::from_utf8_lossy(&out.stdout).into_owned()))
}

/// FNV-1a of the text: a cache key (not for security, only to find a result again).
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `run` on `input`, through the cache when there is one (`ms` on the first line, then output).
fn cached(
    cache: Option<&Path>,
    tool: &str,
    input: &str,
    run: impl FnOnce() -> Result<(f64, String), String>,
) -> Result<(f64, String), String> {
    let file = cache.map(|d| d.join(format!("{tool}-{:016x}.txt", fnv(input))));
    if let Some(f) = &file
        && let Ok(text) = std::fs::read_to_string(f)
        && let Some((first, rest)) = text.split_once('\n')
        && let Ok(ms) = first.parse::<f64>()
    {
        return Ok((ms, rest.to_string()));
    }
    let (ms, out) = run()?;
    if let Some(f) = &file {
        let _ = std::fs::create_dir_all(f.parent().unwrap_or(Path::new(".")));
        let _ = std::fs::write(f, format!("{ms}\n{out}"));
    }
    Ok((ms, out))
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/elk-layout.mjs")
}

/// Whether `node` runs and finds elkjs; the reason when not.
fn elk_present(dir: Option<&Path>) -> Result<(), String> {
    let mut cmd = std::process::Command::new("node");
    cmd.arg("-e").arg(
        "require(require('module').createRequire(process.env.ELKJS_DIR ? process.env.ELKJS_DIR + '/x.js' : process.cwd() + '/x.js').resolve('elkjs/lib/elk.bundled.js'))",
    );
    if let Some(d) = dir {
        cmd.env("ELKJS_DIR", d);
    }
    match cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
    {
        Ok(s) if s.success() => Ok(()),
        Ok(_) => Err("elkjs not found (scripts/bench installs it under target/elk)".into()),
        Err(e) => Err(format!("node: {e}")),
    }
}

/// Every folder under `dir` (itself included) holding `.tf` files, sorted.
fn roots(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut has_tf = false;
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "tf") {
                has_tf = true;
            }
        }
        if has_tf {
            out.push(d);
        }
    }
    out.sort();
    out
}

pub fn run(args: &Args) -> ExitCode {
    let wasm = match &args.wasm {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(t) => Some((p.display().to_string(), t)),
            Err(e) => {
                eprintln!("Error: {}: {e}", p.display());
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    let mut realworld: Vec<(String, Input)> = Vec::new();
    if let Some(dir) = &args.realworld {
        for root in roots(dir) {
            let name = root
                .strip_prefix(dir)
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            let name = format!(
                "{}{}",
                dir.file_name().unwrap_or_default().to_string_lossy(),
                if name.is_empty() {
                    String::new()
                } else {
                    format!("/{name}")
                }
            );
            let folder = FolderInputs {
                dir: root.clone(),
                ..Default::default()
            };
            match folder.build() {
                Ok(out) => realworld.push((name, input_from_plan(out.built.graph.dag(), false).0)),
                Err(e) => eprintln!("bench: {name} skipped: {}", e.messages().join("; ")),
            }
        }
    }
    let cache = args.cache.clone();
    let elk_dir = args
        .elkjs
        .clone()
        .or_else(|| std::env::var_os("ELKJS_DIR").map(PathBuf::from));
    let origin = Instant::now();
    let mut now = move || origin.elapsed().as_secs_f64() * 1000.0;
    let c1 = cache.clone();
    let mut dot = move |input: &Input| {
        let text = input_to_dot(input, Direction::TopToBottom);
        cached(c1.as_deref(), "dot", &text, || {
            pipe(std::process::Command::new("dot").arg("-Tplain"), &text)
        })
    };
    let c2 = cache.clone();
    let d2 = elk_dir.clone();
    let mut elk = move |input: &Input| {
        let text = input_to_elk(input, Direction::TopToBottom);
        let (_, out) = cached(c2.as_deref(), "elk", &text, || {
            let mut cmd = std::process::Command::new("node");
            cmd.arg(script());
            if let Some(d) = &d2 {
                cmd.env("ELKJS_DIR", d);
            }
            pipe(&mut cmd, &text)
        })?;
        // The script times ELK's layout call itself (Node's start-up is not ELK's time).
        let ms = serde_json::from_str::<serde_json::Value>(&out)
            .ok()
            .and_then(|v| v.get("ms")?.as_f64())
            .unwrap_or(f64::NAN);
        Ok((ms, out))
    };
    let mut sizes = if args.quick {
        Sizes::quick()
    } else {
        Sizes::full()
    };
    sizes.only = args.only.clone();
    if args.no_pipeline {
        sizes.pipeline.clear();
    }
    if args.no_layout {
        sizes.layout = None;
    }
    let use_elk = !args.no_elk
        && match elk_present(elk_dir.as_deref()) {
            Ok(()) => true,
            Err(why) => {
                println!("(ELK skipped: {why})\n");
                false
            }
        };
    let use_dot = !args.no_dot
        && match std::process::Command::new("dot")
            .arg("-V")
            .stderr(std::process::Stdio::null())
            .status()
        {
            Ok(s) if s.success() => true,
            _ => {
                println!("(Graphviz dot skipped: `dot` not found; Debian package graphviz)\n");
                false
            }
        };
    let host = Host {
        now: &mut now,
        dot: if use_dot { Some(&mut dot) } else { None },
        elk: if use_elk { Some(&mut elk) } else { None },
        wasm,
        realworld,
    };
    match report(&sizes, host, &mut std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {e}");
            ExitCode::FAILURE
        }
    }
}
