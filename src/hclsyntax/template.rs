//! hclsyntax `parser_template.go` (template parts, then the directives' structure) and
//! `ParseStringLiteralToken` (escape sequences, as `scan_string_lit.rl` splits them).

use super::parser::{Diags, Parser, between};
use super::scan::{Tok, Token};
use super::types::Range;
use crate::didyoumean::name_suggestion;
use crate::strconv::go_quote;

fn err(summary: &str, detail: impl AsRef<str>, range: Range) -> super::types::SyntaxError {
    super::types::SyntaxError::new(summary, detail.as_ref(), range)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum EndCtrl {
    EndIf,
    Else,
    EndFor,
}

impl EndCtrl {
    fn name(self) -> &'static str {
        match self {
            EndCtrl::EndIf => "endif",
            EndCtrl::Else => "else",
            EndCtrl::EndFor => "endfor",
        }
    }
}

/// The template tokens of `parseTemplateParts`; only their ranges matter here.
#[derive(Clone, Copy)]
enum Part {
    Literal,
    Interp,
    If(Range),
    For(Range),
    EndCtrl(EndCtrl, Range),
    End(Range),
}

impl Parser<'_> {
    /// parser `parseTemplateInner`: the parts up to `end`, then their directives.
    pub(super) fn parse_template_inner(&mut self, end: Tok) -> Diags {
        if !self.enter() {
            return Vec::new();
        }
        let (parts, mut diags) = self.parse_template_parts(end);
        let mut tp = TemplateParser {
            parts,
            pos: 0,
            fmt_range: self.fmt_range,
            depth: 0,
        };
        diags.extend(tp.parse_root());
        self.leave();
        diags
    }

    /// parser `parseTemplateParts`.
    fn parse_template_parts(&mut self, end: Tok) -> (Vec<Part>, Diags) {
        let mut parts = Vec::new();
        let mut diags = Vec::new();
        let start_range = self.next_range();
        let end_range;
        loop {
            let next = self.read();
            if next.ty == end {
                end_range = next.range;
                break;
            }
            match next.ty {
                Tok::StringLit | Tok::QuotedLit => {
                    diags.extend(self.parse_string_literal_token(&next, next.ty == Tok::QuotedLit));
                    parts.push(Part::Literal);
                }
                Tok::TemplateInterp => {
                    self.push_newlines(false);
                    let (_, d) = self.parse_expression();
                    diags.extend(d);
                    let close = self.peek();
                    if close.ty != Tok::TemplateSeqEnd {
                        if !self.recovery {
                            match close.ty {
                                Tok::Eof => diags.push(err(
                                    "Unclosed template interpolation sequence",
                                    "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.",
                                    start_range,
                                )),
                                Tok::Colon => diags.push(err(
                                    "Extra characters after interpolation expression",
                                    "Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".",
                                    close.range,
                                )),
                                Tok::CQuote | Tok::OQuote if end == Tok::CQuote => diags.push(err(
                                    "Unclosed template interpolation sequence",
                                    "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.",
                                    start_range,
                                )),
                                _ => diags.push(err(
                                    "Extra characters after interpolation expression",
                                    "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".",
                                    close.range,
                                )),
                            }
                        }
                        self.recover(Tok::TemplateSeqEnd);
                    } else {
                        self.read();
                    }
                    self.pop_newlines();
                    parts.push(Part::Interp);
                }
                Tok::TemplateControl => {
                    self.push_newlines(false);
                    let kw = self.peek();
                    if kw.ty != Tok::Ident {
                        if !self.recovery {
                            diags.push(err(
                                "Invalid template directive",
                                "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.",
                                kw.range,
                            ));
                        }
                        self.recover(Tok::TemplateSeqEnd);
                        self.pop_newlines();
                        continue;
                    }
                    self.read();
                    let word = self.bytes(&kw);
                    match word {
                        "if" => {
                            let (_, d) = self.parse_expression();
                            diags.extend(d);
                            parts.push(Part::If(between(next.range, self.next_range())));
                        }
                        "else" | "endif" | "endfor" => {
                            let kind = match word {
                                "else" => EndCtrl::Else,
                                "endif" => EndCtrl::EndIf,
                                _ => EndCtrl::EndFor,
                            };
                            parts.push(Part::EndCtrl(kind, between(next.range, self.next_range())));
                        }
                        "for" => {
                            let mut bad = None;
                            if self.peek().ty != Tok::Ident {
                                bad = Some("For directive requires variable name after 'for'.");
                            } else {
                                self.read();
                                if self.peek().ty == Tok::Comma {
                                    self.read();
                                    if self.peek().ty != Tok::Ident {
                                        bad = Some(
                                            "For directive requires value variable name after comma.",
                                        );
                                    } else {
                                        self.read();
                                    }
                                }
                                if bad.is_none()
                                    && !(self.peek().ty == Tok::Ident
                                        && self.bytes(&self.peek()) == "in")
                                {
                                    bad = Some("For directive requires 'in' keyword after names.");
                                }
                            }
                            if let Some(detail) = bad {
                                if !self.recovery {
                                    diags.push(err(
                                        "Invalid 'for' directive",
                                        detail,
                                        self.peek().range,
                                    ));
                                }
                                self.recover(Tok::TemplateSeqEnd);
                                self.pop_newlines();
                                continue;
                            }
                            self.read(); // "in"
                            let (_, d) = self.parse_expression();
                            diags.extend(d);
                            parts.push(Part::For(between(next.range, self.next_range())));
                        }
                        _ => {
                            if !self.recovery {
                                let suggestion = name_suggestion(
                                    word,
                                    &["if", "for", "else", "endif", "endfor"],
                                )
                                .map(|s| format!(" Did you mean {}?", go_quote(s)))
                                .unwrap_or_default();
                                diags.push(err(
                                    "Invalid template control keyword",
                                    format!(
                                        "{} is not a valid template control keyword.{suggestion}",
                                        go_quote(word)
                                    ),
                                    kw.range,
                                ));
                            }
                            self.recover(Tok::TemplateSeqEnd);
                            self.pop_newlines();
                            continue;
                        }
                    }
                    let close = self.peek();
                    if close.ty != Tok::TemplateSeqEnd {
                        if !self.recovery {
                            diags.push(err(
                                &format!("Extra characters in {word} marker"),
                                "Expected a closing brace to end the sequence, but found extra characters.",
                                close.range,
                            ));
                        }
                        self.recover(Tok::TemplateSeqEnd);
                    } else {
                        self.read();
                    }
                    self.pop_newlines();
                }
                _ => {
                    if !self.recovery {
                        diags.push(err(
                            "Unterminated template string",
                            "No closing marker was found for the string.",
                            next.range,
                        ));
                    }
                    let last = self.recover(end);
                    end_range = last.range;
                    break;
                }
            }
        }
        if parts.is_empty() {
            parts.push(Part::Literal);
        }
        parts.push(Part::End(end_range));
        (parts, diags)
    }

    /// `ParseStringLiteralToken`: the escape sequences of a quoted literal (`quoted`) or a
    /// heredoc's literal (which has none), each error at its sequence.
    pub(super) fn parse_string_literal_token(&self, tok: &Token, quoted: bool) -> Diags {
        let mut diags = Vec::new();
        if !quoted {
            return diags;
        }
        let s = self.bytes(tok);
        let b = s.as_bytes();
        let base = tok.range.0;
        let mut i = 0;
        while i < b.len() {
            if b[i] != b'\\' {
                i += s[i..].chars().next().map_or(1, char::len_utf8);
                continue;
            }
            let (end, hex) = match b.get(i + 1) {
                None => {
                    diags.push(err(
                        "Invalid escape sequence",
                        "Backslash must be followed by an escape sequence selector character.",
                        (base + i, base + i + 1),
                    ));
                    break;
                }
                Some(b'u') | Some(b'U') => {
                    let max = if b[i + 1] == b'u' { 4 } else { 8 };
                    let n = b[i + 2..]
                        .iter()
                        .take(max)
                        .take_while(|c| c.is_ascii_hexdigit())
                        .count();
                    (i + 2 + n, true)
                }
                Some(_) => (
                    i + 1 + s[i + 1..].chars().next().map_or(1, char::len_utf8),
                    false,
                ),
            };
            let slice = &s[i..end];
            let range = (base + i, base + end);
            let selector = b[i + 1];
            if hex {
                if selector == b'u' && slice.len() != 6 {
                    diags.push(err(
                        "Invalid escape sequence",
                        "The \\u escape sequence must be followed by four hexadecimal digits.",
                        range,
                    ));
                } else if selector == b'U' && slice.len() != 10 {
                    diags.push(err(
                        "Invalid escape sequence",
                        "The \\U escape sequence must be followed by eight hexadecimal digits.",
                        range,
                    ));
                } else if let Ok(n) = u32::from_str_radix(&slice[2..], 16)
                    && char::from_u32(n).is_none()
                {
                    diags.push(err(
                        "Invalid escape sequence",
                        format!("Cannot encode character U+{n:04x} in UTF-8."),
                        range,
                    ));
                }
            } else if !matches!(selector, b'n' | b'r' | b't' | b'"' | b'\\') {
                diags.push(err(
                    "Invalid escape sequence",
                    format!(
                        "The symbol {} is not a valid escape sequence selector.",
                        go_quote(&slice[1..])
                    ),
                    range,
                ));
            }
            i = end;
        }
        diags
    }
}

