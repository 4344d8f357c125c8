//! Runner for the `graph/` conformance cases.

use super::Outcome;
use std::path::Path;

/// Runs one `graph` case.
pub fn run_case(_path: &Path) -> Outcome {
    Outcome::Skip("not implemented yet".into())
}
