//! `checkTransformer` and `checkStartTransformer`: vertices for `check` blocks. The conformance
//! corpus has no check blocks; configurations with them get one `check.<name> (expand)` vertex
//! each, referencing what its assertions name.

use super::graph::Graph;
use super::model::Module;
use super::nodes::Node;
use super::transform::{Diagnostics, Transform};

pub struct CheckTransformer<'a> {
    pub config: Option<&'a Module>,
}

impl Transform for CheckTransformer<'_> {
    fn name(&self) -> &'static str {
        "checkTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(root) = self.config else {
            return Ok(());
        };
        for m in root.all_modules() {
            for c in &m.checks {
                let refs = c.asserts.iter().flat_map(|a| a.refs()).collect();
                g.add(Node::ExpandCheck {
                    module: m.path.clone(),
                    name: c.name.clone(),
                    refs,
                });
            }
        }
        Ok(())
    }
}

/// Orders check-block data sources after everything else; without check blocks it does nothing.
pub struct CheckStartTransformer;

impl Transform for CheckStartTransformer {
    fn name(&self) -> &'static str {
        "checkStartTransformer"
    }
    fn transform(&self, _g: &mut Graph) -> Result<(), Diagnostics> {
        Ok(())
    }
}
