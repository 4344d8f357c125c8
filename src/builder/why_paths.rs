//! `tfgraph why`'s question: by which paths does one vertex wait for another, each edge with its
//! why ([`super::why`]). Names are read as a user gives them ([`find_vertex`]), the paths come
//! from [`crate::dag::Graph::paths`] over the built graph, and [`Explanation::text`] is what the
//! CLI prints.

use super::graph::{Graph, VId};
use super::why::{EdgeWhy, describe};

/// One edge of a path, with its why (`None` only for an edge added to a graph directly, not
/// through [`Graph::connect`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathEdge {
    pub from: VId,
    pub to: VId,
    pub why: Option<EdgeWhy>,
}

/// The ways FROM waits for TO in `g` (FROM depends on the first edge's `to`, …, the last edge's
/// `to` is TO): every path in the graph as it is, shortest first, then by vertex names; at most
/// `limit` of them (see [`crate::dag::Graph::paths`] for the bound on work).
pub fn paths(g: &Graph, from: VId, to: VId, limit: usize) -> Vec<Vec<PathEdge>> {
    g.dag()
        .paths(from, to, limit)
        .into_iter()
        .map(|p| {
            p.windows(2)
                .map(|w| PathEdge {
                    from: w[0],
                    to: w[1],
                    why: g.why(w[0], w[1]).cloned(),
                })
                .collect()
        })
        .collect()
}

/// What [`explain`] answers: the paths by which FROM waits for TO, each edge with its why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub from: String,
    pub to: String,
    /// Each path as its edges, the shortest first (see [`paths`]).
    pub paths: Vec<Vec<NamedEdge>>,
    /// Whether there may be more paths than the ones given (the limit was reached).
    pub more: bool,
    /// The why of a direct edge FROM → TO that transitive reduction removed (a longer path
    /// implies it), when there was one.
    pub reduced_direct: Option<EdgeWhy>,
}

/// An edge of a path, by vertex names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedEdge {
    pub from: String,
    pub to: String,
    pub why: Option<EdgeWhy>,
}

