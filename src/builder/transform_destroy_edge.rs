//! `DestroyEdgeTransformer` (destroy ordering: creators wait for the destruction of what they
//! replace, destroys run in reverse dependency order) and `pruneUnusedNodesTransformer`.

use super::graph::{Graph, VId};
use super::nodes::{Node, ProviderRequest};
use super::transform::{Diagnostics, Operation, Transform};
use super::why::reason;
use crate::addrs::AbsResourceInstance;
use crate::plan::{Action, Changes};
use std::collections::BTreeMap;

pub struct DestroyEdgeTransformer<'a> {
    pub changes: Option<&'a Changes>,
    pub operation: Operation,
}

/// `StateDependencies()` of an instance vertex, as resource address strings.
fn state_deps(g: &Graph, v: VId) -> Vec<String> {
    match g.node(v) {
        Node::Instance { d, .. } => d
            .state_dependencies()
            .iter()
            .map(|c| c.to_string())
            .collect(),
        _ => Vec::new(),
    }
}

/// `getComparableProvider`: the provider configuration a consumer asks for, printed (a local
/// request prints as Go's `LocalProviderConfig`), else its provider's FQN.
fn comparable_provider(n: &Node) -> Option<String> {
    let d = n.resource_data()?;
    Some(match n.provided_by() {
        Some(ProviderRequest::Exact(p)) => p.to_string(),
        Some(ProviderRequest::Local { alias }) => {
            // LocalProviderConfig.String(): the local name (here the implied one Go's
            // NodeAbstractResource passes when it has no configuration) and the alias.
            let local = match &d.config {
                Some(c) => c.provider_config_addr().local_name,
                None => d.addr.resource.implied_provider(),
            };
            match alias {
                Some(a) => format!("{local}.{a}"),
                None => local,
            }
        }
        None => d.provider().to_string(),
    })
}

impl DestroyEdgeTransformer<'_> {
    fn try_inter_provider_edge(&self, g: &mut Graph, from: VId, to: VId, why: &'static str) {
        g.connect_because(from, to, why);
        if matches!(self.operation, Operation::Destroy | Operation::PlanDestroy) {
            return;
        }
        let (Some(a), Some(b)) = (
            comparable_provider(g.node(from)),
            comparable_provider(g.node(to)),
        ) else {
            return;
        };
        if a != b && !g.cycles().is_empty() {
            g.remove_edge(from, to);
        }
    }
}

