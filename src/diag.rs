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
    /// Shared with the file's [`SourceFile::name`]: every range in a configuration names its
    /// file, and most vertices and references hold one or two.
    pub file: Arc<str>,
    pub start: Pos,
    pub end: Pos,
}

impl fmt::Display for SourceRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{},{}", self.file, self.start.line, self.start.column)
    }
}

/// A range kept as a span of its file and worked out into lines and columns only when asked
/// ([`LazyRange::get`]). A reference carries one: the walks find ~50,000 of them at 10,000
/// resources and few ranges are ever read (a diagnostic, a why), while working each out (its
/// line, its column in characters, its file's name copied) was a fifth of a walk's instructions.
/// It compares and prints (`{}`, `{:?}`) as the [`SourceRange`] it stands for.
#[derive(Clone)]
pub enum LazyRange {
    /// The bytes `start..end` (span space) of `file`, as [`SourceFile::range`] reads them.
    Span {
        file: Arc<SourceFile>,
        start: usize,
        end: usize,
    },
    /// A range already worked out.
    Known(Box<SourceRange>),
}

impl LazyRange {
    /// The range of `start..end` in `file`, worked out when asked.
    pub fn span(file: &Arc<SourceFile>, start: usize, end: usize) -> Self {
        LazyRange::Span {
            file: file.clone(),
            start,
            end,
        }
    }

    /// The range it stands for.
    pub fn get(&self) -> SourceRange {
        match self {
            LazyRange::Span { file, start, end } => file.range(*start..*end),
            LazyRange::Known(r) => (**r).clone(),
        }
    }
}

impl From<SourceRange> for LazyRange {
    fn from(r: SourceRange) -> Self {
        LazyRange::Known(Box::new(r))
    }
}

impl PartialEq for LazyRange {
    fn eq(&self, other: &Self) -> bool {
        // The same span of the same file is the same range; anything else is compared as the
        // ranges worked out (two spans may clamp to one range).
        if let (
            LazyRange::Span { file, start, end },
            LazyRange::Span {
                file: f2,
                start: s2,
                end: e2,
            },
        ) = (self, other)
            && Arc::ptr_eq(file, f2)
            && (start, end) == (s2, e2)
        {
            return true;
        }
        self.get() == other.get()
    }
}

impl Eq for LazyRange {}

impl fmt::Debug for LazyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

impl fmt::Display for LazyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.get(), f)
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

/// Where a serde_json error is, as a range in a file with no name yet (the caller that knows the
/// file's name fills `file` in); `None` when serde_json gives no position.
pub fn json_error_range(text: &str, e: &serde_json::Error) -> Option<SourceRange> {
    if e.line() == 0 {
        return None;
    }
    let line_start: usize = text
        .split_inclusive('\n')
        .take(e.line() - 1)
        .map(str::len)
        .sum();
    // serde_json counts columns in bytes, 1-based (0 when the error is at a line's start).
    let byte = (line_start + e.column().saturating_sub(1)).min(text.len());
    let file = SourceFile::new("", text);
    Some(file.range(byte..byte))
}

/// Where a problem found in a parsed JSON document is in its text: the JSON string values
/// `needles` are looked for one after the other (each after the previous), and the last one found
/// is the range (in a file with no name yet, like [`json_error_range`]). serde_json's `Value`
/// keeps no positions, so this searches the text; `None` when a needle is not there.
pub fn json_value_range(text: &str, needles: &[&str]) -> Option<SourceRange> {
    let mut from = 0;
    let mut at = None;
    for n in needles {
        let quoted = serde_json::to_string(n).ok()?;
        let i = from + text.get(from..)?.find(&quoted)?;
        at = Some(i..i + quoted.len());
        from = i + quoted.len();
    }
    let span = at?;
    Some(SourceFile::new("", text).range(span))
}

