//! `OutputTransformer`: a vertex per output value (children first, as in OpenTofu).

use super::graph::Graph;
use super::nodes::Node;
use super::transform::{Diagnostics, Transform};
use crate::config::Config;

pub struct OutputTransformer<'a> {
    pub config: Option<&'a Config>,
    pub destroying: bool,
    /// Refresh-only planning and planning mode change how outputs evaluate, not the graph.
    pub refresh_only: bool,
    pub planning: bool,
}

impl OutputTransformer<'_> {
    fn walk(&self, g: &mut Graph, m: &Config) {
        for c in m.children.values() {
            self.walk(g, c);
        }
        for o in m.module.outputs.values() {
            g.add(Node::Output {
                module: m.path.clone(),
                config: o.clone(),
                destroying: self.destroying,
            });
        }
    }
}

impl Transform for OutputTransformer<'_> {
    fn name(&self) -> &'static str {
        "OutputTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        if let Some(root) = self.config {
            self.walk(g, root);
        }
        Ok(())
    }
}
