//! The graph of a `dag` case, built from vertex names with Go's membership rules (an edge may
//! name a vertex that was never added: it becomes a detached vertex), and the small checks the
//! `dag` and walker runners share.

use super::strict;
use crate::dag::{Graph, VertexId};
use serde_json::Value;

/// The strings of a JSON array (non-strings skipped; empty if `v` is not an array).
pub fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The first two entries of a JSON array of strings, such as an edge `["from", "to"]`.
pub fn pair(v: &Value) -> Option<(String, String)> {
    strict::pair(v, "pair").ok()
}

/// The vertex named `name`, added as a detached vertex (Go: a value connected without `Add`) when
/// the graph does not know it yet.
pub fn vertex_named(g: &mut Graph<String>, name: &str) -> VertexId {
    match g.find_known_by_name(name) {
        Some(v) => v,
        None => g.add_detached(name.to_string()),
    }
}

/// Connects the vertices named `f` and `t` as Go's `Connect(BasicEdge(f, t))` does: ends that were
/// never added become detached vertices.
pub fn connect_names(g: &mut Graph<String>, f: &str, t: &str) {
    let f = vertex_named(g, f);
    let t = vertex_named(g, t);
    g.connect(f, t);
}

/// Go's `Add` of the vertex named `n`: a no-op for a member, admits a detached one.
pub fn add_name(g: &mut Graph<String>, n: &str) {
    match g.find_known_by_name(n) {
        Some(v) => {
            g.admit(v);
        }
        None => {
            g.add(n.to_string());
        }
    }
}

/// Builds the case graph: `vertices` added in order, then `edges` connected (see
/// [`connect_names`]).
pub fn build(case: &Value) -> Graph<String> {
    let mut g = Graph::new();
    for name in strs(&case["vertices"]) {
        add_name(&mut g, &name);
    }
    for e in case["edges"].as_array().into_iter().flatten() {
        if let Some((f, t)) = pair(e) {
            connect_names(&mut g, &f, &t);
        }
    }
    g
}

/// `Ok` when `got` is `want`; otherwise what differs, named by `what`.
pub fn expect_eq<T: PartialEq + std::fmt::Debug>(
    what: &str,
    got: T,
    want: T,
) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: expected {want:?}, got {got:?}"))
    }
}
