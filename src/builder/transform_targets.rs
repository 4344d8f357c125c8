//! `TargetingTransformer`: keeps only targeted resources (or everything not excluded), what they
//! depend on, and root outputs that derive only from kept resources.

use super::graph::{Graph, VId};
use super::nodes::Node;
use super::transform::{Diagnostics, Transform};
use crate::addrs::{ModuleInstance, Targetable};
use std::collections::BTreeSet;

pub struct TargetingTransformer {
    pub targets: Vec<Targetable>,
    pub excludes: Vec<Targetable>,
}

/// Does the target's module path name `module` or one of its ancestors (a keyless step matches
/// every instance)?
pub fn module_prefix_matches(target: &ModuleInstance, module: &ModuleInstance) -> bool {
    if module.0.len() < target.0.len() {
        return false;
    }
    target
        .0
        .iter()
        .zip(&module.0)
        .all(|(t, m)| t.name == m.name && (t.key.is_none() || t.key == m.key))
}

/// Does a target's module path name the static module `module` or one of its ancestors?
fn static_prefix(target: &ModuleInstance, module: &crate::addrs::Module) -> bool {
    target.0.len() <= module.0.len()
        && target
            .0
            .iter()
            .zip(module.0.iter())
            .all(|(a, b)| &a.name == b)
}

/// Does `target` address the resource or instance vertex `n`?
fn node_is_target(n: &Node, targets: &[Targetable]) -> bool {
    let Some(cfg) = n.config_resource() else {
        return false;
    };
    let instance = n.instance_addr();
    targets.iter().any(|t| match (t, instance) {
        (Targetable::Module(m), Some(ia)) => module_prefix_matches(m, &ia.module),
        (Targetable::Resource(r), Some(ia)) => {
            module_prefix_matches(&r.module, &ia.module)
                && r.module.0.len() == ia.module.0.len()
                && r.resource == ia.resource.resource
        }
        (Targetable::ResourceInstance(ti), Some(ia)) => ti == ia,
        (Targetable::Module(m), None) => static_prefix(m, &cfg.module),
        (Targetable::Resource(r), None) => {
            r.module.module() == cfg.module && r.resource == cfg.resource
        }
        (Targetable::ResourceInstance(ti), None) => ti.config_resource() == cfg,
    })
}

/// `excludeAddr.TargetContains(vertexAddr)` without generalising the exclude: a whole-resource
/// vertex is only excluded by its resource, a keyless module path, or a keyless instance address.
fn node_is_excluded(n: &Node, excludes: &[Targetable]) -> bool {
    if n.instance_addr().is_some() {
        return node_is_target(n, excludes);
    }
    let Some(cfg) = n.config_resource() else {
        return false;
    };
    let keyless = |m: &ModuleInstance| m.0.iter().all(|s| s.key.is_none());
    excludes.iter().any(|t| match t {
        Targetable::Module(m) => keyless(m) && static_prefix(m, &cfg.module),
        Targetable::Resource(r) => {
            keyless(&r.module) && r.module.module() == cfg.module && r.resource == cfg.resource
        }
        Targetable::ResourceInstance(ti) => {
            ti.resource.key.is_none() && ti.config_resource() == cfg
        }
    })
}

/// `vertexAddr.TargetContains(depAddr)` for two resource or instance vertices.
fn vertex_contains(n: &Node, dep: &Node) -> bool {
    match (n.instance_addr(), n.config_resource()) {
        (Some(ia), _) => match dep.instance_addr() {
            Some(d) => ia.to_string() == d.to_string(),
            None => dep
                .config_resource()
                .is_some_and(|c| c.to_string() == ia.to_string()),
        },
        (None, Some(cfg)) => dep.config_resource().is_some_and(|c| c == cfg),
        _ => false,
    }
}

fn is_resourceish(n: &Node) -> bool {
    matches!(n, Node::Resource { .. } | Node::Instance { .. })
}

impl TargetingTransformer {
    /// Root outputs that derive only from kept resources, with everything they depend on
    /// (`getTargetedOutputNodes`: judged against the kept set before any output is added).
    fn add_root_outputs(g: &Graph, kept: &mut BTreeSet<VId>) {
        let mut extra = BTreeSet::new();
        Self::root_outputs(g, kept, &mut extra);
        kept.extend(extra);
    }

    fn root_outputs(g: &Graph, kept: &BTreeSet<VId>, out: &mut BTreeSet<VId>) {
        for v in g.vertices() {
            // getTargetedOutputNodes: every value that is not temporary (root outputs, and
            // variables with validation rules), judged with the operation unset.
            if g.node(v)
                .temporary_value(super::operation::Operation::Invalid)
                != Some(false)
            {
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
                out.insert(v);
                out.extend(deps);
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
                let n = g.node(v);
                if !is_resourceish(n) {
                    continue;
                }
                let self_excluded = node_is_excluded(n, &self.excludes);
                if self_excluded {
                    excluded.insert(v);
                }
                // A generalised match (an instance exclude against a whole-resource vertex) keeps
                // the vertex but still excludes what depends on it.
                if self_excluded || node_is_target(n, &self.excludes) {
                    for d in g.descendants(v) {
                        let dn = g.node(d);
                        if is_resourceish(dn) && !vertex_contains(n, dn) {
                            excluded.insert(d);
                        }
                    }
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
    use crate::addrs::Targetable;
    use crate::builder::{BuilderKind, Inputs, build, test_config};

    fn plan(targets: &[&str], excludes: &[&str]) -> String {
        let config = test_config(&[
            (
                "main.tf",
                "resource \"aws_vpc\" \"a\" {}\nresource \"aws_subnet\" \"b\" { depends_on = [aws_vpc.a] }\nmodule \"m\" { source = \"./m\" }\n",
            ),
            ("m/main.tf", "resource \"aws_instance\" \"c\" {}\n"),
        ]);
        let inputs = Inputs {
            config: Some(config),
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

    #[test]
    fn excluding_one_instance_keeps_its_resource_but_drops_dependents() {
        let g = plan(&[], &["aws_vpc.a[1]"]);
        assert!(g.contains("aws_vpc.a (expand)"), "{g}");
        assert!(!g.contains("aws_subnet.b"), "{g}");
    }

    /// internal/tofu/transform_targets.go `getTargetedOutputNodes`: every value that is not
    /// temporary is kept when everything it depends on was targeted, not only root outputs: a
    /// variable with validation rules (node_variable_reference.go `temporaryValue`) that checks
    /// a targeted data source stays.
    #[test]
    fn targeting_keeps_validated_variables_of_targeted_resources() {
        let config = test_config(&[(
            "main.tf",
            "data \"aws_ami\" \"a\" {}\nresource \"aws_instance\" \"b\" {}\nvariable \"x\" {\n  validation {\n    condition     = data.aws_ami.a.id != \"\"\n    error_message = \"no image\"\n  }\n}\n",
        )]);
        let inputs = Inputs {
            config: Some(config),
            targets: vec![Targetable::parse("data.aws_ami.a").expect("target")],
            ..Default::default()
        };
        let b = build(&inputs, BuilderKind::Plan);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(
            s.contains("var.x (expand, reference)\n  data.aws_ami.a (expand)\n  var.x\n"),
            "{s}"
        );
        assert!(!s.contains("aws_instance.b"), "{s}");
    }
}
