//! Syntax highlighting of HCL for the editor: a tolerant lexer that splits the text into classed
//! byte ranges, and each line's pieces (the editor draws only the lines on screen, as text nodes
//! in spans).
//!
//! Hand-written rather than hcl-edit's parser: a highlighter must colour text that does not parse
//! (the user is typing it), must never fail, and only needs token classes, not a syntax tree;
//! hcl-edit exposes no token stream and stops at the first error. This lexer is one linear pass
//! with no allocation per character, so the 1,000-resource generated configuration lexes in a few
//! milliseconds on every keystroke; only the visible lines become DOM nodes.

/// What a token is, as a CSS class suffix (`tok-…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Comment,
    String,
    Interp,
    Number,
    Keyword,
    Block,
    Ident,
    Punct,
}

impl Class {
    pub fn css(self) -> &'static str {
        match self {
            Class::Comment => "tok tok-comment",
            Class::String => "tok tok-string",
            Class::Interp => "tok tok-interp",
            Class::Number => "tok tok-number",
            Class::Keyword => "tok tok-keyword",
            Class::Block => "tok tok-block",
            Class::Ident => "tok tok-ident",
            Class::Punct => "tok tok-punct",
        }
    }
}

/// A token: byte range `start..end` of the text, never crossing a line end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tok {
    pub start: u32,
    pub end: u32,
    pub class: Class,
}

/// The lexed text: where each line starts and the tokens in order. Bytes between tokens
/// (spaces, unknown characters) are plain text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Lexed {
    pub line_starts: Vec<u32>,
    pub toks: Vec<Tok>,
}

const KEYWORDS: &[&str] = &["true", "false", "null", "for", "in", "if", "each", "count"];

impl Lexed {
    /// Number of lines (a text ending in a newline has an empty last line).
    pub fn lines(&self) -> usize {
        self.line_starts.len()
    }

    /// The byte range of line `i` (0-based), without its newline.
    pub fn line_range(&self, text: &str, i: usize) -> (usize, usize) {
        let start = self.line_starts.get(i).map_or(text.len(), |s| *s as usize);
        let end = self
            .line_starts
            .get(i + 1)
            .map_or(text.len(), |s| (*s as usize).saturating_sub(1));
        (start.min(text.len()), end.max(start).min(text.len()))
    }

    /// The pieces of line `i`: `(class or None for plain text, text)`, covering the line exactly.
    pub fn pieces<'a>(&self, text: &'a str, i: usize) -> Vec<(Option<Class>, &'a str)> {
        let (start, end) = self.line_range(text, i);
        let first = self.toks.partition_point(|t| (t.end as usize) <= start);
        let mut out = Vec::new();
        let mut at = start;
        for t in &self.toks[first..] {
            let (s, e) = (t.start as usize, t.end as usize);
            if s >= end {
                break;
            }
            let s = s.max(start);
            let e = e.min(end);
            if s > at
                && let Some(plain) = text.get(at..s)
            {
                out.push((None, plain));
            }
            if let Some(tok) = text.get(s..e) {
                out.push((Some(t.class), tok));
            }
            at = e;
        }
        if end > at
            && let Some(plain) = text.get(at..end)
        {
            out.push((None, plain));
        }
        out
    }
}

/// Lexes `text`. Never fails: anything it does not know is plain text.
pub fn lex(text: &str) -> Lexed {
    let b = text.as_bytes();
    let mut line_starts = vec![0u32];
    for (i, c) in b.iter().enumerate() {
        if *c == b'\n' {
            line_starts.push(i as u32 + 1);
        }
    }
    let mut toks = Vec::new();
    // Pushes `class` over `s..e`, split at line ends so no token crosses a line.
    let push = |toks: &mut Vec<Tok>, s: usize, e: usize, class: Class| {
        let mut from = s;
        for (k, c) in b[s..e].iter().enumerate() {
            if *c == b'\n' {
                if s + k > from {
                    toks.push(Tok {
                        start: from as u32,
                        end: (s + k) as u32,
                        class,
                    });
                }
                from = s + k + 1;
            }
        }
        if e > from {
            toks.push(Tok {
                start: from as u32,
                end: e as u32,
                class,
            });
        }
    };
    let mut i = 0;
    // Whether the current line has had a token yet (a first identifier is a block type or an
    // attribute name).
    let mut line_begun = false;
    // Nesting of `${ … }` inside strings: on `}` at depth > 0 the string resumes.
    let mut interp: Vec<usize> = Vec::new();
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line_begun = false;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'#' => {
                let e = memchr_nl(b, i);
                push(&mut toks, i, e, Class::Comment);
                i = e;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let e = memchr_nl(b, i);
                push(&mut toks, i, e, Class::Comment);
                i = e;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let e = find(b, i + 2, b"*/").map_or(b.len(), |p| p + 2);
                push(&mut toks, i, e, Class::Comment);
                i = e;
            }
            b'"' => {
                i = string(b, i + 1, i, &mut toks, &push, &mut interp);
            }
            b'}' if interp.last() == Some(&0) => {
                let _ = interp.pop();
                push(&mut toks, i, i + 1, Class::Interp);
                // Back inside the enclosing string.
                i = string(b, i + 1, i + 1, &mut toks, &push, &mut interp);
            }
            b'{' if !interp.is_empty() => {
                // A brace inside an interpolation (an object): balance it with a plain brace.
                if let Some(d) = interp.last_mut() {
                    *d += 1;
                }
                push(&mut toks, i, i + 1, Class::Punct);
                i += 1;
            }
            b'<' if b.get(i + 1) == Some(&b'<') => {
                i = heredoc(b, i, &mut toks, &push);
            }
            b'0'..=b'9' => {
                let mut e = i;
                while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'.') {
                    e += 1;
                }
                push(&mut toks, i, e, Class::Number);
                i = e;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let mut e = i;
                while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'_' || b[e] == b'-')
                {
                    e += 1;
                }
                let word = &text[i..e];
                let next = b[e..].iter().find(|c| !matches!(c, b' ' | b'\t'));
                let class = if !line_begun && matches!(next, Some(b'"') | Some(b'{')) {
                    Class::Block
                } else if KEYWORDS.contains(&word) {
                    Class::Keyword
                } else {
                    Class::Ident
                };
                push(&mut toks, i, e, class);
                i = e;
            }
            _ => {
                // One character of punctuation; multi-byte characters stay plain text.
                if c.is_ascii_punctuation() {
                    if c == b'}'
                        && let Some(d) = interp.last_mut()
                    {
                        // A brace closing an object inside an interpolation.
                        *d = d.saturating_sub(1);
                    }
                    push(&mut toks, i, i + 1, Class::Punct);
                }
                i += utf8_len(c);
            }
        }
        line_begun = true;
    }
    Lexed { line_starts, toks }
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

