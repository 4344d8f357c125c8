//! `ConfigTransformer` (one whole-resource vertex per resource block) and
//! `AttachResourceConfigTransformer` (gives resource vertices their configuration).

use super::addr::{ConfigResource, Mode};
use super::graph::Graph;
use super::model::Module;
use super::nodes::{Node, ResourceData, ResourceKind};
use super::transform::{Diagnostics, Transform};

pub struct ConfigTransformer<'a> {
    pub config: Option<&'a Module>,
    pub concrete: ResourceKind,
    /// Modes to keep; `None` keeps all (Go `ModeFilter` returning true means skip).
    pub modes: Option<Vec<Mode>>,
    /// Add nothing (plan-destroy).
    pub skip: bool,
    /// Attach the root module's import blocks to the resources they target.
    pub import_targets: bool,
}

impl Transform for ConfigTransformer<'_> {
    fn name(&self) -> &'static str {
        "ConfigTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(root) = self.config else {
            return Ok(());
        };
        if self.skip {
            return Ok(());
        }
        for m in root.all_modules() {
            for r in &m.resources {
                if let Some(modes) = &self.modes
                    && !modes.contains(&r.addr.mode)
                {
                    continue;
                }
                let addr = ConfigResource {
                    module: m.path.clone(),
                    resource: r.addr.clone(),
                };
                let mut d = ResourceData::new(addr.clone());
                if self.import_targets {
                    d.import_targets = root
                        .imports
                        .iter()
                        .filter(|i| i.to_resource.as_ref() == Some(&addr))
                        .cloned()
                        .collect();
                }
                g.add(Node::Resource {
                    kind: self.concrete,
                    d,
                });
            }
        }
        Ok(())
    }
}

pub struct AttachResourceConfigTransformer<'a> {
    pub config: Option<&'a Module>,
}

impl Transform for AttachResourceConfigTransformer<'_> {
    fn name(&self) -> &'static str {
        "AttachResourceConfigTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(root) = self.config else {
            return Ok(());
        };
        for v in g.vertices() {
            let Some(n) = g.node_mut(v) else { continue };
            let Some(d) = n.resource_data_mut() else {
                continue;
            };
            let Some(m) = root.descendant(&d.addr.module) else {
                continue;
            };
            if let Some(rc) = m.resource(&d.addr.resource) {
                d.config = Some(rc.clone());
            }
        }
        Ok(())
    }
}
