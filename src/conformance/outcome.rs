//! What running a case gives: its [`Outcome`], the printed PASS/FAIL/SKIP line and the run's
//! [`Summary`], and the JSON reader every runner uses. Shared by the runners (`graph`, `dag`,
//! `dot`) and the dispatch in `mod.rs`, and depends on neither.

use std::fmt;
use std::path::{Path, PathBuf};

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

/// Reads and parses a JSON file, with the file named in the error.
pub(crate) fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}
