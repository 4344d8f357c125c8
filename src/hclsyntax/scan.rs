//! HCL's native-syntax scanner (hclsyntax `scan_tokens.rl`, a Ragel longest-match scanner),
//! written by hand: the same token types at the same byte ranges, including the tokens that
//! exist only to be reported (`checkInvalidTokens`, token.go).

use super::types::{Range, SyntaxError};

/// hclsyntax `TokenType`: the kinds the parser tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tok {
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    OQuote,
    CQuote,
    OHeredoc,
    CHeredoc,
    Star,
    Slash,
    Plus,
    Minus,
    Percent,
    Equal,
    EqualOp,
    NotEqual,
    LessThan,
    LessThanEq,
    GreaterThan,
    GreaterThanEq,
    And,
    Or,
    Bang,
    Dot,
    Comma,
    DoubleColon,
    Ellipsis,
    FatArrow,
    Question,
    Colon,
    TemplateInterp,
    TemplateControl,
    TemplateSeqEnd,
    QuotedLit,
    StringLit,
    NumberLit,
    Ident,
    Comment,
    Newline,
    Eof,
    BitwiseAnd,
    BitwiseOr,
    BitwiseNot,
    BitwiseXor,
    Apostrophe,
    Backtick,
    Semicolon,
    Invalid,
    QuotedNewline,
    /// `TokenNil`: what `oppositeBracket` gives for a token that is not a bracket.
    Nil,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Token {
    pub ty: Tok,
    pub range: Range,
}

enum Mode {
    Main,
    Str,
    Heredoc,
}

struct Heredoc {
    marker: String,
    start_of_line: bool,
}

/// The single-character tokens of the scanner's `SelfToken` rule.
fn self_token(c: u8) -> Option<Tok> {
    Some(match c {
        b'[' => Tok::OBrack,
        b']' => Tok::CBrack,
        b'(' => Tok::OParen,
        b')' => Tok::CParen,
        b'.' => Tok::Dot,
        b',' => Tok::Comma,
        b'*' => Tok::Star,
        b'/' => Tok::Slash,
        b'%' => Tok::Percent,
        b'+' => Tok::Plus,
        b'-' => Tok::Minus,
        b'=' => Tok::Equal,
        b'<' => Tok::LessThan,
        b'>' => Tok::GreaterThan,
        b'!' => Tok::Bang,
        b'?' => Tok::Question,
        b':' => Tok::Colon,
        b'&' => Tok::BitwiseAnd,
        b'|' => Tok::BitwiseOr,
        b'~' => Tok::BitwiseNot,
        b'^' => Tok::BitwiseXor,
        b';' => Tok::Semicolon,
        b'`' => Tok::Backtick,
        b'\'' => Tok::Apostrophe,
        _ => return None,
    })
}

fn is_id_start(c: char) -> bool {
    c == '_' || unicode_ident::is_xid_start(c)
}

fn is_id_continue(c: char) -> bool {
    c == '-' || unicode_ident::is_xid_continue(c)
}

/// The length of the identifier at the start of `s` (0 if none).
pub(super) fn ident_len(s: &str) -> usize {
    let mut chars = s.char_indices();
    match chars.next() {
        Some((_, c)) if is_id_start(c) => {}
        _ => return 0,
    }
    for (i, c) in chars {
        if !is_id_continue(c) {
            return i;
        }
    }
    s.len()
}

/// `NumberLit = digit ("" | (NumberLitContinue - '.') | (NumberLitContinue* (NumberLitContinue - '.')))`
/// with `NumberLitContinue = digit | '.' | ('e'|'E') ('+'|'-')? digit`: the longest match, which
/// never ends with a dot.
fn number_len(b: &[u8]) -> usize {
    let mut j = 1;
    let mut end = 1;
    loop {
        match b.get(j) {
            Some(c) if c.is_ascii_digit() => {
                j += 1;
                end = j;
            }
            Some(b'.') => j += 1,
            Some(b'e' | b'E') => {
                let k = if matches!(b.get(j + 1), Some(b'+' | b'-')) {
                    j + 2
                } else {
                    j + 1
                };
                if b.get(k).is_some_and(u8::is_ascii_digit) {
                    j = k + 1;
                    end = j;
                } else {
                    break;
                }
            }
            _ => break,
        }
    }
    end
}

