//! `ReferenceTransformer` (edges from each vertex to the vertices its expressions name),
//! `AttachDependenciesTransformer` (records each resource's resource ancestors) and the
//! transforms that only record data (`attachDataResourceDependsOnTransformer`,
//! `ExternalReferenceTransformer` without external references).

use super::graph::{Graph, VId};
use super::nodes::{InstanceKind, Node};
use super::transform::{Diagnostics, Transform};
use super::why::RefSite;
use crate::addrs::{ConfigResource, InstanceKey, Module, ModuleCallInstance, Referenceable};
use crate::config::Reference;
use crate::config::refs::ResourceRefsMemo;
use rustc_hash::FxHashMap as HashMap;

/// `ReferenceMap`: `path|address` → vertices referenceable by it. Keyed by the printed forms, as
/// Go's map keys are, so `aws_instance.a` written as a resource or as a keyless instance meet.
pub struct ReferenceMap {
    /// Only looked up, never walked, so a hash map: its order cannot show. Most keys name one
    /// vertex, held in place.
    map: HashMap<String, smallvec::SmallVec<[VId; 1]>>,
}

/// A module path's key prefix, `path|`, written into `buf`: made once per referring vertex, not
/// once per reference.
fn key_prefix(path: &Module, buf: &mut String) {
    use std::fmt::Write;
    buf.clear();
    write!(buf, "{path}|").expect("writing to a string does not fail");
}

/// The texts [`ReferenceMap`]'s lookups write their keys into, kept from one vertex to the next
/// (a transform looks up 20,000 references at 10,000 resources).
#[derive(Default)]
struct KeyBufs {
    prefix: String,
    key: String,
}

impl ReferenceMap {
    pub fn new(g: &Graph) -> Self {
        let mut map: HashMap<String, smallvec::SmallVec<[VId; 1]>> = HashMap::default();
        // Each key, `path|address`, written into one buffer and copied only when it is new.
        let mut key = String::new();
        for v in g.vertices() {
            let n = g.node(v);
            let (Some(addrs), Some(path)) = (n.referenceable_addrs(), n.referenceable_path())
            else {
                continue;
            };
            key_prefix(&path, &mut key);
            let prefix = key.len();
            for a in addrs {
                key.truncate(prefix);
                a.push_to(&mut key);
                match map.get_mut(key.as_str()) {
                    Some(ids) => ids.push(v),
                    None => {
                        map.insert(key.clone(), smallvec::smallvec![v]);
                    }
                }
            }
        }
        ReferenceMap { map }
    }

    /// The vertices `r` names in the module whose [`key_prefix`] is `prefix` (the referring
    /// vertex among them too: callers leave it out). `buf` holds each key as it is looked up
    /// (one buffer for all of a vertex's references).
    fn lookup(&self, prefix: &str, buf: &mut String, r: &Reference) -> &[VId] {
        let mut found = |subject: &Referenceable| {
            buf.clear();
            buf.push_str(prefix);
            subject.push_to(buf);
            self.map.get(buf.as_str())
        };
        let ids = found(&r.subject).or_else(|| {
            // Go's referenceMapKey fallbacks: the containing resource, the output of any
            // instance of the call, the call itself.
            let fallback = match &r.subject {
                Referenceable::ResourceInstance(ri) => Referenceable::Resource(ri.resource.clone()),
                Referenceable::ModuleCallInstanceOutput(o) => {
                    let mut o = o.clone();
                    o.call.key = InstanceKey::None;
                    Referenceable::ModuleCallInstanceOutput(o)
                }
                Referenceable::ModuleCallInstance(ci) => Referenceable::ModuleCall(ci.call.clone()),
                _ => return None,
            };
            found(&fallback).or_else(|| match fallback {
                // Beyond OpenTofu (where the output always exists in a valid configuration): an
                // output of a module whose source could not be read (registry/git) resolves to
                // the module call, so the opaque module still orders its dependents.
                Referenceable::ModuleCallInstanceOutput(o) => {
                    let ModuleCallInstance { call, .. } = o.call;
                    found(&Referenceable::ModuleCall(call))
                }
                _ => None,
            })
        });
        ids.map_or(&[], |ids| ids.as_slice())
    }

