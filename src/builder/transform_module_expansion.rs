//! `ModuleExpansionTransformer`: an `(expand)` and a `(close)` vertex per module call; everything
//! in a module waits for its expansion and its closer waits for everything in it.

use super::addr::ModulePath;
use super::graph::{Graph, VId};
use super::model::Module;
use super::nodes::Node;
use super::transform::{Diagnostics, Transform};
use std::collections::BTreeMap;

pub struct ModuleExpansionTransformer<'a> {
    pub config: Option<&'a Module>,
}

impl ModuleExpansionTransformer<'_> {
    fn walk(
        &self,
        g: &mut Graph,
        parent: &Module,
        m: &Module,
        parent_node: Option<VId>,
        by_path: &mut BTreeMap<ModulePath, Vec<VId>>,
        closers: &mut BTreeMap<ModulePath, VId>,
    ) {
        let call = m
            .path
            .last()
            .and_then(|c| parent.module_calls.get(c))
            .cloned();
        let expander = g.add(Node::ExpandModule {
            path: m.path.clone(),
            call,
        });
        if let Some(p) = parent_node {
            g.connect(expander, p);
        }
        let closer = g.add(Node::CloseModule {
            path: m.path.clone(),
        });
        g.connect(closer, expander);
        closers.insert(m.path.clone(), closer);
        for child in by_path.get(&m.path).cloned().unwrap_or_default() {
            if !g.contains(child) || g.node(child).is_destroyer() {
                continue;
            }
            g.connect(child, expander);
        }
        by_path
            .entry(m.path.clone())
            .or_default()
            .extend([expander, closer]);
        for c in m.children.values() {
            self.walk(g, m, c, Some(expander), by_path, closers);
        }
    }
}

impl Transform for ModuleExpansionTransformer<'_> {
    fn name(&self) -> &'static str {
        "ModuleExpansionTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(root) = self.config else {
            return Ok(());
        };
        let mut by_path: BTreeMap<ModulePath, Vec<VId>> = BTreeMap::new();
        for v in g.vertices() {
            if let Some(p) = g.node(v).module_path() {
                by_path.entry(p).or_default().push(v);
            }
        }
        let mut closers = BTreeMap::new();
        for c in root.children.values() {
            self.walk(g, root, c, None, &mut by_path, &mut closers);
        }
        for v in g.vertices() {
            let n = g.node(v);
            if n.is_destroyer()
                || matches!(
                    n,
                    Node::CloseModule { .. } | Node::ExpandCheck { .. } | Node::ReportCheck { .. }
                )
                || n.resource_data()
                    .and_then(|d| d.config.as_ref())
                    .is_some_and(|c| c.container.is_some())
            {
                continue;
            }
            let Some(p) = n.module_path() else { continue };
            if let Some(c) = closers.get(&p) {
                g.connect(*c, v);
            }
        }
        for (path, c) in &closers {
            for i in 1..path.len() {
                if let Some(parent) = closers.get(&path[..i]) {
                    g.connect(*parent, *c);
                }
            }
        }
        Ok(())
    }
}
