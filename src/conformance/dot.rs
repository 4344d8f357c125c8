//! Runner for the `dot/` conformance cases.

use super::Outcome;
use std::path::Path;

/// Runs one `dot` case.
pub fn run_case(_path: &Path) -> Outcome {
    Outcome::Skip("not implemented yet".into())
}
