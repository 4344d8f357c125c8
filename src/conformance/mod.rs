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
mod strict;

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

/// The kind of a case, by the folder it lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Graph,
    Dag,
    Dot,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Graph => "graph",
            Kind::Dag => "dag",
            Kind::Dot => "dot",
        }
    }
}

/// One case found on disk, not yet run.
#[derive(Debug, Clone)]
pub struct Case {
    pub name: String,
    pub path: PathBuf,
    pub kind: Kind,
}

impl Case {
    fn new(path: &Path, kind: Kind) -> Self {
        let name = path
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        Case {
            name,
            path: path.to_path_buf(),
            kind,
        }
    }

    /// Runs the case.
    pub fn run(&self) -> CaseResult {
        let outcome = match self.kind {
            Kind::Graph => graph::run_case(&self.path),
            Kind::Dag => dag::run_case(&self.path),
            Kind::Dot => dot::run_case(&self.path),
        };
        CaseResult {
            name: self.name.clone(),
            path: self.path.clone(),
            outcome,
        }
    }
}

/// Finds every case under `dir`. `dir` may be a corpus root (holding `graph/`, `dag/`, `dot/`),
/// one of those folders, or a single case (a `graph/<case>` folder or a `dag`/`dot` JSON file).
/// Cases come back sorted by kind, then name, so output is deterministic.
pub fn cases(dir: &Path) -> Result<Vec<Case>, String> {
    let kind_of = |name: &str| match name {
        "graph" => Some(Kind::Graph),
        "dag" => Some(Kind::Dag),
        "dot" => Some(Kind::Dot),
        _ => None,
    };
    if dir.is_file() {
        let parent = dir
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str());
        return match parent.and_then(kind_of) {
            Some(k @ (Kind::Dag | Kind::Dot)) => Ok(vec![Case::new(dir, k)]),
            _ => Err(format!("{}: not a dag/ or dot/ case file", dir.display())),
        };
    }
    if dir.join("case.json").is_file() {
        return Ok(vec![Case::new(dir, Kind::Graph)]);
    }
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let folders: Vec<(PathBuf, Kind)> = match kind_of(name) {
        Some(k) => vec![(dir.to_path_buf(), k)],
        None => [Kind::Graph, Kind::Dag, Kind::Dot]
            .into_iter()
            .map(|k| (dir.join(k.as_str()), k))
            .filter(|(p, _)| p.is_dir())
            .collect(),
    };
    if folders.is_empty() {
        return Err(format!(
            "{}: no graph/, dag/ or dot/ cases found",
            dir.display()
        ));
    }
    let mut out = Vec::new();
    for (folder, kind) in folders {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&folder)
            .map_err(|e| format!("{}: {e}", folder.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            let is_case = match kind {
                Kind::Graph => p.join("case.json").is_file(),
                Kind::Dag | Kind::Dot => p.extension().is_some_and(|e| e == "json"),
            };
            if is_case {
                out.push(Case::new(&p, kind));
            }
        }
    }
    Ok(out)
}

/// Runs every case found under `dir` (see [`cases`]).
pub fn run_path(dir: &Path) -> Result<Vec<CaseResult>, String> {
    Ok(cases(dir)?.iter().map(Case::run).collect())
}

/// Reads and parses a JSON file, with the file named in the error.
pub(crate) fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}
