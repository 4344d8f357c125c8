//! `RootVariableTransformer` and `ModuleVariableTransformer`: a vertex per input variable plus a
//! "reference" vertex that depends on it.

use super::graph::Graph;
use super::model::Module;
use super::nodes::Node;
use super::transform::{Diagnostics, Transform};

pub struct RootVariableTransformer<'a> {
    pub config: Option<&'a Module>,
}

impl Transform for RootVariableTransformer<'_> {
    fn name(&self) -> &'static str {
        "RootVariableTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(root) = self.config else {
            return Ok(());
        };
        for v in &root.variables {
            let node = g.add(Node::RootVariable {
                name: v.name.clone(),
            });
            let validation_refs = v.validations.iter().flat_map(|c| c.refs()).collect();
            let r = g.add(Node::VariableReference {
                module: Vec::new(),
                name: v.name.clone(),
                validation_refs,
            });
            g.connect(r, node);
        }
        Ok(())
    }
}

pub struct ModuleVariableTransformer<'a> {
    pub config: Option<&'a Module>,
}

impl ModuleVariableTransformer<'_> {
    fn walk(g: &mut Graph, parent: Option<&Module>, m: &Module) {
        for c in m.children.values() {
            Self::walk(g, Some(m), c);
        }
        let Some(parent) = parent else { return };
        let Some(call_name) = m.path.last() else {
            return;
        };
        let call = parent.module_calls.get(call_name);
        for v in &m.variables {
            let expr = call.and_then(|c| c.inputs.get(&v.name)).cloned();
            let input = g.add(Node::ModuleVariable {
                module: m.path.clone(),
                name: v.name.clone(),
                expr,
            });
            let validation_refs = v.validations.iter().flat_map(|c| c.refs()).collect();
            let r = g.add(Node::VariableReference {
                module: m.path.clone(),
                name: v.name.clone(),
                validation_refs,
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