/// hclsyntax `templateParser`: the directives' nesting over the parts.
struct TemplateParser<'a> {
    parts: Vec<Part>,
    pos: usize,
    fmt_range: &'a dyn Fn(Range) -> String,
    depth: usize,
}

impl TemplateParser<'_> {
    fn peek(&self) -> Part {
        self.parts
            .get(self.pos)
            .copied()
            .unwrap_or(Part::End((0, 0)))
    }

    fn read(&mut self) -> Part {
        let p = self.peek();
        if !matches!(p, Part::End(_)) {
            self.pos += 1;
        }
        p
    }

    fn parse_root(&mut self) -> Diags {
        let mut diags = Vec::new();
        while !matches!(self.peek(), Part::End(_)) {
            diags.extend(self.parse_expr());
        }
        diags
    }

    fn parse_expr(&mut self) -> Diags {
        match self.peek() {
            Part::Literal | Part::Interp => {
                self.read();
                Vec::new()
            }
            Part::If(r) => self.parse_block(r, true),
            Part::For(r) => self.parse_block(r, false),
            Part::End(r) => {
                self.read();
                vec![err(
                    "Unexpected end of template",
                    "The control directives within this template are unbalanced.",
                    r,
                )]
            }
            Part::EndCtrl(kind, r) => {
                self.read();
                vec![err(
                    &format!("Unexpected {} directive", kind.name()),
                    "The control directives within this template are unbalanced.",
                    r,
                )]
            }
        }
    }

    /// `parseIf` (`is_if`) and `parseFor`.
    fn parse_block(&mut self, open: Range, is_if: bool) -> Diags {
        self.read();
        self.depth += 1;
        if self.depth > super::types::MAX_DEPTH {
            // Too deep to follow: stop here (the caller's checker is bounded the same way).
            self.pos = self.parts.len();
            return Vec::new();
        }
        let at = (self.fmt_range)(open);
        let mut diags = Vec::new();
        let mut in_else = false;
        loop {
            match self.peek() {
                Part::End(r) => {
                    let detail = if is_if {
                        format!(
                            "The if directive at {at} is missing its corresponding endif directive."
                        )
                    } else {
                        format!(
                            "The for directive at {at} is missing its corresponding endfor directive."
                        )
                    };
                    diags.push(err("Unexpected end of template", detail, r));
                    break;
                }
                Part::EndCtrl(kind, r) => {
                    self.read();
                    match (is_if, kind) {
                        (true, EndCtrl::Else) if !in_else => {
                            in_else = true;
                            continue;
                        }
                        (true, EndCtrl::Else) => diags.push(err(
                            "Unexpected else directive",
                            format!("Already in the else clause for the if started at {at}."),
                            r,
                        )),
                        (true, EndCtrl::EndIf) | (false, EndCtrl::EndFor) => {}
                        (false, EndCtrl::Else) => diags.push(err(
                            "Unexpected else directive",
                            "An else clause is not expected for a for directive.",
                            r,
                        )),
                        (true, _) => diags.push(err(
                            &format!("Unexpected {} directive", kind.name()),
                            format!("Expecting an endif directive for the if started at {at}."),
                            r,
                        )),
                        (false, _) => diags.push(err(
                            &format!("Unexpected {} directive", kind.name()),
                            format!(
                                "Expecting an endfor directive corresponding to the for directive at {at}."
                            ),
                            r,
                        )),
                    }
                    break;
                }
                _ => diags.extend(self.parse_expr()),
            }
        }
        self.depth -= 1;
        diags
    }
}
