//! `DiffTransformer`: resource-instance vertices for the planned changes (apply graphs).

use super::graph::Graph;
use super::nodes::{InstanceData, InstanceKind, Node};
use super::transform::{Diagnostics, Transform};
use super::why::reason;
use crate::config::{Config, Diagnostic};
use crate::plan::{Action, Changes};
use crate::state::State;
use std::collections::BTreeMap;

pub struct DiffTransformer<'a> {
    pub config: Option<&'a Config>,
    pub state: Option<&'a State>,
    pub changes: Option<&'a Changes>,
    /// Vertex kind for create/update actions.
    pub concrete: InstanceKind,
}

/// A deposed key not yet used by the instance (OpenTofu picks a random one; any unused key is
/// equivalent for graph shape).
fn unused_deposed_key(used: &[String]) -> String {
    let mut n: u32 = 1;
    loop {
        let k = format!("{n:08x}");
        if !used.contains(&k) {
            return k;
        }
        n += 1;
    }
}

/// `produceForgetNode`: the vertex that takes an object out of state without destroying it.
fn forget_node(addr: &crate::addrs::AbsResourceInstance, deposed: Option<&str>) -> Node {
    let kind = match deposed {
        None => InstanceKind::Forget,
        Some(k) => InstanceKind::ForgetDeposed(k.to_string()),
    };
    Node::Instance {
        kind,
        d: InstanceData::new(addr.clone()),
    }
}