/// serde_json's message without the ` at line L column C` it appends (the range carries that).
pub fn json_error_message(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    match msg.rfind(" at line ") {
        Some(i) if e.line() > 0 => msg[..i].to_string(),
        _ => msg,
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

/// A loaded source file: its name and where its lines start, to turn byte spans (as hcl-edit
/// records them) into line/column positions.
///
/// Override files are parsed with their text shifted by `offset` bytes (leading spaces), so that
/// their spans never overlap those of the primary files; a body merged from a primary and an
/// override file then carries a composite `SourceFile` whose `parts` map each span back to the
/// file it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    pub name: Arc<str>,
    pub text: String,
    /// Where this file's text starts in the span space it was parsed in (0 for ordinary files).
    pub offset: usize,
    /// For a composite (merged) body: the files it is made of, by increasing `offset`.
    pub parts: Vec<Arc<SourceFile>>,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: &str, text: &str) -> Arc<SourceFile> {
        SourceFile::with_offset(name, text, 0)
    }

    /// A file whose spans are shifted by `offset` bytes (see [`SourceFile::padded_text`]).
    pub fn with_offset(name: &str, text: &str, offset: usize) -> Arc<SourceFile> {
        // The newlines found by memchr's vectorised search rather than byte by byte: every file
        // of a configuration is indexed twice (syntax check and load).
        let line_starts: Vec<usize> = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
            .collect();
        Arc::new(SourceFile {
            name: name.into(),
            text: text.to_string(),
            offset,
            parts: Vec::new(),
            line_starts,
        })
    }

    /// A composite of files with disjoint span spaces (flattening nested composites).
    pub fn composite(parts: &[Arc<SourceFile>]) -> Arc<SourceFile> {
        let mut flat: Vec<Arc<SourceFile>> = Vec::new();
        for p in parts {
            if p.parts.is_empty() {
                flat.push(p.clone());
            } else {
                flat.extend(p.parts.iter().cloned());
            }
        }
        flat.sort_by_key(|p| p.offset);
        flat.dedup_by(|a, b| Arc::ptr_eq(a, b) || (a.name == b.name && a.offset == b.offset));
        if flat.len() == 1 {
            return flat[0].clone();
        }
        let name = flat.first().map(|f| f.name.clone()).unwrap_or_default();
        Arc::new(SourceFile {
            name,
            text: String::new(),
            offset: 0,
            parts: flat,
            line_starts: vec![0],
        })
    }

    /// The text to parse so that spans come out shifted by `offset`.
    pub fn padded_text(&self) -> std::borrow::Cow<'_, str> {
        if self.offset == 0 {
            std::borrow::Cow::Borrowed(&self.text)
        } else {
            std::borrow::Cow::Owned(format!("{}{}", " ".repeat(self.offset), self.text))
        }
    }

    /// The file a span-space byte offset belongs to.
    fn part_for(&self, byte: usize) -> &SourceFile {
        if self.parts.is_empty() {
            return self;
        }
        self.parts
            .iter()
            .rev()
            .find(|p| p.offset <= byte)
            .or(self.parts.first())
            .map(|p| p.as_ref())
            .unwrap_or(self)
    }

    /// The position of a span-space byte offset (clamped to the text).
    pub fn pos(&self, byte: usize) -> Pos {
        let f = self.part_for(byte);
        let byte = byte.saturating_sub(f.offset).min(f.text.len());
        let line_idx = match f.line_starts.binary_search(&byte) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = f.line_starts.get(line_idx).copied().unwrap_or(0);
        let column = f
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

    /// The range of a span.
    pub fn range(&self, span: std::ops::Range<usize>) -> SourceRange {
        let f = self.part_for(span.start);
        let start = self.pos(span.start);
        let end = span.end.max(span.start);
        // An end on the start's line (most spans: a name, a traversal) is counted on from the
        // start instead of searched for again; the same position [`SourceFile::pos`] gives.
        let same_line = std::ptr::eq(f, self.part_for(end))
            .then(|| end.saturating_sub(f.offset).min(f.text.len()))
            .filter(|_| f.text.is_char_boundary(start.byte))
            .and_then(|e| Some((e, f.text.get(start.byte..e)?)))
            .filter(|(_, between)| !between.contains('\n'));
        let end = match same_line {
            Some((byte, between)) => Pos {
                line: start.line,
                column: start.column + between.chars().count(),
                byte,
            },
            None => self.pos(end),
        };
        SourceRange {
            file: f.name.clone(),
            start,
            end,
        }
    }

    /// The range of a span when there is one, else the start of the file.
    pub fn range_opt(&self, span: Option<std::ops::Range<usize>>) -> SourceRange {
        let first = self.parts.first().map(|p| p.offset).unwrap_or(self.offset);
        self.range(span.unwrap_or(first..first))
    }

    /// The source text of a span.
    pub fn slice(&self, span: std::ops::Range<usize>) -> Option<&str> {
        let f = self.part_for(span.start);
        f.text
            .get(span.start.checked_sub(f.offset)?..span.end.checked_sub(f.offset)?)
    }

    /// The text from a span-space offset to the end of its file.
    pub fn rest_from(&self, byte: usize) -> &str {
        let f = self.part_for(byte);
        byte.checked_sub(f.offset)
            .and_then(|b| f.text.get(b..))
            .unwrap_or("")
    }
}

