//! `tfgraph bench`: the benchmark tables of `tfgraph::bench::report` with this machine's clock
//! and Graphviz `dot`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use tfgraph::bench::{Host, Sizes, report};
use tfgraph::layout::inputs::input_to_dot;
use tfgraph::layout::{Direction, Input};

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
    let origin = Instant::now();
    let mut now = move || origin.elapsed().as_secs_f64() * 1000.0;
    let mut dot = run_dot;
    let sizes = if args.quick {
        Sizes::quick()
    } else {
        Sizes::full()
    };
    let host = Host {
        now: &mut now,
        dot: if args.no_dot { None } else { Some(&mut dot) },
        wasm,
    };
    match report(&sizes, host, &mut std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {e}");
            ExitCode::FAILURE
        }
    }
}
