//! Reading a DOT document back (the inverse of [`super::render::dot`]): its vertices and edges, or
//! one diagnostic naming the file, line and column of the first problem.
//!
//! Parsing is graphviz-rust's (`graphviz_rust::parse`). Two things are added around it: a depth
//! limit checked before parsing (its parser and AST walk are recursive; 10,000 nested subgraphs
//! still parse on a native test thread, but wasm32's stack is far smaller and has no threads to
//! give it a bigger one, so over-deep input is refused up front), and turning its error text
//! (pest's ` --> line:col` report) into a positioned [`Diagnostic`].

use crate::diag::{Diagnostic, Pos, SourceRange};
use graphviz_rust::dot_structures::{EdgeTy, Graph, Id, Stmt, Vertex as DotVertex};
use std::collections::BTreeSet;

/// Deepest `{`/`[` nesting accepted; far beyond any graph tfgraph or OpenTofu writes.
pub const MAX_DOT_NESTING: usize = 100;

/// Most edges a DOT document may stand for. An edge statement between two subgraphs stands for
/// every pair of their vertices, so 43 KB of `x -> subgraph {…} -> subgraph {…} -> …` made 1.7
/// million edges and a few more KB tens of millions (found with the dot_import fuzz target: 9 s
/// and 800 MB, then out of memory). `tofu graph` output has a few edges per vertex; this leaves
/// room for 50,000-vertex graphs.
pub const MAX_DOT_EDGES: usize = 200_000;

/// Vertex names (sorted) and edges `(from, to)` in document order.
pub type DotGraph = (Vec<String>, Vec<(String, String)>);

/// Parses DOT text named `name`. Vertex names are the ids as written, without quotes.
// A diagnostic is the error type of every reader in the crate; boxing it would only add noise.
#[allow(clippy::result_large_err)]
pub fn parse_dot(name: &str, text: &str) -> Result<DotGraph, Diagnostic> {
    if let Some(byte) = too_deep(text) {
        return Err(Diagnostic::error(
            "Invalid DOT syntax",
            format!("Nesting is deeper than {MAX_DOT_NESTING} levels."),
            Some(range_at(name, text, byte)),
        ));
    }
    bound_parser_work(text);
    let graph = graphviz_rust::parse(text).map_err(|e| syntax_error(name, text, &e))?;
    let stmts = match &graph {
        Graph::Graph { stmts, .. } | Graph::DiGraph { stmts, .. } => stmts,
    };
    let mut vertices = BTreeSet::new();
    let mut edges = Vec::new();
    if collect(stmts, &mut vertices, &mut edges).is_err() {
        return Err(too_many_edges(name));
    }
    Ok((vertices.into_iter().collect(), edges))
}

/// Bounds the work of graphviz-rust's (pest) parser on `text`. A syntax error inside nested
/// subgraphs makes it backtrack through every alternative at every level, twice the work per
/// level: 1.9 KB of unclosed subgraphs took 11 s, 55 KB at depth 8 took 14 s (found by the
/// dot_import fuzz target). Valid documents take a few dozen rule calls per byte, so a budget
/// proportional to the length stops only the runaway cases, as a syntax error. pest's limit is
/// process-wide; every DOT reader sets it before parsing.
pub fn bound_parser_work(text: &str) {
    let calls = text.len().saturating_mul(200).max(1_000_000);
    pest::set_call_limit(std::num::NonZeroUsize::new(calls));
}

