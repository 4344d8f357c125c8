//! `checkTransformer` (a `check.<name> (expand)` vertex per check block, plus a `(report)` vertex
//! while planning) and `checkStartTransformer` (`(execute checks)`: data sources nested in checks
//! wait for every leaf managed resource).

use super::addr::{Mode, Subject};
use super::graph::{Graph, VId};
use super::model::Module;
use super::nodes::Node;
use super::refs::Reference;
use super::transform::{Diagnostics, Operation, Transform};

pub struct CheckTransformer<'a> {
    pub config: Option<&'a Module>,
    pub operation: Operation,
}

impl Transform for CheckTransformer<'_> {
    fn name(&self) -> &'static str {
        "checkTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(root) = self.config else {
            return Ok(());
        };
        if matches!(self.operation, Operation::Destroy | Operation::PlanDestroy) {
            return Ok(());
        }
        let report = matches!(self.operation, Operation::Plan | Operation::Import);
        let all: Vec<VId> = g.vertices();
        for m in root.all_modules() {
            for c in &m.checks {
                let mut refs: Vec<Reference> = c.asserts.iter().flat_map(|a| a.refs()).collect();
                if let Some(d) = c.data.first() {
                    refs.push(Reference {
                        subject: Subject::Resource(d.clone()),
                    });
                }
                let expand = g.add(Node::ExpandCheck {
                    module: m.path.clone(),
                    name: c.name.clone(),
                    refs,
                });
                if !report {
                    continue;
                }
                let rep = g.add(Node::ReportCheck {
                    module: m.path.clone(),
                    name: c.name.clone(),
                });
                g.connect(expand, rep);
                if c.data.is_empty() {
                    continue;
                }
                let nested = all.iter().copied().find(|v| {
                    g.get(*v).and_then(|n| n.resource_data()).is_some_and(|d| {
                        d.addr.module == m.path
                            && m.resource(&d.addr.resource)
                                .is_some_and(|rc| rc.container.as_deref() == Some(c.name.as_str()))
                    })
                });
                if let Some(v) = nested {
                    g.connect(v, rep);
                }
            }
        }
        Ok(())
    }
}

pub struct CheckStartTransformer<'a> {
    pub config: Option<&'a Module>,
    pub operation: Operation,
}

impl Transform for CheckStartTransformer<'_> {
    fn name(&self) -> &'static str {
        "checkStartTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        if !matches!(self.operation, Operation::Apply | Operation::Plan) {
            return Ok(());
        }
        let managed_creator = |g: &Graph, v: VId| {
            let n = g.node(v);
            n.is_creator()
                && n.instance_addr()
                    .is_some_and(|a| a.resource.mode == Mode::Managed)
        };
        let mut leaves = Vec::new();
        let mut nested = Vec::new();
        for v in g.vertices() {
            let n = g.node(v);
            if !n.is_creator() {
                continue;
            }
            let Some(addr) = n.instance_addr() else {
                continue;
            };
            if addr.resource.mode == Mode::Managed {
                if !g.up_edges(v).iter().any(|u| managed_creator(g, *u)) {
                    leaves.push(v);
                }
                continue;
            }
            let in_check = self
                .config
                .and_then(|c| c.descendant(&addr.module_path()))
                .and_then(|m| m.resource(&addr.resource))
                .is_some_and(|r| r.container.is_some());
            if in_check {
                nested.push(v);
            }
        }
        if nested.is_empty() {
            return Ok(());
        }
        let start = g.add(Node::CheckStart);
        for v in nested {
            g.connect(v, start);
        }
        for v in leaves {
            g.connect(start, v);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::model::load_config;
    use crate::builder::{BuilderKind, Inputs, build};
    use std::collections::BTreeMap;

    #[test]
    fn check_blocks_get_expand_and_report_vertices_when_planning() {
        let mut files = BTreeMap::new();
        files.insert(
            "main.tf".to_string(),
            r#"
resource "aws_instance" "a" {}
check "c" {
  data "aws_x" "d" {}
  assert {
    condition     = aws_instance.a.id != ""
    error_message = "empty"
  }
}
"#
            .to_string(),
        );
        let inputs = Inputs {
            config: Some(load_config(&files, "").expect("loads")),
            ..Default::default()
        };
        let b = build(&inputs, BuilderKind::Plan);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(
            s.contains("check.c (expand)\n  aws_instance.a (expand)\n  data.aws_x.d (expand)\n"),
            "{s}"
        );
        assert!(
            s.contains("data.aws_x.d (expand)\n  check.c (report)\n"),
            "{s}"
        );
        let destroy = build(&inputs, BuilderKind::PlanDestroy).graph.string();
        assert!(!destroy.contains("check.c"), "{destroy}");
    }
}
