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
#[command(override_usage = "tfgraph why [OPTIONS] [DIR] <FROM> <TO>")]
pub struct Args {
    #[command(flatten)]
    pub inputs: InputArgs,
    /// FROM, the vertex that waits, and TO, the vertex it waits for (after DIR when it is
    /// given).
    #[arg(value_name = "FROM TO", num_args = 1..=2)]
    names: Vec<String>,
    /// At most this many paths.
    #[arg(long, default_value_t = 10)]
    limit: usize,
}

pub fn run(mut args: Args) -> ExitCode {
    // Clap fills the optional DIR before the required names: with two words in all, the first
    // was FROM and the folder is the current one.
    let (from, to) = match args.names.as_slice() {
        [from, to] => (from.clone(), to.clone()),
        [to] => {
            let from = args.inputs.dir.to_string_lossy().into_owned();
            args.inputs.dir = ".".into();
            (from, to.clone())
        }
        _ => {
            eprintln!("Error: give the vertex that waits and the one it waits for: [DIR] FROM TO");
            return ExitCode::FAILURE;
        }
    };
    // Why an edge exists names the references behind it, never other arguments.
    let bodies = tfgraph::config::Bodies::ReferencesOnly;
    let out = match args
        .inputs
        .build_recording(tfgraph::builder::Record::ALL, bodies)
    {
        Ok(o) => o,
        Err(code) => return code,
    };
    match tfgraph::builder::why_paths::explain(&out.built.graph, &from, &to, args.limit) {
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
