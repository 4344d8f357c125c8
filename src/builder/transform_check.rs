//! `checkTransformer` (a `check.<name> (expand)` vertex per check block, plus a `(report)` vertex
//! while planning) and `checkStartTransformer` (`(execute checks)`: data sources nested in checks
//! wait for every leaf managed resource).

use super::graph::{Graph, VId};
use super::nodes::Node;
use super::transform::{Diagnostics, Operation, Transform};
use crate::addrs::{Referenceable, ResourceMode};
use crate::config::refs::check_refs;
use crate::config::{Config, Reference};

pub struct CheckTransformer<'a> {
    pub config: Option<&'a Config>,
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
            for c in m.module.checks.values() {
                let mut refs = check_refs(c);
                // The scoped data block, as Go's nodeExpandCheck refers to it.
                if let Some(d) = c.data_resources.first() {
                    refs.refs.push(Reference {
                        subject: Referenceable::Resource(d.addr()),
                        range: d.decl_range.clone(),
                        remaining: Vec::new(),
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
                if c.data_resources.is_empty() {
                    continue;
                }
                let nested = all.iter().copied().find(|v| {
                    g.get(*v).and_then(|n| n.resource_data()).is_some_and(|d| {
                        d.addr.module == m.path
                            && m.module
                                .resource(&d.addr.resource)
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
    pub config: Option<&'a Config>,
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
                    .is_some_and(|a| a.resource.resource.mode == ResourceMode::Managed)
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
            if addr.resource.resource.mode == ResourceMode::Managed {
                if !g.up_edges(v).iter().any(|u| managed_creator(g, *u)) {
                    leaves.push(v);
                }
                continue;
            }
            let in_check = self
                .config
                .and_then(|c| c.descendant_for_instance(&addr.module))
                .and_then(|m| m.module.resource(&addr.resource.resource))
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
    use crate::builder::{BuilderKind, Inputs, build, test_config};

    #[test]
    fn check_blocks_get_expand_and_report_vertices_when_planning() {
        let config = test_config(&[(
            "main.tf",
            r#"
resource "aws_instance" "a" {}
check "c" {
  data "aws_x" "d" {}
  assert {
    condition     = aws_instance.a.id != ""
    error_message = "empty"
  }
}
"#,
        )]);
        let inputs = Inputs {
            config: Some(config),
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
