//! `ReferenceTransformer` (edges from each vertex to the vertices its expressions name),
//! `AttachDependenciesTransformer` (records each resource's resource ancestors) and the
//! transforms that only record data (`attachDataResourceDependsOnTransformer`,
//! `ExternalReferenceTransformer` without external references).

use super::graph::{Graph, VId};
use super::nodes::{InstanceKind, Node};
use super::transform::{Diagnostics, Transform};
use crate::addrs::{ConfigResource, InstanceKey, Module, ModuleCallInstance, Referenceable};
use crate::config::Reference;
use std::collections::BTreeMap;

/// `ReferenceMap`: `path|address` → vertices referenceable by it. Keyed by the printed forms, as
/// Go's map keys are, so `aws_instance.a` written as a resource or as a keyless instance meet.
pub struct ReferenceMap {
    map: BTreeMap<String, Vec<VId>>,
}

fn key(path: &Module, s: &Referenceable) -> String {
    format!("{path}|{s}")
}

impl ReferenceMap {
    pub fn new(g: &Graph) -> Self {
        let mut map: BTreeMap<String, Vec<VId>> = BTreeMap::new();
        for v in g.vertices() {
            let n = g.node(v);
            let (Some(addrs), Some(path)) = (n.referenceable_addrs(), n.referenceable_path())
            else {
                continue;
            };
            for a in addrs {
                map.entry(key(&path, &a)).or_default().push(v);
            }
        }
        ReferenceMap { map }
    }

    fn lookup(&self, path: &Module, current: VId, r: &Reference) -> Vec<VId> {
        let mut subject = r.subject.clone();
        if !self.map.contains_key(&key(path, &subject)) {
            // Go's referenceMapKey fallbacks: the containing resource, the output of any
            // instance of the call, the call itself.
            subject = match subject {
                Referenceable::ResourceInstance(ri) => Referenceable::Resource(ri.resource),
                Referenceable::ModuleCallInstanceOutput(mut o) => {
                    o.call.key = InstanceKey::None;
                    Referenceable::ModuleCallInstanceOutput(o)
                }
                Referenceable::ModuleCallInstance(ci) => Referenceable::ModuleCall(ci.call),
                _ => return Vec::new(),
            };
        }
        // Beyond OpenTofu (where the output always exists in a valid configuration): an output
        // of a module whose source could not be read (registry/git) resolves to the module call,
        // so the opaque module still orders its dependents.
        if let Referenceable::ModuleCallInstanceOutput(o) = &subject
            && !self.map.contains_key(&key(path, &subject))
        {
            let ModuleCallInstance { call, .. } = &o.call;
            subject = Referenceable::ModuleCall(call.clone());
        }
        self.map
            .get(&key(path, &subject))
            .into_iter()
            .flatten()
            .copied()
            .filter(|v| *v != current)
            .collect()
    }

    /// The vertices `v` refers to (`ReferenceMap.References`): a destroyer by its
    /// `DestroyReferences`, anything else that is a referencer by its `References`, and
    /// resources also by their root-module references.
    pub fn references(&self, g: &Graph, v: VId) -> Vec<VId> {
        let n = g.node(v);
        let refs = if n.is_destroyer() {
            n.destroy_references()
        } else if n.is_referencer() {
            n.references()
        } else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for r in n.root_references().refs {
            out.extend(self.lookup(&Module::root(), v, &r));
        }
        let Some(path) = n.reference_path() else {
            return out;
        };
        for r in refs.refs {
            out.extend(self.lookup(&path, v, &r));
        }
        out
    }
}

pub struct ReferenceTransformer;

impl Transform for ReferenceTransformer {
    fn name(&self) -> &'static str {
        "ReferenceTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let m = ReferenceMap::new(g);
        for v in g.vertices() {
            for parent in m.references(g, v) {
                if g.node(parent).is_destroyer() {
                    continue;
                }
                if !g.in_different_module_instances(v, parent) {
                    g.connect(v, parent);
                }
            }
        }
        Ok(())
    }
}

pub struct AttachDependenciesTransformer;

impl Transform for AttachDependenciesTransformer {
    fn name(&self) -> &'static str {
        "AttachDependenciesTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        for v in g.vertices() {
            // GraphNodeAttachDependencies: applyable instances (and the plan's expand nodes,
            // which only keep the list for planning; nothing here reads it).
            let Node::Instance {
                kind: InstanceKind::Applyable,
                d,
            } = g.node(v)
            else {
                continue;
            };
            let self_addr = d.res.addr.clone();
            let mut deps: Vec<ConfigResource> = Vec::new();
            for a in g.ancestors(v) {
                let Some(addr) = g.node(a).config_resource() else {
                    continue;
                };
                if addr != self_addr && !deps.contains(&addr) {
                    deps.push(addr);
                }
            }
            deps.sort_by_key(|d| d.to_string());
            if let Some(Node::Instance { d, .. }) = g.node_mut(v) {
                d.dependencies = deps;
            }
        }
        Ok(())
    }
}

/// `attachResourceDependsOnTransformer`: records `depends_on` for data sources and ephemeral
/// resources (for planning); it changes no vertices or edges.
pub struct AttachDataResourceDependsOnTransformer;

impl Transform for AttachDataResourceDependsOnTransformer {
    fn name(&self) -> &'static str {
        "attachResourceDependsOnTransformer"
    }
    fn transform(&self, _g: &mut Graph) -> Result<(), Diagnostics> {
        Ok(())
    }
}

/// Adds references given by the caller; builders here pass none.
pub struct ExternalReferenceTransformer;

impl Transform for ExternalReferenceTransformer {
    fn name(&self) -> &'static str {
        "ExternalReferenceTransformer"
    }
    fn transform(&self, _g: &mut Graph) -> Result<(), Diagnostics> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::{BuilderKind, build_from_files};
    use std::collections::BTreeMap;

    #[test]
    fn outputs_of_opaque_modules_resolve_to_the_module_call() {
        let mut files = BTreeMap::new();
        files.insert(
            "main.tf".to_string(),
            "module \"net\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\noutput \"id\" {\n  value = module.net.vpc_id\n}\n"
                .to_string(),
        );
        let (built, diags) = build_from_files(&files, BuilderKind::Plan, false);
        let built = built.unwrap_or_else(|| panic!("{diags:?}"));
        assert!(built.diagnostics.is_empty(), "{:?}", built.diagnostics);
        let s = built.graph.string();
        assert!(
            s.contains("output.id (expand)\n  module.net (close)\n"),
            "{s}"
        );
    }

    #[test]
    fn dynamic_block_iterators_are_not_resource_references() {
        // Read without a schema, `egress.value` is the dynamic block's iterator, not a
        // reference to a resource of type "egress".
        let mut files = BTreeMap::new();
        files.insert(
            "main.tf".to_string(),
            "variable \"rules\" {}\nresource \"aws_security_group\" \"sg\" {\n  dynamic \"egress\" {\n    for_each = var.rules\n    content {\n      from_port = egress.value.port\n    }\n  }\n}\n"
                .to_string(),
        );
        let (built, diags) = build_from_files(&files, BuilderKind::Plan, true);
        let built = built.unwrap_or_else(|| panic!("{diags:?}"));
        let refs = built
            .graph
            .dag()
            .iter()
            .find(|(_, n)| n.name() == "aws_security_group.sg (expand)")
            .map(|(_, n)| n.references())
            .expect("resource vertex");
        let names: Vec<String> = refs.refs.iter().map(|r| r.subject.to_string()).collect();
        assert_eq!(names, ["var.rules"]);
    }
}
