//! What the integration tests share: where the corpora are, the folders of a tree that hold
//! `.tf` files, and a runner for the `tfgraph` binary.
//!
//! A missing corpus fails the test that wanted it, naming every place looked in: CI always has
//! `../shared` beside the clone, so a test that quietly passed without its corpus would check
//! nothing.

// Each test crate compiles this module and uses only part of it.
#![allow(dead_code)]

pub mod workdir;

use std::path::{Path, PathBuf};
use tfgraph::config::{self, Config, Diagnostic, Severity};

/// A fresh, empty folder for one test: `<temp>/tfgraph-tests/<process>/<name>`. Each test process
/// writes under a folder of its own, and the first call in a process removes the folders of
/// earlier test processes that are no longer running, so runs do not pile up in the temporary
/// directory (folders named by process and test, never removed, had grown to 5,600 and 1.2 GB).
pub fn scratch(name: &str) -> PathBuf {
    let d = scratch_root().join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

/// This test process's folder under `<temp>/tfgraph-tests` (see [`scratch`]), made on first use.
pub fn scratch_root() -> PathBuf {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    let all = std::env::temp_dir().join("tfgraph-tests");
    SWEPT.call_once(|| {
        for entry in std::fs::read_dir(&all).into_iter().flatten().flatten() {
            let pid = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok());
            if pid.is_some_and(|p| p != std::process::id() && !running(p)) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    });
    let d = all.join(std::process::id().to_string());
    std::fs::create_dir_all(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
    d
}

/// Whether process `pid` is running. Known on Linux (`/proc`); elsewhere every process is taken
/// to be running, so nothing of another's is removed.
fn running(pid: u32) -> bool {
    !cfg!(target_os = "linux") || Path::new("/proc").join(pid.to_string()).exists()
}

/// The conformance corpus (`dag/`, `dot/`, `graph/`, mined from OpenTofu v1.12.6's tests).
pub fn conformance() -> PathBuf {
    corpus("conformance", "TFGRAPH_CONFORMANCE")
}

/// The real-world module repositories.
pub fn realworld() -> PathBuf {
    corpus("realworld", "TFGRAPH_REALWORLD")
}

/// `$var` if it is set (and then it must exist), else `<crate>/../shared/<name>`: found relative
/// to the repository, never at a path of one machine (a git worktree elsewhere sets the variable
/// or has `shared` beside it).
fn corpus(name: &str, var: &str) -> PathBuf {
    if let Some(p) = std::env::var_os(var) {
        let p = PathBuf::from(p);
        assert!(
            p.is_dir(),
            "{var} is set to {}, which is not a folder",
            p.display()
        );
        return p;
    }
    let tried = [Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(name)];
    if let Some(p) = tried.iter().find(|p| p.is_dir()) {
        return p.clone();
    }
    let tried: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    panic!(
        "the {name} corpus is not at {} and {var} is not set",
        tried.join(" nor at ")
    );
}

/// Every folder under `root` (itself included, hidden folders excluded) that holds a `.tf`
/// file, each before its subfolders, in name order. Panics if a folder cannot be read or none
/// holds a `.tf` file: the tests use this on the corpora, where either means nothing is checked.
pub fn tf_folders(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect_tf_folders(root, &mut out);
    assert!(
        !out.is_empty(),
        "no folder under {} holds a .tf file",
        root.display()
    );
    out
}

fn collect_tf_folders(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            e.unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .path()
        })
        .collect();
    entries.sort();
    if entries
        .iter()
        .any(|p| p.is_file() && p.extension().is_some_and(|e| e == "tf"))
    {
        out.push(dir.to_path_buf());
    }
    for p in entries {
        let hidden = p
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if p.is_dir() && !hidden {
            collect_tf_folders(&p, out);
        }
    }
}

/// `dir` loaded by the crate's loader, with the diagnostics that are not errors. Panics, listing
/// them, on error diagnostics, and when no configuration comes back.
pub fn load_dir(dir: &Path) -> (Config, Vec<Diagnostic>) {
    let (cfg, diags) = config::load_dir(dir);
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.to_string())
        .collect();
    assert!(
        errors.is_empty(),
        "{}: {}",
        dir.display(),
        errors.join("\n")
    );
    let cfg = cfg.unwrap_or_else(|| panic!("{}: no configuration", dir.display()));
    (cfg, diags)
}

/// Runs the `tfgraph` binary with `args`: (exit code, or -1 if killed by a signal; stdout;
/// stderr).
pub fn tfgraph(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tfgraph"))
        .args(args)
        .output()
        .expect("run tfgraph");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`tfgraph`] with extra environment variables (and every `TF_VAR_` of this process removed, so
/// the tests do not depend on the shell they run in).
pub fn tfgraph_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_tfgraph"));
    for (k, _) in std::env::vars() {
        if k.starts_with("TF_VAR_") {
            cmd.env_remove(k);
        }
    }
    let out = cmd
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("run tfgraph");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
