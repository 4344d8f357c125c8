//! `tfgraph explain`: one vertex inside out, its kind, what it depends on and why, its
//! evaluation steps in the graph's operation and its known values (`inside::report`).

use crate::inputs::InputArgs;
use std::process::ExitCode;

/// Explain one vertex: its kind (the OpenTofu type that runs it), what it depends on and what
/// depends on it with why each edge exists, the evaluation steps it runs in the walk of the graph
/// (--type: plan, plan-destroy, plan-refresh-only, validate or apply), and its values where the
/// configuration and the variable values decide them ("(known after apply)" with the reference
/// that is not known elsewhere). ADDR is a vertex name as in `tfgraph graph --format text`, or
/// the address of its one vertex (`aws_instance.web` for `aws_instance.web (expand)`).
#[derive(clap::Args)]
#[command(override_usage = "tfgraph explain [OPTIONS] [DIR] <ADDR>")]
pub struct Args {
    #[command(flatten)]
    pub inputs: InputArgs,
    /// The vertex to explain (after DIR when it is given).
    #[arg(value_name = "ADDR")]
    addr: Option<String>,
}

pub fn run(mut args: Args) -> ExitCode {
    // Clap fills the optional DIR before the required name: with one word, it was ADDR and the
    // folder is the current one.
    let addr = match args.addr.take() {
        Some(a) => a,
        None if args.inputs.dir == std::path::Path::new(".") => {
            eprintln!("Error: give the vertex to explain: [DIR] ADDR");
            return ExitCode::FAILURE;
        }
        None => {
            let a = args.inputs.dir.to_string_lossy().into_owned();
            args.inputs.dir = ".".into();
            a
        }
    };
    let out = match args.inputs.build() {
        Ok(o) => o,
        Err(code) => return code,
    };
    let inputs = tfgraph::inside::values::Inputs {
        config: &out.config,
        vars: &out.vars,
        sources: &out.var_sources,
    };
    match tfgraph::inside::report::explain(&out.built.graph, out.kind, inputs, &addr) {
        Ok(r) => {
            print!("{}", r.text());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("Error: {e}");
            ExitCode::FAILURE
        }
    }
}
