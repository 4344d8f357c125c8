//! `tfgraph layout`: our layered layout (`tfgraph::layout`) of a built graph or a DOT file.

use crate::inputs::InputArgs;
use clap::ValueEnum;
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Instant;
use tfgraph::layout::inputs::{input_from_dot, input_from_plan};
use tfgraph::layout::{self, Direction, LayoutOptions};

/// Lay out the graph of a configuration folder (as `graph` builds it) or of a DOT file;
/// print positions and routed edges (json) or a drawing (svg). A summary line goes to
/// stderr.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub inputs: InputArgs,
    #[arg(long, value_enum, default_value = "json")]
    format: Format,
    #[arg(long, value_enum, default_value = "tb")]
    direction: LayoutDirection,
    /// Keep the `root` vertex (left out by default: every vertex without dependents leads
    /// into it, which draws as a fan of long edges and nothing else).
    #[arg(long)]
    with_root: bool,
    /// The width / height a graph of several unconnected parts is packed towards (each part is
    /// laid out alone and the drawings put in rows); 0 lays them side by side in one strip.
    #[arg(long, default_value_t = layout::DEFAULT_ASPECT)]
    aspect: f64,
    /// Wrap layers far wider than the aspect ratio allows (vertices move down), as the web app
    /// does: for wide, shallow graphs.
    #[arg(long)]
    wrap: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Json,
    Svg,
}

#[derive(Clone, Copy, ValueEnum)]
enum LayoutDirection {
    /// Top to bottom.
    Tb,
    /// Left to right.
    Lr,
}

pub fn run(args: &Args) -> ExitCode {
    let path = &args.inputs.dir;
    let (input, labels) = if path.is_file() {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("Error: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        };
        match input_from_dot(&text) {
            Ok(i) => (i, BTreeMap::new()),
            Err(e) => {
                eprintln!("Error: {}: not a DOT graph: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
    } else {
        match args.inputs.build() {
            Ok(out) => input_from_plan(out.built.graph.dag(), args.with_root),
            Err(code) => return code,
        }
    };
    let opts = LayoutOptions {
        direction: match args.direction {
            LayoutDirection::Tb => Direction::TopToBottom,
            LayoutDirection::Lr => Direction::LeftToRight,
        },
        aspect: Some(args.aspect).filter(|a| a.is_finite() && *a > 0.0),
        wrap: args.wrap,
        ..Default::default()
    };
    let start = Instant::now();
    let l = layout::layout(&input, &opts);
    let elapsed = start.elapsed();
    let text = match args.format {
        Format::Json => match serde_json::to_string_pretty(&l) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("Error: {e}");
                return ExitCode::FAILURE;
            }
        },
        Format::Svg => layout::svg::render(&l, |n| {
            labels.get(&n.id).cloned().unwrap_or_else(|| n.name.clone())
        }),
    };
    println!("{}", text.trim_end());
    let m = l.metrics();
    eprintln!(
        "layout: {} vertices, {} edges, {} clusters, {} crossings, total edge length {:.0}, bounding box {:.0} x {:.0}, {:.1} ms",
        l.nodes.len(),
        l.edges.len(),
        l.clusters.len(),
        m.crossings,
        m.total_edge_length,
        m.width,
        m.height,
        elapsed.as_secs_f64() * 1000.0
    );
    ExitCode::SUCCESS
}
