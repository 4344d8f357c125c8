//! DOT output, byte for byte what OpenTofu's `Graph.Dot` (`internal/dag/dot.go`, `marshal.go`)
//! prints, which is what `tofu graph` shows.
//!
//! Written straight to the output, line by line ([`write`]): no document is built first, so at
//! 10,000 resources the text never sits in memory whole (the CLI writes it to its standard
//! output; [`render`] gives it as a string). Only a graph's edge lines are held, to be sorted.
//! (graphviz-rust's printer, which `dag::import`'s reader comes with, writes `a[k=v]`, indents with
//! spaces and cannot print OpenTofu's `k = "v"` spacing, tab indentation or the `digraph {` header
//! of an anonymous graph, so it could never give OpenTofu's text.)
//!
//! OpenTofu's layout: a `digraph` with `compound`/`newrank` attributes, the top-level graph as
//! `subgraph "root"`, then every nested graph (a vertex's [`Vertex::subgraph`]) as a sibling
//! `subgraph` (named `cluster_<name>` and labelled when a module depth is given), down to
//! `max_depth` levels. Inside each: graph attributes, one line per drawable vertex sorted by name,
//! then every edge and (with `draw_cycles`) every cycle edge in red, all sorted as text.

/// What a vertex tells the renderer (Go's `DotOpts`, `DotNode`) is defined with [`Vertex`];
/// re-exported here beside the renderer that reads it.
pub use crate::dag::graph::{DotNode, DotOpts, DotVertex};
/// Reading DOT back lives in `dag::import`; re-exported here beside the writer.
pub use crate::dag::import::parse_dot;
use crate::dag::{Graph, Vertex, VertexId};
use crate::strconv::{go_escape_into, go_quote};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Renders `g` as OpenTofu does.
pub fn render<V: Vertex>(g: &Graph<V>, opts: &DotOpts) -> String {
    render_decorated(g, opts, &|_, _| {})
}

/// [`render`] with `decorate` changing each drawn vertex's node before it is printed (the CLI's
/// `--actions` adds the planned action to the label). Vertices that draw no node line stay
/// undrawn, so only node lines can differ from [`render`]'s text.
pub fn render_decorated<V: Vertex>(
    g: &Graph<V>,
    opts: &DotOpts,
    decorate: &dyn Fn(&V, &mut DotNode),
) -> String {
    let mut out = Vec::new();
    write_decorated(g, opts, decorate, &mut out).expect("writing to memory does not fail");
    String::from_utf8(out).expect("the DOT text is written from strings")
}

/// Writes [`render`]'s text to `out`, a line at a time.
pub fn write<V: Vertex, W: Write + ?Sized>(
    g: &Graph<V>,
    opts: &DotOpts,
    out: &mut W,
) -> io::Result<()> {
    write_decorated(g, opts, &|_, _| {}, out)
}

