//! `tfgraph graph`: one of OpenTofu's graphs, printed as `tofu graph` prints it or in another
//! format.

use crate::inputs::InputArgs;
use clap::ValueEnum;
use std::process::ExitCode;
use tfgraph::dag::render::dot::DotOpts;

/// Build one of OpenTofu's graphs and print it (DOT by default, as `tofu graph`).
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    inputs: InputArgs,
    /// Colour the edges of cycles red.
    #[arg(long)]
    draw_cycles: bool,
    /// Deepest module level to draw (-1: all).
    #[arg(long, default_value_t = -1, allow_negative_numbers = true)]
    module_depth: i64,
    /// Output format.
    #[arg(long, value_enum, default_value = "dot")]
    format: Format,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Dot,
    Text,
    Json,
    Mermaid,
}

pub fn run(args: &Args) -> ExitCode {
    let out = match args.inputs.build() {
        Ok(o) => o,
        Err(code) => return code,
    };
    let g = out.built.graph.dag();
    let text = match args.format {
        Format::Dot => g.dot(&DotOpts {
            verbose: false,
            draw_cycles: args.draw_cycles,
            max_depth: args.module_depth,
        }),
        Format::Text => out.built.graph.string(),
        Format::Json => g.json_graph().to_json(),
        Format::Mermaid => g.mermaid(),
    };
    print!("{text}");
    if !text.ends_with('\n') {
        println!();
    }
    ExitCode::SUCCESS
}