impl Transform for DiffTransformer<'_> {
    fn name(&self) -> &'static str {
        "DiffTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(changes) = self.changes else {
            return Ok(());
        };
        let mut diags = Vec::new();
        // Whole-resource vertices present before we start.
        let mut resource_nodes: BTreeMap<String, Vec<super::graph::VId>> = BTreeMap::new();
        for v in g.vertices() {
            if let Node::Resource { d, .. } = g.node(v) {
                resource_nodes
                    .entry(d.addr.to_string())
                    .or_default()
                    .push(v);
            }
        }
        for rc in &changes.resources {
            let addr = &rc.addr;
            let has_conditions = || {
                self.config
                    .and_then(|c| c.descendant_for_instance(&addr.module))
                    .and_then(|m| m.module.resource(&addr.resource.resource))
                    .is_some_and(|r| !r.preconditions.is_empty() || !r.postconditions.is_empty())
            };
            let (mut update, mut delete, mut forget, mut cbd) = (false, false, false, false);
            match rc.action {
                Action::NoOp => update = has_conditions(),
                Action::Delete => delete = true,
                Action::Forget => forget = true,
                Action::ForgetThenCreate => {
                    update = true;
                    forget = true;
                }
                Action::DeleteThenCreate | Action::CreateThenDelete => {
                    update = true;
                    delete = true;
                    cbd = rc.action == Action::CreateThenDelete;
                }
                _ => update = true,
            }
            let mut dk = rc.deposed.clone();
            if dk.is_some() && !matches!(rc.action, Action::Delete | Action::NoOp | Action::Forget)
            {
                diags.push(Diagnostic::error(
                    "Invalid planned change for deposed object",
                    format!(
                        "The plan contains a non-removal change for {addr} deposed object {}. The only valid actions for a deposed object is to destroy it or forget it, so this is a bug in OpenTofu.",
                        dk.clone().unwrap_or_default()
                    ),
                    None,
                ));
                continue;
            }
            if update && delete && cbd {
                // The replaced object is deposed under a key its instance does not use yet.
                let used: Vec<String> = match self.state {
                    Some(state) => {
                        let Some(inst) = state
                            .resources
                            .get(&addr.contains_resource())
                            .and_then(|r| r.instances.get(&addr.resource.key))
                        else {
                            diags.push(Diagnostic::error(
                                "Invalid planned change",
                                format!(
                                    "The plan contains a replace change for {addr}, which doesn't exist yet. This is a bug in OpenTofu."
                                ),
                                None,
                            ));
                            continue;
                        };
                        inst.deposed.keys().cloned().collect()
                    }
                    None => Vec::new(),
                };
                dk = Some(unused_deposed_key(&used));
            }
            if update {
                let mut d = InstanceData::new(addr.clone());
                // A create_before_destroy replacement is CBD whatever the configuration says.
                d.res.create_before_destroy_forced = cbd;
                let v = g.add(Node::Instance {
                    kind: self.concrete.clone(),
                    d,
                });
                for r in resource_nodes
                    .get(&addr.contains_resource().to_string())
                    .into_iter()
                    .flatten()
                {
                    g.connect_because(v, *r, reason::INSTANCE_OF_RESOURCE);
                }
                if forget {
                    let f = g.add(forget_node(addr, dk.as_deref()));
                    g.connect_because(v, f, reason::FORGET_FIRST);
                }
            }
            if delete {
                let kind = match &dk {
                    None => InstanceKind::Destroy,
                    Some(k) => InstanceKind::DestroyDeposed(k.clone()),
                };
                g.add(Node::Instance {
                    kind,
                    d: InstanceData::new(addr.clone()),
                });
            }
            if forget && !update {
                g.add(forget_node(addr, dk.as_deref()));
            }
        }
        if diags.is_empty() { Ok(()) } else { Err(diags) }
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::transform::Operation;
    use crate::builder::{apply_steps, run_steps, test_inputs, test_schemas, test_state};

    fn apply(config: &str, state: &str, changes: &str) -> crate::builder::Built {
        let schemas = test_schemas();
        let inputs = test_inputs(
            &[("main.tf", config)],
            Some(state),
            Some(changes),
            Some(&schemas),
        );
        run_steps(&apply_steps(&inputs, Operation::Apply))
    }

    /// internal/tofu/transform_diff.go `DiffTransformer.Transform` and `produceForgetNode`: a
    /// `forget` change (a `removed` block with `destroy = false`) is a `(forget)` vertex; a
    /// `forget-then-create` change creates the new object after forgetting the old one
    /// (node_resource_forget.go `NodeForgetResourceInstance.Name`).
    #[test]
    fn forget_changes_get_forget_vertices() {
        let state = test_state(&[
            ("gone", r#"[{"attributes": {}}]"#),
            ("again", r#"[{"attributes": {}}]"#),
        ]);
        let b = apply(
            "resource \"test_object\" \"again\" {}\n",
            &state,
            r#"[{"addr": "test_object.gone", "action": "forget"},
                {"addr": "test_object.again", "action": "forget-then-create"}]"#,
        );
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(s.contains("test_object.gone (forget)\n"), "{s}");
        assert!(!s.contains("test_object.gone (destroy)"), "{s}");
        assert!(
            s.contains(
                "test_object.again\n  test_object.again (expand)\n  test_object.again (forget)\n"
            ),
            "{s}"
        );
    }

    /// internal/tofu/transform_diff.go `DiffTransformer.Transform`: Go's errors for a replace
    /// of an object that state does not have, and for a deposed object whose change is neither
    /// a removal nor a no-op.
    #[test]
    fn impossible_changes_are_errors() {
        let b = apply(
            "resource \"test_object\" \"a\" {}\n",
            &test_state(&[]),
            r#"[{"addr": "test_object.a", "action": "create-then-delete"}]"#,
        );
        assert_eq!(b.diagnostics.len(), 1, "{:?}", b.diagnostics);
        assert_eq!(b.diagnostics[0].summary, "Invalid planned change");
        assert_eq!(
            b.diagnostics[0].detail,
            "The plan contains a replace change for test_object.a, which doesn't exist yet. This is a bug in OpenTofu."
        );
        let b = apply(
            "resource \"test_object\" \"a\" {}\n",
            &test_state(&[("a", r#"[{"deposed": "00000001", "attributes": {}}]"#)]),
            r#"[{"addr": "test_object.a", "action": "update", "deposed": "00000001"}]"#,
        );
        assert_eq!(b.diagnostics.len(), 1, "{:?}", b.diagnostics);
        assert_eq!(
            b.diagnostics[0].detail,
            "The plan contains a non-removal change for test_object.a deposed object 00000001. The only valid actions for a deposed object is to destroy it or forget it, so this is a bug in OpenTofu."
        );
    }
}
