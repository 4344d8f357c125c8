//! `LocalTransformer`: a vertex per local value.

use super::graph::Graph;
use super::nodes::Node;
use super::transform::{Diagnostics, Transform};
use crate::config::Config;

pub struct LocalTransformer<'a> {
    pub config: Option<&'a Config>,
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
            for l in m.module.locals.values() {
                g.add(Node::Local {
                    module: m.path.clone(),
                    config: l.clone(),
                });
            }
        }
        Ok(())
    }
}
