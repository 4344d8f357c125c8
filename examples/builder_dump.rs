//! Prints the plan graph of a folder of .tf files: `cargo run --example builder_dump -- DIR [SUBDIR]`.
use std::collections::BTreeMap;
fn collect(dir: &std::path::Path, rel: &str, files: &mut BTreeMap<String, String>) {
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
    let mut files = BTreeMap::new();
    collect(std::path::Path::new(&args[1]), "", &mut files);
    let sub = args.get(2).cloned().unwrap_or_default();
    let config = tfgraph::builder::model::load_config(&files, &sub).expect("loads");
    let inputs = tfgraph::builder::Inputs {
        config: Some(config),
        ..Default::default()
    };
    let t = std::time::Instant::now();
    let b = tfgraph::builder::build(&inputs, tfgraph::builder::BuilderKind::Plan);
    eprintln!(
        "built in {:?}; {} vertices; diags {:?}",
        t.elapsed(),
        b.graph.len(),
        b.diagnostics
    );
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
    print!("{}", b.graph.string());
}
