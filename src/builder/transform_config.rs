//! `ConfigTransformer` (one whole-resource vertex per resource block) and
//! `AttachResourceConfigTransformer` (gives resource vertices their configuration).

use super::graph::Graph;
use super::nodes::{Node, ResourceData, ResourceKind};
use super::transform::{Diagnostics, Transform};
use crate::addrs::ResourceMode;
use crate::config::{Config, Diagnostic};

pub struct ConfigTransformer<'a> {
    pub config: Option<&'a Config>,
    pub concrete: ResourceKind,
    /// The modes to add; `None` adds all. (Go's `ModeFilter` says which modes to *skip*; the plan
    /// builder's filter during `walkPlanDestroy` skips all but ephemeral resources.)
    pub modes: Option<Vec<ResourceMode>>,
    /// Attach the root module's import blocks to the resources they target (Go passes
    /// `ImportTargets` only to normal plans and validation).
    pub import_targets: bool,
    /// Add a resource vertex for an import target no resource block claims instead of failing
    /// (Go's `forceAddImportTargets`, set for `walkValidate`).
    pub force_add_import_targets: bool,
}

impl Transform for ConfigTransformer<'_> {
    fn name(&self) -> &'static str {
        "ConfigTransformer"
    }
    fn transform(&self, g: &mut Graph) -> Result<(), Diagnostics> {
        let Some(root) = self.config else {
            return Ok(());
        };
        let imports: &[crate::config::Import] = if self.import_targets {
            &root.module.imports
        } else {
            &[]
        };
        let targets: Vec<_> = imports.iter().map(|i| i.to_resource()).collect();
        let mut claimed = vec![false; imports.len()];
        for c in root.all_modules() {
            let m = &c.module;
            // Module-level resources, then the data blocks scoped in check blocks (Go's
            // module.DataResources holds both).
            let resources = m
                .all_resources()
                .chain(m.checks.values().flat_map(|ch| ch.data_resources.iter()));
            for r in resources {
                if let Some(modes) = &self.modes
                    && !modes.contains(&r.mode)
                {
                    continue;
                }
                let mut d = ResourceData::new(r.addr().in_module(c.path.clone()));
                for (i, imp) in imports.iter().enumerate() {
                    if !claimed[i] && targets[i].as_ref() == Some(&d.addr) {
                        claimed[i] = true;
                        d.import_targets.push(imp.clone());
                    }
                }
                g.add(Node::Resource {
                    kind: self.concrete,
                    d,
                });
            }
        }
        // Import targets no resource block claimed (OpenTofu only generates configuration for
        // them when asked to, which graph building here never is).
        let mut diags = Diagnostics::new();
        for ((imp, to), _) in imports
            .iter()
            .zip(&targets)
            .zip(claimed)
            .filter(|(_, c)| !c)
        {
            match to {
                // Go adds unclaimed targets module by module, so one whose module does not
                // exist gets nothing (validation does not check import targets).
                Some(addr)
                    if self.force_add_import_targets && root.descendant(&addr.module).is_none() => {
                }
                Some(addr) if self.force_add_import_targets => {
                    let mut d = ResourceData::new(addr.clone());
                    d.import_targets.push(imp.clone());
                    g.add(Node::Resource {
                        kind: self.concrete,
                        d,
                    });
                }
                _ => {
                    let addr = to.as_ref().map(|a| a.to_string()).unwrap_or_default();
                    diags.push(Diagnostic::error(
                        "Configuration for import target does not exist",
                        format!(
                            "The configuration for the given import {addr} does not exist. All target instances must have an associated configuration to be imported."
                        ),
                        Some(imp.decl_range.clone()),
                    ));
                }
            }
        }
        if diags.is_empty() { Ok(()) } else { Err(diags) }
    }
}

pub struct AttachResourceConfigTransformer<'a> {
    pub config: Option<&'a Config>,
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
            if let Some(rc) = m.module.resource_shared(&d.addr.resource) {
                d.config = Some(rc.clone());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::{BuilderKind, Inputs, build, test_config};

    fn plan(tf: &str) -> crate::builder::Built {
        build(
            &Inputs {
                config: Some(test_config(&[("main.tf", tf)])),
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
        let d = &bad.diagnostics[0];
        assert!(
            d.detail
                .contains("import aws_instance.missing does not exist"),
            "{d:?}"
        );
        let range = d.range.as_ref().expect("the import block's range");
        assert_eq!((&*range.file, range.start.line), ("main.tf", 1));
    }

    fn build_kind(tf: &str, kind: BuilderKind) -> crate::builder::Built {
        build(
            &Inputs {
                config: Some(test_config(&[("main.tf", tf)])),
                ..Default::default()
            },
            kind,
        )
    }

    /// internal/tofu/node_resource_abstract.go `RootReferences` and
    /// `referencesInImportAddress`: the computed index keys of an import block's `to` are
    /// references of the resource it targets, read in the root module.
    #[test]
    fn import_address_keys_are_references() {
        let b = plan(
            "locals {\n  k = \"x\"\n}\nimport {\n  to = aws_instance.a[local.k]\n  id = \"i-1\"\n}\nresource \"aws_instance\" \"a\" {\n  for_each = toset([\"x\"])\n}\n",
        );
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        let s = b.graph.string();
        assert!(
            s.contains("aws_instance.a (expand)\n  local.k (expand)\n"),
            "{s}"
        );
    }

    /// context_plan.go and context_validate.go give `ImportTargets` to normal plans and to
    /// validation only; transform_config.go `ConfigTransformer.transformSingle` adds a vertex for
    /// an unclaimed target while validating (`forceAddImportTargets`), and refresh-only and
    /// destroy plans never see import blocks (so no error for a missing configuration).
    #[test]
    fn import_targets_per_builder() {
        let tf = "import {\n  to = aws_instance.missing\n  id = \"i-1\"\n}\n";
        let b = build_kind(tf, BuilderKind::Plan);
        assert_eq!(b.diagnostics.len(), 1, "{:?}", b.diagnostics);
        let b = build_kind(tf, BuilderKind::Validate);
        assert!(b.diagnostics.is_empty(), "{:?}", b.diagnostics);
        assert!(
            b.graph.string().contains("aws_instance.missing\n"),
            "{}",
            b.graph.string()
        );
        for kind in [BuilderKind::PlanRefreshOnly, BuilderKind::PlanDestroy] {
            let b = build_kind(tf, kind);
            assert!(b.diagnostics.is_empty(), "{kind:?}: {:?}", b.diagnostics);
            assert!(!b.graph.string().contains("missing"), "{kind:?}");
        }
    }

    /// internal/tofu/transform_config_test.go TestConfigTransformer_mode, "only ephemeral
    /// resources": the mode filter keeps ephemeral resources alone.
    #[test]
    fn the_mode_filter_can_keep_only_ephemeral_resources() {
        let config = test_config(&[(
            "main.tf",
            "resource \"aws_instance\" \"web\" {}\ndata \"aws_ami\" \"foo\" {}\nephemeral \"aws_secret\" \"secret\" {}\n",
        )]);
        let t = super::ConfigTransformer {
            config: Some(&config),
            concrete: crate::builder::nodes::ResourceKind::Abstract,
            modes: Some(vec![crate::addrs::ResourceMode::Ephemeral]),
            import_targets: false,
            force_add_import_targets: false,
        };
        let b = crate::builder::run_steps(&[Box::new(t)]);
        assert_eq!(b.graph.string(), "ephemeral.aws_secret.secret\n");
    }
}