fn memchr_nl(b: &[u8], from: usize) -> usize {
    b[from..]
        .iter()
        .position(|c| *c == b'\n')
        .map_or(b.len(), |p| from + p)
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

/// Lexes a quoted string body from `i` (after the opening quote, or after an interpolation's
/// closing brace); the token starts at `tok_start`. Stops at the closing quote, at a line end (an
/// unterminated string), or at `${`, which opens an interpolation lexed as ordinary tokens.
fn string(
    b: &[u8],
    mut i: usize,
    tok_start: usize,
    toks: &mut Vec<Tok>,
    push: &impl Fn(&mut Vec<Tok>, usize, usize, Class),
    interp: &mut Vec<usize>,
) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => {
                push(toks, tok_start, i + 1, Class::String);
                return i + 1;
            }
            b'\n' => {
                push(toks, tok_start, i, Class::String);
                return i;
            }
            b'$' | b'%' if b.get(i + 1) == Some(&b'{') => {
                push(toks, tok_start, i, Class::String);
                push(toks, i, i + 2, Class::Interp);
                interp.push(0);
                return i + 2;
            }
            _ => i += 1,
        }
    }
    let end = b.len();
    push(toks, tok_start, end.max(tok_start), Class::String);
    end
}

/// A heredoc `<<EOT` or `<<-EOT` up to its closing marker line, as one string token per line.
fn heredoc(
    b: &[u8],
    i: usize,
    toks: &mut Vec<Tok>,
    push: &impl Fn(&mut Vec<Tok>, usize, usize, Class),
) -> usize {
    let mut s = i + 2;
    if b.get(s) == Some(&b'-') {
        s += 1;
    }
    let mut e = s;
    while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'_') {
        e += 1;
    }
    if e == s {
        push(toks, i, i + 2, Class::Punct);
        return i + 2;
    }
    let marker = &b[s..e];
    // The body runs to the first line whose trimmed text is the marker.
    let mut line = memchr_nl(b, e);
    while line < b.len() {
        let next = memchr_nl(b, line + 1);
        let body = &b[line + 1..next];
        let trimmed = body
            .iter()
            .position(|c| !matches!(c, b' ' | b'\t'))
            .map_or(&body[body.len()..], |p| &body[p..]);
        let trimmed = trimmed.strip_suffix(b"\r").unwrap_or(trimmed);
        if trimmed == marker {
            push(toks, i, next, Class::String);
            return next;
        }
        line = next;
    }
    push(toks, i, b.len(), Class::String);
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line's pieces put back together are the line: nothing lost, nothing doubled.
    fn round_trips(text: &str) {
        let lx = lex(text);
        let lines: Vec<&str> = text.split('\n').collect();
        assert_eq!(lx.lines(), lines.len(), "{text:?}");
        for (i, line) in lines.iter().enumerate() {
            let joined: String = lx.pieces(text, i).iter().map(|p| p.1).collect();
            assert_eq!(&joined, line, "line {i} of {text:?}");
        }
    }

    #[test]
    fn tokens_are_classed_and_lines_cover_the_text() {
        let text = "# c\nresource \"a\" \"b\" {\n  n = 12\n  s = \"x${var.y}z\"\n  t = true\n}\n";
        round_trips(text);
        let lx = lex(text);
        let classes = |i: usize| -> Vec<(Option<Class>, &str)> { lx.pieces(text, i) };
        assert_eq!(classes(0), [(Some(Class::Comment), "# c")]);
        assert!(classes(1).contains(&(Some(Class::Block), "resource")));
        assert!(classes(2).contains(&(Some(Class::Number), "12")));
        assert!(classes(3).iter().any(|p| p.0 == Some(Class::Interp)));
        assert!(classes(4).contains(&(Some(Class::Keyword), "true")));
    }

    #[test]
    fn unfinished_and_odd_text_never_fails() {
        for t in [
            "",
            "\"open string",
            "x = <<EOT\nheredoc\nnot closed",
            "/* open comment",
            "é ü 日本 ${",
            "a = \"${\"nested\"}\"\r\nb = 1",
        ] {
            round_trips(t);
        }
        // A string spanning lines keeps its class on the next line.
        let t = "x = <<EOT\nbody\nEOT\n";
        let lx = lex(t);
        assert!(
            lx.pieces(t, 1).iter().all(|p| p.0 == Some(Class::String)),
            "{:?}",
            lx.pieces(t, 1)
        );
    }
}