/// Go `hcl.Range.String()`: `file:line,col-col` or `file:line,col-line,col`.
pub fn go_range(r: &SourceRange) -> String {
    if r.start.line == r.end.line {
        format!(
            "{}:{},{}-{}",
            r.file, r.start.line, r.start.column, r.end.column
        )
    } else {
        format!(
            "{}:{},{}-{},{}",
            r.file, r.start.line, r.start.column, r.end.line, r.end.column
        )
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
        let o = SourceFile::with_offset("override.tf", "x = 1\ny = 2\n", 100);
        assert_eq!(o.range(106..107).to_string(), "override.tf:2,1");
        let c = SourceFile::composite(&[f.clone(), o.clone()]);
        assert_eq!(c.range(106..107).to_string(), "override.tf:2,1");
        assert_eq!(c.range(8..9).to_string(), "main.tf:2,3");
        assert_eq!(c.slice(106..111), Some("y = 2"));
        assert_eq!(w.to_string(), "Warning: Careful");
    }

    #[test]
    fn a_lazy_range_is_the_range_it_stands_for() {
        let f = SourceFile::new("main.tf", "a = 1\n  bé = 2\n");
        let lazy = LazyRange::span(&f, 8, 11);
        let known = f.range(8..11);
        assert_eq!(lazy.get(), known);
        assert_eq!(lazy.to_string(), known.to_string());
        assert_eq!(format!("{lazy:?}"), format!("{known:?}"));
        // Equal to the same range however it is held; not to another one.
        assert_eq!(lazy, LazyRange::from(known.clone()));
        assert_eq!(lazy, LazyRange::span(&f, 8, 11));
        assert_ne!(lazy, LazyRange::span(&f, 8, 10));
        // Spans past the end clamp to one range, as `SourceFile::range` reads them.
        let end = f.text.len();
        assert_eq!(
            LazyRange::span(&f, end, end + 5).get(),
            LazyRange::span(&f, end, end + 9).get()
        );
        assert_eq!(
            LazyRange::span(&f, end, end + 5),
            LazyRange::span(&f, end, end + 9)
        );
    }

    #[test]
    fn a_range_ends_where_pos_puts_its_end() {
        // `range` counts an end on the start's line on from the start: the same as `pos`, for
        // every span (inside characters and past the end too), in a file and a composite.
        let f = SourceFile::new("main.tf", "a = 1\n  bé = \"ü\"\n\nc=2");
        let o = SourceFile::with_offset("o.tf", "x = é\ny", 40);
        let c = SourceFile::composite(&[f.clone(), o.clone()]);
        for file in [&f, &o, &c] {
            for a in 0..60 {
                for b in 0..60 {
                    let r = file.range(a..b);
                    assert_eq!(r.start, file.pos(a), "{a}..{b}");
                    assert_eq!(r.end, file.pos(b.max(a)), "{a}..{b}");
                }
            }
        }
    }
}
