//! Diagnostics with source positions, worded like OpenTofu's where it has a wording.
//!
//! Display format (chosen to match how HCL prints a range in Go, `file:line,col`):
//! `main.tf:3,5: Summary: detail` — or `Summary: detail` without a range, and `Summary` alone when
//! the detail is empty. Warnings get a `Warning: ` prefix so the two can be told apart in a list.

use std::fmt;
use std::sync::Arc;

/// Error or warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
}

/// A position in a source file: 1-based line and column (column counted in characters), and the
/// 0-based byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
    pub byte: usize,
}

/// A range in one file (`file` is the path relative to the root module folder).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SourceRange {
    pub file: String,
    pub start: Pos,
    pub end: Pos,
}

impl fmt::Display for SourceRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{},{}", self.file, self.start.line, self.start.column)
    }
}

/// One problem found while reading input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub summary: String,
    pub detail: String,
    pub range: Option<SourceRange>,
}

impl Diagnostic {
    pub fn error(
        summary: impl Into<String>,
        detail: impl Into<String>,
        range: Option<SourceRange>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Error,
            summary: summary.into(),
            detail: detail.into(),
            range,
        }
    }
    pub fn warning(
        summary: impl Into<String>,
        detail: impl Into<String>,
        range: Option<SourceRange>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            summary: summary.into(),
            detail: detail.into(),
            range,
        }
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.severity == Severity::Warning {
            f.write_str("Warning: ")?;
        }
        if let Some(r) = &self.range {
            write!(f, "{r}: ")?;
        }
        f.write_str(&self.summary)?;
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        Ok(())
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

/// A loaded source file: its name and where its lines start, to turn byte spans (as hcl-edit
/// records them) into line/column positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: &str, text: &str) -> Arc<SourceFile> {
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        Arc::new(SourceFile {
            name: name.to_string(),
            text: text.to_string(),
            line_starts,
        })
    }

    /// The position of a byte offset (clamped to the text).
    pub fn pos(&self, byte: usize) -> Pos {
        let byte = byte.min(self.text.len());
        let line_idx = match self.line_starts.binary_search(&byte) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(line_idx).copied().unwrap_or(0);
        let column = self
            .text
            .get(start..byte)
            .map(|s| s.chars().count())
            .unwrap_or(byte - start)
            + 1;
        Pos {
            line: line_idx + 1,
            column,
            byte,
        }
    }

    /// The range of a byte span.
    pub fn range(&self, span: std::ops::Range<usize>) -> SourceRange {
        SourceRange {
            file: self.name.clone(),
            start: self.pos(span.start),
            end: self.pos(span.end),
        }
    }

    /// The range of a span when there is one, else the start of the file.
    pub fn range_opt(&self, span: Option<std::ops::Range<usize>>) -> SourceRange {
        self.range(span.unwrap_or(0..0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_display() {
        let f = SourceFile::new("main.tf", "a = 1\n  bé = 2\n");
        let p = f.pos(11);
        assert_eq!((p.line, p.column), (2, 5));
        let d = Diagnostic::error("Summary", "detail", Some(f.range(8..9)));
        assert_eq!(d.to_string(), "main.tf:2,3: Summary: detail");
        let w = Diagnostic::warning("Careful", "", None);
        assert_eq!(w.to_string(), "Warning: Careful");
    }
}
