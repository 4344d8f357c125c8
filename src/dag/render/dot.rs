//! DOT output, byte for byte what OpenTofu's `Graph.Dot` (`internal/dag/dot.go`, `marshal.go`)
//! prints, which is what `tofu graph` shows.
//!
//! The document is built as a graphviz-rust (`dot_structures`) AST by [`ast`]. It is printed by the
//! small printer at the bottom of this file, not by `graphviz_rust::printer`: that printer writes
//! `a[k=v]`, indents with spaces and has no way to print OpenTofu's `k = "v"` attribute spacing,
//! tab indentation and the `digraph {` header of an anonymous graph, so its output could never
//! equal OpenTofu's.
//!
//! OpenTofu's layout: a `digraph` with `compound`/`newrank` attributes, the top-level graph as
//! `subgraph "root"`, then every nested graph (a vertex's [`Vertex::subgraph`]) as a sibling
//! `subgraph` (named `cluster_<name>` and labelled when a module depth is given), down to
//! `max_depth` levels. Inside each: graph attributes, one line per drawable vertex sorted by name,
//! then every edge and (with `draw_cycles`) every cycle edge in red, all sorted as text.

use crate::dag::graph::NameOrder;
/// What a vertex tells the renderer (Go's `DotOpts`, `DotNode`) is defined with [`Vertex`];
/// re-exported here beside the renderer that reads it.
pub use crate::dag::graph::{DotNode, DotOpts, DotVertex};
/// Reading DOT back lives in `dag::import`; re-exported here beside the writer.
pub use crate::dag::import::parse_dot;
use crate::dag::{Graph, Vertex, VertexId};
use crate::strconv::go_quote;
use graphviz_rust::dot_structures::{
    Attribute, Edge, EdgeTy, Graph as DotGraph, Id, Node, NodeId, Stmt, Subgraph, Vertex as DotEnd,
};
use std::collections::BTreeMap;

/// Renders `g` as OpenTofu does.
pub fn render<V: Vertex>(g: &Graph<V>, opts: &DotOpts) -> String {
    print(&ast(g, opts))
}

/// [`render`] with `decorate` changing each drawn vertex's node before it is printed (the CLI's
/// `--actions` adds the planned action to the label). Vertices that draw no node line stay
/// undrawn, so only node lines can differ from [`render`]'s text.
pub fn render_decorated<V: Vertex>(
    g: &Graph<V>,
    opts: &DotOpts,
    decorate: &dyn Fn(&V, &mut DotNode),
) -> String {
    print(&ast_decorated(g, opts, decorate))
}

/// The DOT document as a graphviz-rust AST. Ids and attribute values hold their final quoted text.
pub fn ast<V: Vertex>(g: &Graph<V>, opts: &DotOpts) -> DotGraph {
    ast_decorated(g, opts, &|_, _| {})
}

fn ast_decorated<V: Vertex>(
    g: &Graph<V>,
    opts: &DotOpts,
    deco: &dyn Fn(&V, &mut DotNode),
) -> DotGraph {
    let mut stmts = vec![
        Stmt::Attribute(attr("compound", "true")),
        Stmt::Attribute(attr("newrank", "true")),
    ];
    stmts.push(Stmt::Subgraph(Subgraph {
        id: quoted("root"),
        stmts: body(g, None, opts, &BTreeMap::new(), deco),
    }));
    // Go: "cluster" naming is used whenever a depth was given; depth 0 means unlimited.
    let cluster = opts.max_depth != 0;
    let depth = if opts.max_depth == 0 {
        -1
    } else {
        opts.max_depth
    };
    for (name, sg) in subgraphs(g) {
        write_subgraph(&mut stmts, &name, sg, opts, (cluster, depth), deco);
    }
    DotGraph::DiGraph {
        id: Id::Anonymous(String::new()),
        strict: false,
        stmts,
    }
}

