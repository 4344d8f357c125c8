//! `TargetingTransformer`: keeps only targeted resources (or everything not excluded), what they
//! depend on, and root outputs that derive only from kept resources.

use super::addr::{InstanceKey, ModuleInstanceStep, Targetable};
use super::graph::{Graph, VId};
use super::nodes::Node;
use super::transform::{Diagnostics, Transform};
use std::collections::BTreeSet;

pub struct TargetingTransformer {
    pub targets: Vec<Targetable>,
    pub excludes: Vec<Targetable>,
}

fn module_prefix_matches(
    target: &[ModuleInstanceStep],
    module: &[ModuleInstanceStep],
    static_only: bool,
) -> bool {
    if module.len() < target.len() {
        return false;
    }
    target.iter().zip(module).all(|(t, m)| {
        t.name == m.name && (static_only || t.key == InstanceKey::NoKey || t.key == m.key)
    })
}

/// Does `target` address the resource or instance vertex `n`?
fn node_is_target(n: &Node, targets: &[Targetable]) -> bool {
    let is_instance = matches!(n, Node::Instance { .. });
    let Some(cfg) = n.config_resource() else {
        return false;
    };
    for t in targets {
        let hit = if let (true, Some(ia)) = (is_instance, n.instance_addr()) {
            match t {
                Targetable::Module(m) => module_prefix_matches(m, &ia.module, false),
                Targetable::Resource { module, resource } => {
                    module_prefix_matches(module, &ia.module, false)
                        && module.len() == ia.module.len()
                        && resource == &ia.resource
                }
                Targetable::Instance(ti) => ti == ia,
            }
        } else {
            match t {
                Targetable::Module(m) => {
                    m.len() <= cfg.module.len()
                        && m.iter().zip(&cfg.module).all(|(a, b)| &a.name == b)
                }
                Targetable::Resource { module, resource } => {
                    module.iter().map(|s| &s.name).eq(cfg.module.iter())
                        && resource == &cfg.resource
                }
                Targetable::Instance(ti) => ti.config_resource() == cfg,
            }
        };
        if hit {
            return true;
        }
    }
    false
}

fn is_resourceish(n: &Node) -> bool {
    matches!(n, Node::Resource { .. } | Node::Instance { .. })
}

impl TargetingTransformer {
    fn add_root_outputs(g: &Graph, kept: &mut BTreeSet<VId>) {
        for v in g.vertices() {
            let Node::Output { module, .. } = g.node(v) else {
                continue;
            };
            if !module.is_empty() {
                continue;
            }
            let deps = g.ancestors(v);
            let mut found = 0;
            for d in &deps {
                if !is_resourceish(g.node(*d)) {
                    continue;
                }
                if !kept.contains(d) {
                    found = 0;
                    break;
                }
                found += 1;
            }
            if found > 0 {
                kept.insert(v);
                kept.extend(deps);
            }
        }
    }
}

impl Transform for TargetingTransformer {
    fn name(&self) -> &'static str {
        "TargetingTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let mut kept: BTreeSet<VId> = BTreeSet::new();
        if !self.targets.is_empty() {
            for v in g.vertices() {
                if node_is_target(g.node(v), &self.targets) {
                    kept.insert(v);
                    kept.extend(g.ancestors(v));
                }
            }
        } else if !self.excludes.is_empty() {
            let mut excluded = BTreeSet::new();
            for v in g.vertices() {
                if node_is_target(g.node(v), &self.excludes) {
                    excluded.insert(v);
                    excluded.extend(g.descendants(v));
                }
            }
            for v in g.vertices() {
                if is_resourceish(g.node(v)) && !excluded.contains(&v) {
                    kept.insert(v);
                    kept.extend(g.ancestors(v));
                }
            }
        } else {
            return Ok(());
        }
        Self::add_root_outputs(g, &mut kept);
        for v in g.vertices() {
            if !kept.contains(&v) {
                g.remove(v);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::addr::Targetable;
    use crate::builder::model::load_config;
    use crate::builder::{BuilderKind, Inputs, build};
    use std::collections::BTreeMap;

    fn plan(targets: &[&str], excludes: &[&str]) -> String {
        let mut files = BTreeMap::new();
        files.insert(
            "main.tf".to_string(),
            "resource \"aws_vpc\" \"a\" {}\nresource \"aws_subnet\" \"b\" { depends_on = [aws_vpc.a] }\nmodule \"m\" { source = \"./m\" }\n"
                .to_string(),
        );
        files.insert(
            "m/main.tf".to_string(),
            "resource \"aws_instance\" \"c\" {}\n".to_string(),
        );
        let inputs = Inputs {
            config: Some(load_config(&files, "").expect("loads")),
            targets: targets
                .iter()
                .map(|t| Targetable::parse(t).expect("target"))
                .collect(),
            excludes: excludes
                .iter()
                .map(|t| Targetable::parse(t).expect("exclude"))
                .collect(),
            ..Default::default()
        };
        let b = build(&inputs, BuilderKind::Plan);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        b.graph.string()
    }

    #[test]
    fn targets_keep_dependencies_and_drop_the_rest() {
        let g = plan(&["aws_subnet.b"], &[]);
        assert!(
            g.contains("aws_subnet.b (expand)") && g.contains("aws_vpc.a (expand)"),
            "{g}"
        );
        assert!(!g.contains("aws_instance.c"), "{g}");
        let g = plan(&["module.m"], &[]);
        assert!(
            g.contains("module.m.aws_instance.c (expand)") && g.contains("module.m (expand)"),
            "{g}"
        );
        assert!(!g.contains("aws_vpc.a"), "{g}");
    }

    #[test]
    fn excludes_drop_dependents_too() {
        let g = plan(&[], &["aws_vpc.a"]);
        assert!(
            !g.contains("aws_vpc.a") && !g.contains("aws_subnet.b"),
            "{g}"
        );
        assert!(g.contains("module.m.aws_instance.c (expand)"), "{g}");
    }
}