/// Where a template sequence (`${`, `${~`, `%{`, `%{~`) starting at `i` ends, if one does.
fn template_seq(b: &[u8], i: usize) -> Option<(Tok, usize)> {
    let ty = match (b.get(i), b.get(i + 1)) {
        (Some(b'$'), Some(b'{')) => Tok::TemplateInterp,
        (Some(b'%'), Some(b'{')) => Tok::TemplateControl,
        _ => return None,
    };
    Some((
        ty,
        if b.get(i + 2) == Some(&b'~') {
            i + 3
        } else {
            i + 2
        },
    ))
}

/// A `$` or `%` that does not open a sequence, as a literal: `$${` (or `$${~`) is one literal, a
/// lone `$` is one byte (the next character is held back). `None` when the byte after the sign is
/// missing (the scanner then has nothing but its invalid-character rule).
fn template_not_seq(b: &[u8], i: usize) -> Option<usize> {
    let sign = b[i];
    match b.get(i + 1) {
        None => None,
        Some(c) if *c == sign => match template_seq(b, i + 1) {
            Some((_, end)) => Some(end),
            None => Some(i + 1),
        },
        Some(_) => Some(i + 1),
    }
}

fn char_len(s: &str, i: usize) -> usize {
    s[i..].chars().next().map_or(1, char::len_utf8)
}