    /// The vertices `v` refers to (`ReferenceMap.References`): a destroyer by its
    /// `DestroyReferences`, anything else that is a referencer by its `References`, and
    /// resources also by their root-module references.
    pub fn references(&self, g: &Graph, v: VId) -> Vec<VId> {
        let mut found = Vec::new();
        self.references_found(g, v, None, &mut KeyBufs::default(), |_| (), &mut found);
        found.into_iter().map(|(p, _)| p).collect()
    }

    /// [`ReferenceMap::references`], each vertex with the reference that names it (a vertex
    /// named by several references comes once per reference).
    pub fn references_with_sites(&self, g: &Graph, v: VId) -> Vec<(VId, RefSite)> {
        let mut found = Vec::new();
        let mut bufs = KeyBufs::default();
        self.references_found(g, v, None, &mut bufs, RefSite::of_reference, &mut found);
        found
    }

    /// [`ReferenceMap::references`], each vertex with `site` of the reference that names it
    /// (made once per reference that names any); a resource's references are taken from `kept`
    /// when it holds them. They are put in `out`, emptied first (one list for a whole sweep).
    fn references_found<S: Clone>(
        &self,
        g: &Graph,
        v: VId,
        kept: Option<&mut ResourceRefsMemo>,
        bufs: &mut KeyBufs,
        site: impl Fn(&Reference) -> S,
        out: &mut Vec<(VId, S)>,
    ) {
        out.clear();
        let n = g.node(v);
        let refs = if n.is_destroyer() {
            n.destroy_references()
        } else if n.is_referencer() {
            n.references_kept(kept)
        } else {
            return;
        };
        // Each vertex found but `v` itself, with the site made once for the reference.
        let mut add = |found: &[VId], r: &Reference| {
            let mut made = None;
            for &p in found.iter().filter(|p| **p != v) {
                let s = made.get_or_insert_with(|| site(r));
                out.push((p, s.clone()));
            }
        };
        let KeyBufs { prefix, key } = bufs;
        let root_refs = n.root_references().refs;
        if !root_refs.is_empty() {
            key_prefix(&Module::root(), prefix);
            for r in root_refs {
                add(self.lookup(prefix, key, &r), &r);
            }
        }
        if let Some(path) = n.reference_path() {
            key_prefix(&path, prefix);
            for r in refs.refs {
                add(self.lookup(prefix, key, &r), &r);
            }
        }
    }
}

pub struct ReferenceTransformer;

