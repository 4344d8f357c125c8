//! hclsyntax `parser.go` and its peeker (`peeker.go`): bodies, blocks, attributes and
//! expressions, keeping only what the diagnostics need (the ranges of expressions, for the
//! subjects that name them).

use super::scan::{Tok, Token};
use super::types::{MAX_DEPTH, Range, SyntaxError};

pub(super) type Diags = Vec<SyntaxError>;

/// hcl `RangeBetween`: from the earlier start to the later end.
pub(super) fn between(a: Range, b: Range) -> Range {
    (a.0.min(b.0), a.1.max(b.1))
}

fn err(summary: &str, detail: impl AsRef<str>, range: Range) -> SyntaxError {
    SyntaxError::new(summary, detail.as_ref(), range)
}

/// The zero token Go's parser holds where it found none (a `Token{}`: type nil, range zero).
const NO_TOKEN: Token = Token {
    ty: Tok::Nil,
    range: (0, 0),
};

pub(super) struct Parser<'a> {
    toks: Vec<Token>,
    next: usize,
    include_newlines: Vec<bool>,
    pub(super) recovery: bool,
    pub(super) text: &'a str,
    pub(super) fmt_range: &'a dyn Fn(Range) -> String,
    depth: usize,
    gave_up: bool,
    /// The last [`Parser::next_token`] answer, for the position and newline mode it was asked
    /// at: the parser peeks at the same token several times before it reads it.
    peeked: std::cell::Cell<Option<(usize, bool, Token, usize)>>,
}

impl<'a> Parser<'a> {
    pub(super) fn new(
        toks: Vec<Token>,
        text: &'a str,
        fmt_range: &'a dyn Fn(Range) -> String,
    ) -> Self {
        Parser {
            toks,
            next: 0,
            include_newlines: vec![true],
            recovery: false,
            text,
            fmt_range,
            depth: 0,
            gave_up: false,
            peeked: std::cell::Cell::new(None),
        }
    }

    pub(super) fn gave_up(&self) -> bool {
        self.gave_up
    }

