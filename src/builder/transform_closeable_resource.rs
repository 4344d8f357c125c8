//! `CloseableResourceTransformer`: one `ephemeral.TYPE.NAME (close)` vertex per ephemeral
//! resource, which waits for the resource's expansion, its provider and everything that refers
//! to it, so the ephemeral object is closed only once nothing needs it and before its provider
//! closes (OpenTofu v1.12.6 `internal/tofu/transform_closeable_resource.go`).

use super::graph::{Graph, VId};
use super::nodes::Node;
use super::transform::{Diagnostics, Transform};
use super::why::reason;
use std::collections::BTreeMap;

pub struct CloseableResourceTransformer {
    /// Add nothing (the plan builder skips it while validating).
    pub skip: bool,
}

impl Transform for CloseableResourceTransformer {
    fn name(&self) -> &'static str {
        "CloseableResourceTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        if self.skip {
            return Ok(());
        }
        // closeableResourcesVertexMap: the expandable ephemeral resource vertices by address.
        let mut by_addr: BTreeMap<String, Vec<VId>> = BTreeMap::new();
        for v in g.vertices() {
            if let Some(addr) = g.node(v).closeable_ephemeral() {
                by_addr.entry(addr.to_string()).or_default().push(v);
            }
        }
        for instances in by_addr.into_values() {
            let Some(addr) = g.node(instances[0]).closeable_ephemeral().cloned() else {
                continue;
            };
            // collectInstanceDependencies: the providers it uses directly and every referencer
            // that (transitively) depends on it, then the vertex itself.
            let mut deps: Vec<(VId, &'static str)> = Vec::new();
            for &inst in &instances {
                deps.extend(
                    g.down_edges(inst)
                        .into_iter()
                        .filter(|d| g.node(*d).is_provider())
                        .map(|d| (d, reason::EPHEMERAL_CLOSED_BY_PROVIDER)),
                );
                deps.extend(
                    g.descendants(inst)
                        .into_iter()
                        .filter(|d| g.node(*d).is_referencer())
                        .map(|d| (d, reason::EPHEMERAL_CLOSES_AFTER_USERS)),
                );
                deps.push((inst, reason::CLOSES_EPHEMERAL));
            }
            let closer = g.add(Node::CloseableResource { addr });
            for (d, why) in deps {
                g.connect_because(closer, d, why);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::{BuilderKind, Inputs, build, test_config};

    const CONFIG: &str = r#"
ephemeral "random_password" "db" {
  length = 16
}
resource "aws_db_instance" "main" {
  password_wo = ephemeral.random_password.db.result
}
output "n" {
  value = 1
}
"#;

    fn graph(kind: BuilderKind) -> String {
        let inputs = Inputs {
            config: Some(test_config(&[("main.tf", CONFIG)])),
            read_bodies_without_schema: true,
            ..Default::default()
        };
        let b = build(&inputs, kind);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        b.graph.string()
    }

    /// internal/tofu/transform_closeable_resource.go `CloseableResourceTransformer.Transform`
    /// and `collectInstanceDependencies`: the closer waits for the ephemeral resource and for
    /// every referencer depending on it (transitive reduction leaves the resource using it); the
    /// provider's closer waits for the ephemeral closer (transform_provider.go
    /// `CloseProviderTransformer`, `GraphNodeCloseableResource`).
    #[test]
    fn ephemeral_resources_get_a_closer_in_plan_and_apply() {
        let plan = graph(BuilderKind::Plan);
        assert!(
            plan.contains(
                "ephemeral.random_password.db (close)\n  aws_db_instance.main (expand)\n"
            ),
            "{plan}"
        );
        assert!(
            plan.contains(
                "provider[\"registry.opentofu.org/hashicorp/random\"] (close)\n  ephemeral.random_password.db (close)\n"
            ),
            "{plan}"
        );
        // graph_builder_plan.go: "Closeable nodes are not needed to be added during validate".
        let validate = graph(BuilderKind::Validate);
        assert!(
            !validate.contains("ephemeral.random_password.db (close)"),
            "{validate}"
        );
    }

    /// graph_builder_plan.go `PlanGraphBuilder.Steps`, ConfigTransformer's ModeFilter: while
    /// planning a destroy only ephemeral resources are added, so a provider configured from one
    /// can still be opened; one nothing uses is pruned (transform_destroy_edge.go
    /// `pruneUnusedNodesTransformer`, "Decided here to not add additional logic to skip pruning
    /// of the ephemeral resources").
    #[test]
    fn plan_destroy_keeps_only_ephemeral_resources_that_are_used() {
        let config = format!(
            "{CONFIG}\nprovider \"aws\" {{\n  token = ephemeral.random_password.db.result\n}}\nephemeral \"random_password\" \"unused\" {{}}\n"
        );
        let state = r#"{"version": 4, "resources": [
          {"mode": "managed", "type": "aws_db_instance", "name": "main",
           "provider": "provider[\"registry.opentofu.org/hashicorp/aws\"]",
           "instances": [{"attributes": {}}]}]}"#;
        let inputs = Inputs {
            config: Some(test_config(&[("main.tf", &config)])),
            state: Some(crate::state::parse_state_json(state).expect("state")),
            read_bodies_without_schema: true,
            ..Default::default()
        };
        let b = build(&inputs, BuilderKind::PlanDestroy);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let g = b.graph.string();
        assert!(
            g.contains("provider[\"registry.opentofu.org/hashicorp/aws\"]\n  ephemeral.random_password.db (expand)\n"),
            "{g}"
        );
        assert!(g.contains("ephemeral.random_password.db (close)"), "{g}");
        assert!(!g.contains("aws_db_instance.main (expand)"), "{g}");
        assert!(!g.contains("ephemeral.random_password.unused"), "{g}");
    }
}
