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
    // The steps name the edges each transform changed; why each edge exists is not printed.
    let record = tfgraph::builder::Record {
        steps: true,
        whys: false,
    };
    let bodies = tfgraph::config::Bodies::ReferencesOnly;
    let out = match args.inputs.build_recording(record, bodies) {
        Ok(o) => o,
        Err(code) => return code,
    };
    // One buffered writer: `println!` flushes every line, which at 10,000 resources is tens of
    // thousands of writes. A closed pipe (`| head`) just ends the output.
    use std::io::Write;
    let mut w = std::io::BufWriter::new(std::io::stdout().lock());
    let mut write = || -> std::io::Result<()> {
        for (i, s) in out.built.steps.iter().enumerate() {
            writeln!(
                w,
                "{:>2}. {} (+{} -{} vertices, +{} -{} edges)",
                i + 1,
                s.name,
                s.added_vertices.len(),
                s.removed_vertices.len(),
                s.added_edges.len(),
                s.removed_edges.len()
            )?;
            for v in &s.added_vertices {
                writeln!(w, "    + {v}")?;
            }
            for v in &s.removed_vertices {
                writeln!(w, "    - {v}")?;
            }
            for (a, b) in &s.added_edges {
                writeln!(w, "    + {a} -> {b}")?;
            }
            for (a, b) in &s.removed_edges {
                writeln!(w, "    - {a} -> {b}")?;
            }
        }
        w.flush()
    };
    let code = match write() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("Error: {e}");
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    };
    // The process ends here: the operating system takes the memory back at once, faster than
    // freeing the configuration and graph piece by piece.
    std::mem::forget(out);
    code
}
