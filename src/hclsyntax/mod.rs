//! HCL's native-syntax errors as HCL reports them: a hand-written scanner and recursive-descent
//! parser that follow hclsyntax (`scan_tokens.rl`, `token.go`, `parser.go`,
//! `parser_template.go`, HCL v2.20.1, the version OpenTofu v1.12.6 builds with) token for token,
//! build no syntax tree and keep only the diagnostics: their summaries, details and subject
//! ranges, in the order `hclsyntax.ParseConfig` returns them (the scanner's first, then the
//! parser's, with its recovery and the errors recovery suppresses).
//!
//! The configuration itself is read by hcl-edit (`config`); this module reads each file first,
//! in one pass, so that a file with syntax errors is reported in HCL's words and places and
//! hcl-edit, whose parser backtracks exponentially on some malformed input, never reads it
//! (`config::decode::refused`). It depends on nothing in the crate but `diag` (ranges in
//! details) and `didyoumean`, and bounds its own nesting: past [`MAX_DEPTH`] levels it gives up
//! rather than recurse without limit.

mod parser;
mod scan;
mod template;
mod types;

use crate::diag::{SourceFile, go_range};
pub use types::{MAX_DEPTH, Range, SyntaxError};

/// hclsyntax `ValidIdentifier`: `s` is exactly one identifier token.
pub fn valid_identifier(s: &str) -> bool {
    !s.is_empty() && scan::ident_len(s) == s.len()
}

/// Every error `hclsyntax.ParseConfig` gives for `text`, in its order; `None` when the checker
/// gave up (nesting beyond [`MAX_DEPTH`]). `filename` names the file in details that cite a
/// range (`… for the if started at main.tf:2,8-20.`).
pub fn check_config(text: &str, filename: &str) -> Option<Vec<SyntaxError>> {
    let toks = scan::scan(text);
    let mut errors = scan::check_invalid_tokens(text, &toks);
    let file = SourceFile::new(filename, text);
    let fmt_range = |r: Range| go_range(&file.range(r.0..r.1));
    let mut p = parser::Parser::new(toks, text, &fmt_range);
    let body = p.parse_body(scan::Tok::Eof);
    if p.gave_up() {
        return None;
    }
    errors.extend(body);
    Some(errors)
}

/// Whether HCL's parser reads `text` (a configuration body) without a syntax error, within the
/// nesting the checker follows.
pub fn well_formed(text: &str) -> bool {
    check_config(text, "").is_some_and(|e| e.is_empty())
}

/// Past this many brackets (`(`, `[`, `{`) an expression is read by HCL's parser before hcl-edit
/// is asked: on some malformed text with many open brackets hcl-edit's parser backtracks
/// exponentially (`config::decode::refused`). Below it hcl-edit is fast whatever the text, and
/// an address has only a bracket or two per step.
pub const BRACKETS_BEFORE_CHECK: usize = 16;

/// The error HCL's parser gives for the expression `expr` (an address or a `-var` value) when it
/// has more than [`BRACKETS_BEFORE_CHECK`] brackets, read as an argument's value; `None` when it
/// has fewer, when HCL reads it, or when the checker gave up. Callers give this error and leave
/// hcl-edit out; on `None` they ask hcl-edit.
pub fn bracketed_expression_error(expr: &str) -> Option<SyntaxError> {
    if expr.matches(['(', '[', '{']).count() <= BRACKETS_BEFORE_CHECK {
        return None;
    }
    first_error(&format!("x = {}\n", expr.trim()), "")
}

/// The errors in the order OpenTofu prints them: its views sort diagnostics by subject
/// (`tfdiags.Diagnostics.Sort`: start byte, then end byte, otherwise in the order given).
/// `None` when the checker gave up.
pub fn sorted_errors(text: &str, filename: &str) -> Option<Vec<SyntaxError>> {
    let mut errors = check_config(text, filename)?;
    errors.sort_by_key(|e| e.range);
    Some(errors)
}

/// The error OpenTofu shows first for `text`; `None` when HCL finds no error or the checker
/// gave up.
pub fn first_error(text: &str, filename: &str) -> Option<SyntaxError> {
    sorted_errors(text, filename)?.into_iter().next()
}

#[cfg(test)]
mod tests;