/// Scans `text` as hclsyntax `scanTokens` does in `scanNormal` mode; the last token is `Eof`.
pub(super) fn scan(text: &str) -> Vec<Token> {
    let b = text.as_bytes();
    let mut toks = Vec::new();
    let mut modes = vec![Mode::Main];
    let mut braces: i64 = 0;
    let mut ret_braces: Vec<i64> = Vec::new();
    let mut heredocs: Vec<Heredoc> = Vec::new();
    let mut i = 0;
    // A UTF-8 byte order mark is dropped before scanning (`stripUTF8BOM`).
    if text.starts_with('\u{feff}') {
        i = 3;
    }
    let mut push = |ty: Tok, s: usize, e: usize| toks.push(Token { ty, range: (s, e) });
    while i < b.len() {
        let mode = modes.last().unwrap_or(&Mode::Main);
        match mode {
            Mode::Main => {
                let c = b[i];
                if c == b' ' || c == b'\t' {
                    i += 1;
                    continue;
                }
                if c.is_ascii_digit() {
                    let e = i + number_len(&b[i..]);
                    push(Tok::NumberLit, i, e);
                    i = e;
                    continue;
                }
                let id = ident_len(&text[i..]);
                if id > 0 {
                    push(Tok::Ident, i, i + id);
                    i += id;
                    continue;
                }
                let two = b.get(i + 1).copied();
                // Comments: `#` and `//` up to and including the newline; `/* … */` when closed.
                if c == b'#' || (c == b'/' && two == Some(b'/')) {
                    let e = text[i..].find('\n').map_or(b.len(), |n| i + n + 1);
                    push(Tok::Comment, i, e);
                    i = e;
                    continue;
                }
                if c == b'/'
                    && two == Some(b'*')
                    && let Some(n) = text[i + 2..].find("*/")
                {
                    let e = i + 2 + n + 2;
                    push(Tok::Comment, i, e);
                    i = e;
                    continue;
                }
                if c == b'\n' {
                    push(Tok::Newline, i, i + 1);
                    i += 1;
                    continue;
                }
                if c == b'\r' && two == Some(b'\n') {
                    push(Tok::Newline, i, i + 2);
                    i += 2;
                    continue;
                }
                let pair = match (c, two) {
                    (b'=', Some(b'=')) => Some(Tok::EqualOp),
                    (b'!', Some(b'=')) => Some(Tok::NotEqual),
                    (b'>', Some(b'=')) => Some(Tok::GreaterThanEq),
                    (b'<', Some(b'=')) => Some(Tok::LessThanEq),
                    (b'&', Some(b'&')) => Some(Tok::And),
                    (b'|', Some(b'|')) => Some(Tok::Or),
                    (b':', Some(b':')) => Some(Tok::DoubleColon),
                    (b'=', Some(b'>')) => Some(Tok::FatArrow),
                    _ => None,
                };
                if c == b'.' && two == Some(b'.') && b.get(i + 2) == Some(&b'.') {
                    push(Tok::Ellipsis, i, i + 3);
                    i += 3;
                    continue;
                }
                if let Some(ty) = pair {
                    push(ty, i, i + 2);
                    i += 2;
                    continue;
                }
                if c == b'<' && two == Some(b'<') {
                    // `<<` ('-')? Ident Newline opens a heredoc; otherwise two `<`.
                    let mut j = i + 2;
                    if b.get(j) == Some(&b'-') {
                        j += 1;
                    }
                    let id = ident_len(&text[j..]);
                    let nl = if b.get(j + id) == Some(&b'\n') {
                        Some(j + id + 1)
                    } else if b.get(j + id) == Some(&b'\r') && b.get(j + id + 1) == Some(&b'\n') {
                        Some(j + id + 2)
                    } else {
                        None
                    };
                    if id > 0
                        && let Some(e) = nl
                    {
                        push(Tok::OHeredoc, i, e);
                        heredocs.push(Heredoc {
                            marker: text[j..j + id].to_string(),
                            start_of_line: true,
                        });
                        modes.push(Mode::Heredoc);
                        i = e;
                        continue;
                    }
                }
                match c {
                    b'{' => {
                        push(Tok::OBrace, i, i + 1);
                        braces += 1;
                        i += 1;
                    }
                    b'}' | b'~' if c == b'}' || two == Some(b'}') => {
                        let e = if c == b'}' { i + 1 } else { i + 2 };
                        if ret_braces.last() == Some(&braces) {
                            push(Tok::TemplateSeqEnd, i, e);
                            braces -= 1;
                            ret_braces.pop();
                            modes.pop();
                        } else {
                            // `~}` is a sequence end even here (the parser reports it).
                            let ty = if c == b'}' {
                                Tok::CBrace
                            } else {
                                Tok::TemplateSeqEnd
                            };
                            push(ty, i, e);
                            braces -= 1;
                        }
                        i = e;
                    }
                    b'"' => {
                        push(Tok::OQuote, i, i + 1);
                        modes.push(Mode::Str);
                        i += 1;
                    }
                    _ => {
                        let n = char_len(text, i);
                        let ty = self_token(c).unwrap_or(Tok::Invalid);
                        push(ty, i, i + n);
                        i += n;
                    }
                }
            }
            Mode::Str => {
                if let Some((ty, e)) = template_seq(b, i) {
                    push(ty, i, e);
                    braces += 1;
                    ret_braces.push(braces);
                    if let Some(h) = heredocs.last_mut() {
                        h.start_of_line = false;
                    }
                    modes.push(Mode::Main);
                    i = e;
                    continue;
                }
                let c = b[i];
                if c == b'"' {
                    push(Tok::CQuote, i, i + 1);
                    modes.pop();
                    i += 1;
                    continue;
                }
                if c == b'\n' || c == b'\r' {
                    let e = i + b[i..]
                        .iter()
                        .take_while(|c| **c == b'\n' || **c == b'\r')
                        .count();
                    push(Tok::QuotedNewline, i, e);
                    i = e;
                    continue;
                }
                if c == b'$' || c == b'%' {
                    match template_not_seq(b, i) {
                        Some(e) => {
                            push(Tok::QuotedLit, i, e);
                            i = e;
                        }
                        None => {
                            push(Tok::Invalid, i, i + 1);
                            i += 1;
                        }
                    }
                    continue;
                }
                // A run of characters and backslash escapes (a backslash takes the next
                // character, unless that is a newline or the end).
                let mut j = i;
                while j < b.len() {
                    match b[j] {
                        b'\\' => {
                            if j + 1 < b.len() && b[j + 1] != b'\n' && b[j + 1] != b'\r' {
                                j += 1 + char_len(text, j + 1);
                            } else {
                                break;
                            }
                        }
                        b'$' | b'%' | b'"' | b'\n' | b'\r' => break,
                        _ => j += char_len(text, j),
                    }
                }
                if j > i {
                    push(Tok::QuotedLit, i, j);
                    i = j;
                } else {
                    // A backslash before a newline or the end: only `AnyUTF8` matches it.
                    push(Tok::Invalid, i, i + 1);
                    i += 1;
                }
            }
            Mode::Heredoc => {
                if let Some((ty, e)) = template_seq(b, i) {
                    push(ty, i, e);
                    braces += 1;
                    ret_braces.push(braces);
                    if let Some(h) = heredocs.last_mut() {
                        h.start_of_line = false;
                    }
                    modes.push(Mode::Main);
                    i = e;
                    continue;
                }
                // HeredocStringLiteral: a lone sign, or a run without signs and line ends; then
                // maybe the end of the line.
                let lit_end = if b[i] == b'$' || b[i] == b'%' {
                    template_not_seq(b, i)
                } else {
                    Some(
                        i + b[i..]
                            .iter()
                            .take_while(|c| !matches!(c, b'$' | b'%' | b'\n' | b'\r'))
                            .count(),
                    )
                };
                let Some(j) = lit_end else {
                    push(Tok::Invalid, i, i + 1);
                    i += 1;
                    continue;
                };
                let eol = if b.get(j) == Some(&b'\n') {
                    Some(j + 1)
                } else if b.get(j) == Some(&b'\r') && b.get(j + 1) == Some(&b'\n') {
                    Some(j + 2)
                } else {
                    None
                };
                match eol {
                    Some(e) => {
                        let top = heredocs.last_mut();
                        let is_marker = top.as_ref().is_some_and(|h| {
                            h.start_of_line && text[i..e].trim() == h.marker.as_str()
                        });
                        if is_marker {
                            push(Tok::CHeredoc, i, j);
                            push(Tok::Newline, j, e);
                            heredocs.pop();
                            modes.pop();
                        } else {
                            if let Some(h) = top {
                                h.start_of_line = true;
                            }
                            push(Tok::StringLit, i, e);
                        }
                        i = e;
                    }
                    None if j > i => {
                        if let Some(h) = heredocs.last_mut() {
                            h.start_of_line = false;
                        }
                        push(Tok::StringLit, i, j);
                        i = j;
                    }
                    None => {
                        // A lone carriage return: no rule matches, and the scanner gives the
                        // rest of the input as one invalid token.
                        push(Tok::Invalid, i, b.len());
                        i = b.len();
                    }
                }
            }
        }
    }
    push(Tok::Eof, b.len(), b.len());
    toks
}

