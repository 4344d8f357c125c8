//! `DestroyEdgeTransformer` (destroy ordering: creators wait for the destruction of what they
//! replace, destroys run in reverse dependency order) and `pruneUnusedNodesTransformer`.

use super::graph::{Graph, VId};
use super::nodes::{Node, ResourceKind};
use super::transform::{Diagnostics, Operation, Transform};
use crate::addrs::AbsResourceInstance;
use crate::plan::{Action, Changes};
use std::collections::BTreeMap;

pub struct DestroyEdgeTransformer<'a> {
    pub changes: Option<&'a Changes>,
    pub operation: Operation,
}

fn state_deps(g: &Graph, v: VId) -> Vec<String> {
    match g.node(v) {
        Node::Instance { d, .. } => d.state_deps.iter().map(|c| c.to_string()).collect(),
        _ => Vec::new(),
    }
}

impl DestroyEdgeTransformer<'_> {
    fn try_inter_provider_edge(&self, g: &mut Graph, from: VId, to: VId) {
        g.connect(from, to);
        if matches!(self.operation, Operation::Destroy | Operation::PlanDestroy) {
            return;
        }
        let (Some(a), Some(b)) = (g.node(from).resource_data(), g.node(to).resource_data()) else {
            return;
        };
        if a.provider() != b.provider() && !g.cycles().is_empty() {
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

/// `graphNodeTemporaryValue.temporaryValue()`, `None` for other vertex types.
fn temporary_value(n: &Node) -> Option<bool> {
    match n {
        Node::RootVariable { .. }
        | Node::VariableReference { .. }
        | Node::ModuleVariable { .. }
        | Node::Local { .. } => Some(true),
        Node::Output { module, .. } => Some(!module.is_root()),
        _ => None,
    }
}

/// `graphNodeExpandsInstances`.
fn expands_instances(n: &Node) -> bool {
    matches!(
        n,
        Node::ExpandModule { .. }
            | Node::Resource {
                kind: ResourceKind::ExpandPlannable | ResourceKind::ExpandApplyable,
                ..
            }
            | Node::ModuleVariable { .. }
            | Node::Local { .. }
            | Node::Output { .. }
            | Node::ExpandCheck { .. }
    )
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
        let mut removed = true;
        while removed {
            removed = false;
            for v in g.vertices() {
                let n = g.node(v);
                let prune = if let Some(tmp) = temporary_value(n) {
                    tmp && !g.up_edges(v).iter().any(|u| g.node(*u).is_referencer())
                } else if expands_instances(n) {
                    !g.up_edges(v).iter().any(|u| {
                        let un = g.node(*u);
                        if expands_instances(un) {
                            temporary_value(un) != Some(false)
                        } else {
                            matches!(un, Node::Instance { .. })
                        }
                    })
                } else if matches!(n, Node::Provider { .. } | Node::ProxyProvider { .. }) {
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
