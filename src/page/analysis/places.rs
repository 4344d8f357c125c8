//! Where things are, as the editor names them: diagnostics, declarations, references, and the
//! editor's path of a file the pipeline named relative to the root module.

use crate::config::Diagnostic;
use std::collections::BTreeMap;

/// A diagnostic as the app lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Diag {
    pub error: bool,
    /// `main.tf line 2, column 7`, when the diagnostic has a position.
    pub place: Option<String>,
    pub file: Option<String>,
    pub line: usize,
    pub summary: String,
    pub detail: String,
}

impl Diag {
    /// A warning about the inputs as a whole (no position).
    pub fn warning(summary: String) -> Diag {
        Diag {
            error: false,
            place: None,
            file: None,
            line: 0,
            summary,
            detail: String::new(),
        }
    }
}

impl From<&Diagnostic> for Diag {
    fn from(d: &Diagnostic) -> Self {
        Diag {
            error: d.is_error(),
            place: d.range.as_ref().map(|r| {
                format!(
                    "{} line {}, column {}",
                    r.file, r.start.line, r.start.column
                )
            }),
            file: d.range.as_ref().map(|r| r.file.to_string()),
            line: d.range.as_ref().map_or(0, |r| r.start.line),
            summary: d.summary.clone(),
            detail: d.detail.clone(),
        }
    }
}

/// Where a vertex is declared.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Decl {
    pub file: String,
    pub line: usize,
    pub end_line: usize,
}

/// Where a reference is written, with the file as the editor names it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RefLink {
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// The traversal (`data.aws_ami.ubuntu.id`).
    pub text: String,
}

/// The editor's path of a file the pipeline named relative to the root module folder `root`
/// (`../../main.tf` from `examples/complete` is `main.tf`); names that are not such a file (a
/// state's, given as the editor names it) stay as they are.
pub(super) fn editor_path(files: &BTreeMap<String, String>, root: &str, name: &str) -> String {
    if root.is_empty() {
        return name.to_string();
    }
    let joined = crate::config::file_names::normalize_path(&format!("{root}/{name}"));
    if files.contains_key(&joined) {
        joined
    } else {
        name.to_string()
    }
}

impl Diag {
    /// A diagnostic of a run at root module `root`, with the file as the editor names it.
    pub(super) fn at_root(d: &Diagnostic, files: &BTreeMap<String, String>, root: &str) -> Diag {
        let mut d = d.clone();
        if let Some(r) = &mut d.range {
            r.file = editor_path(files, root, &r.file).into();
        }
        Diag::from(&d)
    }
}
