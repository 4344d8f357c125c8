//! Prints a graph of a folder of .tf files, read with the crate's loader:
//! `cargo run --example builder_dump -- DIR [plan|plan-destroy|validate|apply] [--all-bodies]`.
use tfgraph::builder::{BuilderKind, build_from_files};

fn collect(
    dir: &std::path::Path,
    rel: &str,
    files: &mut std::collections::BTreeMap<String, String>,
) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        let r = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if p.is_dir() && !name.starts_with('.') {
            collect(&p, &r, files);
        } else if name.ends_with(".tf")
            && let Ok(t) = std::fs::read_to_string(&p)
        {
            files.insert(r, t);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(dir) = args.get(1) else {
        eprintln!("usage: builder_dump DIR [KIND] [--all-bodies]");
        std::process::exit(2);
    };
    let kind = args
        .get(2)
        .and_then(|k| BuilderKind::parse(k))
        .unwrap_or(BuilderKind::Plan);
    let all_bodies = args.iter().any(|a| a == "--all-bodies");
    let mut files = std::collections::BTreeMap::new();
    collect(std::path::Path::new(dir), "", &mut files);
    let (built, diags) = build_from_files(&files, kind, all_bodies);
    for d in &diags {
        eprintln!("{d}");
    }
    let Some(b) = built else {
        std::process::exit(1)
    };
    for s in &b.steps {
        eprintln!(
            "{}: +{}v -{}v +{}e -{}e",
            s.name,
            s.added_vertices.len(),
            s.removed_vertices.len(),
            s.added_edges.len(),
            s.removed_edges.len()
        );
    }
    for d in &b.diagnostics {
        eprintln!("error: {d}");
    }
    print!("{}", b.graph.string());
}