    pub(super) fn bytes(&self, t: &Token) -> &'a str {
        self.text.get(t.range.0..t.range.1).unwrap_or("")
    }

    fn eof(&self) -> Token {
        self.toks.last().copied().unwrap_or(Token {
            ty: Tok::Eof,
            range: (self.text.len(), self.text.len()),
        })
    }

    /// peeker `nextToken`: comments are skipped, except that a line comment stands for the
    /// newline it ends with when newlines count; newlines are skipped when they do not.
    fn next_token(&self) -> (Token, usize) {
        if self.gave_up {
            return (self.eof(), self.toks.len());
        }
        let including = self.including_newlines();
        if let Some((at, inc, t, n)) = self.peeked.get()
            && at == self.next
            && inc == including
        {
            return (t, n);
        }
        let found = self.scan_next_token(including);
        self.peeked
            .set(Some((self.next, including, found.0, found.1)));
        found
    }

    /// [`Parser::next_token`] found from the tokens.
    fn scan_next_token(&self, including: bool) -> (Token, usize) {
        for i in self.next..self.toks.len() {
            let t = self.toks[i];
            match t.ty {
                Tok::Comment => {
                    if including && self.bytes(&t).ends_with('\n') {
                        return (
                            Token {
                                ty: Tok::Newline,
                                range: t.range,
                            },
                            i + 1,
                        );
                    }
                    continue;
                }
                Tok::Newline if !including => continue,
                _ => return (t, i + 1),
            }
        }
        (self.eof(), self.toks.len())
    }

    pub(super) fn peek(&self) -> Token {
        self.next_token().0
    }

    pub(super) fn read(&mut self) -> Token {
        let (t, n) = self.next_token();
        self.next = n;
        t
    }

    pub(super) fn next_range(&self) -> Range {
        self.peek().range
    }

    pub(super) fn prev_range(&self) -> Range {
        if self.next == 0 {
            return self.next_range();
        }
        self.toks
            .get(self.next - 1)
            .map_or_else(|| self.eof().range, |t| t.range)
    }

    fn including_newlines(&self) -> bool {
        self.include_newlines.last().copied().unwrap_or(true)
    }

    pub(super) fn push_newlines(&mut self, include: bool) {
        self.include_newlines.push(include);
    }

    pub(super) fn pop_newlines(&mut self) {
        if self.include_newlines.len() > 1 {
            self.include_newlines.pop();
        }
    }

    /// Counts one level of nesting; false (and the parser gives up) past [`MAX_DEPTH`].
    pub(super) fn enter(&mut self) -> bool {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.gave_up = true;
        }
        !self.gave_up
    }

    pub(super) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    pub(super) fn parse_body(&mut self, end: Tok) -> Diags {
        if !self.enter() {
            return Vec::new();
        }
        let d = self.parse_body_inner(end);
        self.leave();
        d
    }

    /// parser `ParseBody`.
    fn parse_body_inner(&mut self, end: Tok) -> Diags {
        let mut diags = Vec::new();
        let start_range = self.prev_range();
        // Each argument's name, for "Attribute redefined".
        let mut attrs: Vec<(&'a str, Range)> = Vec::new();
        loop {
            let next = self.peek();
            if next.ty == end {
                self.read();
                break;
            }
            match next.ty {
                Tok::Newline => {
                    self.read();
                }
                Tok::Ident => {
                    let (item, item_diags) = self.parse_body_item();
                    diags.extend(item_diags);
                    if let Some(Item::Attribute(name)) = item {
                        let n = self.bytes(&name);
                        if let Some((_, first)) = attrs.iter().find(|(a, _)| *a == n) {
                            diags.push(err(
                                "Attribute redefined",
                                format!(
                                    "The argument {} was already set at {}. Each argument may be set only once.",
                                    crate::strconv::go_quote(n),
                                    (self.fmt_range)(*first)
                                ),
                                name.range,
                            ));
                        } else {
                            attrs.push((n, name.range));
                        }
                    }
                }
                _ => {
                    let bad = self.read();
                    if !self.recovery {
                        match bad.ty {
                            Tok::OQuote => diags.push(err(
                                "Invalid argument name",
                                "Argument names must not be quoted.",
                                bad.range,
                            )),
                            Tok::Eof if end == Tok::CBrace => diags.push(err(
                                "Unclosed configuration block",
                                "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                                start_range,
                            )),
                            Tok::Eof => diags.push(err(
                                "Unclosed configuration body",
                                "Found end of file before the end of this configuration body.",
                                start_range,
                            )),
                            _ => diags.push(err(
                                "Argument or block definition required",
                                "An argument or block definition is required here.",
                                bad.range,
                            )),
                        }
                    }
                    self.recover(end);
                    break;
                }
            }
        }
        diags
    }

    /// parser `ParseBodyItem`.
    fn parse_body_item(&mut self) -> (Option<Item>, Diags) {
        let ident = self.read();
        if ident.ty != Tok::Ident {
            self.recover_after_body_item();
            return (
                None,
                vec![err(
                    "Argument or block definition required",
                    "An argument or block definition is required here.",
                    ident.range,
                )],
            );
        }
        match self.peek().ty {
            Tok::Equal => {
                let d = self.finish_parsing_body_attribute(ident, false);
                (Some(Item::Attribute(ident)), d)
            }
            Tok::OQuote | Tok::OBrace | Tok::Ident => {
                (Some(Item::Block), self.finish_parsing_body_block(ident))
            }
            _ => {
                self.recover_after_body_item();
                (
                    None,
                    vec![err(
                        "Argument or block definition required",
                        "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                        ident.range,
                    )],
                )
            }
        }
    }

    /// parser `parseSingleAttrBody`: the body of `b { x = 1 }`. `None` for the body when no
    /// attribute was parsed.
    fn parse_single_attr_body(&mut self) -> (bool, Diags) {
        let ident = self.read();
        if ident.ty != Tok::Ident {
            self.recover_after_body_item();
            return (
                false,
                vec![err(
                    "Argument or block definition required",
                    "An argument or block definition is required here.",
                    ident.range,
                )],
            );
        }
        let next = self.peek();
        match next.ty {
            Tok::Equal => (true, self.finish_parsing_body_attribute(ident, true)),
            Tok::OQuote | Tok::OBrace | Tok::Ident => {
                self.recover_after_body_item();
                (
                    false,
                    vec![err(
                        "Argument definition required",
                        format!(
                            "A single-line block definition can contain only a single argument. If you meant to define argument {}, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block.",
                            crate::strconv::go_quote(self.bytes(&ident))
                        ),
                        between(ident.range, next.range),
                    )],
                )
            }
            _ => {
                self.recover_after_body_item();
                (
                    false,
                    vec![err(
                        "Argument or block definition required",
                        "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                        ident.range,
                    )],
                )
            }
        }
    }

    /// parser `finishParsingBodyAttribute`.
    fn finish_parsing_body_attribute(&mut self, _ident: Token, single_line: bool) -> Diags {
        self.read(); // the equals sign
        let (_, mut diags) = self.parse_expression();
        if self.recovery && !diags.is_empty() {
            self.recover_after_body_item();
        } else if !single_line {
            let end = self.peek();
            if end.ty != Tok::Newline && end.ty != Tok::Eof {
                if !self.recovery {
                    if end.ty == Tok::Comma {
                        diags.push(err(
                            "Unexpected comma after argument",
                            "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.",
                            end.range,
                        ));
                    } else {
                        diags.push(err(
                            "Missing newline after argument",
                            "An argument definition must end with a newline.",
                            end.range,
                        ));
                    }
                }
                self.recover_after_body_item();
            } else {
                self.read(); // the newline
            }
        }
        diags
    }

    /// parser `finishParsingBodyBlock`.
    fn finish_parsing_body_block(&mut self, ident: Token) -> Diags {
        let mut diags = Vec::new();
        loop {
            let tok = self.peek();
            match tok.ty {
                Tok::OBrace => {
                    self.read();
                    break;
                }
                Tok::OQuote => {
                    let (_, d) = self.parse_quoted_string_literal();
                    diags.extend(d);
                }
                Tok::Ident => {
                    self.read();
                }
                _ => {
                    match tok.ty {
                        Tok::Equal => diags.push(err(
                            "Invalid block definition",
                            "The equals sign \"=\" indicates an argument definition, and must not be used when defining a block.",
                            tok.range,
                        )),
                        Tok::Newline => diags.push(err(
                            "Invalid block definition",
                            "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.",
                            tok.range,
                        )),
                        _ => {
                            if !self.recovery {
                                diags.push(err(
                                    "Invalid block definition",
                                    "Either a quoted string block label or an opening brace (\"{\") is expected here.",
                                    tok.range,
                                ));
                            }
                        }
                    }
                    self.recover_after_body_item();
                    return diags;
                }
            }
        }
        let o_brace = self.prev_range();
        let body_diags;
        match self.peek().ty {
            Tok::Newline | Tok::Eof | Tok::CBrace => {
                body_diags = self.parse_body(Tok::CBrace);
            }
            _ => {
                if !self.enter() {
                    return diags;
                }
                let (_, d) = self.parse_single_attr_body();
                self.leave();
                body_diags = d;
                let next = self.peek();
                match next.ty {
                    Tok::CBrace => {
                        self.read();
                    }
                    Tok::Comma => {
                        diags.push(err(
                            "Invalid single-argument block definition",
                            "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
                            next.range,
                        ));
                        self.recover(Tok::CBrace);
                    }
                    Tok::Newline => {
                        diags.push(err(
                            "Invalid single-argument block definition",
                            "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
                            next.range,
                        ));
                        self.recover(Tok::CBrace);
                    }
                    _ => {
                        if !self.recovery {
                            if next.ty == Tok::Eof {
                                diags.push(err(
                                    "Unclosed configuration block",
                                    "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                                    o_brace,
                                ));
                            } else {
                                diags.push(err(
                                    "Invalid single-argument block definition",
                                    "A single-line block definition must end with a closing brace immediately after its single argument definition.",
                                    next.range,
                                ));
                            }
                        }
                        self.recover(Tok::CBrace);
                    }
                }
            }
        }
        diags.extend(body_diags);
        let eol = self.peek();
        if eol.ty == Tok::Newline || eol.ty == Tok::Eof {
            self.read();
        } else {
            if !self.recovery {
                diags.push(err(
                    "Missing newline after block definition",
                    "A block definition must end with a newline.",
                    eol.range,
                ));
            }
            self.recover_after_body_item();
        }
        let _ = ident;
        diags
    }

    /// parser `ParseExpression`: the expression's range and the errors in it.
    pub(super) fn parse_expression(&mut self) -> (Range, Diags) {
        if !self.enter() {
            return (self.eof().range, Vec::new());
        }
        let r = self.parse_ternary_conditional();
        self.leave();
        r
    }

    /// parser `parseTernaryConditional`.
    fn parse_ternary_conditional(&mut self) -> (Range, Diags) {
        let start_range = self.next_range();
        let (cond, mut diags) = self.parse_binary_ops(0);
        if self.recovery && !diags.is_empty() {
            return (cond, diags);
        }
        let question = self.peek();
        if question.ty != Tok::Question {
            return (cond, diags);
        }
        self.read();
        let (_, true_diags) = self.parse_expression();
        let failed = !true_diags.is_empty();
        diags.extend(true_diags);
        if self.recovery && failed {
            return (cond, diags);
        }
        let colon = self.peek();
        if colon.ty != Tok::Colon {
            diags.push(err(
                "Missing false expression in conditional",
                "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
                colon.range,
            ));
            return (cond, diags);
        }
        self.read();
        let (false_range, false_diags) = self.parse_expression();
        let failed = !false_diags.is_empty();
        diags.extend(false_diags);
        if self.recovery && failed {
            return (cond, diags);
        }
        (between(start_range, false_range), diags)
    }

    /// parser `parseBinaryOps`, `level` indexing `binaryOps` (expression_ops.go) from the
    /// loosest binding.
    fn parse_binary_ops(&mut self, level: usize) -> (Range, Diags) {
        const LEVELS: [&[Tok]; 6] = [
            &[Tok::Or],
            &[Tok::And],
            &[Tok::EqualOp, Tok::NotEqual],
            &[
                Tok::GreaterThan,
                Tok::GreaterThanEq,
                Tok::LessThan,
                Tok::LessThanEq,
            ],
            &[Tok::Plus, Tok::Minus],
            &[Tok::Star, Tok::Slash, Tok::Percent],
        ];
        if level == LEVELS.len() {
            return self.parse_expression_with_traversals();
        }
        let (lhs, mut diags) = self.parse_binary_ops(level + 1);
        if self.recovery && !diags.is_empty() {
            return (lhs, diags);
        }
        let mut range = lhs;
        loop {
            let next = self.peek();
            if !LEVELS[level].contains(&next.ty) {
                break;
            }
            self.read();
            let (rhs, rhs_diags) = self.parse_binary_ops(level + 1);
            let failed = !rhs_diags.is_empty();
            diags.extend(rhs_diags);
            if self.recovery && failed {
                return (range, diags);
            }
            range = between(range, rhs);
        }
        (range, diags)
    }

    /// parser `parseExpressionWithTraversals`.
    fn parse_expression_with_traversals(&mut self) -> (Range, Diags) {
        let (term, mut diags) = self.parse_expression_term();
        let (range, more) = self.parse_expression_traversals(term);
        diags.extend(more);
        (range, diags)
    }

    /// parser `parseExpressionTraversals`.
    fn parse_expression_traversals(&mut self, from: Range) -> (Range, Diags) {
        let mut diags = Vec::new();
        let mut ret = from;
        loop {
            let next = self.peek();
            match next.ty {
                Tok::Dot => {
                    let dot = self.read();
                    let attr = self.peek();
                    match attr.ty {
                        Tok::Ident => {
                            let a = self.read();
                            ret = between(ret, between(dot.range, a.range));
                        }
                        Tok::NumberLit => {
                            let num = self.read();
                            let b = self.bytes(&num);
                            if let Some(i) = b.find('.') {
                                diags.push(err(
                                    "Invalid legacy index syntax",
                                    format!(
                                        "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [{}][{}].",
                                        &b[..i],
                                        &b[i + 1..]
                                    ),
                                    num.range,
                                ));
                            } else {
                                diags.extend(self.number_lit_value(&num));
                            }
                            ret = between(ret, between(dot.range, num.range));
                        }
                        Tok::Star => {
                            let marker = self.read();
                            let mut last = marker.range;
                            while self.peek().ty == Tok::Dot {
                                let dot = self.read();
                                if self.peek().ty == Tok::NumberLit {
                                    let num = self.read();
                                    let b = self.bytes(&num);
                                    if let Some(i) = b.find('.') {
                                        diags.push(err(
                                            "Invalid legacy index syntax",
                                            format!(
                                                "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [{}][{}].",
                                                &b[..i],
                                                &b[i + 1..]
                                            ),
                                            // Go reports the token after the first dot here.
                                            attr.range,
                                        ));
                                    } else {
                                        diags.extend(self.number_lit_value(&num));
                                    }
                                    last = num.range;
                                    continue;
                                }
                                if self.peek().ty != Tok::Ident {
                                    if !self.recovery {
                                        if self.peek().ty == Tok::Star {
                                            diags.push(err(
                                                "Nested splat expression not allowed",
                                                "A splat expression (*) cannot be used inside another attribute-only splat expression.",
                                                self.peek().range,
                                            ));
                                        } else {
                                            diags.push(err(
                                                "Invalid attribute name",
                                                "An attribute name is required after a dot.",
                                                attr.range,
                                            ));
                                        }
                                    }
                                    self.recovery = true;
                                    break;
                                }
                                let a = self.read();
                                last = a.range;
                                let _ = dot;
                            }
                            ret = between(from, last);
                        }
                        _ => {
                            diags.push(err(
                                "Invalid attribute name",
                                "An attribute name is required after a dot.",
                                attr.range,
                            ));
                            self.recovery = true;
                        }
                    }
                }
                Tok::OBrack => {
                    let open = self.read();
                    if self.peek().ty == Tok::Star {
                        self.read();
                        let mut close = self.read();
                        if close.ty != Tok::CBrack && !self.recovery {
                            close = self.recover(Tok::CBrack);
                            // Go's subject points at the variable `close`, which the recovery
                            // then overwrites: the error is where recovery stopped.
                            diags.push(err(
                                "Missing close bracket on splat index",
                                "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
                                close.range,
                            ));
                        }
                        if !self.enter() {
                            return (ret, diags);
                        }
                        let (each, nested) =
                            self.parse_expression_traversals(between(open.range, close.range));
                        self.leave();
                        diags.extend(nested);
                        ret = between(from, each);
                    } else {
                        self.push_newlines(false);
                        let (_, key_diags) = self.parse_expression();
                        let failed = !key_diags.is_empty();
                        diags.extend(key_diags);
                        let close = if self.recovery && failed {
                            self.recover(Tok::CBrack)
                        } else {
                            let mut close = self.read();
                            if close.ty != Tok::CBrack && !self.recovery {
                                // As for the splat above: where recovery stopped.
                                close = self.recover(Tok::CBrack);
                                diags.push(err(
                                    "Missing close bracket on index",
                                    "The index operator must end with a closing bracket (\"]\").",
                                    close.range,
                                ));
                            }
                            close
                        };
                        self.pop_newlines();
                        ret = between(ret, between(open.range, close.range));
                    }
                }
                _ => break,
            }
        }
        (ret, diags)
    }

    /// parser `parseExpressionTerm`.
    fn parse_expression_term(&mut self) -> (Range, Diags) {
        let start = self.peek();
        match start.ty {
            Tok::OParen => {
                self.read();
                self.push_newlines(false);
                let (_, mut diags) = self.parse_expression();
                if !diags.is_empty() {
                    self.recover(Tok::CParen);
                    self.pop_newlines();
                    return (start.range, diags);
                }
                let close = self.peek();
                if close.ty != Tok::CParen {
                    diags.push(err(
                        "Unbalanced parentheses",
                        "Expected a closing parenthesis to terminate the expression.",
                        close.range,
                    ));
                    self.recovery = true;
                }
                let c = self.read();
                self.pop_newlines();
                (between(start.range, c.range), diags)
            }
            Tok::NumberLit => {
                let t = self.read();
                (t.range, self.number_lit_value(&t))
            }
            Tok::Ident => {
                let t = self.read();
                let after = self.peek().ty;
                if after == Tok::OParen || after == Tok::DoubleColon {
                    return self.finish_parsing_function_call(t);
                }
                (t.range, Vec::new())
            }
            Tok::OQuote | Tok::OHeredoc => {
                let open = self.read();
                let closer = opposite_bracket(open.ty);
                let diags = self.parse_template_inner(closer);
                (between(open.range, self.prev_range()), diags)
            }
            Tok::Minus | Tok::Bang => {
                let t = self.read();
                if !self.enter() {
                    return (t.range, Vec::new());
                }
                let (operand, diags) = self.parse_expression_with_traversals();
                self.leave();
                (between(t.range, operand), diags)
            }
            Tok::OBrack => self.parse_tuple_cons(),
            Tok::OBrace => self.parse_object_cons(),
            _ => {
                let mut diags = Vec::new();
                if !self.recovery {
                    if start.ty == Tok::Eof {
                        diags.push(err(
                            "Missing expression",
                            "Expected the start of an expression, but found the end of the file.",
                            start.range,
                        ));
                    } else {
                        diags.push(err(
                            "Invalid expression",
                            "Expected the start of an expression, but found an invalid expression token.",
                            start.range,
                        ));
                    }
                }
                self.recovery = true;
                (start.range, diags)
            }
        }
    }

    /// parser `numberLitValue`: cty's `ParseNumberVal` (Go's `big.Float` in base 10) refuses a
    /// literal the scanner took whole, such as `1.2.3` or `1e2e3`.
    fn number_lit_value(&self, t: &Token) -> Diags {
        let s = self.bytes(t);
        let (mantissa, exponent) = match s.find(['e', 'E']) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        let exponent_ok = exponent.is_none_or(|e| {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) && digits.len() < 10
        });
        let mantissa_ok = mantissa.matches('.').count() <= 1
            && mantissa.bytes().all(|c| c.is_ascii_digit() || c == b'.');
        if mantissa_ok && exponent_ok {
            return Vec::new();
        }
        vec![err(
            "Invalid number literal",
            "Failed to recognize the value of this number literal.",
            t.range,
        )]
    }

    /// parser `finishParsingFunctionCall`.
    fn finish_parsing_function_call(&mut self, name: Token) -> (Range, Diags) {
        let mut diags = Vec::new();
        let mut open = self.read();
        while open.ty == Tok::DoubleColon {
            let next_name = self.read();
            if next_name.ty != Tok::Ident {
                diags.push(err(
                    "Missing function name",
                    "Function scope resolution symbol :: must be followed by a function name in this scope.",
                    next_name.range,
                ));
                self.recover_over(Tok::OParen);
                return (between(name.range, next_name.range), diags);
            }
            open = self.read();
        }
        if open.ty != Tok::OParen {
            diags.push(err(
                "Missing open parenthesis",
                "Function selector must be followed by an open parenthesis to begin the function call.",
                open.range,
            ));
            self.recover_over(Tok::OParen);
            return (between(name.range, open.range), diags);
        }
        let mut close = NO_TOKEN;
        self.push_newlines(false);
        loop {
            let tok = self.peek();
            if tok.ty == Tok::CParen {
                close = self.read();
                break;
            }
            let (_, arg_diags) = self.parse_expression();
            let failed = !arg_diags.is_empty();
            diags.extend(arg_diags);
            if self.recovery && failed {
                let t = self.recover(Tok::CParen);
                if t.ty == Tok::CParen {
                    close = t;
                }
                break;
            }
            let sep = self.read();
            if sep.ty == Tok::CParen {
                close = sep;
                break;
            }
            if sep.ty == Tok::Ellipsis {
                if self.peek().ty != Tok::CParen {
                    if !self.recovery {
                        diags.push(err(
                            "Missing closing parenthesis",
                            "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
                            sep.range,
                        ));
                    }
                    close = self.recover(Tok::CParen);
                } else {
                    close = self.read();
                }
                break;
            }
            if sep.ty != Tok::Comma {
                if sep.ty == Tok::Eof {
                    diags.push(err(
                        "Unterminated function call",
                        "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.",
                        between(name.range, open.range),
                    ));
                } else {
                    diags.push(err(
                        "Missing argument separator",
                        "A comma is required to separate each function argument from the next.",
                        sep.range,
                    ));
                }
                close = self.recover(Tok::CParen);
                break;
            }
            if self.peek().ty == Tok::CParen {
                close = self.read();
                break;
            }
        }
        self.pop_newlines();
        (between(name.range, close.range), diags)
    }

    /// parser `parseTupleCons`.
    fn parse_tuple_cons(&mut self) -> (Range, Diags) {
        let open = self.read();
        self.push_newlines(false);
        let r = self.parse_tuple_cons_inner(open);
        self.pop_newlines();
        r
    }

    fn is_keyword(&self, t: &Token, kw: &str) -> bool {
        t.ty == Tok::Ident && self.bytes(t) == kw
    }

    fn parse_tuple_cons_inner(&mut self, open: Token) -> (Range, Diags) {
        if self.is_keyword(&self.peek(), "for") {
            return self.finish_parsing_for_expr(open);
        }
        let mut diags = Vec::new();
        let close;
        loop {
            let next = self.peek();
            if next.ty == Tok::CBrack {
                close = self.read();
                break;
            }
            let (_, expr_diags) = self.parse_expression();
            let failed = !expr_diags.is_empty();
            diags.extend(expr_diags);
            if self.recovery && failed {
                close = self.recover(Tok::CBrack);
                break;
            }
            let next = self.peek();
            if next.ty == Tok::CBrack {
                close = self.read();
                break;
            }
            if next.ty != Tok::Comma {
                if !self.recovery {
                    if next.ty == Tok::Eof {
                        diags.push(err(
                            "Unterminated tuple constructor expression",
                            "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
                            open.range,
                        ));
                    } else {
                        diags.push(err(
                            "Missing item separator",
                            "Expected a comma to mark the beginning of the next item.",
                            next.range,
                        ));
                    }
                }
                close = self.recover(Tok::CBrack);
                break;
            }
            self.read();
        }
        (between(open.range, close.range), diags)
    }

    /// parser `parseObjectCons`.
    fn parse_object_cons(&mut self) -> (Range, Diags) {
        let open = self.read();
        self.push_newlines(false);
        let is_for = self.is_keyword(&self.peek(), "for");
        self.pop_newlines();
        if is_for {
            return self.finish_parsing_for_expr(open);
        }
        self.push_newlines(true);
        let r = self.parse_object_cons_inner(open);
        self.pop_newlines();
        r
    }

    fn parse_object_cons_inner(&mut self, open: Token) -> (Range, Diags) {
        let mut diags = Vec::new();
        let close;
        loop {
            let next = self.peek();
            if next.ty == Tok::Newline {
                self.read();
                continue;
            }
            if next.ty == Tok::CBrace {
                close = self.read();
                break;
            }
            let (_, key_diags) = self.parse_expression();
            let failed = !key_diags.is_empty();
            diags.extend(key_diags);
            if self.recovery && failed {
                close = self.recover(Tok::CBrace);
                break;
            }
            let next = self.peek();
            if next.ty != Tok::Equal && next.ty != Tok::Colon {
                if !self.recovery {
                    match next.ty {
                        Tok::Newline | Tok::Comma => diags.push(err(
                            "Missing attribute value",
                            "Expected an attribute value, introduced by an equals sign (\"=\").",
                            next.range,
                        )),
                        Tok::Ident => diags.push(err(
                            "Missing key/value separator",
                            "Expected an equals sign (\"=\") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.",
                            next.range,
                        )),
                        Tok::Eof => diags.push(err(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open.range,
                        )),
                        _ => diags.push(err(
                            "Missing key/value separator",
                            "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                            next.range,
                        )),
                    }
                }
                close = self.recover(Tok::CBrace);
                break;
            }
            self.read();
            let (_, value_diags) = self.parse_expression();
            let failed = !value_diags.is_empty();
            diags.extend(value_diags);
            if self.recovery && failed {
                close = self.recover(Tok::CBrace);
                break;
            }
            let next = self.peek();
            if next.ty == Tok::CBrace {
                close = self.read();
                break;
            }
            if next.ty != Tok::Comma && next.ty != Tok::Newline {
                if !self.recovery {
                    if next.ty == Tok::Eof {
                        diags.push(err(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open.range,
                        ));
                    } else {
                        diags.push(err(
                            "Missing attribute separator",
                            "Expected a newline or comma to mark the beginning of the next attribute.",
                            next.range,
                        ));
                    }
                }
                close = self.recover(Tok::CBrace);
                break;
            }
            self.read();
        }
        (between(open.range, close.range), diags)
    }

    /// parser `finishParsingForExpr`.
    fn finish_parsing_for_expr(&mut self, open: Token) -> (Range, Diags) {
        self.push_newlines(false);
        let r = self.finish_parsing_for_expr_inner(open);
        self.pop_newlines();
        r
    }

    fn for_error(
        &mut self,
        open: Token,
        close_ty: Tok,
        detail: &str,
        mut diags: Diags,
    ) -> (Range, Diags) {
        if !self.recovery {
            diags.push(err("Invalid 'for' expression", detail, self.peek().range));
        }
        let close = self.recover(close_ty);
        (between(open.range, close.range), diags)
    }

    fn finish_parsing_for_expr_inner(&mut self, open: Token) -> (Range, Diags) {
        self.read(); // "for"
        let make_obj = open.ty == Tok::OBrace;
        let close_ty = if make_obj { Tok::CBrace } else { Tok::CBrack };
        let mut diags = Vec::new();
        if self.peek().ty != Tok::Ident {
            return self.for_error(
                open,
                close_ty,
                "For expression requires variable name after 'for'.",
                diags,
            );
        }
        self.read();
        if self.peek().ty == Tok::Comma {
            self.read();
            if self.peek().ty != Tok::Ident {
                return self.for_error(
                    open,
                    close_ty,
                    "For expression requires value variable name after comma.",
                    diags,
                );
            }
            self.read();
        }
        if !self.is_keyword(&self.peek(), "in") {
            return self.for_error(
                open,
                close_ty,
                "For expression requires the 'in' keyword after its name declarations.",
                diags,
            );
        }
        self.read();
        let (_, coll_diags) = self.parse_expression();
        let failed = !coll_diags.is_empty();
        diags.extend(coll_diags);
        if self.recovery && failed {
            let close = self.recover(close_ty);
            return (between(open.range, close.range), diags);
        }
        if self.peek().ty != Tok::Colon {
            return self.for_error(
                open,
                close_ty,
                "For expression requires a colon after the collection expression.",
                diags,
            );
        }
        self.read();
        let (mut val_range, mut val_diags) = self.parse_expression();
        let mut key: Option<(Range, Diags)> = None;
        if self.peek().ty == Tok::FatArrow {
            self.read();
            key = Some((val_range, val_diags));
            (val_range, val_diags) = self.parse_expression();
        }
        let key_failed = key.as_ref().is_some_and(|(_, d)| !d.is_empty());
        let val_failed = !val_diags.is_empty();
        let key_range = key.as_ref().map(|(r, _)| *r);
        if let Some((_, d)) = key {
            diags.extend(d);
        }
        diags.extend(val_diags);
        if self.recovery && (key_failed || val_failed) {
            let close = self.recover(close_ty);
            return (between(open.range, close.range), diags);
        }
        let mut ellipsis = None;
        if self.peek().ty == Tok::Ellipsis {
            ellipsis = Some(self.read());
        }
        if self.is_keyword(&self.peek(), "if") {
            self.read();
            let (_, cond_diags) = self.parse_expression();
            let failed = !cond_diags.is_empty();
            diags.extend(cond_diags);
            if self.recovery && failed {
                let close = self.recover(close_ty);
                return (between(open.range, close.range), diags);
            }
        }
        let close = if self.peek().ty == close_ty {
            self.read()
        } else {
            if !self.recovery {
                diags.push(err(
                    "Invalid 'for' expression",
                    "Extra characters after the end of the 'for' expression.",
                    self.peek().range,
                ));
            }
            self.recover(close_ty)
        };
        if !make_obj {
            if let Some(k) = key_range {
                diags.push(err(
                    "Invalid 'for' expression",
                    "Key expression is not valid when building a tuple.",
                    k,
                ));
            }
            if let Some(e) = ellipsis {
                diags.push(err(
                    "Invalid 'for' expression",
                    "Grouping ellipsis (...) cannot be used when building a tuple.",
                    e.range,
                ));
            }
        } else if key_range.is_none() {
            diags.push(err(
                "Invalid 'for' expression",
                "Key expression is required when building an object.",
                val_range,
            ));
        }
        (between(open.range, close.range), diags)
    }

    /// parser `parseQuotedStringLiteral`: a block label.
    fn parse_quoted_string_literal(&mut self) -> (Range, Diags) {
        let o_quote = self.read();
        if o_quote.ty != Tok::OQuote {
            return (
                o_quote.range,
                vec![err(
                    "Invalid string literal",
                    "A quoted string is required here.",
                    o_quote.range,
                )],
            );
        }
        let mut diags = Vec::new();
        let end_range;
        loop {
            let tok = self.read();
            match tok.ty {
                Tok::CQuote => {
                    end_range = tok.range;
                    break;
                }
                Tok::QuotedLit => diags.extend(self.parse_string_literal_token(&tok, true)),
                Tok::TemplateControl | Tok::TemplateInterp => {
                    let which = if tok.ty == Tok::TemplateControl {
                        "%"
                    } else {
                        "$"
                    };
                    diags.push(err(
                        "Invalid string literal",
                        format!(
                            "Template sequences are not allowed in this string. To include a literal {}, double it (as \"{which}{which}\") to escape it.",
                            crate::strconv::go_quote(which)
                        ),
                        tok.range,
                    ));
                    self.recover(Tok::TemplateSeqEnd);
                }
                Tok::Eof => {
                    diags.push(err(
                        "Unterminated string literal",
                        "Unable to find the closing quote mark before the end of the file.",
                        tok.range,
                    ));
                    end_range = tok.range;
                    break;
                }
                _ => {
                    diags.push(err(
                        "Invalid string literal",
                        "This item is not valid in a string literal.",
                        tok.range,
                    ));
                    self.recover(Tok::CQuote);
                    end_range = tok.range;
                    break;
                }
            }
        }
        (between(o_quote.range, end_range), diags)
    }

    /// parser `recover`: on to the token after `end`, over nested pairs of the same bracket.
    pub(super) fn recover(&mut self, end: Tok) -> Token {
        let start = opposite_bracket(end);
        self.recovery = true;
        let mut nest = 0;
        loop {
            let tok = self.read();
            let mut ty = tok.ty;
            if end == Tok::TemplateSeqEnd && ty == Tok::TemplateControl {
                ty = Tok::TemplateInterp;
            }
            if ty == start && start != Tok::Nil {
                nest += 1;
            } else if ty == end {
                if nest < 1 {
                    return tok;
                }
                nest -= 1;
            } else if ty == Tok::Eof {
                return tok;
            }
        }
    }

    /// parser `recoverOver`.
    fn recover_over(&mut self, start: Tok) {
        let end = opposite_bracket(start);
        loop {
            let tok = self.read();
            if tok.ty == start || tok.ty == Tok::Eof {
                break;
            }
        }
        self.recover(end);
    }

    /// parser `recoverAfterBodyItem`.
    pub(super) fn recover_after_body_item(&mut self) {
        self.recovery = true;
        let mut open: Vec<Tok> = Vec::new();
        loop {
            let tok = self.read();
            match tok.ty {
                Tok::Newline if open.is_empty() => break,
                Tok::Eof => break,
                Tok::OBrace
                | Tok::OBrack
                | Tok::OParen
                | Tok::OQuote
                | Tok::OHeredoc
                | Tok::TemplateInterp
                | Tok::TemplateControl => open.push(tok.ty),
                Tok::CBrace | Tok::CBrack | Tok::CParen | Tok::CQuote | Tok::CHeredoc => {
                    let opener = opposite_bracket(tok.ty);
                    while open.last().is_some_and(|o| *o != opener) {
                        open.pop();
                    }
                    open.pop();
                }
                Tok::TemplateSeqEnd => {
                    while open
                        .last()
                        .is_some_and(|o| *o != Tok::TemplateInterp && *o != Tok::TemplateControl)
                    {
                        open.pop();
                    }
                    open.pop();
                }
                _ => {}
            }
        }
    }
}

/// What a body item turned out to be.
enum Item {
    /// An argument, with its name token.
    Attribute(Token),
    Block,
}

/// parser `oppositeBracket`.
pub(super) fn opposite_bracket(ty: Tok) -> Tok {
    match ty {
        Tok::OBrace => Tok::CBrace,
        Tok::OBrack => Tok::CBrack,
        Tok::OParen => Tok::CParen,
        Tok::OQuote => Tok::CQuote,
        Tok::OHeredoc => Tok::CHeredoc,
        Tok::CBrace => Tok::OBrace,
        Tok::CBrack => Tok::OBrack,
        Tok::CParen => Tok::OParen,
        Tok::CQuote => Tok::OQuote,
        Tok::CHeredoc => Tok::OHeredoc,
        Tok::TemplateControl | Tok::TemplateInterp => Tok::TemplateSeqEnd,
        Tok::TemplateSeqEnd => Tok::TemplateInterp,
        _ => Tok::Nil,
    }
}
