//! Reading a DOT document back (the inverse of [`super::render::dot`]): its vertices and edges, or
//! one diagnostic naming the file, line and column of the first problem.
//!
//! Parsing is graphviz-rust's (`graphviz_rust::parse`). Two things are added around it: a depth
//! limit checked before parsing (its parser and AST walk are recursive; 10,000 nested subgraphs
//! still parse on a native test thread, but wasm32's stack is far smaller and has no threads to
//! give it a bigger one, so over-deep input is refused up front), and turning its error text
//! (pest's ` --> line:col` report) into a positioned [`Diagnostic`].

use crate::diag::{Diagnostic, Pos, SourceRange};
use crate::kind::{Mode, ProviderRole, ResourceRole, Typed, VariableRole, VertexKind};
use graphviz_rust::dot_structures::{
    Attribute, EdgeTy, Graph, Id, Stmt, Subgraph, Vertex as DotVertex,
};
use std::collections::{BTreeSet, HashMap};

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

/// One vertex of a DOT document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DotVertexRead {
    /// Its id as text: quotes removed, `\"` and `\\` unescaped (the only escapes `tofu graph`
    /// writes), and the `[root] ` prefix of older `terraform graph` output dropped, so names read
    /// as OpenTofu's.
    pub name: String,
    /// Its `label` attribute, if any (`\n` as a line break).
    pub label: Option<String>,
    /// The `cluster*` subgraphs it is first mentioned in, outermost first, each by its label (or
    /// its id without the `cluster` prefix).
    pub cluster: Vec<String>,
    /// Its kind and module, derived from its name by [`typed_from_name`] as it is read.
    pub typed: Typed,
}

/// A DOT document as read: vertices in the order first mentioned, edges `(from, to)` as indexes
/// in document order (an edge to or from a subgraph stands for each of its vertices; duplicates
/// and self-loops are kept as written).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DotDocument {
    pub vertices: Vec<DotVertexRead>,
    pub edges: Vec<(usize, usize)>,
}

impl DotVertexRead {
    /// A vertex known by the name `name` alone, as a DOT file would give it (tests of what walks
    /// or draws a graph of names).
    pub fn named(name: &str) -> DotVertexRead {
        DotVertexRead {
            name: name.to_string(),
            label: None,
            cluster: Vec::new(),
            typed: typed_from_name(name),
        }
    }
}

impl super::Vertex for DotVertexRead {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn typed(&self) -> Typed {
        self.typed.clone()
    }
}

impl DotDocument {
    /// The vertices' names, in document order.
    pub fn vertex_names(&self) -> Vec<String> {
        self.vertices.iter().map(|v| v.name.clone()).collect()
    }
}

/// Reads DOT text named `name`: the one DOT reader of the CLI, the layout and the app. Errors
/// name the file, line and column of the first problem.
// A diagnostic is the error type of every reader in the crate; boxing it would only add noise.
#[allow(clippy::result_large_err)]
pub fn read_dot(name: &str, text: &str) -> Result<DotDocument, Diagnostic> {
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
    let mut c = Collect::default();
    c.stmts(stmts, &[], &mut Vec::new());
    if c.too_many_edges {
        return Err(too_many_edges(name));
    }
    Ok(c.doc)
}

/// Parses DOT text named `name` ([`read_dot`]): vertex names sorted, edges by name.
#[allow(clippy::result_large_err)]
pub fn parse_dot(name: &str, text: &str) -> Result<DotGraph, Diagnostic> {
    let doc = read_dot(name, text)?;
    let edges = doc
        .edges
        .iter()
        .map(|&(a, b)| (doc.vertices[a].name.clone(), doc.vertices[b].name.clone()))
        .collect();
    let names: BTreeSet<String> = doc.vertices.into_iter().map(|v| v.name).collect();
    Ok((names.into_iter().collect(), edges))
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
        file: name.into(),
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
            file: name.into(),
            start: p,
            end: p,
        }
    });
    let range = range.unwrap_or_else(|| range_at(name, text, 0));
    Diagnostic::error("Invalid DOT syntax", expected, Some(range))
}