fn subgraphs<V: Vertex>(g: &Graph<V>) -> Vec<(String, &Graph<V>)> {
    // The vertices with a subgraph, by name (ties by id, as `ids_by_name`): most graphs have
    // none, so no vertex is named for nothing.
    let mut named: Vec<(String, VertexId, &Graph<V>)> = g
        .iter()
        .filter_map(|(id, v)| v.subgraph().map(|sg| (v.name(), id, sg)))
        .collect();
    named.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    named.into_iter().map(|(name, _, sg)| (name, sg)).collect()
}

fn write_subgraph<V: Vertex>(
    out: &mut Vec<Stmt>,
    name: &str,
    g: &Graph<V>,
    opts: &DotOpts,
    (cluster, depth): (bool, i64),
    deco: &dyn Fn(&V, &mut DotNode),
) {
    if depth == 0 {
        return;
    }
    let depth = depth - 1;
    let mut attrs = BTreeMap::new();
    let id = if cluster {
        attrs.insert("label".to_string(), name.to_string());
        format!("cluster_{name}")
    } else {
        name.to_string()
    };
    out.push(Stmt::Subgraph(Subgraph {
        id: quoted(&id),
        stmts: body(g, Some(name), opts, &attrs, deco),
    }));
    for (sub_name, sg) in subgraphs(g) {
        write_subgraph(out, &sub_name, sg, opts, (cluster, depth), deco);
    }
}

/// Go's `strconv.Quote` without the quotes: marshalled vertex names are stored this way.
fn escaped_name<V: Vertex>(v: &V) -> String {
    let q = go_quote(&v.name());
    q[1..q.len() - 1].to_string()
}

fn body<V: Vertex>(
    g: &Graph<V>,
    graph_name: Option<&str>,
    opts: &DotOpts,
    graph_attrs: &BTreeMap<String, String>,
    deco: &dyn Fn(&V, &mut DotNode),
) -> Vec<Stmt> {
    let gname = graph_name.unwrap_or("root");
    let endpoint = |name: &str| NodeId(Id::Escaped(format!("\"[{gname}] {name}\"")), None);
    let mut stmts: Vec<Stmt> = sorted_attrs(graph_attrs)
        .into_iter()
        .map(Stmt::Attribute)
        .collect();

    let names: BTreeMap<VertexId, String> = g.iter().map(|(id, v)| (id, escaped_name(v))).collect();
    let mut by_name: Vec<(&String, VertexId)> = names.iter().map(|(id, n)| (n, *id)).collect();
    by_name.sort();

    let mut drawable: BTreeMap<VertexId, bool> = BTreeMap::new();
    for (name, id) in by_name {
        let Some(v) = g.vertex(id) else { continue };
        match v.dot_node(name, opts) {
            DotVertex::NotDrawable => {
                drawable.insert(id, false);
            }
            DotVertex::Hidden => {
                drawable.insert(id, true);
            }
            DotVertex::Node(mut node) => {
                deco(v, &mut node);
                drawable.insert(id, true);
                stmts.push(Stmt::Node(Node::new(
                    endpoint(&node.name),
                    sorted_attrs(&node.attrs),
                )));
            }
        }
    }

    let edge = |from: VertexId, to: VertexId, attributes: Vec<Attribute>| {
        let n = |id: VertexId| names.get(&id).cloned().unwrap_or_default();
        Edge {
            ty: EdgeTy::Pair(DotEnd::N(endpoint(&n(from))), DotEnd::N(endpoint(&n(to)))),
            attributes,
        }
    };
    let mut edges: Vec<Edge> = Vec::new();
    if opts.draw_cycles {
        // Consecutive members of each cycle as Tarjan lists them, wrapping around. (The pairs run
        // against the real edges' direction; OpenTofu draws them that way.)
        for cycle in g.cycles() {
            for (i, src) in cycle.iter().enumerate() {
                let tgt = cycle[(i + 1) % cycle.len()];
                let shown = |id: &VertexId| drawable.get(id).copied().unwrap_or(false);
                if !shown(src) || !shown(&tgt) {
                    continue;
                }
                edges.push(edge(
                    *src,
                    tgt,
                    vec![attr("color", "red"), attr("penwidth", "2.0")],
                ));
            }
        }
    }
    let (order, _) = NameOrder::new(g);
    let mut ids = g.ids().collect::<Vec<_>>();
    order.sort(&mut ids);
    for from in ids {
        for to in order.sorted(g.dependencies(from)) {
            edges.push(edge(from, to, Vec::new()));
        }
    }
    // OpenTofu sorts the edge lines as text.
    let mut lines: Vec<(String, Edge)> = edges
        .into_iter()
        .map(|e| {
            let mut s = String::new();
            print_stmt(&mut s, &Stmt::Edge(e.clone()), 0);
            (s, e)
        })
        .collect();
    lines.sort_by(|a, b| a.0.cmp(&b.0));
    stmts.extend(lines.into_iter().map(|(_, e)| Stmt::Edge(e)));
    stmts
}

