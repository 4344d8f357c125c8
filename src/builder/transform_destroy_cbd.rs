//! `ForcedCBDTransformer` (create_before_destroy forced on for dependencies of CBD nodes) and
//! `CBDEdgeTransformer` (a CBD destroy waits for its creators instead of the reverse).

use super::graph::{Graph, VId};
use super::nodes::{InstanceKind, Node, ResourceKind};
use super::transform::{Diagnostics, Transform};
use super::why::reason;

/// `GraphNodeDestroyerCBD.CreateBeforeDestroy()`, `None` for vertices that are not CBD-capable
/// (the plan's expand vertices, applyable instances, destroy and deposed-destroy vertices are).
pub fn create_before_destroy(n: &Node) -> Option<bool> {
    if let Node::Resource {
        kind: ResourceKind::ExpandPlannable,
        d,
    } = n
    {
        return Some(d.create_before_destroy_forced || d.config_create_before_destroy());
    }
    let Node::Instance { kind, d } = n else {
        return None;
    };
    let config_cbd = d.res.config_create_before_destroy();
    match kind {
        InstanceKind::Applyable => Some(d.res.create_before_destroy_forced || config_cbd),
        InstanceKind::Destroy => Some(if d.has_state { d.state_cbd } else { config_cbd }),
        InstanceKind::DestroyDeposed(_) => Some(true),
        _ => None,
    }
}

pub struct ForcedCBDTransformer;

impl Transform for ForcedCBDTransformer {
    fn name(&self) -> &'static str {
        "ForcedCBDTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        // Go asks `hasCBDDescendent` of every CBD-capable vertex, one descendants walk each:
        // O(V·(V+E)), seconds at a few thousand vertices. The vertices with a CBD descendant are
        // the ancestors of the CBD vertices, found in one walk up the edges. Forcing a vertex
        // inside Go's loop does not change the answer for the others: a vertex is forced only
        // when a CBD vertex lies below it, which then lies below its ancestors too.
        let mut has_cbd_descendant = std::collections::BTreeSet::new();
        let mut todo: Vec<VId> = g
            .vertices()
            .into_iter()
            .filter(|v| create_before_destroy(g.node(*v)) == Some(true))
            .collect();
        while let Some(v) = todo.pop() {
            for up in g.up_edges(v) {
                if has_cbd_descendant.insert(up) {
                    todo.push(up);
                }
            }
        }
        for v in g.vertices() {
            let Some(cbd) = create_before_destroy(g.node(v)) else {
                continue;
            };
            if cbd {
                continue;
            }
            // ModifyCreateBeforeDestroy: only applyable instances and the plan's expand
            // vertices record it (destroy vertices ignore it).
            if has_cbd_descendant.contains(&v) {
                match g.node_mut(v) {
                    Some(Node::Instance {
                        kind: InstanceKind::Applyable,
                        d,
                    }) => d.res.create_before_destroy_forced = true,
                    Some(Node::Resource {
                        kind: ResourceKind::ExpandPlannable,
                        d,
                    }) => d.create_before_destroy_forced = true,
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

pub struct CBDEdgeTransformer;

impl Transform for CBDEdgeTransformer {
    fn name(&self) -> &'static str {
        "CBDEdgeTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        for v in g.vertices() {
            let n = g.node(v);
            if !n.is_destroyer() || create_before_destroy(n) != Some(true) {
                continue;
            }
            let sources: Vec<VId> = g.up_edges(v);
            for src in sources {
                if g.node(src).is_creator() {
                    g.remove_edge(src, v);
                    g.connect_because(v, src, reason::CREATE_BEFORE_DESTROY);
                }
            }
        }
        Ok(())
    }
}
