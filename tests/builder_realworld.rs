//! Every folder of the real-world repositories that holds `.tf` files builds plan and validate
//! graphs without diagnostics and without cycles.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tfgraph::builder::model::load_config;
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

fn collect(dir: &Path, rel: &str, files: &mut BTreeMap<String, String>, folders: &mut Vec<String>) {
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
            collect(&p, &r, files, folders);
        } else if name.ends_with(".tf") {
            has_tf = true;
            if let Ok(t) = std::fs::read_to_string(&p) {
                files.insert(r, t);
            }
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
        let mut files = BTreeMap::new();
        let mut folders = Vec::new();
        collect(repo, "", &mut files, &mut folders);
        for folder in folders {
            let config = load_config(&files, &folder)
                .unwrap_or_else(|e| panic!("{}/{folder}: {e:?}", repo.display()));
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
