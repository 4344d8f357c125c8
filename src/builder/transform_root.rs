//! `RootTransformer` (a single `root` vertex that depends on everything nothing else depends on)
//! and `CloseRootModuleTransformer` (the root module's closer, also named `root`).

use super::graph::Graph;
use super::nodes::Node;
use super::transform::{Diagnostics, Transform};

fn add_root(g: &mut Graph, node: Node) {
    let root = match g
        .vertices()
        .into_iter()
        .find(|v| matches!(g.node(*v), Node::Root))
    {
        Some(r) if matches!(node, Node::Root) => r,
        _ => g.add(node),
    };
    for v in g.vertices() {
        if v != root && !g.has_dependents(v) {
            g.connect(root, v);
        }
    }
}

pub struct RootTransformer;

impl Transform for RootTransformer {
    fn name(&self) -> &'static str {
        "RootTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        add_root(g, Node::Root);
        Ok(())
    }
}

pub struct CloseRootModuleTransformer;

impl Transform for CloseRootModuleTransformer {
    fn name(&self) -> &'static str {
        "CloseRootModuleTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        add_root(
            g,
            Node::CloseModule {
                path: crate::addrs::Module::root(),
            },
        );
        Ok(())
    }
}

pub struct TransitiveReductionTransformer;

impl Transform for TransitiveReductionTransformer {
    fn name(&self) -> &'static str {
        "TransitiveReductionTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        // Like OpenTofu, an invalid graph (not exactly one root, a cycle or a self reference) is
        // left as it is: validation reports that elsewhere.
        g.transitive_reduction_if_valid();
        Ok(())
    }
}
