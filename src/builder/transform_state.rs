//! Transforms driven by prior state: `OrphanResourceInstanceTransformer` (instances whose resource
//! block is gone), `OrphanResourceInstanceCountTransformer` (instances beyond the current count),
//! `StateTransformer` (current/deposed objects), `AttachStateTransformer`,
//! `RemovedModuleTransformer` and `OrphanOutputTransformer`.

use super::graph::Graph;
use super::nodes::{InstanceData, InstanceKind, Node};
use super::transform::{Diagnostics, Transform};
use crate::addrs::{AbsResourceInstance, InstanceKey};
use crate::config::Config;
use crate::state::{ResourceState, State};
use std::collections::BTreeSet;

/// Instance keys that have a current (not deposed) object.
fn current_keys(rs: &ResourceState) -> impl Iterator<Item = &InstanceKey> {
    rs.instances
        .iter()
        .filter(|(_, i)| i.current.is_some())
        .map(|(k, _)| k)
}

pub struct OrphanResourceInstanceTransformer<'a> {
    pub config: Option<&'a Config>,
    pub state: Option<&'a State>,
    pub concrete: InstanceKind,
    pub skip: bool,
}

impl Transform for OrphanResourceInstanceTransformer<'_> {
    fn name(&self) -> &'static str {
        "OrphanResourceInstanceTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let (Some(state), false) = (self.state, self.skip) else {
            return Ok(());
        };
        for rs in state.resources.values() {
            let m = self
                .config
                .and_then(|c| c.descendant_for_instance(&rs.addr.module));
            if m.is_some_and(|m| m.module.resource(&rs.addr.resource).is_some()) {
                continue;
            }
            for key in current_keys(rs) {
                let d = InstanceData::new(rs.addr.instance(key.clone()));
                g.add(Node::Instance {
                    kind: self.concrete.clone(),
                    d,
                });
            }
        }
        Ok(())
    }
}

pub struct OrphanResourceInstanceCountTransformer<'a> {
    pub state: Option<&'a State>,
    pub addr: Option<AbsResourceInstance>,
    pub instance_addrs: Vec<AbsResourceInstance>,
    pub concrete: InstanceKind,
}

impl Transform for OrphanResourceInstanceCountTransformer<'_> {
    fn name(&self) -> &'static str {
        "OrphanResourceInstanceCountTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let (Some(state), Some(addr)) = (self.state, &self.addr) else {
            return Ok(());
        };
        let Some(rs) = state.resources.get(&addr.contains_resource()) else {
            return Ok(());
        };
        for key in current_keys(rs) {
            let a = rs.addr.instance(key.clone());
            if self.instance_addrs.contains(&a) {
                continue;
            }
            g.add(Node::Instance {
                kind: self.concrete.clone(),
                d: InstanceData::new(a),
            });
        }
        Ok(())
    }
}

pub struct StateTransformer<'a> {
    pub state: Option<&'a State>,
    /// Vertex kind for current objects (`None`: skip them).
    pub concrete_current: Option<InstanceKind>,
    /// Make deposed-object vertices (`NodePlanDeposedResourceInstanceObject`).
    pub deposed: bool,
}

impl Transform for StateTransformer<'_> {
    fn name(&self) -> &'static str {
        "StateTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(state) = self.state else {
            return Ok(());
        };
        for rs in state.resources.values() {
            for (key, inst) in &rs.instances {
                let a = rs.addr.instance(key.clone());
                if let (Some(_), Some(k)) = (&inst.current, &self.concrete_current) {
                    g.add(Node::Instance {
                        kind: k.clone(),
                        d: InstanceData::new(a.clone()),
                    });
                }
                if !self.deposed {
                    continue;
                }
                for dk in inst.deposed.keys() {
                    g.add(Node::Instance {
                        kind: InstanceKind::PlanDeposed(dk.clone()),
                        d: InstanceData::new(a.clone()),
                    });
                }
            }
        }
        Ok(())
    }
}

pub struct AttachStateTransformer<'a> {
    pub state: Option<&'a State>,
}

