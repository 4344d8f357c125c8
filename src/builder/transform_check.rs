//! `checkTransformer` (a `check.<name> (expand)` vertex per check block, plus a `(report)` vertex
//! while planning) and `checkStartTransformer` (`(execute checks)`: data sources nested in checks
//! wait for every leaf managed resource).

use super::graph::{Graph, VId};
use super::nodes::Node;
use super::transform::{Diagnostics, Operation, Transform};
use super::why::reason;
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
                        range: d.decl_range.clone().into(),
                        remaining: Default::default(),
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
                g.connect_because(expand, rep, reason::CHECK_REPORTS_AFTER_EXPANDING);
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
                    g.connect_because(v, rep, reason::CHECK_REPORTS_AFTER_DATA);
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
            g.connect_because(v, start, reason::CHECK_DATA_AFTER_START);
        }
        for v in leaves {
            g.connect_because(start, v, reason::CHECKS_START_AFTER_RESOURCE);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::transform::Operation;
    use crate::builder::{
        BuilderKind, Inputs, apply_steps, build, run_steps, test_config, test_inputs,
    };

    const CHECK_WITH_DATA: &str = r#"
resource "aws_instance" "foo" {
  test_string = "Hello, world!"
}
resource "aws_instance" "baz" {
  test_string = aws_instance.foo.test_string
}
check "my_check" {
  data "aws_data_source" "bar" {
    id = "UI098L"
  }
  assert {
    condition     = data.aws_data_source.bar.foo == "valid value"
    error_message = "invalid value"
  }
}
"#;

    /// `mockProviderWithResourceTypeSchema("aws_instance", simpleTestSchema())`.
    const AWS_SCHEMAS: &str = r#"{"format_version": "1.0", "provider_schemas": {
      "registry.opentofu.org/hashicorp/aws": {
        "provider": {"version": 0, "block": {"attributes": {
          "string": {"type": "string", "optional": true},
          "list": {"type": ["list", "string"], "optional": true},
          "root": {"type": ["map", "string"], "optional": true}}, "description_kind": "plain"}},
        "resource_schemas": {"aws_instance": {"version": 0, "block": {"attributes": {
          "test_string": {"type": "string", "optional": true}}, "description_kind": "plain"}}}}}}"#;

    /// internal/tofu/graph_builder_apply_test.go TestApplyGraphBuilder_withChecks: the apply graph
    /// keeps `check.my_check (expand)` (checkTransformer adds it for walkApply, and
    /// pruneUnusedNodesTransformer keeps it: nodeExpandCheck is neither a temporary value nor
    /// retained, so it falls to "kept"; instance_expanders.go says so), and the nested data
    /// source waits for `(execute checks)` (transform_check_starter.go).
    #[test]
    fn the_apply_graph_keeps_check_blocks() {
        let inputs = test_inputs(
            &[("main.tf", CHECK_WITH_DATA)],
            Some(r#"{"version": 4, "resources": []}"#),
            Some(
                r#"[{"addr": "aws_instance.foo", "action": "create"},
                    {"addr": "aws_instance.baz", "action": "create"},
                    {"addr": "data.aws_data_source.bar", "action": "read",
                     "action_reason": "ReadBecauseCheckNested"}]"#,
            ),
            Some(AWS_SCHEMAS),
        );
        let b = run_steps(&apply_steps(&inputs, Operation::Apply));
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let want = r#"(execute checks)
  aws_instance.baz
aws_instance.baz
  aws_instance.baz (expand)
aws_instance.baz (expand)
  aws_instance.foo
aws_instance.foo
  aws_instance.foo (expand)
aws_instance.foo (expand)
  provider["registry.opentofu.org/hashicorp/aws"]
check.my_check (expand)
  data.aws_data_source.bar
data.aws_data_source.bar
  (execute checks)
  data.aws_data_source.bar (expand)
data.aws_data_source.bar (expand)
  provider["registry.opentofu.org/hashicorp/aws"]
provider["registry.opentofu.org/hashicorp/aws"]
provider["registry.opentofu.org/hashicorp/aws"] (close)
  data.aws_data_source.bar
root
  check.my_check (expand)
  provider["registry.opentofu.org/hashicorp/aws"] (close)
"#;
        assert_eq!(b.graph.string(), want);
        // walkDestroy: checkTransformer adds nothing and checkStartTransformer does not run.
        let b = run_steps(&apply_steps(&inputs, Operation::Destroy));
        let s = b.graph.string();
        assert!(
            !s.contains("check.my_check") && !s.contains("(execute checks)"),
            "{s}"
        );
    }

    /// internal/tofu/transform_check.go `checkTransformer.transform`, `ReportChecks` (plan and
    /// import only) and `ExecuteChecks`; graph_builder_plan.go has no checkStartTransformer. Every
    /// builder: plan and refresh-only (both walkPlan) report checks before the nested data
    /// source reads; validation has the expansion only; destroy plans have no check vertex.
    #[test]
    fn check_vertices_per_builder() {
        let inputs = Inputs {
            config: Some(test_config(&[("main.tf", CHECK_WITH_DATA)])),
            ..Default::default()
        };
        for kind in [BuilderKind::Plan, BuilderKind::PlanRefreshOnly] {
            let s = build(&inputs, kind).graph.string();
            assert!(s.contains("check.my_check (expand)\n"), "{kind:?}\n{s}");
            assert!(
                s.contains("data.aws_data_source.bar (expand)\n  check.my_check (report)\n"),
                "{kind:?}\n{s}"
            );
            assert!(!s.contains("(execute checks)"), "{kind:?}\n{s}");
        }
        let s = build(&inputs, BuilderKind::Validate).graph.string();
        assert!(s.contains("check.my_check (expand)\n"), "{s}");
        assert!(
            !s.contains("(report)") && !s.contains("(execute checks)"),
            "{s}"
        );
        let s = build(&inputs, BuilderKind::PlanDestroy).graph.string();
        assert!(!s.contains("check.my_check"), "{s}");
        // Without a nested data block there is nothing to report before, and no checkStart.
        let plain = Inputs {
            config: Some(test_config(&[(
                "main.tf",
                "resource \"aws_instance\" \"a\" {}\ncheck \"c\" {\n  assert {\n    condition = aws_instance.a.id != \"\"\n    error_message = \"x\"\n  }\n}\n",
            )])),
            ..Default::default()
        };
        let s = build(&plain, BuilderKind::Plan).graph.string();
        assert!(
            s.contains("check.c (expand)\n  aws_instance.a (expand)\n  check.c (report)\n"),
            "{s}"
        );
        let apply = run_steps(&apply_steps(&plain, Operation::Apply))
            .graph
            .string();
        assert!(apply.contains("check.c (expand)"), "{apply}");
        assert!(!apply.contains("(execute checks)"), "{apply}");
    }
}