/// Writes [`render_decorated`]'s text to `out`, a line at a time.
pub fn write_decorated<V: Vertex, W: Write + ?Sized>(
    g: &Graph<V>,
    opts: &DotOpts,
    deco: &dyn Fn(&V, &mut DotNode),
    out: &mut W,
) -> io::Result<()> {
    out.write_all(b"digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n")?;
    subgraph(out, "root", g, None, opts, &BTreeMap::new(), deco)?;
    // Go: "cluster" naming is used whenever a depth was given; depth 0 means unlimited.
    let cluster = opts.max_depth != 0;
    let depth = if opts.max_depth == 0 {
        -1
    } else {
        opts.max_depth
    };
    for (name, sg) in subgraphs(g) {
        nested(out, &name, sg, opts, (cluster, depth), deco)?;
    }
    out.write_all(b"}\n")
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

/// A nested graph and, below it, its own nested graphs, each a `subgraph` of the document.
fn nested<V: Vertex, W: Write + ?Sized>(
    out: &mut W,
    name: &str,
    g: &Graph<V>,
    opts: &DotOpts,
    (cluster, depth): (bool, i64),
    deco: &dyn Fn(&V, &mut DotNode),
) -> io::Result<()> {
    if depth == 0 {
        return Ok(());
    }
    let depth = depth - 1;
    let mut attrs = BTreeMap::new();
    let id = if cluster {
        attrs.insert("label".to_string(), name.to_string());
        format!("cluster_{name}")
    } else {
        name.to_string()
    };
    subgraph(out, &id, g, Some(name), opts, &attrs, deco)?;
    for (sub_name, sg) in subgraphs(g) {
        nested(out, &sub_name, sg, opts, (cluster, depth), deco)?;
    }
    Ok(())
}

/// One `subgraph "ID" { … }` block: the graph's attributes, its drawn vertices sorted by name,
/// then its edges (and cycle edges) sorted as text.
fn subgraph<V: Vertex, W: Write + ?Sized>(
    out: &mut W,
    id: &str,
    g: &Graph<V>,
    graph_name: Option<&str>,
    opts: &DotOpts,
    graph_attrs: &BTreeMap<String, String>,
    deco: &dyn Fn(&V, &mut DotNode),
) -> io::Result<()> {
    writeln!(out, "\tsubgraph {} {{", go_quote(id))?;
    let gname = graph_name.unwrap_or("root");
    let mut line = String::new();
    for (k, v) in sorted_attrs(graph_attrs) {
        line.clear();
        write_attr(&mut line, k, v);
        writeln!(out, "\t\t{line}")?;
    }

    // Each vertex named once, as Go's `strconv.Quote` without the quotes (marshalled vertex names
    // are stored this way), all into one buffer: a vertex's name is a range of it, found by its id
    // (ids are dense). An edge may end at a detached vertex, which has no name here.
    let slots = g.ids().map(|id| id.slot() + 1).max().unwrap_or(0);
    let mut all_names = String::new();
    let mut ranges: Vec<std::ops::Range<usize>> = vec![0..0; slots];
    for (id, v) in g.iter() {
        let start = all_names.len();
        go_escape_into(&mut all_names, &v.name());
        ranges[id.slot()] = start..all_names.len();
    }
    let name_at = |i: usize| ranges.get(i).map_or("", |r| &all_names[r.clone()]);
    let name = |id: &VertexId| name_at(id.slot());
    let mut by_name: Vec<(&str, VertexId)> = g.ids().map(|id| (name(&id), id)).collect();
    by_name.sort_unstable();

    let mut drawable = vec![false; slots];
    let mut attrs = String::new();
    for (name, id) in by_name {
        let Some(v) = g.vertex(id) else { continue };
        match v.dot_node(name, opts) {
            DotVertex::NotDrawable => {}
            DotVertex::Hidden => drawable[id.slot()] = true,
            DotVertex::Node(mut node) => {
                deco(v, &mut node);
                drawable[id.slot()] = true;
                attrs.clear();
                write_attrs(&mut attrs, &node.attrs);
                for piece in ["\t\t\"[", gname, "] ", &node.name, "\"", &attrs, "\n"] {
                    out.write_all(piece.as_bytes())?;
                }
            }
        }
    }

    // OpenTofu sorts the edge lines as text. A line is `"[g] FROM" -> "[g] TO"` and its
    // attributes, so two lines' order is their FROMs' as each is followed by its closing quote,
    // then their TOs' likewise, then their attributes' (none before any). So each name gets its
    // rank in that order once, and the edges are sorted by ranks and written out; no line is made
    // to be compared (comparing the texts of 40,000 lines was a third of the DOT output's time).
    // The rank of every slot's name, and last that of the empty name a detached vertex has.
    let mut order: Vec<usize> = (0..=slots).collect();
    let slot_name = |i: usize| if i < slots { name_at(i) } else { "" };
    order.sort_unstable_by(|a, b| cmp_quoted(slot_name(*a), slot_name(*b)));
    let mut rank = vec![0u32; slots + 1];
    let mut r = 0u32;
    for (k, i) in order.iter().enumerate() {
        if k > 0 && slot_name(order[k - 1]) != slot_name(*i) {
            r += 1;
        }
        rank[*i] = r;
    }
    let rank_of = |id: VertexId| rank[id.slot().min(slots)];
    let mut lines: Vec<(u32, u32, bool, VertexId, VertexId)> = Vec::with_capacity(g.edge_count());
    // (A red cycle edge's attributes follow the plain edge's nothing.)
    let mut red = String::new();
    write_attrs(
        &mut red,
        &BTreeMap::from([
            ("color".to_string(), "red".to_string()),
            ("penwidth".to_string(), "2.0".to_string()),
        ]),
    );
    if opts.draw_cycles {
        // Consecutive members of each cycle as Tarjan lists them, wrapping around. (The pairs run
        // against the real edges' direction; OpenTofu draws them that way.)
        for cycle in g.cycles() {
            for (i, src) in cycle.iter().enumerate() {
                let tgt = cycle[(i + 1) % cycle.len()];
                let shown = |id: &VertexId| drawable.get(id.slot()).copied().unwrap_or(false);
                if !shown(src) || !shown(&tgt) {
                    continue;
                }
                lines.push((rank_of(*src), rank_of(tgt), true, *src, tgt));
            }
        }
    }
    for from in g.ids() {
        for to in g.dependencies(from) {
            lines.push((rank_of(from), rank_of(to), false, from, to));
        }
    }
    lines.sort_unstable_by_key(|l| (l.0, l.1, l.2));
    let mut text = String::new();
    for (_, _, is_red, from, to) in lines {
        text.clear();
        for piece in [
            "\t\t\"[",
            gname,
            "] ",
            name(&from),
            "\" -> \"[",
            gname,
            "] ",
            name(&to),
            "\"",
            if is_red { &red } else { "" },
            "\n",
        ] {
            text.push_str(piece);
        }
        out.write_all(text.as_bytes())?;
    }
    out.write_all(b"\t}\n")
}

/// An attribute as OpenTofu prints it, `k = "v"`, appended to `out`.
fn write_attr(out: &mut String, k: &str, v: &str) {
    out.push_str(k);
    out.push_str(" = \"");
    go_escape_into(out, v);
    out.push('"');
}

/// Attributes in OpenTofu's order: sorted by their `k = "v"` text. That is the keys' order
/// unless a key is a prefix of another (otherwise two texts first differ inside both keys), so
/// only then are the texts made, compared and held in a list; otherwise the map is read as it is
/// (a sorted copy, or strings of their own, for each of thousands of node lines were a tenth of
/// the DOT output's time and allocations).
fn sorted_attrs<K: AsRef<str>, V: AsRef<str>>(
    attrs: &BTreeMap<K, V>,
) -> impl Iterator<Item = (&str, &str)> {
    let pairs = || attrs.iter().map(|(k, v)| (k.as_ref(), v.as_ref()));
    // In sorted order a key that is a prefix of any later key is a prefix of the next one.
    let reordered = attrs
        .keys()
        .zip(attrs.keys().skip(1))
        .any(|(a, b)| b.as_ref().starts_with(a.as_ref()));
    let sorted = reordered.then(|| {
        let mut v: Vec<(&str, &str)> = pairs().collect();
        v.sort_by_cached_key(|(k, val)| {
            let mut text = String::new();
            write_attr(&mut text, k, val);
            text
        });
        v
    });
    let in_order = (!reordered).then(pairs);
    in_order
        .into_iter()
        .flatten()
        .chain(sorted.into_iter().flatten())
}

/// ` [a = "x", b = "y"]` after a vertex or an edge, appended to `out`; nothing when there are no
/// attributes.
fn write_attrs<K: AsRef<str>, V: AsRef<str>>(out: &mut String, attrs: &BTreeMap<K, V>) {
    for (i, (k, v)) in sorted_attrs(attrs).enumerate() {
        out.push_str(if i == 0 { " [" } else { ", " });
        write_attr(out, k, v);
    }
    if !attrs.is_empty() {
        out.push(']');
    }
}

/// `a` and `b` compared as each followed by a `"` (as an edge line's FROM or TO, closed by its
/// quote): what the lines' text order makes of their names.
fn cmp_quoted(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len().min(b.len());
    a[..n]
        .cmp(&b[..n])
        .then_with(|| match (a.get(n), b.get(n)) {
            (None, None) => Equal,
            // The shorter one's quote against the longer one's next byte, then the longer one has
            // more.
            (None, Some(c)) => b'"'.cmp(c).then(Less),
            (Some(c), None) => c.cmp(&b'"').then(Greater),
            (Some(_), Some(_)) => unreachable!("the first n bytes are all of one of them"),
        })
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
                attrs.insert("shape", "box".into());
                attrs.insert("label", self.name().into());
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

    /// Attributes in the order of their `k = "v"` texts: the keys' order, unless a key is a
    /// prefix of another and what follows it sorts before the space (a tab here).
    #[test]
    fn attributes_are_in_the_order_of_their_text() {
        let attrs = |pairs: &[(&'static str, &'static str)]| {
            let mut out = String::new();
            write_attrs(&mut out, &pairs.iter().copied().collect::<BTreeMap<_, _>>());
            out
        };
        assert_eq!(attrs(&[("b", "2"), ("a", "1")]), " [a = \"1\", b = \"2\"]");
        assert_eq!(
            attrs(&[("a", "1"), ("a\t", "2"), ("b", "3")]),
            " [a\t = \"2\", a = \"1\", b = \"3\"]"
        );
        assert_eq!(attrs(&[]), "");
    }

    #[test]
    fn edge_lines_are_in_text_order() {
        // Names one of which is a prefix of another, followed by characters that sort before
        // and after the closing quote (space and `!` before it), with escapes and a red cycle.
        let names = ["a", "a b", "a!", "a.b", "ab", "a\"q", "b", "a (expand)"];
        let mut edges = Vec::new();
        for f in names {
            for t in names {
                if f < t {
                    edges.push((f, t));
                }
            }
        }
        edges.push(("b", "a"));
        let mut g = Graph::new();
        let ids: Vec<VertexId> = names.iter().map(|n| g.add(t(n))).collect();
        let id = |n: &str| ids[names.iter().position(|m| *m == n).unwrap()];
        for (f, to) in &edges {
            g.connect(id(f), id(to));
        }
        let text = render(&g, &DotOpts::everything());
        let lines: Vec<&str> = text.lines().filter(|l| l.contains(" -> ")).collect();
        let mut sorted = lines.clone();
        sorted.sort();
        assert_eq!(lines, sorted);
        assert!(
            lines
                .iter()
                .any(|l| l.ends_with("[color = \"red\", penwidth = \"2.0\"]"))
        );
    }

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
                let attrs = BTreeMap::from([("foo", "bar".into())]);
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