fn quoted(s: &str) -> Id {
    Id::Escaped(go_quote(s))
}

fn attr(k: &str, v: &str) -> Attribute {
    Attribute(Id::Plain(k.to_string()), quoted(v))
}

/// Attributes in OpenTofu's order: sorted by their `k = "v"` text.
fn sorted_attrs(attrs: &BTreeMap<String, String>) -> Vec<Attribute> {
    let mut v: Vec<(String, Attribute)> = attrs
        .iter()
        .map(|(k, val)| (format!("{k} = {}", go_quote(val)), attr(k, val)))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v.into_iter().map(|(_, a)| a).collect()
}

// ---- printer -------------------------------------------------------------------------------

/// Prints the AST in OpenTofu's layout: tab indentation, `k = v` attributes, ` [a = x, b = y]`
/// attribute lists, one statement per line, ids verbatim.
pub fn print(g: &DotGraph) -> String {
    let (kw, id, strict, stmts) = match g {
        DotGraph::Graph { id, strict, stmts } => ("graph", id, *strict, stmts),
        DotGraph::DiGraph { id, strict, stmts } => ("digraph", id, *strict, stmts),
    };
    let mut out = String::new();
    if strict {
        out.push_str("strict ");
    }
    out.push_str(kw);
    if let Some(id) = print_id(id) {
        out.push(' ');
        out.push_str(&id);
    }
    out.push_str(" {\n");
    let arrow = if kw == "digraph" { "->" } else { "--" };
    for s in stmts {
        print_stmt_with(&mut out, s, 1, arrow);
    }
    out.push_str("}\n");
    out
}

fn print_id(id: &Id) -> Option<String> {
    match id {
        Id::Html(s) | Id::Escaped(s) | Id::Plain(s) => Some(s.clone()),
        Id::Anonymous(_) => None,
    }
}

fn print_attrs(out: &mut String, attrs: &[Attribute]) {
    if attrs.is_empty() {
        return;
    }
    let parts: Vec<String> = attrs.iter().map(print_attr).collect();
    out.push_str(" [");
    out.push_str(&parts.join(", "));
    out.push(']');
}

fn print_attr(a: &Attribute) -> String {
    format!(
        "{} = {}",
        print_id(&a.0).unwrap_or_default(),
        print_id(&a.1).unwrap_or_default()
    )
}

fn print_end(v: &DotEnd) -> String {
    match v {
        DotEnd::N(NodeId(id, _)) => print_id(id).unwrap_or_default(),
        DotEnd::S(sg) => print_id(&sg.id).unwrap_or_default(),
    }
}

fn print_stmt(out: &mut String, s: &Stmt, level: usize) {
    print_stmt_with(out, s, level, "->")
}

