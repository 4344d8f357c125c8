//! `DestroyEdgeTransformer` (destroy ordering: creators wait for the destruction of what they
//! replace, destroys run in reverse dependency order) and `pruneUnusedNodesTransformer`.

use super::graph::{Graph, VId};
use super::nodes::{Node, ProviderRequest};
use super::transform::{Diagnostics, Operation, Transform};
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
    fn try_inter_provider_edge(&self, g: &mut Graph, from: VId, to: VId) {
        g.connect(from, to);
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
                g.connect(v, d);
            }
        }
        for cs in creators.values() {
            for &c in cs {
                for res in state_deps(g, c) {
                    for &dd in destroyers_by_resource.get(&res).into_iter().flatten() {
                        if !g.in_different_module_instances(c, dd) {
                            g.connect(c, dd);
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
                            self.try_inter_provider_edge(g, dd, des);
                        }
                    }
                    for cd in creators.get(&res).cloned().into_iter().flatten() {
                        if !g.in_different_module_instances(cd, des) {
                            self.try_inter_provider_edge(g, cd, des);
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
