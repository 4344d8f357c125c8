//! Transforms driven by prior state: `OrphanResourceInstanceTransformer` (instances whose resource
//! block is gone), `OrphanResourceInstanceCountTransformer` (instances beyond the current count),
//! `StateTransformer` (current/deposed objects), `AttachStateTransformer`,
//! `RemovedModuleTransformer` and `OrphanOutputTransformer`.

use super::addr::{AbsResourceInstance, InstanceKey, module_instance_path};
use super::graph::Graph;
use super::model::{Module, State, StateResource};
use super::nodes::{InstanceData, InstanceKind, Node};
use super::transform::{Diagnostics, Transform};
use std::collections::BTreeSet;

/// Instance keys that have a current (not deposed) object.
fn current_keys(rs: &StateResource) -> Vec<InstanceKey> {
    let mut out: Vec<InstanceKey> = Vec::new();
    for i in &rs.instances {
        if i.deposed.is_none() && !out.contains(&i.key) {
            out.push(i.key.clone());
        }
    }
    out
}

fn instance_addr(rs: &StateResource, key: InstanceKey) -> AbsResourceInstance {
    AbsResourceInstance {
        module: rs.module.clone(),
        resource: rs.addr.clone(),
        key,
    }
}

pub struct OrphanResourceInstanceTransformer<'a> {
    pub config: Option<&'a Module>,
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
        for rs in &state.resources {
            let m = self
                .config
                .and_then(|c| c.descendant(&module_instance_path(&rs.module)));
            if m.is_some_and(|m| m.resource(&rs.addr).is_some()) {
                continue;
            }
            for key in current_keys(rs) {
                let d = InstanceData::new(instance_addr(rs, key));
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
        let Some(rs) = state.resource(addr) else {
            return Ok(());
        };
        for key in current_keys(rs) {
            let a = instance_addr(rs, key);
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
        for rs in &state.resources {
            for inst in &rs.instances {
                let a = instance_addr(rs, inst.key.clone());
                match (&inst.deposed, &self.concrete_current) {
                    (None, Some(k)) => {
                        g.add(Node::Instance {
                            kind: k.clone(),
                            d: InstanceData::new(a),
                        });
                    }
                    (Some(dk), _) if self.deposed => {
                        g.add(Node::Instance {
                            kind: InstanceKind::PlanDeposed(dk.clone()),
                            d: InstanceData::new(a),
                        });
                    }
                    _ => {}
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
            let Some(rs) = state.resource(&d.addr) else {
                continue;
            };
            let Some(inst) = rs.instances.iter().find(|i| i.key == d.addr.key) else {
                continue;
            };
            let cur = rs
                .instances
                .iter()
                .find(|i| i.key == d.addr.key && i.deposed.is_none());
            d.has_state = true;
            d.state_deps = cur.unwrap_or(inst).dependencies.clone();
            d.state_cbd = cur.is_some_and(|c| c.create_before_destroy);
            d.res.stored_provider = Some(rs.provider.clone());
        }
        Ok(())
    }
}

pub struct RemovedModuleTransformer<'a> {
    pub config: Option<&'a Module>,
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
        for rs in &state.resources {
            let path = module_instance_path(&rs.module);
            if path.is_empty() {
                continue;
            }
            if self.config.and_then(|c| c.descendant(&path)).is_none() {
                removed.insert(path);
            }
        }
        for path in removed {
            g.add(Node::CloseModule { path });
        }
        Ok(())
    }
}

/// Outputs recorded in state but gone from configuration; the conformance states record none.
pub struct OrphanOutputTransformer;

impl Transform for OrphanOutputTransformer {
    fn name(&self) -> &'static str {
        "OrphanOutputTransformer"
    }
    fn transform(&self, _g: &mut Graph) -> Result<(), Diagnostics> {
        Ok(())
    }
}
