//! A quick outline of one HCL file: the top-level blocks it declares, or the parse error with its
//! line and column. The app shows this beside the editor while the full configuration loader
//! (`config`) builds the graph; it is also the cheapest check that a file parses at all, with the
//! error HCL (and so OpenTofu) gives.

use hcl::edit::Span;
use hcl::edit::parser;
use serde::{Deserialize, Serialize};

/// One top-level block: `resource "aws_instance" "web"` at line 3.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockSummary {
    /// The block type: `resource`, `variable`, `module`, ...
    pub kind: String,
    /// The block's labels, in order.
    pub labels: Vec<String>,
    /// 1-based line of the block's first character.
    pub line: usize,
    /// 1-based column of the block's first character.
    pub column: usize,
}

impl BlockSummary {
    /// The block as a user would write its header, e.g. `resource "aws_instance" "web"`.
    pub fn header(&self) -> String {
        let mut s = self.kind.clone();
        for l in &self.labels {
            s.push_str(" \"");
            s.push_str(l);
            s.push('"');
        }
        s
    }

    /// The Terraform address this block declares, where it declares one (`aws_instance.web`,
    /// `data.aws_ami.ubuntu`, `var.region`, `module.vpc`, `output.id`, `provider.aws`).
    pub fn address(&self) -> Option<String> {
        let l = &self.labels;
        match (self.kind.as_str(), l.len()) {
            ("resource", 2) => Some(format!("{}.{}", l[0], l[1])),
            ("data", 2) => Some(format!("data.{}.{}", l[0], l[1])),
            ("ephemeral", 2) => Some(format!("ephemeral.{}.{}", l[0], l[1])),
            ("variable", 1) => Some(format!("var.{}", l[0])),
            ("output", 1) => Some(format!("output.{}", l[0])),
            ("module", 1) => Some(format!("module.{}", l[0])),
            ("provider", 1) => Some(format!("provider.{}", l[0])),
            ("check", 1) => Some(format!("check.{}", l[0])),
            _ => None,
        }
    }
}

/// A parse error at a position in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What the parser expected or found.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// Parses `text` as HCL and lists its top-level blocks in source order. A syntax error is the one
/// OpenTofu prints first, in HCL's words at HCL's position (`crate::hclsyntax`), or hcl-edit's
/// where HCL's parser gives up (nesting deeper than it follows).
pub fn outline(text: &str) -> Result<Vec<BlockSummary>, ParseError> {
    let lines = LineIndex::new(text);
    let hcl_error = || {
        crate::hclsyntax::first_error(text, "").map(|e| {
            let (line, column) = lines.position(e.range.0);
            ParseError {
                line,
                column,
                message: format!("{}: {}", e.summary, e.detail),
            }
        })
    };
    let body = match parser::parse_body(text) {
        Ok(body) => body,
        Err(e) => {
            return Err(hcl_error().unwrap_or_else(|| ParseError {
                line: e.location().line(),
                column: e.location().column(),
                message: e.message().to_string(),
            }));
        }
    };
    if let Some(e) = hcl_error() {
        return Err(e);
    }
    Ok(body
        .blocks()
        .map(|b| {
            let (line, column) = b.span().map(|s| lines.position(s.start)).unwrap_or((0, 0));
            BlockSummary {
                kind: b.ident.as_str().to_string(),
                labels: b.labels.iter().map(|l| l.as_str().to_string()).collect(),
                line,
                column,
            }
        })
        .collect())
}

/// Maps byte offsets to 1-based (line, column), columns counted in characters as editors do.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    /// 1-based line and column of byte `offset` (clamped to the text).
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let col = self
            .text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(offset - start);
        (line + 1, col + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_blocks_in_order_with_positions() {
        let text = "variable \"region\" {}\n\nresource \"aws_instance\" \"web\" {\n  ami = \"x\"\n}\n  data \"aws_ami\" \"u\" {}\n";
        let blocks = outline(text).expect("parses");
        let got: Vec<(String, usize, usize)> = blocks
            .iter()
            .map(|b| (b.header(), b.line, b.column))
            .collect();
        assert_eq!(
            got,
            vec![
                ("variable \"region\"".to_string(), 1, 1),
                ("resource \"aws_instance\" \"web\"".to_string(), 3, 1),
                ("data \"aws_ami\" \"u\"".to_string(), 6, 3),
            ]
        );
        assert_eq!(blocks[1].address().as_deref(), Some("aws_instance.web"));
        assert_eq!(blocks[2].address().as_deref(), Some("data.aws_ami.u"));
        assert_eq!(blocks[0].address().as_deref(), Some("var.region"));
    }

    #[test]
    fn reports_parse_error_line_and_column() {
        let text = "resource \"a\" \"b\" {\n  x = \n}\n";
        let err = outline(text).expect_err("must not parse");
        // The expression is missing where the line ends: HCL's bad token is the newline, at
        // line 2, column 7.
        assert_eq!((err.line, err.column), (2, 7), "{err:?}");
        assert!(err.message.starts_with("Invalid expression: "), "{err:?}");
    }

    #[test]
    fn unterminated_block_is_an_error_at_its_opening_brace() {
        let err = outline("resource \"a\" \"b\" {\n  x = 1\n\nresource \"c\" \"d\" {\n}\n")
            .expect_err("unterminated");
        assert_eq!((err.line, err.column), (1, 18), "{err:?}");
        assert!(err.message.starts_with("Unclosed configuration block: "));
    }

    #[test]
    fn line_index_counts_characters_not_bytes() {
        let idx = LineIndex::new("é = 1\nab");
        assert_eq!(idx.position(0), (1, 1));
        assert_eq!(idx.position(2), (1, 2)); // after the two-byte 'é'
        assert_eq!(idx.position(8), (2, 2)); // "é = 1\n" is 7 bytes
        assert_eq!(idx.position(999), (2, 3));
    }
}
