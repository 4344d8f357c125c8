//! The conformance runner: reads the case folders mined from OpenTofu's own tests
//! (`../shared/conformance`, see its README) and checks our output against theirs.
//!
//! Layout of a corpus: `graph/<case>/case.json` (builder cases), `dag/<case>.json` (DAG algorithm
//! cases) and `dot/<case>.json` (DOT rendering cases). Each runner returns one [`Outcome`] per case.

use std::fmt;
use std::path::{Path, PathBuf};

pub mod dag;
pub mod dot;
pub mod graph;

/// The result of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    /// The first difference between what OpenTofu expects and what we produced.
    Fail(String),
    /// Why the case cannot be run (a reviewer must accept the reason).
    Skip(String),
}

/// One case's name and outcome.
#[derive(Debug, Clone)]
pub struct CaseResult {
    pub name: String,
    pub path: PathBuf,
    pub outcome: Outcome,
}

impl fmt::Display for CaseResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Outcome::Pass => write!(f, "PASS {}", self.name),
            Outcome::Fail(why) => write!(f, "FAIL {}: {}", self.name, why),
            Outcome::Skip(why) => write!(f, "SKIP {}: {}", self.name, why),
        }
    }
}

/// Totals over a run, printed as the runner's last line.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Summary {
    pub fn of(results: &[CaseResult]) -> Self {
        let mut s = Summary::default();
        for r in results {
            match r.outcome {
                Outcome::Pass => s.passed += 1,
                Outcome::Fail(_) => s.failed += 1,
                Outcome::Skip(_) => s.skipped += 1,
            }
        }
        s
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )
    }
}

/// Runs every case found under `dir`. `dir` may be a corpus root (holding `graph/`, `dag/`, `dot/`),
/// one of those folders, or a single case (a `graph/<case>` folder or a `dag`/`dot` JSON file).
/// Cases come back sorted by kind, then name, so output is deterministic.
pub fn run_path(dir: &Path) -> Result<Vec<CaseResult>, String> {
    let mut out = Vec::new();
    if dir.is_file() {
        let kind = dir
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str());
        match kind {
            Some("dag") => out.push(run_one(dir, dag::run_case)),
            Some("dot") => out.push(run_one(dir, dot::run_case)),
            _ => return Err(format!("{}: not a dag/ or dot/ case file", dir.display())),
        }
        return Ok(out);
    }
    if dir.join("case.json").is_file() {
        out.push(run_one(dir, graph::run_case));
        return Ok(out);
    }
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let kinds: Vec<(PathBuf, &str)> = match name {
        "graph" | "dag" | "dot" => vec![(dir.to_path_buf(), name)],
        _ => ["graph", "dag", "dot"]
            .into_iter()
            .map(|k| (dir.join(k), k))
            .filter(|(p, _)| p.is_dir())
            .collect(),
    };
    if kinds.is_empty() {
        return Err(format!(
            "{}: no graph/, dag/ or dot/ cases found",
            dir.display()
        ));
    }
    for (folder, kind) in kinds {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&folder)
            .map_err(|e| format!("{}: {e}", folder.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            match kind {
                "graph" if p.join("case.json").is_file() => out.push(run_one(&p, graph::run_case)),
                "dag" if p.extension().is_some_and(|e| e == "json") => {
                    out.push(run_one(&p, dag::run_case))
                }
                "dot" if p.extension().is_some_and(|e| e == "json") => {
                    out.push(run_one(&p, dot::run_case))
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

fn run_one(path: &Path, f: fn(&Path) -> Outcome) -> CaseResult {
    let name = path
        .file_stem()
        .and_then(|n| n.to_str())
        .unwrap_or("?")
        .to_string();
    CaseResult {
        name,
        path: path.to_path_buf(),
        outcome: f(path),
    }
}

/// Reads and parses a JSON file, with the file named in the error.
pub(crate) fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}
