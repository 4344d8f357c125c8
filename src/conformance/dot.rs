//! Runner for the `dot/` conformance cases (OpenTofu's `TestGraphDot`): a graph of test vertices
//! (drawable, origin, or holding a nested graph) rendered with the case's `DotOpts`, compared byte
//! for byte.

use super::{Outcome, read_json};
use crate::dag::{DotNode, DotOpts, DotVertex, Graph, Vertex};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// OpenTofu's test vertex types: all draw themselves as `{Name: name, Attrs: {}}`; `subgraph` ones
/// also hold a nested graph. (`origin` only adds `DotOrigin()`, which the renderer never reads.)
struct CaseVertex {
    name: String,
    sub: Option<Graph<CaseVertex>>,
}

impl Vertex for CaseVertex {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn dot_node(&self, name: &str, _opts: &DotOpts) -> DotVertex {
        DotVertex::Node(DotNode {
            name: name.to_string(),
            attrs: BTreeMap::new(),
        })
    }
    fn subgraph(&self) -> Option<&Graph<CaseVertex>> {
        self.sub.as_ref()
    }
}

fn build(v: &Value) -> Result<Graph<CaseVertex>, String> {
    let mut g = Graph::new();
    for vx in v["vertices"].as_array().into_iter().flatten() {
        let name = vx["name"]
            .as_str()
            .ok_or("vertex without name")?
            .to_string();
        let sub = match vx["kind"].as_str() {
            Some("subgraph") => Some(build(&vx["subgraph"])?),
            Some("drawable" | "origin") => None,
            other => return Err(format!("unknown vertex kind {other:?}")),
        };
        g.add(CaseVertex { name, sub });
    }
    for e in v["edges"].as_array().into_iter().flatten() {
        let end = |i: usize| e.get(i).and_then(Value::as_str).ok_or("bad edge");
        let (f, t) = (end(0)?, end(1)?);
        let find = |n: &str| {
            g.find_by_name(n)
                .ok_or_else(|| format!("edge names unknown vertex {n:?}"))
        };
        let (f, t) = (find(f)?, find(t)?);
        g.connect(f, t);
    }
    Ok(g)
}

/// Runs one `dot` case.
pub fn run_case(path: &Path) -> Outcome {
    let case = match read_json(path) {
        Ok(v) => v,
        Err(e) => return Outcome::Fail(e),
    };
    let g = match build(&case["graph"]) {
        Ok(g) => g,
        Err(e) => return Outcome::Fail(e),
    };
    let o = &case["options"];
    let opts = DotOpts {
        verbose: o["verbose"].as_bool().unwrap_or(false),
        draw_cycles: o["draw_cycles"].as_bool().unwrap_or(false),
        max_depth: o["max_depth"].as_i64().unwrap_or(0),
    };
    let got = g.dot(&opts);
    let want = case["expected"].as_str().unwrap_or("");
    if got == want {
        return Outcome::Pass;
    }
    Outcome::Fail(first_difference(want, &got))
}

/// The first line where two texts differ, for a readable failure.
pub(crate) fn first_difference(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.split('\n').collect(), got.split('\n').collect());
    for i in 0..w.len().max(g.len()) {
        let (a, b) = (w.get(i), g.get(i));
        if a != b {
            return format!("line {}: expected {:?}, got {:?}", i + 1, a, b);
        }
    }
    "texts differ".to_string()
}
