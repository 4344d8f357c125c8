//! `tfgraph explain`'s answer about one vertex of a built graph: its kind (the Go type that runs
//! it), what it depends on and what depends on it with why each edge exists
//! ([`crate::builder::why`]; edges transitive reduction removed included and marked), its
//! evaluation steps in the operation that walks the graph ([`super::steps`]) and its values
//! ([`super::values`]). [`Report::text`] is what the CLI prints.

use super::steps::{Evaluation, GoNode, Operation, Step, evaluation};
use super::values::{Inputs, Subject, Values, values};
use crate::builder::why::EdgeWhy;
use crate::builder::why_paths::{find_vertex, why_lines};
use crate::builder::{BuilderKind, Graph};

/// One dependency or dependent, with why the edge exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// The other vertex.
    pub name: String,
    pub why: Option<EdgeWhy>,
    /// Transitive reduction removed the edge (a longer path implies it).
    pub reduced: bool,
}

/// Everything `tfgraph explain` says about a vertex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub name: String,
    pub go: GoNode,
    pub kind: BuilderKind,
    pub depends_on: Vec<Edge>,
    pub depended_on_by: Vec<Edge>,
    pub evaluation: Evaluation,
    pub values: Values,
}

/// The report on the vertex `given` names in `g` (as [`find_vertex`] reads names: in full, or
/// by the address of its one vertex), a graph of `kind` built from `inputs`. `Err` says in a
/// sentence that the name matches no vertex (with the nearest name) or several.
pub fn explain(
    g: &Graph,
    kind: BuilderKind,
    inputs: Inputs<'_>,
    given: &str,
) -> Result<Report, String> {
    let v = find_vertex(g, given)?;
    let node = g.node(v);
    let name = node.name();
    let op = Operation::of_builder(kind);
    let go = GoNode::of_node(node, op);
    let mut depends_on = Vec::new();
    let mut depended_on_by = Vec::new();
    for (from, to) in g.whys_by_name().into_keys() {
        if from != name && to != name {
            continue;
        }
        let (Some(f), Some(t)) = (g.find(&from), g.find(&to)) else {
            continue;
        };
        let edge = |other: &str| Edge {
            name: other.to_string(),
            why: g.why(f, t).cloned(),
            reduced: !g.has_edge(f, t),
        };
        if from == name {
            depends_on.push(edge(&to));
        } else {
            depended_on_by.push(edge(&from));
        }
    }
    // Edges added outside a builder run have no record; list them too.
    let dag = g.dag();
    for d in dag.dependencies(v) {
        let n = dag.name_of(d);
        if !depends_on.iter().any(|e| e.name == n) {
            depends_on.push(Edge {
                name: n,
                why: None,
                reduced: false,
            });
        }
    }
    for u in dag.dependents(v) {
        let n = dag.name_of(u);
        if !depended_on_by.iter().any(|e| e.name == n) {
            depended_on_by.push(Edge {
                name: n,
                why: None,
                reduced: false,
            });
        }
    }
    depends_on.sort_by(|a, b| a.name.cmp(&b.name));
    depended_on_by.sort_by(|a, b| a.name.cmp(&b.name));
    let values = match Subject::of_node(node) {
        Some(s) => values(inputs, &s),
        None => Values::default(),
    };
    Ok(Report {
        name,
        go,
        kind,
        depends_on,
        depended_on_by,
        evaluation: evaluation(go, op),
        values,
    })
}