/// The text of a DOT id: quotes removed and `\"`, `\\` unescaped.
fn id_text(id: &Id) -> String {
    match id {
        Id::Escaped(s) => {
            let inner = s
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .unwrap_or(s);
            let mut out = String::with_capacity(inner.len());
            let mut chars = inner.chars();
            while let Some(c) = chars.next() {
                match (c, chars.clone().next()) {
                    ('\\', Some(next @ ('"' | '\\'))) => {
                        out.push(next);
                        chars.next();
                    }
                    _ => out.push(c),
                }
            }
            out
        }
        Id::Html(s) | Id::Plain(s) | Id::Anonymous(s) => s.clone(),
    }
}

/// A vertex id as a name (see [`DotVertexRead::name`]).
fn vertex_name(id: &Id) -> String {
    let t = id_text(id);
    match t.strip_prefix("[root] ") {
        Some(rest) => rest.to_string(),
        None => t,
    }
}

fn label_of(attrs: &[Attribute]) -> Option<String> {
    attrs
        .iter()
        .find(|a| id_text(&a.0) == "label")
        .map(|a| id_text(&a.1).replace("\\n", "\n"))
}

/// The kind and module of a vertex known only by its OpenTofu name (`module.net.aws_vpc.this
/// (expand)`, `provider["registry.opentofu.org/hashicorp/aws"] (close)`, `var.region`): the one
/// place a vertex name is read for what it names. Only graphs that come as names alone (a
/// `terraform graph` DOT file) need it; a built graph's vertices tell their kind
/// (`builder::Node::typed`). A name that names no OpenTofu object is
/// [`VertexKind::Other`]. Hand-written: the names are OpenTofu's vertex names, not HCL, and
/// `addrs`' parsers know no vertex suffixes.
pub fn typed_from_name(name: &str) -> Typed {
    let name = name.trim();
    if name == "root" {
        return Typed::new(VertexKind::Root, Vec::new());
    }
    if name == "(execute checks)" {
        return Typed::new(VertexKind::CheckStart, Vec::new());
    }
    // The suffix in parentheses (`expand`, `destroy deposed 00000001`, …), if any.
    let (addr, suffix) = match name
        .strip_suffix(')')
        .and_then(|n| n.rfind(" (").map(|i| (i, n)))
    {
        Some((i, n)) => (&name[..i], &n[i + 2..]),
        None => (name, ""),
    };
    let (mut module, rest) = module_steps(addr);
    let kind = match rest {
        // The module's own vertex: `module.a.module.b (expand)`.
        None => {
            if module.is_empty() {
                return Typed::default();
            }
            match suffix {
                "close" => VertexKind::ModuleClose,
                _ => VertexKind::ModuleExpand,
            }
        }
        Some(rest) => {
            let kind = kind_in_module(rest, suffix);
            if kind == VertexKind::Other {
                module.clear();
            }
            kind
        }
    };
    Typed::new(kind, module)
}

/// Splits the leading `module.NAME[KEY].` steps off an address: the steps (`NAME[KEY]`) and what
/// follows them, `None` when the address is a module call itself (`module.a.module.b`).
fn module_steps(addr: &str) -> (Vec<String>, Option<&str>) {
    let mut steps = Vec::new();
    let mut rest = addr;
    while let Some(after) = rest.strip_prefix("module.") {
        let name_end = after.find(['.', '[']).unwrap_or(after.len());
        let mut end = name_end;
        if after[end..].starts_with('[') {
            match key_end(&after[end..]) {
                Some(n) => end += n,
                None => break,
            }
        }
        let step = &after[..end];
        if step.is_empty() {
            break;
        }
        match after[end..].strip_prefix('.') {
            Some(next) => {
                steps.push(step.to_string());
                rest = next;
            }
            None if end == after.len() => {
                steps.push(step.to_string());
                return (steps, None);
            }
            None => break,
        }
    }
    (steps, Some(rest))
}

