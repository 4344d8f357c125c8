//! `tfgraph`, the native command-line tool: the same engine as the web app.
//!
//! One file per subcommand, each with its clap arguments and a `run` that reads the arguments,
//! calls the library and prints; `inputs.rs` is the argument group of every subcommand that
//! builds a graph from a folder. What is not argument parsing or printing lives in the library.

#[cfg(not(target_arch = "wasm32"))]
mod bench;
#[cfg(not(target_arch = "wasm32"))]
mod conformance;
#[cfg(not(target_arch = "wasm32"))]
mod explain;
#[cfg(not(target_arch = "wasm32"))]
mod r#gen;
#[cfg(not(target_arch = "wasm32"))]
mod graph;
#[cfg(not(target_arch = "wasm32"))]
mod inputs;
#[cfg(not(target_arch = "wasm32"))]
mod layout;
#[cfg(not(target_arch = "wasm32"))]
mod outline;
#[cfg(not(target_arch = "wasm32"))]
mod steps;
#[cfg(not(target_arch = "wasm32"))]
mod walk;
#[cfg(not(target_arch = "wasm32"))]
mod why;

#[cfg(not(target_arch = "wasm32"))]
#[derive(clap::Parser)]
#[command(
    name = "tfgraph",
    version,
    about = "See how Terraform/OpenTofu turn configuration into a dependency graph, and walk it"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[cfg(not(target_arch = "wasm32"))]
#[derive(clap::Subcommand)]
enum Command {
    Graph(graph::Args),
    Walk(walk::Args),
    Steps(steps::Args),
    Outline(outline::Args),
    Conformance(conformance::Args),
    Gen(r#gen::Args),
    Layout(layout::Args),
    Bench(bench::Args),
    Why(why::Args),
    Explain(explain::Args),
}

#[cfg(not(target_arch = "wasm32"))]
impl Command {
    /// The folder inputs of the subcommands that build a graph.
    fn inputs_mut(&mut self) -> Option<&mut inputs::InputArgs> {
        match self {
            Command::Graph(a) => Some(&mut a.inputs),
            Command::Walk(a) => Some(&mut a.inputs),
            Command::Steps(a) => Some(&mut a.inputs),
            Command::Layout(a) => Some(&mut a.inputs),
            Command::Why(a) => Some(&mut a.inputs),
            Command::Explain(a) => Some(&mut a.inputs),
            Command::Outline(_) | Command::Conformance(_) | Command::Gen(_) | Command::Bench(_) => {
                None
            }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use clap::{CommandFactory as _, FromArgMatches as _};
    let matches = Cli::command().get_matches();
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    // -var and -var-file take effect in command-line order, which clap's derive loses.
    if let (Some((_, sub)), Some(inputs)) = (matches.subcommand(), cli.command.inputs_mut()) {
        inputs.var_order = Some(inputs::var_args_in_order(sub));
    }
    match cli.command {
        Command::Graph(a) => graph::run(&a),
        Command::Walk(a) => walk::run(&a),
        Command::Steps(a) => steps::run(&a),
        Command::Outline(a) => outline::run(&a),
        Command::Conformance(a) => conformance::run(&a),
        Command::Gen(a) => r#gen::run(&a),
        Command::Layout(a) => layout::run(&a),
        Command::Bench(a) => bench::run(&a),
        Command::Why(a) => why::run(a),
        Command::Explain(a) => explain::run(a),
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