impl Transform for AttachStateTransformer<'_> {
    fn name(&self) -> &'static str {
        "AttachStateTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(state) = self.state else {
            return Ok(());
        };
        for v in g.vertices() {
            let Some(Node::Instance { d, .. }) = g.node_mut(v) else {
                continue;
            };
            let Some(rs) = state.resources.get(&d.addr.contains_resource()) else {
                continue;
            };
            let Some(inst) = rs.instances.get(&d.addr.resource.key) else {
                continue;
            };
            // The provider recorded for the resource; the current object's dependencies and
            // create_before_destroy (StateDependencies and CreateBeforeDestroy read only the
            // current object).
            d.res.stored_provider = Some(rs.provider.clone());
            if let Some(obj) = &inst.current {
                d.has_state = true;
                d.state_deps = obj.dependencies.clone();
                d.state_cbd = obj.create_before_destroy;
            }
        }
        Ok(())
    }
}

pub struct RemovedModuleTransformer<'a> {
    pub config: Option<&'a Config>,
    pub state: Option<&'a State>,
}

impl Transform for RemovedModuleTransformer<'_> {
    fn name(&self) -> &'static str {
        "RemovedModuleTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(state) = self.state else {
            return Ok(());
        };
        let mut removed = BTreeSet::new();
        for rs in state.resources.values() {
            let path = rs.addr.module.module();
            if path.is_root() {
                continue;
            }
            if !self.config.is_some_and(|c| c.declares_module_path(&path)) {
                removed.insert(path);
            }
        }
        for path in removed {
            g.add(Node::CloseModule { path });
        }
        Ok(())
    }
}

/// `OrphanOutputTransformer`: an `output.NAME (destroy)` vertex for each output value recorded
/// in state that the configuration no longer declares (state format 4 keeps root module outputs
/// only).
pub struct OrphanOutputTransformer<'a> {
    pub config: Option<&'a Config>,
    pub state: Option<&'a State>,
}

impl Transform for OrphanOutputTransformer<'_> {
    fn name(&self) -> &'static str {
        "OrphanOutputTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(state) = self.state else {
            return Ok(());
        };
        for name in state.outputs.keys() {
            if self
                .config
                .is_some_and(|c| c.module.outputs.contains_key(name))
            {
                continue;
            }
            g.add(Node::DestroyOutput {
                module: crate::addrs::Module::root(),
                name: name.clone(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::transform::Operation;
    use crate::builder::{BuilderKind, apply_steps, build, run_steps, test_inputs};

    /// internal/tofu/transform_orphan_output.go `OrphanOutputTransformer`: an output value
    /// recorded in state that the configuration no longer declares gets an
    /// `output.NAME (destroy)` vertex (node_output.go `NodeDestroyableOutput.Name`), in plans and
    /// applies alike; declared outputs get none.
    #[test]
    fn outputs_left_in_state_are_destroyed() {
        let state = r#"{"version": 4, "outputs": {"old": {"value": 1, "type": "number"},
                        "kept": {"value": 2, "type": "number"}}, "resources": []}"#;
        let inputs = test_inputs(
            &[("main.tf", "output \"kept\" {\n  value = 2\n}\n")],
            Some(state),
            None,
            None,
        );
        let plan = build(&inputs, BuilderKind::Plan).graph.string();
        assert!(plan.contains("output.old (destroy)\n"), "{plan}");
        assert!(!plan.contains("output.kept (destroy)"), "{plan}");
        let apply = run_steps(&apply_steps(&inputs, Operation::Apply))
            .graph
            .string();
        assert!(apply.contains("output.old (destroy)\n"), "{apply}");
        // NodeDestroyableOutput.DotNode: it draws itself as a note.
        let dot = build(&inputs, BuilderKind::Plan)
            .graph
            .dag()
            .dot(&crate::dag::DotOpts::default());
        assert!(
            dot.contains("\"[root] output.old (destroy)\" [label = \"output.old (destroy)\", shape = \"note\"]\n"),
            "{dot}"
        );
    }
}
