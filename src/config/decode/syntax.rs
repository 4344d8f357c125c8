//! Syntax errors as HCL's native-syntax parser words and places them: `crate::hclsyntax` (HCL's
//! scanner and parser, followed token for token) when it finds the error, otherwise hcl-edit's
//! parse error restated in HCL's words by the heuristics below.

use crate::diag::{Diagnostic, SourceFile, go_range};
use crate::strconv::go_quote;

/// The byte offset of a `"` left open on this line (escapes and `${ }` / `%{ }` sequences
/// respected), if any.
pub(super) fn unclosed_quote(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut open: Option<usize> = None;
    let mut depth = 0usize; // template sequences inside the open string
    let mut i = 0;
    while i < b.len() {
        match (open, b[i]) {
            (None, b'#') => break,
            (None, b'/') if b.get(i + 1) == Some(&b'/') => break,
            (None, b'"') => open = Some(i),
            (Some(_), b'\\') if depth == 0 => i += 1,
            (Some(_), b'$' | b'%') if b.get(i + 1) == Some(&b'{') => {
                depth += 1;
                i += 1;
            }
            (Some(_), b'}') if depth > 0 => depth -= 1,
            (Some(_), b'"') if depth == 0 => open = None,
            _ => {}
        }
        i += 1;
    }
    open
}