impl Report {
    /// The report as `tfgraph explain` prints it.
    pub fn text(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!("{}\n", self.name));
        out.push_str(&format!(
            "  kind: {} (internal/tofu/{}), in the {} graph\n",
            self.go.type_name(),
            self.go.file(),
            self.kind.as_str()
        ));
        for (title, edges) in [
            ("Depends on", &self.depends_on),
            ("Depended on by", &self.depended_on_by),
        ] {
            out.push_str(&format!("\n{title} ({}):\n", edges.len()));
            if edges.is_empty() {
                out.push_str("  (nothing)\n");
            }
            for e in edges {
                let reduced = if e.reduced {
                    " (removed by transitive reduction: a longer path implies it)"
                } else {
                    ""
                };
                out.push_str(&format!("  {}{reduced}\n", e.name));
                out.push_str(&why_lines(e.why.as_ref(), "      "));
            }
        }
        let op = self.evaluation.operation;
        out.push_str(&format!(
            "\nEvaluation in the {op} walk ({}):\n",
            op.go_walk()
        ));
        steps_text(&self.evaluation.steps, "  ", &mut out);
        if let Some(i) = &self.evaluation.instance {
            out.push_str(&format!(
                "\n  Each vertex of its sub-graph ({}) then runs:\n",
                i.go.type_name()
            ));
            steps_text(&i.steps, "    ", &mut out);
        }
        out.push_str("\nValues:\n");
        out.push_str(&self.values.text("  "));
        out
    }
}

fn steps_text(steps: &[Step], indent: &str, out: &mut String) {
    if steps.is_empty() {
        out.push_str(&format!("{indent}(no steps: nothing runs here)\n"));
    }
    for (i, s) in steps.iter().enumerate() {
        out.push_str(&format!("{indent}{}. {}: {}\n", i + 1, s.name, s.sentence));
        let items = |v: &[super::steps::Item]| {
            if v.is_empty() {
                "nothing".to_string()
            } else {
                v.iter().map(|x| x.label()).collect::<Vec<_>>().join(", ")
            }
        };
        out.push_str(&format!(
            "{indent}   reads {}; writes {}; Go: {}\n",
            items(s.reads),
            items(s.writes),
            s.go
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{Request, run};
    use std::collections::BTreeMap;

    const MAIN: &str = r#"variable "n" {
  type    = number
  default = 2
}

resource "aws_instance" "web" {
  count         = var.n
  instance_type = "t3.micro"
}

resource "aws_eip" "ip" {
  instance = aws_instance.web[0].id
}
"#;

    fn report(kind: BuilderKind, given: &str) -> Result<Report, String> {
        let files = BTreeMap::from([("main.tf".to_string(), MAIN.to_string())]);
        let out = run(&Request::new(files, kind)).expect("builds");
        explain(
            &out.built.graph,
            out.kind,
            Inputs {
                config: &out.config,
                vars: &out.vars,
                sources: &out.var_sources,
            },
            given,
        )
    }

    #[test]
    fn a_resource_is_explained_with_its_edges_steps_and_values() {
        let r = report(BuilderKind::Plan, "aws_instance.web").expect("found");
        assert_eq!(r.name, "aws_instance.web (expand)");
        assert_eq!(r.go.type_name(), "nodeExpandPlannableResource");
        let var = r
            .depends_on
            .iter()
            .find(|e| e.name == "var.n")
            .expect("depends on var.n");
        assert_eq!(var.why.as_ref().unwrap().references[0].text, "var.n");
        assert!(
            r.depended_on_by
                .iter()
                .any(|e| e.name == "aws_eip.ip (expand)")
        );
        let text = r.text();
        assert!(
            text.contains("\nEvaluation in the plan walk (walkPlan):\n  1. "),
            "{text}"
        );
        assert!(
            text.contains(
                "  Each vertex of its sub-graph (NodePlannableResourceInstance) then runs:"
            ),
            "{text}"
        );
        assert!(
            text.contains("    reads var.n = 2 (default)\n    count = 2\n"),
            "{text}"
        );
        assert!(
            text.contains("  aws_instance.web[1]:\n    instance_type = \"t3.micro\"\n"),
            "{text}"
        );
        // The same vertex in the validate graph: another Go type, other steps.
        let v = report(BuilderKind::Validate, "aws_instance.web").expect("found");
        assert_eq!(v.go.type_name(), "NodeValidatableResource");
        assert_ne!(v.evaluation.steps, r.evaluation.steps);
    }

    #[test]
    fn a_name_that_is_no_vertex_gets_the_nearest_one() {
        assert_eq!(
            report(BuilderKind::Plan, "aws_instance.wbe").unwrap_err(),
            "No vertex \"aws_instance.wbe\" in the graph. Did you mean \"aws_instance.web (expand)\"?"
        );
    }
}
