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
    /// Mark each resource vertex and instance with its planned action as `tofu plan` does
    /// (`+`, `~`, `-/+`, `+/-`, `-`, `<=`): in DOT its label, `class` and `color`; in JSON an
    /// `action` field; in Mermaid its label and class. Needs `--plan` or `--changes`.
    #[arg(long)]
    actions: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Dot,
    Text,
    Json,
    Mermaid,
}

pub fn run(args: &Args) -> ExitCode {
    // Only the JSON graph gives each edge's why, and no format gives the build steps.
    let record = tfgraph::builder::Record {
        steps: false,
        whys: matches!(args.format, Format::Json),
    };
    // No format shows a resource's arguments, only the edges their references make.
    let bodies = tfgraph::config::Bodies::ReferencesOnly;
    let out = match args.inputs.build_recording(record, bodies) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let g = out.built.graph.dag();
    // The planned changes to mark vertices with, when asked for.
    let changes = match (args.actions, &out.changes) {
        (false, _) => None,
        (true, Some(c)) => Some(c),
        (true, None) => {
            eprintln!(
                "Error: --actions needs planned changes: give a plan (--plan, as `tofu show -json` prints it) or a changes list (--changes)."
            );
            return ExitCode::FAILURE;
        }
    };
    if args.actions && matches!(args.format, Format::Text) {
        eprintln!("Error: --actions is for the dot, json and mermaid formats.");
        return ExitCode::FAILURE;
    }
    let opts = DotOpts {
        verbose: args.verbose,
        draw_cycles: args.draw_cycles,
        max_depth: args.module_depth,
    };
    use std::io::Write;
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let written = match args.format {
        // Written as it is made: at 10,000 resources the text is 28 MB of strings otherwise.
        // `tofu graph` prints the DOT text with Println, so it ends in an empty line.
        Format::Dot => match changes {
            Some(c) => tfgraph::actions::write_dot(g, &opts, c, &mut stdout),
            None => g.write_dot(&opts, &mut stdout),
        }
        .and_then(|()| stdout.write_all(b"\n")),
        Format::Text => write_text(&mut stdout, out.built.graph.string()),
        Format::Json => {
            // Each edge with why it exists (builder::why).
            let mut j = out.built.graph.json_graph();
            j.not_installed = tfgraph::pipeline::not_installed_json(&out.config);
            if let Some(c) = changes {
                tfgraph::actions::annotate_json(&mut j, g, c);
            }
            // Written as it is made; the text ends with its last line.
            j.write_json(&mut stdout)
                .and_then(|()| stdout.write_all(b"\n"))
        }
        Format::Mermaid => write_text(
            &mut stdout,
            match changes {
                Some(c) => {
                    tfgraph::page::graph::mermaid_with_actions(g, &tfgraph::actions::marks(g, c))
                }
                None => tfgraph::page::graph::mermaid(g),
            },
        ),
    };
    // A closed pipe (`| head`) just ends the output.
    let code = match written.and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("Error: {e}");
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    };
    // The process ends here: freeing the configuration and graph piece by piece took a tenth of
    // the run at 10,000 resources, and the operating system takes the memory back at once.
    std::mem::forget((stdout, out));
    code
}

/// A format made as one text: it ends with its last line (a line end is added if missing).
fn write_text(out: &mut impl std::io::Write, mut text: String) -> std::io::Result<()> {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let written = out.write_all(text.as_bytes());
    std::mem::forget(text);
    written
}