/// The byte offset of the innermost `{` still open at the end of `text`: where HCL reports a
/// block left unclosed (hclsyntax `ParseBody` meets EOF and reports "Unclosed configuration
/// block" at the body's start, its opening brace). Strings (with their `${ }` / `%{ }`
/// sequences), comments and heredocs are skipped; `None` when every brace is closed.
pub(super) fn innermost_open_brace(text: &str) -> Option<usize> {
    enum Frame {
        Brace(usize),
        Str,
        Seq,
    }
    let b = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let in_str = matches!(stack.last(), Some(Frame::Str));
        let c = b[i];
        if in_str {
            match c {
                b'\\' => i += 1,
                b'$' | b'%' if b.get(i + 1) == Some(&b'{') => {
                    stack.push(Frame::Seq);
                    i += 1;
                }
                b'"' => {
                    stack.pop();
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => stack.push(Frame::Str),
            b'{' => stack.push(Frame::Brace(i)),
            b'}' => {
                stack.pop();
            }
            b'#' => i += text[i..].find('\n').unwrap_or(b.len() - i),
            b'/' if b.get(i + 1) == Some(&b'/') => i += text[i..].find('\n').unwrap_or(b.len() - i),
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += text[i + 2..].find("*/").map_or(b.len() - i, |e| e + 3)
            }
            b'<' if b.get(i + 1) == Some(&b'<') => {
                // A heredoc: `<<EOT` or `<<-EOT`, up to the line that is only the marker.
                let rest = &text[i + 2..];
                let rest = rest.strip_prefix('-').unwrap_or(rest);
                let marker: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
                    .collect();
                if !marker.is_empty()
                    && let Some(nl) = text[i..].find('\n')
                {
                    let body_start = i + nl + 1;
                    let mut at = body_start;
                    i = b.len();
                    for line in text[body_start..].split_inclusive('\n') {
                        at += line.len();
                        if line.trim() == marker {
                            i = at - 1;
                            break;
                        }
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    stack.iter().rev().find_map(|f| match f {
        Frame::Brace(at) => Some(*at),
        _ => None,
    })
}

/// The syntax errors HCL's parser finds in `file`, in the order OpenTofu prints them (empty if
/// none, or if the checker gave up). Also asked of files hcl-edit reads, since HCL refuses some
/// that hcl-edit takes (a quoted string over several lines).
pub(crate) fn hcl_syntax_errors(file: &SourceFile) -> Vec<Diagnostic> {
    diagnostics(
        file,
        kept_syntax_errors(&file.text, &file.name).unwrap_or_default(),
    )
}

/// HCL's syntax errors in `file` as diagnostics with the file's ranges.
fn diagnostics(file: &SourceFile, errors: Vec<crate::hclsyntax::SyntaxError>) -> Vec<Diagnostic> {
    errors
        .into_iter()
        .map(|e| {
            let (start, end) = e.range;
            Diagnostic::error(
                e.summary,
                e.detail,
                Some(file.range(file.offset + start..file.offset + end)),
            )
        })
        .collect()
}

/// Asked before hcl-edit reads a file: HCL's own syntax errors when HCL's parser finds any, and
/// then hcl-edit is not asked at all (they are what the file is reported with either way: see
/// [`parse_errors`] and the callers' check after a successful parse). On some malformed input
/// hcl-edit's parser backtracks exponentially (202 bytes of object constructors left open after
/// operators took 18 s natively; found by the `var_files` fuzzer), while HCL's parser, which
/// `crate::hclsyntax` follows, reads in one pass. A file nested deeper than that checker follows
/// ([`crate::hclsyntax::MAX_DEPTH`]) is still left to hcl-edit, which stops at the same depth
/// and says where (its position is the one reported today).
pub(crate) fn refused(file: &SourceFile) -> Option<Vec<Diagnostic>> {
    match kept_syntax_errors(&file.text, &file.name) {
        Some(errors) if !errors.is_empty() => Some(diagnostics(file, errors)),
        _ => None,
    }
}

/// hcl-edit's parse of the expression `s` (a `-var` value the user typed). With many brackets
/// it is asked only when HCL's parser reads `s` without an error (see [`refused`] for why).
pub(crate) fn parse_expr_checked(s: &str) -> Option<hcl::edit::expr::Expression> {
    if crate::hclsyntax::bracketed_expression_error(s).is_some() {
        return None;
    }
    hcl::edit::parser::parse_expr(s).ok()
}

/// Maps an hcl-edit parse error to a diagnostic. HCL's Go parser has many specific summaries;
/// we recognise the common one and otherwise report a generic syntax error.
pub(crate) fn parse_errors(file: &SourceFile, e: &hcl::edit::parser::Error) -> Vec<Diagnostic> {
    // HCL's own parser, followed token for token, gives the words and the positions, in the
    // order OpenTofu prints them. hcl-edit's error is the fallback for what it does not report:
    // nesting beyond its bound, or what hcl-edit refuses and HCL accepts.
    let hcl = hcl_syntax_errors(file);
    if hcl.is_empty() {
        vec![parse_error(file, e)]
    } else {
        hcl
    }
}

/// hcl-edit's parse error restated in HCL's words, where HCL's parser gave none.
fn parse_error(file: &SourceFile, e: &hcl::edit::parser::Error) -> Diagnostic {
    let loc = e.location();
    // hcl-edit's offset is in the (possibly padded) text that was parsed, like our spans.
    let range = file.range(loc.offset()..loc.offset());
    let msg = e.message();
    let rest = file.rest_from(loc.offset());
    let at_eof = rest.trim().is_empty();
    let next = rest.trim_start_matches([' ', '\t']).chars().next();
    // hcl-edit reports a quoted string left open somewhere on its line (often at the start of
    // the argument); HCL reports it where the string breaks: at the line's end (a newline inside
    // quotes: the scanner's TokenQuotedNewline, checked in hclsyntax `checkInvalidTokens`), or,
    // when the file ends inside the string, at the end of the file (the template parser meets
    // the EOF token where it wanted the closing quote: `parseTemplateParts`,
    // parser_template.go, Subject `next.Range`).
    let here = loc.offset().saturating_sub(file.offset);
    let line_start = file
        .text
        .get(..here)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |i| i + 1);
    let rest_of_line = file.text.get(line_start..).unwrap_or("");
    let line_rest = rest_of_line.split('\n').next().unwrap_or("");
    if !msg.contains("heredoc") && unclosed_quote(line_rest).is_some() {
        let start = file.offset + line_start;
        return if rest_of_line.len() > line_rest.len() {
            let at = start + line_rest.trim_end_matches('\r').len();
            Diagnostic::error(
                "Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
                Some(file.range(at..at)),
            )
        } else {
            let end = file.offset + file.text.len();
            Diagnostic::error(
                "Unterminated template string",
                "No closing marker was found for the string.",
                Some(file.range(end..end)),
            )
        };
    }
    // A heredoc without its closing marker: HCL's template parser meets the end of the file
    // where it wanted the marker, and reports it there.
    if msg.contains("heredoc end delimiter") {
        let end = file.offset + file.text.len();
        return Diagnostic::error(
            "Unterminated template string",
            "No closing marker was found for the string.",
            Some(file.range(end..end)),
        );
    }
    // hcl-edit refuses a repeated argument while parsing; HCL's wording names the first one.
    if msg.contains("redefined attribute") {
        let key: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        let here = loc.offset().saturating_sub(file.offset);
        let before = file.text.get(..here).unwrap_or("");
        let mut starts = vec![0];
        starts.extend(before.match_indices('\n').map(|(i, _)| i + 1));
        let prev = starts.iter().rev().find_map(|&st| {
            let line = before.get(st..)?.split('\n').next()?;
            let indent = line.len() - line.trim_start().len();
            let after = line.trim_start().strip_prefix(key.as_str())?.trim_start();
            (!key.is_empty() && after.starts_with('=') && !after.starts_with("=="))
                .then_some(file.offset + st + indent)
        });
        if let Some(p) = prev {
            return Diagnostic::error(
                "Attribute redefined",
                format!(
                    "The argument {} was already set at {}. Each argument may be set only once.",
                    go_quote(&key),
                    go_range(&file.range(p..p + key.len()))
                ),
                Some(range),
            );
        }
    }
    let (summary, detail): (&str, String) = if msg.starts_with("invalid block body") {
        if at_eof {
            let at = innermost_open_brace(&file.text).map_or(range, |b| {
                let b = file.offset + b;
                file.range(b..b + 1)
            });
            return Diagnostic::error(
                "Unclosed configuration block",
                "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                Some(at),
            );
        } else if next.is_some_and(|c| c.is_alphabetic() || c == '_') {
            // A block opened on this line holds a one-line body (`b { x = 1 y = 2 }`): HCL's
            // `finishParsingBodyBlock` (parser.go) parses it with `parseSingleAttrBody` and then
            // wants the closing brace; otherwise the argument simply lacks its newline
            // (`finishParsingBodyAttribute`).
            let line_before = file.text.get(line_start..here).unwrap_or("");
            if innermost_open_brace(line_before).is_some() {
                (
                    "Invalid single-argument block definition",
                    "A single-line block definition must end with a closing brace immediately after its single argument definition.".into(),
                )
            } else {
                (
                    "Missing newline after argument",
                    "An argument definition must end with a newline.".into(),
                )
            }
        } else {
            (
                "Argument or block definition required",
                "An argument or block definition is required here.".into(),
            )
        }
    } else if msg.starts_with("expected newline or eof") || msg.starts_with("invalid body") {
        (
            "Argument or block definition required",
            "An argument or block definition is required here.".into(),
        )
    } else if msg == "expected `]`" {
        // An unclosed list: HCL's tuple parser wanted a comma before the next item.
        (
            "Missing item separator",
            "Expected a comma to mark the beginning of the next item.".into(),
        )
    } else if msg.starts_with("invalid expression") {
        (
            "Invalid expression",
            "Expected the start of an expression, but found an invalid expression token.".into(),
        )
    } else if msg == "unexpected token" && e.line().matches('"').count() % 2 == 1 {
        (
            "Unterminated template string",
            "No closing marker was found for the string.".into(),
        )
    } else if msg == "unexpected token" && !next.is_some_and(|c| c.is_alphabetic() || c == '_') {
        (
            "Argument or block definition required",
            "An argument or block definition is required here.".into(),
        )
    } else {
        ("Invalid syntax", msg.to_string())
    };
    // A body item that starts with a quote: HCL's `ParseBody` (parser.go) reads the opening quote
    // as the bad token and words it as a quoted argument name.
    let line_before = file.text.get(line_start..here).unwrap_or("");
    if summary == "Argument or block definition required"
        && next == Some('"')
        && line_before.trim().is_empty()
    {
        return Diagnostic::error(
            "Invalid argument name",
            "Argument names must not be quoted.",
            Some(range),
        );
    }
    Diagnostic::error(summary, detail, Some(range))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    fn load(text: &str) -> Vec<String> {
        let files = BTreeMap::from([("main.tf".to_string(), text.to_string())]);
        let (_, diags) = crate::config::load_files(&files);
        diags.iter().map(|d| d.to_string()).collect()
    }

    #[test]
    fn every_syntax_error_is_reported_in_the_order_opentofu_prints_them() {
        // hcl-edit reads this file; HCL refuses it twice over (the scanner's broken string, then
        // the template parser's), both at the newline.
        assert_eq!(
            load("locals {\n  x = \"a\n  b\"\n}\n"),
            [
                "main.tf:2,9: Invalid multi-line string: Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
                "main.tf:2,9: Unterminated template string: No closing marker was found for the string.",
            ]
        );
        // The scanner's error comes before the parser's in HCL's list, but OpenTofu sorts by
        // position: the unclosed interpolation (2,8) before the broken string (2,20).
        let d = load("locals {\n  x = \"a ${local.y\"\n}\n");
        assert!(
            d[0].starts_with("main.tf:2,8: Unclosed template interpolation sequence"),
            "{d:?}"
        );
        assert!(
            d[1].starts_with("main.tf:2,20: Invalid multi-line string"),
            "{d:?}"
        );
    }

    #[test]
    fn an_unclosed_block_in_the_middle_is_placed_at_its_brace() {
        let d = load("variable \"a\" {\n  default = 1\n\nresource \"x\" \"y\" {\n}\n");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].starts_with("main.tf:1,14: Unclosed configuration block: "),
            "{d:?}"
        );
    }
}

/// Whether [`super::decode_file`] keeps the syntax trees of the texts it parsed, for the next call on
/// the same text (see [`keep_parses`]).
static KEEP_PARSES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes [`super::decode_file`] keep the syntax trees of recent texts. The page turns it on: an edit
/// loads every file again although one changed (at the generated 1,000 resources, 11 files of
/// which the edit touched one, hcl-edit's parse was ~15 ms of the ~80 ms analysis). The CLI
/// parses each file once and leaves it off, keeping its peak memory down. Results do not
/// change: a tree is reused only for exactly the same text.
pub fn keep_parses(on: bool) {
    KEEP_PARSES.store(on, std::sync::atomic::Ordering::Relaxed);
    if !on {
        KEPT.with(|c| c.borrow_mut().clear());
    }
}

/// Most texts kept, and most bytes of text: beyond either, the cache starts over.
const KEPT_TEXTS: usize = 512;
const KEPT_BYTES: usize = 8 << 20;

type SyntaxErrors = Option<Vec<crate::hclsyntax::SyntaxError>>;

/// What is kept of one text: hcl-edit's tree, and HCL's own syntax check under each file name
/// it was asked for (its messages and ranges name the file).
#[derive(Default)]
struct Kept {
    tree: Option<std::rc::Rc<hcl::edit::structure::Body>>,
    checks: Vec<(String, SyntaxErrors)>,
}

std::thread_local! {
    static KEPT: std::cell::RefCell<std::collections::HashMap<String, Kept>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Whether what is made of `text` is kept (see [`keep_parses`]).
fn keeping(text: &str) -> bool {
    KEEP_PARSES.load(std::sync::atomic::Ordering::Relaxed) && text.len() <= KEPT_BYTES
}

/// Runs `f` on what is kept of `text`, an empty entry if nothing is yet (making room first).
fn kept<R>(text: &str, f: impl FnOnce(&mut Kept) -> R) -> R {
    KEPT.with(|c| {
        let mut c = c.borrow_mut();
        if let Some(k) = c.get_mut(text) {
            return f(k);
        }
        let bytes: usize = c.keys().map(String::len).sum();
        if c.len() >= KEPT_TEXTS || bytes + text.len() > KEPT_BYTES {
            c.clear();
        }
        f(c.entry(text.to_string()).or_default())
    })
}

/// [`crate::hclsyntax::sorted_errors`], kept for the same file name and text when
/// [`keep_parses`] is on (it was ~6 ms of an edit's analysis at 1,000 resources).
pub(super) fn kept_syntax_errors(text: &str, name: &str) -> SyntaxErrors {
    if !keeping(text) {
        return crate::hclsyntax::sorted_errors(text, name);
    }
    let known = kept(text, |k| {
        k.checks
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, e)| e.clone())
    });
    if let Some(e) = known {
        return e;
    }
    let e = crate::hclsyntax::sorted_errors(text, name);
    kept(text, |k| k.checks.push((name.to_string(), e.clone())));
    e
}

/// hcl-edit's syntax tree of `text`, kept for the same text when [`keep_parses`] is on.
pub(super) fn parsed(
    text: &str,
) -> Result<std::rc::Rc<hcl::edit::structure::Body>, hcl::edit::parser::Error> {
    if !keeping(text) {
        return hcl::edit::parser::parse_body(text).map(std::rc::Rc::new);
    }
    if let Some(t) = kept(text, |k| k.tree.clone()) {
        return Ok(t);
    }
    let t = std::rc::Rc::new(hcl::edit::parser::parse_body(text)?);
    kept(text, |k| k.tree = Some(t.clone()));
    Ok(t)
}

#[cfg(test)]
mod kept_parses {
    use super::*;

    // Issue 11, item 5: the page's edits reuse the syntax trees of unchanged files.
    #[test]
    fn a_kept_tree_is_reused_only_for_the_same_text_and_decodes_the_same() {
        let files = crate::generator::generate(&crate::generator::GenOptions {
            resources: 40,
            modules: 2,
            seed: 3,
        });
        let text = files.values().next().expect("a file").clone();
        keep_parses(true);
        let a = parsed(&text).expect("parses");
        let b = parsed(&text).expect("parses");
        let c = parsed(&format!("{text}\n")).expect("parses");
        assert!(std::rc::Rc::ptr_eq(&a, &b), "the same text reuses its tree");
        assert!(!std::rc::Rc::ptr_eq(&a, &c), "another text is parsed");
        let kept = crate::config::load::load_files(&files);
        let again = crate::config::load::load_files(&files);
        keep_parses(false);
        let fresh = crate::config::load::load_files(&files);
        assert!(parsed(&text).is_ok_and(|d| !std::rc::Rc::ptr_eq(&a, &d)));
        let show =
            |(c, d): &(Option<crate::config::Config>, Vec<Diagnostic>)| format!("{c:?}{d:?}");
        assert_eq!(show(&kept), show(&fresh));
        assert_eq!(show(&again), show(&fresh));
        // A syntax error is reported the same either way.
        let bad: std::collections::BTreeMap<String, String> = [(
            "main.tf".to_string(),
            "resource \"a\" \"b\" {\n".to_string(),
        )]
        .into();
        keep_parses(true);
        let first = crate::config::load::load_files(&bad).1;
        let second = crate::config::load::load_files(&bad).1;
        assert!(KEPT.with(|c| {
            c.borrow()
                .values()
                .any(|k| k.checks.iter().any(|(n, _)| n == "main.tf"))
        }));
        keep_parses(false);
        assert!(!first.is_empty());
        assert_eq!(format!("{first:?}"), format!("{second:?}"));
        assert_eq!(
            format!("{first:?}"),
            format!("{:?}", crate::config::load::load_files(&bad).1)
        );
    }
}
