//! `ForcedCBDTransformer` (create_before_destroy forced on for dependencies of CBD nodes) and
//! `CBDEdgeTransformer` (a CBD destroy waits for its creators instead of the reverse).

use super::graph::{Graph, VId};
use super::nodes::{InstanceKind, Node};
use super::transform::{Diagnostics, Transform};

/// `GraphNodeDestroyerCBD.CreateBeforeDestroy()`, `None` for vertices that are not CBD-capable.
pub fn create_before_destroy(n: &Node) -> Option<bool> {
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
        for v in g.vertices() {
            let Some(cbd) = create_before_destroy(g.node(v)) else {
                continue;
            };
            if cbd {
                continue;
            }
            let has_cbd_descendant = g
                .descendants(v)
                .iter()
                .any(|d| create_before_destroy(g.node(*d)) == Some(true));
            if has_cbd_descendant
                && let Some(Node::Instance {
                    kind: InstanceKind::Applyable,
                    d,
                }) = g.node_mut(v)
            {
                d.res.create_before_destroy_forced = true;
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
                    g.connect(v, src);
                }
            }
        }
        Ok(())
    }
}
