//! What the scanner, the parsers and the public functions share: ranges, errors, the bound.

/// A byte range in the scanned text, `[start, end)`.
pub type Range = (usize, usize);

/// How deeply expressions, blocks and templates may nest before the checker gives up (HCL has no
/// limit). hcl-edit stops at the same depth, so a file the checker gives up on is reported with
/// hcl-edit's own error; the bound keeps the recursion within half of wasm32's 1 MiB stack even
/// unoptimised (tested).
pub const MAX_DEPTH: usize = 64;

/// One error as HCL words it, with its subject's byte range in the checked text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub summary: String,
    pub detail: String,
    pub range: Range,
}

impl SyntaxError {
    pub(super) fn new(summary: &str, detail: &str, range: Range) -> Self {
        SyntaxError {
            summary: summary.to_string(),
            detail: detail.to_string(),
            range,
        }
    }
}
