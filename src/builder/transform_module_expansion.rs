//! `ModuleExpansionTransformer`: an `(expand)` and a `(close)` vertex per module call; everything
//! in a module waits for its expansion and its closer waits for everything in it.

use super::graph::{Graph, VId};
use super::nodes::Node;
use super::transform::{Diagnostics, Transform};
use super::why::reason;
use crate::addrs::{AbsProviderConfig, Module};
use crate::config::{Config, ModuleCall};
use std::collections::BTreeMap;

pub struct ModuleExpansionTransformer<'a> {
    pub config: Option<&'a Config>,
}

impl ModuleExpansionTransformer<'_> {
    /// One module call: `path` is the called module, `m` its configuration when the loader could
    /// read its source (calls of registry or remote modules still get their two vertices).
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        g: &mut Graph,
        parent: &Config,
        path: Module,
        m: Option<&Config>,
        parent_node: Option<VId>,
        by_path: &mut BTreeMap<Module, Vec<VId>>,
        closers: &mut BTreeMap<Module, VId>,
    ) {
        let call = path
            .0
            .last()
            .and_then(|c| parent.module.module_calls.get(c))
            .map(|c| Box::new(c.clone()));
        let expander = g.add(Node::ExpandModule {
            path: path.clone(),
            call,
        });
        if let Some(p) = parent_node {
            g.connect_because(expander, p, reason::PARENT_MODULE_EXPANDS_FIRST);
        }
        let closer = g.add(Node::CloseModule { path: path.clone() });
        g.connect_because(closer, expander, reason::MODULE_CLOSES_AFTER_EXPANDING);
        closers.insert(path.clone(), closer);
        for child in by_path.get(&path).cloned().unwrap_or_default() {
            if !g.contains(child) || g.node(child).is_destroyer() {
                continue;
            }
            g.connect_because(child, expander, reason::INSIDE_MODULE);
        }
        by_path
            .entry(path.clone())
            .or_default()
            .extend([expander, closer]);
        let Some(m) = m else {
            if let Some(call) = path
                .0
                .last()
                .and_then(|c| parent.module.module_calls.get(c))
            {
                connect_passed_providers(g, parent, call, expander);
            }
            return;
        };
        for name in m.module.module_calls.keys() {
            let child = m.children.get(name);
            self.walk(
                g,
                m,
                path.child(name),
                child,
                Some(expander),
                by_path,
                closers,
            );
        }
    }
}

/// `isNestedCheckDataSource`: a data resource (or instance) declared inside a `check` block,
/// looked up in the configuration (whether or not its vertex has the configuration attached).
fn is_nested_check_data_source(root: &Config, n: &Node) -> bool {
    let Some(addr) = n.resource_data().map(|d| &d.addr) else {
        return false;
    };
    addr.resource.mode == crate::addrs::ResourceMode::Data
        && root
            .descendant(&addr.module)
            .and_then(|m| m.module.resource(&addr.resource))
            .is_some_and(|r| r.container.is_some())
}

/// Beyond OpenTofu (which cannot plan without the module): a call whose module is not installed
/// depends on the provider configurations its `providers` map passes in, since the module's
/// resources, which would otherwise carry those edges, are not known.
fn connect_passed_providers(g: &mut Graph, parent: &Config, call: &ModuleCall, expander: VId) {
    if !call.not_installed || call.providers.is_empty() {
        return;
    }
    let map = super::transform_provider::provider_vertex_map(g);
    for passed in &call.providers {
        let p = &passed.in_parent;
        let fqn = p
            .provider_type
            .clone()
            .unwrap_or_else(|| parent.module.provider_for_local_name(&p.name));
        let addr = AbsProviderConfig::new(parent.path.clone(), fqn, p.alias.as_deref());
        let Some(v) = map.get(&addr.to_string()).copied() else {
            continue;
        };
        if let Some(target) = super::transform_provider::resolve_proxy(g, &map, v) {
            g.connect_because(expander, target, reason::PROVIDER_PASSED_TO_MODULE);
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
        let mut by_path: BTreeMap<Module, Vec<VId>> = BTreeMap::new();
        for v in g.vertices() {
            if let Some(p) = g.node(v).module_path_held() {
                match by_path.get_mut(&*p) {
                    Some(vs) => vs.push(v),
                    None => {
                        by_path.insert(p.into_owned(), vec![v]);
                    }
                }
            }
        }
        let mut closers = BTreeMap::new();
        for name in root.module.module_calls.keys() {
            let child = root.children.get(name);
            let path = root.path.child(name);
            self.walk(g, root, path, child, None, &mut by_path, &mut closers);
        }
        for v in g.vertices() {
            let n = g.node(v);
            if n.is_destroyer()
                || matches!(
                    n,
                    Node::CloseModule { .. } | Node::ExpandCheck { .. } | Node::ReportCheck { .. }
                )
                || is_nested_check_data_source(root, n)
            {
                continue;
            }
            let Some(p) = n.module_path_held() else {
                continue;
            };
            if let Some(c) = closers.get(&*p) {
                g.connect_because(*c, v, reason::MODULE_CLOSES_AFTER_CONTENTS);
            }
        }
        for (path, c) in &closers {
            for i in 1..path.0.len() {
                if let Some(parent) = closers.get(&Module(path.0[..i].into())) {
                    g.connect_because(*parent, *c, reason::MODULE_CLOSES_AFTER_SUBMODULES);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::ModuleExpansionTransformer;
    use crate::builder::nodes::ResourceKind;
    use crate::builder::transform::Transform;
    use crate::builder::transform_config::ConfigTransformer;
    use crate::builder::{run_steps, test_config};

    /// internal/tofu/transform_module_expansion.go `isNestedCheckDataSource`: whether a data
    /// source sits in a check block is looked up in the configuration, so even a vertex with no
    /// configuration attached is left out of its module's closer.
    #[test]
    fn nested_check_data_sources_stay_out_of_the_module_closer() {
        let config = test_config(&[
            ("main.tf", "module \"m\" {\n  source = \"./m\"\n}\n"),
            (
                "m/main.tf",
                "resource \"aws_instance\" \"a\" {}\ncheck \"c\" {\n  data \"aws_ami\" \"d\" {}\n  assert {\n    condition     = true\n    error_message = \"x\"\n  }\n}\n",
            ),
        ]);
        let steps: Vec<Box<dyn Transform + '_>> = vec![
            Box::new(ConfigTransformer {
                config: Some(&config),
                concrete: ResourceKind::Abstract,
                modes: None,
                import_targets: false,
                force_add_import_targets: false,
            }),
            Box::new(ModuleExpansionTransformer {
                config: Some(&config),
            }),
        ];
        let s = run_steps(&steps).graph.string();
        assert!(
            s.contains("module.m (close)\n  module.m (expand)\n  module.m.aws_instance.a\n"),
            "{s}"
        );
        assert!(
            !s.contains("  module.m.data.aws_ami.d\nmodule.m (expand)"),
            "{s}"
        );
        assert!(
            s.contains("module.m.data.aws_ami.d\n  module.m (expand)\n"),
            "{s}"
        );
    }
}
