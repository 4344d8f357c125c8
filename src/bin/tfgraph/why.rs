//! `tfgraph why`: the paths by which one vertex waits for another, each edge with the transform
//! that added it and the references that caused it (`builder::why`).

use crate::inputs::InputArgs;
use std::process::ExitCode;

/// Show why FROM waits for TO: every path of dependencies from FROM to TO in the graph (the
/// shortest first), each edge with the transform that added it and the references (file, line,
/// column, traversal) that caused it. Vertices are named as in `tfgraph graph --format text`;
/// an address alone (`aws_instance.web`) names its one vertex (`aws_instance.web (expand)`).
/// Exits non-zero when no path leads from FROM to TO.
#[derive(clap::Args)]
#[command(allow_missing_positional = true)]
pub struct Args {
    #[command(flatten)]
    pub inputs: InputArgs,
    /// The vertex that waits.
    #[arg(value_name = "FROM")]
    from: String,
    /// The vertex it waits for.
    #[arg(value_name = "TO")]
    to: String,
    /// At most this many paths.
    #[arg(long, default_value_t = 10)]
    limit: usize,
}

pub fn run(args: &Args) -> ExitCode {
    let out = match args.inputs.build() {
        Ok(o) => o,
        Err(code) => return code,
    };
    match tfgraph::builder::why::explain(&out.built.graph, &args.from, &args.to, args.limit) {
        Err(e) => {
            eprintln!("Error: {e}");
            ExitCode::FAILURE
        }
        Ok(x) if x.paths.is_empty() => {
            eprint!("Error: {}", x.text());
            ExitCode::FAILURE
        }
        Ok(x) => {
            print!("{}", x.text());
            ExitCode::SUCCESS
        }
    }
}