impl Transform for ReferenceTransformer {
    fn name(&self) -> &'static str {
        "ReferenceTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let m = ReferenceMap::new(g);
        // The resources' references the validation found, used up (and dropped) here.
        let mut kept = g.take_kept_references();
        // The references' sites are made only for a graph that records why its edges exist.
        let whys = g.record().whys;
        // One edge per vertex referred to, with every reference that names it, in the order
        // first found. Most vertices refer to a handful of others, so a list searched from the
        // end (a repeat is usually of the last one) rather than a map made for each vertex; past
        // `SEARCHED` parents an index keeps one that names thousands linear.
        const SEARCHED: usize = 32;
        let mut by_parent: Vec<(VId, Vec<RefSite>)> = Vec::new();
        let mut index: HashMap<VId, usize> = HashMap::default();
        let mut bufs = KeyBufs::default();
        let mut found = Vec::new();
        for v in g.vertices() {
            if whys {
                let site = |r: &Reference| Some(RefSite::of_reference(r));
                m.references_found(g, v, Some(&mut kept), &mut bufs, site, &mut found);
            } else {
                m.references_found(g, v, Some(&mut kept), &mut bufs, |_| None, &mut found);
            }
            for (parent, site) in found.drain(..) {
                if g.node(parent).is_destroyer() || g.in_different_module_instances(v, parent) {
                    continue;
                }
                let at = if by_parent.len() <= SEARCHED {
                    by_parent.iter().rposition(|(p, _)| *p == parent)
                } else {
                    if index.is_empty() {
                        index.extend(by_parent.iter().enumerate().map(|(i, (p, _))| (*p, i)));
                    }
                    index.get(&parent).copied()
                };
                match at {
                    Some(i) => by_parent[i].1.extend(site),
                    None => {
                        if !index.is_empty() {
                            index.insert(parent, by_parent.len());
                        }
                        by_parent.push((parent, site.into_iter().collect()));
                    }
                }
            }
            index.clear();
            for (parent, sites) in by_parent.drain(..) {
                g.connect_for_references(v, parent, sites);
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

    /// A vertex naming more parents than are searched in a list (here 40, each of the first and
    /// last twice) gets one edge to each, with every reference that names it in the order
    /// written.
    #[test]
    fn a_vertex_naming_many_vertices_gets_one_edge_to_each_with_all_its_references() {
        let mut tf = String::new();
        for i in 0..40 {
            tf.push_str(&format!("resource \"aws_instance\" \"r{i}\" {{}}\n"));
        }
        let mut all: Vec<String> = (0..40).map(|i| format!("aws_instance.r{i}.id")).collect();
        all.push("aws_instance.r39.arn".into());
        all.push("aws_instance.r0.arn".into());
        tf.push_str(&format!("locals {{\n  all = [{}]\n}}\n", all.join(", ")));
        let files = BTreeMap::from([("main.tf".to_string(), tf)]);
        let (built, diags) = build_from_files(&files, BuilderKind::Validate, false);
        let built = built.unwrap_or_else(|| panic!("{diags:?}"));
        assert!(built.diagnostics.is_empty(), "{:?}", built.diagnostics);
        let g = &built.graph;
        let local = g.find("local.all (expand)").expect("the local");
        let mut got: Vec<String> = g
            .dag()
            .dependencies(local)
            .map(|p| g.node(p).name())
            .collect();
        got.sort();
        let mut want: Vec<String> = (0..40).map(|i| format!("aws_instance.r{i}")).collect();
        want.sort();
        assert_eq!(got, want);
        let sites = |to: &str| -> Vec<String> {
            g.why_named("local.all (expand)", to)
                .unwrap_or_else(|| panic!("why {to}"))
                .references
                .iter()
                .map(|r| r.text.clone())
                .collect()
        };
        assert_eq!(
            sites("aws_instance.r0"),
            ["aws_instance.r0.id", "aws_instance.r0.arn"]
        );
        assert_eq!(
            sites("aws_instance.r39"),
            ["aws_instance.r39.id", "aws_instance.r39.arn"]
        );
        assert_eq!(sites("aws_instance.r20"), ["aws_instance.r20.id"]);
    }

    use crate::builder::transform::Operation;
    use crate::builder::{apply_steps, build, run_steps, test_inputs, test_schemas, test_state};

    /// internal/tofu/node_resource_deposed.go `NodePlanDeposedResourceInstanceObject.
    /// ReferenceableAddrs`: "Deposed objects don't participate in references", so a resource
    /// that refers to `test_object.b` does not wait for b's deposed object.
    #[test]
    fn deposed_objects_are_not_referenceable() {
        let config = "resource \"test_object\" \"b\" {}\nresource \"test_object\" \"c\" {\n  test_string = test_object.b.test_string\n}\n";
        let state = test_state(&[(
            "b",
            r#"[{"attributes": {}}, {"deposed": "00000001", "attributes": {}}]"#,
        )]);
        let schemas = test_schemas();
        let inputs = test_inputs(&[("main.tf", config)], Some(&state), None, Some(&schemas));
        let b = build(&inputs, BuilderKind::Plan);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let g = &b.graph;
        let c = g.find("test_object.c (expand)").expect("c");
        let deposed = g
            .find("test_object.b (deposed 00000001)")
            .expect("deposed b");
        assert!(!g.ancestors(c).contains(&deposed), "{}", g.string());
        assert!(
            g.string()
                .contains("test_object.c (expand)\n  test_object.b (expand)\n")
        );
    }

    /// internal/tofu/node_resource_destroy.go `NodeDestroyResourceInstance.ReferenceableAddrs`
    /// (destroy-phase addresses only) and transform_reference.go `ReferenceMap.addReference`:
    /// a reference to an instance that only has a destroy vertex finds no key and falls back to
    /// the containing resource.
    #[test]
    fn references_to_destroyed_instances_fall_back_to_the_resource() {
        let config = "resource \"test_object\" \"a\" {\n  count = 1\n}\nresource \"test_object\" \"b\" {\n  test_string = test_object.a[1].test_string\n}\n";
        let state = test_state(&[
            (
                "a",
                r#"[{"index_key": 0, "attributes": {}}, {"index_key": 1, "attributes": {}}]"#,
            ),
            ("b", r#"[{"attributes": {}}]"#),
        ]);
        let changes = r#"[{"addr": "test_object.a[1]", "action": "delete"},
                          {"addr": "test_object.b", "action": "update"}]"#;
        let schemas = test_schemas();
        let inputs = test_inputs(
            &[("main.tf", config)],
            Some(&state),
            Some(changes),
            Some(&schemas),
        );
        let b = run_steps(&apply_steps(&inputs, Operation::Apply));
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(
            s.contains("test_object.b (expand)\n  test_object.a (expand)\n"),
            "{s}"
        );
    }

    /// transform_reference.go `ReferenceMap.References`: a destroyer is ordered by its
    /// `DestroyReferences` (node_resource_abstract_instance.go, node_resource_abstract.go:
    /// `prevent_destroy`), so the destroy of a resource waits for what `prevent_destroy` names.
    #[test]
    fn destroyers_follow_their_destroy_references() {
        let config = "variable \"keep\" {}\nresource \"test_object\" \"a\" {\n  lifecycle {\n    prevent_destroy = var.keep\n  }\n}\n";
        let state = test_state(&[("a", r#"[{"attributes": {}}]"#)]);
        let changes = r#"[{"addr": "test_object.a", "action": "delete"}]"#;
        let schemas = test_schemas();
        let inputs = test_inputs(
            &[("main.tf", config)],
            Some(&state),
            Some(changes),
            Some(&schemas),
        );
        let s = run_steps(&apply_steps(&inputs, Operation::Apply))
            .graph
            .string();
        assert!(
            s.contains("test_object.a (destroy)\n  provider[\"registry.opentofu.org/hashicorp/test\"]\n  var.keep (expand, reference)\n"),
            "{s}"
        );
    }

    /// internal/tofu/node_resource_apply.go `nodeExpandApplyableResource.References` filters
    /// references to its own resource (`filterSelfRefs`): the expand vertex does not wait for
    /// its own instances, while an instance still waits for the sibling it names.
    #[test]
    fn the_apply_expand_vertex_ignores_its_own_instances() {
        let config = "resource \"test_object\" \"a\" {\n  count       = 2\n  test_string = test_object.a[0].test_string\n}\n";
        let changes = r#"[{"addr": "test_object.a[0]", "action": "create"},
                          {"addr": "test_object.a[1]", "action": "create"}]"#;
        let schemas = test_schemas();
        let inputs = test_inputs(&[("main.tf", config)], None, Some(changes), Some(&schemas));
        let b = crate::builder::build(&inputs, BuilderKind::Apply);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(
            s.contains(
                "test_object.a (expand)\n  provider[\"registry.opentofu.org/hashicorp/test\"]\n"
            ),
            "{s}"
        );
        assert!(s.contains("test_object.a[1]\n  test_object.a[0]\n"), "{s}");
    }

    /// internal/tofu/node_module_expand.go `nodeExpandModule.References`: expanding a module
    /// call reads its `count`/`for_each` and the instance keys of the provider configurations it
    /// passes in (`providers = { aws = aws.by_region[KEY] }`), so it waits for what the key
    /// names.
    #[test]
    fn module_expansion_waits_for_passed_provider_keys() {
        let root = r#"
locals {
  regions = { a = "eu-west-1" }
  which   = "a"
}
provider "aws" {
  alias    = "by_region"
  for_each = local.regions
  region   = each.value
}
module "m" {
  source    = "./m"
  for_each  = local.regions
  providers = {
    aws = aws.by_region[local.which]
  }
}
"#;
        let inputs = crate::builder::Inputs {
            config: Some(crate::builder::test_config(&[
                ("main.tf", root),
                ("m/main.tf", "resource \"aws_instance\" \"x\" {}\n"),
            ])),
            ..Default::default()
        };
        let b = build(&inputs, BuilderKind::Plan);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(
            s.contains("module.m (expand)\n  local.regions (expand)\n  local.which (expand)\n"),
            "{s}"
        );
    }
}
