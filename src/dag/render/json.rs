//! A plain serialisable form of a graph for the web app: vertices (id, name) sorted by name and
//! edges (`from` depends on `to`) sorted by names.

use crate::dag::{Graph, Vertex, VertexId};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonVertex {
    pub id: VertexId,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonEdge {
    /// The dependent.
    pub from: VertexId,
    /// The dependency.
    pub to: VertexId,
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
                })
                .collect(),
            edges: g
                .edges_by_name()
                .into_iter()
                .map(|(from, to)| JsonEdge { from, to })
                .collect(),
            not_installed: Vec::new(),
        }
    }

    /// Pretty-printed JSON text.
    pub fn to_json(&self) -> String {
        // Serialising plain structs of strings and integers cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
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
        assert_eq!(j.edges, vec![JsonEdge { from: b, to: a }]);
        let back: JsonGraph = serde_json::from_str(&j.to_json()).unwrap();
        assert_eq!(back, j);
    }
}
