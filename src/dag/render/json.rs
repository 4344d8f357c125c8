//! A plain serialisable form of a graph (`tfgraph graph --format json`, the web app): vertices
//! (id, name) sorted by name and edges (`from` depends on `to`) sorted by names, each edge with
//! why it exists when the graph's builder says ([`JsonWhy`]).

use crate::dag::{Graph, Vertex, VertexId};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonVertex {
    pub id: VertexId,
    pub name: String,
    /// The planned action the vertex carries (`tfgraph graph --format json --actions`); absent
    /// otherwise, so the default text is unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<JsonAction>,
}

/// A vertex's planned action as `tofu plan` marks it (`crate::actions`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonAction {
    /// `create`, `delete-then-create`, `mixed` (a resource whose instances differ), …
    pub action: String,
    /// `tofu plan`'s symbol (`+`, `-/+`; `+1 ~1` for mixed; empty for no-op).
    pub symbol: String,
    /// In words (`destroy and then create replacement`).
    pub description: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonEdge {
    /// The dependent.
    pub from: VertexId,
    /// The dependency.
    pub to: VertexId,
    /// Why the edge exists; absent when the caller has no record (graphs not built by
    /// `crate::builder`, such as an imported DOT file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<JsonWhy>,
}

/// Why an edge exists: the transform that added it, the reason in words and the references that
/// caused it (empty for edges no reference caused).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonWhy {
    pub transform: String,
    pub reason: String,
    pub references: Vec<JsonRefSite>,
}

/// Where a reference is written: file, 1-based line and column of the traversal's start, and
/// the traversal (`data.aws_ami.ubuntu.id`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonRefSite {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct JsonGraph {
    pub vertices: Vec<JsonVertex>,
    pub edges: Vec<JsonEdge>,
    /// Module calls whose module is not installed (no `tofu init` yet), each drawn as its
    /// `(expand)`/`(close)` pair with nothing inside; absent when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_installed: Vec<JsonNotInstalled>,
}

/// A module call that is not installed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonNotInstalled {
    /// The call's module path (`module.vpc`, `module.a.module.b`).
    pub module: String,
    /// Its source as written.
    pub source: String,
    /// Where the call is (`main.tf:3,1`).
    pub call: String,
}

impl JsonGraph {
    pub fn from_graph<V: Vertex>(g: &Graph<V>) -> Self {
        JsonGraph {
            vertices: g
                .ids_by_name()
                .into_iter()
                .map(|id| JsonVertex {
                    id,
                    name: g.name_of(id),
                    action: None,
                })
                .collect(),
            edges: g
                .edges_by_name()
                .into_iter()
                .map(|(from, to)| JsonEdge {
                    from,
                    to,
                    why: None,
                })
                .collect(),
            not_installed: Vec::new(),
        }
    }

    /// Pretty-printed JSON text.
    pub fn to_json(&self) -> String {
        // Serialising plain structs of strings and integers cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// [`JsonGraph::to_json`]'s text written to `out` as it is made (at 10,000 resources the
    /// text is 17 MB).
    pub fn write_json<W: std::io::Write>(&self, out: W) -> std::io::Result<()> {
        serde_json::to_writer_pretty(out, self).map_err(std::io::Error::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let mut g: Graph<String> = Graph::new();
        let b = g.add("b".into());
        let a = g.add("a".into());
        g.connect(b, a);
        let j = g.json_graph();
        assert_eq!(j.vertices[0].name, "a");
        assert_eq!(
            j.edges,
            vec![JsonEdge {
                from: b,
                to: a,
                why: None
            }]
        );
        assert!(!j.to_json().contains("why"), "no why without a record");
        let back: JsonGraph = serde_json::from_str(&j.to_json()).unwrap();
        assert_eq!(back, j);
        let mut with_why = j.clone();
        with_why.edges[0].why = Some(JsonWhy {
            transform: "ReferenceTransformer".into(),
            reason: "main.tf:2 a".into(),
            references: vec![JsonRefSite {
                file: "main.tf".into(),
                line: 2,
                column: 7,
                text: "a".into(),
            }],
        });
        let back: JsonGraph = serde_json::from_str(&with_why.to_json()).unwrap();
        assert_eq!(back, with_why);
        let mut written = Vec::new();
        with_why.write_json(&mut written).unwrap();
        assert_eq!(String::from_utf8(written).unwrap(), with_why.to_json());
    }
}