/// The length of an instance key at the start of `s` (`[0]`, `["a.b"]` with Go's escapes).
fn key_end(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.get(1) == Some(&b'"') {
        let mut i = 2;
        while i < b.len() {
            match b[i] {
                b'\\' => i += 2,
                b'"' => return (b.get(i + 1) == Some(&b']')).then_some(i + 2),
                _ => i += 1,
            }
        }
        None
    } else {
        s.find(']').map(|i| i + 1)
    }
}

/// The kind of the vertex `rest (suffix)` inside a module.
fn kind_in_module(rest: &str, suffix: &str) -> VertexKind {
    if rest.starts_with("provider[") || rest.starts_with("provider.") {
        return VertexKind::Provider(match suffix {
            "close" => ProviderRole::Close,
            "proxy" => ProviderRole::Proxy,
            _ => ProviderRole::Config,
        });
    }
    let mut parts = rest.splitn(3, '.');
    let first = parts.next().unwrap_or("");
    let (second, third) = (parts.next(), parts.next());
    match (first, second, third) {
        ("var", Some(_), None) => VertexKind::Variable(match suffix {
            "expand, input" => VariableRole::Input,
            "" => VariableRole::Root,
            _ => VariableRole::Reference,
        }),
        ("local", Some(n), None) => VertexKind::Local {
            name: n.to_string(),
        },
        ("output", Some(_), None) if suffix == "destroy" => VertexKind::OutputDestroy,
        ("output", Some(n), None) => VertexKind::Output {
            name: n.to_string(),
        },
        ("check", Some(_), None) if suffix == "report" => VertexKind::CheckReport,
        ("check", Some(_), None) => VertexKind::CheckExpand,
        ("data", Some(t), Some(n)) => resource(Mode::Data, t, n, suffix),
        ("ephemeral", Some(t), Some(n)) => resource(Mode::Ephemeral, t, n, suffix),
        (
            "var" | "local" | "output" | "check" | "data" | "ephemeral" | "meta" | "terraform"
            | "path" | "count" | "each" | "self" | "module" | "",
            _,
            _,
        ) => VertexKind::Other,
        (t, Some(n), None) => resource(Mode::Managed, t, n, suffix),
        _ => VertexKind::Other,
    }
}

/// A resource vertex of `mode`, `type_name` and `name` (an instance key dropped), its role from
/// the name's suffix.
fn resource(mode: Mode, type_name: &str, name: &str, suffix: &str) -> VertexKind {
    let role = match suffix {
        "expand" => ResourceRole::Expand,
        "destroy" => ResourceRole::Destroy,
        "orphan" => ResourceRole::Orphan,
        "forget" => ResourceRole::Forget,
        "close" => ResourceRole::Close,
        s if s.starts_with("destroy deposed ") => ResourceRole::DestroyDeposed,
        s if s.starts_with("forget deposed ") => ResourceRole::ForgetDeposed,
        s if s.starts_with("deposed ") => ResourceRole::Deposed,
        _ => ResourceRole::Instance,
    };
    let name = name.split('[').next().unwrap_or(name);
    VertexKind::resource(mode, type_name, name, role)
}

#[derive(Default)]
struct Collect {
    index: HashMap<String, usize>,
    doc: DotDocument,
    /// Set once the edges would pass [`MAX_DOT_EDGES`]; reading stops.
    too_many_edges: bool,
}

impl Collect {
    /// The vertex `name`; the first cluster it is mentioned in is its cluster.
    fn vertex(&mut self, name: String, path: &[String]) -> usize {
        if let Some(&i) = self.index.get(&name) {
            return i;
        }
        let i = self.doc.vertices.len();
        self.index.insert(name.clone(), i);
        self.doc.vertices.push(DotVertexRead {
            typed: typed_from_name(&name),
            name,
            label: None,
            cluster: path.to_vec(),
        });
        i
    }

