//! `tfgraph steps`: the graph builder's transforms in order, each with what it changed.

use crate::inputs::InputArgs;
use std::process::ExitCode;

/// Build a graph and print each transform with the vertices and edges it added or removed.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub inputs: InputArgs,
}

pub fn run(args: &Args) -> ExitCode {
    let out = match args.inputs.build() {
        Ok(o) => o,
        Err(code) => return code,
    };
    for (i, s) in out.built.steps.iter().enumerate() {
        println!(
            "{:>2}. {} (+{} -{} vertices, +{} -{} edges)",
            i + 1,
            s.name,
            s.added_vertices.len(),
            s.removed_vertices.len(),
            s.added_edges.len(),
            s.removed_edges.len()
        );
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
