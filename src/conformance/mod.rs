//! The conformance runner: reads the case folders mined from OpenTofu's own tests
//! (`../shared/conformance`, see its README) and checks our output against theirs.
//!
//! Layout of a corpus: `graph/<case>/case.json` (builder cases), `dag/<case>.json` (DAG algorithm
//! cases) and `dot/<case>.json` (DOT rendering cases). Each runner returns one [`Outcome`] per case.

use std::path::{Path, PathBuf};

pub mod case_graph;
pub mod dag;
pub mod dot;
pub mod graph;
mod outcome;
mod strict;
pub mod walker;

pub(crate) use outcome::read_json;
pub use outcome::{CaseResult, Outcome, Summary};

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