/// The byte offset where bracket nesting first exceeds [`MAX_DOT_NESTING`], skipping quoted
/// strings and comments.
fn too_deep(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 1;
            }
            b'{' | b'[' | b'<' => {
                depth += 1;
                if depth > MAX_DOT_NESTING {
                    return Some(i);
                }
            }
            b'}' | b']' | b'>' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The diagnostic for a document beyond [`MAX_DOT_EDGES`] (the parsed document keeps no positions,
/// so it names the file).
fn too_many_edges(name: &str) -> Diagnostic {
    Diagnostic::error(
        format!("{name}: Graph too large"),
        format!(
            "The DOT graph has more than {MAX_DOT_EDGES} edges (an edge between subgraphs stands for every pair of their vertices); tfgraph reads at most {MAX_DOT_EDGES}."
        ),
        None,
    )
}

/// Marks a document that stands for more than [`MAX_DOT_EDGES`] edges.
#[derive(Debug)]
struct TooManyEdges;

fn range_at(name: &str, text: &str, byte: usize) -> SourceRange {
    let byte = byte.min(text.len());
    let before = text.get(..byte).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = before
        .get(line_start..)
        .map(|s| s.chars().count())
        .unwrap_or(0)
        + 1;
    let pos = Pos { line, column, byte };
    SourceRange {
        file: name.to_string(),
        start: pos,
        end: pos,
    }
}

/// pest reports `--> L:C` then the offending line and what it expected; keep the position as a
/// range and the expectation as the detail.
fn syntax_error(name: &str, text: &str, message: &str) -> Diagnostic {
    let pos = message.lines().find_map(|l| {
        let rest = l.trim_start().strip_prefix("--> ")?;
        let (line, col) = rest.split_once(':')?;
        Some((
            line.trim().parse::<usize>().ok()?,
            col.trim().parse::<usize>().ok()?,
        ))
    });
    let expected = message
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("= "))
        .unwrap_or("the document is not DOT");
    // pest's own words for the work limit set by `bound_parser_work` say nothing to a user.
    let expected = if expected.contains("call limit reached") {
        "the parser gave up near here: a syntax error inside deeply nested subgraphs".to_string()
    } else {
        expected.to_string()
    };
    let range = pos.map(|(line, column)| {
        let byte = text
            .split_inclusive('\n')
            .take(line.saturating_sub(1))
            .map(str::len)
            .sum::<usize>()
            + column.saturating_sub(1);
        let p = Pos { line, column, byte };
        SourceRange {
            file: name.to_string(),
            start: p,
            end: p,
        }
    });
    let range = range.unwrap_or_else(|| range_at(name, text, 0));
    Diagnostic::error("Invalid DOT syntax", expected, Some(range))
}

fn id_text(id: &Id) -> String {
    match id {
        Id::Escaped(s) => s
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .unwrap_or(s)
            .to_string(),
        Id::Html(s) | Id::Plain(s) | Id::Anonymous(s) => s.clone(),
    }
}

/// The vertex names an edge end stands for (a subgraph stands for all of its nodes).
fn ends(
    v: &DotVertex,
    vertices: &mut BTreeSet<String>,
    edges: &mut Vec<(String, String)>,
) -> Result<Vec<String>, TooManyEdges> {
    match v {
        DotVertex::N(n) => {
            let name = id_text(&n.0);
            vertices.insert(name.clone());
            Ok(vec![name])
        }
        DotVertex::S(s) => {
            let mut inner = BTreeSet::new();
            collect(&s.stmts, &mut inner, edges)?;
            vertices.extend(inner.iter().cloned());
            Ok(inner.into_iter().collect())
        }
    }
}

fn collect(
    stmts: &[Stmt],
    vertices: &mut BTreeSet<String>,
    edges: &mut Vec<(String, String)>,
) -> Result<(), TooManyEdges> {
    for s in stmts {
        match s {
            Stmt::Node(n) => {
                vertices.insert(id_text(&n.id.0));
            }
            Stmt::Subgraph(g) => collect(&g.stmts, vertices, edges)?,
            Stmt::Edge(e) => {
                let chain: Vec<&DotVertex> = match &e.ty {
                    EdgeTy::Pair(a, b) => vec![a, b],
                    EdgeTy::Chain(c) => c.iter().collect(),
                };
                let groups = chain
                    .iter()
                    .map(|v| ends(v, vertices, edges))
                    .collect::<Result<Vec<_>, _>>()?;
                for pair in groups.windows(2) {
                    // Checked before the pairs are made.
                    let pairs = pair[0].len().saturating_mul(pair[1].len());
                    if edges.len().saturating_add(pairs) > MAX_DOT_EDGES {
                        return Err(TooManyEdges);
                    }
                    for a in &pair[0] {
                        for b in &pair[1] {
                            edges.push((a.clone(), b.clone()));
                        }
                    }
                }
            }
            Stmt::Attribute(_) | Stmt::GAttribute(_) => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_vertices_and_edges() {
        let (v, e) = parse_dot("g.dot", "digraph {\n  \"a\" -> \"b\" -> c\n  d\n}\n").unwrap();
        assert_eq!(v, ["a", "b", "c", "d"]);
        assert_eq!(e, [("a".into(), "b".into()), ("b".into(), "c".into())]);
    }

    #[test]
    fn syntax_error_has_a_position() {
        let d = parse_dot("g.dot", "digraph {\n  a -> \n}\n").unwrap_err();
        assert!(
            d.to_string().starts_with("g.dot:3,1: Invalid DOT syntax"),
            "{d}"
        );
    }
}
