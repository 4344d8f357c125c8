//! `LocalTransformer`: a vertex per local value.

use super::graph::Graph;
use super::model::Module;
use super::nodes::Node;
use super::transform::{Diagnostics, Transform};

pub struct LocalTransformer<'a> {
    pub config: Option<&'a Module>,
}

impl Transform for LocalTransformer<'_> {
    fn name(&self) -> &'static str {
        "LocalTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(root) = self.config else {
            return Ok(());
        };
        for m in root.all_modules() {
            for l in &m.locals {
                g.add(Node::Local {
                    module: m.path.clone(),
                    name: l.name.clone(),
                    expr: l.expr.clone(),
                });
            }
        }
        Ok(())
    }
}