/// hclsyntax `checkInvalidTokens` (token.go): the tokens that never belong in HCL, reported in
/// order, each kind only so often.
pub(super) fn check_invalid_tokens(text: &str, toks: &[Token]) -> Vec<SyntaxError> {
    let mut out = Vec::new();
    let (mut bitwise, mut backtick, mut apostrophe, mut semicolon) = (0, 0, 0, 0);
    for t in toks {
        let err = |summary: &str, detail: &str| SyntaxError::new(summary, detail, t.range);
        match t.ty {
            Tok::BitwiseAnd | Tok::BitwiseOr | Tok::BitwiseXor | Tok::BitwiseNot
                if bitwise < 4 =>
            {
                let suggestion = match t.ty {
                    Tok::BitwiseAnd => " Did you mean boolean AND (\"&&\")?",
                    Tok::BitwiseOr => " Did you mean boolean OR (\"||\")?",
                    Tok::BitwiseNot => " Did you mean boolean NOT (\"!\")?",
                    _ => "",
                };
                out.push(err(
                    "Unsupported operator",
                    &format!("Bitwise operators are not supported.{suggestion}"),
                ));
                bitwise += 1;
            }
            Tok::Backtick => {
                if backtick % 2 == 0 {
                    out.push(err(
                        "Invalid character",
                        "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".",
                    ));
                }
                if backtick <= 2 {
                    backtick += 1;
                }
            }
            Tok::Apostrophe => {
                if apostrophe % 2 == 0 {
                    out.push(err(
                        "Invalid character",
                        "Single quotes are not valid. Use double quotes (\") to enclose strings.",
                    ));
                }
                if apostrophe <= 2 {
                    apostrophe += 1;
                }
            }
            Tok::Semicolon if semicolon < 1 => {
                out.push(err(
                    "Invalid character",
                    "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.",
                ));
                semicolon += 1;
            }
            Tok::QuotedNewline => out.push(err(
                "Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
            )),
            Tok::Invalid => {
                let chars = text.get(t.range.0..t.range.1).unwrap_or("");
                if chars == "\u{201c}" || chars == "\u{201d}" {
                    out.push(err(
                        "Invalid character",
                        "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\".",
                    ));
                } else {
                    out.push(err(
                        "Invalid character",
                        "This character is not used within the language.",
                    ));
                }
            }
            _ => {}
        }
    }
    out
}
