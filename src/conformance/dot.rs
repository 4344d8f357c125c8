//! Runner for the `dot/` conformance cases (OpenTofu's `TestGraphDot`): a graph of test vertices
//! (drawable, origin, or holding a nested graph) rendered with the case's `DotOpts`, compared byte
//! for byte.

use super::strict::{keys, opt_array, opt_bool, req_str};
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
    keys(v, "graph", &["vertices", "edges"])?;
    let mut g = Graph::new();
    for vx in opt_array(v, "vertices", "graph")? {
        keys(vx, "vertex", &["name", "kind", "subgraph"])?;
        let name = req_str(vx, "name", "vertex")?.to_string();
        let sub = match req_str(vx, "kind", "vertex")? {
            "subgraph" => Some(build(&vx["subgraph"])?),
            "drawable" | "origin" if vx.get("subgraph").is_none() => None,
            other => return Err(format!("unknown vertex kind {other:?} for {name:?}")),
        };
        g.add(CaseVertex { name, sub });
    }
    for e in opt_array(v, "edges", "graph")? {
        let (f, t) = super::strict::pair(e, "edge")?;
        let find = |n: &str| {
            g.find_by_name(n)
                .ok_or_else(|| format!("edge names unknown vertex {n:?}"))
        };
        let (f, t) = (find(&f)?, find(&t)?);
        g.connect(f, t);
    }
    Ok(g)
}

fn run(case: &Value) -> Result<Outcome, String> {
    keys(
        case,
        "case",
        &["origin", "graph", "options", "expected", "notes"],
    )?;
    let g = build(&case["graph"])?;
    let o = case.get("options").unwrap_or(&Value::Null);
    let opts = if o.is_null() {
        DotOpts::default()
    } else {
        keys(o, "options", &["verbose", "draw_cycles", "max_depth"])?;
        let max_depth = match o.get("max_depth") {
            None => 0,
            Some(d) => d
                .as_i64()
                .ok_or("options.max_depth is not a whole number")?,
        };
        DotOpts {
            verbose: opt_bool(o, "verbose", "options")?.unwrap_or(false),
            draw_cycles: opt_bool(o, "draw_cycles", "options")?.unwrap_or(false),
            max_depth,
        }
    };
    let got = g.dot(&opts);
    let want = req_str(case, "expected", "case")?;
    if got == want {
        return Ok(Outcome::Pass);
    }
    Ok(Outcome::Fail(first_difference(want, &got)))
}

/// Runs one `dot` case.
pub fn run_case(path: &Path) -> Outcome {
    match read_json(path).and_then(|case| run(&case)) {
        Ok(o) => o,
        Err(e) => Outcome::Fail(e),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_fields_kinds_and_options_fail() {
        let ok = json!({"origin": "t", "graph": {"vertices": [{"name": "A", "kind": "drawable"}],
            "edges": []}, "options": {"draw_cycles": false, "max_depth": 0, "verbose": false},
            "expected": "digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n\t\t\"[root] A\"\n\t}\n}\n", "notes": ""});
        assert_eq!(run(&ok), Ok(Outcome::Pass));
        let mut c = ok.clone();
        c["options"]["rankdir"] = json!("LR");
        assert!(run(&c).unwrap_err().contains("unknown field \"rankdir\""));
        let mut c = ok.clone();
        c["graph"]["vertices"][0]["kind"] = json!("sparkly");
        assert!(run(&c).unwrap_err().contains("unknown vertex kind"));
        let mut c = ok.clone();
        c["style"] = json!(1);
        assert!(run(&c).unwrap_err().contains("unknown field"));
    }
}
