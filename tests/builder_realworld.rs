//! Every folder of the real-world repositories that holds `.tf` files builds plan graphs without
//! diagnostics and without cycles (bodies read in full), and at the repository roots plan and
//! validate graphs build the way OpenTofu reads them without schemas.

use std::path::{Path, PathBuf};
use tfgraph::builder::{BuilderKind, Inputs, build};

fn realworld_dir() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("TFGRAPH_REALWORLD") {
        return Some(PathBuf::from(p));
    }
    let local = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realworld");
    if local.is_dir() {
        return Some(local);
    }
    let shared = PathBuf::from("/work/shared/realworld");
    shared.is_dir().then_some(shared)
}

fn collect(dir: &Path, rel: &str, folders: &mut Vec<String>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    let mut has_tf = false;
    for p in entries {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let r = if rel.is_empty() {
            name.clone()
        } else {
            format!("{rel}/{name}")
        };
        if p.is_dir() && !name.starts_with('.') {
            collect(&p, &r, folders);
        } else if name.ends_with(".tf") {
            has_tf = true;
        }
    }
    if has_tf {
        folders.push(rel.to_string());
    }
}

#[test]
fn realworld_plan_and_validate_graphs_build() {
    let Some(dir) = realworld_dir() else { return };
    let mut repos: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    repos.sort();
    let mut built_count = 0;
    for repo in repos.iter().filter(|p| p.is_dir()) {
        let mut folders = Vec::new();
        collect(repo, "", &mut folders);
        for folder in folders {
            // The product path: the crate's loader, with bodies read in full; the graph must be
            // valid and its DOT must parse.
            let (cfg, diags) = tfgraph::config::load_dir(&repo.join(&folder));
            assert!(
                !tfgraph::config::has_errors(&diags),
                "{}/{folder}: {diags:?}",
                repo.display()
            );
            let config = cfg.expect("config");
            let permissive = Inputs {
                config: Some(config.clone()),
                read_bodies_without_schema: true,
                ..Default::default()
            };
            let b = build(&permissive, BuilderKind::Plan);
            assert!(
                b.diagnostics.is_empty(),
                "{}/{folder} permissive: {:?}",
                repo.display(),
                b.diagnostics
            );
            let dot = tfgraph::dag::render::dot::render(
                b.graph.dag(),
                &tfgraph::dag::DotOpts::everything(),
            );
            assert!(
                graphviz_rust::parse(&dot).is_ok(),
                "{}/{folder}: DOT does not parse",
                repo.display()
            );
            built_count += 1;

            // Strict (no body reading without schemas, as OpenTofu), at repo roots.
            if !folder.is_empty() {
                continue;
            }
            let inputs = Inputs {
                config: Some(config),
                ..Default::default()
            };
            for kind in [BuilderKind::Plan, BuilderKind::Validate] {
                let b = build(&inputs, kind);
                assert!(
                    b.diagnostics.is_empty(),
                    "{}/{folder} {kind:?}: {:?}",
                    repo.display(),
                    b.diagnostics
                );
                assert!(
                    b.graph.len() > 1,
                    "{}/{folder}: empty graph",
                    repo.display()
                );
                built_count += 1;
            }
        }
    }
    println!("built {built_count} graphs");
}