    /// The vertices an edge end names (a subgraph end stands for all its vertices).
    fn ends(&mut self, v: &DotVertex, path: &[String]) -> Vec<usize> {
        match v {
            DotVertex::N(n) => vec![self.vertex(vertex_name(&n.0), path)],
            DotVertex::S(s) => {
                let mut mentioned = Vec::new();
                self.subgraph(s, path, &mut mentioned);
                mentioned
            }
        }
    }

    fn stmts(&mut self, stmts: &[Stmt], path: &[String], mentioned: &mut Vec<usize>) {
        for st in stmts {
            if self.too_many_edges {
                return;
            }
            match st {
                Stmt::Node(n) => {
                    let i = self.vertex(vertex_name(&n.id.0), path);
                    if let Some(l) = label_of(&n.attributes) {
                        self.doc.vertices[i].label = Some(l);
                    }
                    mentioned.push(i);
                }
                Stmt::Edge(e) => {
                    let chain: Vec<&DotVertex> = match &e.ty {
                        EdgeTy::Pair(a, b) => vec![a, b],
                        EdgeTy::Chain(c) => c.iter().collect(),
                    };
                    let ends: Vec<Vec<usize>> = chain.iter().map(|v| self.ends(v, path)).collect();
                    for w in ends.windows(2) {
                        // Checked before the pairs are made.
                        let pairs = w[0].len().saturating_mul(w[1].len());
                        if self.doc.edges.len().saturating_add(pairs) > MAX_DOT_EDGES {
                            self.too_many_edges = true;
                            return;
                        }
                        for &a in &w[0] {
                            for &b in &w[1] {
                                self.doc.edges.push((a, b));
                            }
                        }
                    }
                    mentioned.extend(ends.into_iter().flatten());
                }
                Stmt::Subgraph(s) => self.subgraph(s, path, mentioned),
                Stmt::Attribute(_) | Stmt::GAttribute(_) => {}
            }
        }
    }

    fn subgraph(&mut self, s: &Subgraph, path: &[String], mentioned: &mut Vec<usize>) {
        let id = id_text(&s.id);
        let mut inner = path.to_vec();
        if id.starts_with("cluster") {
            // The cluster's label if it has one, otherwise its id without the prefix.
            let label = s
                .stmts
                .iter()
                .find_map(|st| match st {
                    Stmt::Attribute(a) if id_text(&a.0) == "label" => Some(id_text(&a.1)),
                    _ => None,
                })
                .filter(|l| !l.is_empty())
                .unwrap_or_else(|| {
                    id.trim_start_matches("cluster")
                        .trim_start_matches('_')
                        .to_string()
                });
            inner.push(label);
        }
        self.stmts(&s.stmts, &inner, mentioned);
    }
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
    fn escapes_labels_clusters_and_root_prefixes_are_read_once_for_everyone() {
        let doc = read_dot(
            "g.dot",
            "digraph {\n  \"[root] a\\\"b\" [label = \"A\\nB\"];\n  subgraph cluster_m {\n    label = \"module.m\";\n    \"x\\\\y\"; subgraph cluster_n { c }\n  }\n  \"[root] a\\\"b\" -> \"x\\\\y\" -> c;\n  c -> c\n}\n",
        )
        .unwrap();
        let names = doc.vertex_names();
        assert_eq!(names, ["a\"b", "x\\y", "c"]);
        assert_eq!(doc.vertices[0].label.as_deref(), Some("A\nB"));
        assert_eq!(doc.vertices[1].cluster, ["module.m"]);
        assert_eq!(doc.vertices[2].cluster, ["module.m", "n"]);
        assert_eq!(doc.edges, [(0, 1), (1, 2), (2, 2)]);
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
