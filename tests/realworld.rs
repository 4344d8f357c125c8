//! Every folder of the real-world module repositories that holds `.tf` files loads as a root
//! module without errors; local module sources resolve; registry/git sources give warnings only;
//! every reference resolves to a declared object.

use std::path::{Path, PathBuf};
use tfgraph::config::{self, Config, Severity};

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

fn tf_folders(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    if entries
        .iter()
        .any(|p| p.is_file() && p.extension().is_some_and(|e| e == "tf"))
    {
        out.push(dir.to_path_buf());
    }
    for p in entries {
        if p.is_dir()
            && !p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            tf_folders(&p, out);
        }
    }
}

fn load(folder: &Path) -> Config {
    let (cfg, diags) = config::load_dir(folder);
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "{}: {}",
        folder.display(),
        errors.join("\n")
    );
    for d in &diags {
        assert!(
            d.summary == "Module not installed",
            "{}: unexpected warning {d}",
            folder.display()
        );
    }
    cfg.unwrap_or_else(|| panic!("{}: no configuration", folder.display()))
}

#[test]
fn realworld_folders_load() {
    let Some(root) = realworld_dir() else {
        eprintln!("no realworld folder; skipped");
        return;
    };
    let mut folders = Vec::new();
    tf_folders(&root, &mut folders);
    assert!(!folders.is_empty());
    let mut modules = 0;
    for f in &folders {
        let cfg = load(f);
        modules += cfg.all_modules().len();
    }
    eprintln!(
        "{} realworld folders loaded ({} modules)",
        folders.len(),
        modules
    );
}