fn print_stmt_with(out: &mut String, s: &Stmt, level: usize, arrow: &str) {
    let indent = "\t".repeat(level);
    out.push_str(&indent);
    match s {
        Stmt::Attribute(a) => out.push_str(&print_attr(a)),
        Stmt::GAttribute(ga) => {
            let (kw, attrs) = match ga {
                graphviz_rust::dot_structures::GraphAttributes::Graph(a) => ("graph", a),
                graphviz_rust::dot_structures::GraphAttributes::Node(a) => ("node", a),
                graphviz_rust::dot_structures::GraphAttributes::Edge(a) => ("edge", a),
            };
            out.push_str(kw);
            print_attrs(out, attrs);
        }
        Stmt::Node(n) => {
            out.push_str(&print_id(&n.id.0).unwrap_or_default());
            print_attrs(out, &n.attributes);
        }
        Stmt::Edge(e) => {
            let ends: Vec<String> = match &e.ty {
                EdgeTy::Pair(a, b) => vec![print_end(a), print_end(b)],
                EdgeTy::Chain(vs) => vs.iter().map(print_end).collect(),
            };
            out.push_str(&ends.join(&format!(" {arrow} ")));
            print_attrs(out, &e.attributes);
        }
        Stmt::Subgraph(sg) => {
            out.push_str("subgraph ");
            if let Some(id) = print_id(&sg.id) {
                out.push_str(&id);
                out.push(' ');
            }
            out.push_str("{\n");
            for s in &sg.stmts {
                print_stmt_with(out, s, level + 1, arrow);
            }
            out.push_str(&indent);
            out.push('}');
        }
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A drawable test vertex, optionally holding a nested graph (like OpenTofu's test types).
    struct T {
        name: String,
        sub: Option<Graph<T>>,
    }
    impl Vertex for T {
        fn name(&self) -> String {
            self.name.clone()
        }
        fn dot_node(&self, name: &str, _: &DotOpts) -> DotVertex {
            DotVertex::Node(DotNode {
                name: name.to_string(),
                attrs: BTreeMap::new(),
            })
        }
        fn subgraph(&self) -> Option<&Graph<T>> {
            self.sub.as_ref()
        }
    }
    fn t(name: &str) -> T {
        T {
            name: name.into(),
            sub: None,
        }
    }

    fn nested() -> Graph<T> {
        let mut subsub = Graph::new();
        subsub.add(t("subsub_root"));
        let mut sub = Graph::new();
        let sr = sub.add(t("sub_root"));
        let ss = sub.add(T {
            name: "subsub".into(),
            sub: Some(subsub),
        });
        sub.connect(ss, sr);
        let mut g = Graph::new();
        let r = g.add(t("root"));
        let s = g.add(T {
            name: "sub".into(),
            sub: Some(sub),
        });
        g.connect(s, r);
        g
    }

    #[test]
    fn depth_restriction_stops_nested_subgraphs() {
        // OpenTofu's "subgraphs, with depth restriction" case (not in the corpus).
        let got = render(
            &nested(),
            &DotOpts {
                max_depth: 1,
                ..Default::default()
            },
        );
        let want = "digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n\t\t\"[root] root\"\n\t\t\"[root] sub\"\n\t\t\"[root] sub\" -> \"[root] root\"\n\t}\n\tsubgraph \"cluster_sub\" {\n\t\tlabel = \"sub\"\n\t\t\"[sub] sub_root\"\n\t\t\"[sub] subsub\"\n\t\t\"[sub] subsub\" -> \"[sub] sub_root\"\n\t}\n}\n";
        assert_eq!(got, want);
    }

    #[test]
    fn depth_zero_draws_everything_without_clusters() {
        let got = render(&nested(), &DotOpts::default());
        assert!(
            got.contains("\tsubgraph \"sub\" {\n\t\t\"[sub] sub_root\""),
            "{got}"
        );
        assert!(got.contains("\tsubgraph \"subsub\" {\n"), "{got}");
        assert!(!got.contains("label"));
    }

    #[test]
    fn attributes_and_escaping() {
        struct A;
        impl Vertex for A {
            fn name(&self) -> String {
                "aws_instance.x[\"k\"]".into()
            }
            fn dot_node(&self, name: &str, _: &DotOpts) -> DotVertex {
                let mut attrs = BTreeMap::new();
                attrs.insert("shape".into(), "box".into());
                attrs.insert("label".into(), self.name());
                DotVertex::Node(DotNode {
                    name: name.into(),
                    attrs,
                })
            }
        }
        let mut g = Graph::new();
        g.add(A);
        let got = render(&g, &DotOpts::default());
        assert!(
            got.contains("\t\t\"[root] aws_instance.x[\\\"k\\\"]\" [label = \"aws_instance.x[\\\"k\\\"]\", shape = \"box\"]\n"),
            "{got}"
        );
    }

    fn strings(names: &[&str], edges: &[(&str, &str)]) -> Graph<String> {
        let mut g = Graph::new();
        for n in names {
            g.add(n.to_string());
        }
        for (f, t) in edges {
            let (f, t) = (g.find_by_name(f).unwrap(), g.find_by_name(t).unwrap());
            g.connect(f, t);
        }
        g
    }

    const HEAD: &str =
        "digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n";

    #[test]
    fn go_marshal_tests() {
        // internal/dag/marshal_test.go, rendered with Go's nil options.
        let opts = DotOpts::everything();
        let g = strings(&["1", "2", "3"], &[]);
        assert_eq!(render(&g, &opts), format!("{HEAD}\t}}\n}}\n"));
        let g = strings(&["1", "2", "3"], &[("1", "3")]);
        assert_eq!(
            render(&g, &opts),
            format!("{HEAD}\t\t\"[root] 1\" -> \"[root] 3\"\n\t}}\n}}\n")
        );
        let g = strings(
            &["name[\"with-quotes\"]", "other"],
            &[("name[\"with-quotes\"]", "other")],
        );
        assert_eq!(
            render(&g, &opts),
            format!(
                "{HEAD}\t\t\"[root] name[\\\"with-quotes\\\"]\" -> \"[root] other\"\n\t}}\n}}\n"
            )
        );
        struct Foo;
        impl Vertex for Foo {
            fn name(&self) -> String {
                "foo".into()
            }
            fn dot_node(&self, _: &str, _: &DotOpts) -> DotVertex {
                let attrs = BTreeMap::from([("foo".to_string(), "bar".to_string())]);
                DotVertex::Node(DotNode {
                    name: "foo".into(),
                    attrs,
                })
            }
        }
        let mut g = Graph::new();
        g.add(Foo);
        assert_eq!(
            render(&g, &opts),
            format!("{HEAD}\t\t\"[root] foo\" [foo = \"bar\"]\n\t}}\n}}\n")
        );
    }

    #[test]
    fn hidden_vertices_still_take_part_in_cycles() {
        struct H(&'static str, bool);
        impl Vertex for H {
            fn name(&self) -> String {
                self.0.into()
            }
            fn dot_node(&self, name: &str, _: &DotOpts) -> DotVertex {
                if self.1 {
                    DotVertex::Hidden
                } else {
                    DotVertex::Node(DotNode {
                        name: name.into(),
                        attrs: BTreeMap::new(),
                    })
                }
            }
        }
        let mut g = Graph::new();
        let a = g.add(H("a", true));
        let b = g.add(H("b", false));
        g.connect(a, b);
        g.connect(b, a);
        let got = render(
            &g,
            &DotOpts {
                draw_cycles: true,
                ..Default::default()
            },
        );
        assert_eq!(
            got,
            format!(
                "{HEAD}\t\t\"[root] b\"\n\t\t\"[root] a\" -> \"[root] b\"\n\t\t\"[root] a\" -> \"[root] b\" [color = \"red\", penwidth = \"2.0\"]\n\t\t\"[root] b\" -> \"[root] a\"\n\t\t\"[root] b\" -> \"[root] a\" [color = \"red\", penwidth = \"2.0\"]\n\t}}\n}}\n"
            )
        );
    }

    #[test]
    fn undrawable_vertices_keep_their_edges() {
        let mut g: Graph<String> = Graph::new();
        let a = g.add("a".into());
        let b = g.add("b".into());
        g.connect(a, b);
        let got = render(&g, &DotOpts::default());
        assert_eq!(
            got,
            "digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n\t\t\"[root] a\" -> \"[root] b\"\n\t}\n}\n"
        );
    }
}
