//! `RootVariableTransformer` and `ModuleVariableTransformer`: a vertex per input variable plus a
//! "reference" vertex that depends on it.

use super::graph::Graph;
use super::nodes::Node;
use super::transform::{Diagnostics, Transform};
use crate::addrs::Module;
use crate::config::Config;
use crate::config::refs::rules_refs;

pub struct RootVariableTransformer<'a> {
    pub config: Option<&'a Config>,
}

impl Transform for RootVariableTransformer<'_> {
    fn name(&self) -> &'static str {
        "RootVariableTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(root) = self.config else {
            return Ok(());
        };
        for v in root.module.variables.values() {
            let node = g.add(Node::RootVariable {
                name: v.name.clone(),
            });
            let validation_refs = rules_refs(&v.validations);
            let r = g.add(Node::VariableReference {
                module: Module::root(),
                name: v.name.clone(),
                validation_refs,
                has_validations: !v.validations.is_empty(),
            });
            g.connect(r, node);
        }
        Ok(())
    }
}

pub struct ModuleVariableTransformer<'a> {
    pub config: Option<&'a Config>,
}

impl ModuleVariableTransformer<'_> {
    fn walk(g: &mut Graph, parent: Option<&Config>, m: &Config) {
        for c in m.children.values() {
            Self::walk(g, Some(m), c);
        }
        let Some(parent) = parent else { return };
        let Some(call_name) = m.path.0.last() else {
            return;
        };
        let call = parent.module.module_calls.get(call_name);
        for v in m.module.variables.values() {
            let expr = call.and_then(|c| c.config.attr(&v.name));
            let input = g.add(Node::ModuleVariable {
                module: m.path.clone(),
                name: v.name.clone(),
                expr,
            });
            let validation_refs = rules_refs(&v.validations);
            let r = g.add(Node::VariableReference {
                module: m.path.clone(),
                name: v.name.clone(),
                validation_refs,
                has_validations: !v.validations.is_empty(),
            });
            g.connect(r, input);
        }
    }
}

impl Transform for ModuleVariableTransformer<'_> {
    fn name(&self) -> &'static str {
        "ModuleVariableTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        if let Some(root) = self.config {
            Self::walk(g, None, root);
        }
        Ok(())
    }
}
