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
        let mut claimed = vec![false; root.imports.len()];
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
                    for (i, imp) in root.imports.iter().enumerate() {
                        if imp.to_resource.as_ref() == Some(&addr) {
                            claimed[i] = true;
                            d.import_targets.push(imp.clone());
                        }
                    }
                }
                g.add(Node::Resource {
                    kind: self.concrete,
                    d,
                });
            }
        }
        if !self.import_targets {
            return Ok(());
        }
        // Import targets no resource block claimed (OpenTofu only generates configuration for
        // them when asked to, which graph building here never is).
        let diags: Vec<String> = root
            .imports
            .iter()
            .zip(claimed)
            .filter(|(_, c)| !c)
            .map(|(imp, _)| {
                let addr = imp.to_resource.as_ref().map(|a| a.to_string()).unwrap_or_default();
                format!(
                    "Configuration for import target does not exist: The configuration for the given import {addr} does not exist. All target instances must have an associated configuration to be imported."
                )
            })
            .collect();
        if diags.is_empty() { Ok(()) } else { Err(diags) }
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

#[cfg(test)]
mod tests {
    use crate::builder::model::load_config;
    use crate::builder::{BuilderKind, Inputs, build};
    use std::collections::BTreeMap;

    fn plan(tf: &str) -> crate::builder::Built {
        let mut files = BTreeMap::new();
        files.insert("main.tf".to_string(), tf.to_string());
        build(
            &Inputs {
                config: Some(load_config(&files, "").expect("loads")),
                ..Default::default()
            },
            BuilderKind::Plan,
        )
    }

    #[test]
    fn import_blocks_must_target_configured_resources() {
        let ok = plan(
            "import {\n  for_each = var.ids\n  to = aws_instance.a[each.key]\n  id = each.value\n}\nvariable \"ids\" {}\nresource \"aws_instance\" \"a\" {\n  for_each = var.ids\n}\n",
        );
        assert!(ok.diagnostics.is_empty(), "{:?}", ok.diagnostics);
        let bad = plan("import {\n  to = aws_instance.missing\n  id = \"i-1\"\n}\n");
        assert_eq!(bad.diagnostics.len(), 1);
        assert!(
            bad.diagnostics[0].contains("import aws_instance.missing does not exist"),
            "{:?}",
            bad.diagnostics
        );
    }
}