/// The vertex a name given on the command line means: the vertex of that exact name, else the
/// one vertex whose address (the name before ` (expand)`, ` (close)`, …) it is. Errors say why
/// in a sentence: no such vertex (with "Did you mean …?"), or several (listed).
pub fn find_vertex(g: &Graph, given: &str) -> Result<VId, String> {
    let given = given.trim();
    let given = given.strip_prefix("[root] ").unwrap_or(given);
    let mut named: Vec<(String, VId)> = g.dag().iter().map(|(id, n)| (n.name(), id)).collect();
    named.sort();
    if let Some((_, id)) = named.iter().find(|(n, _)| n == given) {
        return Ok(*id);
    }
    // The name without its trailing ` (expand)`, ` (close)`, ` (destroy)`, … (an instance key
    // may hold ` (` too).
    let address = |n: &str| match n.rfind(" (") {
        Some(i) if n.ends_with(')') => n[..i].to_string(),
        _ => n.to_string(),
    };
    let by_address: Vec<&(String, VId)> =
        named.iter().filter(|(n, _)| address(n) == given).collect();
    match by_address.as_slice() {
        [(_, id)] => Ok(*id),
        [] => {
            let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
            let addresses: Vec<String> = names.iter().map(|n| address(n)).collect();
            let addresses: Vec<&str> = addresses.iter().map(String::as_str).collect();
            let suggestion = crate::didyoumean::name_suggestion(given, &addresses)
                .and_then(|a| names.iter().find(|n| address(n) == a).copied())
                .or_else(|| crate::didyoumean::name_suggestion(given, &names));
            let hint = match suggestion {
                Some(s) => format!(" Did you mean {}?", crate::strconv::go_quote(s)),
                None => String::new(),
            };
            Err(format!(
                "No vertex {} in the graph.{hint}",
                crate::strconv::go_quote(given)
            ))
        }
        many => Err(format!(
            "{} names {} vertices: {}. Give one of them in full.",
            crate::strconv::go_quote(given),
            many.len(),
            many.iter()
                .map(|(n, _)| crate::strconv::go_quote(n))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The paths by which the vertex named `from` waits for the one named `to` in the built graph
/// (names as [`find_vertex`] reads them), at most `limit` of them, each edge with its why.
/// `Err` says in a sentence that a name matches no vertex or several.
pub fn explain(g: &Graph, from: &str, to: &str, limit: usize) -> Result<Explanation, String> {
    let f = find_vertex(g, from)?;
    let t = find_vertex(g, to)?;
    let name = |v: VId| g.node(v).name();
    // One more than asked, to know whether there are more.
    let mut found = paths(g, f, t, limit.saturating_add(1));
    let more = found.len() > limit;
    found.truncate(limit);
    let reduced_direct = if g.has_edge(f, t) {
        None
    } else {
        g.why(f, t).cloned()
    };
    Ok(Explanation {
        from: name(f),
        to: name(t),
        paths: found
            .into_iter()
            .map(|p| {
                p.into_iter()
                    .map(|e| NamedEdge {
                        from: name(e.from),
                        to: name(e.to),
                        why: e.why,
                    })
                    .collect()
            })
            .collect(),
        more,
        reduced_direct,
    })
}

impl Explanation {
    /// The answer as `tfgraph why` prints it: a summary line, then each path as its vertices,
    /// each edge followed by its transform and its references or reason.
    pub fn text(&self) -> String {
        let mut out = String::new();
        if self.paths.is_empty() {
            out.push_str(&format!(
                "{} does not wait for {}: no path of dependencies leads from one to the other.\n",
                self.from, self.to
            ));
            return out;
        }
        let count = if self.more {
            format!(
                "{}+ paths (the first {} shown)",
                self.paths.len(),
                self.paths.len()
            )
        } else if self.paths.len() == 1 {
            "1 path".to_string()
        } else {
            format!("{} paths", self.paths.len())
        };
        out.push_str(&format!(
            "{} waits for {} by {count}.\n",
            self.from, self.to
        ));
        for (i, p) in self.paths.iter().enumerate() {
            let edges = if p.len() == 1 { "edge" } else { "edges" };
            out.push_str(&format!("\nPath {} ({} {edges}):\n", i + 1, p.len()));
            if let Some(first) = p.first() {
                out.push_str(&format!("  {}\n", first.from));
            }
            for e in p {
                out.push_str(&format!("    -> {}\n", e.to));
                out.push_str(&why_lines(e.why.as_ref(), "       "));
            }
        }
        if let Some(w) = &self.reduced_direct {
            out.push_str(&format!(
                "\nThe direct edge {} -> {} was removed by transitive reduction (the paths above imply it); it was added by:\n",
                self.from, self.to
            ));
            out.push_str(&why_lines(Some(w), "       "));
        }
        out
    }
}

/// The lines of one why: `TRANSFORM: reason`, or `TRANSFORM: FILE:LINE,COLUMN TEXT` per
/// reference.
pub fn why_lines(w: Option<&EdgeWhy>, indent: &str) -> String {
    let Some(w) = w else {
        return format!("{indent}(no record of why)\n");
    };
    let transform = if w.transform.is_empty() {
        "(outside a builder run)"
    } else {
        w.transform
    };
    if w.references.is_empty() {
        return format!("{indent}{transform}: {}\n", describe(w));
    }
    w.references
        .iter()
        .map(|r| {
            format!(
                "{indent}{transform}: {}:{},{} {}\n",
                r.file, r.line, r.column, r.text
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::{BuilderKind, Built, build, build_from_files};
    use std::collections::BTreeMap;

    fn built(files: &[(&str, &str)]) -> Built {
        let files: BTreeMap<String, String> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        let (b, diags) = build_from_files(&files, BuilderKind::Plan, true);
        let b = b.unwrap_or_else(|| panic!("{diags:?}"));
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        b
    }

    const WEB: &str = "data \"aws_ami\" \"ubuntu\" {}\n\nresource \"aws_instance\" \"web\" {\n  ami = data.aws_ami.ubuntu.id\n}\n";
    const AWS: &str = "provider[\"registry.opentofu.org/hashicorp/aws\"]";

    #[test]
    fn names_resolve_exactly_by_address_or_with_a_suggestion() {
        let b = built(&[(
            "main.tf",
            "variable \"n\" {}\nresource \"aws_instance\" \"web\" { count = var.n }\n",
        )]);
        let g = &b.graph;
        let name = |r: Result<VId, String>| r.map(|v| g.node(v).name());
        assert_eq!(
            name(find_vertex(g, "aws_instance.web")),
            Ok("aws_instance.web (expand)".into())
        );
        assert_eq!(name(find_vertex(g, "var.n")), Ok("var.n".into()));
        assert_eq!(
            name(find_vertex(g, "[root] var.n (expand, reference)")),
            Ok("var.n (expand, reference)".into())
        );
        assert_eq!(
            find_vertex(g, "aws_instance.webb"),
            Err("No vertex \"aws_instance.webb\" in the graph. Did you mean \"aws_instance.web (expand)\"?".into())
        );
        assert_eq!(
            find_vertex(g, "nothing.like.it"),
            Err("No vertex \"nothing.like.it\" in the graph.".into())
        );
    }

    #[test]
    fn explain_gives_the_paths_with_each_edge_s_why() {
        let b = built(&[
            ("main.tf", WEB),
            (
                "vars.tf",
                "variable \"region\" {}\nprovider \"aws\" {\n  region = var.region\n}\n",
            ),
        ]);
        let x = explain(&b.graph, "aws_instance.web", "var.region", 10).expect("names resolve");
        assert_eq!(x.from, "aws_instance.web (expand)");
        assert_eq!(x.to, "var.region");
        assert!(!x.more);
        // The resource's own edge to its provider is implied by the data source's, so the
        // reduction removed it: the one path goes through the data source.
        let shortest: Vec<&str> = x.paths[0].iter().map(|e| e.to.as_str()).collect();
        assert_eq!(
            shortest,
            [
                "data.aws_ami.ubuntu (expand)",
                AWS,
                "var.region (expand, reference)",
                "var.region"
            ]
        );
        let text = x.text();
        assert!(
            text.starts_with(&format!(
                "aws_instance.web (expand) waits for var.region by {} path",
                x.paths.len()
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "\nPath 1 (4 edges):\n  aws_instance.web (expand)\n    -> data.aws_ami.ubuntu (expand)\n       ReferenceTransformer: main.tf:4,9 data.aws_ami.ubuntu.id\n    -> {AWS}\n       ProviderTransformer: provider of this resource\n    -> var.region (expand, reference)\n       ReferenceTransformer: vars.tf:3,12 var.region\n    -> var.region\n       RootVariableTransformer: the variable's value\n"
            )),
            "{text}"
        );
        let one = explain(&b.graph, "aws_instance.web", "var.region", 1).expect("names");
        assert_eq!(one.paths.len(), 1);
        assert_eq!(one.more, x.paths.len() > 1);
        let none = explain(&b.graph, "var.region", "aws_instance.web", 10).expect("names");
        assert!(none.paths.is_empty());
        assert!(none.text().contains("does not wait for"), "{}", none.text());
        assert!(explain(&b.graph, "aws_instance.nope", "var.region", 10).is_err());
    }

    #[test]
    fn explain_mentions_a_direct_edge_the_reduction_removed() {
        let b = build(
            &crate::builder::Inputs {
                config: Some(crate::builder::test_config(&[(
                    "main.tf",
                    "variable \"v\" {}\nlocals {\n  a = var.v\n  b = \"${local.a}${var.v}\"\n}\n",
                )])),
                ..Default::default()
            },
            BuilderKind::Plan,
        );
        let x = explain(&b.graph, "local.b", "var.v (expand, reference)", 10).expect("names");
        assert_eq!(x.paths.len(), 1, "{}", x.text());
        let direct = x.reduced_direct.as_ref().expect("the removed direct edge");
        assert_eq!(direct.references[0].text, "var.v");
        assert!(
            x.text().contains("removed by transitive reduction"),
            "{}",
            x.text()
        );
    }
}