impl Transform for DestroyEdgeTransformer<'_> {
    fn name(&self) -> &'static str {
        "DestroyEdgeTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let mut destroyers: BTreeMap<String, Vec<VId>> = BTreeMap::new();
        let mut creators: BTreeMap<String, Vec<VId>> = BTreeMap::new();
        let mut destroyers_by_resource: BTreeMap<String, Vec<VId>> = BTreeMap::new();
        let change_of = |a: &AbsResourceInstance| {
            self.changes.and_then(|c| {
                c.resources
                    .iter()
                    .find(|r| &r.addr == a && r.deposed.is_none())
            })
        };
        for v in g.vertices() {
            let n = g.node(v);
            let Some(addr) = n.instance_addr() else {
                continue;
            };
            if n.is_destroyer() {
                destroyers.entry(addr.to_string()).or_default().push(v);
                destroyers_by_resource
                    .entry(addr.config_resource().to_string())
                    .or_default()
                    .push(v);
            } else if n.is_creator() {
                let key = addr.config_resource().to_string();
                match self.changes {
                    None => creators.entry(key).or_default().push(v),
                    Some(_) => {
                        if change_of(addr).is_some_and(|c| c.action != Action::NoOp) {
                            creators.entry(key).or_default().push(v);
                        }
                    }
                }
            }
        }
        if destroyers.is_empty() {
            return Ok(());
        }
        for v in g.vertices() {
            let n = g.node(v);
            if !n.is_creator() {
                continue;
            }
            let Some(addr) = n.instance_addr() else {
                continue;
            };
            for d in destroyers
                .get(&addr.to_string())
                .cloned()
                .unwrap_or_default()
            {
                g.connect_because(v, d, reason::DESTROY_BEFORE_CREATE);
            }
        }
        for cs in creators.values() {
            for &c in cs {
                for res in state_deps(g, c) {
                    for &dd in destroyers_by_resource.get(&res).into_iter().flatten() {
                        if !g.in_different_module_instances(c, dd) {
                            g.connect_because(c, dd, reason::DESTROY_DEPENDENCY_BEFORE_CREATE);
                        }
                    }
                }
            }
        }
        for ds in destroyers.values() {
            for &des in ds {
                for res in state_deps(g, des) {
                    for dd in destroyers_by_resource
                        .get(&res)
                        .cloned()
                        .into_iter()
                        .flatten()
                    {
                        if !g.in_different_module_instances(dd, des) {
                            let why = reason::DESTROY_DEPENDENTS_FIRST;
                            self.try_inter_provider_edge(g, dd, des, why);
                        }
                    }
                    for cd in creators.get(&res).cloned().into_iter().flatten() {
                        if !g.in_different_module_instances(cd, des) {
                            let why = reason::DEPENDENT_DESTROYED_BEFORE_UPDATE;
                            self.try_inter_provider_edge(g, cd, des, why);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// `pruneUnusedNodesTransformer`: only runs for the operations that destroy or apply
/// (`walkPlanDestroy`, `walkDestroy`, `walkApply`; internal/tofu/transform_destroy_edge.go).
pub struct PruneUnusedNodesTransformer {
    pub op: Operation,
}

impl Transform for PruneUnusedNodesTransformer {
    fn name(&self) -> &'static str {
        "pruneUnusedNodesTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        if !matches!(
            self.op,
            Operation::PlanDestroy | Operation::Destroy | Operation::Apply
        ) {
            return Ok(());
        }
        let op = self.op;
        let mut removed = true;
        while removed {
            removed = false;
            for v in g.vertices() {
                if !g.contains(v) {
                    continue;
                }
                let n = g.node(v);
                let prune = if let Some(tmp) = n.temporary_value(op) {
                    // Temporary values (variables, locals, module outputs) stay while a
                    // referencer depends on them.
                    tmp && !g.up_edges(v).iter().any(|u| g.node(*u).is_referencer())
                } else if n.retained_by_prune() {
                    // Expanders stay while something that expands, an instance or a provider
                    // depends on them; an expanding root output or check does not count.
                    !g.up_edges(v).iter().any(|u| {
                        let un = g.node(*u);
                        if un.retained_by_prune() || un.dynamic_expandable() {
                            un.temporary_value(op) != Some(false)
                        } else {
                            matches!(un, Node::Instance { .. }) || un.is_provider()
                        }
                    })
                } else if n.is_provider() {
                    // Providers stay while a consumer or a referencer depends on them at all.
                    !g.descendants(v).iter().any(|d| {
                        let dn = g.node(*d);
                        dn.is_provider_consumer() || dn.is_referencer()
                    })
                } else {
                    false
                };
                if prune {
                    g.remove(v);
                    removed = true;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::transform::Operation;
    use crate::builder::{
        BuilderKind, apply_steps, build, run_steps, test_inputs, test_schemas, test_state,
    };

    const VARS: &str = r#"
variable "unused" {}
variable "checked" {
  validation {
    condition     = length(var.checked) > 0
    error_message = "empty"
  }
}
resource "test_object" "a" {}
"#;

    /// internal/tofu/transform_destroy_edge.go `pruneUnusedNodesTransformer`: a root variable
    /// is never pruned (`NodeRootVariable` is no `graphNodeTemporaryValue`, so it falls to
    /// "kept"); an unused variable reference is; one with validation rules is not a temporary
    /// value outside destroys (node_variable_reference.go `temporaryValue`).
    #[test]
    fn pruning_keeps_root_variables_and_validated_references() {
        let state = test_state(&[("a", r#"[{"attributes": {}}]"#)]);
        let changes = r#"[{"addr": "test_object.a", "action": "delete"}]"#;
        let schemas = test_schemas();
        let inputs = test_inputs(
            &[("main.tf", VARS)],
            Some(&state),
            Some(changes),
            Some(&schemas),
        );
        let s = run_steps(&apply_steps(&inputs, Operation::Apply))
            .graph
            .string();
        assert!(
            s.contains("root\n  provider") || s.contains("var.unused\n"),
            "{s}"
        );
        assert!(
            s.contains("\nvar.unused\n") && s.contains("\nvar.checked\n"),
            "{s}"
        );
        assert!(!s.contains("var.unused (expand, reference)"), "{s}");
        assert!(
            s.contains("var.checked (expand, reference)\n  var.checked\n"),
            "{s}"
        );
        // During a destroy the validation no longer keeps it.
        let s = run_steps(&apply_steps(&inputs, Operation::Destroy))
            .graph
            .string();
        assert!(!s.contains("var.checked (expand, reference)"), "{s}");
        // Plans do not prune at all (Op is walkPlan).
        let s = build(&inputs, BuilderKind::Plan).graph.string();
        assert!(s.contains("var.unused (expand, reference)"), "{s}");
    }

    /// internal/tofu/node_resource_abstract_instance.go `StateDependencies`: without a current
    /// object in state, a creator uses the dependencies AttachDependenciesTransformer found, so
    /// a new B that refers to A is created after the destroy of A[1] (transform_destroy_edge.go
    /// `DestroyEdgeTransformer`, "creators").
    #[test]
    fn new_objects_wait_for_the_destruction_of_what_they_refer_to() {
        let config = r#"
resource "test_object" "A" {
  count = 1
}
resource "test_object" "B" {
  test_string = test_object.A[0].test_string
}
"#;
        let state = test_state(&[(
            "A",
            r#"[{"index_key": 0, "attributes": {}}, {"index_key": 1, "attributes": {}}]"#,
        )]);
        let changes = r#"[{"addr": "test_object.A[1]", "action": "delete"},
                          {"addr": "test_object.B", "action": "create"}]"#;
        let schemas = test_schemas();
        let inputs = test_inputs(
            &[("main.tf", config)],
            Some(&state),
            Some(changes),
            Some(&schemas),
        );
        let b = run_steps(&apply_steps(&inputs, Operation::Apply));
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(
            s.contains("test_object.B\n  test_object.A[1] (destroy)\n"),
            "{s}"
        );
    }

    /// internal/tofu/node_resource_abstract_instance.go `StateDependencies` reads only the
    /// current object: a deposed object's recorded dependencies order nothing, and destroy
    /// vertices get no attached dependencies (only `NodeApplyableResourceInstance` and the
    /// plan's expand node are `GraphNodeAttachDependencies`).
    #[test]
    fn deposed_objects_do_not_order_by_their_recorded_dependencies() {
        let state = test_state(&[
            ("A", r#"[{"attributes": {}}]"#),
            (
                "B",
                r#"[{"deposed": "00000001", "attributes": {}, "dependencies": ["test_object.A"]}]"#,
            ),
        ]);
        let changes = r#"[{"addr": "test_object.A", "action": "delete"},
                          {"addr": "test_object.B", "action": "delete", "deposed": "00000001"}]"#;
        let schemas = test_schemas();
        let inputs = test_inputs(
            &[("main.tf", "")],
            Some(&state),
            Some(changes),
            Some(&schemas),
        );
        let b = run_steps(&apply_steps(&inputs, Operation::Apply));
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(
            s.contains(
                "test_object.A (destroy)\n  provider[\"registry.opentofu.org/hashicorp/test\"]\n"
            ),
            "{s}"
        );
    }

    /// internal/tofu/transform_destroy_edge.go `tryInterProviderDestroyEdge` and
    /// `getComparableProvider`: two configurations (aliases) of the same provider are different
    /// providers, so the edge that would close a cycle through the provider configured from A is
    /// left out (comparing provider types, the cycle stayed and the build failed).
    #[test]
    fn inter_provider_destroy_edges_compare_configurations() {
        let config = r#"
provider "test" {
  alias = "a"
}
provider "test" {
  alias       = "b"
  test_string = test_object.A.test_string
}
resource "test_object" "A" {
  provider = test.a
}
"#;
        let state = r#"{"version": 4, "resources": [
              {"mode": "managed", "type": "test_object", "name": "A",
               "provider": "provider[\"registry.opentofu.org/hashicorp/test\"].a",
               "instances": [{"attributes": {}}]},
              {"mode": "managed", "type": "test_object", "name": "B",
               "provider": "provider[\"registry.opentofu.org/hashicorp/test\"].b",
               "instances": [{"attributes": {}, "dependencies": ["test_object.A"]}]}]}"#;
        let changes = r#"[{"addr": "test_object.A", "action": "delete-then-create"},
                          {"addr": "test_object.B", "action": "delete"}]"#;
        let schemas = test_schemas();
        let inputs = test_inputs(
            &[("main.tf", config)],
            Some(state),
            Some(changes),
            Some(&schemas),
        );
        let b = crate::builder::build(&inputs, BuilderKind::Apply);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let g = &b.graph;
        let create_a = g.find("test_object.A").expect("A");
        let destroy_b = g.find("test_object.B (destroy)").expect("B destroy");
        assert!(!g.has_edge(create_a, destroy_b), "{}", g.string());
    }
}
