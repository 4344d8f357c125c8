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
    pub inputs: InputArgs,
    /// Colour the edges of cycles red.
    #[arg(long)]
    draw_cycles: bool,
    /// Deepest module level to draw (-1: all). As in `tofu graph` (where it is deprecated),
    /// OpenTofu's graphs have no module subgraphs, so it changes nothing.
    #[arg(long, default_value_t = -1, allow_negative_numbers = true)]
    module_depth: i64,
    /// Also draw the vertices that draw themselves only in verbose graphs (provider closers), as
    /// `tofu graph`'s hidden -verbose flag does.
    #[arg(long)]
    verbose: bool,
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
            verbose: args.verbose,
            draw_cycles: args.draw_cycles,
            max_depth: args.module_depth,
        }),
        Format::Text => out.built.graph.string(),
        Format::Json => {
            // Each edge with why it exists (builder::why).
            let mut j = out.built.graph.json_graph();
            j.not_installed = tfgraph::pipeline::not_installed_json(&out.config);
            j.to_json()
        }
        Format::Mermaid => tfgraph::page::graph::mermaid(g),
    };
    // `tofu graph` prints the DOT text with Println, so it ends in an empty line; the other
    // formats end with their last line. A closed pipe (`| head`) just ends the output.
    let mut text = text;
    if matches!(args.format, Format::Dot) || !text.ends_with('\n') {
        text.push('\n');
    }
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("Error: {e}");
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    }
}
